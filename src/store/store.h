// The store: what a real run's collector learns, kept in one SQLite file so
// that a crashed run can restart from its last complete snapshot and so that
// `cutline store`, the checker and the page can read it afterwards.
//
// Errors: opening returns a Status (base/status.h) saying why, since a bad
// file is the user's input; its words are the catalogues'. Once open, every failure (a full disk, an
// I/O error, a call that breaks the store's rules) throws StoreError, also
// one line: a write that did not happen must not go unnoticed, and a caller
// that forgets to look at a returned status would do exactly that.
//
// A Store is one SQLite connection: use it from one thread at a time. Many
// processes may read a store while one writes it (WAL mode).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/amount.h"
#include "base/status.h"
#include "store/error.h"

namespace cutline::store {

// One channel's recorded state: the transfers that arrived on it after its
// receiver recorded and before the sender's marker, in arrival order.
struct StoredChannel {
  std::uint32_t from = 0, to = 0;  // ranks
  std::vector<Amount> transfers;
  // When the sender's marker reached the receiver (microseconds since the
  // epoch, the receiver's clock): the channel closed. Unknown in a file of
  // schema 1.
  std::optional<std::int64_t> marker_us = std::nullopt;
  // A dataflow's input channel (schema 5): what the snapshot cost on it at
  // its receiver (dataflow::ChannelCost). Its `transfers` are then the keys
  // of the records in flight on it, the receiver's recorded ones first,
  // then those its sender's barrier jumped; their number is the records
  // persisted. Nothing for the bank's channels.
  struct Cost {
    bool unaligned = false;        // its barrier was taken on arrival (unaligned, or switched)
    std::int64_t waited_us = 0;    // aligned: from its barrier's arrival to the record
    std::uint64_t held_back = 0;   // aligned: records behind its barrier at the record
    bool operator==(const Cost&) const = default;
  };
  std::optional<Cost> cost = std::nullopt;
};

// A dataflow's vertex as a snapshot recorded it (schema 5): its state
// (dataflow::VertexState) and what the snapshot cost it.
struct StoredVertex {
  std::uint64_t received = 0, emitted = 0;
  std::map<std::uint64_t, std::uint64_t> per_key;  // operators and sinks: records applied, by key
  std::int64_t alignment_us = 0;  // from its first barrier's arrival to its record
  bool switched = false;          // the alignment timeout switched it to unaligned here
  std::uint64_t overtaken = 0;    // records its barriers jumped on its outputs
  bool operator==(const StoredVertex&) const = default;
};

// How a dataflow run was started (schema 5): what a restore must match
// (the topology) and what the store page says of it.
struct StoredDataflow {
  std::string topology;   // SPEC, as dataflow::Topology::spec() writes it
  std::string algorithm;  // "aligned" | "unaligned"
  std::uint32_t buffers = 0;
  std::optional<std::int64_t> alignment_timeout_us;
  bool operator==(const StoredDataflow&) const = default;
};

// jobs and locks (schema 4): the stable property the run's collector
// evaluated on a complete snapshot, with its reason: the busy branches and
// the channels holding a job (jobs, not terminated), or the wait-for cycle
// (locks) and the channels holding a grant that dissolves it.
struct StoredVerdict {
  std::string property;  // "terminated" | "deadlocked"
  bool holds = false;
  std::vector<std::uint32_t> branches;  // ranks
  std::vector<std::pair<std::uint32_t, std::uint32_t>> channels;  // (from, to), once per message
  bool operator==(const StoredVerdict&) const = default;
};

// What a dataflow's complete snapshot cost, over all its vertices and
// channels (schema 5): what `store list` and the store page's list show.
struct StoredCost {
  std::int64_t alignment_us = 0;   // the longest alignment at any vertex
  bool switched = false;           // the alignment timeout switched it at some vertex
  std::uint64_t channels = 0;      // input channels
  std::uint64_t unaligned = 0;     // of them, taken unaligned
  std::uint64_t persisted = 0;     // records in flight kept with it
  std::uint64_t held_back = 0;     // records behind aligned barriers at the record
  bool operator==(const StoredCost&) const = default;
};

struct SnapshotRecord {
  std::uint64_t id = 0;
  std::int64_t run = 0;
  std::uint32_t initiator = 0;
  std::int64_t started_us = 0, completed_us = 0;  // microseconds since the epoch
  std::string status;                             // "complete" | "failed" | "running"
  // Why a failed snapshot failed (schema 3): "timeout", "run_ended",
  // "run_died"; empty for the others, and for one failed before schema 3.
  std::string failure;
  // A failed snapshot's root cause where the run knew it (schema 5): the
  // ranks whose parts never reached the collector, by rank.
  std::vector<std::uint32_t> missing;
  std::vector<Amount> balances;                   // recorded balance by rank (empty unless complete)
  // When each rank recorded its state, by rank, as balances; 0: unknown
  // (schema 1). Empty is taken as all unknown when written.
  std::vector<std::int64_t> recorded_us;
  // Every ordered pair (a dataflow: every channel of its topology), by from
  // then to (empty unless complete).
  std::vector<StoredChannel> channels;
  // A dataflow's snapshot: a vertex by rank, in place of `balances`; its
  // total is the records its sources had emitted.
  std::vector<StoredVertex> vertices;
  // Filled when read back (balances plus channel transfers, computed by the
  // store as it writes them); ignored by SnapshotComplete.
  std::optional<Amount> total;
  // jobs and locks: written with the snapshot, read back by Find.
  std::optional<StoredVerdict> verdict;
  // A dataflow's complete snapshot: read back by Snapshots and Find
  // (computed by the store from its vertices and channels).
  std::optional<StoredCost> cost;
};

struct StoredRun {
  std::int64_t id = 0;
  std::int64_t started_us = 0;
  std::uint32_t ranks = 0;
  Amount balance = 0;  // each branch's starting balance (fresh runs)
  Amount total = 0;    // the bank's total, which every complete snapshot must add up to
  std::optional<std::uint64_t> restored_from;
  // Schema 2; unknown (empty, nullopt) for a run of a version-1 file.
  std::string status;                    // "live" | "ended" | "died"
  std::optional<std::int64_t> ended_us;  // when it ended or was found dead
  std::optional<std::uint64_t> transfers;  // sent so far, or in all once ended
  std::optional<std::int64_t> updated_us;  // its last heartbeat (RunProgress)
  // Schema 4: the application its branches ran; "bank" before it. For jobs
  // `balance` is the jobs each branch started with, for locks 0, and a
  // snapshot's total is no invariant (only the bank conserves its words).
  std::string app = "bank";
  // Schema 5: a dataflow's shape and mode (app "dataflow").
  std::optional<StoredDataflow> dataflow;
};

// Why a run could not write the store at `path` (a read-only file, folder
// or mount); ok when nothing seen beforehand stands in its way. Asked before
// a run starts, so that it is refused at once.
Status CannotWrite(const std::string& path);

// The runtime's name for the branch a rank runs: N0, N1, ...
std::string BranchName(std::uint32_t rank);

// What `Store::Verify` found wrong with one snapshot (or run, or the file):
// `about` is kAboutSnapshot(12), kAboutRun(2) or kAboutFile, `what` every
// problem with it, in order. Their words are the catalogues'
// (catalogue::ProblemLine: "snapshot 12: ...; ...").
struct Problem {
  Status about;
  std::vector<Status> what;
};

struct Verification {
  std::uint64_t complete = 0;  // complete snapshots checked
  std::uint64_t other = 0;     // failed and running ones checked (they must hold no parts)
  std::vector<Problem> problems;  // one per bad snapshot or run, by id
  bool ok() const { return problems.empty(); }
};

// What `Store::Prune` did to one run.
struct PrunedRun {
  std::int64_t run = 0;
  std::uint64_t removed_complete = 0, removed_failed = 0;
  std::uint64_t kept_complete = 0, kept_other = 0;
  // Of kept_complete, those past the latest `keep`: a later run was
  // restored from them.
  std::uint64_t kept_origins = 0;
};
struct PruneResult {
  std::vector<PrunedRun> runs;  // by id, every run of the file
  std::uint64_t rows = 0;       // rows deleted: snapshots and their parts
};

class Store {
 public:
  // Opens a cutline store for reading and writing, creating it if `create`
  // and it does not exist. A new store appears whole or not at all. On
  // failure (missing, not a cutline store, corrupt, unreadable, read-only,
  // beside a FILE-wal that is not its own) says why, and the file is not
  // modified.
  static StatusOr<Store> Open(const std::string& path, bool create);
  // Opens an existing store for reading only: the file is never written,
  // and a read-only one (file, folder or mount) is read. SQLite may create
  // empty FILE-wal and FILE-shm beside it (a WAL reader needs them to read
  // safely while a run writes), except for a `brief` reader (one that reads
  // and closes at once: a command, a check) of a file with neither: the
  // file alone is then the whole store, read as it is, and nothing is left
  // behind. A FILE-wal that is not this file's is refused. Writes throw
  // StoreError.
  static StatusOr<Store> OpenReadOnly(const std::string& path, bool brief = false);

  Store(Store&&) noexcept;
  Store& operator=(Store&&) noexcept;
  ~Store();

  // A new run; returns its id. `restored_from`, if given, must be a complete
  // snapshot of a run with the same number of ranks.
  // A dataflow's run (app "dataflow") gives its `dataflow` (and balance 0):
  // `restored_from` must then be of a run of the same topology.
  std::int64_t BeginRun(std::uint32_t ranks, Amount balance, Amount total,
                        std::optional<std::uint64_t> restored_from,
                        const std::string& app = "bank",
                        const std::optional<StoredDataflow>& dataflow = std::nullopt);
  // Snapshot `id` of `run` has started (status running). Ids are unique in
  // the store, across runs.
  void SnapshotStarted(std::int64_t run, std::uint64_t id, std::uint32_t initiator,
                       std::int64_t started_us);
  // Writes every part of a running snapshot (a balance for every rank, every
  // ordered pair's channel, the total) and marks it complete, in ONE
  // transaction: either all of it is in the file or none of it is.
  void SnapshotComplete(const SnapshotRecord& s);
  // Why a snapshot failed: given up at --snapshot-timeout, still running
  // when its run ended, or when its run died.
  enum class Failure { kTimeout, kRunEnded, kRunDied };
  static const char* FailureName(Failure f);
  // A running snapshot will not complete, for `why`; `missing`: the ranks
  // whose parts had not come (its root cause, as far as the run knew it).
  // Failing a failed one does nothing; failing a complete one throws.
  void SnapshotFailed(std::int64_t run, std::uint64_t id, Failure why = Failure::kRunEnded,
                      const std::vector<std::uint32_t>& missing = {});
  // Every still-running snapshot of `run` becomes failed: its run died.
  void FailRunning(std::int64_t run);
  // A live run's heartbeat: `transfers` sent so far, at `now_us`.
  void RunProgress(std::int64_t run, std::uint64_t transfers, std::int64_t now_us);
  // The run is over: it "ended" (with `transfers` in all), or "died" (a rank
  // was killed; the count is the last heartbeat's). Its running snapshots
  // become failed, in the same transaction. Ending a run that is not live
  // throws.
  void EndRun(std::int64_t run, bool died, std::optional<std::uint64_t> transfers,
              std::int64_t now_us);

  std::vector<StoredRun> Runs() const;                 // by id
  std::vector<SnapshotRecord> Snapshots() const;       // by id; with verdicts and costs, without balances and channels
  std::optional<SnapshotRecord> Find(std::uint64_t id) const;  // the full record
  std::optional<SnapshotRecord> LatestComplete() const;        // the full record
  std::uint64_t NextSnapshotId() const;  // max id + 1 (1 for an empty store)
  // A number that changes whenever another connection (a run's writer)
  // commits to the file, and only then (SQLite's PRAGMA data_version): how
  // a reader knows its cached reads are stale. A file's size and time do
  // not say it: two commits within one tick of the file system's clock,
  // rewriting FILE-wal in place, leave both unchanged.
  std::uint64_t DataVersion() const;

  // Re-checks the file against the store's rules (docs/store.md, "Verifying
  // a store"): every complete snapshot whole (a balance per rank of its run,
  // every ordered pair's channel, transfers at positions 0, 1, ...), its
  // parts adding up to its total and its run's, every row in its shape
  // (amounts not negative, ranks in range, known statuses, a complete
  // snapshot's completion time; no part of a snapshot that is not complete,
  // no part of a snapshot that is not there), and each run's row. Reads
  // only, in one read transaction: one moment of the file, while a run may
  // write it.
  Verification Verify() const;
  // The same checks on snapshot `id` alone (and its run's row as far as the
  // snapshot needs it); nullopt when the store has no snapshot `id`.
  std::optional<Verification> Verify(std::uint64_t id) const;

  // Keeps the latest `keep` (>= 1) complete snapshots of each run and
  // deletes its other complete and failed snapshots with all their parts,
  // in ONE write transaction. Always kept besides: running snapshots (a run
  // may still complete or fail them), the snapshots a run was restored from
  // (its origin; runs.restored_from points at them), and the file's highest
  // snapshot id (new ids are MAX(id) + 1: an id once given never comes back).
  // Runs are never deleted. Refused (StoreError, nothing written) when keep
  // is 0 or when another process holds the store's writer lock
  // (writer_lock.h): the transaction holds SQLite's write lock while it
  // deletes, and that run's collector would wait for it, then fail.
  PruneResult Prune(std::uint32_t keep);

  // Caps the file at `pages` database pages (PRAGMA max_page_count, for
  // this connection); past it a write fails as on a full disk. Lets a test
  // reach the error path, and a deployment bound the file.
  void SetMaxPages(std::uint32_t pages);

  const std::string& path() const;
  // The schema this file has: anything from 1 to kSchemaVersion (5) when
  // opened read-only, read as it is; a store opened for writing is always
  // migrated to kSchemaVersion first (docs/store.md, "Versions").
  std::uint32_t schema_version() const;

 private:
  struct Impl;
  explicit Store(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cutline::store
