// A stable property's verdict as JSON (property_json.h).
#include "apps/property_json.h"

#include <cstddef>

namespace cutline::apps {

using json = Json;

// A stable property's verdict under the spec's keys, from names.
json PropertyJson(bool jobs, bool holds, const std::vector<std::string>& branches,
                  const std::vector<std::pair<std::string, std::string>>& channels) {
  if (jobs) {
    json why = nullptr;
    if (!holds) {
      // One entry per channel, with how many jobs it holds.
      json in_channels = json::array();
      for (std::size_t i = 0; i < channels.size();) {
        std::size_t k = i;
        while (k < channels.size() && channels[k] == channels[i]) ++k;
        in_channels.push_back(
            {{"from", channels[i].first}, {"to", channels[i].second}, {"jobs", k - i}});
        i = k;
      }
      why = {{"busy", branches}, {"in_channels", in_channels}};
    }
    return json{{"terminated", holds}, {"why", why}};
  }
  json j{{"deadlocked", holds}, {"cycle", holds ? json(branches) : json::array()}};
  if (!holds && !branches.empty()) {
    // A wait cycle a grant on its way is about to dissolve.
    json grants = json::array();
    for (const auto& [from, to] : channels) grants.push_back({{"from", from}, {"to", to}});
    j["dissolving"] = {{"cycle", branches}, {"grants", grants}};
  }
  return j;
}

}  // namespace cutline::apps
