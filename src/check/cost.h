// What each snapshot of a run cost, beside the least it could have cost on
// that topology: control messages against one per channel, the longest chain
// of marker hops against the initiators' eccentricity, the transfers recorded
// as channel state, and what aligned barriers held back or unaligned ones
// carried twice. Read from the bank's counts and its history; changes nothing.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "engine/engine.h"

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

// One per snapshot, in bank.snapshots()'s order. REQUIRES: the bank keeps
// its history (the chain and the held-back count are read from it).
std::vector<SnapshotCost> CostOfSnapshots(const engine::Engine& bank);

}  // namespace cutline::check
