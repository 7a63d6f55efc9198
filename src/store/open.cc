// Vetting and opening a store file: its header and contents checked before
// anything is written, a write-ahead log that is not the file's own
// refused, and the connection set up for reading or for writing
// (docs/store.md, "Not a store, or a damaged one", "Reading never writes"
// and "WAL and synchronous = FULL").
#include "store/store.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <sqlite3.h>

#include "store/schema.h"
#include "store/sqlite.h"
#include "store/store_internal.h"

namespace cutline::store {
namespace {

// The header's verdict, before SQLite opens the file: the schema version,
// or why the file is not a store this cutline reads.
StatusOr<std::uint32_t> CheckHeader(const std::string& path) {
  StatusOr<sqlite::Header> header = sqlite::ReadHeader(path);
  if (!header.ok()) return header.status();
  if (header->application_id != kApplicationId) {
    return Status::Error(Code::kNotCutlineStore, path);
  }
  if (header->user_version > kSchemaVersion) {
    return Status::Error(Code::kStoreNewer, path, header->user_version, kSchemaVersion);
  }
  if (header->user_version == 0) return Status::Error(Code::kNoSchemaVersion, path);
  return header->user_version;
}

// Everything SQLite can tell about the file from a read-only connection:
// every page and b-tree sound (`thorough`: and every index agreeing with
// its table) and the store's tables there.
Status CheckContents(sqlite3* db, const std::string& path, bool thorough) {
  const std::string verdict = thorough ? sqlite::IntegrityCheck(db) : sqlite::QuickCheck(db);
  if (!verdict.empty()) return Status::Error(Code::kStoreCorrupt, path, sqlite::OneLine(verdict));
  StatusOr<std::set<std::string>> tables = sqlite::TableNames(db, path);
  if (!tables.ok()) return tables.status();
  for (const char* t : kTables) {
    if (tables->count(t) == 0) return Status::Error(Code::kStoreTableMissing, path, t);
  }
  return Status::Ok();
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

// How the store through the WAL fails to descend from the file alone.
Status Departure(sqlite3* db, const std::string& path, const Lineage& own, const Lineage& seen) {
  for (const auto& [id, run] : own.runs) {
    auto it = seen.runs.find(id);
    if (it == seen.runs.end()) return Status::Error(Code::kWalRunMissing, path, id);
    if (it->second != run) return Status::Error(Code::kWalRunOther, path, id);
  }
  if (!own.top) return Status::Ok();
  const std::int64_t top = std::get<0>(*own.top);
  if (!seen.top) return Status::Error(Code::kWalTopMissing, path, top);
  if (std::get<0>(*seen.top) < top) {
    return Status::Error(Code::kWalTopBehind, path, top, std::get<0>(*seen.top));
  }
  // Snapshot `top` may be pruned once a higher one exists; if it is there,
  // it is the same one.
  bool other = false;
  EachRow(db, "SELECT id, run, initiator, started_us FROM snapshots WHERE id = ?", top,
          [&](const auto& col) {
            other = SnapshotIdentity{col(0), col(1), col(2), col(3)} != *own.top;
          });
  return other ? Status::Error(Code::kWalSnapshotOther, path, top) : Status::Ok();
}

// SQLite cannot tell whose FILE-wal it reads: a WAL left beside another
// store (a copied or renamed file) is read over this one, and the store
// seen is a mix of both, or the other one. A cutline store can tell in
// part: its WAL only ever adds to the file, so what the file alone (read as
// immutable, without the WAL) holds for good must be there, the same,
// through the WAL (Lineage). Ok also when the file alone cannot be read: a
// checkpoint may be copying into it.
Status ForeignWal(sqlite3* db, const std::string& path) {
  for (int attempt = 0;; ++attempt) {
    sqlite3* alone = sqlite::OpenFileAlone(path);
    if (alone == nullptr) return Status::Ok();
    std::optional<Lineage> own = LineageOf(alone);
    sqlite3_close(alone);
    if (!own) return Status::Ok();
    std::optional<Lineage> seen = LineageOf(db);
    if (!seen) return Status::Ok();  // the contents' check says why
    Status departure = Departure(db, path, *own, *seen);
    if (departure.ok()) return departure;
    // A live writer's checkpoint copying pages as the file alone was read
    // could show a torn page once; a foreign WAL differs every time.
    if (attempt == 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      continue;
    }
    return departure;
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

// The contents' problem, said of a WAL over a sound file.
Status OfTheWal(const std::string& path, const Status& problem) {
  if (problem.code() == Code::kStoreTableMissing) {
    return Status::Error(Code::kWalTableMissing, path, problem.word(1));
  }
  if (problem.code() == Code::kStoreCorrupt) {
    return Status::Error(Code::kWalCorrupt, path, problem.word(1));
  }
  return problem;
}

// Opens `c` read-only on an existing store and checks the store: its schema
// version, or why it is not one or is damaged. The read-write open checks
// this way first, then reopens: a read-write connection closed on a damaged
// or foreign file could still write to it (a WAL checkpoint).
StatusOr<std::uint32_t> OpenChecked(Connection& c, const std::string& path,
                                    sqlite::Reading reading) {
  StatusOr<std::uint32_t> version = CheckHeader(path);
  if (!version.ok()) return version;
  c.path = path;
  StatusOr<sqlite3*> db = sqlite::OpenForReading(path, reading);
  if (!db.ok()) return db.status();
  c.db = *db;
  // Frames in FILE-wal: the store seen is the file with them, and a WAL
  // that is not this file's can hide there (integrity_check, unlike
  // quick_check, compares every index with its table).
  const bool frames = sqlite::WalHasFrames(path);
  if (frames) {
    if (Status foreign = ForeignWal(c.db, path); !foreign.ok()) return foreign;
  }
  if (Status problem = CheckContents(c.db, path, frames); !problem.ok()) {
    if (frames && CheckFileAlone(path).empty()) return OfTheWal(path, problem);
    return problem;
  }
  return version;
}

}  // namespace

Status CannotWrite(const std::string& path) { return sqlite::CannotWrite(path); }

Store::Store(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;
Store::~Store() = default;

const std::string& Store::path() const { return impl_->path; }
std::uint32_t Store::schema_version() const { return impl_->version; }

StatusOr<Store> Store::OpenReadOnly(const std::string& path, bool brief) {
  auto impl = std::make_unique<Impl>();
  // A version-1 file is read as it is: reading never writes.
  const auto reading = brief ? sqlite::Reading::kBrief : sqlite::Reading::kLasting;
  StatusOr<std::uint32_t> version = OpenChecked(*impl, path, reading);
  if (!version.ok()) return version.status();
  impl->version = *version;
  return Store(std::move(impl));
}

StatusOr<Store> Store::Open(const std::string& path, bool create) {
  struct stat st {};
  if (create && ::lstat(path.c_str(), &st) != 0 && errno == ENOENT) {
    if (Status why = sqlite::CannotWrite(path); !why.ok()) return why;
    auto setup = [](Connection& c) { Migrate(c, 0); };
    if (Status problem = sqlite::CreateWhole(path, setup); !problem.ok()) return problem;
  }
  StatusOr<std::uint32_t> version = [&] {
    Connection check;
    return OpenChecked(check, path, sqlite::Reading::kBrief);
  }();
  if (!version.ok()) return version.status();
  // Read-only (a file, folder or mount): said so, before SQLite opens it
  // for reading only in silence and its first write fails.
  if (Status why = sqlite::CannotWrite(path); !why.ok()) return why;
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  StatusOr<sqlite3*> db = sqlite::Open(path, sqlite::ReadWriteFlags(), Code::kCannotOpenForWriting);
  if (!db.ok()) return db.status();
  impl->db = *db;
  if (sqlite::OpenedReadOnly(impl->db)) return Status::Error(Code::kReadOnlyHere, path);
  try {
    // WAL: readers (store list, the page) never wait for the run's writer,
    // nor it for them. FULL: a commit is on the disk before it returns, so a
    // snapshot reported complete stays complete through a power cut.
    {
      Query mode(*impl, "PRAGMA journal_mode = WAL", "setting WAL mode");
      if (!mode.Step() || mode.Text(0) != "wal") return Status::Error(Code::kNoWalMode, path);
    }
    impl->Exec("PRAGMA synchronous = FULL", "setting synchronous = FULL");
    impl->Exec("PRAGMA foreign_keys = ON", "enabling foreign keys");
    // An older file is brought to this schema before anything is written.
    Migrate(*impl, *version);
  } catch (const StoreError& e) {
    return e.status();
  }
  return Store(std::move(impl));
}

}  // namespace cutline::store
