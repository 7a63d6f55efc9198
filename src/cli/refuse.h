// How every command speaks to its reader: the language its --lang names, and
// a refusal as one line on standard error in that language, with the usage
// error's exit status.
#pragma once

#include <fmt/format.h>

#include <cstdio>
#include <string_view>

#include "base/lang.h"
#include "base/status.h"
#include "catalogue/messages.h"

namespace cutline::cli {

inline constexpr int kUsageError = 2;

inline Lang ParseLang(std::string_view s) { return s == "ja" ? Lang::kJa : Lang::kEn; }

// Prints "cutline: error: <why>" and answers kUsageError.
inline int Refuse(const Status& why, Lang lang) {
  fmt::print(stderr, "cutline: error: {}\n", catalogue::Message(why, lang));
  return kUsageError;
}

}  // namespace cutline::cli
