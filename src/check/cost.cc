// The cost of each snapshot: one walk of the history plus a BFS per
// snapshot's initiators.
#include "check/cost.h"

#include <algorithm>
#include <deque>
#include <map>
#include <utility>

namespace cutline::check {

using sim::ChannelId;
using sim::NodeId;
using sim::Seq;

namespace {

constexpr std::uint32_t kUnreached = UINT32_MAX;

// Hops from the nearest initiator to every branch (kUnreached if none).
std::vector<std::uint32_t> Distances(const sim::Topology& net, std::size_t nodes,
                                     const std::vector<NodeId>& initiators) {
  std::vector<std::uint32_t> dist(nodes, kUnreached);
  std::deque<NodeId> frontier;
  for (NodeId n : initiators) {
    if (dist[n] == kUnreached) {
      dist[n] = 0;
      frontier.push_back(n);
    }
  }
  while (!frontier.empty()) {
    NodeId n = frontier.front();
    frontier.pop_front();
    for (ChannelId c : net.Outgoing(n)) {
      NodeId to = net.channel(c).to;
      if (dist[to] == kUnreached) {
        dist[to] = dist[n] + 1;
        frontier.push_back(to);
      }
    }
  }
  return dist;
}

// What the walk of the history keeps for one snapshot.
struct Walk {
  std::map<NodeId, std::uint32_t> depth;    // hops at which a branch recorded
  std::map<NodeId, std::uint32_t> arrived;  // most hops of a marker before it
  std::map<NodeId, Seq> cause;              // the message that made it record
  std::map<ChannelId, Seq> barrier;         // the marker delivered on a channel
  std::uint32_t longest = 0;
  std::uint64_t held_back = 0;
};

}  // namespace

std::vector<SnapshotCost> CostOfSnapshots(const engine::Engine& bank) {
  const auto& net = bank.network();
  std::map<SnapshotId, Walk> walks;
  // Every transfer's seq, by channel, in the order sent (= seq order).
  std::vector<std::vector<Seq>> transfers(net.channel_count());
  std::vector<ChannelId> channel_of_seq(1, 0);  // by seq; seqs start at 1
  Seq last_seq = 0;
  auto note_send = [&](Seq seq, ChannelId c) {
    if (channel_of_seq.size() <= seq) channel_of_seq.resize(seq + 1, 0);
    channel_of_seq[seq] = c;
    last_seq = std::max(last_seq, seq);
  };
  auto hops_from = [&](Walk& w, NodeId sender) -> std::uint32_t {
    auto d = w.depth.find(sender);
    return d == w.depth.end() ? 1 : d->second + 1;
  };
  for (const history::Event& e : bank.history().events()) {
    std::visit(
        Overloaded{
            [&](const history::Sent<history::Transfer>& s) {
              note_send(s.seq, s.channel);
              transfers[s.channel].push_back(s.seq);
            },
            [&](const history::Sent<history::Marker>& s) { note_send(s.seq, s.channel); },
            [&](const history::Delivered<history::Marker>& d) {
              Walk& w = walks[d.what.snapshot];
              const auto& ch = net.channel(d.channel);
              std::uint32_t hops = hops_from(w, ch.from);
              w.longest = std::max(w.longest, hops);
              w.arrived[ch.to] = std::max(w.arrived[ch.to], hops);
              w.barrier[d.channel] = d.seq;
            },
            [&](const history::Recorded& r) {
              Walk& w = walks[r.snapshot];
              std::uint32_t depth = 0;
              if (r.cause.by_message()) {
                Seq seq = r.cause.message_seq();
                w.cause[r.node] = seq;
                depth = std::max(w.arrived[r.node],
                                 hops_from(w, net.channel(channel_of_seq[seq]).from));
              }
              w.depth[r.node] = depth;
            },
            [&](const history::Closed& c) {
              // Only aligned barriers hold a channel: from its barrier's
              // delivery to the record, unless that barrier made the record.
              if (!bank.AlgorithmOf(c.snapshot).traits().records_after_all_markers) return;
              Walk& w = walks[c.snapshot];
              auto b = w.barrier.find(c.channel);
              if (b == w.barrier.end()) return;
              auto cause = w.cause.find(net.channel(c.channel).to);
              if (cause != w.cause.end() && cause->second == b->second) return;
              const std::vector<Seq>& sent = transfers[c.channel];
              w.held_back += std::upper_bound(sent.begin(), sent.end(), last_seq) -
                             std::upper_bound(sent.begin(), sent.end(), b->second);
            },
            [](const auto&) {},
        },
        e);
  }
  std::vector<SnapshotCost> out;
  for (const engine::SnapshotInfo& s : bank.snapshots()) {
    SnapshotCost cost;
    cost.id = s.id;
    cost.control_sent = s.markers_sent;
    cost.control_least = s.stop_the_world ? 0 : net.channel_count();
    std::vector<std::uint32_t> dist = Distances(net, bank.branch_count(), s.initiators);
    for (std::uint32_t d : dist) {
      if (d != kUnreached) cost.eccentricity = std::max(cost.eccentricity, d);
    }
    for (ChannelId c = 0; c < net.channel_count(); ++c) {
      std::uint32_t d = dist[net.channel(c).from];
      if (d != kUnreached) cost.least_chain = std::max(cost.least_chain, d + 1);
      history::ChannelRecord r = bank.RecordedChannel(s.id, c);
      cost.recorded_transfers += r.transfers.size();
      for (Amount a : r.transfers) cost.recorded_amount += a;
      cost.carried_twice += r.overtaken.size();
    }
    if (s.stop_the_world) {
      cost.least_chain = 0;
    } else {
      auto w = walks.find(s.id);
      cost.longest_chain = w == walks.end() ? 0 : w->second.longest;
      if (w != walks.end()) cost.held_back = w->second.held_back;
    }
    out.push_back(cost);
  }
  return out;
}

}  // namespace cutline::check
