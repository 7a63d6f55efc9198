// The store's writer lock (writer_lock.h): one holder at a time, its words
// in a refusal, and freedom the moment its holder dies, SIGKILL included.
#include "store/writer_lock.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "catalogue/messages.h"

namespace cutline::store {
namespace {

namespace fs = std::filesystem;

// A refusal as a user reads it (the catalogue's English line).
std::string Said(const Status& s) { return catalogue::Message(s, Lang::kEn); }

class WriterLockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("cutline-writer-lock-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    store_ = (dir_ / "s.db").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
  std::string store_;
};

TEST_F(WriterLockTest, NoOneHoldsTheLockOfAStoreNeverWritten) {
  EXPECT_FALSE(WriterLock::Holder(store_));
  EXPECT_FALSE(fs::exists(WriterLockPath(store_)));  // asking makes nothing
}

TEST_F(WriterLockTest, ASecondTakerIsRefusedWithTheHoldersWords) {
  std::optional<WriterLock> first;
  {
    StatusOr<WriterLock> taken = WriterLock::Take(store_);
    ASSERT_TRUE(taken.ok()) << Said(taken.status());
    first.emplace(std::move(taken).value());
  }
  std::optional<Writer> holder = WriterLock::Holder(store_);
  ASSERT_TRUE(holder);
  EXPECT_EQ(holder->pid, static_cast<long>(::getpid()));
  EXPECT_FALSE(holder->run);
  StatusOr<WriterLock> second = WriterLock::Take(store_);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), Code::kWriterStarting);
  std::string why = Said(second.status());
  EXPECT_EQ(why.rfind("a run is starting on this store (process ", 0), 0u) << why;

  first->SetRun(7);
  StatusOr<WriterLock> third = WriterLock::Take(store_);
  ASSERT_FALSE(third.ok());
  EXPECT_EQ(third.status().code(), Code::kWriterBusy);
  why = Said(third.status());
  EXPECT_EQ(why.rfind("run 7 is writing this store (process " + std::to_string(::getpid()) +
                          " on host ",
                      0),
            0u)
      << why;
  EXPECT_NE(why.find(": one writer at a time per store"), std::string::npos) << why;
  EXPECT_EQ(why.find('\n'), std::string::npos);
  // The same refusal in Japanese names the same run and process.
  const std::string ja = catalogue::Message(third.status(), Lang::kJa);
  EXPECT_NE(ja.find("実行 7"), std::string::npos) << ja;
  EXPECT_NE(ja.find(std::to_string(::getpid())), std::string::npos) << ja;

  first.reset();  // released: the next taker is let in
  EXPECT_FALSE(WriterLock::Holder(store_));
  StatusOr<WriterLock> fourth = WriterLock::Take(store_);
  EXPECT_TRUE(fourth.ok()) << Said(fourth.status());
}

// The whole point: a holder killed with SIGKILL (no destructor, no word)
// frees the store at once, not after a heartbeat's grace.
TEST_F(WriterLockTest, AHolderKilledFreesTheStoreAtOnce) {
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    StatusOr<WriterLock> lock = WriterLock::Take(store_);
    if (lock.ok()) lock->SetRun(2);
    const char held = lock.ok() ? 'y' : 'n';
    [[maybe_unused]] ssize_t n = ::write(ready[1], &held, 1);
    for (;;) ::pause();
  }
  ::close(ready[1]);
  char held = 0;
  ASSERT_EQ(::read(ready[0], &held, 1), 1);
  ::close(ready[0]);
  ASSERT_EQ(held, 'y');

  std::optional<Writer> holder = WriterLock::Holder(store_);
  ASSERT_TRUE(holder);
  EXPECT_EQ(holder->pid, static_cast<long>(child));
  EXPECT_EQ(holder->run, 2);
  StatusOr<WriterLock> refused = WriterLock::Take(store_);
  ASSERT_FALSE(refused.ok());
  const std::string why = Said(refused.status());
  EXPECT_EQ(why.rfind("run 2 is writing this store (process " + std::to_string(child), 0), 0u)
      << why;

  ::kill(child, SIGKILL);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_FALSE(WriterLock::Holder(store_));
  StatusOr<WriterLock> free = WriterLock::Take(store_);
  EXPECT_TRUE(free.ok()) << Said(free.status());
}

}  // namespace
}  // namespace cutline::store
