// CheckRun is the streaming judge fed the history (JudgeHistory,
// stream_judge.h): the rules live there, once. Here: the property a claim
// declares.
#include "check/consistency_checker.h"
#include "base/check.h"

#include <optional>

#include "check/stream_judge.h"

namespace cutline::check {

using cutline::Amount;

bool IsMessageEvent(const history::Event& e) {
  return std::holds_alternative<history::Sent<history::Transfer>>(e) ||
         std::holds_alternative<history::Sent<history::Marker>>(e) ||
         std::holds_alternative<history::Delivered<history::Transfer>>(e) ||
         std::holds_alternative<history::Delivered<history::Marker>>(e);
}

CheckReport CheckRun(const RunRecord& run, Lang lang) {
  CUTLINE_CHECK(run.topology != nullptr);
  return JudgeHistory(run, lang).report;
}

apps::Verdict DeclaredProperty(apps::App app, const sim::Topology& topology,
                               const SnapshotClaim& claim) {
  std::vector<Amount> states;
  for (const std::optional<Amount>& b : claim.balances) states.push_back(b.value_or(0));
  std::vector<std::vector<Amount>> channels;
  for (const history::ChannelRecord& r : claim.channels) channels.push_back(r.transfers);
  return app.Evaluate({&topology, states, channels});
}

}  // namespace cutline::check
