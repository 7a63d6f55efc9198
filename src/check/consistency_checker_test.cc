// Tests of the consistency checker on histories written by hand, as a wrong
// implementation could produce them: each kind of wrong claim or wrong
// history is caught with a precise message, in both languages. A checker
// that never fails proves nothing, so most tests here feed it lies. The
// checker's judgements of the engine's runs are tested above both, in
// src/scenario/checker_runs_test.cc: the checker and its tests know no engine.
#include "check/consistency_checker.h"

#include <map>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "check/findings.h"
#include "check/stream_judge.h"

namespace cutline::check {
namespace {

using cutline::Amount;
using history::Cause;
using history::Event;
using sim::NodeId;
using sim::Seq;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr NodeId kP1 = 0;
constexpr NodeId kP2 = 1;

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
      f.NotComplete(2, branches), f.NeverCompleted(2, branches, "part-done"),
      f.NothingJudgedInScenario(0), f.NothingJudgedInScenario(2),
      f.NothingJudgedInLogs(3, false, 40), f.NothingJudgedInLogs(4, true, 900),
      f.NeverReceived(f.Message("P1-5"), "$12", "P1→P2"), f.MarkerWord(2),
      f.PartBeforeMarker("P2", "P1", "P2.jsonl:9"),
      f.Overdraft("P1", "$50", f.Message("P1-5"), "$30", "P1.jsonl:9"), f.AllConserved(1, "$300"),
      f.AllDeclaredAsAtCut(2, apps::App::kJobs), f.EventsLogOk(1, 3, 40, "$300"),
      f.SilentRank(2), f.DroppedAfterCrash(5), f.StabilityOnly(1),
      f.LogsDeclaredOk(3, 4, "jobs", 900, 3, 1), f.LogsConservedOk(3, 4, 900, 300),
      f.LogsDataflowOk(3, 6, "2-3-1", 900), f.Explored(2958, 480, 1011, 0.02),
      f.ExploredRight(480, 114), f.ExploredBroken(5), f.ExploredFingerprints(64, 3.2e-12),
      f.ExploredBounded("states", 50, 5), f.ExploredSoFar(1200000, 12, 300000, 60),
      f.NeverCompletes(1, std::vector<std::string>{"P1"}, {}, {}),
      f.NeverCompletes(1, {}, branches, std::vector<std::string>{"P1→P2", "P3→P2"}),
      f.ExploredNeverCompletes(3), f.ExploredStuck({"x"})};
}
constexpr std::size_t kSentences = 86;  // the 79 methods of Findings, seven of them twice

// Explore's counts run to millions: grouped by threes, as the page prints
// them; past 10^15, with an exponent.
TEST(FindingsTest, CountsAreGroupedByThrees) {
  EXPECT_EQ(Grouped(0), "0");
  EXPECT_EQ(Grouped(999), "999");
  EXPECT_EQ(Grouped(1000), "1,000");
  EXPECT_EQ(Grouped(43692207), "43,692,207");
  EXPECT_EQ(ExploreCount(1380571), "1,380,571");
  EXPECT_EQ(ExploreCount(3.2e21), "3.2e+21");
  EXPECT_EQ(FindingsIn(Lang::kEn).ExploredRight(19870, 2908),
            "right in every schedule (19,870 states; 2,908 complete snapshots judged)");
}

TEST(FindingsTest, EverySentenceIsSaidInBothLanguages) {
  const std::vector<std::string> en = EverySentence(FindingsIn(Lang::kEn));
  const std::vector<std::string> ja = EverySentence(FindingsIn(Lang::kJa));
  ASSERT_EQ(en.size(), kSentences);
  ASSERT_EQ(ja.size(), kSentences);
  // What the caller passes (names, references, file:line, the application's
  // name) and the format's own terms may stay in Latin letters; no other word.
  const std::regex passed(
      R"((rank-\d+|P\d+)\.jsonl(:\d+)?|P\d+-\d+|P\d+(→P\d+)*|N\d+|#\d+|\$\d+|\bjobs\b|\bFIFO\b|\bpart-done\b|\bx\b|\by\b|--max-states|--exact)");
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

// A snapshot set aside once no later event names it (StreamJudge::NoMoreOf,
// as the events log's reader says so) is judged at its claim exactly as one
// weighed against every event: not while a transfer sent inside its cut is
// still in flight (here one received after its channel's marker, which its
// channel state must then hold), nor while a channel of it has no marker
// (snapshot 2), whose later sends rule 1 names.
TEST(ConsistencyCheckerTest, ASnapshotSetAsideIsJudgedAsOneKeptOpen) {
  const sim::Topology net(2, sim::Topology::Complete(2));
  using K = StreamEvent::Kind;
  auto event = [](K kind, std::uint32_t peer, std::uint64_t n, SnapshotId snapshot, Amount amount) {
    StreamEvent e;
    e.kind = kind;
    e.peer = peer;
    e.n = n;
    e.snapshot = snapshot;
    e.amount = amount;
    return e;
  };
  auto judge = [&](bool set_aside) {
    StreamJudge j(net, {"P1", "P2"}, {"P1.jsonl", "P2.jsonl"}, apps::App::kBank);
    j.KeepEveryVerdict();
    std::uint64_t sent[2] = {0, 0};  // by sender: messages on its one channel
    auto apply = [&](NodeId n, StreamEvent e) { ASSERT_TRUE(j.Apply(n, e)); };
    apply(kP1, event(K::kStart, 0, 0, 0, 100));
    apply(kP2, event(K::kStart, 0, 0, 0, 100));
    // Snapshot 1: P1 sends $10, records, sends its marker; P2 records and
    // sends its marker, takes P1's marker ahead of the $10 (a FIFO fault),
    // and then the $10, sent inside the cut and still in flight.
    apply(kP1, event(K::kSend, kP2, ++sent[0], 0, 10));
    apply(kP1, event(K::kRecord, 0, 0, 1, 90));
    apply(kP1, event(K::kSendMarker, kP2, ++sent[0], 1, 0));
    apply(kP2, event(K::kRecord, 0, 0, 1, 100));
    apply(kP2, event(K::kSendMarker, kP1, ++sent[1], 1, 0));
    apply(kP1, event(K::kReceiveMarker, kP2, 1, 1, 0));
    apply(kP2, event(K::kReceiveMarker, kP1, 2, 1, 0));
    if (set_aside) j.NoMoreOf(1);
    apply(kP2, event(K::kReceive, kP1, 1, 0, 10));
    // Snapshot 2: no marker goes from P2 to P1.
    apply(kP1, event(K::kRecord, 0, 0, 2, 90));
    apply(kP1, event(K::kSendMarker, kP2, ++sent[0], 2, 0));
    apply(kP2, event(K::kReceiveMarker, kP1, sent[0], 2, 0));
    apply(kP2, event(K::kRecord, 0, 0, 2, 110));
    if (set_aside) j.NoMoreOf(2);
    // Enough transfers after both for the judge to look at its quiet
    // snapshots again (every 64 events).
    for (int i = 0; i < 100; ++i) {
      apply(kP2, event(K::kSend, kP1, ++sent[1], 0, 1));
      apply(kP1, event(K::kReceive, kP2, sent[1], 0, 1));
    }
    // The claims: each channel closed and empty, the records' states.
    std::vector<SnapshotClaim> claims(2);
    for (SnapshotId id : {1, 2}) {
      SnapshotClaim& c = claims[id - 1];
      c.id = id;
      c.markers_sent = id == 1 ? 2 : 1;
      c.balances = {90, id == 1 ? 100 : 110};
      c.channels.assign(net.channel_count(), history::ChannelRecord{});
      for (history::ChannelRecord& r : c.channels) r.state = ChannelRecording::kClosed;
    }
    for (const SnapshotClaim& c : claims) {
      StreamEvent e;
      e.kind = K::kClaim;
      e.snapshot = c.id;
      e.claim = &c;
      apply(kP1, e);
    }
    return j.Finish();
  };
  const StreamResult kept = judge(false);
  const StreamResult aside = judge(true);
  EXPECT_EQ(aside.report.problems, kept.report.problems);
  EXPECT_EQ(aside.report.snapshots_checked, kept.report.snapshots_checked);
  ASSERT_EQ(aside.report.verdicts.size(), kept.report.verdicts.size());
  for (std::size_t i = 0; i < kept.report.verdicts.size(); ++i) {
    EXPECT_EQ(aside.report.verdicts[i].consistent(), kept.report.verdicts[i].consistent());
  }
  // Not a comparison of silences: the $10 missing from snapshot 1's channel
  // state, and snapshot 2's missing marker, are found either way.
  EXPECT_THAT(kept.report.problems,
              ::testing::Contains(::testing::HasSubstr("snapshot 1:")));
  EXPECT_THAT(kept.report.problems,
              ::testing::Contains(::testing::HasSubstr("snapshot 2:")));
}

}  // namespace
}  // namespace cutline::check
