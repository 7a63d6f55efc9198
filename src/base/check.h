// CUTLINE_CHECK(condition): an invariant checked in every build, the
// default one (-DNDEBUG) included, unlike assert(). For conditions cheap
// enough to test on every step (a Reply that must be ok, an index in
// range, a balance that cannot go negative): a broken one stops the process
// at once, naming itself, instead of letting a wrong snapshot or a wrong
// balance travel on. Expensive invariants (a whole bank's conservation) stay
// in engine::Invariants, which the tests run after every command.
#pragma once

#include <cstdio>
#include <cstdlib>

namespace cutline::detail {

// Cold and never inlined: a check on a hot path costs its comparison and a
// branch predicted taken, not the printing it would do if it failed.
[[noreturn, gnu::cold, gnu::noinline]] inline void CheckFailed(const char* condition, const char* file, int line) {
  std::fprintf(stderr, "cutline: internal error: %s:%d: CUTLINE_CHECK(%s) failed\n", file, line,
               condition);
  std::abort();
}

}  // namespace cutline::detail

#define CUTLINE_CHECK(condition)                                                    \
  (__builtin_expect(static_cast<bool>(condition), 1)                                \
       ? static_cast<void>(0)                                                       \
               : ::cutline::detail::CheckFailed(#condition, __FILE__, __LINE__))
