// Report: a whole scenario run and shown every way the page shows it: each
// step's words, the final state, the history, the naive analysis and the
// lab block (docs/api.md, POST /api/run); or the run as a ShiViz log. The
// runner runs; the Teller and the JSON, text and ShiViz views read.
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"
#include "scenario/json_output.h"
#include "catalogue/messages.h"
#include "scenario/runner.h"

namespace cutline::scenario {

// Runs `text` within `limits`. On error, returns the refusal (with its line,
// or line 0 when no line is at fault) and leaves *out untouched.
Status RunReport(std::string_view text, Lang lang, const Limits& limits,
                 Json* out);

// Runs `text` within `limits` and gives its history as a ShiViz log
// (scenario/shiviz.h). Refuses exactly as RunReport does.
Status RunShiViz(std::string_view text, const Limits& limits, std::string* out);

}  // namespace cutline::scenario
