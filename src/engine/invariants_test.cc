// Invariants: quiet on honest runs, and loud when the state and the history
// disagree. A bank cannot be corrupted from outside, so the failing cases
// show the checker a bank other than the one it followed: its replay then
// holds a history that this bank's balances and queues do not match.
#include "engine/invariants.h"

#include <optional>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace cutline::engine {
namespace {

using ::testing::Contains;
using ::testing::IsEmpty;

Engine MakeBank() {
  Config config{.app = apps::App::kBank};
  config.branches = {{"P1", 100}, {"P2", 100}, {"P3", 100}};
  std::optional<Engine> bank;
  EXPECT_TRUE(Engine::Create(config, &bank).ok());
  return std::move(*bank);
}

TEST(InvariantsTest, HoldThroughAnHonestRunWithSnapshots) {
  Engine bank = MakeBank();
  Invariants invariants;
  auto check = [&] { EXPECT_THAT(invariants.CheckInvariants(bank), IsEmpty()); };
  check();
  ASSERT_TRUE(bank.Transfer(1, 0, 40).ok());
  check();
  ASSERT_TRUE(bank.StartSnapshot(0, std::nullopt).ok());
  check();
  ASSERT_TRUE(bank.Transfer(0, 2, 30).ok());
  check();
  ASSERT_TRUE(bank.Deliver(1, 0).ok());
  check();
  ASSERT_TRUE(bank.StartSnapshot(2, std::nullopt).ok());
  check();
  ASSERT_TRUE(bank.Drain().ok());
  check();
  EXPECT_TRUE(bank.snapshots()[0].complete && bank.snapshots()[1].complete);
}

TEST(InvariantsTest, NameBalancesAndQueuesThatDisagreeWithTheHistory) {
  Engine followed = MakeBank();
  Invariants invariants;
  ASSERT_TRUE(followed.Transfer(0, 1, 30).ok());
  ASSERT_THAT(invariants.CheckInvariants(followed), IsEmpty());
  Engine other = MakeBank();  // no transfer: P1 still has $100
  ASSERT_TRUE(other.Read(0).ok());
  ASSERT_TRUE(other.Read(1).ok());  // a history of its own: two reads
  std::vector<std::string> broken = invariants.CheckInvariants(other);
  EXPECT_THAT(broken, Contains("P1: holds $100, but the history gives $70"));
  EXPECT_THAT(broken, Contains("channel P1→P2: holds 0 messages, but the "
                               "history says 1 were sent on it and not "
                               "delivered (or in another order)"));
}

}  // namespace
}  // namespace cutline::engine
