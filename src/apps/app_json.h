// How an application's values are written in JSON, under the keys
// docs/scenario-language.md gives: a branch's state, a stable property's
// verdict, a naive detector's wrongness. Each application's folder defines
// its AppJson (<app>_words.cc). It lives with the applications, below both
// that write it: the scenario's JSON (src/scenario/json_output.h, from a
// live run) and the store's (src/store/store_json.h, from a stored one), so
// that the store needs nothing of the scenario language.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "apps/app.h"

namespace cutline::apps {

// Keys stay in the order they are written: the order is part of the contract.
using Json = nlohmann::ordered_json;

// A channel of a reason, as (from, to) names, once per message.
using ChannelNames = std::vector<std::pair<std::string, std::string>>;

struct AppJson {
  // A branch's state under AppDefinition::state_key: 70, 2, "P2" or null.
  // `names` names the branches by NodeId.
  Json (*state)(Amount state, std::span<const std::string> names);
  // The property's verdict, from names: {"terminated", "why"} (jobs),
  // {"deadlocked", "cycle", ...} (locks); null for an application without
  // a property.
  Json (*verdict)(bool holds, const std::vector<std::string>& branches,
                  const ChannelNames& channels);
  // The key a naive detector's verdict says it was wrong under
  // ("false_termination", "phantom"); "" without a property.
  std::string_view naive_wrong_key;
};

inline const AppJson& JsonOf(App app) {
  CUTLINE_CHECK(app.definition().json != nullptr);  // every definition has its JSON
  return *app.definition().json;
}
inline Json StateJson(App app, Amount state, std::span<const std::string> names) {
  return JsonOf(app).state(state, names);
}
inline Json VerdictJson(App app, bool holds, const std::vector<std::string>& branches,
                        const ChannelNames& channels) {
  return JsonOf(app).verdict(holds, branches, channels);
}
inline std::string_view NaiveWrongKey(App app) { return JsonOf(app).naive_wrong_key; }

}  // namespace cutline::apps
