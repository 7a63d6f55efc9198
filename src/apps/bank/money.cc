// The text of money, in one place.
#include "apps/bank/money.h"

#include <fmt/format.h>

namespace cutline::apps {

std::string Money(std::int64_t amount) { return fmt::format("${}", amount); }

std::string AmountList(const std::vector<std::int64_t>& amounts) {
  std::string out = "[";
  for (std::size_t i = 0; i < amounts.size(); ++i) {
    out += (i ? ", " : "") + Money(amounts[i]);
  }
  return out + "]";
}

}  // namespace cutline::apps
