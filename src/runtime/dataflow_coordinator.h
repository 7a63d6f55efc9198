// Rank 0's second job in a dataflow run (`cluster --app dataflow`): it
// starts each snapshot at every source (aligned barriers need all of them),
// assembles the vertices' parts with the public SnapshotCollector, judges
// each whole snapshot by conservation at every stage boundary
// (dataflow/property.h), keeps what each cost (alignment, records held back
// and persisted, channels switched by the alignment timeout), hands each
// whole or failed snapshot to the sink (--store), ends the run by draining
// the stream, and checks the sinks' counts against the sources' (every
// record counted once). A restored run (--restore) starts each vertex from
// its stored state, its outputs holding the records then in flight.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "cutline/collector.h"
#include "dataflow/property.h"
#include "runtime/options.h"
#include "runtime/roles.h"
#include "runtime/sink.h"

namespace cutline::runtime {

// What the status line and the summary report, counted as the run goes.
struct DataflowStatistics {
  std::vector<std::uint64_t> counts;  // by rank: emitted (sources) or received, as last reported
  std::uint64_t complete = 0, failed = 0, timed_out = 0;
  // Complete snapshots that broke conservation at some boundary (never
  // expected), and the first of them.
  std::uint64_t broken = 0;
  std::optional<SnapshotId> first_broken;
  bool ended_early = false;
  std::vector<double> latencies_us;  // start to whole
  // Per complete snapshot: the longest alignment at any vertex, the records
  // persisted (in flight, both sides), the records held back at the record.
  std::vector<double> alignment_us;
  std::vector<double> persisted;
  std::vector<double> held_back;
  std::uint64_t switched = 0;           // snapshots the timeout switched at some vertex
  std::uint64_t unaligned_channels = 0;  // over all complete snapshots
  std::uint64_t channels = 0;
  // The end: each vertex's VertexFinal, by rank.
  std::vector<std::optional<protocol::VertexFinal>> finals;

  // Records emitted by the sources / received by the sinks, as last
  // reported (Counts, then VertexFinal).
  std::uint64_t Emitted(const dataflow::Topology& t) const;
  std::uint64_t Sunk(const dataflow::Topology& t) const;
  // At the end: every boundary's records emitted equal those received
  // (nothing in flight is left once the stream drained).
  bool Exact(const dataflow::Topology& t) const;
};

class DataflowCoordinator final : public CoordinatorRole {
 public:
  DataflowCoordinator(const NodeOptions& options, const DataflowOptions& dataflow,
                      Transport& transport, std::unique_ptr<Sink> sink);

  Status Begin() override;
  void Started(Clock::time_point now) override;
  bool Tick(Clock::time_point now) override;
  void OnControl(int from, const protocol::Control& message, std::size_t bytes) override;
  void EndEarly(Clock::time_point now) override;
  bool finished() const override { return finished_; }
  void End() override;
  int exit_code() const override;

 private:
  using Collector = SnapshotCollector<dataflow::VertexState, std::uint64_t>;
  struct Running {
    Clock::time_point started;
    std::int64_t started_us = 0;  // since the epoch, as the store keeps it
    std::vector<dataflow::SnapshotCost> costs;  // by rank, as parts come
  };
  // The whole snapshot as the sink keeps it: each vertex's state and cost,
  // each channel's records in flight (its receiver's, then its sender's)
  // and cost.
  WholeSnapshot ForSink(SnapshotId id, const Running& r,
                        const std::map<std::uint32_t, dataflow::Part>& parts) const;
  void StartSnapshot();
  void StopScheduling(Clock::time_point now);
  void OnPart(int from, protocol::VertexPart part);
  void Whole(SnapshotId id, std::vector<Collector::Part> parts);
  void Fail(SnapshotId id, bool timed_out);
  nlohmann::json Summary(double seconds) const;
  void PrintStatus(Clock::time_point now);

  const NodeOptions& o_;
  const DataflowOptions& d_;
  const int n_;
  Transport& transport_;
  std::unique_ptr<Sink> sink_;
  Collector collector_;
  // Records counted at the sinks when the run began (a restored run's
  // snapshot's): this run's throughput counts what came after.
  std::uint64_t sunk_before_ = 0;
  std::optional<std::uint64_t> restored_from_;  // the snapshot a restored run began from
  Clock::time_point next_progress_;
  DataflowStatistics stats_;
  std::map<SnapshotId, Running> running_;
  SnapshotId next_id_ = 1;
  Clock::time_point start_;
  Clock::time_point next_snapshot_;
  Clock::time_point next_status_;
  bool scheduling_ = true;
  Clock::time_point stopped_scheduling_;
  Clock::time_point stop_deadline_;
  bool stop_sent_ = false;
  bool finished_ = false;
};

}  // namespace cutline::runtime
