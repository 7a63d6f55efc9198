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

std::string ChannelName(const bank::Bank& bank, bank::ChannelId c) {
  const sim::ChannelInfo& ch = bank.network().channel(c);
  return bank.name(ch.from) + "->" + bank.name(ch.to);
}

std::string Balances(const bank::Bank& bank) {
  std::string out;
  for (bank::NodeId n = 0; n < bank.branch_count(); ++n) {
    out += fmt::format("{}{} {}", n ? ", " : "", bank.name(n),
                       Money(bank.balance(n)));
  }
  return out;
}

}  // namespace cutline::scenario
