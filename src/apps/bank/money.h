// How money is written wherever the project writes it in text (narration,
// `show`, the checker's findings): "$40", and lists as "[$40, $10]". The lab
// block is the one exception: it copies the study note's Python notation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cutline::apps {

std::string Money(std::int64_t amount);                          // $40
std::string AmountList(const std::vector<std::int64_t>& amounts);  // [$40, $10]

}  // namespace cutline::apps
