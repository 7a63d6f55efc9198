// Rank 0's second job, one loop for every application: it starts snapshots
// every --snapshot-every (a few at a time at most), gives up one that
// outlives --snapshot-timeout or that a rank's rules refused (every rank is
// told to abort it, and the sink keeps it as failed with the ranks it
// missed), stops starting them at the end of --duration, on an early end,
// when the property was found or after --tolerable-failures failures in a
// row (naming them: `gave_up`), gives the running ones a grace period, then
// stops every rank and waits for their final reports. It prints the run's
// first line, a status line every 250 ms and the summary, and gives the
// sink its heartbeat every second.
//
// What differs between the bank, jobs, locks and a dataflow is a Policy
// (policy.h): the scheduler hands it what happened and sends what the
// policy's Ready asks, so that the rules above are written once and hold
// the same for every application.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/options.h"
#include "runtime/policy.h"
#include "runtime/roles.h"
#include "runtime/sink.h"

namespace cutline::runtime {

// Where the scheduler's messages and lines go: the transport and standard
// output in a run (node.cc), a recording in a test.
class Outbox {
 public:
  virtual ~Outbox() = default;
  virtual void Send(int rank, const protocol::Control& message) = 0;
  // One of rank 0's lines for `cluster` (cluster.cc reads them): "cutline-run",
  // "cutline-status" or "cutline-summary", with its JSON body.
  virtual void Line(std::string_view kind, const nlohmann::json& body) = 0;
};

class Scheduler final : public CoordinatorRole {
 public:
  // `ranks`: every rank, rank 0 included.
  Scheduler(const NodeOptions& options, int ranks, std::unique_ptr<Policy> policy,
            std::unique_ptr<Sink> sink, Outbox& out);

  Status Begin() override;
  void Started(Clock::time_point now) override;
  bool Tick(Clock::time_point now) override;
  void OnControl(int from, const protocol::Control& message, std::size_t bytes,
                 Clock::time_point now) override;
  void EndEarly(Clock::time_point now) override;
  bool finished() const override { return finished_; }
  void End() override;
  int exit_code() const override { return policy_->exit_code(); }

 private:
  struct Running {
    Clock::time_point started;
  };
  void StartSnapshot(Clock::time_point now);
  // Does what a policy's Ready asks.
  void Apply(Ready ready, Clock::time_point now);
  void Send(int to, const protocol::Control& message);
  // Gives snapshot `id` up: the sink keeps it failed, every rank aborts it.
  void GiveUp(SnapshotId id, Clock::time_point now, bool timed_out);
  // No more snapshots: those running get a grace period to finish.
  void StopScheduling(Clock::time_point now);
  // The status line's body.
  nlohmann::json StatusBody(Clock::time_point now) const;

  const NodeOptions& o_;
  const int n_;
  std::unique_ptr<Policy> policy_;
  std::unique_ptr<Sink> sink_;
  Outbox& out_;

  std::map<SnapshotId, Running> running_;
  SnapshotId next_id_ = 1;
  std::optional<SnapshotId> restored_from_;
  std::uint64_t work_before_ = 0;  // a restored run's work when it began
  Clock::time_point start_, next_snapshot_, next_status_, next_progress_;
  bool scheduling_ = true;
  Clock::time_point stopped_scheduling_;  // when the run's time ended
  Clock::time_point stop_deadline_;       // when the running ones are failed
  bool stop_sent_ = false;
  bool finished_ = false;

  // The figures every application reports.
  std::uint64_t complete_ = 0, failed_ = 0, timed_out_ = 0;
  std::vector<SnapshotId> failed_in_a_row_;  // since the last complete one
  // The snapshots that failed one after another until --tolerable-failures
  // stopped the run (empty if it did not).
  std::vector<SnapshotId> gave_up_;
  bool ended_early_ = false;
  std::vector<double> latencies_us_;  // start to whole, complete snapshots
};

}  // namespace cutline::runtime
