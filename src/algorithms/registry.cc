// The registry's table: one entry per folder of src/algorithms/, listed by
// the build in algorithm_list.inc as CUTLINE_ALGORITHM(folder) lines.
#include <array>

#include "algorithms/algorithm.h"

#define CUTLINE_ALGORITHM(folder) \
  namespace cutline::algorithms::folder { extern const Definition kDefinition; }
#include "algorithm_list.inc"
#undef CUTLINE_ALGORITHM

namespace cutline::algorithms {
namespace {

constexpr Algorithm kAll[] = {
#define CUTLINE_ALGORITHM(folder) Algorithm(&folder::kDefinition),
#include "algorithm_list.inc"
#undef CUTLINE_ALGORITHM
};

}  // namespace

std::optional<Algorithm> Algorithm::Find(std::string_view name) {
  for (const Algorithm& a : kAll) {
    if (a.name() == name) return a;
  }
  return std::nullopt;
}

std::span<const Algorithm> Algorithm::All() { return kAll; }

}  // namespace cutline::algorithms
