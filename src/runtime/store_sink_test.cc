// What `cluster` says of the store after its job ended without a summary
// (FailUnfinished): the last complete snapshot the store holds, even when the
// store would not take the write that marks the run died (the full disk that
// ended the run, another writer).
#include "runtime/store_sink.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "catalogue/messages.h"
#include "store/store.h"
#include "store/writer_lock.h"

namespace cutline::runtime {
namespace {

namespace fs = std::filesystem;

class FailUnfinishedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("cutline-storesink-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    path_ = (dir_ / "run.db").string();
    // A run of 2 ranks of $1000 that died with snapshot 1 complete and
    // snapshot 2 still running.
    store::Store s = std::move(store::Store::Open(path_, true)).value();
    run_ = s.BeginRun(2, 1000, 2000, std::nullopt);
    s.SnapshotStarted(run_, 1, 0, 1'000);
    store::SnapshotRecord one;
    one.run = run_;
    one.id = 1;
    one.completed_us = 2'000;
    one.balances = {1200, 790};
    one.channels = {{0, 1, {10}}, {1, 0, {}}};
    s.SnapshotComplete(one);
    s.SnapshotStarted(run_, 2, 1, 3'000);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Latest() {
    return FailUnfinished(path_, run_, [](const Status& s) {
      return catalogue::Message(s, Lang::kEn);
    });
  }
  std::string StatusOf(std::uint64_t id) {
    store::Store s = std::move(store::Store::OpenReadOnly(path_)).value();
    return s.Find(id)->status;
  }

  fs::path dir_;
  std::string path_;
  std::int64_t run_ = 0;
};

TEST_F(FailUnfinishedTest, TheRunIsMarkedDiedAndItsLastCompleteSnapshotNamed) {
  EXPECT_EQ(Latest(), "#1 (total $2000)");
  EXPECT_EQ(StatusOf(2), "failed");
}

// The store cannot be opened for writing (another holds its writer lock):
// the snapshot is named all the same, read back by a reader.
TEST_F(FailUnfinishedTest, AStoreThatCannotBeOpenedForWritingStillNamesIt) {
  StatusOr<store::WriterLock> other = store::WriterLock::Take(path_);
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(Latest(), "#1 (total $2000)");
  EXPECT_EQ(StatusOf(2), "running");  // not marked: nothing was written
}

// The store opens but refuses the write (as a full disk does; here
// SQLite's write lock held by another connection, past the busy timeout):
// the snapshot is named all the same, read on the writer's connection.
TEST_F(FailUnfinishedTest, AWriteThatFailsStillNamesIt) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
  EXPECT_EQ(Latest(), "#1 (total $2000)");
  sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(db);
  EXPECT_EQ(StatusOf(2), "running");
}

}  // namespace
}  // namespace cutline::runtime
