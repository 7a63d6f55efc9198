// The one line a failure is reported with on standard error: "cutline:
// error: <reason>", the reason already worded in the reader's language. The
// tag is the same in every language (scripts, and `cluster` reading its
// ranks' standard error, look for it), so it lives here, below the
// catalogues, where a rank that only has a Say reaches it too.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace cutline {

inline constexpr std::string_view kErrorTag = "cutline: error: ";

inline std::string ErrorLine(std::string_view reason) {
  std::string line(kErrorTag);
  line += reason;
  return line;
}

// ErrorLine(reason) and a newline on standard error, in one write (ranks
// of one job share a terminal: their lines must not interleave).
inline void PrintErrorLine(std::string_view reason) {
  const std::string line = ErrorLine(reason) + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace cutline
