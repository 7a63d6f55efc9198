// What each snapshot of a run cost, beside the least it could have cost on
// that topology: control messages against one per channel, the longest chain
// of marker hops against the initiators' eccentricity, the transfers recorded
// as channel state, and what aligned barriers held back or unaligned ones
// carried twice. Read from the implementation's own counts and from the
// history, as an observer of the judge's walk of it; changes nothing.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "check/history_observer.h"
#include "history/records.h"
#include "sim/network.h"

namespace cutline::check {

struct SnapshotCost {
  SnapshotId id = 0;
  // Markers, barriers or Lai-Yang's control messages sent (the bank's count),
  // and the least: one per channel. Stopping the world sends none.
  std::uint64_t control_sent = 0;
  std::uint64_t control_least = 0;
  // The most marker hops from an initiator to any marker delivered so far
  // (a record caused by a transfer, Lai-Yang's epoch, counts as a hop); the
  // eccentricity of the initiators (the most hops a BFS from them needs to
  // reach a branch); and the least the longest chain can be (every channel
  // carries a marker sent after its sender recorded: the farthest sender's
  // distance plus one). nullopt when the snapshot stopped the world.
  std::optional<std::uint32_t> longest_chain;
  std::uint32_t eccentricity = 0;
  std::uint32_t least_chain = 0;
  // Transfers recorded as channel state, and their sum.
  std::uint64_t recorded_transfers = 0;
  Amount recorded_amount = 0;
  // Aligned barriers: transfers that waited behind a barrier on a held
  // channel. Unaligned: transfers a barrier overtook, recorded by the sender
  // and delivered too.
  std::uint64_t held_back = 0;
  std::uint64_t carried_twice = 0;
};

// What the implementation counted of one snapshot, complete or not, which
// its cost reads beside the history.
struct SnapshotCounts {
  SnapshotId id = 0;
  std::uint64_t markers_sent = 0;
  std::vector<sim::NodeId> initiators;
  bool stops_the_world = false;
  // Aligned barriers: a channel whose barrier came first is held until its
  // receiver records.
  bool holds_channels = false;
  std::vector<history::ChannelRecord> channels;  // what it recorded, by ChannelId
};

// Shown the history (HistoryObserver), it follows each snapshot's markers
// and held channels; Costs then adds the counts and a BFS per snapshot's
// initiators. REQUIRES: topology outlives it.
class SnapshotCosts : public HistoryObserver {
 public:
  SnapshotCosts(const sim::Topology& topology, std::vector<SnapshotCounts> snapshots);
  void Saw(std::size_t i, const history::Event& e) override;
  // One per snapshot given, in their order, as of the events shown so far.
  std::vector<SnapshotCost> Costs() const;

 private:
  // What the walk keeps for one snapshot.
  struct Walk {
    std::map<sim::NodeId, std::uint32_t> depth;    // hops at which a branch recorded
    std::map<sim::NodeId, std::uint32_t> arrived;  // most hops of a marker before it
    std::map<sim::NodeId, sim::Seq> cause;         // the message that made it record
    std::map<sim::ChannelId, sim::Seq> barrier;    // the marker delivered on a channel
    std::uint32_t longest = 0;
    std::uint64_t held_back = 0;
  };
  void NoteSend(sim::Seq seq, sim::ChannelId c);
  std::uint32_t HopsFrom(const Walk& w, sim::NodeId sender) const;

  const sim::Topology& net_;
  const std::vector<SnapshotCounts> snapshots_;
  std::map<SnapshotId, bool> holds_;  // by id: holds_channels
  std::map<SnapshotId, Walk> walks_;
  // Every transfer's seq, by channel, in the order sent (= seq order).
  std::vector<std::vector<sim::Seq>> transfers_;
  std::vector<sim::ChannelId> channel_of_seq_;  // by seq; seqs start at 1
  sim::Seq last_seq_ = 0;
};

}  // namespace cutline::check
