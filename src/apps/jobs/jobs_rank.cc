// Jobs on a real rank: work on one job at a time for a short random while;
// when it is done, maybe hand a new job to a random peer first (while the
// budget lasts), then finish it. An idle rank does nothing until a job
// arrives.
#include "apps/app.h"
#include "apps/rank_work.h"

namespace cutline::apps {

namespace {

class JobsRank : public RankWork {
 public:
  // It may hand out twice the jobs it starts with.
  explicit JobsRank(std::uint32_t jobs) : budget_(2 * std::uint64_t{jobs}) {}

  bool Step(RankClock::time_point now, RankHost& host) override {
    if (host.state() <= 0) return false;
    if (!working_) {
      working_ = true;
      work_until_ = now + Between(host, std::chrono::microseconds(500), std::chrono::milliseconds(3));
      return false;
    }
    if (now < work_until_) return false;
    if (budget_ > 0 && host.Random() % 2 == 0) {
      --budget_;
      host.Send(host.RandomPeer(), jobs::kJob);
    }
    host.Local();
    working_ = false;
    return true;
  }

 private:
  bool working_ = false;
  RankClock::time_point work_until_;
  std::uint64_t budget_;
};

}  // namespace

std::unique_ptr<RankWork> MakeJobsRank(std::uint32_t jobs) {
  return std::make_unique<JobsRank>(jobs);
}

}  // namespace cutline::apps
