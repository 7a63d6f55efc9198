// Cuts through a run's history: the naive reader's (through its read points)
// and a snapshot's (through its record points). From the history alone: which
// transfers the naive reads lost in flight or counted twice, and which
// messages cross a cut backwards (received inside it, sent outside it), the
// mark of an inconsistent cut.
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

#include "engine/engine.h"
#include "engine/replay.h"

namespace cutline::engine {

struct CrossingMessage {
  Seq seq;
  NodeId from;
  NodeId to;
  Payload payload;
  bool is_transfer() const { return std::holds_alternative<Transfer>(payload); }
  Amount amount() const {  // 0 for a marker
    return is_transfer() ? std::get<Transfer>(payload).amount : 0;
  }
};

struct NaiveAnalysis {
  Amount total = 0;        // sum of the balances read
  bool all_read = false;   // every branch has been read at least once
  // Sent before the sender was read, not delivered before the receiver was.
  std::vector<CrossingMessage> lost;
  // Sent after the sender was read, delivered before the receiver was read.
  std::vector<CrossingMessage> counted_twice;
  // Messages received inside the read cut but sent outside it (transfers
  // listed in counted_twice, and markers); the cut is consistent iff none.
  // Only pairs of branches that have both been read are judged.
  std::vector<CrossingMessage> backward;
  bool consistent() const { return backward.empty(); }
};

// `replay`: Replay::Of(bank), made once for every analysis of the run.
// REQUIRES: the bank keeps its history.
NaiveAnalysis AnalyzeNaive(const Engine& bank, const Replay& replay);

// A cut: for each branch, the index in the history of its point on the cut,
// or kFuture for a branch whose point is still to come (everything it has
// seen so far is inside).
inline constexpr std::size_t kFuture = std::numeric_limits<std::size_t>::max();
using Cut = std::vector<std::size_t>;

// Snapshot `id`'s cut through its record points. A record caused by a
// marker (its Cause says which) is placed at that marker's delivery, which
// is then outside the cut: the marker is the cut's edge, not a message
// crossing it.
Cut SnapshotCut(const Engine& bank, const Replay& replay, SnapshotId id);

// The messages that cross `cut` backwards: delivered before the receiver's
// point, sent after the sender's. For a Chandy-Lamport snapshot over FIFO
// channels the list is always empty; the page draws it anyway, since that is
// what "consistent" means. REQUIRES: the bank keeps its history.
std::vector<CrossingMessage> BackwardAcross(const Engine& bank,
                                            const Replay& replay,
                                            const Cut& cut);

// The messages crossing snapshot `id`'s cut so far, leaving out its own
// markers: they are the algorithm's messages, not the bank's state, and
// under aligned barriers a branch receives barriers before it records (it
// is waiting for the rest), which is no crossing.
std::vector<CrossingMessage> BackwardAcrossSnapshot(const Engine& bank,
                                                    const Replay& replay,
                                                    SnapshotId id);

}  // namespace cutline::engine
