// Rank 0's policy for branches on a complete graph (the bank, jobs and
// locks; scheduler.h runs the loop): an initiator rotating over the
// branches starts each snapshot, or under stop-the-world every branch is
// paused, its channels drained and its balance read; the parts are
// assembled with the public SnapshotCollector; a whole snapshot's total is
// checked against the bank's, or the application's property evaluated on
// it (the first that holds ends the run); jobs and locks also run the naive
// detector, which reads one branch after another.
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
#include "runtime/policy.h"
#include "runtime/sink.h"
#include "sim/network.h"

namespace cutline::runtime {

// What the branches' status line and summary report beyond the
// scheduler's figures, counted as the run goes.
struct Statistics {
  std::vector<std::uint64_t> sent;  // transfers sent, by rank (as last reported)
  std::uint64_t wrong = 0;          // complete snapshots with a wrong total
  std::optional<Amount> latest_total;
  std::vector<double> stops_us;      // stop-the-world: pause to resume
  // From the last channel closing (the last part became due) to collected,
  // complete snapshots: the collector's share of the latency.
  std::vector<double> collect_us;
  // The encoded parts of complete snapshots, as they reached the collector
  // (a stop-the-world snapshot's parts are its Read messages).
  std::uint64_t collected_bytes = 0;
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

class BranchesPolicy final : public Policy {
 public:
  BranchesPolicy(const NodeOptions& options, int ranks);

  Ready Begin(const std::optional<RestorePoint>& from, SnapshotId first_id,
              nlohmann::json& run_line) override;
  std::size_t may_run() const override;
  std::uint32_t Initiator(SnapshotId id) const override;
  Ready Start(SnapshotId id, std::uint32_t initiator, Clock::time_point now) override;
  Ready OnControl(int from, const protocol::Control& message, std::size_t bytes,
                  Clock::time_point now) override;
  Ready Abandon(SnapshotId id, std::vector<std::uint32_t>* missing) override;
  Ready Tick(Clock::time_point now, bool scheduling) override;
  bool all_final() const override { return stats_.finals == n_; }
  std::uint64_t work() const override { return stats_.transfers(); }
  void Status(nlohmann::json& line) const override;
  void Summary(nlohmann::json& summary) const override;
  int exit_code() const override;

  // Where rank 0's log takes the verdicts (`cutline check --logs`).
  void OnVerdict(std::function<void(SnapshotId, const apps::Verdict&)> log) {
    log_verdict_ = std::move(log);
  }

 private:
  using Collector = SnapshotCollector<Amount, Amount>;
  // A part's times, kept beside the collector's part until the snapshot is
  // whole.
  struct PartTiming {
    std::int64_t recorded_us = 0;
    std::vector<std::int64_t> marker_us;  // by the rank's incoming channel index
    std::uint64_t bytes = 0;              // the part as it arrived, encoded
  };
  struct Running {
    std::uint32_t initiator = 0;
    std::int64_t started_us = 0;  // since the epoch, as the store keeps it
    Clock::time_point started;
  };
  Ready OnPart(int from, protocol::Part part, std::size_t bytes);
  Ready OnPaused(int from, const protocol::Paused& m);
  Ready OnRead(int from, const protocol::Read& m, std::size_t bytes, Clock::time_point now);
  Ready Whole(SnapshotId id, std::vector<Collector::Part> parts);
  void OnAnswer(int from, const protocol::Answer& m, Clock::time_point now);
  bool stops_the_world() const;

  const NodeOptions& o_;
  const int n_;
  Collector collector_;
  Statistics stats_;
  Amount bank_total_ = 0;

  std::map<SnapshotId, Running> running_;
  std::map<SnapshotId, std::vector<PartTiming>> timing_;  // by rank
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
  std::optional<Clock::time_point> next_naive_;
};

}  // namespace cutline::runtime
