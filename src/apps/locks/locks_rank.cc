// Locks on a real rank: an active rank grants the requests it holds once
// each is due (it holds a lock a little while), and after a random pause
// asks a random peer, waiting for its grant. A waiting rank grants nothing,
// so requests that cross close wait-for cycles.
#include <deque>
#include <utility>

#include "apps/app.h"
#include "apps/rank_work.h"

namespace cutline::apps {

namespace {

// A request is granted after holding the lock this long (if the rank is
// active by then), and an active rank asks again after thinking this long.
// Short holds and long thoughts let wait-for edges come and go many times
// before a cycle closes for good (so that a reader has phantoms to be
// fooled by), yet one closes within tens of milliseconds.
constexpr std::chrono::microseconds kHoldLeast{50}, kHoldMost{500};
constexpr std::chrono::microseconds kThinkLeast{1000}, kThinkMost{10000};

class LocksRank : public RankWork {
 public:
  void Go(RankClock::time_point now, RankHost& host) override {
    next_request_ = now + Between(host, kThinkLeast, kThinkMost);
  }

  void Delivered(int from, Amount word, RankClock::time_point now, RankHost& host) override {
    if (word == locks::kRequest) {
      requests_.emplace_back(from, now + Between(host, kHoldLeast, kHoldMost));
    } else {
      next_request_ = now + Between(host, kThinkLeast, kThinkMost);
    }
  }

  bool Step(RankClock::time_point now, RankHost& host) override {
    if (locks::Waits(host.state())) return false;
    bool any = false;
    while (!requests_.empty() && requests_.front().second <= now) {
      host.Send(requests_.front().first, locks::kGrant);
      requests_.pop_front();
      any = true;
    }
    if (now >= next_request_) {
      host.Send(host.RandomPeer(), locks::kRequest);
      any = true;
    }
    return any;
  }

 private:
  // Requests received and not yet granted, each with when it will be.
  std::deque<std::pair<int, RankClock::time_point>> requests_;
  RankClock::time_point next_request_;
};

}  // namespace

std::unique_ptr<RankWork> MakeLocksRank(std::uint32_t) { return std::make_unique<LocksRank>(); }

}  // namespace cutline::apps
