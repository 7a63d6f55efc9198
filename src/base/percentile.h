// The one definition of a percentile that cutline reports (the cluster's
// summary, the store's run summaries): the nearest rank, rounded.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace cutline {

// The value at `p` percent (0..100) of `values`, by nearest rank; 0 for none.
template <typename T>
T Percentile(std::vector<T> values, double p) {
  if (values.empty()) return T{};
  std::sort(values.begin(), values.end());
  auto at = static_cast<std::size_t>(p / 100.0 * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(at, values.size() - 1)];
}

}  // namespace cutline
