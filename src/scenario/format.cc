// The text forms of values, in one place.
#include "scenario/format.h"

#include <fmt/format.h>

namespace cutline::scenario {

std::string JoinNames(const std::vector<std::string>& names, Lang lang) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) {
      if (lang == Lang::kJa) {
        out += i + 1 == names.size() ? "と" : "、";
      } else {
        out += i + 1 == names.size() ? " and " : ", ";
      }
    }
    out += names[i];
  }
  return out;
}

std::string ChannelName(const engine::Engine& bank, sim::ChannelId c) {
  const sim::ChannelInfo& ch = bank.network().channel(c);
  return bank.name(ch.from) + "->" + bank.name(ch.to);
}

std::string Balances(const engine::Engine& bank, Lang lang) {
  std::string out;
  for (sim::NodeId n = 0; n < bank.branch_count(); ++n) {
    out += fmt::format("{}{} {}", n ? ", " : "", bank.name(n),
                       StateText(bank, bank.state(n), lang));
  }
  return out;
}

std::string StateText(apps::App app, cutline::Amount state, const std::vector<std::string>& names,
                      Lang lang) {
  const bool ja = lang == Lang::kJa;
  if (app == apps::App::kJobs) {
    if (state == 0) return ja ? "仕事なし" : "no job";
    return ja ? fmt::format("仕事{}件", state)
              : fmt::format("{} job{}", state, state == 1 ? "" : "s");
  }
  if (app == apps::App::kLocks) {
    std::optional<sim::NodeId> waits = apps::locks::Waits(state);
    if (!waits) return ja ? "稼働中" : "active";
    const std::string who = *waits < names.size() ? names[*waits] : fmt::format("#{}", *waits);
    return ja ? fmt::format("{}を待機中", who) : fmt::format("waiting for {}", who);
  }
  return Money(state);
}

std::string StateText(const engine::Engine& bank, cutline::Amount state, Lang lang) {
  std::vector<std::string> names;
  // Only a wait names another branch; the bank's and jobs' words need none.
  if (bank.app() == apps::App::kLocks) {
    for (sim::NodeId n = 0; n < bank.branch_count(); ++n) names.push_back(bank.name(n));
  }
  return StateText(bank.app(), state, names, lang);
}

std::string MessageText(const engine::Engine& bank, cutline::Amount word, Lang lang) {
  if (bank.app().is_bank()) return Money(word);
  std::string_view kind = bank.app().MessageKind(word);
  if (lang == Lang::kEn) return std::string(kind);
  return kind == "job" ? "仕事" : kind == "request" ? "要求" : "許可";
}

std::string MessagesText(const engine::Engine& bank, const std::vector<cutline::Amount>& words,
                         Lang lang) {
  if (bank.app().is_bank()) return AmountList(words);
  std::string out = "[";
  for (std::size_t i = 0; i < words.size(); ++i) {
    out += (i ? ", " : "") + MessageText(bank, words[i], lang);
  }
  return out + "]";
}

std::string VerdictText(const engine::Engine& bank, const apps::Verdict& v, Lang lang) {
  std::vector<std::string> names;
  for (sim::NodeId n : v.branches) names.push_back(bank.name(n));
  std::vector<std::string> channels;
  for (sim::ChannelId c : v.channels) channels.push_back(ChannelName(bank, c));
  return VerdictText(bank.app(), v.holds, names, channels, lang);
}

std::string VerdictText(apps::App app, bool holds, const std::vector<std::string>& names,
                        const std::vector<std::string>& channels, Lang lang) {
  const bool ja = lang == Lang::kJa;
  if (app == apps::App::kJobs) {
    if (holds) return ja ? "終了している" : "terminated";
    std::string why;
    if (!names.empty()) {
      why += ja ? fmt::format("{}が仕事中", JoinNames(names, lang))
                : fmt::format("{} {} busy", JoinNames(names, lang),
                              names.size() == 1 ? "is" : "are");
    }
    if (!channels.empty()) {
      if (!why.empty()) why += ja ? "、" : "; ";
      why += ja ? fmt::format("{}に仕事が飛行中", JoinNames(channels, lang))
                : fmt::format("a job in {}", JoinNames(channels, lang));
    }
    if (why.empty()) return ja ? "終了していない" : "not terminated";
    return ja ? fmt::format("終了していない（{}）", why)
              : fmt::format("not terminated: {}", why);
  }
  if (app == apps::App::kLocks) {
    std::string cycle;
    for (const std::string& n : names) cycle += n + "->";
    if (!names.empty()) cycle += names.front();
    if (holds) {
      return ja ? fmt::format("デッドロック: {}", cycle)
                : fmt::format("deadlocked: {}", cycle);
    }
    if (names.empty()) return ja ? "デッドロックなし" : "no deadlock";
    return ja ? fmt::format("デッドロックなし（{}の待ちは{}の許可で解ける）", cycle,
                            JoinNames(channels, lang))
              : fmt::format("no deadlock: the wait {} dissolves by the grant in {}",
                            cycle, JoinNames(channels, lang));
  }
  return "";
}

}  // namespace cutline::scenario
