// The text forms of values, in one place.
#include "scenario/format.h"

#include <fmt/format.h>

namespace cutline::scenario {

std::string ChannelName(const engine::Engine& bank, sim::ChannelId c) {
  const sim::ChannelInfo& ch = bank.network().channel(c);
  return ChannelText(bank.name(ch.from), bank.name(ch.to));
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
  return app.words().state(state, names, lang);
}

std::string StateText(const engine::Engine& bank, cutline::Amount state, Lang lang) {
  return StateText(bank.app(), state, bank.names(), lang);
}

std::string MessageText(const engine::Engine& bank, cutline::Amount word, Lang lang) {
  return bank.app().words().message(word, lang);
}

std::string MessagesText(const engine::Engine& bank, const std::vector<cutline::Amount>& words,
                         Lang lang) {
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
  return app.words().verdict(holds, names, channels, lang);
}

std::string NaiveWrongText(apps::App app, Lang lang) {
  return std::string(app.words().in(lang).naive_wrong);
}

}  // namespace cutline::scenario
