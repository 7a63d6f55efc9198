// Replay: the one walk through a history that everything derived from it
// shares: each message's flight (where it was sent and delivered), each
// branch's balance as of the last event walked, and what is malformed.
// The narrator walks it step by step; the cuts, the JSON history and the
// consistency checker walk a whole run. Nothing here asks the agents.
#pragma once

#include <cstddef>
#include <deque>
#include <limits>
#include <span>
#include <unordered_map>
#include <vector>

#include "apps/app.h"
#include "engine/vocabulary.h"
#include "history/history.h"
#include "sim/network.h"

namespace cutline::engine {

class Engine;

inline constexpr std::size_t kNever = std::numeric_limits<std::size_t>::max();

// One message's life: where in the history it was sent and delivered.
struct Flight {
  Seq seq = 0;
  ChannelId channel = 0;
  Payload payload;
  std::size_t sent_at = 0;
  std::size_t delivered_at = kNever;  // kNever: still in flight
  bool delivered() const { return delivered_at != kNever; }
  bool is_transfer() const { return std::holds_alternative<Transfer>(payload); }
  Amount amount() const {  // 0 for a marker
    const Transfer* t = std::get_if<Transfer>(&payload);
    return t ? t->amount : 0;
  }
};

// What can be wrong with an event, given the ones before it.
enum class Anomaly : std::uint8_t {
  kNone,
  kUnknownNode,      // names a node the topology does not have
  kUnknownChannel,   // names a channel the topology does not have
  kSentTwice,        // a message number is sent again
  kNeverSent,        // delivers a message number never sent
  kDeliveredTwice,
  kNotAsSent,        // delivered on another channel or with another payload
  kNotFifo,          // overtook an older message of its channel (not fatal)
  kOverflow,         // a replayed balance leaves 64 bits
};

class Replay {
 public:
  // `app`: what the branches compute (how a message changes a state).
  Replay(const sim::Topology& topology, std::vector<Amount> initial_balances, apps::App app);
  // At the start of bank's run: its topology and initial balances.
  explicit Replay(const Engine& bank);
  // The whole of bank's history. REQUIRES: the bank keeps its history.
  static Replay Of(const Engine& bank);

  // Walks one more event. Anything but kNone or kNotFifo leaves the replay
  // unable to go on (its flights and balances no longer mean anything).
  Anomaly Apply(const Event& e);
  // Walks them all; stops at the first fatal anomaly and returns it.
  Anomaly ApplyAll(std::span<const Event> events);

  std::size_t applied() const { return applied_; }
  // The branch's state (its balance for the bank).
  Amount balance(NodeId n) const { return balances_[n]; }
  // Its state just before its latest delivery of a message: what a record
  // that delivery caused (Lai-Yang) holds.
  Amount before_delivery(NodeId n) const { return before_delivery_[n]; }
  // Every message seen, in send order.
  const std::vector<Flight>& flights() const { return flights_; }
  // nullptr if `seq` was never sent.
  const Flight* Find(Seq seq) const;
  // Channel c's messages sent and not yet delivered, oldest first.
  const std::deque<Seq>& waiting(ChannelId c) const { return waiting_[c]; }
  // After kNotFifo: the older message that was overtaken.
  Seq overtaken() const { return overtaken_; }
  // The barriers that overtook transfer `seq` (Overtaken events), in order:
  // one per snapshot it waited through.
  const std::vector<Seq>& OvertakenBy(Seq seq) const {
    static const std::vector<Seq> kNone;
    auto it = overtaken_by_.find(seq);
    return it == overtaken_by_.end() ? kNone : it->second;
  }

 private:
  Anomaly Send(Seq seq, ChannelId c, const Payload& payload);
  Anomaly Deliver(Seq seq, ChannelId c, const Payload& payload);
  Anomaly Overtake(const Overtaken& o);

  const sim::Topology& topology_;
  apps::App app_;
  std::vector<Amount> balances_;
  std::vector<Amount> before_delivery_;
  std::vector<Flight> flights_;
  std::unordered_map<Seq, std::size_t> by_seq_;
  std::vector<std::deque<Seq>> waiting_;  // per channel, undelivered
  std::size_t applied_ = 0;
  Seq overtaken_ = 0;
  std::unordered_map<Seq, std::vector<Seq>> overtaken_by_;  // transfer -> barriers
};

// True if the anomaly ends the replay.
inline bool Fatal(Anomaly a) { return a != Anomaly::kNone && a != Anomaly::kNotFifo; }

}  // namespace cutline::engine
