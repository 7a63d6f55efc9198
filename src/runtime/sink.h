// Where the coordinator puts what it learns: runs, snapshots started, whole
// snapshots, failed ones. The node knows this interface, not SQLite; the
// store's implementation is store_sink.h. Called from one thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "apps/app.h"
#include "runtime/options.h"
#include "store/store.h"

namespace cutline::runtime {

// One channel's recorded transfers, in arrival order (the store's type: a
// channel state means the same thing in the run and in the file).
using RecordedChannel = store::StoredChannel;

struct WholeSnapshot {
  std::uint64_t id = 0;
  std::uint32_t initiator = 0;
  std::int64_t started_us = 0;    // since the epoch
  std::int64_t completed_us = 0;
  std::vector<Amount> balances;   // by rank
  std::vector<std::int64_t> recorded_us;  // by rank: when each recorded its state
  // Every ordered pair, each with when its marker arrived (its receiver's clock).
  std::vector<RecordedChannel> channels;
  // jobs and locks: the property on this snapshot (apps' Evaluate).
  std::optional<apps::Verdict> verdict;
  // A dataflow's: its vertices by rank (no balances); its channels are the
  // topology's, each with its keys in flight and its cost.
  std::vector<store::StoredVertex> vertices;
  Amount total() const {
    Amount sum = 0;
    for (Amount b : balances) sum += b;
    for (const auto& c : channels) {
      for (Amount t : c.transfers) sum += t;
    }
    return sum;
  }
};

// Where a restored run starts: each rank's balance, and the transfers each
// channel held, to be delivered before anything sent after the restart.
struct RestorePoint {
  std::uint64_t snapshot = 0;
  std::vector<Amount> balances;
  std::vector<RecordedChannel> channels;
  std::vector<store::StoredVertex> vertices;  // a dataflow's, in place of balances
};

// What a run is, as the sink keeps it.
struct RunShape {
  std::string app;  // "bank", "jobs", "locks" or "dataflow"
  std::uint32_t ranks = 0;
  Amount balance = 0;  // each branch's opening state; 0 for a dataflow
  std::optional<store::StoredDataflow> dataflow;  // a dataflow's shape and mode
};

// The shape of the run `o` asks for, of `ranks` ranks.
inline RunShape RunShapeOf(const NodeOptions& o, std::uint32_t ranks) {
  RunShape shape{std::string(o.app.name()), ranks, OpeningState(o), std::nullopt};
  if (o.dataflow) {
    shape.dataflow = store::StoredDataflow{
        o.dataflow->topology.spec(), std::string(o.algorithm.name()), o.dataflow->buffers,
        o.dataflow->alignment_timeout ? std::optional(o.dataflow->alignment_timeout->count())
                                      : std::nullopt};
  }
  return shape;
}

class Sink {
 public:
  virtual ~Sink() = default;
  // Before anything else: where to start (a restored run) and the first
  // snapshot id to use, or why the run cannot begin.
  virtual Status Begin(const RunShape& run, bool restore, std::optional<std::uint64_t> restore_id,
                       std::optional<RestorePoint>* from, std::uint64_t* first_snapshot) = 0;
  virtual void Started(std::uint64_t id, std::uint32_t initiator, std::int64_t started_us) = 0;
  virtual void Complete(const WholeSnapshot& snapshot) = 0;
  // `timed_out`: given up at --snapshot-timeout; else still running when
  // the run ended. `missing`: the ranks whose parts had not come.
  virtual void Failed(std::uint64_t id, bool timed_out, const std::vector<std::uint32_t>& missing) = 0;
  // About once a second while the run goes: transfers sent so far. The
  // store keeps it as the run's heartbeat.
  virtual void Progress(std::uint64_t transfers) = 0;
  // The run ended after `transfers` transfers; everything handed over is
  // written when this returns.
  virtual void End(std::uint64_t transfers) = 0;
  virtual std::int64_t run_id() const = 0;
};

// Keeps nothing: a run without --store.
class NullSink : public Sink {
 public:
  Status Begin(const RunShape&, bool restore, std::optional<std::uint64_t>,
               std::optional<RestorePoint>*, std::uint64_t* first) override {
    if (restore) return Status::Error(Code::kRestoreNeedsStore);
    *first = 1;
    return Status::Ok();
  }
  void Started(std::uint64_t, std::uint32_t, std::int64_t) override {}
  void Complete(const WholeSnapshot&) override {}
  void Failed(std::uint64_t, bool, const std::vector<std::uint32_t>&) override {}
  void Progress(std::uint64_t) override {}
  void End(std::uint64_t) override {}
  std::int64_t run_id() const override { return 0; }
};

}  // namespace cutline::runtime
