// The store over SQLite. docs/store.md gives the schema and the reasons for
// the transaction rule, WAL and synchronous=FULL.
#include "store/store.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <iterator>
#include <limits>
#include <map>
#include <set>
#include <thread>
#include <tuple>
#include <utility>
#include <sqlite3.h>

#include <nlohmann/json.hpp>

#include "store/sqlite.h"
#include "store/summary.h"
#include "store/writer_lock.h"

namespace cutline::store {
namespace {

using sqlite::Connection;
using sqlite::Query;
using sqlite::Transaction;

// The marker that tells a cutline store from any other file: SQLite's header
// holds an application id (offset 68) and a user version (offset 60), both
// big-endian. The application id is written once, when the store is
// created; the user version is the schema, raised by each migration.
constexpr std::uint32_t kApplicationId = 0x4355544C;  // "CUTL"

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
};
constexpr std::uint32_t kSchemaVersion = std::size(kMigrations);
static_assert(kApplicationId == 1129665612u);  // as kMigrations[0] spells it

constexpr const char* kTables[] = {"runs", "snapshots", "balances", "channels",
                                   "transfers"};

// The query of the columns SnapshotRow reads (`failure` only from schema 3
// on): every snapshot by id, or one (`WHERE id = ?`). Literals that live as
// long as the program: the connection caches statements by their SQL's
// address.
const char* SnapshotsSql(std::uint32_t version, bool one) {
  auto sql = [](const char* failure, const char* rest) {
    return std::string("SELECT id, run, initiator, started_us, completed_us, status, total, ") +
           failure + " FROM snapshots" + rest;
  };
  static const std::string all[2] = {sql("NULL", " ORDER BY id"), sql("failure", " ORDER BY id")};
  static const std::string by_id[2] = {sql("NULL", " WHERE id = ?"),
                                       sql("failure", " WHERE id = ?")};
  return (one ? by_id : all)[version >= 3 ? 1 : 0].c_str();
}

std::int64_t NowUs() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The header's verdict, before SQLite opens the file. Returns the problem,
// or "" with the schema version in *version.
std::string CheckHeader(const std::string& path, std::uint32_t* version) {
  sqlite::Header header;
  std::string problem;
  if (!sqlite::ReadHeader(path, &header, &problem)) return problem;
  if (header.application_id != kApplicationId) {
    return fmt::format("{} is not a cutline store (an SQLite database of another kind)",
                       path);
  }
  if (header.user_version > kSchemaVersion) {
    return fmt::format(
        "{} was written by a newer cutline (store schema {}; this one reads {})", path,
        header.user_version, kSchemaVersion);
  }
  if (header.user_version == 0) return fmt::format("{} is corrupt: it has no schema version", path);
  *version = header.user_version;
  return "";
}

// Everything SQLite can tell about the file from a read-only connection:
// every page and b-tree sound (`thorough`: and every index agreeing with
// its table) and the store's tables there. Returns the problem, or "".
std::string CheckContents(sqlite3* db, const std::string& path, bool thorough) {
  auto corrupt = [&](const std::string& why) {
    return fmt::format("{} is corrupt: {}", path, sqlite::OneLine(why));
  };
  const std::string verdict = thorough ? sqlite::IntegrityCheck(db) : sqlite::QuickCheck(db);
  if (!verdict.empty()) return corrupt(verdict);
  std::set<std::string> tables;
  std::string error;
  if (!sqlite::TableNames(db, &tables, &error)) return corrupt(error);
  for (const char* t : kTables) {
    if (tables.count(t) == 0) return corrupt(fmt::format("its table {} is missing", t));
  }
  return "";
}

// What never changes in a run's row once written (runs are never deleted):
// id, started_us, ranks, balance, total, restored_from. And a snapshot's
// id, run, initiator and started_us.
using RunIdentity = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t,
                               std::int64_t, std::int64_t>;
using SnapshotIdentity = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t>;

// What a store's later states must all keep: every run as it is, and its
// highest snapshot id (prune never deletes it, so it never goes down).
struct Lineage {
  std::map<std::int64_t, RunIdentity> runs;
  std::optional<SnapshotIdentity> top;  // the highest snapshot
};

// Runs `sql` and calls `row` for each row; false when it cannot be read.
template <typename Row>
bool EachRow(sqlite3* db, const char* sql, std::int64_t bound, const Row& row) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) != SQLITE_OK) return false;
  if (sqlite3_bind_parameter_count(stmt) > 0) sqlite3_bind_int64(stmt, 1, bound);
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    row([&](int i) { return sqlite3_column_int64(stmt, i); });
  }
  sqlite3_finalize(stmt);
  return rc == SQLITE_DONE;
}

std::optional<Lineage> LineageOf(sqlite3* db) {
  Lineage l;
  bool ok = EachRow(db,
                    "SELECT id, started_us, ranks, balance, total, COALESCE(restored_from, -1) "
                    "FROM runs",
                    0, [&](const auto& col) {
                      l.runs[col(0)] = {col(0), col(1), col(2), col(3), col(4), col(5)};
                    });
  ok = ok && EachRow(db,
                     "SELECT id, run, initiator, started_us FROM snapshots "
                     "ORDER BY id DESC LIMIT 1",
                     0, [&](const auto& col) { l.top = {col(0), col(1), col(2), col(3)}; });
  if (!ok) return std::nullopt;
  return l;
}

// How the store through the WAL fails to descend from the file alone, or "".
std::string Departure(sqlite3* db, const Lineage& own, const Lineage& seen) {
  for (const auto& [id, run] : own.runs) {
    auto it = seen.runs.find(id);
    if (it == seen.runs.end()) return fmt::format("the file's run {} is missing through it", id);
    if (it->second != run) return fmt::format("the file's run {} is another run through it", id);
  }
  if (!own.top) return "";
  const std::int64_t top = std::get<0>(*own.top);
  if (!seen.top || std::get<0>(*seen.top) < top) {
    return fmt::format("the file's highest snapshot is {}, through it {}", top,
                       seen.top ? std::to_string(std::get<0>(*seen.top)) : "none");
  }
  // Snapshot `top` may be pruned once a higher one exists; if it is there,
  // it is the same one.
  bool other = false;
  EachRow(db, "SELECT id, run, initiator, started_us FROM snapshots WHERE id = ?", top,
          [&](const auto& col) {
            other = SnapshotIdentity{col(0), col(1), col(2), col(3)} != *own.top;
          });
  return other ? fmt::format("the file's snapshot {} is another snapshot through it", top) : "";
}

// SQLite cannot tell whose FILE-wal it reads: a WAL left beside another
// store (a copied or renamed file) is read over this one, and the store
// seen is a mix of both, or the other one. A cutline store can tell in
// part: its WAL only ever adds to the file, so what the file alone (read as
// immutable, without the WAL) holds for good must be there, the same,
// through the WAL (Lineage). Returns the problem, or "" (also when the file
// alone cannot be read: a checkpoint may be copying into it).
std::string ForeignWal(sqlite3* db, const std::string& path) {
  for (int attempt = 0;; ++attempt) {
    sqlite3* alone = sqlite::OpenFileAlone(path);
    if (alone == nullptr) return "";
    std::optional<Lineage> own = LineageOf(alone);
    sqlite3_close(alone);
    if (!own) return "";
    std::optional<Lineage> seen = LineageOf(db);
    if (!seen) return "";  // the contents' check says why
    const std::string what = Departure(db, *own, *seen);
    if (what.empty()) return "";
    // A live writer's checkpoint copying pages as the file alone was read
    // could show a torn page once; a foreign WAL differs every time.
    if (attempt == 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      continue;
    }
    return fmt::format("{}-wal does not belong to {}: {} (another store's write-ahead log?); "
                       "nothing was changed",
                       path, path, what);
  }
}

// The file alone (without its WAL) is sound: a WAL that makes it unsound
// was written over another file. Its verdict, "" when sound.
std::string CheckFileAlone(const std::string& path) {
  sqlite3* alone = sqlite::OpenFileAlone(path);
  if (alone == nullptr) return "cannot be opened";
  std::string verdict = sqlite::IntegrityCheck(alone);
  sqlite3_close(alone);
  return verdict;
}

// Runs the migrations a file of `from` lacks, each in its transaction. A
// second writer that migrated meanwhile is noticed inside the transaction
// (user_version is read again under the write lock).
void Migrate(Connection& c, std::uint32_t from) {
  for (std::uint32_t v = from + 1; v <= kSchemaVersion; ++v) {
    const std::string doing = fmt::format("migrating the store to schema {}", v);
    Transaction tx(c, true, doing);
    bool done = false;
    {
      Query q(c, "PRAGMA user_version", doing);
      done = q.Step() && q.Int(0) >= v;
    }
    if (!done) c.Exec(kMigrations[v - 1], doing);
    tx.Commit();
  }
}

// The file's schema now: a writer may have migrated it since a reader
// opened it. One PRAGMA, a read of the header page SQLite has cached.
std::uint32_t CurrentVersion(Connection& c) {
  Query q(c, "PRAGMA user_version", "reading the schema version");
  return q.Step() ? static_cast<std::uint32_t>(q.Int(0)) : 0;
}

std::int64_t SqlId(const Connection& c, std::uint64_t id) {
  if (id > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    c.Refuse(fmt::format("snapshot id {} is too large", id));
  }
  return static_cast<std::int64_t>(id);
}

SnapshotRecord SnapshotRow(const Query& q) {
  SnapshotRecord s;
  s.id = static_cast<std::uint64_t>(q.Int(0));
  s.run = q.Int(1);
  s.initiator = static_cast<std::uint32_t>(q.Int(2));
  s.started_us = q.Int(3);
  s.completed_us = q.IsNull(4) ? 0 : q.Int(4);
  s.status = q.Text(5);
  if (!q.IsNull(6)) s.total = q.Int(6);
  if (!q.IsNull(7)) s.failure = q.Text(7);
  return s;
}

}  // namespace

std::string BranchName(std::uint32_t rank) { return fmt::format("N{}", rank); }

std::string CannotWrite(const std::string& path) { return sqlite::CannotWrite(path); }

struct Store::Impl : Connection {
  std::uint32_t version = kSchemaVersion;
};

Store::Store(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;
Store::~Store() = default;

const std::string& Store::path() const { return impl_->path; }
std::uint32_t Store::schema_version() const { return impl_->version; }

namespace {

// Opens `c` read-only on an existing store and checks the store; false, with
// the problem in *error, if it is not one or is damaged. The read-write open
// checks this way first, then reopens: a read-write connection closed on a
// damaged or foreign file could still write to it (a WAL checkpoint).
bool OpenChecked(Connection& c, const std::string& path, std::uint32_t* version,
                 sqlite::Reading reading, std::string* error) {
  if (std::string problem = CheckHeader(path, version); !problem.empty()) {
    *error = problem;
    return false;
  }
  c.path = path;
  c.db = sqlite::OpenForReading(path, reading, error);
  if (c.db == nullptr) return false;
  // Frames in FILE-wal: the store seen is the file with them, and a WAL
  // that is not this file's can hide there (integrity_check, unlike
  // quick_check, compares every index with its table).
  const bool frames = sqlite::WalHasFrames(path);
  if (frames) {
    if (std::string problem = ForeignWal(c.db, path); !problem.empty()) {
      *error = problem;
      return false;
    }
  }
  if (std::string problem = CheckContents(c.db, path, frames); !problem.empty()) {
    if (frames && CheckFileAlone(path).empty()) {
      problem = fmt::format("{}-wal does not belong to {}: the file alone is sound, read "
                            "through it corrupt ({}); nothing was changed",
                            path, path, problem.substr(problem.find(": ") + 2));
    }
    *error = problem;
    return false;
  }
  return true;
}

}  // namespace

std::optional<Store> Store::OpenReadOnly(const std::string& path, std::string* error,
                                         bool brief) {
  auto impl = std::make_unique<Impl>();
  // A version-1 file is read as it is: reading never writes.
  const auto reading = brief ? sqlite::Reading::kBrief : sqlite::Reading::kLasting;
  if (!OpenChecked(*impl, path, &impl->version, reading, error)) return std::nullopt;
  return Store(std::move(impl));
}

std::optional<Store> Store::Open(const std::string& path, bool create,
                                 std::string* error) {
  struct stat st {};
  if (create && ::lstat(path.c_str(), &st) != 0 && errno == ENOENT) {
    if (std::string why = sqlite::CannotWrite(path); !why.empty()) {
      *error = why;
      return std::nullopt;
    }
    auto setup = [](Connection& c) { Migrate(c, 0); };
    if (std::string problem = sqlite::CreateWhole(path, setup); !problem.empty()) {
      *error = problem;
      return std::nullopt;
    }
  }
  std::uint32_t version = 0;
  {
    Connection check;
    if (!OpenChecked(check, path, &version, sqlite::Reading::kBrief, error)) {
      return std::nullopt;
    }
  }
  // Read-only (a file, folder or mount): said so, before SQLite opens it
  // for reading only in silence and its first write fails.
  if (std::string why = sqlite::CannotWrite(path); !why.empty()) {
    *error = why;
    return std::nullopt;
  }
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  impl->db = sqlite::Open(path, sqlite::ReadWriteFlags(), error);
  if (impl->db == nullptr) {
    *error = fmt::format("cannot open {} for writing: {}", path, *error);
    return std::nullopt;
  }
  if (sqlite::OpenedReadOnly(impl->db)) {
    *error = fmt::format("{} is read-only here: it cannot be written", path);
    return std::nullopt;
  }
  try {
    // WAL: readers (store list, the page) never wait for the run's writer,
    // nor it for them. FULL: a commit is on the disk before it returns, so a
    // snapshot reported complete stays complete through a power cut.
    {
      Query mode(*impl, "PRAGMA journal_mode = WAL", "setting WAL mode");
      if (!mode.Step() || mode.Text(0) != "wal") {
        *error = fmt::format("cannot open {}: it cannot use WAL mode here", path);
        return std::nullopt;
      }
    }
    impl->Exec("PRAGMA synchronous = FULL", "setting synchronous = FULL");
    impl->Exec("PRAGMA foreign_keys = ON", "enabling foreign keys");
    // An older file is brought to this schema before anything is written.
    Migrate(*impl, version);
  } catch (const StoreError& e) {
    *error = e.what();
    return std::nullopt;
  }
  return Store(std::move(impl));
}

std::int64_t Store::BeginRun(std::uint32_t ranks, Amount balance, Amount total,
                             std::optional<std::uint64_t> restored_from, const std::string& app) {
  Connection& c = *impl_;
  const std::string doing = "beginning a run";
  if (ranks == 0) c.Refuse("a run needs at least one rank");
  Transaction tx(c, true, doing);
  if (restored_from) {
    Query q(c,
            "SELECT s.status, r.ranks FROM snapshots s JOIN runs r ON r.id = s.run "
            "WHERE s.id = ?",
            doing);
    q.Bind(1, SqlId(c, *restored_from));
    if (!q.Step()) c.Refuse(fmt::format("no snapshot {} to restore from", *restored_from));
    if (q.Text(0) != "complete") {
      c.Refuse(fmt::format("snapshot {} is {}, not complete: a run cannot restore from it",
                           *restored_from, q.Text(0)));
    }
    if (q.Int(1) != ranks) {
      c.Refuse(fmt::format("snapshot {} has {} ranks, not {}", *restored_from, q.Int(1),
                           ranks));
    }
  }
  std::int64_t id = 0;
  {
    Query q(c,
            "INSERT INTO runs (started_us, ranks, balance, total, restored_from, status, "
            "transfers, updated_us, app) VALUES (?, ?, ?, ?, ?, 'live', 0, ?, ?)",
            doing);
    const std::int64_t now = NowUs();
    q.Bind(1, now).Bind(2, ranks).Bind(3, balance).Bind(4, total).Bind(6, now).Bind(7, app.c_str());
    if (restored_from) {
      q.Bind(5, SqlId(c, *restored_from));
    } else {
      q.BindNull(5);
    }
    q.Run();
    id = c.LastInsertRowid();
  }
  tx.Commit();
  return id;
}

void Store::SnapshotStarted(std::int64_t run, std::uint64_t id, std::uint32_t initiator,
                            std::int64_t started_us) {
  Connection& c = *impl_;
  const std::string doing = fmt::format("starting snapshot {}", id);
  Transaction tx(c, true, doing);
  {
    Query q(c, "SELECT ranks FROM runs WHERE id = ?", doing);
    q.Bind(1, run);
    if (!q.Step()) c.Refuse(fmt::format("no run {}", run));
    if (initiator >= q.Int(0)) {
      c.Refuse(fmt::format("run {} has no rank {}", run, initiator));
    }
  }
  {
    Query q(c, "SELECT 1 FROM snapshots WHERE id = ?", doing);
    q.Bind(1, SqlId(c, id));
    if (q.Step()) c.Refuse(fmt::format("snapshot {} is already in the store", id));
  }
  {
    Query q(c,
            "INSERT INTO snapshots (id, run, initiator, started_us, status) "
            "VALUES (?, ?, ?, ?, 'running')",
            doing);
    q.Bind(1, SqlId(c, id)).Bind(2, run).Bind(3, initiator).Bind(4, started_us);
    q.Run();
  }
  tx.Commit();
}

void Store::SnapshotComplete(const SnapshotRecord& s) {
  Connection& c = *impl_;
  const std::string doing = fmt::format("completing snapshot {}", s.id);
  const std::int64_t id = SqlId(c, s.id);
  Transaction tx(c, true, doing);
  std::int64_t ranks = 0;
  {
    Query q(c,
            "SELECT s.run, s.status, r.ranks FROM snapshots s "
            "JOIN runs r ON r.id = s.run WHERE s.id = ?",
            doing);
    q.Bind(1, id);
    if (!q.Step()) c.Refuse(fmt::format("no snapshot {} to complete", s.id));
    if (q.Int(0) != s.run) {
      c.Refuse(fmt::format("snapshot {} belongs to run {}, not {}", s.id, q.Int(0), s.run));
    }
    if (q.Text(1) != "running") {
      c.Refuse(fmt::format("snapshot {} is {}; only a running one can complete", s.id,
                           q.Text(1)));
    }
    ranks = q.Int(2);
  }
  // Whole or refused: a balance for every rank, every ordered pair once.
  const auto n = static_cast<std::size_t>(ranks);
  if (s.balances.size() != n) {
    c.Refuse(fmt::format("snapshot {} has {} balances for {} ranks", s.id,
                         s.balances.size(), n));
  }
  if (s.channels.size() != n * (n - 1)) {
    c.Refuse(fmt::format("snapshot {} has {} channels; {} ranks have {}", s.id,
                         s.channels.size(), n, n * (n - 1)));
  }
  std::vector<bool> seen(n * n, false);
  for (const StoredChannel& ch : s.channels) {
    if (ch.from >= n || ch.to >= n || ch.from == ch.to || seen[ch.from * n + ch.to]) {
      c.Refuse(fmt::format("snapshot {}: channel {}->{} is not one of the run's, or twice",
                           s.id, ch.from, ch.to));
    }
    seen[ch.from * n + ch.to] = true;
  }

  Amount total = 0;
  auto add = [&](Amount a) {
    if (__builtin_add_overflow(total, a, &total)) {
      c.Refuse(fmt::format("snapshot {}: its total does not fit in 64 bits", s.id));
    }
  };
  if (!s.recorded_us.empty() && s.recorded_us.size() != n) {
    c.Refuse(fmt::format("snapshot {} has {} recording times for {} ranks", s.id,
                         s.recorded_us.size(), n));
  }
  {
    Query q(c,
            "INSERT INTO balances (snapshot, rank, balance, recorded_us) VALUES (?, ?, ?, ?)",
            doing);
    for (std::size_t r = 0; r < n; ++r) {
      q.Bind(1, id).Bind(2, static_cast<std::int64_t>(r)).Bind(3, s.balances[r]);
      if (s.recorded_us.empty() || s.recorded_us[r] == 0) {
        q.BindNull(4);
      } else {
        q.Bind(4, s.recorded_us[r]);
      }
      q.Run();
      add(s.balances[r]);
    }
  }
  {
    Query channel(c,
                  "INSERT INTO channels (snapshot, from_rank, to_rank, marker_us) "
                  "VALUES (?, ?, ?, ?)",
                  doing);
    Query transfer(c,
                   "INSERT INTO transfers (snapshot, from_rank, to_rank, position, amount) "
                   "VALUES (?, ?, ?, ?, ?)",
                   doing);
    for (const StoredChannel& ch : s.channels) {
      channel.Bind(1, id).Bind(2, ch.from).Bind(3, ch.to);
      if (ch.marker_us) {
        channel.Bind(4, *ch.marker_us);
      } else {
        channel.BindNull(4);
      }
      channel.Run();
      for (std::size_t i = 0; i < ch.transfers.size(); ++i) {
        transfer.Bind(1, id).Bind(2, ch.from).Bind(3, ch.to)
            .Bind(4, static_cast<std::int64_t>(i)).Bind(5, ch.transfers[i]).Run();
        add(ch.transfers[i]);
      }
    }
  }
  {
    Query q(c,
            "UPDATE snapshots SET status = 'complete', completed_us = ?, total = ? "
            "WHERE id = ?",
            doing);
    q.Bind(1, s.completed_us).Bind(2, total).Bind(3, id).Run();
  }
  if (s.verdict) {
    const StoredVerdict& v = *s.verdict;
    std::vector<std::vector<std::uint32_t>> pairs;
    for (const auto& [from, to] : v.channels) pairs.push_back({from, to});
    // Bound texts must outlive the statement's run.
    const std::string branches = nlohmann::json(v.branches).dump();
    const std::string channels = nlohmann::json(pairs).dump();
    Query q(c,
            "INSERT INTO verdicts (snapshot, property, holds, branches, channels) "
            "VALUES (?, ?, ?, ?, ?)",
            doing);
    q.Bind(1, id).Bind(2, v.property.c_str()).Bind(3, std::int64_t{v.holds ? 1 : 0})
        .Bind(4, branches.c_str()).Bind(5, channels.c_str()).Run();
  }
  tx.Commit();
}

const char* Store::FailureName(Failure f) {
  switch (f) {
    case Failure::kTimeout: return "timeout";
    case Failure::kRunEnded: return "run_ended";
    case Failure::kRunDied: return "run_died";
  }
  return "run_ended";
}

void Store::SnapshotFailed(std::int64_t run, std::uint64_t id, Failure why) {
  Connection& c = *impl_;
  const std::string doing = fmt::format("failing snapshot {}", id);
  Transaction tx(c, true, doing);
  {
    Query q(c, "SELECT run, status FROM snapshots WHERE id = ?", doing);
    q.Bind(1, SqlId(c, id));
    if (!q.Step()) c.Refuse(fmt::format("no snapshot {} to fail", id));
    if (q.Int(0) != run) {
      c.Refuse(fmt::format("snapshot {} belongs to run {}, not {}", id, q.Int(0), run));
    }
    if (q.Text(1) == "complete") {
      c.Refuse(fmt::format("snapshot {} is complete; it cannot fail", id));
    }
  }
  {
    Query q(c,
            "UPDATE snapshots SET status = 'failed', failure = ? "
            "WHERE id = ? AND status = 'running'",
            doing);
    q.Bind(1, FailureName(why)).Bind(2, SqlId(c, id)).Run();
  }
  tx.Commit();
}

void Store::FailRunning(std::int64_t run) {
  Connection& c = *impl_;
  Query q(c,
          "UPDATE snapshots SET status = 'failed', failure = 'run_died' "
          "WHERE run = ? AND status = 'running'",
          fmt::format("failing the running snapshots of run {}", run));
  q.Bind(1, run).Run();
}

void Store::RunProgress(std::int64_t run, std::uint64_t transfers, std::int64_t now_us) {
  Connection& c = *impl_;
  const std::string doing = fmt::format("recording the progress of run {}", run);
  Query q(c,
          "UPDATE runs SET transfers = ?, updated_us = ? WHERE id = ? AND status = 'live'",
          doing);
  q.Bind(1, static_cast<std::int64_t>(transfers)).Bind(2, now_us).Bind(3, run).Run();
}

void Store::EndRun(std::int64_t run, bool died, std::optional<std::uint64_t> transfers,
                   std::int64_t now_us) {
  Connection& c = *impl_;
  const std::string doing = fmt::format("ending run {}", run);
  Transaction tx(c, true, doing);
  {
    Query q(c, "SELECT status FROM runs WHERE id = ?", doing);
    q.Bind(1, run);
    if (!q.Step()) c.Refuse(fmt::format("no run {}", run));
    if (q.Text(0) != "live") {
      c.Refuse(fmt::format("run {} is {}, not live: it cannot end again", run,
                           q.IsNull(0) ? "of schema 1" : q.Text(0)));
    }
  }
  {
    Query q(c,
            "UPDATE runs SET status = ?, ended_us = ?, "
            "updated_us = CASE WHEN ? THEN updated_us ELSE ? END, "
            "transfers = COALESCE(?, transfers) WHERE id = ?",
            doing);
    // A run that died keeps its last heartbeat: its count is that moment's.
    q.Bind(1, died ? "died" : "ended").Bind(2, now_us).Bind(3, died ? 1 : 0).Bind(4, now_us);
    if (transfers) {
      q.Bind(5, static_cast<std::int64_t>(*transfers));
    } else {
      q.BindNull(5);
    }
    q.Bind(6, run).Run();
  }
  {
    Query q(c,
            "UPDATE snapshots SET status = 'failed', failure = ? "
            "WHERE run = ? AND status = 'running'",
            doing);
    q.Bind(1, FailureName(died ? Failure::kRunDied : Failure::kRunEnded)).Bind(2, run).Run();
  }
  tx.Commit();
}

std::vector<StoredRun> Store::Runs() const {
  Connection& c = *impl_;
  std::vector<StoredRun> runs;
  impl_->version = CurrentVersion(c);
  // Schema 1 has none of the last four columns: read as unknown.
  Query q(c,
          impl_->version >= 4   ? "SELECT id, started_us, ranks, balance, total, restored_from, "
                                  "status, ended_us, transfers, updated_us, app FROM runs ORDER BY id"
          : impl_->version >= 2 ? "SELECT id, started_us, ranks, balance, total, restored_from, "
                                  "status, ended_us, transfers, updated_us, NULL FROM runs "
                                  "ORDER BY id"
                                : "SELECT id, started_us, ranks, balance, total, restored_from, "
                                  "NULL, NULL, NULL, NULL, NULL FROM runs ORDER BY id",
          "listing runs");
  while (q.Step()) {
    StoredRun r;
    r.id = q.Int(0);
    r.started_us = q.Int(1);
    r.ranks = static_cast<std::uint32_t>(q.Int(2));
    r.balance = q.Int(3);
    r.total = q.Int(4);
    if (!q.IsNull(5)) r.restored_from = static_cast<std::uint64_t>(q.Int(5));
    r.status = q.Text(6);
    if (!q.IsNull(7)) r.ended_us = q.Int(7);
    if (!q.IsNull(8)) r.transfers = static_cast<std::uint64_t>(q.Int(8));
    if (!q.IsNull(9)) r.updated_us = q.Int(9);
    if (!q.IsNull(10)) r.app = q.Text(10);
    runs.push_back(r);
  }
  return runs;
}

namespace {

// A verdict's row from column `at` on (property, holds, branches, channels):
// its reason's two JSON lists parsed, or the snapshot refused as damaged.
StoredVerdict VerdictRow(Connection& c, Query& q, int at, std::int64_t id) {
  StoredVerdict v;
  v.property = q.Text(at);
  v.holds = q.Int(at + 1) != 0;
  const nlohmann::json branches = nlohmann::json::parse(q.Text(at + 2), nullptr, false);
  const nlohmann::json channels = nlohmann::json::parse(q.Text(at + 3), nullptr, false);
  try {
    v.branches = branches.get<std::vector<std::uint32_t>>();
    for (const auto& p : channels.get<std::vector<std::vector<std::uint32_t>>>()) {
      if (p.size() != 2) throw std::invalid_argument("not a pair");
      v.channels.emplace_back(p[0], p[1]);
    }
  } catch (const std::exception&) {
    c.Refuse(fmt::format("snapshot {}: its verdict's reason is damaged", id));
  }
  return v;
}

}  // namespace

std::vector<SnapshotRecord> Store::Snapshots() const {
  Connection& c = *impl_;
  std::vector<SnapshotRecord> snapshots;
  impl_->version = CurrentVersion(c);
  {
    Query q(c, SnapshotsSql(impl_->version, false), "listing snapshots");
    while (q.Step()) snapshots.push_back(SnapshotRow(q));
  }
  // Jobs and locks: each complete snapshot's verdict, which a listing shows
  // in place of a total (one query; the rows are by id, as the list is).
  if (impl_->version >= 4) {
    Query q(c, "SELECT snapshot, property, holds, branches, channels FROM verdicts ORDER BY snapshot",
            "listing verdicts");
    auto at = snapshots.begin();
    while (q.Step()) {
      const std::int64_t id = q.Int(0);
      while (at != snapshots.end() && static_cast<std::int64_t>(at->id) < id) ++at;
      if (at != snapshots.end() && static_cast<std::int64_t>(at->id) == id) {
        at->verdict = VerdictRow(c, q, 1, id);
      }
    }
  }
  return snapshots;
}

namespace {

// The full record, inside the caller's read transaction (so that its parts
// come from one moment of the file).
std::optional<SnapshotRecord> FindIn(Connection& c, std::uint32_t version, std::int64_t id) {
  const std::string doing = fmt::format("reading snapshot {}", id);

  SnapshotRecord s;
  {
    Query q(c, SnapshotsSql(version, true), doing);
    q.Bind(1, id);
    if (!q.Step()) return std::nullopt;
    s = SnapshotRow(q);
  }
  if (s.status != "complete") return s;
  {
    Query q(c,
            version >= 2
                ? "SELECT balance, recorded_us FROM balances WHERE snapshot = ? ORDER BY rank"
                : "SELECT balance, NULL FROM balances WHERE snapshot = ? ORDER BY rank",
            doing);
    q.Bind(1, id);
    while (q.Step()) {
      s.balances.push_back(q.Int(0));
      s.recorded_us.push_back(q.IsNull(1) ? 0 : q.Int(1));
    }
  }
  std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> index;
  {
    Query q(c,
            version >= 2 ? "SELECT from_rank, to_rank, marker_us FROM channels "
                           "WHERE snapshot = ? ORDER BY from_rank, to_rank"
                         : "SELECT from_rank, to_rank, NULL FROM channels "
                           "WHERE snapshot = ? ORDER BY from_rank, to_rank",
            doing);
    q.Bind(1, id);
    while (q.Step()) {
      index[{q.Int(0), q.Int(1)}] = s.channels.size();
      StoredChannel ch{static_cast<std::uint32_t>(q.Int(0)), static_cast<std::uint32_t>(q.Int(1)),
                       {}, std::nullopt};
      if (!q.IsNull(2)) ch.marker_us = q.Int(2);
      s.channels.push_back(std::move(ch));
    }
  }
  {
    Query q(c,
            "SELECT from_rank, to_rank, amount FROM transfers WHERE snapshot = ? "
            "ORDER BY from_rank, to_rank, position",
            doing);
    q.Bind(1, id);
    while (q.Step()) {
      auto it = index.find({q.Int(0), q.Int(1)});
      // The foreign key makes this impossible in a sound file.
      if (it == index.end()) c.Refuse(fmt::format("snapshot {}: a transfer on no channel", id));
      s.channels[it->second].transfers.push_back(q.Int(2));
    }
  }
  if (version >= 4) {
    Query q(c, "SELECT property, holds, branches, channels FROM verdicts WHERE snapshot = ?",
            doing);
    q.Bind(1, id);
    if (q.Step()) s.verdict = VerdictRow(c, q, 0, id);
  }
  return s;
}

}  // namespace

std::optional<SnapshotRecord> Store::Find(std::uint64_t id) const {
  Connection& c = *impl_;
  Transaction tx(c, false, fmt::format("reading snapshot {}", id));
  impl_->version = CurrentVersion(c);
  std::optional<SnapshotRecord> s = FindIn(c, impl_->version, SqlId(c, id));
  tx.Commit();
  return s;
}

std::optional<SnapshotRecord> Store::LatestComplete() const {
  Connection& c = *impl_;
  const std::string doing = "reading the latest complete snapshot";
  Transaction tx(c, false, doing);
  impl_->version = CurrentVersion(c);
  std::optional<SnapshotRecord> s;
  std::optional<std::int64_t> id;
  {
    Query q(c, "SELECT MAX(id) FROM snapshots WHERE status = 'complete'", doing);
    if (q.Step() && !q.IsNull(0)) id = q.Int(0);
  }
  if (id) s = FindIn(c, impl_->version, *id);
  tx.Commit();
  return s;
}

std::uint64_t Store::NextSnapshotId() const {
  Connection& c = *impl_;
  Query q(c, "SELECT COALESCE(MAX(id), 0) + 1 FROM snapshots", "finding the next snapshot id");
  q.Step();
  return static_cast<std::uint64_t>(q.Int(0));
}

// ---- Verifying ----------------------------------------------------------

namespace {

// A run's row as Verify needs it.
struct RunRow {
  std::int64_t ranks = 0;
  Amount balance = 0, total = 0;
  std::optional<std::int64_t> restored_from;
  std::optional<std::string> status;  // nullopt: NULL (a version-1 row, or no column)
  bool bank = true;  // schema 4: a run of jobs or locks conserves no total
};

std::map<std::int64_t, RunRow> RunRows(Connection& c, std::uint32_t version) {
  std::map<std::int64_t, RunRow> runs;
  Query q(c,
          version >= 4   ? "SELECT id, ranks, balance, total, restored_from, status, app FROM runs"
          : version >= 2 ? "SELECT id, ranks, balance, total, restored_from, status, NULL FROM runs"
                         : "SELECT id, ranks, balance, total, restored_from, NULL, NULL FROM runs",
          "verifying the runs");
  while (q.Step()) {
    RunRow r;
    r.ranks = q.Int(1);
    r.balance = q.Int(2);
    r.total = q.Int(3);
    if (!q.IsNull(4)) r.restored_from = q.Int(4);
    if (!q.IsNull(5)) r.status = q.Text(5);
    r.bank = q.IsNull(6) || q.Text(6) == "bank";
    runs[q.Int(0)] = r;
  }
  return runs;
}

// A snapshot's row, read raw: Verify must see a NULL where SnapshotRow
// would read 0.
struct SnapshotRow_ {
  std::int64_t id = 0, run = 0, initiator = 0;
  std::optional<std::int64_t> completed_us, total;
  std::string status;
};

constexpr const char* kRawSnapshotColumns =
    "SELECT id, run, initiator, completed_us, status, total FROM snapshots";

SnapshotRow_ RawSnapshotRow(const Query& q) {
  SnapshotRow_ s;
  s.id = q.Int(0);
  s.run = q.Int(1);
  s.initiator = q.Int(2);
  if (!q.IsNull(3)) s.completed_us = q.Int(3);
  s.status = q.Text(4);
  if (!q.IsNull(5)) s.total = q.Int(5);
  return s;
}

// "N0->N1, N0->N2 and 4 more": a list, its first few named.
std::string FirstFew(const std::vector<std::string>& items) {
  constexpr std::size_t kNamed = 3;
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < kNamed; ++i) {
    out += (i ? ", " : "") + items[i];
  }
  if (items.size() > kNamed) out += fmt::format(" and {} more", items.size() - kNamed);
  return out;
}

std::string Rank(std::int64_t r) {
  return r >= 0 && r <= std::numeric_limits<std::uint32_t>::max()
             ? BranchName(static_cast<std::uint32_t>(r))
             : fmt::format("rank {}", r);
}
std::string Channel(std::int64_t from, std::int64_t to) {
  return Rank(from) + "->" + Rank(to);
}

// Adds without overflowing; false once the sum no longer fits.
bool Add(Amount* sum, Amount a) { return !__builtin_add_overflow(*sum, a, sum); }

// Everything wrong with one snapshot, joined by "; " ("" when sound). Runs
// inside the caller's read transaction.
std::string CheckSnapshot(Connection& c, const std::map<std::int64_t, RunRow>& runs,
                          const SnapshotRow_& s) {
  const std::string doing = fmt::format("verifying snapshot {}", s.id);
  std::vector<std::string> problems;
  auto run_it = runs.find(s.run);
  const RunRow* run = run_it == runs.end() ? nullptr : &run_it->second;
  const std::int64_t n = run ? run->ranks : 0;
  auto in_range = [&](std::int64_t r) { return run == nullptr || (r >= 0 && r < n); };

  if (run == nullptr) problems.push_back(fmt::format("its run {} is not in the store", s.run));
  // A rank count no run could have (the row is damaged) would have the
  // checks below list billions of missing parts: that run's row is the news.
  constexpr std::int64_t kMostRanks = 1 << 20;
  if (run != nullptr && (n < 1 || n > kMostRanks)) {
    return fmt::format("its run {} has {} ranks", s.run, n);
  }
  const bool complete = s.status == "complete";
  if (!complete && s.status != "failed" && s.status != "running") {
    problems.push_back(
        fmt::format("its status '{}' is not running, complete or failed", s.status));
  }
  if (!in_range(s.initiator)) {
    problems.push_back(fmt::format("its initiator {} is not a rank of run {} ({} ranks)",
                                   Rank(s.initiator), s.run, n));
  }

  std::int64_t balance_rows = 0, channel_rows = 0, transfer_rows = 0;
  bool overflow = false;
  Amount sum = 0;
  // Balances: one per rank of the run, none negative.
  std::vector<bool> has_part(static_cast<std::size_t>(std::max<std::int64_t>(n, 0)), false);
  std::vector<std::string> stray, negative;
  {
    Query q(c, "SELECT rank, balance FROM balances WHERE snapshot = ? ORDER BY rank", doing);
    q.Bind(1, s.id);
    while (q.Step()) {
      ++balance_rows;
      const std::int64_t r = q.Int(0);
      const Amount b = q.Int(1);
      if (!in_range(r)) {
        stray.push_back(Rank(r));
      } else if (run != nullptr) {
        has_part[static_cast<std::size_t>(r)] = true;
      }
      if (b < 0) negative.push_back(fmt::format("{}'s recorded balance is ${}", Rank(r), b));
      overflow |= !Add(&sum, b);
    }
  }
  // Channels: every ordered pair of the run's ranks, once (the primary key).
  std::set<std::pair<std::int64_t, std::int64_t>> channels;
  std::vector<std::string> stray_channels;
  {
    Query q(c, "SELECT from_rank, to_rank FROM channels WHERE snapshot = ?", doing);
    q.Bind(1, s.id);
    while (q.Step()) {
      ++channel_rows;
      const std::int64_t from = q.Int(0), to = q.Int(1);
      if (!in_range(from) || !in_range(to) || from == to) {
        stray_channels.push_back(Channel(from, to));
      }
      channels.insert({from, to});
    }
  }
  // Transfers: on a recorded channel, at positions 0, 1, ... , none negative.
  std::vector<std::string> unrecorded, gaps;
  {
    Query q(c,
            "SELECT from_rank, to_rank, position, amount FROM transfers WHERE snapshot = ? "
            "ORDER BY from_rank, to_rank, position",
            doing);
    q.Bind(1, s.id);
    std::pair<std::int64_t, std::int64_t> at{-1, -1};
    std::int64_t next = 0;
    while (q.Step()) {
      ++transfer_rows;
      const std::pair<std::int64_t, std::int64_t> ch{q.Int(0), q.Int(1)};
      const std::int64_t position = q.Int(2);
      const Amount amount = q.Int(3);
      if (ch != at) {
        at = ch;
        next = 0;
        if (channels.count(ch) == 0) unrecorded.push_back(Channel(ch.first, ch.second));
      }
      if (position != next) {
        gaps.push_back(fmt::format("a transfer of {} is at position {} where {} belongs",
                                   Channel(ch.first, ch.second), position, next));
        next = position;  // one report per gap, not one per later transfer
      }
      ++next;
      if (amount < 0) {
        negative.push_back(
            fmt::format("a transfer of ${} on {}", amount, Channel(ch.first, ch.second)));
      }
      overflow |= !Add(&sum, amount);
    }
  }

  if (complete) {
    if (!s.completed_us) problems.push_back("it is complete without a completion time");
    if (run != nullptr) {
      std::vector<std::string> missing;
      for (std::int64_t r = 0; r < n; ++r) {
        if (!has_part[static_cast<std::size_t>(r)]) missing.push_back(Rank(r));
      }
      if (missing.size() == 1) {
        problems.push_back(fmt::format("rank {}'s part is missing", missing[0]));
      } else if (!missing.empty()) {
        problems.push_back(fmt::format("the parts of {} are missing ({} of {} ranks)",
                                       FirstFew(missing), missing.size(), n));
      }
      std::vector<std::string> missing_channels;
      for (std::int64_t from = 0; from < n; ++from) {
        for (std::int64_t to = 0; to < n; ++to) {
          if (from != to && channels.count({from, to}) == 0) {
            missing_channels.push_back(Channel(from, to));
          }
        }
      }
      if (!missing_channels.empty()) {
        problems.push_back(fmt::format("channel{} {} {} missing ({} of {})",
                                       missing_channels.size() == 1 ? "" : "s",
                                       FirstFew(missing_channels),
                                       missing_channels.size() == 1 ? "is" : "are",
                                       missing_channels.size(), n * (n - 1)));
      }
    }
    if (!stray.empty()) {
      problems.push_back(fmt::format("it has a part for {}, not a rank of run {}",
                                     FirstFew(stray), s.run));
    }
    if (!stray_channels.empty()) {
      problems.push_back(fmt::format("it has channel {}, not one of run {}'s",
                                     FirstFew(stray_channels), s.run));
    }
    if (!unrecorded.empty()) {
      problems.push_back(fmt::format("it has transfers on {}, a channel it did not record",
                                     FirstFew(unrecorded)));
    }
    if (!gaps.empty()) problems.push_back(FirstFew(gaps));
    if (!negative.empty()) problems.push_back(FirstFew(negative));
    if (!s.total) {
      problems.push_back("it is complete without a total");
    } else if (overflow) {
      problems.push_back("its parts add up to more than 64 bits hold");
    } else if (sum != *s.total) {
      problems.push_back(fmt::format("its parts add up to ${}, not its total ${}", sum, *s.total));
    }
    if (s.total && run != nullptr && run->bank && *s.total != run->total) {
      problems.push_back(
          fmt::format("its total ${} is not run {}'s ${}", *s.total, s.run, run->total));
    }
  } else {
    // Only a complete snapshot has parts, a total and a completion time.
    if (s.total) problems.push_back(fmt::format("it is {} yet has a total", s.status));
    if (s.completed_us) {
      problems.push_back(fmt::format("it is {} yet has a completion time", s.status));
    }
    if (balance_rows + channel_rows + transfer_rows > 0) {
      problems.push_back(fmt::format("it is {} yet holds parts ({} balance, {} channel and {} "
                                     "transfer rows)",
                                     s.status, balance_rows, channel_rows, transfer_rows));
    }
  }
  std::string joined;
  for (const std::string& p : problems) joined += (joined.empty() ? "" : "; ") + p;
  return joined;
}

// Everything wrong with a run's row, "" when sound.
std::string CheckRun(Connection& c, std::int64_t id, const RunRow& r) {
  const std::string doing = fmt::format("verifying run {}", id);
  std::vector<std::string> problems;
  if (r.ranks < 1) problems.push_back(fmt::format("it has {} ranks", r.ranks));
  if (r.balance < 0) {
    problems.push_back(fmt::format("its starting balance ${} is negative", r.balance));
  }
  if (r.status && *r.status != "live" && *r.status != "ended" && *r.status != "died") {
    problems.push_back(fmt::format("its status '{}' is not live, ended or died", *r.status));
  }
  if (!r.restored_from) {
    Amount total = 0;
    if (__builtin_mul_overflow(r.balance, r.ranks, &total) || total != r.total) {
      problems.push_back(fmt::format("its total ${} is not {} ranks of ${}", r.total, r.ranks,
                                     r.balance));
    }
  } else {
    // The run began from that snapshot: it must be there, complete, of the
    // same ranks, and the run's total is its total.
    Query q(c,
            "SELECT s.status, s.total, r.ranks FROM snapshots s LEFT JOIN runs r ON r.id = s.run "
            "WHERE s.id = ?",
            doing);
    q.Bind(1, *r.restored_from);
    if (!q.Step()) {
      problems.push_back(fmt::format("it was restored from snapshot {}, which is not in the store",
                                     *r.restored_from));
    } else if (q.Text(0) != "complete") {
      problems.push_back(fmt::format("it was restored from snapshot {}, which is {}",
                                     *r.restored_from, q.Text(0)));
    } else {
      if (!q.IsNull(2) && q.Int(2) != r.ranks) {
        problems.push_back(fmt::format("it has {} ranks, but snapshot {} it was restored from "
                                       "has {}",
                                       r.ranks, *r.restored_from, q.Int(2)));
      }
      if (!q.IsNull(1) && q.Int(1) != r.total) {
        problems.push_back(fmt::format("its total ${} is not ${}, that of snapshot {} it was "
                                       "restored from",
                                       r.total, q.Int(1), *r.restored_from));
      }
    }
  }
  std::string joined;
  for (const std::string& p : problems) joined += (joined.empty() ? "" : "; ") + p;
  return joined;
}

}  // namespace

Verification Store::Verify() const {
  Connection& c = *impl_;
  const std::string doing = "verifying the store";
  Transaction tx(c, false, doing);
  impl_->version = CurrentVersion(c);
  Verification v;
  // Every index against its table first: the rows checked below are read
  // through the indexes too.
  if (std::string verdict = sqlite::IntegrityCheck(c.db); !verdict.empty()) {
    v.problems.push_back({"the file", verdict});
  }
  const std::map<std::int64_t, RunRow> runs = RunRows(c, impl_->version);
  for (const auto& [id, r] : runs) {
    if (std::string what = CheckRun(c, id, r); !what.empty()) {
      v.problems.push_back({fmt::format("run {}", id), what});
    }
  }
  // By snapshot id: the snapshots' own problems, and parts of snapshots
  // that are not there (possible only where foreign keys were off).
  std::map<std::int64_t, std::string> bad;
  {
    static const std::string sql = std::string(kRawSnapshotColumns) + " ORDER BY id";
    std::vector<SnapshotRow_> rows;
    {
      Query q(c, sql.c_str(), doing);
      while (q.Step()) rows.push_back(RawSnapshotRow(q));
    }
    for (const SnapshotRow_& s : rows) {
      ++(s.status == "complete" ? v.complete : v.other);
      if (std::string what = CheckSnapshot(c, runs, s); !what.empty()) bad[s.id] = what;
    }
  }
  {
    Query q(c,
            "SELECT snapshot, COUNT(*) FROM (SELECT snapshot FROM balances UNION ALL "
            "SELECT snapshot FROM channels UNION ALL SELECT snapshot FROM transfers) "
            "WHERE snapshot NOT IN (SELECT id FROM snapshots) GROUP BY snapshot",
            doing);
    while (q.Step()) {
      bad[q.Int(0)] = fmt::format("it is not in the store, yet parts of it are ({} rows)",
                                  q.Int(1));
    }
  }
  for (const auto& [id, what] : bad) v.problems.push_back({fmt::format("snapshot {}", id), what});
  tx.Commit();
  return v;
}

std::optional<Verification> Store::Verify(std::uint64_t id) const {
  Connection& c = *impl_;
  const std::int64_t sql_id = SqlId(c, id);
  const std::string doing = fmt::format("verifying snapshot {}", id);
  Transaction tx(c, false, doing);
  impl_->version = CurrentVersion(c);
  std::optional<SnapshotRow_> row;
  {
    static const std::string sql = std::string(kRawSnapshotColumns) + " WHERE id = ?";
    Query q(c, sql.c_str(), doing);
    q.Bind(1, sql_id);
    if (q.Step()) row = RawSnapshotRow(q);
  }
  if (!row) return std::nullopt;
  Verification v;
  ++(row->status == "complete" ? v.complete : v.other);
  if (std::string what = CheckSnapshot(c, RunRows(c, impl_->version), *row); !what.empty()) {
    v.problems.push_back({fmt::format("snapshot {}", id), what});
  }
  tx.Commit();
  return v;
}

// ---- Pruning ------------------------------------------------------------

PruneResult Store::Prune(std::uint32_t keep) {
  Connection& c = *impl_;
  const std::string doing = "pruning the store";
  if (keep == 0) c.Refuse("prune keeps at least the latest complete snapshot of each run");
  // A run that holds the writer's lock may yet write the snapshots pruned;
  // one that does not has stopped, whatever its status says.
  std::string held;
  std::optional<WriterLock> lock = WriterLock::Take(path(), &held);
  if (!lock) c.Refuse(held);
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
  // (A store open for writing has the latest schema: verdicts exist.)
  for (const char* sql : {"DELETE FROM verdicts WHERE snapshot = ?",
                          "DELETE FROM transfers WHERE snapshot = ?",
                          "DELETE FROM channels WHERE snapshot = ?",
                          "DELETE FROM balances WHERE snapshot = ?",
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

void Store::SetMaxPages(std::uint32_t pages) {
  Connection& c = *impl_;
  std::string sql = fmt::format("PRAGMA max_page_count = {}", pages);
  c.Exec(sql.c_str(), "limiting the file's size");
}

}  // namespace cutline::store
