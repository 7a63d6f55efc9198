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

Topology::Topology(std::uint32_t nodes, const std::vector<Link>& links)
    : nodes_(nodes) {
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
    CUTLINE_CHECK(from < nodes && to < nodes && from != to);
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
}

ChannelId Topology::Find(NodeId from, NodeId to) const {
  if (from >= nodes_ || to >= nodes_) return kNoChannel;
  auto out = Outgoing(from);
  auto it = std::lower_bound(
      out.begin(), out.end(), to,
      [this](ChannelId c, NodeId v) { return channels_[c].to < v; });
  return (it != out.end() && channels_[*it].to == to) ? *it : kNoChannel;
}

std::span<const ChannelId> Topology::Outgoing(NodeId n) const {
  return {out_.data() + out_begin_[n], out_begin_[n + 1] - out_begin_[n]};
}

std::span<const ChannelId> Topology::Incoming(NodeId n) const {
  return {in_.data() + in_begin_[n], in_begin_[n + 1] - in_begin_[n]};
}

}  // namespace cutline::sim
