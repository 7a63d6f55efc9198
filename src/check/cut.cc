// JudgeCut: the checker's vector clocks decide whether a drawn cut is
// consistent; the messages, placed on each line by message event,
// say which messages cross it and what the cut adds up to (the bank) or
// which property holds at it (jobs, locks).
#include "check/cut.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "base/check.h"
#include "base/overloaded.h"
#include "check/history_observer.h"
#include "history/crossing.h"

namespace cutline::check {

namespace {

// The clocks, an observer of the judge's feed (the judge needs none: it
// meets each message that crosses a cut directly). Every event ticks its
// node's entry (records, reads and closes too: the usual rule, and what
// ShiViz reads); a delivery first takes the maximum with the sender's clock
// at the send. A cut compares positions on one node's timeline, which the
// extra ticks do not reorder.
class Clocks : public HistoryObserver {
 public:
  explicit Clocks(const RunRecord& run)
      : net_(*run.topology), clock_(net_.nodes(), VectorClock(net_.nodes(), 0)) {
    out_.reserve(run.events.size());
  }

  void Saw(std::size_t, const history::Event& e) override {
    const sim::NodeId at = history::NodeOf(e, net_);
    VectorClock& c = clock_[at];
    auto deliver = [&](sim::Seq seq) {
      const VectorClock& from = sent_.at(seq);
      for (sim::NodeId p = 0; p < net_.nodes(); ++p) c[p] = std::max(c[p], from[p]);
      sent_.erase(seq);
    };
    // Ticking before a delivery's merge gives what merging first would: a
    // node's own entry is never behind the sender's view of it.
    ++c[at];
    std::visit(Overloaded{
                   [&](const history::Sent<history::Transfer>& s) { sent_.emplace(s.seq, c); },
                   [&](const history::Sent<history::Marker>& s) { sent_.emplace(s.seq, c); },
                   [&](const history::Delivered<history::Transfer>& d) { deliver(d.seq); },
                   [&](const history::Delivered<history::Marker>& d) { deliver(d.seq); },
                   [](const auto&) {},
               },
               e);
    out_.push_back(EventClock{at, c});
  }

  std::vector<EventClock> Take() && { return std::move(out_); }

 private:
  const sim::Topology& net_;
  std::vector<VectorClock> clock_;  // by node
  std::unordered_map<sim::Seq, VectorClock> sent_;  // of the messages in flight
  std::vector<EventClock> out_;
};

}  // namespace

std::vector<EventClock> EventClocks(const RunRecord& run) {
  CUTLINE_CHECK(run.topology != nullptr);
  Clocks clocks(run);
  ObserveHistory(run, {&clocks});
  return std::move(clocks).Take();
}

namespace {

using cutline::Amount;
using sim::NodeId;

// One message: its channel, what it carried, and its ends' positions on
// their lines (deliver 0: still in flight).
struct Message {
  sim::Seq seq = 0;
  sim::ChannelId channel = 0;
  bool transfer = true;
  Amount amount = 0;
  std::uint32_t send = 0, deliver = 0;
};

// Each node's message events as history indices, in order, and every
// message, in send order, placed on them.
struct Lines {
  std::vector<std::vector<std::size_t>> events;
  std::vector<Message> messages;
};

Lines LinesOf(const RunRecord& run) {
  Lines lines;
  lines.events.resize(run.topology->nodes());
  std::unordered_map<sim::Seq, std::size_t> by_seq;  // into messages
  for (std::size_t i = 0; i < run.events.size(); ++i) {
    if (!IsMessageEvent(run.events[i])) continue;
    auto& line = lines.events[history::NodeOf(run.events[i], *run.topology)];
    line.push_back(i);
    const auto position = static_cast<std::uint32_t>(line.size());
    auto sent = [&](sim::Seq seq, sim::ChannelId c, bool transfer, Amount amount) {
      by_seq.emplace(seq, lines.messages.size());
      lines.messages.push_back(Message{seq, c, transfer, amount, position, 0});
    };
    auto delivered = [&](sim::Seq seq) { lines.messages[by_seq.at(seq)].deliver = position; };
    std::visit(Overloaded{
                   [&](const history::Sent<history::Transfer>& e) {
                     sent(e.seq, e.channel, true, e.what.amount);
                   },
                   [&](const history::Sent<history::Marker>& e) { sent(e.seq, e.channel, false, 0); },
                   [&](const history::Delivered<history::Transfer>& e) { delivered(e.seq); },
                   [&](const history::Delivered<history::Marker>& e) { delivered(e.seq); },
                   [](const auto&) {},
               },
               run.events[i]);
  }
  return lines;
}

bool Add(Amount* sum, Amount a) { return !__builtin_add_overflow(*sum, a, sum); }

// An application's branch states at the cut, by its own rules: each node's
// events walked in order while it has walked no more than cut[n] message
// events, and its steps of its own up to its next message event. (The bank
// sums the crossings instead, which also catches overflow.)
std::vector<Amount> StatesAt(const RunRecord& run, std::span<const std::int64_t> cut) {
  const sim::Topology& net = *run.topology;
  std::vector<Amount> states = run.initial_balances;
  std::vector<std::int64_t> walked(states.size(), 0);
  for (const history::Event& e : run.events) {
    const NodeId n = history::NodeOf(e, net);
    if (IsMessageEvent(e) && ++walked[n] > cut[n]) continue;
    if (walked[n] > cut[n]) continue;
    if (const auto* s = std::get_if<history::Sent<history::Transfer>>(&e)) {
      states[n] = run.app.AfterSend(states[n], s->what.amount, net.channel(s->channel).to);
    } else if (const auto* d = std::get_if<history::Delivered<history::Transfer>>(&e)) {
      states[n] = run.app.AfterDeliver(states[n], d->what.amount);
    } else if (std::holds_alternative<history::Local>(e)) {
      states[n] = run.app.AfterLocal(states[n]);
    }
  }
  return states;
}

}  // namespace

std::vector<std::uint32_t> MessageEventCounts(const RunRecord& run) {
  std::vector<std::uint32_t> counts;
  for (const auto& line : LinesOf(run).events) {
    counts.push_back(static_cast<std::uint32_t>(line.size()));
  }
  return counts;
}

Status JudgeCut(const RunRecord& run, std::span<const std::int64_t> cut,
                CutJudgement* out) {
  const sim::Topology& net = *run.topology;
  const NodeId nodes = net.nodes();
  if (cut.size() != nodes) {
    return Status::Error(Code::kCutWrongSize, static_cast<std::int64_t>(cut.size()),
                         static_cast<std::int64_t>(nodes));
  }
  const Lines lines = LinesOf(run);
  for (NodeId n = 0; n < nodes; ++n) {
    const std::string name = n < run.names.size() ? run.names[n] : "#" + std::to_string(n);
    if (cut[n] < 0) return Status::Error(Code::kCutBadPoint, name, std::to_string(cut[n]));
    const auto last = static_cast<std::int64_t>(lines.events[n].size());
    if (cut[n] > last) return Status::Error(Code::kCutPastEnd, name, cut[n], last);
  }

  CutJudgement j;
  // (1) The clocks: node p's part of the cut holds its events up to the
  // clock entry `inside[p]` of its cut[p]-th message event; the cut is
  // consistent iff no node's clock there has seen more of p than that.
  const std::vector<EventClock> clocks = EventClocks(run);
  std::vector<std::uint32_t> inside(nodes, 0);
  std::vector<const VectorClock*> at(nodes, nullptr);  // nullptr: nothing yet
  for (NodeId n = 0; n < nodes; ++n) {
    if (cut[n] == 0) continue;
    const EventClock& c = clocks.at(lines.events[n][cut[n] - 1]);
    inside[n] = c.clock[n];
    at[n] = &c.clock;
  }
  for (NodeId q = 0; q < nodes; ++q) {
    if (at[q] == nullptr) continue;
    for (NodeId p = 0; p < nodes; ++p) {
      if (p != q && (*at[q])[p] > inside[p]) j.consistent = false;
    }
  }

  // (2) The messages, placed on the lines, and the money at the cut.
  const bool money = run.app.conserved();
  j.balances = money ? run.initial_balances : StatesAt(run, cut);
  bool ok = true;
  if (money) {
    for (Amount a : run.initial_balances) ok &= Add(&j.bank_total, a);
  }
  std::vector<std::vector<Amount>> channels(net.channel_count());
  for (const Message& f : lines.messages) {
    const sim::ChannelInfo& ch = net.channel(f.channel);
    CutCrossing m{f.seq, f.transfer, f.amount, ch.from, ch.to, f.send, f.deliver};
    const bool sent_inside = m.send <= cut[ch.from];
    const bool received_inside = m.deliver != 0 && m.deliver <= cut[ch.to];
    if (money && sent_inside) ok &= Add(&j.balances[ch.from], -m.amount);
    if (money && received_inside) ok &= Add(&j.balances[ch.to], m.amount);
    const history::Crossing crossing = history::CrossingOf(sent_inside, received_inside);
    if (crossing == history::Crossing::kBackward) j.backward.push_back(m);
    if (crossing == history::Crossing::kForward && m.transfer) {
      if (money) ok &= Add(&j.in_channels, m.amount);
      channels[f.channel].push_back(m.amount);
      j.forward.push_back(m);
    }
  }
  if (money) {
    for (Amount b : j.balances) ok &= Add(&j.total, b);
    ok &= Add(&j.total, j.in_channels);
  }
  if (!ok) return Status::Error(Code::kTotalOverflow);
  if (run.app.has_property()) j.property = run.app.Evaluate({&net, j.balances, channels});
  *out = std::move(j);
  return Status::Ok();
}

}  // namespace cutline::check
