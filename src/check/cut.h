// A cut the student draws, judged from a run's history alone: one point per
// branch, "after its first k message events"; whether it is consistent, the
// messages crossing it either way, and what a snapshot at it would add up to
// (the bank) or declare (an application with a stable property).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "apps/app.h"

#include "base/status.h"
#include "check/consistency_checker.h"

namespace cutline::check {

// One message crossing the cut, as the page names it.
struct CutCrossing {
  sim::Seq seq = 0;
  bool transfer = true;  // false: a marker (or barrier, or control message)
  cutline::Amount amount = 0;  // 0 for a marker
  sim::NodeId from = 0;
  sim::NodeId to = 0;
  // Positions on the sender's and the receiver's lines, counted in message
  // events from 1 (the cut after k events holds positions 1..k); deliver is
  // 0 while the message is still in flight.
  std::uint32_t send = 0;
  std::uint32_t deliver = 0;
};

struct CutJudgement {
  // No message is received inside the cut and sent outside it; decided by
  // the checker's vector clocks (EventClocks), not by the list below.
  bool consistent = true;
  // Received before the cut, sent after it: counted twice. In send order.
  std::vector<CutCrossing> backward;
  // Transfers sent before the cut and received after it (or never): what a
  // snapshot at this cut must record as channel state. Markers carry no
  // money and are not recorded, so they are not listed. In send order.
  std::vector<CutCrossing> forward;
  // Each branch's state at the cut, by NodeId, in its application's word
  // (the bank: its balance). A branch's own steps (Local: finishing a job)
  // between its point's message event and the next belong inside: a point
  // at the end of a line is the branch as it is now.
  std::vector<cutline::Amount> balances;
  // The bank's money (0 for the other applications).
  cutline::Amount in_channels = 0;  // the forward transfers' sum
  cutline::Amount total = 0;        // balances + in_channels
  cutline::Amount bank_total = 0;   // the initial balances' sum
  // An application with a stable property: its value on the states above
  // with the forward messages in the channels. At an inconsistent cut this
  // is what a reader of those states would declare, read from no moment of
  // the run: it can be a phantom.
  std::optional<apps::Verdict> property;
};

// How many message events (sends and deliveries, of transfers and markers)
// each node has in the run, by NodeId: the last point its cut can take.
std::vector<std::uint32_t> MessageEventCounts(const RunRecord& run);

// Judges the cut whose point on node n lies after its first cut[n] message
// events. Refuses with kCutWrongSize (cut.size() is not the node count),
// kCutPastEnd (a point past its node's last event), kCutBadPoint (a negative
// point) or kTotalOverflow; *out is then untouched. Records, reads and the
// other bookkeeping events change no balance and move no message, so they
// do not count as points; neither does a branch's own step (Local, which
// changes its state but moves no message): it belongs to the gap after the
// message event before it.
// REQUIRES: run.topology set, a history CheckRun would not call malformed.
Status JudgeCut(const RunRecord& run, std::span<const std::int64_t> cut,
                CutJudgement* out);

}  // namespace cutline::check
