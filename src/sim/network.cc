// Network: topology tables, the message pool and deterministic delivery.
#include "sim/network.h"

#include <algorithm>
#include <cassert>

namespace cutline::sim {

std::vector<Link> Network::Complete(std::uint32_t nodes) {
  std::vector<Link> links;
  links.reserve(static_cast<std::size_t>(nodes) * (nodes ? nodes - 1 : 0));
  for (NodeId a = 0; a < nodes; ++a) {
    for (NodeId b = 0; b < nodes; ++b) {
      if (a != b) links.emplace_back(a, b);
    }
  }
  return links;
}

Network::Network(std::uint32_t nodes, const std::vector<Link>& links,
                 std::uint32_t capacity_transfers, bool keep_history)
    : nodes_(nodes), capacity_(capacity_transfers), history_(keep_history) {
  std::vector<Link> sorted = links;
  // Complete() and most callers pass links already sorted: skip the sort
  // then (it was ~40% of building a 1000-branch complete graph).
  if (!std::is_sorted(sorted.begin(), sorted.end())) {
    std::sort(sorted.begin(), sorted.end());
  }
  channels_.reserve(sorted.size());
  out_begin_.assign(nodes + 1, 0);
  in_begin_.assign(nodes + 1, 0);
  for (const auto& [from, to] : sorted) {
    assert(from < nodes && to < nodes && from != to);
    ++out_begin_[from + 1];
    ++in_begin_[to + 1];
  }
  for (std::uint32_t n = 0; n < nodes; ++n) {
    out_begin_[n + 1] += out_begin_[n];
    in_begin_[n + 1] += in_begin_[n];
  }
  out_.resize(sorted.size());
  in_.resize(sorted.size());
  std::vector<std::uint32_t> out_fill(out_begin_.begin(), out_begin_.end() - 1);
  std::vector<std::uint32_t> in_fill(in_begin_.begin(), in_begin_.end() - 1);
  // Sorted by (from, to): each sender's outgoing list comes out ordered by
  // receiver, and each receiver's incoming list ordered by sender.
  for (const auto& [from, to] : sorted) {
    ChannelId id = static_cast<ChannelId>(channels_.size());
    ChannelIndex out_index = out_fill[from] - out_begin_[from];
    ChannelIndex in_index = in_fill[to] - in_begin_[to];
    out_[out_fill[from]++] = id;
    in_[in_fill[to]++] = id;
    channels_.push_back(ChannelInfo{from, to, in_index, out_index});
  }
  queues_.resize(channels_.size());
}

ChannelId Network::Find(NodeId from, NodeId to) const {
  if (from >= nodes_ || to >= nodes_) return kNoChannel;
  auto out = Outgoing(from);
  auto it = std::lower_bound(
      out.begin(), out.end(), to,
      [this](ChannelId c, NodeId v) { return channels_[c].to < v; });
  return (it != out.end() && channels_[*it].to == to) ? *it : kNoChannel;
}

std::span<const ChannelId> Network::Outgoing(NodeId n) const {
  return {out_.data() + out_begin_[n], out_begin_[n + 1] - out_begin_[n]};
}

std::span<const ChannelId> Network::Incoming(NodeId n) const {
  return {in_.data() + in_begin_[n], in_begin_[n + 1] - in_begin_[n]};
}

bool Network::Full(ChannelId c) const {
  return capacity_ != 0 && queues_[c].transfers >= capacity_;
}

const Message& Network::Send(ChannelId c, MessageKind kind,
                             std::int64_t value) {
  assert(kind != MessageKind::kTransfer || !Full(c));
  std::uint32_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  Seq seq = next_seq_++;
  slots_[slot] = Slot{Message{seq, c, kind, value}, kNil};
  Queue& q = queues_[c];
  if (q.tail == kNil) {
    q.head = slot;
  } else {
    slots_[q.tail].next = slot;
  }
  q.tail = slot;
  if (kind == MessageKind::kTransfer) ++q.transfers;
  order_.emplace_back(seq, slot);
  ++in_flight_;
  history_.Add(Event{EventKind::kSend, kind, channels_[c].from, c, seq, value});
  return slots_[slot].message;
}

Message Network::PopHead(ChannelId c) {
  Queue& q = queues_[c];
  std::uint32_t slot = q.head;
  Message m = slots_[slot].message;
  q.head = slots_[slot].next;
  if (q.head == kNil) q.tail = kNil;
  if (m.kind == MessageKind::kTransfer) --q.transfers;
  slots_[slot].message.seq = 0;  // marks the slot free for the lazy skip
  free_slots_.push_back(slot);
  --in_flight_;
  history_.Add(
      Event{EventKind::kDeliver, m.kind, channels_[c].to, c, m.seq, m.value});
  return m;
}

Message Network::DeliverFrom(ChannelId c) {
  assert(!Empty(c));
  Message m = PopHead(c);
  // Drop the entries of order_ already delivered, up to the oldest message
  // still in flight, so that a run that only ever delivers by channel does
  // not grow order_ without end.
  while (!order_.empty() &&
         slots_[order_.front().second].message.seq != order_.front().first) {
    order_.pop_front();
  }
  return m;
}

Message Network::DeliverNext() {
  assert(AnyInFlight());
  // The front of order_ is either delivered already (skip it) or the head of
  // its channel: FIFO channels keep every earlier message of that channel
  // ahead of it, and all of those left order_ before it did.
  while (slots_[order_.front().second].message.seq != order_.front().first) {
    order_.pop_front();
  }
  std::uint32_t slot = order_.front().second;
  order_.pop_front();
  ChannelId c = slots_[slot].message.channel;
  assert(queues_[c].head == slot);
  return PopHead(c);
}

}  // namespace cutline::sim
