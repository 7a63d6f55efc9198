// The one rule of a message crossing a cut, which every reader of a cut
// applies (the judge, the drawn cuts, the naive reads, the questions): a
// cut is a point on each node's line, and a message's two ends are each
// inside it (before its node's point) or not.
#pragma once

#include <cstdint>

namespace cutline::history {

enum class Crossing : std::uint8_t {
  kNone,      // both ends on one side
  kForward,   // sent inside, not received inside: in flight at the cut, so
              // its channel's recorded state (or lost, by a reader without one)
  kBackward,  // received inside, sent outside: counted twice, and the cut is
              // inconsistent
};

constexpr Crossing CrossingOf(bool sent_inside, bool received_inside) {
  if (sent_inside == received_inside) return Crossing::kNone;
  return sent_inside ? Crossing::kForward : Crossing::kBackward;
}

}  // namespace cutline::history
