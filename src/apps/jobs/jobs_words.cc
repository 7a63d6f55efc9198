// Jobs' values as a reader reads them: a job count, and terminated or not
// with the busy branches and the jobs in flight as its reason.
#include <fmt/format.h>

#include "apps/app.h"
#include "apps/app_json.h"

namespace cutline::apps {

namespace {

std::string StateText(Amount state, std::span<const std::string>, Lang lang) {
  const bool ja = lang == Lang::kJa;
  if (state == 0) return ja ? "仕事なし" : "no job";
  return ja ? fmt::format("仕事{}件", state) : fmt::format("{} job{}", state, state == 1 ? "" : "s");
}

std::string VerdictText(bool holds, std::span<const std::string> names,
                        std::span<const std::string> channels, Lang lang) {
  const bool ja = lang == Lang::kJa;
  if (holds) return ja ? "終了している" : "terminated";
  std::string why;
  if (!names.empty()) {
    why += ja ? fmt::format("{}が仕事中", JoinNames(names, lang))
              : fmt::format("{} {} busy", JoinNames(names, lang), names.size() == 1 ? "is" : "are");
  }
  if (!channels.empty()) {
    if (!why.empty()) why += ja ? "、" : "; ";
    why += ja ? fmt::format("{}に仕事が飛行中", JoinNames(channels, lang))
              : fmt::format("a job in {}", JoinNames(channels, lang));
  }
  if (why.empty()) return ja ? "終了していない" : "not terminated";
  return ja ? fmt::format("終了していない（{}）", why) : fmt::format("not terminated: {}", why);
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
    .state = StateText,
    .message = [](Amount, Lang lang) -> std::string { return lang == Lang::kJa ? "仕事" : "job"; },
    .verdict = VerdictText,
    .naive_wrong_en = "a false termination",
    .naive_wrong_ja = "偽の終了",
    .reason_none_en = "no branch busy",
    .reason_messages_en = "jobs",
    .became_true_en = "the last job finished",
    .naive_false_en = "false (work remained)",
};

const AppJson kJobsJson{
    .state = [](Amount state, std::span<const std::string>) { return Json(state); },
    .verdict = VerdictJson,
    .naive_wrong_key = "false_termination",
};

}  // namespace cutline::apps
