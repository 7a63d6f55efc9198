// Jobs' values as a reader reads them: a job count, and terminated or not
// with the busy branches and the jobs in flight as its reason.
#include <fmt/format.h>

#include "apps/app.h"
#include "apps/app_json.h"

namespace cutline::apps {

namespace {

// English.

std::string StateEn(Amount state, std::span<const std::string>) {
  if (state == 0) return "no job";
  return fmt::format("{} job{}", state, state == 1 ? "" : "s");
}

std::string VerdictEn(bool holds, std::span<const std::string> names,
                      std::span<const std::string> channels) {
  if (holds) return "terminated";
  std::string why;
  if (!names.empty()) {
    why += fmt::format("{} {} busy", JoinNames(names, Lang::kEn), names.size() == 1 ? "is" : "are");
  }
  if (!channels.empty()) {
    if (!why.empty()) why += "; ";
    why += fmt::format("a job in {}", JoinNames(channels, Lang::kEn));
  }
  if (why.empty()) return "not terminated";
  return fmt::format("not terminated: {}", why);
}

// Japanese.

std::string StateJa(Amount state, std::span<const std::string>) {
  if (state == 0) return "仕事なし";
  return fmt::format("仕事{}件", state);
}

std::string VerdictJa(bool holds, std::span<const std::string> names,
                      std::span<const std::string> channels) {
  if (holds) return "終了している";
  std::string why;
  if (!names.empty()) why += fmt::format("{}が仕事中", JoinNames(names, Lang::kJa));
  if (!channels.empty()) {
    if (!why.empty()) why += "、";
    why += fmt::format("{}に仕事が飛行中", JoinNames(channels, Lang::kJa));
  }
  if (why.empty()) return "終了していない";
  return fmt::format("終了していない（{}）", why);
}

// {"terminated", "why": {"busy", "in_channels"}}: one entry per channel,
// with how many jobs it holds.
Json VerdictJson(bool holds, const std::vector<std::string>& branches,
                 const ChannelNames& channels) {
  Json why = nullptr;
  if (!holds) {
    Json in_channels = Json::array();
    for (std::size_t i = 0; i < channels.size();) {
      std::size_t k = i;
      while (k < channels.size() && channels[k] == channels[i]) ++k;
      in_channels.push_back(
          {{"from", channels[i].first}, {"to", channels[i].second}, {"jobs", k - i}});
      i = k;
    }
    why = {{"busy", branches}, {"in_channels", in_channels}};
  }
  return Json{{"terminated", holds}, {"why", why}};
}

}  // namespace

const AppWords kJobsWords{
    .en =
        {
            .state = StateEn,
            .message = [](Amount) -> std::string { return "job"; },
            .verdict = VerdictEn,
            .naive_wrong = "a false termination",
            .reason_none = "no branch busy",
            .reason_messages = "jobs",
            .became_true = "the last job finished",
            .naive_false = "false (work remained)",
        },
    .ja =
        {
            .state = StateJa,
            .message = [](Amount) -> std::string { return "仕事"; },
            .verdict = VerdictJa,
            .naive_wrong = "偽の終了",
            .reason_none = "仕事中の支店なし",
            .reason_messages = "仕事",
            .became_true = "最後の仕事が終わった時",
            .naive_false = "偽（仕事が残っていた）",
        },
};

const AppJson kJobsJson{
    .state = [](Amount state, std::span<const std::string>) { return Json(state); },
    .verdict = VerdictJson,
    .naive_wrong_key = "false_termination",
};

}  // namespace cutline::apps
