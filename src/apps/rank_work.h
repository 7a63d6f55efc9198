// What one rank of a real run (`cutline cluster --app`, src/runtime/) does
// for its application between messages: when it works, hands out, asks or
// grants. The runtime's branch drives it and knows no application; each
// application's folder defines its own (NAME_rank.cc), made through
// AppDefinition::make_rank_work. The bank has none: its transfers are the
// runtime's own, paced at --rate.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>

#include "base/amount.h"

namespace cutline::apps {

using RankClock = std::chrono::steady_clock;

// What the rank lets its application do.
class RankHost {
 public:
  virtual ~RankHost() = default;
  // The rank's state word.
  virtual Amount state() const = 0;
  // `word` leaves for rank `to`; the state becomes after_send's.
  virtual void Send(int to, Amount word) = 0;
  // A step of the rank's own: the state becomes after_local's.
  virtual void Local() = 0;
  // Another rank, at random; a random number (both from the rank's seed).
  virtual int RandomPeer() = 0;
  virtual std::uint64_t Random() = 0;
};

class RankWork {
 public:
  virtual ~RankWork() = default;
  // Messages may flow from `now` on.
  virtual void Go(RankClock::time_point /*now*/, RankHost& /*host*/) {}
  // A word of the application arrived from `from`, already applied.
  virtual void Delivered(int /*from*/, Amount /*word*/, RankClock::time_point /*now*/,
                         RankHost& /*host*/) {}
  // Its own steps that fell due by `now`; true if it sent or changed
  // anything.
  virtual bool Step(RankClock::time_point now, RankHost& host) = 0;
};

// A random span in [lo, hi].
inline RankClock::duration Between(RankHost& host, std::chrono::microseconds lo,
                                   std::chrono::microseconds hi) {
  auto span = static_cast<std::uint64_t>((hi - lo).count()) + 1;
  return lo + std::chrono::microseconds(static_cast<std::int64_t>(host.Random() % span));
}

}  // namespace cutline::apps
