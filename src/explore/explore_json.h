// One explore result as JSON: what `cutline explore --json` prints and
// POST /api/explore answers (docs/api.md), so that the command line and the
// page read the same fields and the same sentences. And the counterexample
// as a demo the page steps through: each step's command with its narration
// as its caption, the judge's finding closing the last one.
#pragma once

#include "base/lang.h"
#include "explore/explore.h"
#include "scenario/json_output.h"

namespace cutline::explore {

// "outcome" ("right", "broken", "bounded" or "nothing"), the figures,
// "starts", the two sentences in `lang` ("summary": how much was explored;
// "verdict": its ending), and per outcome "bound", or "counterexample" (a
// runnable scenario) with "findings" and "never_completes" (whether they
// are of a snapshot left incomplete where nothing more can happen).
scenario::Json ResultJson(const Result& result, const Options& options);

// kBroken: the counterexample as the page's demos are given (GET /api/demos):
// "network" (its first line) and "steps", each {"command", "caption"}. The
// caption is the narration of that step (what `cutline run` tells of it), in
// options.lang; the last one ends with the findings.
scenario::Json CounterexampleDemo(const Result& result, Lang lang);

}  // namespace cutline::explore
