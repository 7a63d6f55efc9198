// Shared helpers for the benchmarks.
#pragma once

#include <time.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "bank/bank.h"

namespace cutline::bench {

// n branches B0..B{n-1}, each holding `balance`, complete graph.
inline bank::Config CompleteBank(std::uint32_t n, bank::Amount balance,
                                 bool keep_history) {
  bank::Config config;
  config.branches.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    // (Not "B" + std::to_string(i): GCC 12 -Wrestrict false positive.)
    std::string name = std::to_string(i);
    name.insert(name.begin(), 'B');
    config.branches.push_back({std::move(name), balance});
  }
  config.keep_history = keep_history;
  return config;
}

// CPU time of the calling thread (user + system, so page faults count), in
// seconds. Unlike wall time it does not grow while other processes hold the
// CPU, which matters on a shared 2-core machine.
inline double ThreadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Child-process entry point (see main.cc): runs one phase of the snapshot
// benchmark in a fresh process so that its peak RSS can be read with wait4.
int RunSnapshotChild(const std::string& mode, std::uint32_t n, bool history);

}  // namespace cutline::bench
