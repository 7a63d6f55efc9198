// What a process has used so far: its peak resident memory and its CPU
// time. Rank 0 reports its own in the run's summary (the collector lives
// there, so its memory is what grows with the parts it holds).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace cutline::runtime {

struct Usage {
  std::uint64_t peak_rss_bytes = 0;  // VmHWM; 0 where /proc does not tell
  double cpu_s = 0;                  // user + system, every thread
};

// This process, now.
Usage OwnUsage();

// VmHWM from the text of /proc/<pid>/status, in bytes; nothing if the
// line is missing or not "<number> kB".
std::optional<std::uint64_t> PeakResidentBytes(std::string_view status);

}  // namespace cutline::runtime
