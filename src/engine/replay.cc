// Replay: sends and deliveries tracked per message and per channel; the
// money they move applied to the replayed balances.
#include "engine/replay.h"

#include <algorithm>

#include "engine/engine.h"
#include "base/overloaded.h"

namespace cutline::engine {

Replay::Replay(const sim::Topology& topology,
               std::vector<Amount> initial_balances, apps::App app)
    : topology_(topology),
      app_(app),
      balances_(std::move(initial_balances)),
      waiting_(topology.channel_count()) {
  balances_.resize(topology.nodes(), 0);
  before_delivery_ = balances_;
}

namespace {

std::vector<Amount> InitialBalances(const Engine& bank) {
  std::vector<Amount> initial;
  for (NodeId n = 0; n < bank.branch_count(); ++n) {
    initial.push_back(bank.initial_balance(n));
  }
  return initial;
}

}  // namespace

Replay::Replay(const Engine& bank)
    : Replay(bank.network(), InitialBalances(bank), bank.app()) {}

Replay Replay::Of(const Engine& bank) {
  Replay replay(bank);
  replay.ApplyAll(bank.history().events());
  return replay;
}

const Flight* Replay::Find(Seq seq) const {
  auto it = by_seq_.find(seq);
  return it == by_seq_.end() ? nullptr : &flights_[it->second];
}

Anomaly Replay::ApplyAll(std::span<const Event> events) {
  for (const Event& e : events) {
    if (Anomaly a = Apply(e); Fatal(a)) return a;
  }
  return Anomaly::kNone;
}

Anomaly Replay::Apply(const Event& e) {
  auto node_ok = [&](NodeId n) { return n < topology_.nodes(); };
  auto channel_ok = [&](ChannelId c) { return c < topology_.channel_count(); };
  Anomaly a = std::visit(
      Overloaded{
          [&](const Sent<Transfer>& s) {
            return channel_ok(s.channel) ? Send(s.seq, s.channel, s.what)
                                         : Anomaly::kUnknownChannel;
          },
          [&](const Sent<Marker>& s) {
            return channel_ok(s.channel) ? Send(s.seq, s.channel, s.what)
                                         : Anomaly::kUnknownChannel;
          },
          [&](const Delivered<Transfer>& d) {
            return channel_ok(d.channel) ? Deliver(d.seq, d.channel, d.what)
                                         : Anomaly::kUnknownChannel;
          },
          [&](const Delivered<Marker>& d) {
            return channel_ok(d.channel) ? Deliver(d.seq, d.channel, d.what)
                                         : Anomaly::kUnknownChannel;
          },
          [&](const Recorded& r) {
            return node_ok(r.node) ? Anomaly::kNone : Anomaly::kUnknownNode;
          },
          [&](const Read& r) {
            return node_ok(r.node) ? Anomaly::kNone : Anomaly::kUnknownNode;
          },
          [&](const Closed& c) {
            return channel_ok(c.channel) ? Anomaly::kNone
                                         : Anomaly::kUnknownChannel;
          },
          [&](const PartDone& p) {
            return node_ok(p.node) ? Anomaly::kNone : Anomaly::kUnknownNode;
          },
          [&](const Completed& c) {
            return node_ok(c.node) ? Anomaly::kNone : Anomaly::kUnknownNode;
          },
          [&](const Overtaken& o) {
            return channel_ok(o.channel) ? Overtake(o)
                                         : Anomaly::kUnknownChannel;
          },
          [&](const Local& l) {
            if (!node_ok(l.node)) return Anomaly::kUnknownNode;
            balances_[l.node] = app_.AfterLocal(balances_[l.node]);
            return Anomaly::kNone;
          },
      },
      e);
  ++applied_;
  return a;
}

Anomaly Replay::Send(Seq seq, ChannelId c, const Payload& payload) {
  if (!by_seq_.emplace(seq, flights_.size()).second) return Anomaly::kSentTwice;
  flights_.push_back(Flight{seq, c, payload, applied_});
  waiting_[c].push_back(seq);
  if (const Transfer* t = std::get_if<Transfer>(&payload)) {
    const sim::ChannelInfo& ch = topology_.channel(c);
    Amount& b = balances_[ch.from];
    if (!app_.conserved()) {
      b = app_.AfterSend(b, t->amount, ch.to);
    } else if (__builtin_sub_overflow(b, t->amount, &b)) {
      return Anomaly::kOverflow;
    }
  }
  return Anomaly::kNone;
}

// The barrier went to the head of its channel: in the channel's order it
// now stands before the transfer it overtook.
Anomaly Replay::Overtake(const Overtaken& o) {
  std::deque<Seq>& waiting = waiting_[o.channel];
  auto barrier = std::find(waiting.begin(), waiting.end(), o.barrier);
  auto transfer = std::find(waiting.begin(), waiting.end(), o.transfer);
  if (barrier == waiting.end() || transfer == waiting.end()) {
    return Anomaly::kNotAsSent;
  }
  if (barrier > transfer) {
    waiting.erase(barrier);
    waiting.insert(std::find(waiting.begin(), waiting.end(), o.transfer),
                   o.barrier);
  }
  overtaken_by_[o.transfer].push_back(o.barrier);
  return Anomaly::kNone;
}

Anomaly Replay::Deliver(Seq seq, ChannelId c, const Payload& payload) {
  auto it = by_seq_.find(seq);
  if (it == by_seq_.end()) return Anomaly::kNeverSent;
  Flight& f = flights_[it->second];
  if (f.delivered()) return Anomaly::kDeliveredTwice;
  if (f.channel != c || f.payload != payload) return Anomaly::kNotAsSent;
  f.delivered_at = applied_;
  std::deque<Seq>& waiting = waiting_[c];
  Anomaly order = Anomaly::kNone;
  if (waiting.front() != seq) {
    overtaken_ = waiting.front();
    order = Anomaly::kNotFifo;
    waiting.erase(std::find(waiting.begin(), waiting.end(), seq));
  } else {
    waiting.pop_front();
  }
  if (const Transfer* t = std::get_if<Transfer>(&payload)) {
    Amount& b = balances_[topology_.channel(c).to];
    before_delivery_[topology_.channel(c).to] = b;
    if (!app_.conserved()) {
      b = app_.AfterDeliver(b, t->amount);
    } else if (__builtin_add_overflow(b, t->amount, &b)) {
      return Anomaly::kOverflow;
    }
  }
  return order;
}

}  // namespace cutline::engine
