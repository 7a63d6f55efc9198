#include "runtime/usage.h"

#include <sys/resource.h>

#include <fstream>
#include <iterator>
#include <string>

namespace cutline::runtime {

std::optional<std::uint64_t> PeakResidentBytes(std::string_view status) {
  constexpr std::string_view kKey = "VmHWM:";
  std::size_t at = 0;
  // The key must start a line (the first, or one after a newline).
  while ((at = status.find(kKey, at)) != std::string_view::npos && at > 0 &&
         status[at - 1] != '\n') {
    at += kKey.size();
  }
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view line = status.substr(at + kKey.size());
  line = line.substr(0, line.find('\n'));
  auto skip_blanks = [&line] {
    std::size_t first = line.find_first_not_of(" \t");
    line.remove_prefix(first == std::string_view::npos ? line.size() : first);
  };
  skip_blanks();
  std::uint64_t kib = 0;
  std::size_t digits = 0;
  // 15 digits of KiB is far past any machine: more is not a figure.
  for (; digits < line.size() && line[digits] >= '0' && line[digits] <= '9'; ++digits) {
    if (digits == 15) return std::nullopt;
    kib = kib * 10 + static_cast<std::uint64_t>(line[digits] - '0');
  }
  if (digits == 0) return std::nullopt;
  line.remove_prefix(digits);
  skip_blanks();
  if (line != "kB") return std::nullopt;
  return kib * 1024;
}

Usage OwnUsage() {
  Usage u;
  std::ifstream in("/proc/self/status");
  std::string status((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  u.peak_rss_bytes = PeakResidentBytes(status).value_or(0);
  rusage self{};
  if (::getrusage(RUSAGE_SELF, &self) == 0) {
    auto seconds = [](const timeval& t) {
      return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
    };
    u.cpu_s = seconds(self.ru_utime) + seconds(self.ru_stime);
  }
  return u;
}

}  // namespace cutline::runtime
