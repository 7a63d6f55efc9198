// The two jobs a rank's loop (node.cc) runs, whatever the application: the
// rank's own part of it (a branch of the bank, jobs or locks; a vertex of a
// dataflow) and, on rank 0, the coordinator's (one for every application:
// the Scheduler, scheduler.h). The loop hands each message to one of them
// and knows nothing else of either.
#pragma once

#include <cstddef>
#include <string_view>

#include "base/status.h"
#include "runtime/epoch.h"
#include "runtime/protocol.h"
#include "runtime/transport.h"

namespace cutline::runtime {

inline constexpr int kCoordinator = 0;

class RankRole {
 public:
  virtual ~RankRole() = default;
  // Where to start (the coordinator's Init).
  virtual void Begin(const protocol::Init& init) = 0;
  // Every rank has begun: work flows from `now`.
  virtual void Go(Clock::time_point now) = 0;
  // A frame from rank `from` on the application's channels.
  virtual void OnFrame(int from, std::string_view bytes) = 0;
  // A control message meant for this role; false if it is the coordinator's.
  virtual bool OnControl(const protocol::Control& message) = 0;
  // Does what fell due. True if it did anything.
  virtual bool Tick(Clock::time_point now) = 0;
  // The end of a run (flushes the log).
  virtual void Finish() = 0;
  // Its final report went to the coordinator: nothing is left to do.
  virtual bool final_sent() const = 0;
};

class CoordinatorRole {
 public:
  virtual ~CoordinatorRole() = default;
  // Asks the sink where to start, prints the run's first line and sends
  // every rank its Init. On an error, nothing is sent and it says why.
  virtual Status Begin() = 0;
  // The clock starts: snapshots are scheduled from `now`.
  virtual void Started(Clock::time_point now) = 0;
  // Schedules, reports and ends the run. True if it did anything.
  virtual bool Tick(Clock::time_point now) = 0;
  // A control message for the coordinator (`bytes`: its size as it came),
  // at `now`; throws Fault for one that is not.
  virtual void OnControl(int from, const protocol::Control& message, std::size_t bytes,
                         Clock::time_point now) = 0;
  // Ends the run now, as at the end of --duration (`cluster` was asked to
  // stop).
  virtual void EndEarly(Clock::time_point now) = 0;
  // Every rank sent its final report.
  virtual bool finished() const = 0;
  // Prints the last status and the summary.
  virtual void End() = 0;
  // The process's exit code: 0, or 1 when a snapshot or the end was wrong.
  virtual int exit_code() const = 0;
};

}  // namespace cutline::runtime
