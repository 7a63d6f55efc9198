// CheckRun: one pass over the history (engine::Replay for the flights and the
// balances, vector clocks here) finds each node's cut point per snapshot;
// then every claimed snapshot is compared with what that cut implies.
#include "check/consistency_checker.h"
#include "base/check.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <map>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "apps/bank/money.h"
#include "engine/replay.h"
#include "base/overloaded.h"
#include "check/findings.h"

namespace cutline::check {

namespace {

using cutline::Amount;
using engine::Anomaly;
using apps::Money;
using engine::Flight;
using engine::kNever;
using sim::ChannelId;
using sim::NodeId;
using sim::Seq;

// A vector clock (VectorClock): entry p counts p's events that happen-before
// or are the event. Every event of a node ticks its own entry (records,
// reads and closes too: the usual rule, and what ShiViz reads); only
// messages carry a clock to another node. A cut compares positions on one
// node's timeline, which the extra ticks do not reorder.
using Clock = VectorClock;

// A message as the checker sees it: its flight and where it falls on the
// sender's and receiver's timelines.
struct MessageInfo {
  const Flight* flight;
  std::uint32_t send_local = 0;     // sender's clock entry at the send
  std::uint32_t deliver_local = 0;  // receiver's clock entry at delivery
  Seq seq() const { return flight->seq; }
  ChannelId channel() const { return flight->channel; }
  bool delivered() const { return flight->delivered(); }
  std::size_t deliver_index() const { return flight->delivered_at; }
  bool IsMarkerOf(SnapshotId id) const {
    const auto* m = std::get_if<history::Marker>(&flight->payload);
    return m != nullptr && m->snapshot == id;
  }
};

// Where one node's record of one snapshot cuts its own timeline.
struct CutPoint {
  int records = 0;  // record events seen; exactly one is correct
  // The node's message events inside the cut (those before the record).
  std::uint32_t inside = 0;
  Clock clock;          // the node's clock at the cut
  Amount replayed = 0;  // the balance replayed from the history there
  std::size_t record_index = kNever;  // the record event
};

// Per node, during the walk.
struct NodeTimeline {
  Clock clock;
  // The clock just before the node's last marker delivery, and what its
  // last message event delivered (0 if it was a send): a record caused by
  // that marker cuts there (the marker only triggers the record and was sent
  // after its sender's record, so it lies outside).
  Clock before_last_delivery;
  Seq last_delivered = 0;
};

class Checker {
 public:
  explicit Checker(const RunRecord& run)
      : run_(run), net_(*run.topology), nodes_(net_.nodes()) {}

  // Each event's clock, as the walk computes it (EventClocks).
  std::vector<EventClock> Clocks() {
    std::vector<EventClock> clocks;
    clocks.reserve(run_.events.size());
    clocks_ = &clocks;
    IndexClaims();
    ReplayHistory();
    clocks_ = nullptr;
    return clocks;
  }

  CheckReport Run() {
    IndexClaims();
    if (ReplayHistory()) {
      for (std::size_t k = 0; k < run_.claims.size(); ++k) {
        if (first_claim_.at(run_.claims[k].id) != k) continue;
        CheckSnapshot(run_.claims[k], cuts_[k]);
        ++report_.snapshots_checked;
      }
    }
    return std::move(report_);
  }

 private:
  std::string Name(NodeId n) const {
    return n < run_.names.size() ? run_.names[n] : fmt::format("#{}", n);
  }
  // "#7", or the name the log gave message 7 ("m7"; a foreign log's
  // marker is named by the line that sent it, "P1.jsonl:20").
  std::string Ref(Seq seq) const {
    if (seq < run_.message_names.size() && !run_.message_names[seq].empty()) {
      return run_.message_names[seq];
    }
    return fmt::format("#{}", seq);
  }
  std::string Msg(Seq seq) const { return "message " + Ref(seq); }
  std::string ChannelName(ChannelId c) const {
    const sim::ChannelInfo& ch = net_.channel(c);
    return fmt::format("{}->{}", Name(ch.from), Name(ch.to));
  }
  std::string Describe(const MessageInfo& m) const {
    const std::string from = Name(net_.channel(m.channel()).from);
    if (const auto* t = std::get_if<history::Transfer>(&m.flight->payload)) {
      return findings::DescribeTransfer(Msg(m.seq()), Money(t->amount), from);
    }
    return findings::DescribeMarker(Msg(m.seq()),
                                    std::get<history::Marker>(m.flight->payload).snapshot, from);
  }
  // "$40 (message #7, N0->N1)".
  std::string TransferName(const MessageInfo& m) const {
    return findings::Transfer(Money(m.flight->amount()), Msg(m.seq()), ChannelName(m.channel()));
  }
  // A message the cut has received but not sent.
  std::string CrossingBackward(const MessageInfo& m) const {
    const sim::ChannelInfo& ch = net_.channel(m.channel());
    if (m.flight->is_transfer()) {
      return findings::TransferCrossesCut(TransferName(m), Name(ch.to), Name(ch.from));
    }
    return findings::MarkerCrossesCut(Name(ch.to), Describe(m), Name(ch.from));
  }
  void History(std::string_view text) {
    report_.problems.push_back(findings::AboutHistory(text));
  }
  void Snapshot(SnapshotId id, std::string_view text) {
    report_.problems.push_back(findings::AboutSnapshot(id, text));
  }

  void IndexClaims() {
    cuts_.assign(run_.claims.size(), std::vector<CutPoint>(nodes_));
    for (std::size_t k = 0; k < run_.claims.size(); ++k) {
      SnapshotId id = run_.claims[k].id;
      if (!first_claim_.emplace(id, k).second) {
        Snapshot(id, "claimed complete more than once");
      }
    }
  }

  // Pass 1. Returns false when the history is too broken to judge snapshots
  // by (an event naming something that does not exist, a message delivered
  // twice or as something else).
  bool ReplayHistory() {
    if (run_.initial_balances.size() != nodes_) {
      History(fmt::format("{} initial balances given for {} nodes",
                          run_.initial_balances.size(), nodes_));
      return false;
    }
    replay_.emplace(net_, run_.initial_balances, run_.app);
    nodes_timeline_.assign(nodes_, NodeTimeline{Clock(nodes_, 0), {}, 0});
    for (std::size_t i = 0; i < run_.events.size(); ++i) {
      const history::Event& e = run_.events[i];
      Anomaly a = replay_->Apply(e);
      if (a != Anomaly::kNone && !Report(i, e, a)) return false;
      std::visit(Overloaded{
                     [&](const history::Sent<history::Transfer>& s) { OnSend(s.seq); },
                     [&](const history::Sent<history::Marker>& s) { OnSend(s.seq); },
                     [&](const history::Delivered<history::Transfer>& d) {
                       OnDeliver(d.seq, /*marker=*/false);
                     },
                     [&](const history::Delivered<history::Marker>& d) {
                       OnDeliver(d.seq, /*marker=*/true);
                     },
                     [&](const history::Recorded& r) { OnRecord(i, r); },
                     [&](const history::Closed& c) {
                       closed_at_.emplace(std::make_pair(c.snapshot, c.channel), i);
                     },
                     [](const auto&) {},
                 },
                 e);
      // A send or a delivery ticked in OnSend or OnDeliver; any other event
      // ticks here, after OnRecord took the clock from before the record.
      const NodeId at = history::NodeOf(e, net_);
      if (!IsMessageEvent(e)) ++nodes_timeline_[at].clock[at];
      if (clocks_ != nullptr) clocks_->push_back(EventClock{at, nodes_timeline_[at].clock});
    }
    for (const Flight& f : replay_->flights()) {
      const Local& local = locals_.at(f.seq);
      messages_.push_back(MessageInfo{&f, local.send, local.deliver});
    }
    return true;
  }

  // Names what is wrong with event i; false if the walk cannot go on.
  bool Report(std::size_t i, const history::Event& e, Anomaly a) {
    Seq seq = std::visit(
        Overloaded{[](const history::Sent<history::Transfer>& s) { return s.seq; },
                   [](const history::Sent<history::Marker>& s) { return s.seq; },
                   [](const history::Delivered<history::Transfer>& d) { return d.seq; },
                   [](const history::Delivered<history::Marker>& d) { return d.seq; },
                   [](const auto&) { return Seq{0}; }},
        e);
    switch (a) {
      case Anomaly::kNone:
        return true;
      case Anomaly::kNotFifo: {
        // Not fatal: every check below stays meaningful, and this names the
        // reason the snapshot algorithm could not work. On a network that
        // may reorder, it is no fault (the verdict says what it cost).
        if (!run_.fifo) return true;
        const Flight& f = *replay_->Find(seq);
        History(findings::NotFifo(ChannelName(f.channel), Describe(MessageInfo{&f}),
                                  Ref(replay_->overtaken())));
        return true;
      }
      case Anomaly::kUnknownNode:
        History(fmt::format("event {} names an unknown node", i));
        return false;
      case Anomaly::kUnknownChannel:
        History(fmt::format("event {} names an unknown channel", i));
        return false;
      case Anomaly::kSentTwice:
        History(fmt::format("message #{} is sent twice", seq));
        return false;
      case Anomaly::kNeverSent:
        History(fmt::format("event {} delivers message #{}, never sent", i, seq));
        return false;
      case Anomaly::kDeliveredTwice:
        History(fmt::format("message #{} is delivered twice", seq));
        return false;
      case Anomaly::kNotAsSent:
        History(findings::DeliveredAsOther(i, Describe(MessageInfo{replay_->Find(seq)})));
        return false;
      case Anomaly::kOverflow:
        History(fmt::format("event {}: replaying a balance overflows", i));
        return false;
    }
    return false;
  }

  void OnSend(Seq seq) {
    NodeId self = net_.channel(replay_->Find(seq)->channel).from;
    NodeTimeline& q = nodes_timeline_[self];
    ++q.clock[self];
    q.last_delivered = 0;  // a receipt followed by a send is no longer last
    send_clock_.emplace(seq, q.clock);
    locals_[seq].send = q.clock[self];
  }

  void OnDeliver(Seq seq, bool /*marker*/) {
    NodeId self = net_.channel(replay_->Find(seq)->channel).to;
    NodeTimeline& q = nodes_timeline_[self];
    // Any delivery may cause a record (a Lai-Yang transfer does).
    q.before_last_delivery = q.clock;
    q.last_delivered = seq;
    const Clock& sent = send_clock_.at(seq);
    for (NodeId p = 0; p < nodes_; ++p) {
      q.clock[p] = std::max(q.clock[p], sent[p]);
    }
    send_clock_.erase(seq);
    ++q.clock[self];
    locals_[seq].deliver = q.clock[self];
  }

  void OnRecord(std::size_t i, const history::Recorded& r) {
    auto claim = first_claim_.find(r.snapshot);
    if (claim == first_claim_.end()) return;  // not claimed complete
    CutPoint& cut = cuts_[claim->second][r.node];
    if (++cut.records > 1) return;
    const NodeTimeline& q = nodes_timeline_[r.node];
    bool by_message = r.cause.by_message();
    const Flight* cause = nullptr;
    if (by_message) {
      // The cause is read, not guessed, but it must be true: the message
      // was this node's last message event, and of the kind the cause says
      // (a marker of this snapshot, or under Lai-Yang a transfer).
      cause = replay_->Find(r.cause.message_seq());
      const bool kind_ok =
          cause != nullptr && (r.cause.by_transfer()
                                   ? cause->is_transfer()
                                   : MessageInfo{cause}.IsMarkerOf(r.snapshot));
      if (!kind_ok || q.last_delivered != cause->seq) {
        History(findings::CauseNotLast(i, Name(r.node), r.snapshot, r.cause.by_transfer(),
                                       r.cause.message_seq()));
        by_message = false;
      }
    }
    cut.clock = by_message ? q.before_last_delivery : q.clock;
    cut.inside = cut.clock[r.node];
    cut.replayed = replay_->balance(r.node);
    // A transfer that caused the record is applied after it.
    if (by_message && r.cause.by_transfer()) {
      cut.replayed = replay_->before_delivery(r.node);
    }
    cut.record_index = i;
  }

  bool Inside(const std::vector<CutPoint>& cut, NodeId n,
              std::uint32_t local) const {
    return local <= cut[n].inside;
  }
  bool SentInside(const std::vector<CutPoint>& cut,
                  const MessageInfo& m) const {
    return Inside(cut, net_.channel(m.channel()).from, m.send_local);
  }
  bool ReceivedInside(const std::vector<CutPoint>& cut,
                      const MessageInfo& m) const {
    return m.delivered() &&
           Inside(cut, net_.channel(m.channel()).to, m.deliver_local);
  }

  void CheckSnapshot(const SnapshotClaim& claim,
                     const std::vector<CutPoint>& cut) {
    const SnapshotId id = claim.id;
    bool shape_ok = true;
    if (claim.balances.size() != nodes_) {
      Snapshot(id, fmt::format("claims {} recorded balances for {} branches",
                               claim.balances.size(), nodes_));
      shape_ok = false;
    }
    if (claim.channels.size() != net_.channel_count()) {
      Snapshot(id, fmt::format("claims {} channel states for {} channels",
                               claim.channels.size(), net_.channel_count()));
      shape_ok = false;
    }
    bool all_recorded = true;
    for (NodeId n = 0; n < nodes_; ++n) {
      if (cut[n].records == 0) {
        Snapshot(id, findings::NeverRecorded(Name(n)));
        all_recorded = false;
      } else if (cut[n].records > 1) {
        Snapshot(id, findings::RecordedTimes(Name(n), cut[n].records));
      }
    }
    // Without every node's cut point there is no cut to compare with.
    if (!all_recorded) return;

    CheckBalances(claim, cut, shape_ok);
    CheckCut(claim, cut);
    unrecorded_.clear();
    if (shape_ok) CheckChannels(claim, cut);
    CheckMarkers(claim, cut);
    if (shape_ok && run_.app.conserved()) CheckTotal(claim);
    Judge(id, cut, claim.epochs);
    if (shape_ok && run_.app.has_property()) CheckProperty(claim, cut);
  }

  // (g) The property the snapshot declares (read from its records) against
  // the property of the state at its cut (replayed from the history: each
  // branch's state at its record, and on each channel the messages sent
  // inside the cut and received outside it).
  void CheckProperty(const SnapshotClaim& claim, const std::vector<CutPoint>& cut) {
    std::vector<Amount> states(nodes_);
    for (NodeId n = 0; n < nodes_; ++n) states[n] = cut[n].replayed;
    std::vector<std::vector<Amount>> channels(net_.channel_count());
    for (const MessageInfo& m : messages_) {
      if (m.flight->is_transfer() && SentInside(cut, m) && !ReceivedInside(cut, m)) {
        channels[m.channel()].push_back(m.flight->amount());
      }
    }
    apps::Verdict at_cut = run_.app.Evaluate({&net_, states, channels});
    apps::Verdict declared = DeclaredProperty(run_.app, net_, claim);
    SnapshotVerdict& v = report_.verdicts.back();
    v.property = at_cut;
    v.declared = declared;
    if (declared.holds != at_cut.holds) {
      Snapshot(claim.id,
               fmt::format("declares {}{} but the state replayed at its cut is {}{}",
                           declared.holds ? "" : "not ", run_.app.definition().property,
                           at_cut.holds ? "" : "not ", run_.app.definition().property));
    }
  }

  // Where channel c stopped recording for snapshot id, in the history: its
  // Closed event, or else the delivery of the first marker of id on it.
  std::size_t CloseIndex(SnapshotId id, ChannelId c) const {
    auto it = closed_at_.find({id, c});
    if (it != closed_at_.end()) return it->second;
    std::size_t first = kNever;
    for (const MessageInfo& m : messages_) {
      if (m.channel() == c && m.IsMarkerOf(id) && m.delivered()) {
        first = std::min(first, m.deliver_index());
      }
    }
    return first;
  }

  // (f) The verdict, and a line for each transfer it names.
  void Judge(SnapshotId id, const std::vector<CutPoint>& cut, bool epochs) {
    SnapshotVerdict v;
    v.id = id;
    std::vector<std::size_t> close(net_.channel_count());
    for (ChannelId c = 0; c < net_.channel_count(); ++c) close[c] = CloseIndex(id, c);
    for (const MessageInfo& m : messages_) {
      if (!m.flight->is_transfer()) continue;
      const sim::ChannelInfo& ch = net_.channel(m.channel());
      bool sent_inside = SentInside(cut, m);
      bool received_inside = ReceivedInside(cut, m);
      bool overtaken = false;
      for (Seq barrier : replay_->OvertakenBy(m.seq())) {
        overtaken |= MessageInfo{replay_->Find(barrier)}.IsMarkerOf(id);
      }
      bool in_state =
          overtaken || (m.delivered() && !received_inside &&
                        (!epochs || sent_inside) &&
                        m.deliver_index() > cut[ch.to].record_index &&
                        m.deliver_index() < close[m.channel()]);
      const std::string what = TransferName(m);
      // A backward transfer is named by (a) already, as crossing the cut.
      if (received_inside && !sent_inside) v.backward.push_back(m.seq());
      if (in_state && !sent_inside) {
        v.extra.push_back(m.seq());
        Snapshot(id, findings::CountedTwice(what, Name(ch.from)));
      }
      if (sent_inside && !received_inside && !in_state) {
        v.missed.push_back(m.seq());
        Snapshot(id, findings::Missed(what, Name(ch.from), Name(ch.to)));
      }
    }
    // One cause each: a transfer the history already shows as missed (its
    // cut is wrong) is not also counted as lost by the channel's record.
    for (Seq q : unrecorded_) {
      if (std::find(v.missed.begin(), v.missed.end(), q) == v.missed.end()) {
        v.unrecorded.push_back(q);
      }
    }
    unrecorded_.clear();
    std::sort(v.unrecorded.begin(), v.unrecorded.end());
    for (Seq q : v.unrecorded) {
      MessageInfo m{replay_->Find(q)};
      Snapshot(id, findings::MissingFromSnapshot(Money(m.flight->amount()), Msg(q),
                                                 ChannelName(m.channel())));
    }
    report_.verdicts.push_back(std::move(v));
  }

  // (b)
  void CheckBalances(const SnapshotClaim& claim,
                     const std::vector<CutPoint>& cut, bool shape_ok) {
    if (!shape_ok) return;
    for (NodeId n = 0; n < nodes_; ++n) {
      const std::optional<Amount>& claimed = claim.balances[n];
      if (!claimed) {
        Snapshot(claim.id, findings::NoRecordedBalance(Name(n)));
      } else if (*claimed != cut[n].replayed) {
        Snapshot(claim.id, findings::BalanceNotReplayed(Name(n), *claimed, cut[n].replayed));
      }
    }
  }

  // (a) The vector clocks decide: the cut is consistent iff no node's clock
  // at its cut has seen more of p's events than p's own cut contains. A
  // violation always has a message that crosses the cut backwards (on the
  // causal chain it leaves p's outside and ends inside the other node's
  // cut), and that message is what gets named.
  void CheckCut(const SnapshotClaim& claim, const std::vector<CutPoint>& cut) {
    const SnapshotId id = claim.id;
    if (claim.markers_before_record) {
      // The clocks would count the barriers' edge as crossing; judge the
      // messages themselves instead.
      for (const MessageInfo& m : messages_) {
        if (m.IsMarkerOf(id) || !ReceivedInside(cut, m) || SentInside(cut, m)) {
          continue;
        }
        Snapshot(id, CrossingBackward(m));
      }
      return;
    }
    std::vector<std::pair<NodeId, NodeId>> violations;  // (p, q)
    for (NodeId q = 0; q < nodes_; ++q) {
      for (NodeId p = 0; p < nodes_; ++p) {
        if (cut[q].clock[p] > cut[p].inside) violations.emplace_back(p, q);
      }
    }
    if (violations.empty()) return;
    bool named = false;
    for (const MessageInfo& m : messages_) {
      if (ReceivedInside(cut, m) && !SentInside(cut, m)) {
        Snapshot(id, CrossingBackward(m));
        named = true;
      }
    }
    if (named) return;
    for (const auto& [p, q] : violations) {
      Snapshot(id, fmt::format("inconsistent cut: {}'s record depends on an "
                               "event of {} after {} recorded",
                               Name(q), Name(p), Name(p)));
    }
  }

  // (c)
  void CheckChannels(const SnapshotClaim& claim,
                     const std::vector<CutPoint>& cut) {
    const SnapshotId id = claim.id;
    // Transfers in transit across the cut, with their delivery position.
    std::vector<std::vector<std::pair<std::size_t, const MessageInfo*>>>
        expected(net_.channel_count());
    for (const MessageInfo& m : messages_) {
      if (m.flight->is_transfer() && SentInside(cut, m) &&
          !ReceivedInside(cut, m)) {
        expected[m.channel()].emplace_back(m.deliver_index(), &m);
      }
    }
    for (ChannelId c = 0; c < net_.channel_count(); ++c) {
      const history::ChannelRecord& claimed = claim.channels[c];
      if (claimed.state != ChannelRecording::kClosed) {
        Snapshot(id, findings::ChannelNotClosed(ChannelName(c),
                                                claimed.state == ChannelRecording::kRecording
                                                    ? "recording"
                                                    : "not recorded"));
      }
      // Undelivered ones (kNever) sort last, then by send order.
      std::sort(expected[c].begin(), expected[c].end(),
                [](const auto& a, const auto& b) {
                  return a.first != b.first ? a.first < b.first
                                            : a.second->seq() < b.second->seq();
                });
      std::vector<Amount> amounts;
      for (const auto& [at, m] : expected[c]) {
        amounts.push_back(m->flight->amount());
      }
      if (amounts != claimed.transfers) {
        Snapshot(id, findings::ChannelNotAsExpected(ChannelName(c), claimed.transfers, amounts));
        // The claim names amounts, not messages: each expected transfer
        // whose amount the claim does not hold (as a multiset) was lost.
        std::vector<Amount> left = claimed.transfers;
        for (const auto& [at, m] : expected[c]) {
          auto it = std::find(left.begin(), left.end(), m->flight->amount());
          if (it != left.end()) {
            left.erase(it);
          } else {
            unrecorded_.push_back(m->seq());
          }
        }
      }
    }
  }

  // (e)
  void CheckMarkers(const SnapshotClaim& claim,
                    const std::vector<CutPoint>& cut) {
    const SnapshotId id = claim.id;
    std::vector<std::vector<const MessageInfo*>> markers(net_.channel_count());
    for (const MessageInfo& m : messages_) {
      if (m.IsMarkerOf(id)) markers[m.channel()].push_back(&m);
    }
    const std::size_t want = claim.markers ? 1 : 0;
    for (ChannelId c = 0; c < net_.channel_count(); ++c) {
      if (markers[c].size() != want) {
        if (want == 0) {
          Snapshot(id, findings::MarkersInStopTheWorld(markers[c].size(), ChannelName(c)));
          continue;
        }
        Snapshot(id, findings::MarkerCount(markers[c].size(), ChannelName(c)));
        continue;
      }
      if (want == 0) continue;
      const MessageInfo& marker = *markers[c].front();
      NodeId from = net_.channel(c).from;
      if (SentInside(cut, marker)) {
        Snapshot(id, findings::MarkerSentInside(Name(from), ChannelName(c), Ref(marker.seq())));
      }
      if (!marker.delivered()) {
        Snapshot(id, findings::MarkerNeverDelivered(ChannelName(c), Ref(marker.seq())));
      }
    }
    // Rule 1: after recording, the marker goes out on a channel before
    // anything else does.
    for (const MessageInfo& m : messages_) {
      if (markers[m.channel()].size() != 1 || SentInside(cut, m)) continue;
      const MessageInfo& marker = *markers[m.channel()].front();
      if (m.seq() < marker.seq()) {
        Snapshot(id, findings::SentBeforeMarker(Name(net_.channel(m.channel()).from), Describe(m),
                                                ChannelName(m.channel())));
      }
    }
    if (claim.markers_sent != (claim.markers ? net_.channel_count() : 0)) {
      Snapshot(id, fmt::format("claims {} markers sent, but the network has {} "
                               "channels",
                               claim.markers_sent, net_.channel_count()));
    }
  }

  // (d)
  void CheckTotal(const SnapshotClaim& claim) {
    Amount bank_total = 0;
    Amount balances = 0;
    Amount channels = 0;
    bool overflow = false;
    for (Amount a : run_.initial_balances) {
      overflow |= __builtin_add_overflow(bank_total, a, &bank_total);
    }
    for (const std::optional<Amount>& b : claim.balances) {
      if (b) overflow |= __builtin_add_overflow(balances, *b, &balances);
    }
    for (const history::ChannelRecord& r : claim.channels) {
      for (Amount a : r.transfers) {
        overflow |= __builtin_add_overflow(channels, a, &channels);
      }
    }
    Amount sum = 0;
    overflow |= __builtin_add_overflow(balances, channels, &sum);
    if (overflow) {
      Snapshot(claim.id, findings::AmountsOverflow());
      return;
    }
    if (sum != bank_total) {
      Snapshot(claim.id, findings::NotConserved(balances, channels, sum, bank_total));
    }
    if (claim.total && *claim.total != sum) {
      Snapshot(claim.id, fmt::format("claims a total of {}, but its records "
                                     "add up to {}",
                                     Money(*claim.total), Money(sum)));
    }
  }

  struct Local {
    std::uint32_t send = 0;
    std::uint32_t deliver = 0;
  };

  const RunRecord& run_;
  const sim::Topology& net_;
  const std::uint32_t nodes_;
  CheckReport report_;
  // CheckChannels' finding for the snapshot being judged: transfers its
  // claimed channel states lack (Judge moves them into the verdict).
  std::vector<Seq> unrecorded_;
  std::unordered_map<SnapshotId, std::size_t> first_claim_;
  std::vector<std::vector<CutPoint>> cuts_;  // by claim, then node
  std::optional<engine::Replay> replay_;
  std::vector<NodeTimeline> nodes_timeline_;
  std::unordered_map<Seq, Clock> send_clock_;  // of messages in flight
  std::unordered_map<Seq, Local> locals_;
  std::vector<MessageInfo> messages_;  // in send order, after the walk
  std::map<std::pair<SnapshotId, ChannelId>, std::size_t> closed_at_;  // first
  std::vector<EventClock>* clocks_ = nullptr;  // Clocks() only
};

}  // namespace

bool IsMessageEvent(const history::Event& e) {
  return std::holds_alternative<history::Sent<history::Transfer>>(e) ||
         std::holds_alternative<history::Sent<history::Marker>>(e) ||
         std::holds_alternative<history::Delivered<history::Transfer>>(e) ||
         std::holds_alternative<history::Delivered<history::Marker>>(e);
}

CheckReport CheckRun(const RunRecord& run) {
  CUTLINE_CHECK(run.topology != nullptr);
  return Checker(run).Run();
}

std::vector<EventClock> EventClocks(const RunRecord& run) {
  CUTLINE_CHECK(run.topology != nullptr);
  return Checker(run).Clocks();
}

apps::Verdict DeclaredProperty(apps::App app, const sim::Topology& topology,
                               const SnapshotClaim& claim) {
  std::vector<Amount> states;
  for (const std::optional<Amount>& b : claim.balances) states.push_back(b.value_or(0));
  std::vector<std::vector<Amount>> channels;
  for (const history::ChannelRecord& r : claim.channels) channels.push_back(r.transfers);
  return app.Evaluate({&topology, states, channels});
}

apps::Verdict PropertyNow(const engine::Engine& bank) {
  const engine::Network& net = bank.network();
  std::vector<Amount> states;
  for (NodeId n = 0; n < bank.branch_count(); ++n) states.push_back(bank.state(n));
  std::vector<std::vector<Amount>> channels(net.channel_count());
  for (ChannelId c = 0; c < net.channel_count(); ++c) {
    net.ForEachQueued(c, [&](const engine::Network::Msg& m) {
      if (const auto* t = std::get_if<history::Transfer>(&m.payload)) {
        channels[c].push_back(t->amount);
      }
    });
  }
  return bank.app().Evaluate({&net, states, channels});
}

std::vector<std::vector<Amount>> InFlightWords(const sim::Topology& topology,
                                               const engine::Replay& replay) {
  std::vector<std::vector<Amount>> channels(topology.channel_count());
  for (ChannelId c = 0; c < channels.size(); ++c) {
    for (Seq seq : replay.waiting(c)) {
      const Flight* f = replay.Find(seq);
      if (f->is_transfer()) channels[c].push_back(f->amount());
    }
  }
  return channels;
}

apps::Verdict PropertyOfReplay(const engine::Engine& bank, const engine::Replay& replay) {
  std::vector<Amount> states;
  for (NodeId n = 0; n < bank.branch_count(); ++n) states.push_back(replay.balance(n));
  return bank.app().Evaluate({&bank.network(), states, InFlightWords(bank.network(), replay)});
}

NaiveJudgement JudgeNaive(const engine::Engine& bank) {
  NaiveJudgement j;
  std::vector<std::optional<Amount>> reads(bank.branch_count());
  std::size_t last = 0;
  for (const engine::NaiveRead& r : bank.naive_reads()) {
    reads[r.branch] = r.balance;
    last = std::max(last, r.history_index + 1);
  }
  j.declared = bank.app().Naive(reads);
  if (bank.naive_reads().empty() || !bank.history().enabled()) return j;
  engine::Replay replay(bank);
  replay.ApplyAll(std::span(bank.history().events()).first(last));
  j.truth = PropertyOfReplay(bank, replay);
  return j;
}

std::vector<SnapshotClaim> ClaimsOf(const engine::Engine& bank) {
  std::vector<SnapshotClaim> claims;
  const sim::Topology& net = bank.network();
  for (const engine::SnapshotInfo& s : bank.snapshots()) {
    if (!s.complete) continue;
    SnapshotClaim claim;
    claim.id = s.id;
    claim.markers_sent = s.markers_sent;
    for (NodeId n = 0; n < bank.branch_count(); ++n) {
      claim.balances.push_back(bank.RecordedBalance(n, s.id));
    }
    for (ChannelId c = 0; c < net.channel_count(); ++c) {
      claim.channels.push_back(bank.RecordedChannel(s.id, c));
    }
    claim.total = bank.SnapshotTotal(s.id);
    const algorithms::Traits& traits = bank.AlgorithmOf(s.id).traits();
    claim.markers = !traits.stops_the_world;
    claim.markers_before_record = traits.records_after_all_markers;
    claim.epochs = traits.tags_messages;
    claims.push_back(std::move(claim));
  }
  return claims;
}

RunRecord RunOf(const engine::Engine& bank) {
  RunRecord run;
  run.events = bank.history().events();
  run.topology = &bank.network();
  for (NodeId n = 0; n < bank.branch_count(); ++n) {
    run.initial_balances.push_back(bank.initial_balance(n));
    run.names.push_back(bank.name(n));
  }
  run.claims = ClaimsOf(bank);
  run.fifo = bank.network().fifo();
  run.app = bank.app();
  return run;
}

CheckReport CheckSnapshots(const engine::Engine& bank) {
  RunRecord run = RunOf(bank);
  if (!bank.history().enabled() && !run.claims.empty()) {
    CheckReport report;
    report.problems.push_back(
        "history: the bank keeps no history, so its snapshots cannot be "
        "checked");
    return report;
  }
  return CheckRun(run);
}

}  // namespace cutline::check
