// Locks' values as a reader reads them: whom a branch waits for, and
// deadlocked or not with the wait cycle (and the grants that dissolve it) as
// its reason.
#include <fmt/format.h>

#include "apps/app.h"
#include "apps/app_json.h"

namespace cutline::apps {

namespace {

std::string NameOf(NodeId n, std::span<const std::string> names) {
  return n < names.size() ? names[n] : fmt::format("#{}", n);
}

std::string StateText(Amount state, std::span<const std::string> names, Lang lang) {
  const bool ja = lang == Lang::kJa;
  std::optional<NodeId> waits = locks::Waits(state);
  if (!waits) return ja ? "稼働中" : "active";
  const std::string who = NameOf(*waits, names);
  return ja ? fmt::format("{}を待機中", who) : fmt::format("waiting for {}", who);
}

std::string MessageText(Amount word, Lang lang) {
  const bool grant = word == locks::kGrant;
  if (lang == Lang::kJa) return grant ? "許可" : "要求";
  return grant ? "grant" : "request";
}

std::string VerdictText(bool holds, std::span<const std::string> names,
                        std::span<const std::string> channels, Lang lang) {
  const bool ja = lang == Lang::kJa;
  const std::string cycle = CycleText(names);
  if (holds) return ja ? fmt::format("デッドロック: {}", cycle) : fmt::format("deadlocked: {}", cycle);
  if (names.empty()) return ja ? "デッドロックなし" : "no deadlock";
  return ja ? fmt::format("デッドロックなし（{}の待ちは{}の許可で解ける）", cycle,
                          JoinNames(channels, lang))
            : fmt::format("no deadlock: the wait {} dissolves by the grant in {}", cycle,
                          JoinNames(channels, lang));
}

// {"deadlocked", "cycle"}, and a wait cycle that a grant on its way is
// about to dissolve under "dissolving".
Json VerdictJson(bool holds, const std::vector<std::string>& branches,
                 const ChannelNames& channels) {
  Json j{{"deadlocked", holds}, {"cycle", holds ? Json(branches) : Json::array()}};
  if (!holds && !branches.empty()) {
    Json grants = Json::array();
    for (const auto& [from, to] : channels) grants.push_back({{"from", from}, {"to", to}});
    j["dissolving"] = {{"cycle", branches}, {"grants", grants}};
  }
  return j;
}

}  // namespace

const AppWords kLocksWords{
    .state = StateText,
    .message = MessageText,
    .verdict = VerdictText,
    .naive_wrong_en = "a phantom deadlock",
    .naive_wrong_ja = "幻のデッドロック",
    .reason_none_en = "no cycle",
    .reason_messages_en = "grants",
    .became_true_en = "the cycle closed",
    .naive_false_en = "phantoms (no such deadlock then)",
};

// The state is the name of the branch waited for, or null when active.
const AppJson kLocksJson{
    .state = [](Amount state, std::span<const std::string> names) {
      std::optional<NodeId> waits = locks::Waits(state);
      return waits ? Json(NameOf(*waits, names)) : Json(nullptr);
    },
    .verdict = VerdictJson,
    .naive_wrong_key = "phantom",
};

}  // namespace cutline::apps
