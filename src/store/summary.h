// What an operator asks of a store (the page's store view): each run's
// figures, and each snapshot's critical path, computed from what the store
// holds and nothing else.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/store.h"

namespace cutline::store {

// A run that says it is live but has not sent its heartbeat (once a second)
// for this long is taken as silent: its processes are gone without a word.
inline constexpr std::int64_t kSilentAfterUs = 5'000'000;

// The run is live and its heartbeat (or, before the first, its start) is
// younger than kSilentAfterUs at `now_us`: the store page calls it live.
// Who may write the store is not decided by this (a heartbeat's age cannot
// tell a dead writer from a slow one) but by its writer lock, writer_lock.h.
inline bool Writing(const StoredRun& run, std::int64_t now_us) {
  return run.status == "live" && now_us - run.updated_us.value_or(run.started_us) <= kSilentAfterUs;
}

struct RunSummary {
  std::int64_t run = 0;
  // "live", "ended", "died", "silent" (live, heartbeat too old), or
  // "unknown" (a run of a version-1 file).
  std::string state;
  // From the start to its end (ended), or to its last heartbeat (live,
  // silent, died): the time its transfer count covers.
  std::optional<std::int64_t> duration_us;
  std::optional<std::uint64_t> transfers;
  std::optional<double> transfers_per_s;
  std::uint64_t complete = 0, failed = 0, running = 0;
  // Start to collected, over the complete snapshots; unknown without any.
  std::optional<std::int64_t> latency_p50_us, latency_p99_us, latency_max_us;
};

// The summary of `run` from its snapshots (those of other runs are skipped),
// as seen at `now_us`.
RunSummary Summarize(const StoredRun& run, const std::vector<SnapshotRecord>& snapshots,
                     std::int64_t now_us);

// A complete snapshot's critical path: when each rank recorded its state and
// each channel's marker arrived, relative to the snapshot's start, and the
// channel whose marker came last: the one the snapshot waited for.
struct CriticalPath {
  struct Moment {
    std::uint32_t from = 0, to = 0;  // a channel; for a recording, from == to == the rank
    std::int64_t at_us = 0;          // after the start
  };
  std::vector<Moment> recorded;  // by rank; ranks whose time is unknown are left out
  std::vector<Moment> markers;   // in the order they arrived
  std::optional<Moment> last;    // the last marker; unknown in a version-1 file
  std::int64_t collected_us = 0;  // the whole snapshot reached the coordinator
};

// Nothing for a snapshot that is not complete (the store holds no parts),
// nor for a dataflow's (its cost is per channel, not a path of markers).
std::optional<CriticalPath> CriticalPathOf(const SnapshotRecord& s);

}  // namespace cutline::store
