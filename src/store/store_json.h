// A store as JSON, for `cutline store ... --json` and for the page's server
// (`cutline serve --store`): one shape, written once.
#pragma once

#include "apps/app_json.h"
#include "store/store.h"

namespace cutline::store {

// The JSON of run --json (keys in the order written).
using apps::Json;

// The run `id` among `runs` (Store::Runs). A snapshot's run is always
// there (its row references the run's, under foreign keys), so none means
// a damaged file: StoreError kVerifyRunMissing, as `store verify` words it.
const StoredRun& RunOf(const std::vector<StoredRun>& runs, std::int64_t id);
// The application a stored run ran: the one its row names (Store::Runs
// reads a row written before schema 4 as "bank", the schema's meaning of
// none), a dataflow's when it has its dataflow row.
apps::App AppOf(const StoredRun& run);

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
