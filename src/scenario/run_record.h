// The engine's run as the checker's input. The checker reads a history and
// what an implementation claims of it, never the engine (src/check knows
// none); these read both off the engine, above the two, for the analysis,
// the cuts, ShiViz, explore and the tests.
#pragma once

#include <vector>

#include "base/lang.h"
#include "check/consistency_checker.h"
#include "check/cost.h"
#include "engine/engine.h"

namespace cutline::scenario {

// The bank's claims for its complete snapshots, read through its accessors.
std::vector<check::SnapshotClaim> ClaimsOf(const engine::Engine& bank);

// The bank's run as checker input. The events span points into the bank's
// history: the bank must outlive the result and not change meanwhile.
check::RunRecord RunOf(const engine::Engine& bank);

// What the bank counted of each snapshot (complete or not), in
// bank.snapshots()'s order: what its cost reads beside the history.
std::vector<check::SnapshotCounts> CountsOf(const engine::Engine& bank);

// check::CheckRun(RunOf(bank), lang). A bank without history reports that
// as a problem when it has complete snapshots to check. With `costs` and a
// history, *costs becomes each snapshot's cost (CountsOf's order), observed
// on the judge's own walk of the history.
check::CheckReport CheckSnapshots(const engine::Engine& bank, Lang lang = Lang::kEn,
                                  std::vector<check::SnapshotCost>* costs = nullptr);

}  // namespace cutline::scenario
