// The languages the project speaks (the page, the CLI's --lang, the API),
// and the one way a list of names is joined in each. Here, at the bottom, so
// that every floor that words something for a reader (an application's
// words, the scenario's catalogues) speaks the same two.
#pragma once

#include <span>
#include <string>

namespace cutline {

enum class Lang { kEn, kJa };

// "P2 and P3", "P1, P2 and P3"; "P2とP3", "P1、P2とP3".
inline std::string JoinNames(std::span<const std::string> names, Lang lang) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) {
      const bool last = i + 1 == names.size();
      if (lang == Lang::kJa) {
        out += last ? "と" : "、";
      } else {
        out += last ? " and " : ", ";
      }
    }
    out += names[i];
  }
  return out;
}

}  // namespace cutline
