// The checker's judgements (CheckRun, JudgeCut: src/check) of the engine's
// runs, read through run_record.h: honest runs pass, lying claims about an
// honest history are caught, the naive reader's cut is judged as a snapshot,
// and hand-made and random cuts are judged as the schedule says. They live
// here, above both, because the checker and its own tests
// (src/check/*_test.cc) know no engine.
#include <cstdlib>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "check/consistency_checker.h"
#include "check/cut.h"
#include "engine/engine.h"
#include "engine/property.h"
#include "scenario/run_record.h"

namespace cutline::scenario {
namespace {

using cutline::Amount;
using check::CheckReport;
using check::CheckRun;
using check::CutCrossing;
using check::CutJudgement;
using check::IsMessageEvent;
using check::JudgeCut;
using check::MessageEventCounts;
using check::RunRecord;
using check::SnapshotClaim;
using engine::Engine;
using engine::PropertyNow;
using history::Cause;
using history::Event;
using sim::NodeId;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;

constexpr NodeId kP1 = 0;
constexpr NodeId kP2 = 1;
constexpr NodeId kP3 = 2;
constexpr NodeId kP4 = 3;

engine::Config Branches(int n, Amount balance = 100) {
  engine::Config config{.app = apps::App::kBank};
  for (int i = 1; i <= n; ++i) {
    config.branches.push_back({"P" + std::to_string(i), balance});
  }
  return config;
}

Engine MakeBank(const engine::Config& config) {
  std::optional<Engine> bank;
  Status s = Engine::Create(config, &bank);
  EXPECT_TRUE(s.ok()) << CodeName(s.code());
  return std::move(*bank);
}

void Ok(const Status& s) { ASSERT_TRUE(s.ok()) << CodeName(s.code()); }

// A bank of n branches P1, P2, ... each starting with `balance`.
Engine MakeBank(int n, Amount balance = 100) { return MakeBank(Branches(n, balance)); }

// ---------------------------------------------------------------------------
// Honest runs.

TEST(ConsistencyCheckerTest, ClassicMoneyInFlightPasses) {
  Engine bank = MakeBank(Branches(3));
  Ok(bank.Transfer(kP2, kP1, 40));
  Ok(bank.StartSnapshot(kP1, std::nullopt));
  Ok(bank.Drain());
  CheckReport report = CheckSnapshots(bank);
  EXPECT_THAT(report.problems, IsEmpty());
  EXPECT_TRUE(report.ok());
  EXPECT_EQ(report.snapshots_checked, 1);
}

// (g) Jobs: a snapshot that recorded the job in flight declares "not
// terminated", as at its cut; a claim that drops the job from the channel
// state declares "terminated", and the checker names the property too.
TEST(ConsistencyCheckerTest, JobsDeclaredTerminationIsJudgedAtTheCut) {
  engine::Config config = Branches(3, 0);
  config.branches[0].balance = 1;
  config.app = apps::App::kJobs;
  Engine bank = MakeBank(config);
  const apps::AppCommand* job = apps::App::FindCommand("job")->second;
  const apps::AppCommand* finish = apps::App::FindCommand("finish")->second;
  Ok(job->run(bank, std::vector<NodeId>{kP1, kP3}));
  Ok(finish->run(bank, std::vector<NodeId>{kP1}));
  Ok(bank.StartSnapshot(kP3, std::nullopt));
  Ok(bank.Deliver(kP3, kP1));
  Ok(bank.Drain());
  CheckReport report = CheckSnapshots(bank);
  EXPECT_THAT(report.problems, IsEmpty());
  ASSERT_EQ(report.verdicts.size(), 1u);
  ASSERT_TRUE(report.verdicts[0].declared.has_value());
  EXPECT_FALSE(report.verdicts[0].declared->holds);
  EXPECT_EQ(report.verdicts[0].property, report.verdicts[0].declared);

  RunRecord run = RunOf(bank);
  for (history::ChannelRecord& r : run.claims[0].channels) r.transfers.clear();
  CheckReport lie = CheckRun(run);
  EXPECT_THAT(lie.problems,
              testing::Contains("snapshot 1: declared terminated (no branch busy), but the state "
                                "replayed at its cut says not terminated (no branch busy; jobs "
                                "on P1→P3)"));
  EXPECT_FALSE(lie.verdicts[0].consistent());
}

TEST(ConsistencyCheckerTest, IncompleteSnapshotsAreNotChecked) {
  Engine bank = MakeBank(Branches(3));
  Ok(bank.StartSnapshot(kP1, std::nullopt));
  Ok(bank.DeliverNext());
  CheckReport report = CheckSnapshots(bank);
  EXPECT_TRUE(report.ok());
  EXPECT_EQ(report.snapshots_checked, 0);
}

TEST(ConsistencyCheckerTest,
     ConcurrentJoinedSnapshotsWithLinksAndCapacityPass) {
  engine::Config config = Branches(4);
  config.links = {{{"P1", "P2"},
                   {"P2", "P3"},
                   {"P3", "P4"},
                   {"P4", "P1"},
                   {"P3", "P1"},
                   {"P1", "P3"}}};
  config.capacity_transfers = 2;
  Engine bank = MakeBank(config);
  Ok(bank.Transfer(kP1, kP2, 30));
  Ok(bank.StartSnapshot(kP3, std::nullopt));
  Ok(bank.Transfer(kP1, kP2, 20));
  Ok(bank.Transfer(kP3, kP1, 70));
  Ok(bank.StartSnapshot(kP2, std::nullopt));
  Ok(bank.StartSnapshot(kP1, 1));  // joins snapshot 1
  Ok(bank.Deliver(kP3, kP1));
  Ok(bank.Transfer(kP1, kP3, 40));
  Ok(bank.Read(kP2));
  Ok(bank.DeliverNext());
  Ok(bank.StartSnapshot(kP4, std::nullopt));
  Ok(bank.Drain());
  CheckReport report = CheckSnapshots(bank);
  EXPECT_THAT(report.problems, IsEmpty());
  EXPECT_EQ(report.snapshots_checked, 3);
}

// The cut is judged by causality, not by the global order of the history:
// P1's $10 is sent (globally) before P2 records, yet after P1 recorded, and
// it is received after P2 recorded. Nothing crosses the cut backwards.
TEST(ConsistencyCheckerTest, ConcurrentEventsAreNotMistakenForCausality) {
  Engine bank = MakeBank(Branches(2));
  Ok(bank.StartSnapshot(kP1, std::nullopt));
  Ok(bank.Transfer(kP1, kP2, 10));
  Ok(bank.StartSnapshot(kP2, 1));
  Ok(bank.Drain());
  CheckReport report = CheckSnapshots(bank);
  EXPECT_THAT(report.problems, IsEmpty());
  EXPECT_EQ(report.snapshots_checked, 1);
}

TEST(ConsistencyCheckerTest, WithoutHistoryNothingCanBeChecked) {
  engine::Config config = Branches(2);
  config.keep_history = false;
  Engine bank = MakeBank(config);
  EXPECT_TRUE(CheckSnapshots(bank).ok());  // nothing to check yet
  Ok(bank.StartSnapshot(kP1, std::nullopt));
  Ok(bank.Drain());
  EXPECT_THAT(CheckSnapshots(bank).problems,
              ElementsAre("history: the bank keeps no history, so its "
                          "snapshots cannot be checked"));
}

// ---------------------------------------------------------------------------
// The bank's honest history with a lying claim or a tampered event.

class TamperedClaimTest : public ::testing::Test {
 protected:
  // P2 sends $40 and $10 to P1, then P1 snapshots: P2->P1 holds [40, 10].
  TamperedClaimTest() : bank_(MakeBank(Branches(3))) {
    Ok(bank_.Transfer(kP2, kP1, 40));
    Ok(bank_.Transfer(kP2, kP1, 10));
    Ok(bank_.StartSnapshot(kP1, std::nullopt));
    Ok(bank_.Drain());
    run_ = RunOf(bank_);
    events_.assign(run_.events.begin(), run_.events.end());
    run_.events = events_;
    p2p1_ = bank_.network().Find(kP2, kP1);
  }

  SnapshotClaim& claim() { return run_.claims.at(0); }
  std::vector<std::string> Problems() { return CheckRun(run_).problems; }

  Engine bank_;
  RunRecord run_{.app = apps::App::kBank};  // RunOf(bank_)'s once built
  std::vector<Event> events_;
  sim::ChannelId p2p1_;
};

TEST_F(TamperedClaimTest, UntouchedPasses) {
  EXPECT_EQ(claim().channels[p2p1_].transfers, (std::vector<Amount>{40, 10}));
  EXPECT_THAT(Problems(), IsEmpty());
}

TEST_F(TamperedClaimTest, MissingTransferInAChannel) {
  claim().channels[p2p1_].transfers = {40};
  EXPECT_THAT(
      Problems(),
      ElementsAre("snapshot 1: channel P2→P1 recorded [$40] but expected "
                  "[$40, $10]",
                  "snapshot 1: money is not conserved: recorded balances $250 "
                  "+ channel states $40 = $290, but the bank holds $300",
                  "snapshot 1: claims a total of $300, but its records add up "
                  "to $290",
                  "snapshot 1: $10 (message #2) in flight on P2→P1 is missing "
                  "from the snapshot"));
}

TEST_F(TamperedClaimTest, TransfersInTheWrongOrder) {
  // The total is right: only the order check can catch this.
  claim().channels[p2p1_].transfers = {10, 40};
  EXPECT_THAT(Problems(), ElementsAre("snapshot 1: channel P2→P1 recorded "
                                      "[$10, $40] but expected [$40, $10]"));
}

TEST_F(TamperedClaimTest, TransfersOnTheWrongChannel) {
  sim::ChannelId p3p1 = bank_.network().Find(kP3, kP1);
  std::swap(claim().channels[p2p1_].transfers,
            claim().channels[p3p1].transfers);
  EXPECT_THAT(Problems(),
              ElementsAre("snapshot 1: channel P2→P1 recorded [] but "
                          "expected [$40, $10]",
                          "snapshot 1: channel P3→P1 recorded [$40, $10] but "
                          "expected []",
                          // By channel: P2->P1's state lacks both (the total,
                          // by luck, is still right).
                          "snapshot 1: $40 (message #1) in flight on P2→P1 is "
                          "missing from the snapshot",
                          "snapshot 1: $10 (message #2) in flight on P2→P1 is "
                          "missing from the snapshot"));
}

TEST_F(TamperedClaimTest, WrongRecordedBalance) {
  claim().balances[kP2] = 60;
  EXPECT_THAT(Problems(),
              Contains("snapshot 1: P2 recorded $60 but its balance replayed "
                       "from the history at its record is $50"));
  EXPECT_THAT(Problems(),
              Contains("snapshot 1: money is not conserved: recorded balances "
                       "$260 + channel states $50 = $310, but the bank holds "
                       "$300"));
}

// A record's cause is read, not guessed, so the checker must not take it on
// trust: P3 recorded on P1's marker, and its record now claims to have been
// started by P3 itself. Its cut point moves past the marker's receipt, which
// then crosses the cut backwards.
TEST_F(TamperedClaimTest, RecordClaimingTheWrongCause) {
  for (Event& e : events_) {
    auto* r = std::get_if<history::Recorded>(&e);
    if (r != nullptr && r->node == kP3) r->cause = Cause::Start();
  }
  EXPECT_THAT(Problems(),
              ElementsAre("snapshot 1: inconsistent cut: P3 recorded the "
                          "receipt of message #4 (marker of snapshot 1 from "
                          "P1) but P1 recorded before sending it"));
}

// And a record naming a marker its node did not just receive is named as
// such (the cut is then taken at the record itself).
TEST_F(TamperedClaimTest, RecordNamingAMarkerItDidNotReceive) {
  for (Event& e : events_) {
    auto* r = std::get_if<history::Recorded>(&e);
    if (r != nullptr && r->node == kP3) r->cause = Cause::ByMarker(3);
  }
  EXPECT_THAT(Problems(),
              Contains(HasSubstr("P3 records for snapshot 1 naming marker #3 "
                                 "as its cause, which is not the marker of "
                                 "that snapshot it received last")));
}

TEST_F(TamperedClaimTest, MissingBalance) {
  claim().balances[kP3] = std::nullopt;
  EXPECT_THAT(Problems(),
              Contains("snapshot 1: P3 claims no recorded balance"));
}

TEST_F(TamperedClaimTest, ChannelNotClosed) {
  claim().channels[p2p1_].state = ChannelRecording::kRecording;
  EXPECT_THAT(Problems(), ElementsAre("snapshot 1: channel P2→P1 is "
                                      "'recording', not closed"));
}

TEST_F(TamperedClaimTest, WrongMarkerCount) {
  claim().markers_sent = 5;
  EXPECT_THAT(Problems(), ElementsAre("snapshot 1: claims 5 markers sent, but "
                                      "the network has 6 channels"));
}

TEST_F(TamperedClaimTest, WrongTotal) {
  claim().total = 310;
  EXPECT_THAT(Problems(), ElementsAre("snapshot 1: claims a total of $310, "
                                      "but its records add up to $300"));
}

TEST_F(TamperedClaimTest, WrongShape) {
  claim().balances.pop_back();
  EXPECT_THAT(Problems(), Contains("snapshot 1: claims 2 recorded balances "
                                   "for 3 branches"));
}

TEST_F(TamperedClaimTest, ClaimedTwice) {
  run_.claims.push_back(claim());
  EXPECT_THAT(Problems(),
              ElementsAre("snapshot 1: claimed complete more than once"));
}

TEST_F(TamperedClaimTest, ClaimForASnapshotThatNobodyRecorded) {
  claim().id = 9;
  EXPECT_THAT(Problems(), Contains("snapshot 9: P1 never recorded its state"));
}

// The naive reader's cut, judged as if it were a snapshot: the checker must
// find exactly what the naive analysis finds.
class NaiveCutTest : public ::testing::Test {
 protected:
  NaiveCutTest() : bank_(MakeBank(Branches(3))) {}

  // Turns the reads into the records of snapshot 1, claiming the values
  // read and empty channels.
  std::vector<std::string> Problems() {
    RunRecord run = RunOf(bank_);
    events_.assign(run.events.begin(), run.events.end());
    SnapshotClaim claim;
    claim.id = 1;
    claim.markers_sent = bank_.network().channel_count();
    claim.balances.resize(bank_.branch_count());
    for (Event& e : events_) {
      const auto* read = std::get_if<history::Read>(&e);
      if (read == nullptr) continue;
      claim.balances[read->node] = read->balance;
      e = history::Recorded{1, Cause::Start(), read->node};
    }
    claim.channels.resize(bank_.network().channel_count());
    for (auto& r : claim.channels) r.state = ChannelRecording::kClosed;
    run.events = events_;
    run.claims = {claim};
    std::vector<std::string> problems;
    // The missing markers are reported too; they are not the point here.
    for (std::string& p : CheckRun(run).problems) {
      if (p.find("markers went over") == std::string::npos) {
        problems.push_back(std::move(p));
      }
    }
    return problems;
  }

  Engine bank_;
  std::vector<Event> events_;
};

TEST_F(NaiveCutTest, CountedTwiceIsAnInconsistentCut) {
  Ok(bank_.Read(kP1));
  Ok(bank_.Transfer(kP1, kP2, 30));
  Ok(bank_.Deliver(kP1, kP2));
  Ok(bank_.Read(kP2));
  Ok(bank_.Read(kP3));
  EXPECT_THAT(Problems(),
              UnorderedElementsAre(
                  "snapshot 1: inconsistent cut: $30 (message #1, P1→P2) "
                  "counted twice: P2 received it before recording, P1 sent it "
                  "after recording",
                  "snapshot 1: money is not conserved: recorded balances $330 "
                  "+ channel states $0 = $330, but the bank holds $300"));
}

TEST_F(NaiveCutTest, LostMoneyIsAMissingChannelState) {
  Ok(bank_.Read(kP2));
  Ok(bank_.Transfer(kP1, kP2, 30));
  Ok(bank_.Read(kP1));
  Ok(bank_.Read(kP3));
  Ok(bank_.Drain());
  EXPECT_THAT(Problems(),
              UnorderedElementsAre(
                  "snapshot 1: channel P1→P2 recorded [] but expected [$30]",
                  "snapshot 1: money is not conserved: recorded balances $270 "
                  "+ channel states $0 = $270, but the bank holds $300",
                  "snapshot 1: $30 (message #1) in flight on P1→P2 is missing "
                  "from the snapshot"));
}


// CheckRun speaks the language it is asked: the same lie, found in both.
TEST_F(TamperedClaimTest, FindingsComeInTheLanguageAsked) {
  claim().total = 310;
  EXPECT_THAT(CheckRun(run_, Lang::kEn).problems,
              ElementsAre("snapshot 1: claims a total of $310, but its records add up to $300"));
  EXPECT_THAT(CheckRun(run_, Lang::kJa).problems,
              ElementsAre("スナップショット1: 合計を$310と申告していますが、記録を足すと$300です"));
}

// ---------------------------------------------------------------------------
// Cuts through the engine's runs (check/cut.h): hand-made cuts, whose
// verdicts are worked out here by reasoning about the schedule, and a
// randomized test that the cut's total is the bank's exactly when the cut is
// consistent.

CutJudgement Judge(const Engine& bank, std::vector<std::int64_t> cut) {
  CutJudgement j;
  Status s = JudgeCut(RunOf(bank), cut, &j);
  EXPECT_TRUE(s.ok()) << CodeName(s.code());
  return j;
}

// Demo 1's schedule, without the reads: P1 sends $30 to P3, which receives
// it. P1's line: send (1). P3's line: deliver (1).
Engine ThirtyDelivered() {
  Engine bank = MakeBank(3);
  EXPECT_TRUE(bank.Transfer(kP1, kP3, 30).ok());
  EXPECT_TRUE(bank.Deliver(kP1, kP3).ok());
  return bank;
}

TEST(CutTest, CountsEachBranchsMessageEvents) {
  Engine bank = ThirtyDelivered();
  Ok(bank.Read(kP2));  // a read is no message event
  EXPECT_EQ(MessageEventCounts(RunOf(bank)), (std::vector<std::uint32_t>{1, 0, 1}));
}

TEST(CutTest, EmptyCutIsConsistentAndHoldsTheInitialBalances) {
  Engine bank = ThirtyDelivered();
  CutJudgement j = Judge(bank, {0, 0, 0});
  EXPECT_TRUE(j.consistent);
  EXPECT_TRUE(j.backward.empty());
  EXPECT_TRUE(j.forward.empty());
  EXPECT_EQ(j.balances, (std::vector<Amount>{100, 100, 100}));
  EXPECT_EQ(j.total, 300);
  EXPECT_EQ(j.bank_total, 300);
}

TEST(CutTest, FullCutIsConsistentAndHoldsTheFinalBalances) {
  Engine bank = ThirtyDelivered();
  ASSERT_TRUE(bank.Transfer(kP2, kP1, 40).ok());  // still in flight at the end
  CutJudgement j = Judge(bank, {1, 1, 1});
  EXPECT_TRUE(j.consistent);
  EXPECT_TRUE(j.backward.empty());
  ASSERT_EQ(j.forward.size(), 1u);  // the $40 never received: channel state
  EXPECT_EQ(j.forward[0].amount, 40);
  EXPECT_EQ(j.forward[0].from, kP2);
  EXPECT_EQ(j.forward[0].to, kP1);
  EXPECT_EQ(j.forward[0].send, 1u);
  EXPECT_EQ(j.forward[0].deliver, 0u);
  EXPECT_EQ(j.balances, (std::vector<Amount>{70, 60, 130}));
  EXPECT_EQ(j.in_channels, 40);
  EXPECT_EQ(j.total, 300);
}

TEST(CutTest, SentBeforeReceivedAfterIsAForwardMessage) {
  Engine bank = ThirtyDelivered();
  CutJudgement j = Judge(bank, {1, 0, 0});  // demo 1's naive cut: $270 read
  EXPECT_TRUE(j.consistent);
  ASSERT_EQ(j.forward.size(), 1u);
  EXPECT_EQ(j.forward[0].amount, 30);
  EXPECT_EQ(j.forward[0].deliver, 1u);
  EXPECT_EQ(j.balances, (std::vector<Amount>{70, 100, 100}));
  EXPECT_EQ(j.in_channels, 30);
  EXPECT_EQ(j.total, 300);
}

TEST(CutTest, ReceivedBeforeSentAfterIsInconsistentAndCountsTwice) {
  Engine bank = ThirtyDelivered();
  CutJudgement j = Judge(bank, {0, 0, 1});  // demo 2's naive cut: $330
  EXPECT_FALSE(j.consistent);
  ASSERT_EQ(j.backward.size(), 1u);
  const CutCrossing& m = j.backward[0];
  EXPECT_TRUE(m.transfer);
  EXPECT_EQ(m.amount, 30);
  EXPECT_EQ(m.from, kP1);
  EXPECT_EQ(m.to, kP3);
  EXPECT_EQ(m.send, 1u);
  EXPECT_EQ(m.deliver, 1u);
  EXPECT_TRUE(j.forward.empty());
  EXPECT_EQ(j.balances, (std::vector<Amount>{100, 100, 130}));
  EXPECT_EQ(j.total, 330);
  EXPECT_NE(j.total, j.bank_total);
}

// The clocks see a chain, not only one message: P1 -> P2 -> P3, and a cut
// holding P3's receipt but neither send is inconsistent twice over.
TEST(CutTest, ChainOfMessagesIsJudgedByTheClocks) {
  Engine bank = MakeBank(3);
  Ok(bank.Transfer(kP1, kP2, 10));
  Ok(bank.Deliver(kP1, kP2));
  Ok(bank.Transfer(kP2, kP3, 5));
  Ok(bank.Deliver(kP2, kP3));
  // P2's line: deliver (1), send (2). Cut P2 after its receipt only.
  CutJudgement j = Judge(bank, {0, 1, 1});
  EXPECT_FALSE(j.consistent);
  ASSERT_EQ(j.backward.size(), 2u);
  EXPECT_EQ(j.backward[0].amount, 10);
  EXPECT_EQ(j.backward[1].amount, 5);
  EXPECT_EQ(j.total, 315);
}

TEST(CutTest, MarkersCrossingBackwardsAreNamedButCarryNoMoney) {
  Engine bank = MakeBank(2);
  Ok(bank.StartSnapshot(kP1, std::nullopt));
  Ok(bank.Drain());
  // P1: send marker (1), deliver P2's marker (2); P2: deliver (1), send (2).
  CutJudgement j = Judge(bank, {0, 1});
  EXPECT_FALSE(j.consistent);
  ASSERT_EQ(j.backward.size(), 1u);
  EXPECT_FALSE(j.backward[0].transfer);
  EXPECT_EQ(j.backward[0].amount, 0);
  EXPECT_TRUE(j.forward.empty());  // markers are no channel state
  EXPECT_EQ(j.total, 200);
}

TEST(CutTest, RefusesABadCutAndLeavesTheAnswerUntouched) {
  Engine bank = ThirtyDelivered();
  const RunRecord run = RunOf(bank);
  CutJudgement j;
  j.total = 12345;
  std::vector<std::int64_t> two = {0, 0};
  Status s = JudgeCut(run, two, &j);
  EXPECT_EQ(s.code(), Code::kCutWrongSize);
  EXPECT_EQ(s.number(0), 2);
  EXPECT_EQ(s.number(1), 3);
  std::vector<std::int64_t> past = {1, 1, 0};
  s = JudgeCut(run, past, &j);
  EXPECT_EQ(s.code(), Code::kCutPastEnd);
  EXPECT_EQ(s.word(0), "P2");
  EXPECT_EQ(s.number(1), 1);
  EXPECT_EQ(s.number(2), 0);
  std::vector<std::int64_t> negative = {0, 0, -1};
  s = JudgeCut(run, negative, &j);
  EXPECT_EQ(s.code(), Code::kCutBadPoint);
  EXPECT_EQ(s.word(0), "P3");
  EXPECT_EQ(s.word(1), "-1");
  EXPECT_EQ(j.total, 12345);
}

// ---------------------------------------------------------------------------
// Random schedules.

// Where snapshot `id` cuts node n's line, in message events: those before
// its record, less the marker that caused it (the cut's edge, outside).
std::vector<std::int64_t> SnapshotCutOf(const Engine& bank, SnapshotId id) {
  std::vector<std::int64_t> cut(bank.branch_count(), 0);
  std::vector<std::int64_t> seen(bank.branch_count(), 0);
  for (const history::Event& e : bank.history().events()) {
    const NodeId n = history::NodeOf(e, bank.network());
    if (IsMessageEvent(e)) ++seen[n];
    if (const auto* r = std::get_if<history::Recorded>(&e); r && r->snapshot == id) {
      cut[n] = seen[n] - (r->cause.by_message() ? 1 : 0);
    }
  }
  return cut;
}

std::uint64_t SeedFromEnv() {
  if (const char* s = std::getenv("CUTLINE_CUT_SEED")) return std::strtoull(s, nullptr, 10);
  return std::random_device{}();
}

// A bank running `app`, its branches P1, P2, ... starting in `states`.
Engine MakeAppBank(apps::App app, const std::vector<Amount>& states) {
  engine::Config config{.app = app};
  for (std::size_t n = 0; n < states.size(); ++n) {
    config.branches.push_back({"P" + std::to_string(n + 1), states[n]});
  }
  std::optional<Engine> bank;
  Status s = Engine::Create(config, &bank);
  EXPECT_TRUE(s.ok()) << CodeName(s.code());
  return std::move(*bank);
}

// The application's command `verb` ("job", "finish", "request", "grant")
// on the given branches.
void Do(Engine& bank, std::string_view verb, std::vector<NodeId> branches) {
  Ok(apps::App::FindCommand(verb)->second->run(bank, branches));
}

// Jobs: P1 hands its job to P3 and finishes; P3 receives it and finishes.
// P1's line: send (1), then its finish; P3's line: delivery (1), then its
// finish. A branch's own steps after its point's event and before its next
// one are inside the cut, so a point at a line's end is the branch now.
Engine JobHandedOnAndFinished() {
  Engine bank = MakeAppBank(apps::App::kJobs, {1, 0, 0});
  Do(bank, "job", {kP1, kP3});
  Do(bank, "finish", {kP1});
  Ok(bank.Deliver(kP1, kP3));
  Do(bank, "finish", {kP3});
  return bank;
}

TEST(CutTest, JobsAtACutNamesTheJobInFlightOrTermination) {
  const Engine bank = JobHandedOnAndFinished();
  const sim::ChannelId p1_p3 = bank.network().Find(kP1, kP3);

  // Before anything: P1 holds its job.
  CutJudgement start = Judge(bank, {0, 0, 0});
  ASSERT_TRUE(start.property.has_value());
  EXPECT_EQ(start.property.value(), (apps::Verdict{false, {kP1}, {}}));
  EXPECT_EQ(start.balances, (std::vector<Amount>{1, 0, 0}));

  // P1 has sent and finished; the job is on its way: not terminated.
  CutJudgement sent = Judge(bank, {1, 0, 0});
  EXPECT_TRUE(sent.consistent);
  EXPECT_EQ(sent.balances, (std::vector<Amount>{0, 0, 0}));
  EXPECT_EQ(sent.property.value(), (apps::Verdict{false, {}, {p1_p3}}));
  ASSERT_EQ(sent.forward.size(), 1u);
  // Jobs keep no money: no sum is made.
  EXPECT_EQ(sent.total, 0);
  EXPECT_EQ(sent.in_channels, 0);
  EXPECT_EQ(sent.bank_total, 0);

  // Both lines at their ends: P3 has finished the job too. Terminated, as now.
  CutJudgement end = Judge(bank, {1, 0, 1});
  EXPECT_TRUE(end.consistent);
  EXPECT_EQ(end.balances, (std::vector<Amount>{0, 0, 0}));
  EXPECT_EQ(end.property.value(), (apps::Verdict{true, {}, {}}));
  EXPECT_EQ(end.property.value(), PropertyNow(bank));

  // P3 received a job P1 has not sent: inconsistent, and P1 is still busy.
  CutJudgement backward = Judge(bank, {0, 0, 1});
  EXPECT_FALSE(backward.consistent);
  EXPECT_EQ(backward.property.value(), (apps::Verdict{false, {kP1}, {}}));
}

// Locks: P1 asks P2, P2 grants and P1 receives the grant; then P1 and P3 ask
// each other. A cut with the grant on its way sees P1 waiting but no
// deadlock; the cut at the ends sees P1 and P3 deadlocked. The bank has no
// property, so its judgement carries none.
TEST(CutTest, LocksAtACutSeeADissolvingWaitAndThenTheDeadlock) {
  Engine bank = MakeAppBank(apps::App::kLocks, {0, 0, 0});
  Do(bank, "request", {kP1, kP2});  // P1: 1; P2 gets it: 1
  Ok(bank.Deliver(kP1, kP2));
  Do(bank, "grant", {kP2, kP1});    // P2: 2
  Ok(bank.Deliver(kP2, kP1));       // P1: 2
  Do(bank, "request", {kP1, kP3});  // P1: 3
  Do(bank, "request", {kP3, kP1});  // P3: 1
  using apps::locks::WaitingFor;

  CutJudgement granting = Judge(bank, {1, 2, 0});
  EXPECT_TRUE(granting.consistent);
  EXPECT_EQ(granting.balances, (std::vector<Amount>{WaitingFor(kP2), apps::locks::kActive,
                                                    apps::locks::kActive}));
  EXPECT_FALSE(granting.property.value().holds);
  ASSERT_EQ(granting.forward.size(), 1u);  // P2's grant, on its way to P1
  EXPECT_EQ(granting.forward[0].amount, apps::locks::kGrant);

  CutJudgement end = Judge(bank, {3, 2, 1});
  EXPECT_TRUE(end.consistent);
  EXPECT_EQ(end.property.value(), (apps::Verdict{true, {kP1, kP3}, {}}));
  EXPECT_EQ(end.property.value(), PropertyNow(bank));

  EXPECT_FALSE(Judge(ThirtyDelivered(), {1, 0, 1}).property.has_value());
}

// A branch's own step in the middle of its line: P1 receives a job,
// finishes it, and receives another. Its finish lies in the gap after its
// first delivery, so the point there already has it idle.
TEST(CutTest, AStepOfABranchsOwnBelongsToTheGapAfterTheEventBeforeIt) {
  Engine bank = MakeAppBank(apps::App::kJobs, {0, 2});
  Do(bank, "job", {kP2, kP1});
  Ok(bank.Deliver(kP2, kP1));
  Do(bank, "finish", {kP1});
  Do(bank, "job", {kP2, kP1});
  Ok(bank.Deliver(kP2, kP1));
  EXPECT_EQ(Judge(bank, {0, 0}).balances[kP1], 0);
  EXPECT_EQ(Judge(bank, {1, 1}).balances[kP1], 0);  // received, and finished
  EXPECT_EQ(Judge(bank, {2, 2}).balances[kP1], 1);
  // At {1, 2} the second job is on its way; P2 still holds its own two.
  CutJudgement j = Judge(bank, {1, 2});
  EXPECT_TRUE(j.consistent);
  EXPECT_EQ(j.property.value(),
            (apps::Verdict{false, {kP2}, {bank.network().Find(kP2, kP1)}}));
}

// Demo 14, cut where the naive detector read: P1 after its request, P2 at
// its end. Both wait, for each other, but P2's grant to P1 is in the
// channel: the cycle is dissolving, not a deadlock.
TEST(CutTest, LocksAtTheNaiveReadsFindACycleThatAGrantDissolves) {
  Engine bank = MakeAppBank(apps::App::kLocks, {0, 0, 0});
  Do(bank, "request", {kP1, kP2});
  Ok(bank.Deliver(kP1, kP2));
  Do(bank, "grant", {kP2, kP1});
  Ok(bank.Deliver(kP2, kP1));
  Do(bank, "request", {kP2, kP1});
  CutJudgement j = Judge(bank, {1, 3, 0});
  EXPECT_TRUE(j.consistent);
  const sim::ChannelId p2_p1 = bank.network().Find(kP2, kP1);
  ASSERT_EQ(j.forward.size(), 2u);  // the grant, and P2's request
  EXPECT_EQ(j.property.value(), (apps::Verdict{false, {kP1, kP2}, {p2_p1}}));
  // At the ends P1 has its grant: no cycle at all.
  EXPECT_EQ(Judge(bank, {2, 3, 0}).property.value(), (apps::Verdict{false, {}, {}}));
}

// Over random schedules of 2-5 branches (transfers, deliveries, snapshots)
// and random cuts: the total is the bank's iff no transfer crosses
// backwards, consistent iff nothing does (clocks and messages agree), and
// each Chandy-Lamport snapshot's own cut is consistent with the snapshot's
// records as its balances and channel states.
TEST(CutTest, TotalIsTheBanksExactlyWhenTheCutIsConsistent) {
  const std::uint64_t seed = SeedFromEnv();
  std::cout << "seed=" << seed << "\nreplay: CUTLINE_CUT_SEED=" << seed << " "
            << ::testing::internal::GetArgvs()[0]
            << " --gtest_filter=CutTest.TotalIsTheBanksExactlyWhenTheCutIsConsistent\n";
  std::mt19937_64 rng(seed);
  auto pick = [&](std::uint64_t n) { return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(rng); };
  int inconsistent = 0;
  int consistent = 0;
  for (int run = 0; run < 400; ++run) {
    SCOPED_TRACE("run " + std::to_string(run) + " of seed " + std::to_string(seed));
    const int n = 2 + static_cast<int>(pick(4));
    Engine bank = MakeBank(n, static_cast<Amount>(20 + pick(200)));
    const bool snapshots = pick(2) == 0;
    const int ops = 1 + static_cast<int>(pick(30));
    for (int k = 0; k < ops; ++k) {
      const auto a = static_cast<NodeId>(pick(n));
      const auto b = static_cast<NodeId>((a + 1 + pick(n - 1)) % n);
      switch (pick(snapshots ? 4 : 3)) {
        case 0:
        case 1:
          (void)bank.Transfer(a, b, static_cast<Amount>(1 + pick(40)));  // may be refused
          break;
        case 2:
          (void)bank.Deliver(a, b);
          break;
        default:
          (void)bank.StartSnapshot(a, std::nullopt);
      }
    }
    if (pick(2) == 0) Ok(bank.Drain());
    const RunRecord record = RunOf(bank);
    const std::vector<std::uint32_t> counts = MessageEventCounts(record);
    for (int c = 0; c < 10; ++c) {
      std::vector<std::int64_t> cut;
      for (std::uint32_t last : counts) cut.push_back(static_cast<std::int64_t>(pick(last + 1)));
      CutJudgement j;
      ASSERT_TRUE(JudgeCut(record, cut, &j).ok());
      bool transfer_backward = false;
      Amount twice = 0;
      for (const CutCrossing& m : j.backward) {
        transfer_backward |= m.transfer;
        twice += m.amount;
      }
      EXPECT_EQ(j.consistent, j.backward.empty());
      EXPECT_EQ(j.total == j.bank_total, !transfer_backward);
      EXPECT_EQ(j.total, j.bank_total + twice);
      if (!snapshots) {
        EXPECT_EQ(j.total == j.bank_total, j.consistent);
      }
      (j.consistent ? consistent : inconsistent) += 1;
    }
    for (const engine::SnapshotInfo& s : bank.snapshots()) {
      if (!s.complete) continue;
      CutJudgement j;
      ASSERT_TRUE(JudgeCut(record, SnapshotCutOf(bank, s.id), &j).ok());
      EXPECT_TRUE(j.consistent);
      for (NodeId b = 0; b < static_cast<NodeId>(n); ++b) {
        EXPECT_EQ(j.balances[b], bank.RecordedBalance(b, s.id));
      }
      std::vector<std::vector<Amount>> channels(bank.network().channel_count());
      for (const CutCrossing& m : j.forward) {
        channels[bank.network().Find(m.from, m.to)].push_back(m.amount);
      }
      for (sim::ChannelId c = 0; c < channels.size(); ++c) {
        EXPECT_EQ(channels[c], bank.RecordedChannel(s.id, c).transfers);
      }
      EXPECT_EQ(j.total, bank.SnapshotTotal(s.id));
    }
  }
  // Both sides of the iff were exercised.
  EXPECT_GT(consistent, 0);
  EXPECT_GT(inconsistent, 0);
}

}  // namespace
}  // namespace cutline::scenario
