// The store's schema as the steps that build it (docs/store.md, "Schema"
// and "Versions"), and the reading of a file's version.
#include "store/schema.h"

#include <fmt/format.h>

#include <iterator>
#include <string>

namespace cutline::store {
namespace {

// The schema, as the steps from nothing: kMigrations[v - 1] takes a file of
// version v - 1 to version v. A new store runs all of them, an older one
// the ones it lacks, so that a new file and a migrated one have exactly the
// same tables. Each step runs in a transaction of its own and sets its
// user_version there.
constexpr const char* kMigrations[] = {
    // 1: runs, snapshots and their parts.
    R"sql(
PRAGMA application_id = 1129665612;
CREATE TABLE runs (
  id            INTEGER PRIMARY KEY,
  started_us    INTEGER NOT NULL,
  ranks         INTEGER NOT NULL CHECK (ranks >= 1),
  balance       INTEGER NOT NULL,
  total         INTEGER NOT NULL,
  restored_from INTEGER REFERENCES snapshots (id)
);
CREATE TABLE snapshots (
  id           INTEGER PRIMARY KEY,
  run          INTEGER NOT NULL REFERENCES runs (id),
  initiator    INTEGER NOT NULL,
  started_us   INTEGER NOT NULL,
  completed_us INTEGER,
  status       TEXT NOT NULL CHECK (status IN ('running', 'complete', 'failed')),
  total        INTEGER,
  CHECK ((status = 'complete') = (total IS NOT NULL AND completed_us IS NOT NULL))
);
CREATE INDEX snapshots_by_run ON snapshots (run, status);
CREATE TABLE balances (
  snapshot INTEGER NOT NULL REFERENCES snapshots (id),
  rank     INTEGER NOT NULL,
  balance  INTEGER NOT NULL,
  PRIMARY KEY (snapshot, rank)
) WITHOUT ROWID;
CREATE TABLE channels (
  snapshot  INTEGER NOT NULL REFERENCES snapshots (id),
  from_rank INTEGER NOT NULL,
  to_rank   INTEGER NOT NULL,
  PRIMARY KEY (snapshot, from_rank, to_rank)
) WITHOUT ROWID;
CREATE TABLE transfers (
  snapshot  INTEGER NOT NULL,
  from_rank INTEGER NOT NULL,
  to_rank   INTEGER NOT NULL,
  position  INTEGER NOT NULL,
  amount    INTEGER NOT NULL,
  PRIMARY KEY (snapshot, from_rank, to_rank, position),
  FOREIGN KEY (snapshot, from_rank, to_rank) REFERENCES channels
) WITHOUT ROWID;
PRAGMA user_version = 1;
)sql",
    // 2: what an operator asks of a run (live or over, how fast) and of a
    // snapshot (its critical path). NULL in rows written by version 1.
    R"sql(
ALTER TABLE runs ADD COLUMN status TEXT CHECK (status IN ('live', 'ended', 'died'));
ALTER TABLE runs ADD COLUMN ended_us INTEGER;
ALTER TABLE runs ADD COLUMN transfers INTEGER;
ALTER TABLE runs ADD COLUMN updated_us INTEGER;
ALTER TABLE balances ADD COLUMN recorded_us INTEGER;
ALTER TABLE channels ADD COLUMN marker_us INTEGER;
PRAGMA user_version = 2;
)sql",
    // 3: why a failed snapshot failed (Store::Failure). NULL in rows written
    // before it.
    R"sql(
ALTER TABLE snapshots ADD COLUMN failure TEXT
  CHECK (failure IN ('timeout', 'run_ended', 'run_died'));
PRAGMA user_version = 3;
)sql",
    // 4: runs of jobs and locks, and the property each of their complete
    // snapshots was found to have. A run of NULL app is a bank's.
    R"sql(
ALTER TABLE runs ADD COLUMN app TEXT CHECK (app IN ('bank', 'jobs', 'locks'));
CREATE TABLE verdicts (
  snapshot INTEGER PRIMARY KEY REFERENCES snapshots (id),
  property TEXT NOT NULL CHECK (property IN ('terminated', 'deadlocked')),
  holds    INTEGER NOT NULL CHECK (holds IN (0, 1)),
  branches TEXT NOT NULL,
  channels TEXT NOT NULL
);
PRAGMA user_version = 4;
)sql",
    // 5: dataflows (`cluster --app dataflow`): the run's shape and mode, each
    // snapshot's vertices (their state and cost) and each channel's cost,
    // and a failed snapshot's missing parts. A CHECK cannot be altered, so
    // `runs` is built anew to admit app 'dataflow' (SQLite's way: a new
    // table, the rows copied, the old one dropped, the new one renamed; the
    // foreign keys are off meanwhile: Migrate).
    R"sql(
CREATE TABLE runs_5 (
  id            INTEGER PRIMARY KEY,
  started_us    INTEGER NOT NULL,
  ranks         INTEGER NOT NULL CHECK (ranks >= 1),
  balance       INTEGER NOT NULL,
  total         INTEGER NOT NULL,
  restored_from INTEGER REFERENCES snapshots (id),
  status        TEXT CHECK (status IN ('live', 'ended', 'died')),
  ended_us      INTEGER,
  transfers     INTEGER,
  updated_us    INTEGER,
  app           TEXT CHECK (app IN ('bank', 'jobs', 'locks', 'dataflow'))
);
INSERT INTO runs_5 SELECT id, started_us, ranks, balance, total, restored_from, status, ended_us,
                          transfers, updated_us, app FROM runs;
DROP TABLE runs;
ALTER TABLE runs_5 RENAME TO runs;
CREATE TABLE dataflows (
  run                  INTEGER PRIMARY KEY REFERENCES runs (id),
  topology             TEXT NOT NULL,
  algorithm            TEXT NOT NULL CHECK (algorithm IN ('aligned', 'unaligned')),
  buffers              INTEGER NOT NULL CHECK (buffers >= 1),
  alignment_timeout_us INTEGER
);
CREATE TABLE vertices (
  snapshot     INTEGER NOT NULL REFERENCES snapshots (id),
  rank         INTEGER NOT NULL,
  received     INTEGER NOT NULL,
  emitted      INTEGER NOT NULL,
  per_key      TEXT NOT NULL,
  alignment_us INTEGER NOT NULL,
  switched     INTEGER NOT NULL CHECK (switched IN (0, 1)),
  overtaken    INTEGER NOT NULL,
  PRIMARY KEY (snapshot, rank)
) WITHOUT ROWID;
ALTER TABLE channels ADD COLUMN unaligned INTEGER CHECK (unaligned IN (0, 1));
ALTER TABLE channels ADD COLUMN waited_us INTEGER;
ALTER TABLE channels ADD COLUMN held_back INTEGER;
ALTER TABLE snapshots ADD COLUMN missing TEXT;
PRAGMA user_version = 5;
)sql",
};

}  // namespace

const std::uint32_t kSchemaVersion = std::size(kMigrations);
static_assert(kApplicationId == 1129665612u);  // as kMigrations[0] spells it

using sqlite::Connection;
using sqlite::Query;
using sqlite::Transaction;

void Migrate(Connection& c, std::uint32_t from) {
  if (from >= kSchemaVersion) return;
  // A step may build a table anew (5: runs), which dropping the old one
  // would refuse, or cascade, with the foreign keys on. Off for the steps
  // (it cannot change inside a transaction). A rebuilt table's rows are
  // copied as they were, so every reference to or from them holds as before.
  c.Exec("PRAGMA foreign_keys = OFF", "migrating the store");
  {
    // Every step in one transaction, as SQLite's own tools migrate: a step
    // that fails (a file whose tables are not what their version says)
    // rolls back the steps before it too, so that a refused store is left
    // exactly as it was, not at some version between.
    Transaction tx(c, true, fmt::format("migrating the store to schema {}", kSchemaVersion));
    // Read again under the write lock: another writer may have migrated
    // the file since `from` was read.
    std::uint32_t now = 0;
    {
      Query q(c, "PRAGMA user_version", "migrating the store");
      now = q.Step() ? static_cast<std::uint32_t>(q.Int(0)) : 0;
    }
    for (std::uint32_t v = now + 1; v <= kSchemaVersion; ++v) {
      c.Exec(kMigrations[v - 1], fmt::format("migrating the store to schema {}", v));
    }
    tx.Commit();
  }
  c.Exec("PRAGMA foreign_keys = ON", "migrating the store");
}

std::uint32_t CurrentVersion(Connection& c) {
  Query q(c, "PRAGMA user_version", "reading the schema version");
  return q.Step() ? static_cast<std::uint32_t>(q.Int(0)) : 0;
}

}  // namespace cutline::store
