// A deterministic network of one-way FIFO channels between numbered nodes.
// It numbers and queues messages and knows nothing of what they mean: the
// payload is the host's. Every message gets a global send sequence number;
// "deliver next" takes the lowest one in flight, so a run is a pure function
// of its commands.
#pragma once

#include <cassert>
#include <cstdint>
#include <deque>
#include <span>
#include <utility>
#include <vector>

#include "cutline/marker_rules.h"

namespace cutline::sim {

using NodeId = std::uint32_t;
using ChannelId = std::uint32_t;
using Seq = std::uint64_t;  // global send sequence number, from 1

inline constexpr ChannelId kNoChannel = UINT32_MAX;

struct ChannelInfo {
  NodeId from;
  NodeId to;
  ChannelIndex in_index;   // position among `to`'s incoming channels
  ChannelIndex out_index;  // position among `from`'s outgoing channels
};

using Link = std::pair<NodeId, NodeId>;

// Who is joined to whom: the channels, numbered by sender, then receiver.
// Immutable once built; what a reader of a run needs besides its history.
class Topology {
 public:
  // REQUIRES: links are distinct, no self-loops, endpoints < nodes.
  Topology(std::uint32_t nodes, const std::vector<Link>& links);

  // Every ordered pair of distinct nodes.
  static std::vector<Link> Complete(std::uint32_t nodes);

  std::uint32_t nodes() const { return nodes_; }
  std::size_t channel_count() const { return channels_.size(); }
  const ChannelInfo& channel(ChannelId c) const { return channels_[c]; }
  // kNoChannel if there is no channel from -> to.
  ChannelId Find(NodeId from, NodeId to) const;
  // Channel ids ordered by receiver (outgoing) or sender (incoming).
  std::span<const ChannelId> Outgoing(NodeId n) const;
  std::span<const ChannelId> Incoming(NodeId n) const;

 private:
  std::uint32_t nodes_;
  std::vector<ChannelInfo> channels_;  // by sender, then receiver
  std::vector<ChannelId> out_;         // grouped by sender: out_begin_[n]..
  std::vector<std::uint32_t> out_begin_;
  std::vector<ChannelId> in_;          // grouped by receiver
  std::vector<std::uint32_t> in_begin_;
};

template <class Payload>
struct Message {
  Seq seq = 0;
  ChannelId channel = 0;
  Payload payload{};
};

// The channels' contents and their delivery. `Bounded` says which payloads
// count against a channel's capacity (a bank's transfers do, its markers do
// not): bool Bounded{}(const Payload&).
template <class Payload, class Bounded>
class Network : public Topology {
 public:
  using Msg = Message<Payload>;

  // capacity == 0 means unlimited.
  Network(std::uint32_t nodes, const std::vector<Link>& links,
          std::uint32_t capacity)
      : Topology(nodes, links), capacity_(capacity), queues_(channel_count()) {}

  bool Full(ChannelId c) const {  // no room for one more bounded message
    return capacity_ != 0 && queues_[c].bounded >= capacity_;
  }
  bool Empty(ChannelId c) const { return queues_[c].head == kNil; }
  bool AnyInFlight() const { return in_flight_ > 0; }

  // Appends to channel c's queue. Returns the message, with its number.
  // REQUIRES: !Full(c) if the payload is bounded.
  Msg Send(ChannelId c, const Payload& payload);
  // REQUIRES: !Empty(c).
  Msg DeliverFrom(ChannelId c);
  // The message with the lowest sequence number in flight.
  // REQUIRES: AnyInFlight().
  Msg DeliverNext();

  // Calls fn(const Msg&) for channel c's queue, oldest first.
  template <class Fn>
  void ForEachQueued(ChannelId c, Fn&& fn) const {
    for (std::uint32_t s = queues_[c].head; s != kNil; s = slots_[s].next) {
      fn(slots_[s].Get());
    }
  }

  Seq last_seq() const { return next_seq_ - 1; }

 private:
  static constexpr std::uint32_t kNil = UINT32_MAX;
  // In-flight messages live in one pool, each channel's queue is a linked
  // list through it: no allocation per channel, which matters at n = 1000.
  // The fields of a Msg laid out so that `next` fills what would be padding
  // (32 bytes a slot with a 16-byte payload, not 40).
  struct Slot {
    Payload payload{};
    Seq seq = 0;  // 0: free
    ChannelId channel = 0;
    std::uint32_t next = kNil;
    Msg Get() const { return Msg{seq, channel, payload}; }
  };
  struct Queue {
    std::uint32_t head = kNil;
    std::uint32_t tail = kNil;
    std::uint32_t bounded = 0;
  };

  Msg PopHead(ChannelId c);

  std::uint32_t capacity_;
  std::vector<Queue> queues_;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_slots_;
  // Every message in send order, for DeliverNext; entries already delivered
  // through DeliverFrom are skipped lazily (their slot no longer holds seq).
  std::deque<std::pair<Seq, std::uint32_t>> order_;
  std::size_t in_flight_ = 0;
  Seq next_seq_ = 1;
};

template <class Payload, class Bounded>
auto Network<Payload, Bounded>::Send(ChannelId c, const Payload& payload)
    -> Msg {
  const bool bounded = Bounded{}(payload);
  assert(!bounded || !Full(c));
  std::uint32_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  Seq seq = next_seq_++;
  slots_[slot] = Slot{payload, seq, c, kNil};
  Queue& q = queues_[c];
  if (q.tail == kNil) {
    q.head = slot;
  } else {
    slots_[q.tail].next = slot;
  }
  q.tail = slot;
  if (bounded) ++q.bounded;
  order_.emplace_back(seq, slot);
  ++in_flight_;
  return Msg{seq, c, payload};
}

template <class Payload, class Bounded>
auto Network<Payload, Bounded>::PopHead(ChannelId c) -> Msg {
  Queue& q = queues_[c];
  std::uint32_t slot = q.head;
  Msg m = slots_[slot].Get();
  q.head = slots_[slot].next;
  if (q.head == kNil) q.tail = kNil;
  if (Bounded{}(m.payload)) --q.bounded;
  slots_[slot].seq = 0;  // marks the slot free for the lazy skip
  free_slots_.push_back(slot);
  --in_flight_;
  return m;
}

template <class Payload, class Bounded>
auto Network<Payload, Bounded>::DeliverFrom(ChannelId c) -> Msg {
  assert(!Empty(c));
  Msg m = PopHead(c);
  // Drop the entries of order_ already delivered, up to the oldest message
  // still in flight, so that a run that only ever delivers by channel does
  // not grow order_ without end.
  while (!order_.empty() &&
         slots_[order_.front().second].seq != order_.front().first) {
    order_.pop_front();
  }
  return m;
}

template <class Payload, class Bounded>
auto Network<Payload, Bounded>::DeliverNext() -> Msg {
  assert(AnyInFlight());
  // The front of order_ is either delivered already (skip it) or the head of
  // its channel: FIFO channels keep every earlier message of that channel
  // ahead of it, and all of those left order_ before it did.
  while (slots_[order_.front().second].seq != order_.front().first) {
    order_.pop_front();
  }
  std::uint32_t slot = order_.front().second;
  order_.pop_front();
  ChannelId c = slots_[slot].channel;
  assert(queues_[c].head == slot);
  return PopHead(c);
}

}  // namespace cutline::sim
