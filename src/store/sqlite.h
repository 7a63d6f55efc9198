// The store's generic SQLite layer, apart from the schema: a connection with
// its cached statements and the error rule, a statement in use, a
// transaction, and the checks and the whole-or-nothing creation a file
// format on SQLite needs. It knows no table of cutline's (schema.cc does).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>

#include "base/status.h"
#include "store/error.h"

struct sqlite3;
struct sqlite3_stmt;

namespace cutline::store::sqlite {

// SQLite's messages are one line already; a quick_check report may not be.
std::string OneLine(std::string s);

// One SQLite connection and its statements, cached by their SQL literal.
// Every failure becomes a StoreError naming the file, SQLite's reason and
// what was being done. Use from one thread at a time.
struct Connection {
  std::string path;
  sqlite3* db = nullptr;
  std::map<const char*, sqlite3_stmt*> statements;

  Connection() = default;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  ~Connection();

  [[noreturn]] void Fail(const std::string& doing) const;  // SQLite's reason
  [[noreturn]] void Refuse(const std::string& why) const;  // the caller's
  void Exec(const char* sql, const std::string& doing);
  sqlite3_stmt* Prepare(const char* sql, const std::string& doing);
  std::int64_t LastInsertRowid() const;
  std::int64_t Changes() const;  // rows the last statement inserted, updated or deleted
  bool InTransaction() const;
};

// A cached statement in use; reset when it goes out of scope, so that it
// holds no read lock and can be used again.
class Query {
 public:
  Query(Connection& c, const char* sql, const std::string& doing);
  Query(const Query&) = delete;
  Query& operator=(const Query&) = delete;
  ~Query();
  Query& Bind(int i, std::int64_t v);
  Query& Bind(int i, const char* text);  // must outlive the query
  Query& BindNull(int i);
  // True when a row is ready; false when done.
  bool Step();
  // Runs a statement that returns no rows and makes it ready to run again.
  void Run();
  std::int64_t Int(int col) const;
  bool IsNull(int col) const;
  std::string Text(int col) const;

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
  Transaction(Connection& c, bool write, const std::string& doing);
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  ~Transaction();
  void Commit();

 private:
  Connection& c_;
  std::string doing_;
  bool done_ = false;
};

// Opens a connection (extended result codes, a busy timeout); on failure
// `refusal` (a code whose arguments are the path and why) naming `path` and
// SQLite's reason.
StatusOr<sqlite3*> Open(const std::string& path, int flags, Code refusal);

// How long a reading connection lives: a brief one reads and closes (a
// command, a check before a run); a lasting one follows the file while a
// run writes it (the page).
enum class Reading { kBrief, kLasting };
// Opens `path` for reading only and makes sure it can be read, without
// creating anything beside it where that can be avoided:
//  - brief, and no FILE-wal or FILE-shm: the file alone is the whole store
//    (a writer always has both), so it is read as immutable, and no empty
//    FILE-wal and FILE-shm are left behind;
//  - otherwise as a WAL reader, which needs FILE-shm; where that cannot be
//    made (a read-only file, folder or mount) and FILE-wal holds no frames,
//    as immutable too: nobody can be writing there.
// On failure, why, naming the file.
StatusOr<sqlite3*> OpenForReading(const std::string& path, Reading reading);
// The file alone, as if FILE-wal were not there (immutable); null when it
// cannot be opened.
sqlite3* OpenFileAlone(const std::string& path);
// FILE-wal's size in bytes; -1 when there is none.
std::int64_t WalSize(const std::string& path);
// True when FILE-wal holds at least one frame (more than its header).
bool WalHasFrames(const std::string& path);
// Why a writer could not write `path` (read-only file, folder or mount);
// ok when nothing stands in its way that can be seen beforehand. For a file
// not there yet, its folder is asked.
Status CannotWrite(const std::string& path);
// True when SQLite opened a read-write connection for reading only (it
// does so, silently, with a file it cannot write).
bool OpenedReadOnly(sqlite3* db);
// SQLITE_OPEN_* flags, so that callers need not include sqlite3.h.
int ReadOnlyFlags();
int ReadWriteFlags();

// What SQLite's header (the file's first 100 bytes) says, read before SQLite
// opens anything: a read-write open of another program's database may roll
// back its hot journal or checkpoint its WAL.
struct Header {
  std::uint32_t application_id = 0;  // offset 68
  std::uint32_t user_version = 0;    // offset 60
};
// The header of `path`, or why there is none (no such file, a directory,
// empty, not an SQLite database), naming the file.
StatusOr<Header> ReadHeader(const std::string& path);

// PRAGMA quick_check: every page and b-tree sound (linear in the file's
// size). Returns "" or the problem, one line.
std::string QuickCheck(sqlite3* db);
// PRAGMA integrity_check: quick_check's checks and every index against its
// table, which a file read through another file's WAL can fail while
// passing quick_check. Slower (n log n). Returns "" or the problem.
std::string IntegrityCheck(sqlite3* db);
// The names of the file's tables, or kStoreCorrupt naming `path` and
// SQLite's reason.
StatusOr<std::set<std::string>> TableNames(sqlite3* db, const std::string& path);

// Builds a new database beside `path` (WAL, synchronous FULL, then `setup`
// on the connection) and links it into place only when whole, so that a
// crash while creating leaves no file at `path`, never a half-made one.
// Ok when `path` exists afterwards, made here or by someone else
// meanwhile; otherwise kCannotCreate.
Status CreateWhole(const std::string& path, const std::function<void(Connection&)>& setup);

}  // namespace cutline::store::sqlite
