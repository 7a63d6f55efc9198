// One schedule under every algorithm a scenario can name: each snapshot's
// cost (check/cost.h) and verdict side by side, for the page's "Compare
// algorithms" (POST /api/compare, docs/api.md).
#pragma once

#include <string_view>

#include "base/status.h"
#include "scenario/json_output.h"
#include "catalogue/messages.h"
#include "scenario/runner.h"

namespace cutline::scenario {

// Runs `text` as written, then once per algorithm with the network's
// algorithm swapped. An algorithm that refuses the schedule (a cycle for
// aligned barriers, a start away from a source, channels that reorder) is
// listed with its refusal in `lang`: the engine decides what applies, not
// the page. Fails (and leaves *out untouched) only if `text` as written is
// refused.
Status CompareAlgorithms(std::string_view text, Lang lang, const Limits& limits,
                         Json* out);

}  // namespace cutline::scenario
