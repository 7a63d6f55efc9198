// CheckRun: one pass over the history computes vector clocks, replayed
// balances and each node's cut point per snapshot; then every claimed
// snapshot is compared with what that cut implies.
#include "check/consistency_checker.h"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <deque>
#include <limits>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

namespace cutline::check {

namespace {

using bank::Amount;
using sim::ChannelId;
using sim::EventKind;
using sim::MessageKind;
using sim::NodeId;
using sim::Seq;

// A vector clock: entry p counts p's message events (sends and deliveries)
// that happen-before or are the event. Other events (records, reads, ...)
// change no state that crosses nodes, so they do not tick.
using Clock = std::vector<std::uint32_t>;

constexpr std::size_t kNever = std::numeric_limits<std::size_t>::max();

struct MessageInfo {
  Seq seq = 0;
  ChannelId channel = 0;
  MessageKind kind = MessageKind::kTransfer;
  std::int64_t value = 0;
  std::uint32_t send_local = 0;        // sender's clock entry at the send
  std::size_t deliver_index = kNever;  // history index; kNever = in flight
  std::uint32_t deliver_local = 0;     // receiver's clock entry at delivery
  bool delivered() const { return deliver_index != kNever; }
};

// Where one node's record of one snapshot cuts its own timeline.
struct CutPoint {
  int records = 0;  // kRecord events seen; exactly one is correct
  // The node's message events inside the cut (those before the record).
  std::uint32_t inside = 0;
  Clock clock;             // the node's clock at the cut
  Amount event_value = 0;  // the balance written in the kRecord event
  Amount replayed = 0;     // the balance replayed from the history there
};

std::string AmountList(const std::vector<Amount>& amounts) {
  std::string out = "[";
  for (std::size_t i = 0; i < amounts.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(amounts[i]);
  }
  return out + "]";
}

class Checker {
 public:
  explicit Checker(const RunRecord& run)
      : run_(run), net_(*run.network), nodes_(net_.nodes()) {}

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
  std::string ChannelName(ChannelId c) const {
    const sim::ChannelInfo& ch = net_.channel(c);
    return fmt::format("{}->{}", Name(ch.from), Name(ch.to));
  }
  std::string Describe(const MessageInfo& m) const {
    NodeId from = net_.channel(m.channel).from;
    if (m.kind == MessageKind::kTransfer) {
      return fmt::format("message #{} (${} from {})", m.seq, m.value,
                         Name(from));
    }
    return fmt::format("message #{} (marker of snapshot {} from {})", m.seq,
                       m.value, Name(from));
  }
  void History(std::string text) {
    report_.problems.push_back("history: " + std::move(text));
  }
  void Snapshot(SnapshotId id, std::string text) {
    report_.problems.push_back(fmt::format("snapshot {}: {}", id, text));
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
  // twice or to the wrong node).
  bool ReplayHistory() {
    if (run_.initial_balances.size() != nodes_) {
      History(fmt::format("{} initial balances given for {} nodes",
                          run_.initial_balances.size(), nodes_));
      return false;
    }
    std::vector<Clock> clock(nodes_, Clock(nodes_, 0));
    // A node's clock just before its latest marker delivery: when that
    // marker makes the node record, the cut lies before the marker's
    // receipt (rule 1: the marker only triggers the record, and is sent
    // after its sender's record, so it must count as outside the cut).
    std::vector<Clock> before_marker(nodes_);
    std::vector<Amount> balance = run_.initial_balances;
    std::unordered_map<Seq, Clock> send_clock;  // of messages in flight
    // Per channel, messages sent and not yet delivered, in send order.
    std::vector<std::deque<Seq>> queue(net_.channel_count());

    const auto& events = run_.events;
    for (std::size_t i = 0; i < events.size(); ++i) {
      const sim::Event& e = events[i];
      if (e.node >= nodes_) {
        History(fmt::format("event {} names unknown node {}", i, e.node));
        return false;
      }
      NodeId q = e.node;
      if (e.kind == EventKind::kSend) {
        if (e.channel >= net_.channel_count() ||
            net_.channel(e.channel).from != q) {
          History(
              fmt::format("event {}: {} sends #{} on channel {}, which "
                          "is not one of its outgoing channels",
                          i, Name(q), e.seq, e.channel));
          return false;
        }
        if (!message_at_.emplace(e.seq, messages_.size()).second) {
          History(fmt::format("message #{} is sent twice", e.seq));
          return false;
        }
        ++clock[q][q];
        messages_.push_back(
            MessageInfo{e.seq, e.channel, e.message, e.value, clock[q][q]});
        send_clock.emplace(e.seq, clock[q]);
        queue[e.channel].push_back(e.seq);
        if (e.message == MessageKind::kTransfer &&
            __builtin_sub_overflow(balance[q], e.value, &balance[q])) {
          History(fmt::format("replaying {}'s balance overflows", Name(q)));
          return false;
        }
      } else if (e.kind == EventKind::kDeliver) {
        auto found = message_at_.find(e.seq);
        if (found == message_at_.end()) {
          History(fmt::format("event {} delivers message #{}, never sent", i,
                              e.seq));
          return false;
        }
        MessageInfo& m = messages_[found->second];
        if (m.delivered()) {
          History(fmt::format("message #{} is delivered twice", e.seq));
          return false;
        }
        if (net_.channel(m.channel).to != q || e.channel != m.channel ||
            e.message != m.kind || e.value != m.value) {
          History(
              fmt::format("event {} delivers {} to {}, but it was sent "
                          "as something else or to another node",
                          i, Describe(m), Name(q)));
          return false;
        }
        std::deque<Seq>& waiting = queue[m.channel];
        if (waiting.front() != m.seq) {
          // Not fatal: every check below stays meaningful, and this names
          // the reason the snapshot algorithm could not work.
          History(fmt::format(
              "channel {} is not FIFO: {} arrived while #{}, "
              "sent earlier, was still waiting",
              ChannelName(m.channel), Describe(m), waiting.front()));
        }
        waiting.erase(std::find(waiting.begin(), waiting.end(), m.seq));
        if (m.kind == MessageKind::kMarker) before_marker[q] = clock[q];
        const Clock& sent = send_clock.at(m.seq);
        for (NodeId p = 0; p < nodes_; ++p) {
          clock[q][p] = std::max(clock[q][p], sent[p]);
        }
        send_clock.erase(m.seq);
        ++clock[q][q];
        m.deliver_index = i;
        m.deliver_local = clock[q][q];
        if (m.kind == MessageKind::kTransfer &&
            __builtin_add_overflow(balance[q], m.value, &balance[q])) {
          History(fmt::format("replaying {}'s balance overflows", Name(q)));
          return false;
        }
      } else if (e.kind == EventKind::kRecord) {
        auto claim = first_claim_.find(e.snapshot);
        if (claim == first_claim_.end()) continue;  // not claimed complete
        CutPoint& cut = cuts_[claim->second][q];
        if (++cut.records > 1) continue;
        // A marker's delivery and the record it causes are one atomic step
        // of the receiver, written back to back: a record right after the
        // delivery of a marker of the same snapshot at the same node is that
        // marker's effect. Any other marker of it received before the
        // record stays inside the cut and is reported as crossing it.
        const sim::Event* prev = i > 0 ? &events[i - 1] : nullptr;
        bool triggered = prev != nullptr && prev->kind == EventKind::kDeliver &&
                         prev->message == MessageKind::kMarker &&
                         prev->node == q &&
                         static_cast<SnapshotId>(prev->value) == e.snapshot;
        cut.clock = triggered ? before_marker[q] : clock[q];
        cut.inside = cut.clock[q];
        cut.event_value = e.value;
        cut.replayed = balance[q];
      }
    }
    return true;
  }

  bool Inside(const std::vector<CutPoint>& cut, NodeId n,
              std::uint32_t local) const {
    return local <= cut[n].inside;
  }
  bool SentInside(const std::vector<CutPoint>& cut,
                  const MessageInfo& m) const {
    return Inside(cut, net_.channel(m.channel).from, m.send_local);
  }
  bool ReceivedInside(const std::vector<CutPoint>& cut,
                      const MessageInfo& m) const {
    return m.delivered() &&
           Inside(cut, net_.channel(m.channel).to, m.deliver_local);
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
        Snapshot(id, fmt::format("{} never recorded its state", Name(n)));
        all_recorded = false;
      } else if (cut[n].records > 1) {
        Snapshot(id, fmt::format("{} recorded its state {} times", Name(n),
                                 cut[n].records));
      }
    }
    // Without every node's cut point there is no cut to compare with.
    if (!all_recorded) return;

    CheckBalances(claim, cut, shape_ok);
    CheckCut(id, cut);
    if (shape_ok) CheckChannels(claim, cut);
    CheckMarkers(claim, cut);
    if (shape_ok) CheckTotal(claim);
  }

  // (b)
  void CheckBalances(const SnapshotClaim& claim,
                     const std::vector<CutPoint>& cut, bool shape_ok) {
    for (NodeId n = 0; n < nodes_; ++n) {
      if (cut[n].event_value != cut[n].replayed) {
        Snapshot(claim.id,
                 fmt::format("{}'s record event holds ${} but its balance "
                             "replayed from the history there is ${}",
                             Name(n), cut[n].event_value, cut[n].replayed));
      }
      if (!shape_ok) continue;
      const std::optional<Amount>& claimed = claim.balances[n];
      if (!claimed) {
        Snapshot(claim.id,
                 fmt::format("{} claims no recorded balance", Name(n)));
      } else if (*claimed != cut[n].replayed) {
        Snapshot(claim.id,
                 fmt::format("{} recorded ${} but its balance replayed from "
                             "the history at its record is ${}",
                             Name(n), *claimed, cut[n].replayed));
      }
    }
  }

  // (a) The vector clocks decide: the cut is consistent iff no node's clock
  // at its cut has seen more of p's events than p's own cut contains. A
  // violation always has a message that crosses the cut backwards (on the
  // causal chain it leaves p's outside and ends inside the other node's
  // cut), and that message is what gets named.
  void CheckCut(SnapshotId id, const std::vector<CutPoint>& cut) {
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
        const sim::ChannelInfo& ch = net_.channel(m.channel);
        Snapshot(id, fmt::format("inconsistent cut: {} recorded the receipt "
                                 "of {} but {} recorded before sending it",
                                 Name(ch.to), Describe(m), Name(ch.from)));
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
    std::vector<std::size_t> marker_delivered(net_.channel_count(), kNever);
    for (const MessageInfo& m : messages_) {
      if (m.kind == MessageKind::kMarker &&
          static_cast<SnapshotId>(m.value) == id &&
          marker_delivered[m.channel] == kNever) {
        marker_delivered[m.channel] = m.deliver_index;
      }
      if (m.kind == MessageKind::kTransfer && SentInside(cut, m) &&
          !ReceivedInside(cut, m)) {
        expected[m.channel].emplace_back(m.deliver_index, &m);
      }
    }
    for (ChannelId c = 0; c < net_.channel_count(); ++c) {
      const bank::ChannelRecord& claimed = claim.channels[c];
      if (claimed.state != ChannelRecording::kClosed) {
        Snapshot(id,
                 fmt::format("channel {} is '{}', not closed", ChannelName(c),
                             claimed.state == ChannelRecording::kRecording
                                 ? "recording"
                                 : "not recorded"));
      }
      // Undelivered ones (kNever) sort last, then by send order.
      std::sort(expected[c].begin(), expected[c].end(),
                [](const auto& a, const auto& b) {
                  return a.first != b.first ? a.first < b.first
                                            : a.second->seq < b.second->seq;
                });
      std::vector<Amount> amounts;
      for (const auto& [at, m] : expected[c]) {
        amounts.push_back(m->value);
        // With FIFO channels the marker, sent after the sender recorded,
        // cannot overtake a transfer sent before it.
        if (at == kNever) {
          Snapshot(id, fmt::format("{} was sent on {} before {} recorded but "
                                   "never delivered",
                                   Describe(*m), ChannelName(c),
                                   Name(net_.channel(c).from)));
        } else if (marker_delivered[c] != kNever && at > marker_delivered[c]) {
          Snapshot(id, fmt::format("{} was sent on {} before {} recorded but "
                                   "arrived after the channel's marker",
                                   Describe(*m), ChannelName(c),
                                   Name(net_.channel(c).from)));
        }
      }
      if (amounts != claimed.transfers) {
        Snapshot(id, fmt::format("channel {} recorded {} but expected {}",
                                 ChannelName(c), AmountList(claimed.transfers),
                                 AmountList(amounts)));
      }
    }
  }

  // (e)
  void CheckMarkers(const SnapshotClaim& claim,
                    const std::vector<CutPoint>& cut) {
    const SnapshotId id = claim.id;
    std::vector<std::vector<const MessageInfo*>> markers(net_.channel_count());
    for (const MessageInfo& m : messages_) {
      if (m.kind == MessageKind::kMarker &&
          static_cast<SnapshotId>(m.value) == id) {
        markers[m.channel].push_back(&m);
      }
    }
    for (ChannelId c = 0; c < net_.channel_count(); ++c) {
      if (markers[c].size() != 1) {
        Snapshot(id, fmt::format("{} markers went over channel {}, not "
                                 "exactly one",
                                 markers[c].size(), ChannelName(c)));
        continue;
      }
      const MessageInfo& marker = *markers[c].front();
      NodeId from = net_.channel(c).from;
      if (SentInside(cut, marker)) {
        Snapshot(id, fmt::format("{} sent its marker on {} (#{}) before "
                                 "recording",
                                 Name(from), ChannelName(c), marker.seq));
      }
      if (!marker.delivered()) {
        Snapshot(id, fmt::format("the marker on {} (#{}) was never delivered",
                                 ChannelName(c), marker.seq));
      }
    }
    // Rule 1: after recording, the marker goes out on a channel before
    // anything else does.
    for (const MessageInfo& m : messages_) {
      if (markers[m.channel].size() != 1 || SentInside(cut, m)) continue;
      const MessageInfo& marker = *markers[m.channel].front();
      if (m.seq < marker.seq) {
        Snapshot(id, fmt::format("{} sent {} on {} after recording but before "
                                 "the marker",
                                 Name(net_.channel(m.channel).from),
                                 Describe(m), ChannelName(m.channel)));
      }
    }
    if (claim.markers_sent != net_.channel_count()) {
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
    for (const bank::ChannelRecord& r : claim.channels) {
      for (Amount a : r.transfers) {
        overflow |= __builtin_add_overflow(channels, a, &channels);
      }
    }
    Amount sum = 0;
    overflow |= __builtin_add_overflow(balances, channels, &sum);
    if (overflow) {
      Snapshot(claim.id, "its recorded amounts overflow 64 bits");
      return;
    }
    if (sum != bank_total) {
      Snapshot(claim.id,
               fmt::format("money is not conserved: recorded balances ${} + "
                           "channel states ${} = ${}, but the bank holds ${}",
                           balances, channels, sum, bank_total));
    }
    if (claim.total && *claim.total != sum) {
      Snapshot(claim.id, fmt::format("claims a total of ${}, but its records "
                                     "add up to ${}",
                                     *claim.total, sum));
    }
  }

  const RunRecord& run_;
  const sim::Network& net_;
  const std::uint32_t nodes_;
  CheckReport report_;
  std::unordered_map<SnapshotId, std::size_t> first_claim_;
  std::vector<std::vector<CutPoint>> cuts_;  // by claim, then node
  std::vector<MessageInfo> messages_;        // in send order
  std::unordered_map<Seq, std::size_t> message_at_;
};

}  // namespace

CheckReport CheckRun(const RunRecord& run) {
  assert(run.network != nullptr);
  return Checker(run).Run();
}

std::vector<SnapshotClaim> ClaimsOf(const bank::Bank& bank) {
  std::vector<SnapshotClaim> claims;
  const sim::Network& net = bank.network();
  for (const bank::SnapshotInfo& s : bank.snapshots()) {
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
    claims.push_back(std::move(claim));
  }
  return claims;
}

RunRecord RunOf(const bank::Bank& bank) {
  RunRecord run;
  run.events = bank.network().history().events();
  run.network = &bank.network();
  for (NodeId n = 0; n < bank.branch_count(); ++n) {
    run.initial_balances.push_back(bank.initial_balance(n));
    run.names.push_back(bank.name(n));
  }
  run.claims = ClaimsOf(bank);
  return run;
}

CheckReport CheckSnapshots(const bank::Bank& bank) {
  RunRecord run = RunOf(bank);
  if (!bank.network().history().enabled() && !run.claims.empty()) {
    CheckReport report;
    report.problems.push_back(
        "history: the bank keeps no history, so its snapshots cannot be "
        "checked");
    return report;
  }
  return CheckRun(run);
}

}  // namespace cutline::check
