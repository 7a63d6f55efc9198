// Rank 0's policy for a dataflow run (`cluster --app dataflow`; scheduler.h
// runs the loop): each snapshot starts at every source (aligned barriers
// need all of them); the vertices' parts are assembled with the public
// SnapshotCollector; each whole snapshot is judged by conservation at
// every stage boundary (dataflow/property.h) and what it cost is kept
// (alignment, records held back and persisted, channels switched by the
// alignment timeout); at the end, once the stream drained, the sinks'
// counts are checked against the sources' (every record counted once). A
// restored run (--restore) starts each vertex from its stored state, its
// outputs holding the records then in flight.
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
#include "runtime/policy.h"
#include "runtime/sink.h"

namespace cutline::runtime {

// What a dataflow's status line and summary report beyond the scheduler's
// figures, counted as the run goes.
struct DataflowStatistics {
  std::vector<std::uint64_t> counts;  // by rank: emitted (sources) or received, as last reported
  // Complete snapshots that broke conservation at some boundary (never
  // expected), and the first of them.
  std::uint64_t broken = 0;
  std::optional<SnapshotId> first_broken;
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

class DataflowPolicy final : public Policy {
 public:
  DataflowPolicy(const NodeOptions& options, const DataflowOptions& dataflow);

  Ready Begin(const std::optional<RestorePoint>& from, SnapshotId first_id,
              nlohmann::json& run_line) override;
  // Snapshots overlap, a few at a time (the sources start them in one
  // order, so barriers never cross).
  std::size_t may_run() const override { return SIZE_MAX; }
  // Every source starts each snapshot; the store names the first.
  std::uint32_t Initiator(SnapshotId) const override { return 0; }
  Ready Start(SnapshotId id, std::uint32_t initiator, Clock::time_point now) override;
  Ready OnControl(int from, const protocol::Control& message, std::size_t bytes,
                  Clock::time_point now) override;
  Ready Abandon(SnapshotId id, std::vector<std::uint32_t>* missing) override;
  bool all_final() const override;
  std::uint64_t work() const override { return stats_.Sunk(d_.topology); }
  void Status(nlohmann::json& line) const override;
  void Summary(nlohmann::json& summary) const override;
  int exit_code() const override;

 private:
  using Collector = SnapshotCollector<dataflow::VertexState, std::uint64_t>;
  struct Running {
    std::int64_t started_us = 0;  // since the epoch, as the store keeps it
    std::vector<dataflow::SnapshotCost> costs;  // by rank, as parts come
  };
  // The whole snapshot as the sink keeps it: each vertex's state and cost,
  // each channel's records in flight (its receiver's, then its sender's)
  // and cost.
  WholeSnapshot ForSink(SnapshotId id, const Running& r,
                        const std::map<std::uint32_t, dataflow::Part>& parts) const;
  Ready OnPart(int from, protocol::VertexPart part);
  Ready Whole(SnapshotId id, std::vector<Collector::Part> parts);

  const NodeOptions& o_;
  const DataflowOptions& d_;
  const int n_;
  Collector collector_;
  DataflowStatistics stats_;
  std::map<SnapshotId, Running> running_;
};

}  // namespace cutline::runtime
