// A rank's two clocks: the steady one its loop schedules by, and the wall
// clock every rank puts in parts, logs and the store.
#pragma once

#include <chrono>
#include <cstdint>

namespace cutline::runtime {

// What a rank's loop schedules by (timeouts, pacing, the status line).
using Clock = std::chrono::steady_clock;

// Now, in microseconds since the epoch (this host's clock).
inline std::int64_t EpochMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace cutline::runtime
