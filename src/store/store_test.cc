// The store against real SQLite files in a temporary folder: what is written
// reads back; bad files are refused and left byte-for-byte alone; a write
// that fails (a full disk) leaves nothing behind; and a writer killed with
// SIGKILL at any moment never leaves a partial snapshot marked complete.
#include "catalogue/messages.h"
#include "store/store.h"

#include <gtest/gtest.h>

#include "store/summary.h"
#include "store/writer_lock.h"
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>

namespace cutline::store {
namespace {

namespace fs = std::filesystem;

// A refusal as a user reads it (the catalogue's English line); "" for ok.
std::string Said(const Status& s) { return s.ok() ? "" : catalogue::Message(s, Lang::kEn); }

// A problem `store verify` prints, as a user reads it: whom it is about,
// what is wrong, and the whole line.
std::string SubjectOf(const Problem& p) { return catalogue::Reason(p.about, Lang::kEn); }
std::string LineOf(const Problem& p) { return catalogue::ProblemLine(p.about, p.what, Lang::kEn); }
std::string WhatOf(const Problem& p) { return LineOf(p).substr(SubjectOf(p).size() + 2); }

std::string Bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void Write(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A complete record for `n` ranks whose parts add up to `total`: random
// transfers on every channel (given in a shuffled order), the rest of the
// money spread over the balances.
SnapshotRecord MakeSnapshot(std::int64_t run, std::uint64_t id, std::uint32_t n,
                            Amount total, std::mt19937_64& rng, int max_transfers = 4) {
  SnapshotRecord s;
  s.run = run;
  s.id = id;
  s.completed_us = 1'000'000 + static_cast<std::int64_t>(id);
  Amount in_channels = 0;
  for (std::uint32_t from = 0; from < n; ++from) {
    for (std::uint32_t to = 0; to < n; ++to) {
      if (from == to) continue;
      StoredChannel ch{from, to, {}};
      int count = static_cast<int>(rng() % static_cast<unsigned>(max_transfers + 1));
      for (int i = 0; i < count; ++i) {
        Amount a = 1 + static_cast<Amount>(rng() % 5);
        ch.transfers.push_back(a);
        in_channels += a;
      }
      s.channels.push_back(ch);
    }
  }
  std::shuffle(s.channels.begin(), s.channels.end(), rng);
  // The store takes whatever the runtime recorded (the checker judges it),
  // so a negative balance here is fine.
  const Amount left = total - in_channels, each = left / n;
  for (std::uint32_t r = 0; r < n; ++r) {
    s.balances.push_back(r + 1 == n ? left - each * (n - 1) : each);
  }
  return s;
}

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("cutline_store_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string PathOf(const std::string& name) { return (dir_ / name).string(); }

  Store MustOpen(const std::string& path, bool create = true) {
    StatusOr<Store> s = Store::Open(path, create);
    if (!s.ok()) throw std::runtime_error("cannot open: " + Said(s.status()));
    return std::move(s).value();
  }
  // For a test that closes the store midway (reset()): the refusal's words
  // in *error when there is none.
  static std::optional<Store> ReadOnlyOrNothing(const std::string& path, std::string* error) {
    StatusOr<Store> s = Store::OpenReadOnly(path);
    *error = Said(s.status());
    if (!s.ok()) return std::nullopt;
    return std::move(s).value();
  }

  std::vector<std::string> Listing() {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) {
      names.push_back(e.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  // Neither open accepts the file; each gives one line naming it and saying
  // `why`; the file and the folder are exactly as they were. Except: when
  // SQLite itself had to look (`sqlite_looked`), it may leave an empty
  // FILE-wal and a FILE-shm, as any reader of a WAL database does.
  void ExpectRefused(const std::string& path, const std::string& why,
                     bool sqlite_looked = false) {
    const std::string before = fs::is_regular_file(path) ? Bytes(path) : "";
    const auto listing = Listing();
    for (int mode = 0; mode < 3; ++mode) {
      StatusOr<Store> s = mode == 0   ? Store::OpenReadOnly(path)
                          : mode == 1 ? Store::Open(path, false)
                                      : Store::Open(path, true);
      const std::string error = Said(s.status());
      EXPECT_FALSE(s.ok()) << path << " mode " << mode;
      EXPECT_TRUE(Has(error, why)) << "mode " << mode << ": " << error;
      EXPECT_TRUE(Has(error, path)) << error;
      EXPECT_FALSE(Has(error, "\n")) << error;
      if (fs::is_regular_file(path)) {
        EXPECT_EQ(Bytes(path), before) << "mode " << mode;
      }
      std::vector<std::string> now = Listing();
      if (sqlite_looked) {
        const std::string name = fs::path(path).filename().string();
        std::erase(now, name + "-shm");
        if (std::erase(now, name + "-wal") > 0) {
          EXPECT_EQ(fs::file_size(path + "-wal"), 0u) << "something was written";
        }
      }
      EXPECT_EQ(now, listing) << "mode " << mode;
    }
    fs::remove(path + "-wal");
    fs::remove(path + "-shm");
  }

  fs::path dir_;
};

TEST_F(StoreTest, WhatIsWrittenReadsBackAfterReopening) {
  const std::string path = PathOf("s.db");
  std::mt19937_64 rng(1);
  SnapshotRecord written = MakeSnapshot(1, 1, 3, 300, rng, 3);
  written.channels[0].transfers = {40, 2, 7};  // order kept as given
  written.balances = {100, 60, 300 - 160 - 49};
  for (std::size_t i = 1; i < written.channels.size(); ++i) written.channels[i].transfers = {};
  {
    Store store = MustOpen(path);
    for (const std::string& name : Listing()) {  // no leftover from creating it
      EXPECT_TRUE(name == "s.db" || name == "s.db-wal" || name == "s.db-shm") << name;
    }
    EXPECT_TRUE(store.Runs().empty());
    EXPECT_EQ(store.NextSnapshotId(), 1u);
    EXPECT_FALSE(store.LatestComplete());

    std::int64_t run = store.BeginRun(3, 100, 300, std::nullopt);
    EXPECT_EQ(run, 1);
    store.SnapshotStarted(run, 1, 2, 1'000);
    std::vector<SnapshotRecord> listed = store.Snapshots();
    ASSERT_EQ(listed.size(), 1u);
    EXPECT_EQ(listed[0].status, "running");
    EXPECT_EQ(listed[0].initiator, 2u);
    EXPECT_EQ(listed[0].started_us, 1'000);
    EXPECT_FALSE(listed[0].total);
    EXPECT_FALSE(store.LatestComplete());

    store.SnapshotComplete(written);
    EXPECT_EQ(store.NextSnapshotId(), 2u);
  }
  std::string error;
  StatusOr<Store> store = Store::OpenReadOnly(path);
  error = Said(store.status());
  ASSERT_TRUE(store.ok()) << error;
  std::vector<StoredRun> runs = store->Runs();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].id, 1);
  EXPECT_EQ(runs[0].ranks, 3u);
  EXPECT_EQ(runs[0].balance, 100);
  EXPECT_EQ(runs[0].total, 300);
  EXPECT_FALSE(runs[0].restored_from);
  EXPECT_GT(runs[0].started_us, 1'600'000'000'000'000);  // a real clock, in µs

  std::optional<SnapshotRecord> s = store->Find(1);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->status, "complete");
  EXPECT_EQ(s->run, 1);
  EXPECT_EQ(s->initiator, 2u);
  EXPECT_EQ(s->started_us, 1'000);
  EXPECT_EQ(s->completed_us, written.completed_us);
  EXPECT_EQ(s->total, 300);
  EXPECT_EQ(s->balances, written.balances);
  // Every ordered pair, by sender then receiver, whatever order they came in.
  ASSERT_EQ(s->channels.size(), 6u);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (const StoredChannel& c : s->channels) pairs.push_back({c.from, c.to});
  EXPECT_EQ(pairs, (std::vector<std::pair<std::uint32_t, std::uint32_t>>{
                       {0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 0}, {2, 1}}));
  for (const StoredChannel& c : s->channels) {
    bool first = c.from == written.channels[0].from && c.to == written.channels[0].to;
    std::vector<Amount> expected;
    if (first) expected = {40, 2, 7};
    EXPECT_EQ(c.transfers, expected) << c.from << "->" << c.to;
  }
  std::optional<SnapshotRecord> latest = store->LatestComplete();
  ASSERT_TRUE(latest);
  EXPECT_EQ(latest->id, 1u);
  EXPECT_EQ(latest->balances, s->balances);
  EXPECT_FALSE(store->Find(2));
}

TEST_F(StoreTest, FailingSnapshots) {
  Store store = MustOpen(PathOf("s.db"));
  std::mt19937_64 rng(2);
  std::int64_t run = store.BeginRun(2, 50, 100, std::nullopt);
  for (std::uint64_t id = 1; id <= 3; ++id) store.SnapshotStarted(run, id, 0, 10);
  store.SnapshotComplete(MakeSnapshot(run, 2, 2, 100, rng));

  store.SnapshotFailed(run, 1);
  EXPECT_EQ(store.Find(1)->status, "failed");
  store.SnapshotFailed(run, 1);  // again: nothing changes
  EXPECT_EQ(store.Find(1)->status, "failed");
  EXPECT_THROW(store.SnapshotFailed(run, 2), StoreError);  // complete stays complete
  EXPECT_EQ(store.Find(2)->status, "complete");
  EXPECT_THROW(store.SnapshotFailed(run, 9), StoreError);
  EXPECT_THROW(store.SnapshotFailed(run + 1, 3), StoreError);  // another run's

  store.FailRunning(run);
  std::vector<std::string> statuses;
  for (const SnapshotRecord& s : store.Snapshots()) statuses.push_back(s.status);
  EXPECT_EQ(statuses, (std::vector<std::string>{"failed", "complete", "failed"}));
  EXPECT_FALSE(store.Find(3)->total);
  EXPECT_TRUE(store.Find(3)->balances.empty());
  EXPECT_EQ(store.LatestComplete()->id, 2u);
  // A failed snapshot cannot complete later.
  try {
    store.SnapshotComplete(MakeSnapshot(run, 3, 2, 100, rng));
    ADD_FAILURE() << "completed a failed snapshot";
  } catch (const StoreError& e) {
    EXPECT_TRUE(Has(e.what(), "snapshot 3 is failed")) << e.what();
  }
  EXPECT_EQ(store.Find(3)->status, "failed");
}

TEST_F(StoreTest, SnapshotIdsAreUniqueAndARestoredRunContinuesThem) {
  Store store = MustOpen(PathOf("s.db"));
  std::mt19937_64 rng(3);
  std::int64_t first = store.BeginRun(3, 10, 30, std::nullopt);
  store.SnapshotStarted(first, 1, 0, 1);
  store.SnapshotComplete(MakeSnapshot(first, 1, 3, 30, rng));
  store.SnapshotStarted(first, 2, 1, 2);
  EXPECT_THROW(store.SnapshotStarted(first, 2, 1, 2), StoreError);
  EXPECT_THROW(store.SnapshotStarted(first, 3, 3, 2), StoreError);  // no rank 3
  EXPECT_THROW(store.SnapshotStarted(first + 5, 3, 0, 2), StoreError);  // no such run
  store.FailRunning(first);

  // Refused restores add no run.
  EXPECT_THROW(store.BeginRun(3, 10, 30, 7), StoreError);   // no snapshot 7
  EXPECT_THROW(store.BeginRun(3, 10, 30, 2), StoreError);   // failed
  EXPECT_THROW(store.BeginRun(4, 10, 30, 1), StoreError);   // 3 ranks, not 4
  EXPECT_THROW(store.BeginRun(0, 10, 30, std::nullopt), StoreError);
  EXPECT_EQ(store.Runs().size(), 1u);

  std::int64_t second = store.BeginRun(3, 10, 30, 1);
  EXPECT_EQ(second, first + 1);
  EXPECT_EQ(store.Runs().back().restored_from, 1u);
  EXPECT_EQ(store.NextSnapshotId(), 3u);
  store.SnapshotStarted(second, store.NextSnapshotId(), 0, 5);
  EXPECT_EQ(store.Find(3)->run, second);
  EXPECT_EQ(store.NextSnapshotId(), 4u);
}

TEST_F(StoreTest, AnIncompleteRecordIsRefusedAndNothingOfItIsWritten) {
  Store store = MustOpen(PathOf("s.db"));
  std::mt19937_64 rng(4);
  std::int64_t run = store.BeginRun(3, 10, 30, std::nullopt);
  store.SnapshotStarted(run, 1, 0, 1);
  const SnapshotRecord good = MakeSnapshot(run, 1, 3, 30, rng);

  std::vector<SnapshotRecord> bad(6, good);
  bad[0].balances.pop_back();                      // a rank without a balance
  bad[1].channels.pop_back();                      // a channel missing
  bad[2].channels.back() = bad[2].channels.front();  // one channel twice
  bad[3].channels.back().to = bad[3].channels.back().from;  // a self-loop
  bad[4].channels.back().to = 7;                   // a rank the run lacks
  bad[5].run = run + 1;                            // another run
  for (std::size_t i = 0; i < bad.size(); ++i) {
    EXPECT_THROW(store.SnapshotComplete(bad[i]), StoreError) << i;
    std::optional<SnapshotRecord> s = store.Find(1);
    EXPECT_EQ(s->status, "running") << i;
    EXPECT_FALSE(s->total) << i;
  }
  store.SnapshotComplete(good);
  EXPECT_EQ(store.Find(1)->total, 30);
  EXPECT_THROW(store.SnapshotComplete(good), StoreError);  // only once
}

TEST_F(StoreTest, AFullDiskRollsTheWholeSnapshotBack) {
  const std::string path = PathOf("s.db");
  Store store = MustOpen(path);
  std::mt19937_64 rng(5);
  std::int64_t run = store.BeginRun(12, 1000, 12000, std::nullopt);
  store.SnapshotStarted(run, 1, 0, 1);
  // 132 channels of up to 400 transfers: far more than 12 pages hold, so the
  // write fails partway, after some of its rows went in.
  SnapshotRecord big = MakeSnapshot(run, 1, 12, 12000, rng, 400);
  store.SetMaxPages(12);
  try {
    store.SnapshotComplete(big);
    FAIL() << "a snapshot larger than the file may grow was written";
  } catch (const StoreError& e) {
    EXPECT_TRUE(Has(e.what(), "full")) << e.what();
    EXPECT_TRUE(Has(e.what(), "completing snapshot 1")) << e.what();
    EXPECT_TRUE(Has(e.what(), path)) << e.what();
  }
  std::optional<SnapshotRecord> s = store.Find(1);
  EXPECT_EQ(s->status, "running");
  EXPECT_TRUE(s->balances.empty());

  // The store is still whole and usable once there is room.
  store.SetMaxPages(1'000'000);
  store.SnapshotComplete(big);
  EXPECT_EQ(store.Find(1)->total, 12000);
  EXPECT_EQ(store.Find(1)->channels.size(), 132u);
}

TEST_F(StoreTest, AMissingFileIsAnErrorAndIsNotCreated) {
  const std::string path = PathOf("none.db");
  StatusOr<Store> writing = Store::Open(path, false);
  EXPECT_EQ(writing.status().code(), Code::kNoSuchFile);
  EXPECT_EQ(Said(writing.status()), path + ": no such file");
  StatusOr<Store> reading = Store::OpenReadOnly(path);
  EXPECT_EQ(Said(reading.status()), path + ": no such file");
  EXPECT_TRUE(Listing().empty());
  // Nor into a folder that does not exist.
  const std::string nested = PathOf("no/such/dir/s.db");
  StatusOr<Store> nowhere = Store::Open(nested, true);
  EXPECT_EQ(nowhere.status().code(), Code::kCannotCreate);
  EXPECT_EQ(Said(nowhere.status()), "cannot create " + nested + ": unable to open database file");
  EXPECT_TRUE(Listing().empty());
}

TEST_F(StoreTest, FilesThatAreNotCutlineStoresAreRefusedUntouched) {
  Write(dir_ / "text.db", "network P1=100 P2=100\n");
  ExpectRefused(PathOf("text.db"), "is not a cutline store (not an SQLite database)");
  Write(dir_ / "empty.db", "");
  ExpectRefused(PathOf("empty.db"), "is empty, not a cutline store");
  fs::create_directory(dir_ / "folder.db");
  ExpectRefused(PathOf("folder.db"), "is a directory, not a cutline store");

  // Another program's SQLite database, in WAL mode like ours.
  const std::string other = PathOf("other.db");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(other.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db,
                         "PRAGMA journal_mode = WAL; CREATE TABLE runs (id INTEGER);"
                         "INSERT INTO runs VALUES (1);",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  ExpectRefused(other, "is not a cutline store (an SQLite database of another kind)");
}

TEST_F(StoreTest, ACorruptStoreIsRefusedUntouched) {
  const std::string path = PathOf("s.db");
  {
    Store store = MustOpen(path);
    std::mt19937_64 rng(6);
    std::int64_t run = store.BeginRun(8, 100, 800, std::nullopt);
    for (std::uint64_t id = 1; id <= 20; ++id) {
      store.SnapshotStarted(run, id, 0, 1);
      store.SnapshotComplete(MakeSnapshot(run, id, 8, 800, rng, 20));
    }
  }
  const std::string good = Bytes(path);
  ASSERT_GT(good.size(), 16u * 4096);

  // Pages past the first overwritten: the header still says "cutline".
  std::string damaged = good;
  for (std::size_t i = 4096; i < damaged.size(); i += 7) damaged[i] = '\x5a';
  Write(path, damaged);
  ExpectRefused(path, "is corrupt", true);

  // Cut short.
  Write(path, good.substr(0, good.size() / 2));
  ExpectRefused(path, "is corrupt", true);

  // Sound SQLite, but a table of the store is gone.
  Write(path, good);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "DROP TABLE transfers", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  ExpectRefused(path, "is corrupt: its table transfers is missing", true);

  // Written by a later schema (user_version, big-endian at offset 60).
  std::string newer = good;
  newer[63] = 6;
  Write(path, newer);
  ExpectRefused(path, "was written by a newer cutline (store schema 6; this one reads 5)");
}

TEST_F(StoreTest, ReadingOnlyNeverWritesTheFile) {
  const std::string path = PathOf("s.db");
  {
    Store store = MustOpen(path);
    std::mt19937_64 rng(7);
    std::int64_t run = store.BeginRun(3, 10, 30, std::nullopt);
    store.SnapshotStarted(run, 1, 0, 1);
    store.SnapshotComplete(MakeSnapshot(run, 1, 3, 30, rng));
  }
  const std::string before = Bytes(path);
  {
    std::string error;
    StatusOr<Store> store = Store::OpenReadOnly(path);
    error = Said(store.status());
    ASSERT_TRUE(store.ok()) << error;
    EXPECT_EQ(store->Runs().size(), 1u);
    EXPECT_EQ(store->Find(1)->total, 30);
    try {
      store->BeginRun(3, 10, 30, std::nullopt);
      ADD_FAILURE() << "a read-only store wrote";
    } catch (const StoreError& e) {
      EXPECT_TRUE(Has(e.what(), "readonly")) << e.what();
    }
    EXPECT_THROW(store->FailRunning(1), StoreError);
  }
  EXPECT_EQ(Bytes(path), before);
}

// Forks a writer that commits snapshot 1 complete, starts snapshot 2, then
// dies by SIGKILL with the store open: its commits sit in FILE-wal only.
TEST_F(StoreTest, AReaderSeesWhatACrashedWriterCommittedAndChangesNothing) {
  const std::string path = PathOf("s.db");
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    try {
      std::string error;
      StatusOr<Store> store = Store::Open(path, true);
      error = Said(store.status());
      if (!store.ok()) ::_exit(3);
      std::mt19937_64 rng(8);
      std::int64_t run = store->BeginRun(4, 25, 100, std::nullopt);
      store->SnapshotStarted(run, 1, 0, 1);
      store->SnapshotComplete(MakeSnapshot(run, 1, 4, 100, rng));
      store->SnapshotStarted(run, 2, 1, 2);
      ::raise(SIGKILL);
    } catch (...) {
    }
    ::_exit(4);
  }
  int wstatus = 0;
  ASSERT_EQ(::waitpid(pid, &wstatus, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGKILL) << wstatus;
  ASSERT_TRUE(fs::exists(path + "-wal"));
  ASSERT_GT(fs::file_size(path + "-wal"), 0u);
  const std::string db_before = Bytes(path), wal_before = Bytes(path + "-wal");
  {
    std::string error;
    StatusOr<Store> store = Store::OpenReadOnly(path);
    error = Said(store.status());
    ASSERT_TRUE(store.ok()) << error;
    std::optional<SnapshotRecord> one = store->Find(1);
    ASSERT_TRUE(one);
    EXPECT_EQ(one->status, "complete");
    EXPECT_EQ(one->total, 100);
    EXPECT_EQ(one->balances.size(), 4u);
    EXPECT_EQ(one->channels.size(), 12u);
    EXPECT_EQ(store->Find(2)->status, "running");
  }
  EXPECT_EQ(Bytes(path), db_before);
  EXPECT_EQ(Bytes(path + "-wal"), wal_before);

  // The next writer takes over: it fails what the dead run left running.
  Store store = MustOpen(path, false);
  store.FailRunning(1);
  EXPECT_EQ(store.Find(2)->status, "failed");
  EXPECT_EQ(store.LatestComplete()->id, 1u);
}

// Every complete snapshot in the file is whole and adds up to its run's
// total; returns how many there are.
int ExpectEveryCompleteSnapshotWhole(const Store& store) {
  std::map<std::int64_t, StoredRun> runs;
  for (const StoredRun& r : store.Runs()) runs[r.id] = r;
  int complete = 0;
  for (const SnapshotRecord& listed : store.Snapshots()) {
    if (listed.status != "complete") {
      EXPECT_FALSE(listed.total) << listed.id;
      continue;
    }
    ++complete;
    std::optional<SnapshotRecord> s = store.Find(listed.id);
    const StoredRun& run = runs.at(s->run);
    const std::uint32_t n = run.ranks;
    EXPECT_EQ(s->balances.size(), n) << "snapshot " << s->id;
    EXPECT_EQ(s->channels.size(), std::size_t{n} * (n - 1)) << "snapshot " << s->id;
    std::set<std::pair<std::uint32_t, std::uint32_t>> pairs;
    Amount sum = 0;
    for (Amount b : s->balances) sum += b;
    for (const StoredChannel& c : s->channels) {
      pairs.insert({c.from, c.to});
      for (Amount a : c.transfers) sum += a;
    }
    EXPECT_EQ(pairs.size(), std::size_t{n} * (n - 1)) << "snapshot " << s->id;
    EXPECT_EQ(s->total, sum) << "snapshot " << s->id;
    EXPECT_EQ(sum, run.total) << "snapshot " << s->id;
  }
  return complete;
}

TEST_F(StoreTest, AWriterKilledAtAnyMomentNeverLeavesAPartialSnapshotComplete) {
  const std::string path = PathOf("s.db");
  constexpr int kRounds = 8;
  constexpr std::uint32_t kRanks = 6;
  constexpr Amount kTotal = 6000;
  int complete_before = 0;
  for (int round = 0; round < kRounds; ++round) {
    int ready[2];
    ASSERT_EQ(::pipe(ready), 0);
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      // The writer: one run, snapshots as fast as it can, never stopping.
      ::close(ready[0]);
      try {
        std::string error;
        StatusOr<Store> store = Store::Open(path, true);
        error = Said(store.status());
        if (!store.ok()) ::_exit(3);
        std::mt19937_64 rng(static_cast<unsigned>(round));
        std::int64_t run = store->BeginRun(kRanks, kTotal / kRanks, kTotal, std::nullopt);
        for (;;) {
          std::uint64_t id = store->NextSnapshotId();
          store->SnapshotStarted(run, id, static_cast<std::uint32_t>(id % kRanks), 1);
          store->SnapshotComplete(MakeSnapshot(run, id, kRanks, kTotal, rng, 30));
          char tick = '.';
          if (::write(ready[1], &tick, 1) != 1) ::_exit(5);
        }
      } catch (...) {
      }
      ::_exit(4);
    }
    ::close(ready[1]);
    // Let it complete a few, then kill it a little later each round, so the
    // kills land at different points of its writing.
    char tick;
    for (int i = 0; i < 2; ++i) ASSERT_EQ(::read(ready[0], &tick, 1), 1);
    ::usleep(static_cast<useconds_t>(round * 1500));
    ::kill(pid, SIGKILL);
    int wstatus = 0;
    ASSERT_EQ(::waitpid(pid, &wstatus, 0), pid);
    ::close(ready[0]);
    ASSERT_TRUE(WIFSIGNALED(wstatus)) << "the writer stopped by itself: " << wstatus;

    // As the dead writer left it (read-only: its WAL untouched) ...
    std::string error;
    std::optional<Store> reader = ReadOnlyOrNothing(path, &error);
    ASSERT_TRUE(reader) << "round " << round << ": " << error;
    int complete = ExpectEveryCompleteSnapshotWhole(*reader);
    EXPECT_GE(complete, complete_before + 2) << "round " << round;
    reader.reset();
    // ... and once a writer has opened it again.
    Store store = MustOpen(path, false);
    EXPECT_EQ(ExpectEveryCompleteSnapshotWhole(store), complete);
    complete_before = complete;
  }
}

// --- schema 2, and the version-1 files before it ------------------------------

// testdata/store-v1.db was written by cutline before schema 2 (three runs of
// 3 ranks: one ended, one killed by --kill, one restored from snapshot 13).
const fs::path kVersion1 = fs::path(CUTLINE_TESTDATA_DIR) / "store-v1.db";

std::vector<std::string> SchemaOf(const std::string& path) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(db, "SELECT type, name, sql FROM sqlite_schema ORDER BY name", -1, &stmt,
                     nullptr);
  std::vector<std::string> rows;
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    std::string row;
    for (int i = 0; i < 3; ++i) {
      const unsigned char* t = sqlite3_column_text(stmt, i);
      row += (t ? reinterpret_cast<const char*>(t) : "NULL") + std::string("|");
    }
    rows.push_back(row);
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return rows;
}

TEST_F(StoreTest, AVersion1FileIsReadAsItIsAndNeverWritten) {
  const std::string path = PathOf("v1.db");
  fs::copy_file(kVersion1, path);
  const std::string before = Bytes(path);
  ASSERT_EQ(before[63], 1) << "the fixture is not a version-1 file";
  std::string error;
  std::optional<Store> s = ReadOnlyOrNothing(path, &error);
  ASSERT_TRUE(s) << error;
  EXPECT_EQ(s->schema_version(), 1u);
  std::vector<StoredRun> runs = s->Runs();
  ASSERT_EQ(runs.size(), 3u);
  for (const StoredRun& r : runs) {
    EXPECT_EQ(r.ranks, 3u);
    EXPECT_EQ(r.total, 3000);
    // What version 1 did not keep is unknown, not made up.
    EXPECT_EQ(r.status, "");
    EXPECT_FALSE(r.transfers);
    EXPECT_FALSE(r.ended_us);
  }
  EXPECT_EQ(runs[2].restored_from, 13u);
  std::vector<SnapshotRecord> snapshots = s->Snapshots();
  ASSERT_EQ(snapshots.size(), 28u);  // 17 complete, 11 failed
  std::optional<SnapshotRecord> thirteen = s->Find(13);
  ASSERT_TRUE(thirteen);
  EXPECT_EQ(thirteen->status, "complete");
  EXPECT_EQ(thirteen->total, 3000);
  ASSERT_EQ(thirteen->balances.size(), 3u);
  ASSERT_EQ(thirteen->channels.size(), 6u);
  for (const StoredChannel& c : thirteen->channels) EXPECT_FALSE(c.marker_us);
  EXPECT_EQ(thirteen->recorded_us, (std::vector<std::int64_t>{0, 0, 0}));
  // Its summary says what it can: counts and latencies, not the run's state.
  RunSummary one = Summarize(runs[0], snapshots, 0);
  EXPECT_EQ(one.state, "unknown");
  EXPECT_FALSE(one.transfers_per_s);
  EXPECT_EQ(one.complete, 9u);
  EXPECT_TRUE(one.latency_p50_us);
  std::optional<CriticalPath> path13 = CriticalPathOf(*thirteen);
  ASSERT_TRUE(path13);
  EXPECT_TRUE(path13->markers.empty());
  EXPECT_FALSE(path13->last);
  s.reset();
  EXPECT_EQ(Bytes(path), before);
}

// Opened to be written, a version-1 file becomes version 2 with everything
// in it kept, and has exactly the schema of a store made new.
TEST_F(StoreTest, AVersion1FileOpenedForWritingIsMigrated) {
  const std::string path = PathOf("v1.db");
  fs::copy_file(kVersion1, path);
  std::vector<SnapshotRecord> old_snapshots;
  std::optional<SnapshotRecord> old13;
  {
    std::string error;
    StatusOr<Store> r = Store::OpenReadOnly(path);
    error = Said(r.status());
    ASSERT_TRUE(r.ok()) << error;
    old_snapshots = r->Snapshots();
    old13 = r->Find(13);
  }
  {
    Store s = MustOpen(path, false);
    EXPECT_EQ(s.schema_version(), 5u);
    ASSERT_EQ(s.Snapshots().size(), old_snapshots.size());
    EXPECT_EQ(s.Find(13)->balances, old13->balances);
    EXPECT_EQ(s.Find(13)->channels[0].transfers, old13->channels[0].transfers);
    // A new run on it keeps what schema 2 keeps.
    std::int64_t run = s.BeginRun(3, 1000, 3000, 13);
    EXPECT_EQ(run, 4);
    EXPECT_EQ(s.Runs()[3].status, "live");
    EXPECT_EQ(s.Runs()[0].status, "");  // the old runs stay unknown
    EXPECT_EQ(s.Runs()[0].app, "bank");  // and were the bank's (schema 4)
  }
  EXPECT_EQ(Bytes(path)[63], 5);
  const std::string fresh = PathOf("fresh.db");
  MustOpen(fresh);
  EXPECT_EQ(SchemaOf(path), SchemaOf(fresh));
  // And opening it again migrates nothing twice.
  Store again = MustOpen(path, false);
  EXPECT_EQ(again.Runs().size(), 4u);
}

// A version-1 file whose `runs` has lost its `id` passes the checks before
// opening (its tables are there) and fails only at migration step 5, which
// copies `runs` by its columns. Steps 2 to 4 ran before it: the whole
// migration is one transaction, so the refused file is left byte for byte
// as it was, at version 1, with nothing beside it.
TEST_F(StoreTest, AStoreWhoseMigrationFailsIsLeftAsItWas) {
  const std::string path = PathOf("v1.db");
  fs::copy_file(kVersion1, path);
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "ALTER TABLE runs RENAME COLUMN id TO run_id", nullptr, nullptr,
                           nullptr),
              SQLITE_OK)
        << sqlite3_errmsg(db);
    sqlite3_close(db);  // the last connection: its WAL is copied in and removed
  }
  const auto listing = Listing();
  ASSERT_EQ(listing, std::vector<std::string>{"v1.db"});
  const std::string before = Bytes(path);
  ASSERT_EQ(before[63], 1);
  StatusOr<Store> s = Store::Open(path, false);
  ASSERT_FALSE(s.ok());
  const std::string error = Said(s.status());
  EXPECT_TRUE(Has(error, "no such column: id (while migrating the store to schema 5)")) << error;
  EXPECT_FALSE(Has(error, "\n")) << error;
  EXPECT_TRUE(Bytes(path) == before) << "the refused store was changed (version "
                                      << int(Bytes(path)[63]) << ")";
  std::vector<std::string> now = Listing();
  if (std::erase(now, "v1.db-wal") > 0) {
    EXPECT_EQ(fs::file_size(path + "-wal"), 0u) << "something was written";
  }
  std::erase(now, "v1.db-shm");
  EXPECT_EQ(now, listing);
}

// A reader that opened a version-1 file reads schema 2 once a writer has
// migrated it meanwhile.
TEST_F(StoreTest, AReaderFollowsAMigrationMadeWhileItWasOpen) {
  const std::string path = PathOf("v1.db");
  fs::copy_file(kVersion1, path);
  std::string error;
  StatusOr<Store> reader = Store::OpenReadOnly(path);
  error = Said(reader.status());
  ASSERT_TRUE(reader.ok()) << error;
  EXPECT_EQ(reader->schema_version(), 1u);
  {
    Store writer = MustOpen(path, false);
    std::int64_t run = writer.BeginRun(3, 1000, 3000, std::nullopt);
    writer.RunProgress(run, 42, 5'000'000);
  }
  std::vector<StoredRun> runs = reader->Runs();
  EXPECT_EQ(reader->schema_version(), 5u);
  ASSERT_EQ(runs.size(), 4u);
  EXPECT_EQ(runs[3].transfers, 42u);
}

// Schema 3: why each failed snapshot failed, as the run said (given up at
// its timeout), or as its run's end or death left it.
// Schema 4: a run of jobs or locks says so, and each of its complete
// snapshots keeps the property found on it. Its totals vary (jobs are made
// and finished), which Verify accepts for it and only for it.
TEST_F(StoreTest, ARunOfJobsKeepsEachSnapshotsVerdict) {
  Store s = MustOpen(PathOf("jobs.db"));
  std::mt19937_64 rng(11);
  const std::int64_t run = s.BeginRun(3, 4, 12, std::nullopt, "jobs");
  s.SnapshotStarted(run, 1, 0, 1);
  SnapshotRecord busy = MakeSnapshot(run, 1, 3, 40, rng, 1);
  busy.verdict = StoredVerdict{"terminated", false, {0, 2}, {{1, 2}, {1, 2}}};
  s.SnapshotComplete(busy);
  s.SnapshotStarted(run, 2, 1, 2);
  SnapshotRecord idle = MakeSnapshot(run, 2, 3, 0, rng, 0);
  idle.verdict = StoredVerdict{"terminated", true, {}, {}};
  s.SnapshotComplete(idle);
  EXPECT_EQ(s.Runs().at(0).app, "jobs");
  EXPECT_EQ(s.Find(1)->verdict, busy.verdict);
  EXPECT_EQ(s.Find(2)->verdict, idle.verdict);
  EXPECT_TRUE(s.Verify().ok()) << LineOf(s.Verify().problems.front());

  // The bank's snapshots keep no verdict, and their totals stay checked.
  const std::int64_t bank = s.BeginRun(3, 4, 12, std::nullopt);
  s.SnapshotStarted(bank, 3, 0, 3);
  s.SnapshotComplete(MakeSnapshot(bank, 3, 3, 41, rng, 1));
  EXPECT_EQ(s.Runs().at(1).app, "bank");
  EXPECT_FALSE(s.Find(3)->verdict);
  Verification v = s.Verify();
  ASSERT_EQ(v.problems.size(), 1u);
  EXPECT_EQ(SubjectOf(v.problems[0]), "snapshot 3");
  EXPECT_TRUE(Has(WhatOf(v.problems[0]), "is not run 2's $12")) << WhatOf(v.problems[0]);

  // Pruning takes a snapshot's verdict with it.
  EXPECT_EQ(s.Prune(1).runs.at(0).removed_complete, 1u);
  EXPECT_FALSE(s.Find(1));
  EXPECT_EQ(s.Find(2)->verdict, idle.verdict);
}

TEST_F(StoreTest, AFailedSnapshotSaysWhy) {
  Store s = MustOpen(PathOf("why.db"));
  std::int64_t run = s.BeginRun(2, 100, 200, std::nullopt);
  for (std::uint64_t id = 1; id <= 3; ++id) s.SnapshotStarted(run, id, 0, 1000 + id);
  s.SnapshotFailed(run, 1, Store::Failure::kTimeout);
  s.EndRun(run, /*died=*/true, std::nullopt, 5000);  // 2 and 3 were running
  std::int64_t next = s.BeginRun(2, 100, 200, std::nullopt);
  s.SnapshotStarted(next, 4, 1, 6000);
  s.EndRun(next, /*died=*/false, 0, 7000);
  std::vector<std::string> why;
  for (const SnapshotRecord& r : s.Snapshots()) why.push_back(r.failure);
  EXPECT_EQ(why, (std::vector<std::string>{"timeout", "run_died", "run_died", "run_ended"}));
  EXPECT_EQ(s.Find(1)->failure, "timeout");
  EXPECT_TRUE(s.Verify().ok());
}

TEST_F(StoreTest, ARunsLifeIsKept) {
  Store s = MustOpen(PathOf("life.db"));
  std::int64_t run = s.BeginRun(2, 100, 200, std::nullopt);
  StoredRun r = s.Runs()[0];
  EXPECT_EQ(r.status, "live");
  EXPECT_EQ(r.transfers, 0u);
  ASSERT_TRUE(r.updated_us);
  s.RunProgress(run, 1500, r.started_us + 1'000'000);
  r = s.Runs()[0];
  EXPECT_EQ(r.transfers, 1500u);
  EXPECT_EQ(r.updated_us, r.started_us + 1'000'000);
  s.SnapshotStarted(run, 1, 0, r.started_us);
  s.EndRun(run, false, 3000, r.started_us + 2'000'000);
  r = s.Runs()[0];
  EXPECT_EQ(r.status, "ended");
  EXPECT_EQ(r.transfers, 3000u);
  EXPECT_EQ(r.ended_us, r.started_us + 2'000'000);
  EXPECT_EQ(s.Find(1)->status, "failed");  // still running at the end
  // Over is over: no second end, and a heartbeat changes nothing.
  EXPECT_THROW(s.EndRun(run, true, std::nullopt, r.started_us + 3'000'000), StoreError);
  s.RunProgress(run, 9, r.started_us + 4'000'000);
  EXPECT_EQ(s.Runs()[0].transfers, 3000u);
  EXPECT_THROW(s.EndRun(99, false, 1, 0), StoreError);

  // A run that died keeps its last heartbeat's count.
  std::int64_t second = s.BeginRun(2, 100, 200, std::nullopt);
  s.RunProgress(second, 70, s.Runs()[1].started_us + 500'000);
  s.EndRun(second, true, std::nullopt, s.Runs()[1].started_us + 600'000);
  EXPECT_EQ(s.Runs()[1].status, "died");
  EXPECT_EQ(s.Runs()[1].transfers, 70u);
  EXPECT_EQ(s.Runs()[1].updated_us, s.Runs()[1].started_us + 500'000);
  EXPECT_EQ(s.Runs()[1].ended_us, s.Runs()[1].started_us + 600'000);
}

// A reader's DataVersion moves with each commit another connection makes,
// however quickly they follow each other, and stays put otherwise (the
// page's store watch keys its cache on it: CI once saw a run's end missed
// because two commits left FILE-wal's size and time the same).
TEST_F(StoreTest, AReaderSeesEachCommitOfAWriterInItsDataVersion) {
  const std::string path = PathOf("version.db");
  Store writer = MustOpen(path);
  StatusOr<Store> reader = Store::OpenReadOnly(path);
  ASSERT_TRUE(reader.ok()) << Said(reader.status());
  std::uint64_t seen = reader->DataVersion();
  EXPECT_EQ(reader->DataVersion(), seen);  // nothing committed: no change
  std::int64_t run = writer.BeginRun(2, 100, 200, std::nullopt);
  for (std::uint64_t i = 1; i <= 50; ++i) {
    writer.RunProgress(run, i, 1'000'000 + static_cast<std::int64_t>(i));
    const std::uint64_t now = reader->DataVersion();
    ASSERT_NE(now, seen) << "commit " << i << " not seen";
    seen = now;
  }
  writer.EndRun(run, false, 50, 2'000'000);
  EXPECT_NE(reader->DataVersion(), seen);
  EXPECT_EQ(reader->Runs()[0].status, "ended");
}

TEST_F(StoreTest, RecordingAndMarkerTimesReadBack) {
  Store s = MustOpen(PathOf("times.db"));
  std::int64_t run = s.BeginRun(2, 100, 200, std::nullopt);
  s.SnapshotStarted(run, 1, 0, 1'000);
  SnapshotRecord rec;
  rec.id = 1;
  rec.run = run;
  rec.completed_us = 1'900;
  rec.balances = {150, 50};
  rec.recorded_us = {1'010, 1'300};
  rec.channels = {{0, 1, {}, 1'300}, {1, 0, {}, 1'700}};
  s.SnapshotComplete(rec);
  SnapshotRecord back = *s.Find(1);
  EXPECT_EQ(back.recorded_us, rec.recorded_us);
  EXPECT_EQ(back.channels[0].marker_us, 1'300);
  EXPECT_EQ(back.channels[1].marker_us, 1'700);
  std::optional<CriticalPath> path = CriticalPathOf(back);
  ASSERT_TRUE(path);
  ASSERT_EQ(path->markers.size(), 2u);
  EXPECT_EQ(path->markers[0].at_us, 300);
  ASSERT_TRUE(path->last);
  EXPECT_EQ(path->last->from, 1u);
  EXPECT_EQ(path->last->to, 0u);
  EXPECT_EQ(path->last->at_us, 700);
  EXPECT_EQ(path->collected_us, 900);
  ASSERT_EQ(path->recorded.size(), 2u);
  EXPECT_EQ(path->recorded[1].at_us, 300);

  // Times for the wrong number of ranks are refused, and nothing is written.
  s.SnapshotStarted(run, 2, 1, 2'000);
  rec.id = 2;
  rec.recorded_us = {1};
  EXPECT_THROW(s.SnapshotComplete(rec), StoreError);
  EXPECT_EQ(s.Find(2)->status, "running");
}

TEST(SummaryTest, FiguresComeFromTheSnapshotsAndTheRun) {
  StoredRun run;
  run.id = 1;
  run.started_us = 1'000'000;
  run.status = "live";
  run.transfers = 5'000;
  run.updated_us = 3'000'000;  // 2 s after the start
  std::vector<SnapshotRecord> snapshots;
  // Latencies 1, 2, ..., 100 ms (complete), three failed, one of another run.
  for (int i = 1; i <= 100; ++i) {
    SnapshotRecord s;
    s.id = static_cast<std::uint64_t>(i);
    s.run = 1;
    s.status = "complete";
    s.started_us = 1'000'000 + i;
    s.completed_us = s.started_us + i * 1'000;
    snapshots.push_back(s);
  }
  for (int i = 0; i < 3; ++i) {
    SnapshotRecord f;
    f.run = 1;
    f.status = "failed";
    snapshots.push_back(f);
  }
  SnapshotRecord other;
  other.run = 2;
  other.status = "complete";
  other.completed_us = 99'000'000;
  snapshots.push_back(other);

  RunSummary s = Summarize(run, snapshots, 3'500'000);
  EXPECT_EQ(s.state, "live");
  EXPECT_EQ(s.duration_us, 2'000'000);
  EXPECT_DOUBLE_EQ(*s.transfers_per_s, 2'500.0);
  EXPECT_EQ(s.complete, 100u);
  EXPECT_EQ(s.failed, 3u);
  EXPECT_EQ(s.latency_p50_us, 51'000);  // nearest rank of 1..100 ms
  EXPECT_EQ(s.latency_p99_us, 99'000);
  EXPECT_EQ(s.latency_max_us, 100'000);
  // No heartbeat for longer than kSilentAfterUs: silent, not live.
  EXPECT_EQ(Summarize(run, snapshots, 3'000'000 + kSilentAfterUs + 1).state, "silent");
  run.status = "ended";
  run.ended_us = 5'000'000;
  s = Summarize(run, snapshots, 99'000'000);
  EXPECT_EQ(s.state, "ended");
  EXPECT_DOUBLE_EQ(*s.transfers_per_s, 1'250.0);
  // Nothing complete: no latency to speak of.
  EXPECT_FALSE(Summarize(run, {}, 0).latency_p50_us);
}

// ---- verify and prune ----------------------------------------------------

// Runs `sql` on the file with a plain SQLite connection, foreign keys and
// CHECK constraints off: damage that cutline's writer would never make, as
// a bad disk, another program or a hand with the sqlite3 shell might.
void Damage(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* message = nullptr;
  const std::string all = "PRAGMA ignore_check_constraints = ON; " + sql;
  EXPECT_EQ(sqlite3_exec(db, all.c_str(), nullptr, nullptr, &message), SQLITE_OK)
      << sql << ": " << (message ? message : "");
  sqlite3_free(message);
  sqlite3_close(db);
}

// Rows in each of the store's tables, read with a plain connection.
std::map<std::string, std::int64_t> RowCounts(const std::string& path) {
  std::map<std::string, std::int64_t> counts;
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  for (const char* table : {"runs", "snapshots", "balances", "channels", "transfers", "vertices"}) {
    sqlite3_stmt* stmt = nullptr;
    const std::string sql = std::string("SELECT COUNT(*) FROM ") + table;
    sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr);
    if (sqlite3_step(stmt) == SQLITE_ROW) counts[table] = sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
  }
  sqlite3_close(db);
  return counts;
}

Verification VerifyFile(const std::string& path) {
  std::string error;
  StatusOr<Store> s = Store::OpenReadOnly(path);
  error = Said(s.status());
  if (!s.ok()) throw std::runtime_error("cannot open: " + error);
  return s->Verify();
}

// Run 1 of 3 ranks and $300: snapshots 1-4 complete, 5 failed, 6 running.
// Snapshot 4's channel N0->N1 holds [5, 6]. Every balance is positive (at
// most $90 are in the channels).
void MakeVerifiable(Store& store) {
  std::mt19937_64 rng(21);
  std::int64_t run = store.BeginRun(3, 100, 300, std::nullopt);
  for (std::uint64_t id = 1; id <= 6; ++id) store.SnapshotStarted(run, id, id % 3, 10);
  for (std::uint64_t id = 1; id <= 4; ++id) {
    SnapshotRecord s = MakeSnapshot(run, id, 3, 300, rng, 3);
    if (id == 4) {
      for (StoredChannel& c : s.channels) c.transfers.clear();
      for (StoredChannel& c : s.channels) {
        if (c.from == 0 && c.to == 1) c.transfers = {5, 6};
      }
      s.balances = {100, 89, 100};
    }
    store.SnapshotComplete(s);
  }
  store.SnapshotFailed(run, 5);
}

TEST_F(StoreTest, VerifyPassesASoundStoreAndReadsOnly) {
  const std::string path = PathOf("s.db");
  {
    Store store = MustOpen(path);
    MakeVerifiable(store);
  }
  const std::string before = Bytes(path);
  std::string error;
  std::optional<Store> store = ReadOnlyOrNothing(path, &error);
  ASSERT_TRUE(store) << error;
  Verification v = store->Verify();
  EXPECT_TRUE(v.ok()) << LineOf(v.problems.front());
  EXPECT_EQ(v.complete, 4u);
  EXPECT_EQ(v.other, 2u);  // 5 failed, 6 running: no parts, as they should
  for (std::uint64_t id = 1; id <= 6; ++id) {
    std::optional<Verification> one = store->Verify(id);
    ASSERT_TRUE(one) << id;
    EXPECT_TRUE(one->ok()) << id;
    EXPECT_EQ(one->complete, id <= 4 ? 1u : 0u) << id;
  }
  EXPECT_FALSE(store->Verify(99));
  store.reset();
  EXPECT_EQ(Bytes(path), before);
}

TEST_F(StoreTest, VerifyNamesEachKindOfDamage) {
  const std::string path = PathOf("s.db");
  {
    Store store = MustOpen(path);
    MakeVerifiable(store);
  }
  const std::string good = Bytes(path);
  struct Case {
    std::string sql, subject;
    std::vector<std::string> mentions;
  };
  const std::vector<Case> cases = {
      {"DELETE FROM balances WHERE snapshot = 2 AND rank = 1", "snapshot 2",
       {"rank N1's part is missing", "its parts add up to $"}},
      {"UPDATE balances SET balance = balance + 7 WHERE snapshot = 4 AND rank = 0", "snapshot 4",
       {"its parts add up to $307, not its total $300"}},
      {"DELETE FROM transfers WHERE snapshot = 3 AND from_rank = 2 AND to_rank = 0; "
       "DELETE FROM channels WHERE snapshot = 3 AND from_rank = 2 AND to_rank = 0",
       "snapshot 3", {"channel N2→N0 is missing (1 of 6)"}},
      // The channel row alone: its transfers now hang on nothing.
      {"DELETE FROM channels WHERE snapshot = 4 AND from_rank = 0 AND to_rank = 1", "snapshot 4",
       {"channel N0→N1 is missing", "transfers on N0→N1, a channel it did not record"}},
      {"DELETE FROM transfers WHERE snapshot = 4 AND position = 0", "snapshot 4",
       {"a transfer of N0→N1 is at position 1 where 0 belongs", "add up to $295"}},
      {"UPDATE balances SET balance = -89 WHERE snapshot = 4 AND rank = 1", "snapshot 4",
       {"N1's recorded balance is $-89"}},
      {"UPDATE transfers SET amount = -5 WHERE snapshot = 4 AND position = 0", "snapshot 4",
       {"a transfer of $-5 on N0→N1"}},
      {"UPDATE snapshots SET total = 301 WHERE id = 1", "snapshot 1",
       {"not its total $301", "its total $301 is not run 1's $300"}},
      {"UPDATE snapshots SET completed_us = NULL WHERE id = 2", "snapshot 2",
       {"complete without a completion time"}},
      {"UPDATE snapshots SET status = 'done' WHERE id = 1", "snapshot 1",
       {"its status 'done' is not running, complete or failed"}},
      {"UPDATE snapshots SET initiator = 3 WHERE id = 6", "snapshot 6",
       {"its initiator N3 is not a rank of run 1 (3 ranks)"}},
      {"INSERT INTO balances (snapshot, rank, balance) VALUES (1, 7, 0)", "snapshot 1",
       {"a part for N7, not a rank of run 1"}},
      {"INSERT INTO channels (snapshot, from_rank, to_rank) VALUES (2, 1, 1)", "snapshot 2",
       {"channel N1→N1, not one of run 1's"}},
      {"INSERT INTO balances (snapshot, rank, balance) VALUES (5, 0, 10)", "snapshot 5",
       {"it is failed yet holds parts (1 balance, 0 channel and 0 transfer rows)"}},
      {"UPDATE snapshots SET total = 300 WHERE id = 6", "snapshot 6",
       {"it is running yet has a total"}},
      {"INSERT INTO balances (snapshot, rank, balance) VALUES (99, 0, 5)", "snapshot 99",
       {"it is not in the store, yet parts of it are (1 rows)"}},
      {"UPDATE snapshots SET run = 7 WHERE id = 3", "snapshot 3",
       {"its run 7 is not in the store"}},
      {"UPDATE runs SET status = 'paused'", "run 1", {"its status 'paused'"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.sql);
    Write(path, good);
    Damage(path, c.sql);
    const std::string damaged = Bytes(path);
    Verification v = VerifyFile(path);
    // One line for the damaged snapshot, naming it; the others are sound.
    ASSERT_EQ(v.problems.size(), 1u);
    EXPECT_EQ(SubjectOf(v.problems[0]), c.subject);
    for (const std::string& m : c.mentions) {
      EXPECT_TRUE(Has(WhatOf(v.problems[0]), m)) << LineOf(v.problems[0]);
    }
    EXPECT_FALSE(Has(LineOf(v.problems[0]), "\n"));
    EXPECT_EQ(Bytes(path), damaged) << "verify wrote";
    fs::remove(path + "-wal");
    fs::remove(path + "-shm");
  }
  // A run's own total changed: the run, and every complete snapshot of it.
  Write(path, good);
  Damage(path, "UPDATE runs SET total = 301");
  Verification v = VerifyFile(path);
  ASSERT_EQ(v.problems.size(), 5u);
  EXPECT_EQ(LineOf(v.problems[0]), "run 1: its total $301 is not 3 ranks of $100");
  for (std::size_t i = 1; i < 5; ++i) {
    EXPECT_EQ(LineOf(v.problems[i]),
              "snapshot " + std::to_string(i) + ": its total $300 is not run 1's $301");
  }
  // Verify(id) checks that one only.
  Write(path, good);
  Damage(path, "DELETE FROM balances WHERE snapshot = 2 AND rank = 1");
  std::string error;
  StatusOr<Store> store = Store::OpenReadOnly(path);
  error = Said(store.status());
  ASSERT_TRUE(store.ok()) << error;
  EXPECT_TRUE(store->Verify(1)->ok());
  ASSERT_EQ(store->Verify(2)->problems.size(), 1u);
  EXPECT_EQ(SubjectOf(store->Verify(2)->problems[0]), "snapshot 2");
}

// The version-1 fixture (17 complete, 11 failed; one run restored from
// snapshot 13) verifies, read as it is.
TEST_F(StoreTest, VerifyReadsAVersion1FileAsItIs) {
  const std::string path = PathOf("v1.db");
  fs::copy_file(kVersion1, path);
  const std::string before = Bytes(path);
  Verification v = VerifyFile(path);
  EXPECT_TRUE(v.ok()) << LineOf(v.problems.front());
  EXPECT_EQ(v.complete, 17u);
  EXPECT_EQ(v.other, 11u);
  EXPECT_EQ(Bytes(path), before);
}

// Run 1: 1-3 complete, 4 failed, 5-6 complete. Run 2, restored from 2: 7-9
// complete, 10 failed (the file's highest id). Both ended.
void MakePrunable(Store& store) {
  std::mt19937_64 rng(22);
  std::int64_t one = store.BeginRun(3, 100, 300, std::nullopt);
  for (std::uint64_t id = 1; id <= 6; ++id) {
    store.SnapshotStarted(one, id, 0, 10);
    if (id == 4) {
      store.SnapshotFailed(one, id);
    } else {
      store.SnapshotComplete(MakeSnapshot(one, id, 3, 300, rng, 3));
    }
  }
  store.EndRun(one, false, 100, 2'000'000);
  std::int64_t two = store.BeginRun(3, 100, 300, 2);
  for (std::uint64_t id = 7; id <= 10; ++id) {
    store.SnapshotStarted(two, id, 1, 20);
    if (id == 10) {
      store.SnapshotFailed(two, id);
    } else {
      store.SnapshotComplete(MakeSnapshot(two, id, 3, 300, rng, 3));
    }
  }
  store.EndRun(two, false, 100, 3'000'000);
}

std::vector<std::uint64_t> Ids(const Store& store) {
  std::vector<std::uint64_t> ids;
  for (const SnapshotRecord& s : store.Snapshots()) ids.push_back(s.id);
  return ids;
}

TEST_F(StoreTest, PruneKeepsEachRunsLatestCompleteSnapshots) {
  const std::string path = PathOf("s.db");
  {
    Store store = MustOpen(path);
    MakePrunable(store);
  }
  const std::string made = Bytes(path);
  const auto before = RowCounts(path);
  {
    Store store = MustOpen(path, false);
    PruneResult pruned = store.Prune(1);
    // Run 1 keeps 6 (its latest) and 2 (run 2 began from it); run 2 keeps 9
    // and failed 10 (the highest id: the next run numbers from 11).
    EXPECT_EQ(Ids(store), (std::vector<std::uint64_t>{2, 6, 9, 10}));
    ASSERT_EQ(pruned.runs.size(), 2u);
    EXPECT_EQ(pruned.runs[0].removed_complete, 3u);  // 1, 3, 5
    EXPECT_EQ(pruned.runs[0].removed_failed, 1u);    // 4
    EXPECT_EQ(pruned.runs[0].kept_complete, 2u);
    EXPECT_EQ(pruned.runs[0].kept_origins, 1u);  // 2
    EXPECT_EQ(pruned.runs[0].kept_other, 0u);
    EXPECT_EQ(pruned.runs[1].removed_complete, 2u);  // 7, 8
    EXPECT_EQ(pruned.runs[1].removed_failed, 0u);
    EXPECT_EQ(pruned.runs[1].kept_complete, 1u);
    EXPECT_EQ(pruned.runs[1].kept_origins, 0u);
    EXPECT_EQ(pruned.runs[1].kept_other, 1u);
    EXPECT_EQ(store.Runs().size(), 2u);
    EXPECT_EQ(store.NextSnapshotId(), 11u);
    EXPECT_EQ(store.Verify().problems.size(), 0u);
    // 5 complete snapshots of 3 ranks went: 5 x (1 + 3 balances + 6
    // channels) rows and their transfers, and failed 4's one row.
    const auto after = RowCounts(path);
    EXPECT_EQ(after.at("runs"), before.at("runs"));
    EXPECT_EQ(after.at("snapshots"), 4);
    EXPECT_EQ(after.at("balances"), 3 * 3);  // 2, 6 and 9; 10 is failed: no parts
    EXPECT_EQ(after.at("channels"), 3 * 6);
    std::int64_t removed = 0;
    for (const auto& [table, n] : before) removed += n - after.at(table);
    EXPECT_EQ(pruned.rows, static_cast<std::uint64_t>(removed));
    EXPECT_EQ(removed - before.at("transfers") + after.at("transfers"), 5 * 10 + 1);
    // Again: nothing more to remove.
    PruneResult again = store.Prune(1);
    EXPECT_EQ(again.rows, 0u);
    EXPECT_EQ(Ids(store), (std::vector<std::uint64_t>{2, 6, 9, 10}));
  }
  Write(path, made);
  fs::remove(path + "-wal");
  fs::remove(path + "-shm");
  {
    Store store = MustOpen(path, false);
    store.Prune(2);
    EXPECT_EQ(Ids(store), (std::vector<std::uint64_t>{2, 5, 6, 8, 9, 10}));
    store.Prune(100);  // more than there are: nothing goes
    EXPECT_EQ(Ids(store), (std::vector<std::uint64_t>{2, 5, 6, 8, 9, 10}));
  }
}

TEST_F(StoreTest, ARefusedOrFailedPruneChangesNothing) {
  const std::string path = PathOf("s.db");
  {
    Store store = MustOpen(path);
    MakePrunable(store);
    // Run 3, live: snapshot 11 complete, 12 running.
    std::int64_t three = store.BeginRun(3, 100, 300, std::nullopt);
    std::mt19937_64 rng(23);
    store.SnapshotStarted(three, 11, 0, 30);
    store.SnapshotComplete(MakeSnapshot(three, 11, 3, 300, rng));
    store.SnapshotStarted(three, 12, 0, 31);
    store.RunProgress(three, 5, 50'000'000);
  }
  const std::string before = Bytes(path);
  const auto counts = RowCounts(path);
  {
    Store store = MustOpen(path, false);
    try {
      store.Prune(0);
      ADD_FAILURE() << "kept nothing";
    } catch (const StoreError& e) {
      EXPECT_TRUE(Has(e.what(), "at least the latest complete snapshot")) << e.what();
    }
    // Run 3 holds the writer's lock: its collector may write at any time.
    StatusOr<WriterLock> writer = WriterLock::Take(path);
    ASSERT_TRUE(writer.ok()) << Said(writer.status());
    writer->SetRun(3);
    try {
      store.Prune(1);
      ADD_FAILURE() << "pruned under a live run";
    } catch (const StoreError& e) {
      EXPECT_EQ(e.status().code(), Code::kWriterBusy);
      EXPECT_TRUE(Has(Said(e.status()), "run 3 is writing this store (process "))
          << Said(e.status());
      EXPECT_FALSE(Has(Said(e.status()), "\n"));
    }
  }
  EXPECT_EQ(Bytes(path), before);
  EXPECT_EQ(RowCounts(path), counts);

  // A deletion refused midway (a trigger standing for a failing disk) rolls
  // back the deletions before it: parts of other snapshots were already
  // deleted when snapshot 5's row refused.
  Damage(path,
         "CREATE TRIGGER keep5 BEFORE DELETE ON snapshots WHEN old.id = 5 "
         "BEGIN SELECT RAISE(ABORT, 'snapshot 5 stays'); END");
  {
    Store store = MustOpen(path, false);
    try {
      store.Prune(1);
      ADD_FAILURE() << "the trigger did not fire";
    } catch (const StoreError& e) {
      EXPECT_TRUE(Has(e.what(), "snapshot 5 stays")) << e.what();
    }
    EXPECT_EQ(RowCounts(path), counts);
    EXPECT_TRUE(store.Verify().ok());
  }
  Damage(path, "DROP TRIGGER keep5");
  {
    // Its lock is free: its processes are gone. Its running snapshot stays
    // (a restore may yet fail it), as does its latest complete one; failed
    // 10 is no longer the highest id and goes.
    Store store = MustOpen(path, false);
    store.Prune(1);
    EXPECT_EQ(Ids(store), (std::vector<std::uint64_t>{2, 6, 9, 11, 12}));
    EXPECT_EQ(store.Find(12)->status, "running");
  }
}

// ---- a dataflow's snapshots (schema 5) ---------------------------------------

// A whole snapshot of the dataflow 2-2-1 (N0, N1 sources; N2, N3 operators;
// N4 the sink) that conserves its records: the sources emitted 20; 3 are
// in flight into the operators (N0->N2 [1, 3], N1->N3 [5]), which received
// 8 and 9 and forwarded them all; 1 is in flight into the sink (N2->N4
// [7]), which received 16. Each keyed count adds up to its records.
SnapshotRecord MakeDataflowSnapshot(std::int64_t run, std::uint64_t id) {
  using Cost = StoredChannel::Cost;
  SnapshotRecord s;
  s.id = id;
  s.run = run;
  s.started_us = 1'000;
  s.completed_us = 5'000;
  s.status = "complete";
  s.vertices = {{0, 10, {}, 0, false, 0},
                {0, 10, {}, 0, false, 0},
                {8, 8, {{1, 8}}, 3'000, true, 1},
                {9, 9, {{2, 9}}, 200, false, 0},
                {16, 0, {{1, 8}, {2, 8}}, 4'000, false, 0}};
  s.channels = {{0, 2, {1, 3}, std::nullopt, Cost{true, 0, 0}},
                {0, 3, {}, std::nullopt, Cost{false, 200, 2}},
                {1, 2, {}, std::nullopt, Cost{false, 3'000, 4}},
                {1, 3, {5}, std::nullopt, Cost{true, 0, 0}},
                {2, 4, {7}, std::nullopt, Cost{false, 4'000, 1}},
                {3, 4, {}, std::nullopt, Cost{false, 10, 0}}};
  return s;
}

const StoredDataflow kFlow{"2-2-1", "aligned", 4, 1'000};

// A dataflow's run keeps its shape and mode, and each complete snapshot its
// vertices, its channels' records in flight and costs; the store adds up
// what each cost for a listing; a failed one keeps the parts it missed.
TEST_F(StoreTest, ADataflowsSnapshotsKeepTheirVerticesChannelsAndCosts) {
  const std::string path = PathOf("flow.db");
  {
    Store store = MustOpen(path);
    const std::int64_t run = store.BeginRun(5, 0, 0, std::nullopt, "dataflow", kFlow);
    store.SnapshotStarted(run, 1, 0, 1'000);
    store.SnapshotStarted(run, 2, 0, 2'000);
    store.SnapshotComplete(MakeDataflowSnapshot(run, 1));
    store.SnapshotFailed(run, 2, Store::Failure::kTimeout, {2, 4});
  }
  Store store = MustOpen(path, false);
  ASSERT_EQ(store.Runs().size(), 1u);
  EXPECT_EQ(store.Runs()[0].app, "dataflow");
  EXPECT_EQ(store.Runs()[0].dataflow, kFlow);
  const SnapshotRecord written = MakeDataflowSnapshot(1, 1);
  std::optional<SnapshotRecord> one = store.Find(1);
  ASSERT_TRUE(one);
  EXPECT_EQ(one->vertices, written.vertices);
  EXPECT_TRUE(one->balances.empty());
  ASSERT_EQ(one->channels.size(), written.channels.size());
  for (std::size_t i = 0; i < written.channels.size(); ++i) {
    EXPECT_EQ(one->channels[i].transfers, written.channels[i].transfers) << i;
    EXPECT_EQ(one->channels[i].cost, written.channels[i].cost) << i;
  }
  EXPECT_EQ(one->total, 20) << "the records its sources emitted";
  const StoredCost cost{4'000, true, 6, 2, 4, 7};
  EXPECT_EQ(one->cost, cost);
  const std::vector<SnapshotRecord> listed = store.Snapshots();
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].cost, cost);
  EXPECT_EQ(listed[1].failure, "timeout");
  EXPECT_EQ(listed[1].missing, (std::vector<std::uint32_t>{2, 4}));
  EXPECT_FALSE(listed[1].cost);
  EXPECT_TRUE(store.Verify().ok());
  // A run restored from it is of the same topology, and only such a run.
  EXPECT_THROW(store.BeginRun(5, 0, 20, 1, "dataflow", StoredDataflow{"4-1", "aligned", 4, {}}),
               StoreError);
  EXPECT_THROW(store.BeginRun(5, 0, 20, 1), StoreError);
  EXPECT_EQ(store.Runs().size(), 1u);
  EXPECT_GT(store.BeginRun(5, 0, 20, 1, "dataflow", StoredDataflow{"2-2-1", "unaligned", 2, {}}), 1);
}

// A dataflow's snapshot that is not whole is refused and nothing of it is
// written: a vertex short, balances in place of vertices, the bank's
// channels; so is a run whose topology is not of its ranks.
TEST_F(StoreTest, ADataflowSnapshotNotWholeIsRefusedWithNothingWritten) {
  const std::string path = PathOf("flow.db");
  Store store = MustOpen(path);
  EXPECT_THROW(store.BeginRun(4, 0, 0, std::nullopt, "dataflow", kFlow), StoreError);
  EXPECT_THROW(store.BeginRun(5, 0, 0, std::nullopt, "dataflow"), StoreError);
  const std::int64_t run = store.BeginRun(5, 0, 0, std::nullopt, "dataflow", kFlow);
  store.SnapshotStarted(run, 1, 0, 1'000);
  const auto before = RowCounts(path);
  SnapshotRecord short_one = MakeDataflowSnapshot(run, 1);
  short_one.vertices.pop_back();
  SnapshotRecord with_balances = MakeDataflowSnapshot(run, 1);
  with_balances.balances = {0, 0, 0, 0, 0};
  SnapshotRecord other_channels = MakeDataflowSnapshot(run, 1);
  other_channels.channels[5].from = 4;  // N4->N4 is no channel of 2-2-1
  for (const SnapshotRecord& bad : {short_one, with_balances, other_channels}) {
    EXPECT_THROW(store.SnapshotComplete(bad), StoreError);
    EXPECT_EQ(RowCounts(path), before);
    EXPECT_EQ(store.Find(1)->status, "running");
  }
}

// Verify judges a dataflow's snapshot by the rule the run judged it by: a
// record lost at a stage boundary, or a keyed count that is not its
// vertex's records, is named; a sound one passes.
TEST_F(StoreTest, VerifyFindsADataflowSnapshotThatDoesNotConserveItsRecords) {
  const std::string path = PathOf("flow.db");
  {
    Store store = MustOpen(path);
    const std::int64_t run = store.BeginRun(5, 0, 0, std::nullopt, "dataflow", kFlow);
    store.SnapshotStarted(run, 1, 0, 1'000);
    store.SnapshotComplete(MakeDataflowSnapshot(run, 1));
  }
  ASSERT_TRUE(VerifyFile(path).ok());
  Damage(path, "DELETE FROM transfers WHERE snapshot = 1 AND from_rank = 1 AND to_rank = 3");
  Damage(path, "UPDATE vertices SET per_key = '[[1, 7], [2, 8]]' WHERE snapshot = 1 AND rank = 4");
  const Verification v = VerifyFile(path);
  ASSERT_EQ(v.problems.size(), 1u);
  const std::string line = catalogue::ProblemLine(v.problems[0].about, v.problems[0].what, Lang::kEn);
  EXPECT_TRUE(Has(line, "snapshot 1")) << line;
  EXPECT_TRUE(Has(line, "stage 0 emitted 20 records, but stage 1 received 17 and 2 are in flight "
                        "between them")) << line;
  EXPECT_TRUE(Has(line, "N4's keyed counts add up to 15, not the 16 records it received")) << line;
  const std::string ja = catalogue::ProblemLine(v.problems[0].about, v.problems[0].what, Lang::kJa);
  EXPECT_TRUE(Has(ja, "段 0 が送り出したレコードは 20 件")) << ja;
}

// Prune deletes a dataflow snapshot's vertices with it.
TEST_F(StoreTest, PruneTakesADataflowSnapshotsVerticesWithIt) {
  const std::string path = PathOf("flow.db");
  {
    Store store = MustOpen(path);
    const std::int64_t run = store.BeginRun(5, 0, 0, std::nullopt, "dataflow", kFlow);
    for (std::uint64_t id = 1; id <= 3; ++id) {
      store.SnapshotStarted(run, id, 0, 1'000);
      store.SnapshotComplete(MakeDataflowSnapshot(run, id));
    }
    store.EndRun(run, false, 20, 9'000);
    EXPECT_EQ(RowCounts(path).at("vertices"), 15);
    store.Prune(1);
  }
  const auto after = RowCounts(path);
  EXPECT_EQ(after.at("vertices"), 5);
  EXPECT_EQ(after.at("channels"), 6);
  EXPECT_TRUE(VerifyFile(path).ok());
}

}  // namespace
}  // namespace cutline::store
