// One run, analysed once: what every view needs of it. The JSON (the page's
// state, the naive panel, the questions), the text (`show`, the naive
// explanation, `check`'s property lines, the lab block) and the API render
// an Analysis and compute nothing of the run themselves: they neither walk
// the history nor call the checker, the costs or the naive judgement, and
// they read what a snapshot recorded here rather than from the engine one
// branch and one channel at a time.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <vector>

#include "apps/app.h"
#include "base/lang.h"
#include "check/consistency_checker.h"
#include "check/cost.h"
#include "engine/cuts.h"
#include "engine/engine.h"
#include "engine/replay.h"
#include "history/records.h"
#include "scenario/questions.h"
#include "scenario/runner.h"

namespace cutline::scenario {

// What one snapshot recorded and what is judged of it.
struct SnapshotFacts {
  const engine::SnapshotInfo* info = nullptr;  // in bank.snapshots()
  // By NodeId: the recorded state (nullopt: not recorded yet) and whether
  // the branch's own part is done.
  std::vector<std::optional<cutline::Amount>> recorded;
  std::vector<bool> parts_done;
  std::vector<history::ChannelRecord> channels;  // by ChannelId
  // Complete: the engine's sum of what it recorded and, for an application
  // with a property, the property it declares from that.
  std::optional<cutline::Amount> total;
  std::optional<apps::Verdict> declared;
  // With a history: the checker's verdict (nullptr if it judged none) and
  // the cost; without a verdict, the messages crossing its cut so far.
  const check::SnapshotVerdict* verdict = nullptr;
  const check::SnapshotCost* cost = nullptr;
  std::vector<engine::CrossingMessage> backward;
};

// An application with a property: one read of the naive detector, what it
// declared from its reads so far and what was true at that moment (the
// state replayed to the read, messages in flight included).
struct ReadJudgement {
  std::size_t at = 0;  // in the history
  sim::NodeId node = 0;
  std::size_t branches_read = 0;  // distinct branches read so far, this one included
  apps::Verdict declared;
  apps::Verdict truth;
};

struct Analysis {
  const engine::Engine& bank;
  // The history walked once, to its end (empty when the bank keeps no
  // history): every message's flight, and the state at the end.
  engine::Replay replay;
  bool has_history = false;
  // Every complete snapshot judged (CheckSnapshots, run_record.h; without a
  // history, a problem saying so); with a history, each snapshot's cost, by
  // position in bank.snapshots(), observed on the judge's walk.
  check::CheckReport check;
  std::vector<check::SnapshotCost> costs;
  // One per snapshot, in bank.snapshots()'s order.
  std::vector<SnapshotFacts> snapshots;
  // A conserved application (the bank), with a history: what the naive
  // reader's reads add up to, and which transfers they lose or count twice.
  std::optional<engine::NaiveAnalysis> naive_reads;
  // An application with a property: every read judged (with a history),
  // the naive detector's verdict on its latest reads (and, from the last
  // read's judgement, whether the history shows it wrong), and the
  // property of the live state.
  std::vector<ReadJudgement> reads;
  // With a history: each record's moment, the branch's state as the walk
  // reached its Recorded event, by (snapshot, branch); what a record that
  // keeps the live state holds (the questions ask only where it did).
  std::map<std::pair<SnapshotId, sim::NodeId>, cutline::Amount> state_at_record;
  std::optional<check::NaiveJudgement> naive;
  std::optional<apps::Verdict> now;
  // Predict mode's questions (questions.h), when analysed with the steps.
  std::vector<Question> questions;

  // The checker's verdict on snapshot `id`; nullptr if it judged none.
  const check::SnapshotVerdict* Verdict(SnapshotId id) const;
  // The latest complete snapshot; nullptr if none is complete.
  const SnapshotFacts* LatestComplete() const;

  // The facts point into this analysis: it moves, but is never copied.
  Analysis(Analysis&&) = default;
  Analysis(const Analysis&) = delete;

 private:
  friend Analysis Analyze(const engine::Engine& bank, const std::vector<StepResult>* steps,
                          Lang lang);
  explicit Analysis(const engine::Engine& b);
  std::map<SnapshotId, std::size_t> verdict_at_;  // into check.verdicts
};

// The analysis of `bank` as it stands; with the runner's `steps`, predict
// mode's questions too. The bank must outlive it and not change meanwhile.
// `lang`: the words of the checker's problems (check.problems); the
// verdicts, which the views read, are the same in every language.
Analysis Analyze(const engine::Engine& bank, const std::vector<StepResult>* steps = nullptr,
                 Lang lang = Lang::kEn);

// The property snapshot `id` declares from what the engine recorded for it
// (an application with a property): the one place a snapshot's claim is
// evaluated, for the analysis and for the narration of its completion.
apps::Verdict DeclaredOf(const engine::Engine& bank, SnapshotId id);

}  // namespace cutline::scenario
