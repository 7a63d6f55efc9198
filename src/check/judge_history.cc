// JudgeHistory (stream_judge.h): the simulator's history, vetted, as the
// streaming judge's events, each as the rank that did it would log it.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "base/check.h"
#include "base/overloaded.h"
#include "check/findings.h"
#include "check/stream_judge.h"
#include "engine/replay.h"

namespace cutline::check {

namespace {

using cutline::Amount;
using sim::ChannelId;
using sim::Seq;
using Kind = StreamEvent::Kind;

// The history's first fault past repair, named; nothing if it has none.
// The history's reader, not the judge, vets it (as a log's reader vets its
// lines): the replay finds what it cannot walk past.
class Vetting {
 public:
  Vetting(const RunRecord& run, Lang lang, std::vector<std::string> names)
      : run_(run), lang_(lang), say_(FindingsIn(lang)), names_(std::move(names)) {
    if (run.initial_balances.size() == run.topology->nodes()) {
      replay_.emplace(*run.topology, run.initial_balances, run.app);
    }
  }

  // Before any event: the initial states must fit the network.
  std::optional<std::string> Start() const {
    if (replay_) return std::nullopt;
    return say_.AboutHistory(
        say_.InitialStates(run_.initial_balances.size(), run_.topology->nodes()));
  }

  // Event i, walked; its fault if it is fatal (a channel that is not FIFO
  // is the judge's to name, and not fatal).
  std::optional<std::string> Event(std::size_t i) {
    const history::Event& e = run_.events[i];
    const engine::Anomaly a = replay_->Apply(e);
    if (!engine::Fatal(a)) return std::nullopt;
    return say_.AboutHistory(Fault(i, e, a));
  }

 private:
  std::string Fault(std::size_t i, const history::Event& e, engine::Anomaly a) const {
    const Seq seq = std::visit(
        Overloaded{[](const history::Sent<history::Transfer>& s) { return s.seq; },
                   [](const history::Sent<history::Marker>& s) { return s.seq; },
                   [](const history::Delivered<history::Transfer>& d) { return d.seq; },
                   [](const history::Delivered<history::Marker>& d) { return d.seq; },
                   [](const auto&) { return Seq{0}; }},
        e);
    const std::string ref = fmt::format("#{}", seq);
    switch (a) {
      case engine::Anomaly::kUnknownNode: return say_.UnknownNode(i);
      case engine::Anomaly::kUnknownChannel: return say_.UnknownChannel(i);
      case engine::Anomaly::kSentTwice: return say_.SentTwice(ref);
      case engine::Anomaly::kNeverSent: return say_.NeverSent(i, ref);
      case engine::Anomaly::kDeliveredTwice: return say_.DeliveredTwice(ref);
      case engine::Anomaly::kNotAsSent: return say_.DeliveredAsOther(i, AsSent(seq));
      case engine::Anomaly::kOverflow: return say_.ReplayOverflows(i);
      case engine::Anomaly::kNone:
      case engine::Anomaly::kNotFifo: break;
    }
    CUTLINE_CHECK(false);  // Event() passes only fatal ones
    return {};
  }

  // "message #1 ($10 from P1)": the message as it was sent.
  std::string AsSent(Seq seq) const {
    const engine::Flight& f = *replay_->Find(seq);
    const std::string from = names_[run_.topology->channel(f.channel).from];
    const std::string msg = say_.Message(MessageRef(run_.message_names, seq));
    if (const auto* m = std::get_if<history::Marker>(&f.payload)) {
      return say_.DescribeMarker(msg, m->snapshot, from);
    }
    return say_.DescribeTransfer(msg, run_.app.words().message(f.amount(), lang_), from);
  }

  const RunRecord& run_;
  const Lang lang_;
  const Findings& say_;
  const std::vector<std::string> names_;
  std::optional<engine::Replay> replay_;
};

// Turns the history's events into the judge's, one at a time, in order.
class HistoryFeed {
 public:
  explicit HistoryFeed(const RunRecord& run)
      : run_(run), net_(*run.topology), sent_on_(net_.channel_count(), 0) {
    for (const SnapshotClaim& c : run.claims) claim_of_.emplace(c.id, &c);  // the first
    for (const history::Event& e : run.events) {
      if (const auto* c = std::get_if<history::Closed>(&e)) closed_.emplace(c->snapshot, c->channel);
    }
  }

  // Event i as node *at's; kOther for one the judge does not take.
  StreamEvent Next(std::size_t i, std::uint32_t* at) {
    StreamEvent e;
    e.line = i + 1;
    std::visit(
        Overloaded{
            [&](const history::Sent<history::Transfer>& s) {
              *at = Send(s.seq, s.channel, Kind::kSend, &e);
              e.amount = s.what.amount;
            },
            [&](const history::Sent<history::Marker>& s) {
              *at = Send(s.seq, s.channel, Kind::kSendMarker, &e);
              e.snapshot = s.what.snapshot;
            },
            [&](const history::Delivered<history::Transfer>& d) {
              *at = Receive(d.seq, d.channel, Kind::kReceive, &e);
              e.amount = d.what.amount;
            },
            [&](const history::Delivered<history::Marker>& d) {
              *at = Receive(d.seq, d.channel, Kind::kReceiveMarker, &e);
              e.snapshot = d.what.snapshot;
              // A channel a Closed event closes is not closed by its marker.
              e.keeps_open = closed_.contains({d.what.snapshot, d.channel});
            },
            [&](const history::Recorded& r) { *at = Record(r, &e); },
            [&](const history::Overtaken& o) {
              *at = net_.channel(o.channel).from;
              e.kind = Kind::kOvertaken;
              e.peer = net_.channel(o.channel).to;
              e.n = Number(o.transfer);
              e.overtaker = Number(o.barrier);
            },
            [&](const history::Closed& c) {
              *at = net_.channel(c.channel).to;
              e.kind = Kind::kClose;
              e.peer = net_.channel(c.channel).from;
              e.snapshot = c.snapshot;
            },
            [&](const history::PartDone& p) { *at = Part(p, &e); },
            [&](const history::Local& l) {
              *at = l.node;
              e.kind = Kind::kLocal;
              e.unstated = true;  // the history keeps no state to compare
            },
            [](const auto&) {},
        },
        run_.events[i]);
    return e;
  }

 private:
  const SnapshotClaim* ClaimOf(SnapshotId id) const {
    auto c = claim_of_.find(id);
    return c == claim_of_.end() ? nullptr : c->second;
  }
  // The node's claimed state, as its log would say it (0 if none).
  Amount Claimed(SnapshotId id, sim::NodeId node) const {
    const SnapshotClaim* c = ClaimOf(id);
    return c == nullptr || node >= c->balances.size() ? 0 : c->balances[node].value_or(0);
  }
  // A message's number on its channel, as a rank's log gives it (vetted:
  // every message named was sent).
  std::uint64_t Number(Seq seq) const {
    auto it = number_.find(seq);
    return it == number_.end() ? 0 : it->second;
  }

  std::uint32_t Send(Seq seq, ChannelId c, Kind kind, StreamEvent* e) {
    e->kind = kind;
    e->peer = net_.channel(c).to;
    e->n = number_[seq] = ++sent_on_[c];
    return net_.channel(c).from;
  }
  std::uint32_t Receive(Seq seq, ChannelId c, Kind kind, StreamEvent* e) {
    e->kind = kind;
    e->peer = net_.channel(c).from;
    e->n = Number(seq);
    number_.erase(seq);  // delivered: nothing names it again
    return net_.channel(c).to;
  }
  std::uint32_t Record(const history::Recorded& r, StreamEvent* e) const {
    e->kind = Kind::kRecord;
    e->snapshot = r.snapshot;
    e->amount = Claimed(r.snapshot, r.node);
    e->by_marker = r.cause.by_marker();
    e->by_transfer = r.cause.by_transfer();
    e->cause = r.cause.by_message() ? r.cause.message_seq() : 0;
    if (const SnapshotClaim* c = ClaimOf(r.snapshot)) {
      e->after_markers = c->markers_before_record;
      e->no_markers = !c->markers;
      e->epochs = c->epochs;
    }
    return r.node;
  }
  std::uint32_t Part(const history::PartDone& p, StreamEvent* e) const {
    e->kind = Kind::kPart;
    e->snapshot = p.snapshot;
    e->amount = Claimed(p.snapshot, p.node);
    const SnapshotClaim* c = ClaimOf(p.snapshot);
    for (ChannelId ch : net_.Incoming(p.node)) {
      e->channels.emplace_back(net_.channel(ch).from,
                               c == nullptr || ch >= c->channels.size()
                                   ? std::vector<Amount>{}
                                   : c->channels[ch].transfers);
    }
    return p.node;
  }

  const RunRecord& run_;
  const sim::Topology& net_;
  std::map<SnapshotId, const SnapshotClaim*> claim_of_;
  std::set<std::pair<SnapshotId, ChannelId>> closed_;  // by a Closed event
  std::vector<std::uint64_t> sent_on_;  // by channel: messages sent on it so far
  std::map<Seq, std::uint64_t> number_;
};

}  // namespace

StreamResult JudgeHistory(const RunRecord& run, Lang lang, HistoryJudging how) {
  CUTLINE_CHECK(run.topology != nullptr);
  const std::uint32_t n = run.topology->nodes();
  std::vector<std::string> names, sources(n, "history");
  for (std::uint32_t r = 0; r < n; ++r) {
    names.push_back(r < run.names.size() ? run.names[r] : fmt::format("#{}", r));
  }
  Vetting vetting(run, lang, names);
  StreamJudge judge(*run.topology, std::move(names), std::move(sources), run.app, lang);
  if (!run.fifo) judge.ReorderingIsNoFault();
  judge.KeepEveryVerdict();
  if (how == HistoryJudging::kClaims) judge.JudgeClaims(run.claims);
  judge.NameMessages(run.message_names);
  if (std::optional<std::string> fault = vetting.Start()) {
    judge.HistoryBroken(std::move(*fault));
    return judge.Finish();
  }
  for (std::uint32_t r = 0; r < n; ++r) {
    StreamEvent start;
    start.kind = Kind::kStart;
    start.amount = run.initial_balances[r];
    judge.Apply(r, start);
  }
  HistoryFeed feed(run);
  for (std::size_t i = 0; i < run.events.size(); ++i) {
    if (std::optional<std::string> fault = vetting.Event(i)) {
      judge.HistoryBroken(std::move(*fault));
      break;
    }
    std::uint32_t at = 0;
    const StreamEvent e = feed.Next(i, &at);
    if (e.kind == Kind::kOther) continue;
    // Vetted: every receipt's send came before it.
    const bool applied = judge.Apply(at, e);
    CUTLINE_CHECK(applied);
  }
  return judge.Finish();
}

}  // namespace cutline::check
