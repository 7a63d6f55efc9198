// The store over SQLite. docs/store.md gives the schema and the reasons for
// the transaction rule, WAL and synchronous=FULL.
#include "store/store.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <utility>

namespace cutline::store {
namespace {

// The marker that tells a cutline store from any other file: SQLite's header
// holds an application id (offset 68) and a user version (offset 60), both
// big-endian, both written once when the store is created.
constexpr std::uint32_t kApplicationId = 0x4355544C;  // "CUTL"
constexpr std::uint32_t kSchemaVersion = 1;
constexpr char kSqliteMagic[] = "SQLite format 3";  // 16 bytes with its NUL
constexpr int kBusyTimeoutMs = 5000;

constexpr const char* kSchema = R"sql(
PRAGMA application_id = 1129665612;
PRAGMA user_version = 1;
BEGIN;
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
COMMIT;
)sql";
static_assert(kApplicationId == 1129665612u);  // as kSchema spells it

constexpr const char* kTables[] = {"runs", "snapshots", "balances", "channels",
                                   "transfers"};

constexpr const char* kSnapshotColumns =
    "SELECT id, run, initiator, started_us, completed_us, status, total "
    "FROM snapshots";

std::uint32_t BigEndian32(const unsigned char* p) {
  return std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 |
         std::uint32_t{p[2]} << 8 | std::uint32_t{p[3]};
}

std::int64_t NowUs() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// SQLite messages are one line already; a quick_check report may not be.
std::string OneLine(std::string s) {
  for (char& c : s) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return s;
}

// Looks at the file itself, before SQLite does, so that a file that is not
// a cutline store is refused without SQLite ever opening it: a read-write
// open of another program's database may roll back its hot journal or
// checkpoint its WAL, which would change a file we were told to leave alone.
// Returns the problem, or "" when the header is a cutline store's.
std::string CheckHeader(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return fmt::format("{}: no such file", path);
    return fmt::format("cannot read {}: {}", path, std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) return fmt::format("{} is a directory, not a cutline store", path);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fmt::format("cannot read {}: {}", path, std::strerror(errno));
  unsigned char header[100];
  ssize_t got = ::read(fd, header, sizeof header);
  int read_errno = errno;
  ::close(fd);
  if (got < 0) return fmt::format("cannot read {}: {}", path, std::strerror(read_errno));
  if (got == 0) return fmt::format("{} is empty, not a cutline store", path);
  if (got < static_cast<ssize_t>(sizeof header) ||
      std::memcmp(header, kSqliteMagic, sizeof kSqliteMagic) != 0) {
    return fmt::format("{} is not a cutline store (not an SQLite database)", path);
  }
  if (BigEndian32(header + 68) != kApplicationId) {
    return fmt::format("{} is not a cutline store (an SQLite database of another kind)",
                       path);
  }
  std::uint32_t version = BigEndian32(header + 60);
  if (version > kSchemaVersion) {
    return fmt::format(
        "{} was written by a newer cutline (store schema {}; this one reads {})", path,
        version, kSchemaVersion);
  }
  if (version == 0) return fmt::format("{} is corrupt: it has no schema version", path);
  return "";
}

// One SQLite connection, its cached statements, and the error rule: any
// failure becomes a StoreError naming the file, SQLite's reason and what
// was being done.
struct Connection {
  std::string path;
  sqlite3* db = nullptr;
  std::map<const char*, sqlite3_stmt*> statements;  // keyed by the SQL literal

  Connection() = default;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  ~Connection() {
    for (auto& [sql, stmt] : statements) sqlite3_finalize(stmt);
    if (db != nullptr) sqlite3_close(db);
  }

  [[noreturn]] void Fail(const std::string& doing) const {
    throw StoreError(
        fmt::format("{}: {} (while {})", path, OneLine(sqlite3_errmsg(db)), doing));
  }
  [[noreturn]] void Refuse(const std::string& why) const {
    throw StoreError(fmt::format("{}: {}", path, why));
  }
  void Exec(const char* sql, const std::string& doing) {
    if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK) Fail(doing);
  }
  sqlite3_stmt* Prepare(const char* sql, const std::string& doing) {
    auto it = statements.find(sql);
    if (it != statements.end()) return it->second;
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) !=
        SQLITE_OK) {
      Fail(doing);
    }
    statements.emplace(sql, stmt);
    return stmt;
  }
};

// A cached statement in use; reset when it goes out of scope, so that it
// holds no read lock and can be used again.
class Query {
 public:
  Query(Connection& c, const char* sql, const std::string& doing)
      : c_(c), stmt_(c.Prepare(sql, doing)), doing_(doing) {}
  Query(const Query&) = delete;
  Query& operator=(const Query&) = delete;
  ~Query() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  Query& Bind(int i, std::int64_t v) {
    if (sqlite3_bind_int64(stmt_, i, v) != SQLITE_OK) c_.Fail(doing_);
    return *this;
  }
  Query& Bind(int i, const char* text) {
    if (sqlite3_bind_text(stmt_, i, text, -1, SQLITE_STATIC) != SQLITE_OK) c_.Fail(doing_);
    return *this;
  }
  Query& BindNull(int i) {
    if (sqlite3_bind_null(stmt_, i) != SQLITE_OK) c_.Fail(doing_);
    return *this;
  }
  // True when a row is ready; false when done.
  bool Step() {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    c_.Fail(doing_);
  }
  // Runs a statement that returns no rows and makes it ready to run again.
  void Run() {
    while (Step()) {
    }
    sqlite3_reset(stmt_);
  }
  std::int64_t Int(int col) const { return sqlite3_column_int64(stmt_, col); }
  bool IsNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
  std::string Text(int col) const {
    const unsigned char* t = sqlite3_column_text(stmt_, col);
    return t == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(t));
  }

 private:
  Connection& c_;
  sqlite3_stmt* stmt_;
  std::string doing_;
};

// BEGIN ... COMMIT, rolled back if left without Commit() (an exception).
// A write transaction starts IMMEDIATE: it takes the write lock at once, so
// it cannot fail halfway for want of it.
class Transaction {
 public:
  Transaction(Connection& c, bool write, const std::string& doing)
      : c_(c), doing_(doing) {
    c_.Exec(write ? "BEGIN IMMEDIATE" : "BEGIN", doing_);
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  ~Transaction() {
    // SQLite may have rolled back by itself already (a full disk does that).
    if (!done_ && sqlite3_get_autocommit(c_.db) == 0) {
      sqlite3_exec(c_.db, "ROLLBACK", nullptr, nullptr, nullptr);
    }
  }
  void Commit() {
    c_.Exec("COMMIT", doing_);
    done_ = true;
  }

 private:
  Connection& c_;
  std::string doing_;
  bool done_ = false;
};

// Opens a connection; on failure returns null with SQLite's reason in *error.
sqlite3* OpenDb(const std::string& path, int flags, std::string* error) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    *error = OneLine(db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    sqlite3_close(db);
    return nullptr;
  }
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  return db;
}

// Everything SQLite can tell about the file from a read-only connection:
// every page and b-tree sound (quick_check: the cheap half of
// integrity_check, linear in the file's size) and the store's tables there.
// Returns the problem, or "".
std::string CheckContents(sqlite3* db, const std::string& path) {
  auto corrupt = [&](const std::string& why) {
    return fmt::format("{} is corrupt: {}", path, OneLine(why));
  };
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &stmt, nullptr) != SQLITE_OK) {
    return corrupt(sqlite3_errmsg(db));
  }
  std::string verdict;
  int rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW) {
    const unsigned char* t = sqlite3_column_text(stmt, 0);
    verdict = t ? reinterpret_cast<const char*>(t) : "";
  } else {
    verdict = sqlite3_errmsg(db);
  }
  sqlite3_finalize(stmt);
  if (verdict != "ok") return corrupt(verdict);

  std::set<std::string> tables;
  if (sqlite3_prepare_v2(db, "SELECT name FROM sqlite_schema WHERE type = 'table'", -1,
                         &stmt, nullptr) != SQLITE_OK) {
    return corrupt(sqlite3_errmsg(db));
  }
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    tables.insert(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
  }
  std::string problem = rc == SQLITE_DONE ? "" : corrupt(sqlite3_errmsg(db));
  sqlite3_finalize(stmt);
  if (!problem.empty()) return problem;
  for (const char* t : kTables) {
    if (tables.count(t) == 0) return corrupt(fmt::format("its table {} is missing", t));
  }
  return "";
}

// Builds a new store beside `path` and links it into place only when whole,
// so that a crash while creating leaves no file at `path` (and never a half
// store that would later read as "not a cutline store"). Returns "" when
// `path` exists afterwards, made here or by someone else meanwhile.
std::string CreateWhole(const std::string& path) {
  std::string temp = fmt::format("{}.creating-{}", path, ::getpid());
  ::unlink(temp.c_str());  // a leftover of a crashed process with our pid
  std::string error;
  sqlite3* db = OpenDb(temp, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &error);
  if (db == nullptr) return fmt::format("cannot create {}: {}", path, error);
  const char* setup[] = {"PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL", kSchema};
  for (const char* sql : setup) {
    if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK) {
      error = fmt::format("cannot create {}: {}", path, OneLine(sqlite3_errmsg(db)));
      break;
    }
  }
  // Closing the last connection checkpoints the WAL into the file and
  // removes it: what gets linked is complete on its own.
  if (sqlite3_close(db) != SQLITE_OK && error.empty()) {
    error = fmt::format("cannot create {}: closing failed", path);
  }
  if (error.empty() && ::link(temp.c_str(), path.c_str()) != 0 && errno != EEXIST) {
    error = fmt::format("cannot create {}: {}", path, std::strerror(errno));
  }
  ::unlink(temp.c_str());
  if (error.empty()) {
    // The new name must survive a power cut like the data does.
    std::string dir = path.find('/') == std::string::npos
                          ? "."
                          : path.substr(0, path.rfind('/') + 1);
    int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
      ::fsync(fd);
      ::close(fd);
    }
  }
  return error;
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

struct Store::Impl : Connection {};

Store::Store(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;
Store::~Store() = default;

const std::string& Store::path() const { return impl_->path; }

namespace {

// Opens `c` read-only on an existing store and checks the store; false, with
// the problem in *error, if it is not one or is damaged. The read-write open
// checks this way first, then reopens: a read-write connection closed on a
// damaged or foreign file could still write to it (a WAL checkpoint).
bool OpenChecked(Connection& c, const std::string& path, std::string* error) {
  if (std::string problem = CheckHeader(path); !problem.empty()) {
    *error = problem;
    return false;
  }
  c.path = path;
  c.db = OpenDb(path, SQLITE_OPEN_READONLY, error);
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
  if (!OpenChecked(*impl, path, error)) return std::nullopt;
  return Store(std::move(impl));
}

std::optional<Store> Store::Open(const std::string& path, bool create,
                                 std::string* error) {
  struct stat st {};
  if (create && ::lstat(path.c_str(), &st) != 0 && errno == ENOENT) {
    if (std::string problem = CreateWhole(path); !problem.empty()) {
      *error = problem;
      return std::nullopt;
    }
  }
  {
    Connection check;
    if (!OpenChecked(check, path, error)) return std::nullopt;
  }
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  impl->db = OpenDb(path, SQLITE_OPEN_READWRITE, error);
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
            "INSERT INTO runs (started_us, ranks, balance, total, restored_from) "
            "VALUES (?, ?, ?, ?, ?)",
            doing);
    q.Bind(1, NowUs()).Bind(2, ranks).Bind(3, balance).Bind(4, total);
    if (restored_from) {
      q.Bind(5, SqlId(c, *restored_from));
    } else {
      q.BindNull(5);
    }
    q.Run();
    id = sqlite3_last_insert_rowid(c.db);
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
  for (const ChannelRecord& ch : s.channels) {
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
  {
    Query q(c, "INSERT INTO balances (snapshot, rank, balance) VALUES (?, ?, ?)", doing);
    for (std::size_t r = 0; r < n; ++r) {
      q.Bind(1, id).Bind(2, static_cast<std::int64_t>(r)).Bind(3, s.balances[r]).Run();
      add(s.balances[r]);
    }
  }
  {
    Query channel(c, "INSERT INTO channels (snapshot, from_rank, to_rank) VALUES (?, ?, ?)",
                  doing);
    Query transfer(c,
                   "INSERT INTO transfers (snapshot, from_rank, to_rank, position, amount) "
                   "VALUES (?, ?, ?, ?, ?)",
                   doing);
    for (const ChannelRecord& ch : s.channels) {
      channel.Bind(1, id).Bind(2, ch.from).Bind(3, ch.to).Run();
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

std::vector<RunRecord> Store::Runs() const {
  Connection& c = *impl_;
  std::vector<RunRecord> runs;
  Query q(c,
          "SELECT id, started_us, ranks, balance, total, restored_from FROM runs "
          "ORDER BY id",
          "listing runs");
  while (q.Step()) {
    RunRecord r;
    r.id = q.Int(0);
    r.started_us = q.Int(1);
    r.ranks = static_cast<std::uint32_t>(q.Int(2));
    r.balance = q.Int(3);
    r.total = q.Int(4);
    if (!q.IsNull(5)) r.restored_from = static_cast<std::uint64_t>(q.Int(5));
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
std::optional<SnapshotRecord> FindIn(Connection& c, std::int64_t id) {
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
    Query q(c, "SELECT balance FROM balances WHERE snapshot = ? ORDER BY rank", doing);
    q.Bind(1, id);
    while (q.Step()) s.balances.push_back(q.Int(0));
  }
  std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> index;
  {
    Query q(c,
            "SELECT from_rank, to_rank FROM channels WHERE snapshot = ? "
            "ORDER BY from_rank, to_rank",
            doing);
    q.Bind(1, id);
    while (q.Step()) {
      index[{q.Int(0), q.Int(1)}] = s.channels.size();
      s.channels.push_back({static_cast<std::uint32_t>(q.Int(0)),
                            static_cast<std::uint32_t>(q.Int(1)), {}});
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
  std::optional<SnapshotRecord> s = FindIn(c, SqlId(c, id));
  tx.Commit();
  return s;
}

std::optional<SnapshotRecord> Store::LatestComplete() const {
  Connection& c = *impl_;
  const std::string doing = "reading the latest complete snapshot";
  Transaction tx(c, false, doing);
  std::optional<SnapshotRecord> s;
  std::optional<std::int64_t> id;
  {
    Query q(c, "SELECT MAX(id) FROM snapshots WHERE status = 'complete'", doing);
    if (q.Step() && !q.IsNull(0)) id = q.Int(0);
  }
  if (id) s = FindIn(c, *id);
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
