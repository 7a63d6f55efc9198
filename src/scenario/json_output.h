// JSON views of a run: the state object of docs/scenario-language.md (plus
// the extra keys of docs/api.md), the naive analysis, and the history.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "bank/bank.h"
#include "scenario/runner.h"

namespace cutline::scenario {

nlohmann::json StateJson(const bank::Bank& bank);
nlohmann::json NaiveJson(const bank::Bank& bank);
// Every event, each tagged with the index of the step that caused it.
nlohmann::json HistoryJson(const bank::Bank& bank,
                           const std::vector<StepResult>& steps);

// Runs a whole scenario and reports every step's narration, the final
// state, the history, the naive analysis and the lab block (docs/api.md,
// /api/run). max_branches: see Runner::set_max_branches.
// On error, returns the Status, sets *error_line (0: no line is at fault)
// and leaves *out untouched.
Status RunReport(std::string_view text, Lang lang, std::size_t max_branches,
                 nlohmann::json* out, int* error_line = nullptr);

}  // namespace cutline::scenario
