// A deterministic network of one-way FIFO channels between numbered nodes.
// Every message gets a global send sequence number; "deliver next" takes the
// lowest one in flight, so a run is a pure function of its commands.
#pragma once

#include <cstdint>
#include <deque>
#include <span>
#include <utility>
#include <vector>

#include "sim/history.h"

namespace cutline::sim {

inline constexpr ChannelId kNoChannel = UINT32_MAX;

struct Message {
  Seq seq = 0;
  ChannelId channel = 0;
  MessageKind kind = MessageKind::kTransfer;
  std::int64_t value = 0;  // a transfer's amount, or a marker's snapshot id
};

struct ChannelInfo {
  NodeId from;
  NodeId to;
  ChannelIndex in_index;   // position among `to`'s incoming channels
  ChannelIndex out_index;  // position among `from`'s outgoing channels
};

using Link = std::pair<NodeId, NodeId>;

class Network {
 public:
  // REQUIRES: links are distinct, no self-loops, endpoints < nodes.
  // capacity_transfers == 0 means unlimited. Markers never count.
  Network(std::uint32_t nodes, const std::vector<Link>& links,
          std::uint32_t capacity_transfers, bool keep_history = true);

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

  bool Full(ChannelId c) const;  // no room for one more transfer
  bool Empty(ChannelId c) const { return queues_[c].head == kNil; }
  bool AnyInFlight() const { return in_flight_ > 0; }

  // Appends to channel c's queue and to the history. Returns the message.
  // REQUIRES: !Full(c) for a transfer.
  const Message& Send(ChannelId c, MessageKind kind, std::int64_t value);
  // REQUIRES: !Empty(c).
  Message DeliverFrom(ChannelId c);
  // The message with the lowest sequence number in flight.
  // REQUIRES: AnyInFlight().
  Message DeliverNext();

  // Calls fn(const Message&) for channel c's queue, oldest first.
  template <class Fn>
  void ForEachQueued(ChannelId c, Fn&& fn) const {
    for (std::uint32_t s = queues_[c].head; s != kNil; s = slots_[s].next) {
      fn(slots_[s].message);
    }
  }

  History& history() { return history_; }
  const History& history() const { return history_; }
  Seq last_seq() const { return next_seq_ - 1; }

 private:
  static constexpr std::uint32_t kNil = UINT32_MAX;
  // In-flight messages live in one pool, each channel's queue is a linked
  // list through it: no allocation per channel, which matters at n = 1000.
  struct Slot {
    Message message;
    std::uint32_t next = kNil;
  };
  struct Queue {
    std::uint32_t head = kNil;
    std::uint32_t tail = kNil;
    std::uint32_t transfers = 0;
  };

  Message PopHead(ChannelId c);

  std::uint32_t nodes_;
  std::uint32_t capacity_;
  std::vector<ChannelInfo> channels_;  // by sender, then receiver
  std::vector<ChannelId> out_;         // grouped by sender: out_begin_[n]..
  std::vector<std::uint32_t> out_begin_;
  std::vector<ChannelId> in_;          // grouped by receiver
  std::vector<std::uint32_t> in_begin_;
  std::vector<Queue> queues_;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_slots_;
  // Every message in send order, for DeliverNext; entries already delivered
  // through DeliverFrom are skipped lazily (their slot no longer holds seq).
  std::deque<std::pair<Seq, std::uint32_t>> order_;
  std::size_t in_flight_ = 0;
  Seq next_seq_ = 1;
  History history_;
};

}  // namespace cutline::sim
