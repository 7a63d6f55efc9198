// One run, analysed once: what every view needs of it. The JSON (the page's
// state, the naive panel, the questions), the text (`show`, the naive
// explanation, `check`'s property lines) and the API render an Analysis and
// compute nothing of the run themselves; so the checker, the costs and the
// naive judgement run once per run, however many views show it.
#pragma once

#include <map>
#include <optional>
#include <vector>

#include "check/consistency_checker.h"
#include "check/cost.h"
#include "engine/cuts.h"
#include "engine/engine.h"
#include "engine/replay.h"

namespace cutline::scenario {

struct Analysis {
  const engine::Engine& bank;
  // The history walked once (empty when the bank keeps no history).
  engine::Replay replay;
  bool has_history = false;
  // Every complete snapshot judged (CheckSnapshots; without a history, a
  // problem saying so); with a history, each snapshot's cost, by position
  // in bank.snapshots().
  check::CheckReport check;
  std::vector<check::SnapshotCost> costs;
  // A conserved application (the bank), with a history: what the naive
  // reader's reads add up to, and which transfers they lose or count twice.
  std::optional<engine::NaiveAnalysis> naive_reads;
  // An application with a property: the naive detector's verdict (and
  // whether the history shows it wrong), and the property of the live state.
  std::optional<check::NaiveJudgement> naive;
  std::optional<apps::Verdict> now;

  // The checker's verdict on snapshot `id`; nullptr if it judged none.
  const check::SnapshotVerdict* Verdict(SnapshotId id) const;

 private:
  friend Analysis Analyze(const engine::Engine& bank);
  explicit Analysis(const engine::Engine& b);
  std::map<SnapshotId, std::size_t> verdict_at_;  // into check.verdicts
};

// The analysis of `bank` as it stands. The bank must outlive it and not
// change meanwhile.
Analysis Analyze(const engine::Engine& bank);

}  // namespace cutline::scenario
