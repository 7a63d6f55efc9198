// How much of their full counts the sized tests run: the random scenarios,
// the properties' cases, the demos searched in full. One reading of
// CUTLINE_PROPERTY_SHARE for every test binary that sizes itself by it.
#pragma once

#include <cstdlib>
#include <iostream>

namespace cutline::test_support {

// The share, in per cent, from CUTLINE_PROPERTY_SHARE (default 100).
// `make test` gives the plain build 100 and ASan a fraction (a search or a
// case runs ten to fifteen times slower there); `make test-long` gives ten
// times the full counts, and the full counts under ASan (Makefile). A value
// that is not a whole percentage from 1 to 100000 stops the binary with one
// line, rather than run a share nobody asked for.
inline int PropertyShare() {
  static const int share = [] {
    const char* text = std::getenv("CUTLINE_PROPERTY_SHARE");
    if (text == nullptr || *text == '\0') return 100;
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (*end != '\0' || value < 1 || value > 100'000) {
      std::cerr << "CUTLINE_PROPERTY_SHARE must be a whole percentage from 1 to 100000, not '"
                << text << "'\n";
      std::exit(2);
    }
    return static_cast<int>(value);
  }();
  return share;
}

}  // namespace cutline::test_support
