// Tests of the consistency checker: honest runs of the bank pass, and each
// kind of wrong claim or wrong history is caught with a precise message. A
// checker that never fails proves nothing, so most tests here feed it lies.
#include "check/consistency_checker.h"

#include <map>
#include <regex>
#include <set>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "check/findings.h"
#include "engine/engine.h"
#include "scenario/run_record.h"

namespace cutline::check {
namespace {

using cutline::Amount;
using engine::Engine;
using history::Cause;
using history::Event;
using scenario::CheckSnapshots;
using scenario::RunOf;
using sim::NodeId;
using sim::Seq;
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

// Locks: two wait cycles, one dissolving (a grant on its way to it), one
// real; the property names the real one, from its lowest branch.
TEST(ConsistencyCheckerTest, LocksNameTheCycleThatNoGrantDissolves) {
  const sim::Topology net(5, sim::Topology::Complete(5));
  using apps::locks::WaitingFor;
  // P1 <-> P2 (a grant P2->P1 in flight), P5 -> P3 -> P4 -> P5.
  std::vector<Amount> states{WaitingFor(1), WaitingFor(0), WaitingFor(3), WaitingFor(4),
                             WaitingFor(2)};
  std::vector<std::vector<Amount>> channels(net.channel_count());
  channels[net.Find(1, 0)].push_back(apps::locks::kGrant);
  apps::Verdict v = apps::App::kLocks.Evaluate({&net, states, channels});
  EXPECT_TRUE(v.holds);
  EXPECT_EQ(v.branches, (std::vector<NodeId>{2, 3, 4}));
  channels[net.Find(2, 4)].push_back(apps::locks::kGrant);  // to P5, on the cycle
  v = apps::App::kLocks.Evaluate({&net, states, channels});
  EXPECT_FALSE(v.holds);
  EXPECT_EQ(v.branches, (std::vector<NodeId>{0, 1}));  // the first cycle, dissolving
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

// ---------------------------------------------------------------------------
// Histories written by hand, as a wrong implementation could produce them.

class Script {
 public:
  explicit Script(const sim::Topology& net) : net_(net) {}

  Seq Transfer(NodeId from, NodeId to, Amount amount) {
    return Send(from, to, history::Transfer{amount});
  }
  Seq Marker(NodeId from, NodeId to, SnapshotId id) {
    return Send(from, to, history::Marker{id});
  }
  void Deliver(Seq seq) {
    const auto& [channel, payload] = sent_.at(seq);
    if (const auto* t = std::get_if<history::Transfer>(&payload)) {
      events.push_back(history::Delivered<history::Transfer>{seq, channel, *t});
    } else {
      events.push_back(history::Delivered<history::Marker>{
          seq, channel, std::get<history::Marker>(payload)});
    }
  }
  // A record; what was recorded is the claim's business, not the event's.
  void Record(NodeId n, SnapshotId id, Cause cause = Cause::Start()) {
    events.push_back(history::Recorded{id, cause, n});
  }
  // Rule 1 done right: record, then a marker on every outgoing channel.
  void RecordAndMark(NodeId n, SnapshotId id, Cause cause = Cause::Start()) {
    Record(n, id, cause);
    for (sim::ChannelId c : net_.Outgoing(n)) Marker(n, net_.channel(c).to, id);
  }

  // Starts over with an empty history (sequence numbers from 1 again).
  void Clear() {
    events.clear();
    sent_.clear();
    next_ = 1;
  }

  std::vector<Event> events;

 private:
  Seq Send(NodeId from, NodeId to, const history::Payload& payload) {
    Seq seq = next_++;
    sim::ChannelId c = net_.Find(from, to);
    if (const auto* t = std::get_if<history::Transfer>(&payload)) {
      events.push_back(history::Sent<history::Transfer>{seq, c, *t});
    } else {
      events.push_back(
          history::Sent<history::Marker>{seq, c, std::get<history::Marker>(payload)});
    }
    sent_[seq] = {c, payload};
    return seq;
  }

  const sim::Topology& net_;
  Seq next_ = 1;
  std::map<Seq, std::pair<sim::ChannelId, history::Payload>> sent_;
};

class ScriptedTest : public ::testing::Test {
 protected:
  explicit ScriptedTest(std::uint32_t nodes = 2)
      : net_(nodes, sim::Topology::Complete(nodes)), script_(net_) {
    for (NodeId n = 0; n < nodes; ++n) {
      run_.initial_balances.push_back(100);
      run_.names.push_back("P" + std::to_string(n + 1));
    }
  }

  // A claim with every channel closed and empty unless given.
  void Claim(
      SnapshotId id, std::vector<Amount> balances,
      std::map<std::pair<NodeId, NodeId>, std::vector<Amount>> channels = {}) {
    SnapshotClaim claim;
    claim.id = id;
    claim.markers_sent = net_.channel_count();
    for (Amount b : balances) claim.balances.push_back(b);
    claim.channels.resize(net_.channel_count());
    for (auto& r : claim.channels) r.state = ChannelRecording::kClosed;
    for (auto& [link, amounts] : channels) {
      claim.channels[net_.Find(link.first, link.second)].transfers = amounts;
    }
    run_.claims.push_back(std::move(claim));
  }

  std::vector<std::string> Problems() {
    run_.events = script_.events;
    run_.topology = &net_;
    return CheckRun(run_).problems;
  }

  sim::Topology net_;
  Script script_;
  RunRecord run_{.app = apps::App::kBank};  // the scripts move money
};

TEST_F(ScriptedTest, HandWrittenCorrectRunPasses) {
  Seq t = script_.Transfer(kP1, kP2, 30);  // P1: 70
  script_.RecordAndMark(kP2, 1);           // marker #2 to P1
  script_.Deliver(t);                      // recorded in P1->P2: P2 130
  script_.Deliver(2);                      // P1 records on the marker
  script_.RecordAndMark(kP1, 1, Cause::ByMarker(2));  // marker #3 to P2
  script_.Deliver(3);
  Claim(1, {70, 100}, {{{kP1, kP2}, {30}}});
  EXPECT_THAT(Problems(), IsEmpty());
}

TEST_F(ScriptedTest, RecordThatIgnoresTheFirstMarker) {
  script_.RecordAndMark(kP1, 1);  // marker #1 to P2
  script_.Deliver(1);             // P2 should record here, does not
  Seq t = script_.Transfer(kP2, kP1, 10);
  script_.RecordAndMark(kP2, 1);  // marker #3 to P1
  script_.Deliver(t);
  script_.Deliver(3);
  Claim(1, {100, 90}, {{{kP2, kP1}, {10}}});
  EXPECT_THAT(Problems(),
              ElementsAre("snapshot 1: inconsistent cut: P2 recorded the "
                          "receipt of message #1 (marker of snapshot 1 from "
                          "P1) but P1 recorded before sending it"));
}

TEST_F(ScriptedTest, TransferSentAfterRecordingButBeforeTheMarker) {
  script_.Record(kP1, 1);
  Seq t = script_.Transfer(kP1, kP2, 10);  // #1: should come after #2
  script_.Marker(kP1, kP2, 1);             // #2
  script_.Deliver(t);                      // P2: 110
  script_.Deliver(2);
  script_.RecordAndMark(kP2, 1, Cause::ByMarker(2));  // #3
  script_.Deliver(3);
  Claim(1, {100, 110});
  EXPECT_THAT(
      Problems(),
      ElementsAre("snapshot 1: inconsistent cut: $10 (message #1, P1→P2) "
                  "counted twice: P2 received it before recording, P1 sent it "
                  "after recording",
                  "snapshot 1: P1 sent message #1 ($10 from P1) on P1→P2 "
                  "after recording but before the marker",
                  "snapshot 1: money is not conserved: recorded balances $210 "
                  "+ channel states $0 = $210, but the bank holds $200"));
}

TEST_F(ScriptedTest, MarkerSentBeforeRecording) {
  script_.Marker(kP1, kP2, 1);  // #1
  script_.Record(kP1, 1);
  script_.Deliver(1);
  script_.RecordAndMark(kP2, 1, Cause::ByMarker(1));  // #2
  script_.Deliver(2);
  Claim(1, {100, 100});
  EXPECT_THAT(Problems(), ElementsAre("snapshot 1: P1 sent its marker on "
                                      "P1→P2 (#1) before recording"));
}

TEST_F(ScriptedTest, MarkersMissingDuplicatedOrUndelivered) {
  script_.Record(kP1, 1);
  script_.Marker(kP1, kP2, 1);  // #1
  script_.Marker(kP1, kP2, 1);  // #2: one too many
  script_.Deliver(1);
  script_.Record(kP2, 1, Cause::ByMarker(1));  // and no marker back to P1
  Claim(1, {100, 100});
  EXPECT_THAT(Problems(),
              ElementsAre("snapshot 1: 2 markers went over channel P1→P2, "
                          "not exactly one",
                          "snapshot 1: 0 markers went over channel P2→P1, "
                          "not exactly one"));
}

TEST_F(ScriptedTest, MarkerNeverDelivered) {
  script_.RecordAndMark(kP1, 1);  // #1
  script_.Deliver(1);
  script_.RecordAndMark(kP2, 1, Cause::ByMarker(1));  // #2, left in flight
  Claim(1, {100, 100});
  EXPECT_THAT(Problems(), ElementsAre("snapshot 1: the marker on P2→P1 (#2) "
                                      "was never delivered"));
}

TEST_F(ScriptedTest, NodeThatNeverRecordedOrRecordedTwice) {
  script_.RecordAndMark(kP1, 1);
  script_.Record(kP1, 1);
  Claim(1, {100, 100});
  EXPECT_THAT(Problems(),
              ElementsAre("snapshot 1: P1 recorded its state 2 times",
                          "snapshot 1: P2 never recorded its state"));
}

// Chandy-Lamport needs FIFO channels: when the marker overtakes a transfer
// sent before it, the transfer is in neither the balance nor the channel.
TEST_F(ScriptedTest, MarkerOvertakingATransfer) {
  Seq t = script_.Transfer(kP1, kP2, 10);  // #1, P1: 90
  script_.RecordAndMark(kP1, 1);           // #2
  script_.Deliver(2);
  script_.RecordAndMark(kP2, 1, Cause::ByMarker(2));  // #3
  script_.Deliver(t);
  script_.Deliver(3);
  Claim(1, {90, 100});
  EXPECT_THAT(
      Problems(),
      ElementsAre("history: channel P1→P2 is not FIFO: message #2 (marker of "
                  "snapshot 1 from P1) arrived while #1, sent earlier, was "
                  "still waiting",
                  "snapshot 1: channel P1→P2 recorded [] but expected [$10]",
                  "snapshot 1: money is not conserved: recorded balances $190 "
                  "+ channel states $0 = $190, but the bank holds $200",
                  "snapshot 1: $10 (message #1, P1→P2) missed: P1 sent it "
                  "before recording, but it is neither in P2's record nor in "
                  "the channel's recorded state"));
}

TEST_F(ScriptedTest, MalformedHistories) {
  script_.events.push_back(history::Delivered<history::Transfer>{5, 0, {10}});
  EXPECT_THAT(Problems(), ElementsAre("history: event 0 delivers message #5, "
                                      "never sent"));

  script_.Clear();
  Seq t = script_.Transfer(kP1, kP2, 10);
  script_.Deliver(t);
  script_.Deliver(t);
  EXPECT_THAT(Problems(),
              ElementsAre("history: message #1 is delivered twice"));

  script_.events = {history::Read{100, 7}};
  EXPECT_THAT(Problems(), ElementsAre("history: event 0 names an unknown node"));

  script_.events = {history::Sent<history::Transfer>{1, 9, {10}}};
  EXPECT_THAT(Problems(),
              ElementsAre("history: event 0 names an unknown channel"));

  script_.Clear();
  t = script_.Transfer(kP1, kP2, 10);
  script_.events.push_back(history::Delivered<history::Transfer>{t, 0, {11}});
  EXPECT_THAT(Problems(),
              ElementsAre("history: event 1 delivers message #1 ($10 from "
                          "P1), but it was sent as something else or on "
                          "another channel"));
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


// ---------------------------------------------------------------------------
// The findings in both languages (findings.h).

// Every sentence of a catalogue, each with names, amounts and references of
// the kind the judge gives it. Findings is abstract, so a language lacking
// one does not compile; this list is checked to name every one (kSentences).
std::vector<std::string> EverySentence(const Findings& f) {
  const std::vector<std::string> branches = {"P1", "P2"}, channels = {"P2→P1"};
  const apps::Verdict holds{true, {0, 1}, {}}, lacks{false, {0}, {1}};
  return {
      f.AboutSnapshot(1, "x"), f.AboutHistory("x"), f.Message("#7"),
      f.Transfer("$40", "#7", "P1→P2"), f.DescribeTransfer("#7", "$40", "P1"),
      f.DescribeMarker("#7", 2, "P1"), f.ClaimedTwice(), f.ClaimShapeBalances(2, 3),
      f.ClaimShapeChannels(2, 6), f.ClaimsMarkersSent(5, 6), f.ClaimsTotal("$310", "$300"),
      f.NeverRecorded("P1"), f.RecordedTimes("P1", 2), f.NoRecordedBalance("P1"),
      f.BalanceNotReplayed("P1", "$60", "$50"), f.PartWithoutRecord("N0", "rank-0.jsonl:14"),
      f.PartDiffersFromRecord("N0", "$60", "$50", "rank-0.jsonl:14"),
      f.TransferCrossesCut("$40", "P2", "P1"), f.MarkerCrossesCut("P2", "#7", "P1"),
      f.ChannelNotClosed("P1→P2", true), f.ChannelNotClosed("P1→P2", false),
      f.ChannelNotAsExpected("P1→P2", "[]", "[$40, $10]"), f.MarkerCount(2, "P1→P2"),
      f.MarkersInStopTheWorld(2, "P1→P2"), f.MarkerSentInside("P1", "P1→P2", "#7"),
      f.MarkerNeverDelivered("P1→P2", "#7"), f.SentBeforeMarker("P1", "#7", "P1→P2"),
      f.AmountsOverflow(), f.NotConserved(apps::App::kBank, "$250", "$40", "$290", "$300"),
      f.NotConserved(apps::App::kDataflow, "-3", "2", "-1", "0"), f.CountedTwice("$40", "P1"),
      f.Missed("$40", "P1", "P2"), f.MissingFromSnapshot("$40", "#7", "P1→P2"),
      f.Verdict(apps::App::kJobs, lacks, branches, channels),
      f.Verdict(apps::App::kLocks, holds, branches, {}),
      f.DeclaredOtherwise("x", "y"), f.DeclaredTooEarly(apps::App::kJobs, branches, channels),
      f.NotFifo("P1→P2", "#7", "#6"), f.DeliveredAsOther(3, "#7"),
      f.CauseNotLast(3, "P1", 1, true, 7), f.CauseNotLast(3, "P1", 1, false, 7),
      f.LocalStateDiffers("N0", 2, 1, "rank-0.jsonl:14"),
      f.ReceivedOtherwise("P2", "P1-5", "P1", "P2.jsonl:9", "P1", "P3"),
      f.ReceivedTwice("P1-5", "P2.jsonl:9"), f.ReceivedUnsent("P2", "P1-5", "P2.jsonl:9"),
      f.MarkerUnsent("P2", 1, "P1", "P2.jsonl:9"), f.NoCausalOrder("P2.jsonl:9"),
      f.ChannelHoldsUnsent("P2", "P1", "P1-5", "P2.jsonl:9"), f.InitialStates(2, 3),
      f.UnknownNode(3), f.UnknownChannel(3), f.SentTwice("#7"), f.NeverSent(3, "#7"),
      f.DeliveredTwice("#7"), f.ReplayOverflows(3), f.NoHistory(), f.Fail("x"),
      f.NotComplete(2), f.NotCompleteInLogs(2), f.AllConserved(1, "$300"),
      f.AllDeclaredAsAtCut(2, apps::App::kJobs), f.EventsLogOk(1, 3, 40, "$300"),
      f.SilentRank(2), f.DroppedAfterCrash(5), f.StabilityOnly(1),
      f.LogsDeclaredOk(3, 4, "jobs", 900, 3, 1), f.LogsConservedOk(3, 4, 900, 300),
      f.LogsDataflowOk(3, 6, "2-3-1", 900), f.Explored(2958, 480, 1011, 0.02),
      f.ExploredRight(480, 114), f.ExploredBroken(5), f.ExploredBounded("states", 50, 5)};
}
constexpr std::size_t kSentences = 72;  // the 68 methods of Findings, four of them twice

TEST(FindingsTest, EverySentenceIsSaidInBothLanguages) {
  const std::vector<std::string> en = EverySentence(FindingsIn(Lang::kEn));
  const std::vector<std::string> ja = EverySentence(FindingsIn(Lang::kJa));
  ASSERT_EQ(en.size(), kSentences);
  ASSERT_EQ(ja.size(), kSentences);
  // What the caller passes (names, references, file:line, the application's
  // name) and the format's own terms may stay in Latin letters; no other word.
  const std::regex passed(
      R"((rank-\d+|P\d+)\.jsonl(:\d+)?|P\d+-\d+|P\d+(→P\d+)*|N\d+|#\d+|\$\d+|\bjobs\b|\bFIFO\b|\bx\b|\by\b|--max-states)");
  const std::regex word("[A-Za-z]{2,}");
  for (std::size_t i = 0; i < kSentences; ++i) {
    SCOPED_TRACE(en[i]);
    EXPECT_FALSE(en[i].empty());
    EXPECT_FALSE(ja[i].empty());
    EXPECT_NE(en[i], ja[i]);
    const std::string rest = std::regex_replace(ja[i], passed, "");
    EXPECT_FALSE(std::regex_search(rest, word)) << ja[i];
  }
  // Each sentence is its own: no two functions say the same thing.
  EXPECT_EQ(std::set<std::string>(en.begin(), en.end()).size(), kSentences);
  EXPECT_EQ(std::set<std::string>(ja.begin(), ja.end()).size(), kSentences);
}

// CheckRun speaks the language it is asked: the same lie, found in both.
TEST_F(TamperedClaimTest, FindingsComeInTheLanguageAsked) {
  claim().total = 310;
  EXPECT_THAT(CheckRun(run_, Lang::kEn).problems,
              ElementsAre("snapshot 1: claims a total of $310, but its records add up to $300"));
  EXPECT_THAT(CheckRun(run_, Lang::kJa).problems,
              ElementsAre("スナップショット1: 合計を$310と申告していますが、記録を足すと$300です"));
}

}  // namespace
}  // namespace cutline::check
