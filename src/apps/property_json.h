// A stable property's verdict as JSON, from names: {"terminated", "why"}
// (jobs) or {"deadlocked", "cycle"} (locks), under the keys
// docs/scenario-language.md gives. It lives with the applications whose
// properties these are, below both that write it: the scenario's JSON
// (src/scenario/json_output.h, from a live run's verdict) and the store's
// (src/store/store_json.h, from a stored one), so that the store needs
// nothing of the scenario language.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace cutline::apps {

// Keys stay in the order they are written: the order is part of the contract.
using Json = nlohmann::ordered_json;

// The verdict of jobs (`jobs`) or locks: whether the property holds, the
// branches of its reason, and each channel of its reason as (from, to),
// once per message.
Json PropertyJson(bool jobs, bool holds, const std::vector<std::string>& branches,
                  const std::vector<std::pair<std::string, std::string>>& channels);

}  // namespace cutline::apps
