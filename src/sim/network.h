// A deterministic network of one-way channels between numbered nodes, FIFO
// unless told otherwise; a channel may be held back (nothing leaves it).
// It numbers and queues messages and knows nothing of what they mean: the
// payload is the host's. Every message gets a global send sequence number;
// "deliver next" takes the lowest one in flight, so a run is a pure function
// of its commands.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "base/check.h"
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

  std::uint32_t nodes() const { return shape_->nodes; }
  std::size_t channel_count() const { return shape_->channels.size(); }
  const ChannelInfo& channel(ChannelId c) const { return shape_->channels[c]; }
  // kNoChannel if there is no channel from -> to.
  ChannelId Find(NodeId from, NodeId to) const;
  // Channel ids ordered by receiver (outgoing) or sender (incoming).
  std::span<const ChannelId> Outgoing(NodeId n) const;
  std::span<const ChannelId> Incoming(NodeId n) const;

 private:
  struct Shape {
    std::uint32_t nodes = 0;
    std::vector<ChannelInfo> channels;  // by sender, then receiver
    std::vector<ChannelId> out;         // grouped by sender: out_begin[n]..
    std::vector<std::uint32_t> out_begin;
    std::vector<ChannelId> in;          // grouped by receiver
    std::vector<std::uint32_t> in_begin;
  };
  // Shared by every copy, as it never changes: a copy of a run (cutline
  // explore makes one at every step) copies a pointer, not six arrays.
  std::shared_ptr<const Shape> shape_;
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

  // capacity == 0 means unlimited. fifo == false: any waiting message of a
  // channel may be delivered (DeliverAt), and DeliverNext takes the lowest
  // sequence number in flight whatever its place in its channel.
  Network(std::uint32_t nodes, const std::vector<Link>& links,
          std::uint32_t capacity, bool fifo = true)
      : Topology(nodes, links),
        capacity_(capacity),
        fifo_(fifo),
        queues_(channel_count()) {}
  // Moves never throw, so a vector of engines grows by moving them, not
  // by copying each (cutline explore's frontier once spent half its time
  // so, when a std::deque here made the move throwing).
  Network(const Network&) = default;
  Network(Network&&) noexcept = default;
  Network& operator=(const Network&) = default;
  Network& operator=(Network&&) noexcept = default;

  bool fifo() const { return fifo_; }
  std::uint32_t Size(ChannelId c) const { return queues_[c].size; }
  // A held-back channel delivers nothing (its messages stay in order).
  void Hold(ChannelId c) {
    if (!queues_[c].held) {
      ++held_channels_;
      ++blocked_;
    }
    queues_[c].held = true;
  }
  void Release(ChannelId c);
  bool Held(ChannelId c) const { return queues_[c].held; }
  // Whether DeliverNext has something to deliver.
  bool CanDeliverNext() const;

  bool Full(ChannelId c) const {  // no room for one more bounded message
    return capacity_ != 0 && queues_[c].bounded >= capacity_;
  }
  bool Empty(ChannelId c) const { return queues_[c].head == kNil; }
  bool AnyInFlight() const { return in_flight_ > 0; }

  // Appends to channel c's queue. Returns the message, with its number.
  // REQUIRES: !Full(c) if the payload is bounded.
  Msg Send(ChannelId c, const Payload& payload);
  // Puts the message at the head of channel c's queue, ahead of everything
  // waiting there (it still gets the next sequence number). Unbounded
  // payloads only.
  Msg SendAhead(ChannelId c, const Payload& payload);
  // REQUIRES: !Empty(c).
  Msg DeliverFrom(ChannelId c) { return DeliverAt(c, 1); }
  // The k-th oldest message of channel c (k = 1: the head).
  // REQUIRES: 1 <= k <= Size(c); k == 1 on a FIFO network.
  Msg DeliverAt(ChannelId c, std::uint32_t k);
  // Among the messages that can be delivered now (the heads of channels not
  // held back; on a non-FIFO network, every waiting message of those), the
  // one with the lowest sequence number. REQUIRES: CanDeliverNext().
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
    std::uint32_t size : 31 = 0;
    bool held : 1 = false;
  };

  // Unlinks `slot` (whose predecessor in its channel is `prev`, or kNil).
  Msg Unlink(ChannelId c, std::uint32_t slot, std::uint32_t prev);
  // Unlink's rare part, out of line so Unlink stays small: the message may
  // have been parked, or may have uncovered one.
  [[gnu::noinline]] void UnlinkedWhileParked(ChannelId c, std::uint32_t slot,
                                             std::uint32_t prev);
  bool AnyReadyWhileHeld() const;  // CanDeliverNext's search
  std::uint32_t NewSlot();
  using Entry = std::pair<Seq, std::uint32_t>;  // (seq, slot)
  // DeliverNext when the front of the send order may not leave.
  Msg DeliverFirstReady();
  // Drops delivered entries from the front of order_ and parks the live
  // ones that may not leave, until the front may; pops stale entries off
  // ready_. Afterwards each is empty or its first entry may leave.
  void Settle();
  // A parked message may leave again: c's head changed, or c was released.
  void Unparked(ChannelId c);
  bool IsParked(std::uint32_t slot) const {
    return slot < parked_.size() && parked_[slot] != 0;
  }
  void Park(std::uint32_t slot) {
    // Sized when a park needs it, not on the fast path's pool growth
    // (slots beyond its end are not parked).
    if (parked_.size() < slots_.size()) parked_.resize(slots_.size(), 0);
    parked_[slot] = 1;
    ++parked_count_;
    ++blocked_;
  }
  // True if the entry (of order_ or ready_) is still in flight and may
  // leave now.
  bool Ready(const Entry& entry) const {
    const Slot& s = slots_[entry.second];
    if (s.seq != entry.first) return false;
    const Queue& q = queues_[s.channel];
    return !q.held && (!fifo_ || q.head == entry.second);
  }
  void DropDelivered() {
    while (!order_.empty() &&
           slots_[order_.front().second].seq != order_.front().first) {
      order_.pop_front();
    }
  }

  std::uint32_t capacity_;
  bool fifo_;
  std::uint32_t held_channels_ = 0;
  // held_channels_ + parked_count_: while 0, the front of order_ is the
  // answer of DeliverNext whenever it heads its channel (the fast path).
  std::uint64_t blocked_ = 0;
  std::vector<Queue> queues_;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_slots_;
  // Every message in send order, for DeliverNext; entries already delivered
  // through DeliverFrom are skipped lazily (their slot no longer holds seq).
  // A message that reaches the front while it may not leave (behind a
  // message sent ahead, or on a held channel) is parked: taken out of
  // order_, flagged in parked_ (by slot), and put in ready_ once it may
  // leave again. So every entry is passed over once, not at every delivery
  // (before, a message stuck at the front made each delivery rescan all
  // those delivered since: quadratic in an unaligned barrier's backlog).
  // A queue that grows at its back and shrinks at its front: a vector and
  // its front's index, not a std::deque, which allocates a block even when
  // empty (every copy of a run, and cutline explore makes one at every
  // step, paid over 500 bytes for it). The front part is dropped once it
  // is most of the vector, so each entry is moved at most once on average.
  class SendOrder {
   public:
    bool empty() const { return head_ == v_.size(); }
    const Entry& front() const { return v_[head_]; }
    void pop_front() {
      if (++head_ == v_.size()) {
        v_.clear();
        head_ = 0;
      } else if (head_ >= 1024 && head_ * 2 >= v_.size()) {
        v_.erase(v_.begin(), v_.begin() + static_cast<std::ptrdiff_t>(head_));
        head_ = 0;
      }
    }
    void emplace_back(Seq seq, std::uint32_t slot) { v_.emplace_back(seq, slot); }
    auto begin() const { return v_.begin() + static_cast<std::ptrdiff_t>(head_); }
    auto end() const { return v_.end(); }

   private:
    std::vector<Entry> v_;
    std::size_t head_ = 0;
  };
  SendOrder order_;
  // By slot; empty until a first park, and longer than every slot parked.
  std::vector<std::uint8_t> parked_;
  std::uint64_t parked_count_ = 0;
  // Candidates that may have become ready (a min-heap by seq); an entry is
  // checked with Ready() when it comes to the top.
  std::vector<Entry> ready_;
  std::size_t in_flight_ = 0;
  Seq next_seq_ = 1;
};

template <class Payload, class Bounded>
std::uint32_t Network<Payload, Bounded>::NewSlot() {
  if (!free_slots_.empty()) {
    std::uint32_t slot = free_slots_.back();
    free_slots_.pop_back();
    return slot;
  }
  // parked_ is not grown here (Park sizes it): this is every send's path
  // while the pool grows, and it inlines into Send.
  slots_.emplace_back();
  return static_cast<std::uint32_t>(slots_.size() - 1);
}

template <class Payload, class Bounded>
auto Network<Payload, Bounded>::Send(ChannelId c, const Payload& payload)
    -> Msg {
  const bool bounded = Bounded{}(payload);
  CUTLINE_CHECK(!bounded || !Full(c));
  std::uint32_t slot = NewSlot();
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
  ++q.size;
  order_.emplace_back(seq, slot);
  ++in_flight_;
  return Msg{seq, c, payload};
}

template <class Payload, class Bounded>
auto Network<Payload, Bounded>::SendAhead(ChannelId c, const Payload& payload)
    -> Msg {
  CUTLINE_CHECK(!Bounded{}(payload));
  std::uint32_t slot = NewSlot();
  Seq seq = next_seq_++;
  Queue& q = queues_[c];
  slots_[slot] = Slot{payload, seq, c, q.head};
  q.head = slot;
  if (q.tail == kNil) q.tail = slot;
  ++q.size;
  order_.emplace_back(seq, slot);
  ++in_flight_;
  return Msg{seq, c, payload};
}

template <class Payload, class Bounded>
auto Network<Payload, Bounded>::Unlink(ChannelId c, std::uint32_t slot,
                                       std::uint32_t prev) -> Msg {
  Queue& q = queues_[c];
  Msg m = slots_[slot].Get();
  std::uint32_t next = slots_[slot].next;
  if (prev == kNil) {
    q.head = next;
  } else {
    slots_[prev].next = next;
  }
  if (q.tail == slot) q.tail = prev;
  if (Bounded{}(m.payload)) --q.bounded;
  --q.size;
  slots_[slot].seq = 0;  // marks the slot free for the lazy skip
  free_slots_.push_back(slot);
  --in_flight_;
  if (parked_count_ != 0) [[unlikely]] UnlinkedWhileParked(c, slot, prev);
  return m;
}

template <class Payload, class Bounded>
void Network<Payload, Bounded>::UnlinkedWhileParked(ChannelId c, std::uint32_t slot,
                                                    std::uint32_t prev) {
  if (IsParked(slot)) {
    parked_[slot] = 0;
    --parked_count_;
    --blocked_;
    if (parked_count_ == 0) ready_.clear();  // every candidate is in order_
  }
  // FIFO: the channel's new head may be a parked message, free now.
  if (prev == kNil && fifo_ && parked_count_ != 0) Unparked(c);
}

template <class Payload, class Bounded>
void Network<Payload, Bounded>::Release(ChannelId c) {
  if (!queues_[c].held) return;
  --held_channels_;
  --blocked_;
  queues_[c].held = false;
  if (parked_count_ != 0) Unparked(c);
}

template <class Payload, class Bounded>
void Network<Payload, Bounded>::Unparked(ChannelId c) {
  // FIFO: only the head may leave; else any message of the channel may.
  // A candidate that was never parked is found in order_ as well: the
  // first of the two to be delivered leaves the other stale.
  for (std::uint32_t s = queues_[c].head; s != kNil; s = slots_[s].next) {
    if (IsParked(s)) {
      ready_.emplace_back(slots_[s].seq, s);
      std::push_heap(ready_.begin(), ready_.end(), std::greater<>{});
    }
    if (fifo_) break;
  }
}

template <class Payload, class Bounded>
void Network<Payload, Bounded>::Settle() {
  while (!order_.empty()) {
    const Entry& front = order_.front();
    if (slots_[front.second].seq == front.first) {
      if (Ready(front)) break;
      Park(front.second);
    }
    order_.pop_front();
  }
  while (!ready_.empty() && !Ready(ready_.front())) {
    std::pop_heap(ready_.begin(), ready_.end(), std::greater<>{});
    ready_.pop_back();
  }
}

template <class Payload, class Bounded>
auto Network<Payload, Bounded>::DeliverAt(ChannelId c, std::uint32_t k)
    -> Msg {
  CUTLINE_CHECK(k >= 1 && k <= Size(c) && (!fifo_ || k == 1));
  std::uint32_t prev = kNil, slot = queues_[c].head;
  for (std::uint32_t i = 1; i < k; ++i) {
    prev = slot;
    slot = slots_[slot].next;
  }
  Msg m = Unlink(c, slot, prev);
  // Drop the entries of order_ already delivered, up to the oldest message
  // still in flight, so that a run that only ever delivers by channel does
  // not grow order_ without end.
  DropDelivered();
  return m;
}

template <class Payload, class Bounded>
inline bool Network<Payload, Bounded>::CanDeliverNext() const {
  if (in_flight_ == 0) return false;
  // With nothing held back, the head of any channel with messages may leave
  // (FIFO or not): no need to look. Kept this small so that it inlines into
  // the host's drain loop; the search is out of line.
  if (held_channels_ == 0) return true;
  return AnyReadyWhileHeld();
}

template <class Payload, class Bounded>
bool Network<Payload, Bounded>::AnyReadyWhileHeld() const {
  // DeliverNext keeps the front of both ready (Settle), so these stop early.
  for (const Entry& entry : order_) {
    if (Ready(entry)) return true;
  }
  for (const Entry& entry : ready_) {
    if (Ready(entry)) return true;
  }
  return false;
}

template <class Payload, class Bounded>
inline auto Network<Payload, Bounded>::DeliverNext() -> Msg {
  CUTLINE_CHECK(AnyInFlight());
  DropDelivered();
  // The common case: the front of order_ is the head of its channel (FIFO
  // channels keep every earlier message of that channel ahead of it, and all
  // of those left order_ before it did) and nothing is held back. It stays
  // small enough to inline into the host's drain loop, as before the
  // variants; the rest is DeliverFirstReady.
  if (blocked_ != 0) return DeliverFirstReady();
  std::uint32_t slot = order_.front().second;
  ChannelId c = slots_[slot].channel;
  if (queues_[c].head != slot) return DeliverFirstReady();
  order_.pop_front();
  return Unlink(c, slot, kNil);
}

template <class Payload, class Bounded>
auto Network<Payload, Bounded>::DeliverFirstReady() -> Msg {
  // The lowest sequence number that may leave now is the front of order_
  // or the top of ready_, once both are settled.
  Settle();
  bool from_order = !order_.empty();
  if (!ready_.empty() && (!from_order || ready_.front().first < order_.front().first)) {
    from_order = false;
  }
  CUTLINE_CHECK(from_order || !ready_.empty());
  std::uint32_t slot;
  if (from_order) {
    slot = order_.front().second;
    order_.pop_front();
  } else {
    slot = ready_.front().second;
    std::pop_heap(ready_.begin(), ready_.end(), std::greater<>{});
    ready_.pop_back();
  }
  ChannelId c = slots_[slot].channel;
  std::uint32_t prev = kNil;
  for (std::uint32_t s = queues_[c].head; s != slot; s = slots_[s].next) {
    prev = s;
  }
  return Unlink(c, slot, prev);
}

}  // namespace cutline::sim
