// JSON views of a run: the state object of docs/scenario-language.md (plus
// the extra keys of docs/api.md), the naive analysis, the history, and the
// body of a refusal. They only read.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "bank/bank.h"
#include "bank/replay.h"
#include "check/cost.h"
#include "base/status.h"
#include "scenario/messages.h"
#include "scenario/runner.h"

namespace cutline::scenario {

// Keys stay in the order they are written: the order is part of the contract.
using Json = nlohmann::ordered_json;

// Serializes for output; bytes that are not UTF-8 (a scenario may hold
// anything) become U+FFFD instead of throwing.
std::string Dump(const Json& j, int indent = -1);

// A snapshot channel's "state" word (docs/scenario-language.md), which the
// page and `cutline store show --json` use too.
const char* ChannelRecordingName(ChannelRecording r);

// A branch's state as its application's key holds it: the bank's balance
// (70), a count of jobs (2), or whom it waits for ("P2", or null).
Json StateValue(const bank::Bank& bank, bank::Amount state);

// A stable property's verdict: {"terminated", "why"} (jobs) or
// {"deadlocked", "cycle"} (locks), docs/scenario-language.md.
Json PropertyJson(const bank::Bank& bank, const apps::Verdict& v);
// The same keys from names (a stored verdict): the branches of its reason,
// and each channel of its reason as (from, to), once per message.
Json PropertyJson(bool jobs, bool holds, const std::vector<std::string>& branches,
                  const std::vector<std::pair<std::string, std::string>>& channels);

// A snapshot's "cost" object (docs/api.md).
Json CostJson(const check::SnapshotCost& cost);

// `replay` is the run's history walked once (bank::Replay::Of), shared by
// the views that need it; StateJson takes nullptr for a bank without
// history. The one-argument forms walk it themselves.
Json StateJson(const bank::Bank& bank, const bank::Replay* replay);
Json NaiveJson(const bank::Bank& bank, const bank::Replay& replay);
Json StateJson(const bank::Bank& bank);
Json NaiveJson(const bank::Bank& bank);
// Every event, each tagged with the index of the step that caused it.
Json HistoryJson(const bank::Bank& bank,
                           const std::vector<StepResult>& steps);

// Predict mode's questions (scenario/questions.h, docs/api.md "questions").
Json QuestionsJson(const bank::Bank& bank, const bank::Replay& replay,
                   const std::vector<StepResult>& steps);

// The body of an answer to a refused run (docs/api.md):
// {"error": "line N: reason", "code": "...", "line": N, "message": "reason"},
// without "line" when no line is at fault. REQUIRES: !s.ok().
Json ErrorJson(const Status& s, Lang lang);

}  // namespace cutline::scenario
