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
#include <utility>

#include "store/sqlite.h"

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
};
constexpr std::uint32_t kSchemaVersion = std::size(kMigrations);
static_assert(kApplicationId == 1129665612u);  // as kMigrations[0] spells it

constexpr const char* kTables[] = {"runs", "snapshots", "balances", "channels",
                                   "transfers"};

constexpr const char* kSnapshotColumns =
    "SELECT id, run, initiator, started_us, completed_us, status, total "
    "FROM snapshots";

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
// every page and b-tree sound and the store's tables there. Returns the
// problem, or "".
std::string CheckContents(sqlite3* db, const std::string& path) {
  auto corrupt = [&](const std::string& why) {
    return fmt::format("{} is corrupt: {}", path, sqlite::OneLine(why));
  };
  if (std::string verdict = sqlite::QuickCheck(db); !verdict.empty()) return corrupt(verdict);
  std::set<std::string> tables;
  std::string error;
  if (!sqlite::TableNames(db, &tables, &error)) return corrupt(error);
  for (const char* t : kTables) {
    if (tables.count(t) == 0) return corrupt(fmt::format("its table {} is missing", t));
  }
  return "";
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
  return s;
}

}  // namespace

std::string BranchName(std::uint32_t rank) { return fmt::format("N{}", rank); }

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
                 std::string* error) {
  if (std::string problem = CheckHeader(path, version); !problem.empty()) {
    *error = problem;
    return false;
  }
  c.path = path;
  c.db = sqlite::Open(path, sqlite::ReadOnlyFlags(), error);
  if (c.db == nullptr) {
    *error = fmt::format("cannot open {}: {}", path, *error);
    return false;
  }
  if (std::string problem = CheckContents(c.db, path); !problem.empty()) {
    *error = problem;
    return false;
  }
  return true;
}

}  // namespace

std::optional<Store> Store::OpenReadOnly(const std::string& path, std::string* error) {
  auto impl = std::make_unique<Impl>();
  // A version-1 file is read as it is: reading never writes.
  if (!OpenChecked(*impl, path, &impl->version, error)) return std::nullopt;
  return Store(std::move(impl));
}

std::optional<Store> Store::Open(const std::string& path, bool create,
                                 std::string* error) {
  struct stat st {};
  if (create && ::lstat(path.c_str(), &st) != 0 && errno == ENOENT) {
    auto setup = [](Connection& c) { Migrate(c, 0); };
    if (std::string problem = sqlite::CreateWhole(path, setup); !problem.empty()) {
      *error = problem;
      return std::nullopt;
    }
  }
  std::uint32_t version = 0;
  {
    Connection check;
    if (!OpenChecked(check, path, &version, error)) return std::nullopt;
  }
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  impl->db = sqlite::Open(path, sqlite::ReadWriteFlags(), error);
  if (impl->db == nullptr) {
    *error = fmt::format("cannot open {} for writing: {}", path, *error);
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
                             std::optional<std::uint64_t> restored_from) {
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
            "transfers, updated_us) VALUES (?, ?, ?, ?, ?, 'live', 0, ?)",
            doing);
    const std::int64_t now = NowUs();
    q.Bind(1, now).Bind(2, ranks).Bind(3, balance).Bind(4, total).Bind(6, now);
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
  tx.Commit();
}

void Store::SnapshotFailed(std::int64_t run, std::uint64_t id) {
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
    Query q(c, "UPDATE snapshots SET status = 'failed' WHERE id = ? AND status = 'running'",
            doing);
    q.Bind(1, SqlId(c, id)).Run();
  }
  tx.Commit();
}

void Store::FailRunning(std::int64_t run) {
  Connection& c = *impl_;
  Query q(c, "UPDATE snapshots SET status = 'failed' WHERE run = ? AND status = 'running'",
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
    Query q(c, "UPDATE snapshots SET status = 'failed' WHERE run = ? AND status = 'running'",
            doing);
    q.Bind(1, run).Run();
  }
  tx.Commit();
}

std::vector<StoredRun> Store::Runs() const {
  Connection& c = *impl_;
  std::vector<StoredRun> runs;
  impl_->version = CurrentVersion(c);
  // Schema 1 has none of the last four columns: read as unknown.
  Query q(c,
          impl_->version >= 2
              ? "SELECT id, started_us, ranks, balance, total, restored_from, status, "
                "ended_us, transfers, updated_us FROM runs ORDER BY id"
              : "SELECT id, started_us, ranks, balance, total, restored_from, NULL, NULL, "
                "NULL, NULL FROM runs ORDER BY id",
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
    runs.push_back(r);
  }
  return runs;
}

std::vector<SnapshotRecord> Store::Snapshots() const {
  Connection& c = *impl_;
  std::vector<SnapshotRecord> snapshots;
  static const std::string sql = std::string(kSnapshotColumns) + " ORDER BY id";
  Query q(c, sql.c_str(), "listing snapshots");
  while (q.Step()) snapshots.push_back(SnapshotRow(q));
  return snapshots;
}

namespace {

// The full record, inside the caller's read transaction (so that its parts
// come from one moment of the file).
std::optional<SnapshotRecord> FindIn(Connection& c, std::uint32_t version, std::int64_t id) {
  const std::string doing = fmt::format("reading snapshot {}", id);
  static const std::string sql = std::string(kSnapshotColumns) + " WHERE id = ?";
  SnapshotRecord s;
  {
    Query q(c, sql.c_str(), doing);
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

void Store::SetMaxPages(std::uint32_t pages) {
  Connection& c = *impl_;
  std::string sql = fmt::format("PRAGMA max_page_count = {}", pages);
  c.Exec(sql.c_str(), "limiting the file's size");
}

}  // namespace cutline::store
