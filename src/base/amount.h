// Money, as every module counts it: whole dollars in a signed 64-bit integer
// (the simulator's bank, the runtime's branches, the store's columns).
#pragma once

#include <cstdint>

namespace cutline {

// Signed: a transfer is positive, but sums and differences (what a wrong
// snapshot is off by) may not be.
using Amount = std::int64_t;

}  // namespace cutline
