// The coordinator's sink for `--store FILE`: a thread of its own writes the
// store, so that a snapshot's transaction (synchronous FULL: an fsync) never
// holds up rank 0's loop. Also the checks `cutline cluster` makes before it
// starts anything, and what it does after a crash.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "base/status.h"
#include "runtime/sink.h"

namespace cutline::runtime {

// `max_pages` (0: none) caps the file as a full disk would (a fault to
// inject: --store-max-pages). `say` words the refusal printed when the store
// fails mid-run (a full disk), just before the run ends.
std::unique_ptr<Sink> MakeStoreSink(const std::string& path, std::uint32_t max_pages, Say say);

// Before launching: is `path` usable for this run? A missing file is fine
// (it will be created) unless restoring; an existing one must be a cutline
// store, and a restore's snapshot must be in it, complete, and of a run of
// the same shape (the bank's ranks, a dataflow's topology). Reads only.
// Returns why it is not usable.
Status CheckStoreBeforeRun(const std::string& path, const RunShape& shape, bool restore,
                           std::optional<std::uint64_t> restore_id);

// After a crash: the run's unfinished snapshots become failed, where the
// store can be written; returns the latest complete snapshot, in words, read
// back either way ("unknown (why)", worded by `say`, only when the store
// cannot be read).
std::string FailUnfinished(const std::string& path, std::int64_t run, const Say& say);

}  // namespace cutline::runtime
