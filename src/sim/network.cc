// Topology: the channel tables, built once. (Network, a template, is all
// in the header.)
#include "sim/network.h"
#include "base/check.h"

#include <algorithm>

namespace cutline::sim {

std::vector<Link> Topology::Complete(std::uint32_t nodes) {
  std::vector<Link> links;
  links.reserve(static_cast<std::size_t>(nodes) * (nodes ? nodes - 1 : 0));
  for (NodeId a = 0; a < nodes; ++a) {
    for (NodeId b = 0; b < nodes; ++b) {
      if (a != b) links.emplace_back(a, b);
    }
  }
  return links;
}

Topology::Topology(std::uint32_t nodes, const std::vector<Link>& links) {
  auto shape = std::make_shared<Shape>();
  Shape& t = *shape;
  t.nodes = nodes;
  std::vector<Link> sorted = links;
  // Complete() and most callers pass links already sorted: skip the sort
  // then (it was ~40% of building a 1000-branch complete graph).
  if (!std::is_sorted(sorted.begin(), sorted.end())) {
    std::sort(sorted.begin(), sorted.end());
  }
  t.channels.reserve(sorted.size());
  t.out_begin.assign(nodes + 1, 0);
  t.in_begin.assign(nodes + 1, 0);
  for (const auto& [from, to] : sorted) {
    CUTLINE_CHECK(from < nodes && to < nodes && from != to);
    ++t.out_begin[from + 1];
    ++t.in_begin[to + 1];
  }
  for (std::uint32_t n = 0; n < nodes; ++n) {
    t.out_begin[n + 1] += t.out_begin[n];
    t.in_begin[n + 1] += t.in_begin[n];
  }
  t.out.resize(sorted.size());
  t.in.resize(sorted.size());
  std::vector<std::uint32_t> out_fill(t.out_begin.begin(), t.out_begin.end() - 1);
  std::vector<std::uint32_t> in_fill(t.in_begin.begin(), t.in_begin.end() - 1);
  // Sorted by (from, to): each sender's outgoing list comes out ordered by
  // receiver, and each receiver's incoming list ordered by sender.
  for (const auto& [from, to] : sorted) {
    ChannelId id = static_cast<ChannelId>(t.channels.size());
    ChannelIndex out_index = out_fill[from] - t.out_begin[from];
    ChannelIndex in_index = in_fill[to] - t.in_begin[to];
    t.out[out_fill[from]++] = id;
    t.in[in_fill[to]++] = id;
    t.channels.push_back(ChannelInfo{from, to, in_index, out_index});
  }
  shape_ = std::move(shape);
}

ChannelId Topology::Find(NodeId from, NodeId to) const {
  if (from >= shape_->nodes || to >= shape_->nodes) return kNoChannel;
  auto out = Outgoing(from);
  const std::vector<ChannelInfo>& channels = shape_->channels;
  auto it = std::lower_bound(
      out.begin(), out.end(), to,
      [&](ChannelId c, NodeId v) { return channels[c].to < v; });
  return (it != out.end() && channels[*it].to == to) ? *it : kNoChannel;
}

std::span<const ChannelId> Topology::Outgoing(NodeId n) const {
  const Shape& t = *shape_;
  return {t.out.data() + t.out_begin[n], t.out_begin[n + 1] - t.out_begin[n]};
}

std::span<const ChannelId> Topology::Incoming(NodeId n) const {
  const Shape& t = *shape_;
  return {t.in.data() + t.in_begin[n], t.in_begin[n + 1] - t.in_begin[n]};
}

}  // namespace cutline::sim
