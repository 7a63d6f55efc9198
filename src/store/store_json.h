// A store as JSON, for `cutline store ... --json` and for the page's server
// (`cutline serve --store`): one shape, written once.
#pragma once

#include "apps/app_json.h"
#include "store/store.h"

namespace cutline::store {

// The JSON of run --json (keys in the order written).
using apps::Json;

// {"runs": [...], "snapshots": [...]} (docs/store.md).
Json ListJson(const Store& store);
// One snapshot in the shape of a snapshot object of `cutline run --json`.
Json SnapshotJson(const Store& store, const SnapshotRecord& s);
// Every run's summary (summary.h) at `now_us`, by run id (docs/store.md),
// from what Store::Runs and Store::Snapshots read.
Json SummariesJson(const std::vector<StoredRun>& runs,
                   const std::vector<SnapshotRecord>& snapshots, std::int64_t now_us);
// A complete snapshot's critical path (summary.h), or null.
Json CriticalPathJson(const SnapshotRecord& s);

}  // namespace cutline::store
