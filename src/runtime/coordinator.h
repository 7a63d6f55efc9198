// Rank 0's second job: it schedules snapshots (initiators rotating over the
// branches), assembles their parts with the public SnapshotCollector, hands
// whole ones to the Sink, runs the coordinator's side of stop-the-world and
// of the end of a run, and keeps the run's statistics for the status line
// and the summary.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "cutline/collector.h"
#include "runtime/options.h"
#include "runtime/protocol.h"
#include "runtime/roles.h"
#include "runtime/sink.h"
#include "runtime/transport.h"
#include "runtime/usage.h"
#include "sim/network.h"

namespace cutline::runtime {

// What the status line and the summary report, counted as the run goes.
struct Statistics {
  std::vector<std::uint64_t> sent;  // transfers sent, by rank (as last reported)
  std::uint64_t complete = 0, failed = 0, wrong = 0;
  std::uint64_t timed_out = 0;  // of the failed: given up at --snapshot-timeout
  // The snapshots that failed one after another until --tolerable-failures
  // stopped the run (empty if it did not).
  std::vector<SnapshotId> gave_up;
  bool ended_early = false;  // cluster was asked to stop (Ctrl-C, SIGTERM)
  std::optional<Amount> latest_total;
  std::vector<double> latencies_us;  // start to collected, complete snapshots
  std::vector<double> stops_us;      // stop-the-world: pause to resume
  // From the last channel closing (the last part became due) to collected,
  // complete snapshots: the collector's share of the latency.
  std::vector<double> collect_us;
  // The encoded parts of complete snapshots, as they reached the collector
  // (a stop-the-world snapshot's parts are its Read messages).
  std::uint64_t collected_bytes = 0;
  Usage rank0;  // rank 0's own, taken at the end of the run
  int finals = 0;
  Amount final_total = 0;

  // jobs and locks. Each rank's final state word and when it last changed
  // (from Final): the truth both detectors are judged by.
  std::vector<Amount> final_states;
  std::vector<std::int64_t> changed_us;
  // The first complete snapshot whose property held, and when rank 0 had
  // it whole.
  std::optional<SnapshotId> detected_by;
  std::int64_t detected_us = 0;
  apps::Verdict detected;
  // The naive detector's declarations: when its last read came, and what
  // it declared (the cycle, for locks).
  struct Declaration {
    std::int64_t at_us = 0;
    apps::Verdict verdict;
  };
  std::vector<Declaration> naive;
  std::uint64_t naive_rounds = 0;

  std::uint64_t transfers() const;
  nlohmann::json Status(double elapsed_s, double left_s) const;
  nlohmann::json Summary(std::int64_t run, int ranks, Amount bank_total, double seconds) const;
  // The summary's application part (jobs, locks): detection against the
  // truth, and the naive detector's false declarations.
  nlohmann::json Property(apps::App app, const sim::Topology& topology) const;
  // When the property really became true (the ranks' clocks), if it did by
  // the end of the run: for jobs, the last job's finish if the final state
  // is terminated; for locks, that of the cycle `cycle` (its branches' last
  // changes), which must still be one in the final states.
  std::optional<std::int64_t> TrueSince(apps::App app, const sim::Topology& topology,
                                        const std::vector<sim::NodeId>& cycle) const;
};

class Coordinator final : public CoordinatorRole {
 public:
  Coordinator(const NodeOptions& options, int ranks, Transport& transport,
              std::unique_ptr<Sink> sink);

  // Asks the sink where to start, prints the run's first line and sends
  // every rank its Init. On a sink error, nothing is sent and it says why.
  Status Begin() override;
  // The clock starts: snapshots are scheduled from `now`.
  void Started(Clock::time_point now) override;
  // Schedules, reports and ends the run. True if it did anything.
  bool Tick(Clock::time_point now) override;
  // A control message for the coordinator (a part, counts, ...); throws for
  // one that is not.
  // `bytes`: its encoded size, as it arrived.
  void OnControl(int from, const protocol::Control& message, std::size_t bytes) override;
  // Ends the run now, as at the end of --duration (`cluster` was asked to
  // stop): no more snapshots; those running get their usual time to finish.
  void EndEarly(Clock::time_point now) override;
  // Every rank reported its final balance.
  bool finished() const override { return finished_; }
  // Closes the sink and prints the last status and the summary.
  void End() override;
  // Where rank 0's log takes the verdicts (`cutline check --logs`).
  void OnVerdict(std::function<void(SnapshotId, const apps::Verdict&)> log) {
    log_verdict_ = std::move(log);
  }
  // 0, or 1 for a wrong total (a snapshot's, or the bank's at the end).
  int exit_code() const override;

 private:
  using Collector = SnapshotCollector<Amount, Amount>;
  struct Running {
    std::uint32_t initiator;
    std::int64_t started_us;
    Clock::time_point started;
  };
  // A part's times, kept beside the collector's part until the snapshot is
  // whole.
  struct PartTiming {
    std::int64_t recorded_us = 0;
    std::vector<std::int64_t> marker_us;  // by the rank's incoming channel index
    std::uint64_t bytes = 0;              // the part as it arrived, encoded
  };
  void StartSnapshot();
  // The end of the run's time (--duration, an early end, too many failed
  // snapshots): no more snapshots.
  void StopScheduling(Clock::time_point now);
  // Gives up snapshot `id` (running too long, or a rank's rules refused
  // it: protocol::GiveUp): every rank frees it.
  void GiveUp(SnapshotId id, Clock::time_point now, bool timed_out);
  // A snapshot failed: counts towards --tolerable-failures.
  void Failure(SnapshotId id, Clock::time_point now);
  void OnPart(int from, protocol::Part part, std::size_t bytes);
  void OnPaused(int from, const protocol::Paused& m);
  void OnRead(int from, const protocol::Read& m, std::size_t bytes);
  void Whole(SnapshotId id, std::vector<Collector::Part> parts);
  void PrintStatus(Clock::time_point now);
  // The naive detector: asks the next rank, or starts a round when due.
  bool TickNaive(Clock::time_point now);
  void OnAnswer(int from, const protocol::Answer& m);

  const NodeOptions& o_;
  const int n_;
  Transport& transport_;
  std::unique_ptr<Sink> sink_;
  Collector collector_;
  Statistics stats_;
  Amount bank_total_ = 0;

  std::map<SnapshotId, Running> running_;
  std::map<SnapshotId, std::vector<PartTiming>> timing_;  // by rank
  SnapshotId next_id_ = 1;
  Clock::time_point start_;
  Clock::time_point next_snapshot_;
  Clock::time_point next_status_;
  Clock::time_point next_progress_;
  bool scheduling_ = true;
  Clock::time_point stopped_scheduling_;  // when transfers were asked to end
  bool stop_sent_ = false;
  Clock::time_point stop_deadline_;
  bool finished_ = false;
  std::vector<SnapshotId> failed_in_a_row_;  // since the last complete one
  // Stop-the-world bookkeeping for the one snapshot at a time it allows.
  std::vector<std::vector<std::uint64_t>> paused_counts_;  // [sender][receiver]
  int paused_replies_ = 0;
  // jobs and locks.
  sim::Topology topology_;
  std::function<void(SnapshotId, const apps::Verdict&)> log_verdict_;
  // The naive detector's round: the reads so far (by rank), the rank asked
  // and waited for (if any), and when the next round starts.
  std::vector<std::optional<Amount>> naive_reads_;
  std::optional<int> naive_asked_;
  Clock::time_point next_naive_;
};

}  // namespace cutline::runtime
