// JSON views of a run: the state object of docs/scenario-language.md (plus
// the extra keys of docs/api.md), the naive analysis, the history, and the
// body of a refusal. They only read.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "apps/app_json.h"
#include "engine/engine.h"
#include "engine/replay.h"
#include "check/cost.h"
#include "base/status.h"
#include "scenario/analysis.h"
#include "catalogue/messages.h"
#include "scenario/runner.h"

namespace cutline::scenario {

// Keys stay in the order they are written: the order is part of the contract
// (apps/app_json.h, where the store's JSON has it too).
using Json = apps::Json;

// Serializes for output; bytes that are not UTF-8 (a scenario may hold
// anything) become U+FFFD instead of throwing.
std::string Dump(const Json& j, int indent = -1);

// A branch's state as its application's key holds it: the bank's balance
// (70), a count of jobs (2), or whom it waits for ("P2", or null).
Json StateValue(const engine::Engine& bank, cutline::Amount state);

// A stable property's verdict: {"terminated", "why"} (jobs) or
// {"deadlocked", "cycle"} (locks), docs/scenario-language.md; written by
// apps::VerdictJson (apps/app_json.h), which a stored verdict's names
// go to directly.
Json PropertyJson(const engine::Engine& bank, const apps::Verdict& v);

// A snapshot's "cost" object (docs/api.md).
Json CostJson(const check::SnapshotCost& cost);

// The page's state and naive panel, rendered from the run's one Analysis
// (scenario/analysis.h). NaiveJson REQUIRES a history. StateJson(bank)
// analyses the bank first.
Json StateJson(const Analysis& analysis);
Json NaiveJson(const Analysis& analysis);
Json StateJson(const engine::Engine& bank);
// Every event, each tagged with the index of the step that caused it.
Json HistoryJson(const engine::Engine& bank,
                           const std::vector<StepResult>& steps);

// Predict mode's questions (scenario/questions.h, docs/api.md "questions"),
// as Analyze derived them given the runner's steps.
Json QuestionsJson(const Analysis& analysis);

// The body of an answer to a refused run (docs/api.md):
// {"error": "line N: reason", "code": "...", "line": N, "message": "reason"},
// without "line" when no line is at fault. REQUIRES: !s.ok().
Json ErrorJson(const Status& s, Lang lang);

}  // namespace cutline::scenario
