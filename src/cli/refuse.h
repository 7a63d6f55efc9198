// How every command speaks to its reader: the language its --lang names, and
// a refusal as one line on standard error in that language, with the usage
// error's exit status.
#pragma once

#include <string_view>

#include "base/error_line.h"
#include "base/lang.h"
#include "base/status.h"
#include "catalogue/messages.h"

namespace cutline::cli {

inline constexpr int kUsageError = 2;
// A check that found nothing wrong but had nothing to judge (no complete
// snapshot): not an "ok" (check, check --logs, store verify, as explore's
// "no verdict").
inline constexpr int kNothingJudged = 3;

inline Lang ParseLang(std::string_view s) { return s == "ja" ? Lang::kJa : Lang::kEn; }

// Prints "cutline: error: <why>" (base/error_line.h), `why` in `lang`.
inline void PrintError(const Status& why, Lang lang) {
  PrintErrorLine(catalogue::Message(why, lang));
}

// The same, and answers kUsageError.
inline int Refuse(const Status& why, Lang lang) {
  PrintError(why, lang);
  return kUsageError;
}

}  // namespace cutline::cli
