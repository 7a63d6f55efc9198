// The one place the library stops a program: an older call that returns a
// bare value was given what it cannot answer (step.h, detail).
#include <cstdio>
#include <cstdlib>

#include "cutline/step.h"

namespace cutline::detail {

void ContractViolated(const char* what) {
  std::fprintf(stderr, "cutline: %s\n", what);
  std::fflush(stderr);
  std::abort();
}

}  // namespace cutline::detail
