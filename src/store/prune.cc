// Pruning the store: old snapshots deleted with their parts, under the
// writer's lock, in one write transaction (docs/store.md, "Pruning").
#include "store/store.h"

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "store/store_internal.h"
#include "store/writer_lock.h"

namespace cutline::store {

PruneResult Store::Prune(std::uint32_t keep) {
  Connection& c = *impl_;
  const std::string doing = "pruning the store";
  if (keep == 0) c.Refuse("prune keeps at least the latest complete snapshot of each run");
  // A run that holds the writer's lock may yet write the snapshots pruned;
  // one that does not has stopped, whatever its status says.
  StatusOr<WriterLock> lock = WriterLock::Take(path());
  if (!lock.ok()) throw StoreError(lock.status());
  // One transaction: the runs are read, judged and pruned at one moment, and
  // a refusal or a failure midway leaves every row where it was.
  Transaction tx(c, true, doing);
  const std::vector<StoredRun> runs = Runs();
  const std::vector<SnapshotRecord> snapshots = Snapshots();
  std::set<std::uint64_t> origins;  // snapshots a run was restored from
  for (const StoredRun& r : runs) {
    if (r.restored_from) origins.insert(*r.restored_from);
  }
  const std::uint64_t highest = snapshots.empty() ? 0 : snapshots.back().id;

  PruneResult result;
  std::map<std::int64_t, std::size_t> index;
  for (const StoredRun& r : runs) {
    index[r.id] = result.runs.size();
    result.runs.push_back({r.id, 0, 0, 0, 0, 0});
  }
  std::map<std::int64_t, std::uint32_t> complete_seen;  // per run, newest first
  std::vector<std::int64_t> doomed;
  for (auto it = snapshots.rbegin(); it != snapshots.rend(); ++it) {
    const SnapshotRecord& s = *it;
    auto at = index.find(s.run);
    if (at == index.end()) {  // a snapshot of no run (foreign keys off): left for verify
      continue;
    }
    PrunedRun& pr = result.runs[at->second];
    const bool complete = s.status == "complete";
    const bool latest = complete && complete_seen[s.run]++ < keep;
    const bool origin = origins.count(s.id) > 0;
    if (latest || origin || s.status == "running" || s.id == highest) {
      ++(complete ? pr.kept_complete : pr.kept_other);
      if (complete && !latest && origin) ++pr.kept_origins;
      continue;
    }
    ++(complete ? pr.removed_complete : pr.removed_failed);
    doomed.push_back(static_cast<std::int64_t>(s.id));
  }
  // Parts first, then the snapshot: the foreign keys point that way.
  // (A store open for writing has the latest schema: verdicts and vertices
  // exist.)
  for (const char* sql : {"DELETE FROM verdicts WHERE snapshot = ?",
                          "DELETE FROM transfers WHERE snapshot = ?",
                          "DELETE FROM channels WHERE snapshot = ?",
                          "DELETE FROM balances WHERE snapshot = ?",
                          "DELETE FROM vertices WHERE snapshot = ?",
                          "DELETE FROM snapshots WHERE id = ?"}) {
    Query q(c, sql, doing);
    for (std::int64_t id : doomed) {
      q.Bind(1, id).Run();
      result.rows += static_cast<std::uint64_t>(c.Changes());
    }
  }
  tx.Commit();
  return result;
}

}  // namespace cutline::store
