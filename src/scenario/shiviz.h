// A simulated run's history as a ShiViz log (`cutline run --format shiviz`,
// POST /api/run with "format": "shiviz"): every event at its branch, with
// the vector clock the consistency checker judged the run by, and a plain
// English line saying what happened. The format itself is check/shiviz.h.
#pragma once

#include <string>

#include "engine/engine.h"

namespace cutline::scenario {

// REQUIRES: the bank keeps its history (a scenario's bank does).
std::string ShiVizLog(const engine::Engine& bank);

}  // namespace cutline::scenario
