// The cost of each snapshot: what the judge's walk of the history shows,
// followed as it passes, plus a BFS per snapshot's initiators.
#include "check/cost.h"

#include <algorithm>
#include <deque>
#include <utility>

#include "base/overloaded.h"

namespace cutline::check {

using sim::ChannelId;
using sim::NodeId;
using sim::Seq;

namespace {

constexpr std::uint32_t kUnreached = UINT32_MAX;

// Hops from the nearest initiator to every branch (kUnreached if none).
std::vector<std::uint32_t> Distances(const sim::Topology& net,
                                     const std::vector<NodeId>& initiators) {
  std::vector<std::uint32_t> dist(net.nodes(), kUnreached);
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

}  // namespace

SnapshotCosts::SnapshotCosts(const sim::Topology& topology, std::vector<SnapshotCounts> snapshots)
    : net_(topology),
      snapshots_(std::move(snapshots)),
      transfers_(topology.channel_count()),
      channel_of_seq_(1, 0) {
  for (const SnapshotCounts& s : snapshots_) holds_.emplace(s.id, s.holds_channels);
}

void SnapshotCosts::NoteSend(Seq seq, ChannelId c) {
  if (channel_of_seq_.size() <= seq) channel_of_seq_.resize(seq + 1, 0);
  channel_of_seq_[seq] = c;
  last_seq_ = std::max(last_seq_, seq);
}

std::uint32_t SnapshotCosts::HopsFrom(const Walk& w, NodeId sender) const {
  auto d = w.depth.find(sender);
  return d == w.depth.end() ? 1 : d->second + 1;
}

void SnapshotCosts::Saw(std::size_t, const history::Event& e) {
  std::visit(
      Overloaded{
          [&](const history::Sent<history::Transfer>& s) {
            NoteSend(s.seq, s.channel);
            transfers_[s.channel].push_back(s.seq);
          },
          [&](const history::Sent<history::Marker>& s) { NoteSend(s.seq, s.channel); },
          [&](const history::Delivered<history::Marker>& d) {
            Walk& w = walks_[d.what.snapshot];
            const sim::ChannelInfo& ch = net_.channel(d.channel);
            std::uint32_t hops = HopsFrom(w, ch.from);
            w.longest = std::max(w.longest, hops);
            w.arrived[ch.to] = std::max(w.arrived[ch.to], hops);
            w.barrier[d.channel] = d.seq;
          },
          [&](const history::Recorded& r) {
            Walk& w = walks_[r.snapshot];
            std::uint32_t depth = 0;
            if (r.cause.by_message()) {
              Seq seq = r.cause.message_seq();
              w.cause[r.node] = seq;
              depth = std::max(w.arrived[r.node],
                               HopsFrom(w, net_.channel(channel_of_seq_[seq]).from));
            }
            w.depth[r.node] = depth;
          },
          [&](const history::Closed& c) {
            // Only aligned barriers hold a channel: from its barrier's
            // delivery to the record, unless that barrier made the record.
            auto holds = holds_.find(c.snapshot);
            if (holds == holds_.end() || !holds->second) return;
            Walk& w = walks_[c.snapshot];
            auto b = w.barrier.find(c.channel);
            if (b == w.barrier.end()) return;
            auto cause = w.cause.find(net_.channel(c.channel).to);
            if (cause != w.cause.end() && cause->second == b->second) return;
            const std::vector<Seq>& sent = transfers_[c.channel];
            w.held_back += std::upper_bound(sent.begin(), sent.end(), last_seq_) -
                           std::upper_bound(sent.begin(), sent.end(), b->second);
          },
          [](const auto&) {},
      },
      e);
}

std::vector<SnapshotCost> SnapshotCosts::Costs() const {
  std::vector<SnapshotCost> out;
  for (const SnapshotCounts& s : snapshots_) {
    SnapshotCost cost;
    cost.id = s.id;
    cost.control_sent = s.markers_sent;
    cost.control_least = s.stops_the_world ? 0 : net_.channel_count();
    std::vector<std::uint32_t> dist = Distances(net_, s.initiators);
    for (std::uint32_t d : dist) {
      if (d != kUnreached) cost.eccentricity = std::max(cost.eccentricity, d);
    }
    for (ChannelId c = 0; c < net_.channel_count(); ++c) {
      std::uint32_t d = dist[net_.channel(c).from];
      if (d != kUnreached) cost.least_chain = std::max(cost.least_chain, d + 1);
      if (c >= s.channels.size()) continue;
      const history::ChannelRecord& r = s.channels[c];
      cost.recorded_transfers += r.transfers.size();
      for (Amount a : r.transfers) cost.recorded_amount += a;
      cost.carried_twice += r.overtaken.size();
    }
    if (s.stops_the_world) {
      cost.least_chain = 0;
    } else {
      auto w = walks_.find(s.id);
      cost.longest_chain = w == walks_.end() ? 0 : w->second.longest;
      if (w != walks_.end()) cost.held_back = w->second.held_back;
    }
    out.push_back(cost);
  }
  return out;
}

}  // namespace cutline::check
