// What went wrong with the naive reader: from the history, which transfers
// its one-by-one reads lost in flight or counted twice, and whether the cut
// through the read points is consistent.
#pragma once

#include <vector>

#include "bank/bank.h"

namespace cutline::bank {

struct CrossingMessage {
  sim::Seq seq;
  NodeId from;
  NodeId to;
  sim::MessageKind kind;
  Amount amount;  // 0 for a marker
};

struct NaiveAnalysis {
  Amount total = 0;        // sum of the balances read
  bool all_read = false;   // every branch has been read at least once
  // Sent before the sender was read, not delivered before the receiver was.
  std::vector<CrossingMessage> lost;
  // Sent after the sender was read, delivered before the receiver was read.
  std::vector<CrossingMessage> counted_twice;
  // Messages received inside the cut but sent outside it (transfers listed
  // in counted_twice, and markers); the cut is consistent iff none.
  std::vector<CrossingMessage> backward;
  bool consistent() const { return backward.empty(); }
};

// REQUIRES: the bank keeps its history.
NaiveAnalysis AnalyzeNaive(const Bank& bank);

}  // namespace cutline::bank
