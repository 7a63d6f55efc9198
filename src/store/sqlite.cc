// SQLite, the generic part: connections, statements, transactions, the
// header check and whole-or-nothing creation.
#include "store/sqlite.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>

namespace cutline::store::sqlite {

namespace {

constexpr char kSqliteMagic[] = "SQLite format 3";  // 16 bytes with its NUL
constexpr int kBusyTimeoutMs = 5000;

std::uint32_t BigEndian32(const unsigned char* p) {
  return std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 | std::uint32_t{p[2]} << 8 |
         std::uint32_t{p[3]};
}

}  // namespace

std::string OneLine(std::string s) {
  for (char& c : s) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return s;
}

Connection::~Connection() {
  for (auto& [sql, stmt] : statements) sqlite3_finalize(stmt);
  if (db != nullptr) sqlite3_close(db);
}

void Connection::Fail(const std::string& doing) const {
  const std::string reason = OneLine(sqlite3_errmsg(db));
  switch (sqlite3_errcode(db) & 0xff) {
    // Said in words of the store, not SQLite's alone: an operator must
    // know at once that the file, not the run, is the problem.
    case SQLITE_FULL:
      throw StoreError(fmt::format("{}: the store is full (its disk, or its page limit): {} "
                                   "(while {})",
                                   path, reason, doing));
    case SQLITE_READONLY:
      throw StoreError(fmt::format("{} is read-only here: it cannot be written ({}, while {})",
                                   path, reason, doing));
    default:
      throw StoreError(fmt::format("{}: {} (while {})", path, reason, doing));
  }
}

void Connection::Refuse(const std::string& why) const {
  throw StoreError(fmt::format("{}: {}", path, why));
}

void Connection::Exec(const char* sql, const std::string& doing) {
  if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK) Fail(doing);
}

sqlite3_stmt* Connection::Prepare(const char* sql, const std::string& doing) {
  auto it = statements.find(sql);
  if (it != statements.end()) return it->second;
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) != SQLITE_OK) {
    Fail(doing);
  }
  statements.emplace(sql, stmt);
  return stmt;
}

std::int64_t Connection::LastInsertRowid() const { return sqlite3_last_insert_rowid(db); }

std::int64_t Connection::Changes() const { return sqlite3_changes64(db); }

bool Connection::InTransaction() const { return sqlite3_get_autocommit(db) == 0; }

Query::Query(Connection& c, const char* sql, const std::string& doing)
    : c_(c), stmt_(c.Prepare(sql, doing)), doing_(doing) {}

Query::~Query() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

Query& Query::Bind(int i, std::int64_t v) {
  if (sqlite3_bind_int64(stmt_, i, v) != SQLITE_OK) c_.Fail(doing_);
  return *this;
}

Query& Query::Bind(int i, const char* text) {
  if (sqlite3_bind_text(stmt_, i, text, -1, SQLITE_STATIC) != SQLITE_OK) c_.Fail(doing_);
  return *this;
}

Query& Query::BindNull(int i) {
  if (sqlite3_bind_null(stmt_, i) != SQLITE_OK) c_.Fail(doing_);
  return *this;
}

bool Query::Step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  c_.Fail(doing_);
}

void Query::Run() {
  while (Step()) {
  }
  sqlite3_reset(stmt_);
}

std::int64_t Query::Int(int col) const { return sqlite3_column_int64(stmt_, col); }

bool Query::IsNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

std::string Query::Text(int col) const {
  const unsigned char* t = sqlite3_column_text(stmt_, col);
  return t == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(t));
}

Transaction::Transaction(Connection& c, bool write, const std::string& doing)
    : c_(c), doing_(doing) {
  c_.Exec(write ? "BEGIN IMMEDIATE" : "BEGIN", doing_);
}

Transaction::~Transaction() {
  // SQLite may have rolled back by itself already (a full disk does that).
  if (!done_ && c_.InTransaction()) sqlite3_exec(c_.db, "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::Commit() {
  c_.Exec("COMMIT", doing_);
  done_ = true;
}

StatusOr<sqlite3*> Open(const std::string& path, int flags, Code refusal) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string why = OneLine(db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    sqlite3_close(db);
    return Status::Error(refusal, path, why);
  }
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  return db;
}

namespace {

// A URI naming `path` for sqlite3_open_v2 with SQLITE_OPEN_URI: every byte
// but the plainest percent-encoded, so that no name can add a parameter.
std::string FileUri(const std::string& path, const char* parameters) {
  std::string uri = path.rfind('/', 0) == 0 ? "file://" : "file:";
  for (unsigned char ch : path) {
    if (std::isalnum(ch) || ch == '/' || ch == '.' || ch == '_' || ch == '-') {
      uri += static_cast<char>(ch);
    } else {
      uri += fmt::format("%{:02X}", ch);
    }
  }
  return uri + "?" + parameters;
}

bool Exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

// The connection reads the file (the first read opens FILE-wal and
// FILE-shm). Returns SQLite's primary result code.
int Probe(sqlite3* db) {
  return sqlite3_exec(db, "PRAGMA schema_version", nullptr, nullptr, nullptr) & 0xff;
}

std::string Folder(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

sqlite3* OpenFileAlone(const std::string& path) {
  StatusOr<sqlite3*> db =
      Open(FileUri(path, "immutable=1"), SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, Code::kCannotOpen);
  return db.ok() ? *db : nullptr;
}

std::int64_t WalSize(const std::string& path) {
  struct stat st {};
  if (::stat((path + "-wal").c_str(), &st) != 0) return -1;
  return st.st_size;
}

bool WalHasFrames(const std::string& path) {
  constexpr std::int64_t kWalHeader = 32, kFrameHeader = 24;
  return WalSize(path) > kWalHeader + kFrameHeader;
}

StatusOr<sqlite3*> OpenForReading(const std::string& path, Reading reading) {
  // (A hot journal, FILE-journal, would be a rollback-mode writer's, which
  // immutable would not roll back.)
  const bool alone = !Exists(path + "-wal") && !Exists(path + "-shm") &&
                     !Exists(path + "-journal");
  if (reading == Reading::kBrief && alone) {
    sqlite3* db = OpenFileAlone(path);
    if (db != nullptr) return db;
  }
  StatusOr<sqlite3*> opened = Open(path, SQLITE_OPEN_READONLY, Code::kCannotOpen);
  if (!opened.ok()) return opened;
  sqlite3* db = *opened;
  const int probe = Probe(db);
  if (probe != SQLITE_CANTOPEN && probe != SQLITE_READONLY) return db;  // read, or the checks say why
  // FILE-shm could not be made or opened: a read-only place.
  std::string reason = OneLine(sqlite3_errmsg(db));
  sqlite3_close(db);
  if (!WalHasFrames(path)) {
    db = OpenFileAlone(path);
    if (db != nullptr && Probe(db) == SQLITE_OK) return db;
    sqlite3_close(db);
  }
  return Status::Error(WalHasFrames(path) ? Code::kWalNeedsShm : Code::kCannotRead, path, reason);
}

Status CannotWrite(const std::string& path) {
  auto refused = [](int e) { return e == EROFS || e == EACCES || e == EPERM; };
  const bool exists = Exists(path);
  if (exists && ::access(path.c_str(), W_OK) != 0 && refused(errno)) {
    return Status::Error(Code::kReadOnlyFile, path, std::strerror(errno));
  }
  // A writer makes FILE-wal and FILE-shm beside the file (and a new store
  // its temporary file): the folder must take new files unless both are
  // there and writable.
  bool beside = exists;
  for (const char* suffix : {"-wal", "-shm"}) {
    const std::string p = path + suffix;
    beside = beside && Exists(p) && ::access(p.c_str(), W_OK) == 0;
  }
  const std::string folder = Folder(path);
  if (!beside && ::access(folder.c_str(), W_OK) != 0 && refused(errno)) {
    return Status::Error(Code::kReadOnlyFolder, path, folder, std::strerror(errno));
  }
  return Status::Ok();
}

bool OpenedReadOnly(sqlite3* db) { return sqlite3_db_readonly(db, "main") == 1; }

int ReadOnlyFlags() { return SQLITE_OPEN_READONLY; }
int ReadWriteFlags() { return SQLITE_OPEN_READWRITE; }

StatusOr<Header> ReadHeader(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return errno == ENOENT ? Status::Error(Code::kNoSuchFile, path)
                           : Status::Error(Code::kCannotRead, path, std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) return Status::Error(Code::kIsDirectory, path);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::Error(Code::kCannotRead, path, std::strerror(errno));
  unsigned char bytes[100];
  ssize_t got = ::read(fd, bytes, sizeof bytes);
  int read_errno = errno;
  ::close(fd);
  if (got < 0) return Status::Error(Code::kCannotRead, path, std::strerror(read_errno));
  if (got == 0) return Status::Error(Code::kStoreEmpty, path);
  if (got < static_cast<ssize_t>(sizeof bytes) ||
      std::memcmp(bytes, kSqliteMagic, sizeof kSqliteMagic) != 0) {
    return Status::Error(Code::kNotSqlite, path);
  }
  Header header;
  header.application_id = BigEndian32(bytes + 68);
  header.user_version = BigEndian32(bytes + 60);
  return header;
}

namespace {

std::string Check(sqlite3* db, const char* pragma) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, pragma, -1, &stmt, nullptr) != SQLITE_OK) {
    return OneLine(sqlite3_errmsg(db));
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
  return verdict == "ok" ? "" : OneLine(verdict);
}

}  // namespace

std::string QuickCheck(sqlite3* db) { return Check(db, "PRAGMA quick_check(1)"); }

std::string IntegrityCheck(sqlite3* db) { return Check(db, "PRAGMA integrity_check(1)"); }

StatusOr<std::set<std::string>> TableNames(sqlite3* db, const std::string& path) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT name FROM sqlite_schema WHERE type = 'table'", -1, &stmt,
                         nullptr) != SQLITE_OK) {
    return Status::Error(Code::kStoreCorrupt, path, OneLine(sqlite3_errmsg(db)));
  }
  std::set<std::string> names;
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    names.insert(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
  }
  std::string why = rc == SQLITE_DONE ? "" : OneLine(sqlite3_errmsg(db));
  sqlite3_finalize(stmt);
  if (!why.empty()) return Status::Error(Code::kStoreCorrupt, path, why);
  return names;
}

Status CreateWhole(const std::string& path, const std::function<void(Connection&)>& setup) {
  std::string temp = fmt::format("{}.creating-{}", path, ::getpid());
  ::unlink(temp.c_str());  // a leftover of a crashed process with our pid
  std::string why;  // empty while all goes well
  {
    Connection c;
    c.path = path;
    StatusOr<sqlite3*> db = Open(temp, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, Code::kCannotOpen);
    if (!db.ok()) return Status::Error(Code::kCannotCreate, path, db.status().word(1));
    c.db = *db;
    try {
      c.Exec("PRAGMA journal_mode = WAL", "creating");
      c.Exec("PRAGMA synchronous = FULL", "creating");
      setup(c);
    } catch (const StoreError&) {
      why = OneLine(sqlite3_errmsg(c.db));
    }
    // Closing the last connection (here, as `c` goes) checkpoints the WAL
    // into the file and removes it: what gets linked is complete on its own.
    for (auto& [sql, stmt] : c.statements) sqlite3_finalize(stmt);
    c.statements.clear();
    if (sqlite3_close(c.db) != SQLITE_OK && why.empty()) why = "closing failed";
    c.db = nullptr;
  }
  if (why.empty() && ::link(temp.c_str(), path.c_str()) != 0 && errno != EEXIST) {
    why = std::strerror(errno);
  }
  ::unlink(temp.c_str());
  if (why.empty()) {
    // The new name must survive a power cut like the data does.
    std::string dir = path.find('/') == std::string::npos ? "." : path.substr(0, path.rfind('/') + 1);
    int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
      ::fsync(fd);
      ::close(fd);
    }
  }
  if (!why.empty()) return Status::Error(Code::kCannotCreate, path, why);
  return Status::Ok();
}

}  // namespace cutline::store::sqlite
