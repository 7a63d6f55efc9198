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

// English.

std::string StateEn(Amount state, std::span<const std::string> names) {
  std::optional<NodeId> waits = locks::Waits(state);
  if (!waits) return "active";
  return fmt::format("waiting for {}", NameOf(*waits, names));
}

std::string MessageEn(Amount word) { return word == locks::kGrant ? "grant" : "request"; }

std::string VerdictEn(bool holds, std::span<const std::string> names,
                      std::span<const std::string> channels) {
  const std::string cycle = CycleText(names);
  if (holds) return fmt::format("deadlocked: {}", cycle);
  if (names.empty()) return "no deadlock";
  return fmt::format("no deadlock: the wait {} dissolves by the grant in {}", cycle,
                     JoinNames(channels, Lang::kEn));
}

// Japanese.

std::string StateJa(Amount state, std::span<const std::string> names) {
  std::optional<NodeId> waits = locks::Waits(state);
  if (!waits) return "稼働中";
  return fmt::format("{}を待機中", NameOf(*waits, names));
}

std::string MessageJa(Amount word) { return word == locks::kGrant ? "許可" : "要求"; }

std::string VerdictJa(bool holds, std::span<const std::string> names,
                      std::span<const std::string> channels) {
  const std::string cycle = CycleText(names);
  if (holds) return fmt::format("デッドロック: {}", cycle);
  if (names.empty()) return "デッドロックなし";
  return fmt::format("デッドロックなし（{}の待ちは{}の許可で解ける）", cycle,
                     JoinNames(channels, Lang::kJa));
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
    .en =
        {
            .state = StateEn,
            .message = MessageEn,
            .verdict = VerdictEn,
            .naive_wrong = "a phantom deadlock",
            .reason_none = "no cycle",
            .reason_messages = "grants",
            .became_true = "the cycle closed",
            .naive_false = "phantoms (no such deadlock then)",
        },
    .ja =
        {
            .state = StateJa,
            .message = MessageJa,
            .verdict = VerdictJa,
            .naive_wrong = "幻のデッドロック",
            .reason_none = "閉路なし",
            .reason_messages = "許可",
            .became_true = "閉路ができた時",
            .naive_false = "幻（その時そのデッドロックはなかった）",
        },
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
