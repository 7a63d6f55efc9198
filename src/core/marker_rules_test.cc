// Unit tests of MarkerRules and SnapshotAgent alone: no simulator, inputs
// are fed by hand one at a time, as a host would.
#include "cutline/marker_rules.h"

#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "cutline/snapshot_agent.h"

namespace cutline {
namespace {

std::vector<SnapshotId> Recording(const MarkerRules& rules, ChannelIndex c) {
  std::vector<SnapshotId> ids;
  rules.ForEachRecording(c, [&](SnapshotId id) { ids.push_back(id); });
  return ids;
}

// The Step as one comparable value, so that a failure shows all of it.
std::string Show(const Step& s) {
  std::string out = "error=" + std::string(ToString(s.error));
  if (s.record_state) out += " record";
  if (s.closed_channel) out += " closed";
  if (s.part_done) out += " done";
  return out;
}

TEST(MarkerRulesTest, StartRecordsAndRecordsEveryIncomingChannel) {
  MarkerRules rules(3);
  Step step = rules.Start(1);
  EXPECT_TRUE(step.ok());
  EXPECT_EQ(Show(step), "error=none record");
  EXPECT_TRUE(rules.HasRecorded(1));
  EXPECT_FALSE(rules.PartDone(1));
  for (ChannelIndex c = 0; c < 3; ++c) {
    EXPECT_EQ(rules.Channel(1, c), ChannelRecording::kRecording);
  }
  EXPECT_FALSE(rules.HasRecorded(2));
  EXPECT_EQ(rules.Channel(2, 0), ChannelRecording::kNotRecorded);
}

TEST(MarkerRulesTest, FirstMarkerRecordsAndClosesItsChannelEmpty) {
  MarkerRules rules(3);
  Step step = rules.OnMarker(7, 1);
  EXPECT_EQ(Show(step), "error=none record closed");
  EXPECT_TRUE(rules.HasRecorded(7));
  EXPECT_EQ(rules.Channel(7, 0), ChannelRecording::kRecording);
  EXPECT_EQ(rules.Channel(7, 1), ChannelRecording::kClosed);
  EXPECT_EQ(rules.Channel(7, 2), ChannelRecording::kRecording);
  EXPECT_FALSE(rules.PartDone(7));
}

TEST(MarkerRulesTest, LaterMarkersCloseAndTheLastOneFinishesThePart) {
  MarkerRules rules(3);
  ASSERT_TRUE(rules.OnMarker(1, 2).ok());
  EXPECT_EQ(Show(rules.OnMarker(1, 0)), "error=none closed");
  EXPECT_FALSE(rules.PartDone(1));
  EXPECT_EQ(Show(rules.OnMarker(1, 1)), "error=none closed done");
  EXPECT_TRUE(rules.PartDone(1));
  for (ChannelIndex c = 0; c < 3; ++c) {
    EXPECT_EQ(rules.Channel(1, c), ChannelRecording::kClosed);
  }
}

TEST(MarkerRulesTest, InitiatorClosesEveryChannelByMarkers) {
  MarkerRules rules(2);
  ASSERT_TRUE(rules.Start(4).ok());
  EXPECT_EQ(Show(rules.OnMarker(4, 1)), "error=none closed");
  EXPECT_EQ(Show(rules.OnMarker(4, 0)), "error=none closed done");
}

TEST(MarkerRulesTest, OneIncomingChannelFinishesOnTheFirstMarker) {
  MarkerRules rules(1);
  EXPECT_EQ(Show(rules.OnMarker(1, 0)), "error=none record closed done");
  EXPECT_TRUE(rules.PartDone(1));
}

TEST(MarkerRulesTest, DuplicateMarkerIsAnErrorAndChangesNothing) {
  MarkerRules rules(2);
  ASSERT_TRUE(rules.OnMarker(1, 0).ok());
  Step step = rules.OnMarker(1, 0);
  EXPECT_FALSE(step.ok());
  EXPECT_EQ(step.error, AgentError::kDuplicateMarker);
  EXPECT_EQ(Show(step), "error=duplicate_marker");
  EXPECT_EQ(rules.Channel(1, 1), ChannelRecording::kRecording);
  EXPECT_FALSE(rules.PartDone(1));
  // The open count was not decremented twice: channel 1 still finishes it.
  EXPECT_EQ(Show(rules.OnMarker(1, 1)), "error=none closed done");
  // And after the part is done a marker is still a duplicate.
  EXPECT_EQ(rules.OnMarker(1, 1).error, AgentError::kDuplicateMarker);
  EXPECT_TRUE(rules.PartDone(1));
}

// Issue 14: a second initiator joins a running snapshot; it used to get
// kAlreadyRecorded, so every host special-cased it.
TEST(MarkerRulesTest, StartingARunningSnapshotJoinsIt) {
  MarkerRules rules(2);
  ASSERT_TRUE(rules.Start(1).ok());
  Reply again = rules.Start(1);
  EXPECT_TRUE(again.ok());
  EXPECT_EQ(again.snapshot, 1u);
  EXPECT_FALSE(again.record_state);
  ASSERT_TRUE(rules.OnMarker(2, 1).ok());
  Reply join = rules.Start(2);
  EXPECT_TRUE(join.ok());
  EXPECT_FALSE(join.record_state);
  // Neither join reset the channels.
  EXPECT_EQ(rules.Channel(1, 0), ChannelRecording::kRecording);
  EXPECT_EQ(rules.Channel(2, 1), ChannelRecording::kClosed);
}

TEST(MarkerRulesTest, UnknownChannelIsAnErrorAndRecordsNothing) {
  MarkerRules rules(2);
  Step step = rules.OnMarker(1, 2);
  EXPECT_EQ(step.error, AgentError::kUnknownChannel);
  EXPECT_FALSE(step.record_state);
  EXPECT_FALSE(rules.HasRecorded(1));
  EXPECT_EQ(rules.Channel(1, 2), ChannelRecording::kNotRecorded);
  // Also for a snapshot that is already recorded.
  ASSERT_TRUE(rules.Start(1).ok());
  EXPECT_EQ(rules.OnMarker(1, 99).error, AgentError::kUnknownChannel);
  EXPECT_FALSE(rules.PartDone(1));
}

TEST(MarkerRulesTest, ConcurrentSnapshotsAreIndependent) {
  MarkerRules rules(2);
  ASSERT_TRUE(rules.Start(5).ok());
  ASSERT_TRUE(rules.OnMarker(2, 1).ok());
  ASSERT_TRUE(rules.OnMarker(9, 0).ok());
  // Channel 0 is recorded by 5 and 2 (9 got its marker there); in id order.
  EXPECT_EQ(Recording(rules, 0), (std::vector<SnapshotId>{2, 5}));
  EXPECT_EQ(Recording(rules, 1), (std::vector<SnapshotId>{5, 9}));
  EXPECT_EQ(Show(rules.OnMarker(5, 0)), "error=none closed");
  EXPECT_EQ(Recording(rules, 0), (std::vector<SnapshotId>{2}));
  EXPECT_EQ(Show(rules.OnMarker(2, 0)), "error=none closed done");
  EXPECT_TRUE(rules.PartDone(2));
  EXPECT_FALSE(rules.PartDone(5));
  EXPECT_FALSE(rules.PartDone(9));
  EXPECT_TRUE(Recording(rules, 0).empty());
  EXPECT_EQ(Show(rules.OnMarker(9, 1)), "error=none closed done");
  EXPECT_EQ(Show(rules.OnMarker(5, 1)), "error=none closed done");
  EXPECT_TRUE(Recording(rules, 1).empty());
}

TEST(MarkerRulesTest, NoIncomingChannelsIsDoneAtOnce) {
  MarkerRules rules(0);
  EXPECT_EQ(rules.incoming_channels(), 0u);
  EXPECT_EQ(Show(rules.Start(1)), "error=none record done");
  EXPECT_TRUE(rules.PartDone(1));
  EXPECT_EQ(rules.OnMarker(2, 0).error, AgentError::kUnknownChannel);
  EXPECT_FALSE(rules.HasRecorded(2));
}

TEST(MarkerRulesTest, ForEachRecordingReportsOnlyRecordingChannels) {
  MarkerRules rules(3);
  EXPECT_TRUE(Recording(rules, 0).empty());  // nothing recorded at all
  ASSERT_TRUE(rules.OnMarker(3, 1).ok());
  EXPECT_EQ(Recording(rules, 0), (std::vector<SnapshotId>{3}));
  EXPECT_TRUE(Recording(rules, 1).empty());  // closed by its marker
  EXPECT_EQ(Recording(rules, 2), (std::vector<SnapshotId>{3}));
}

TEST(MarkerRulesTest, ForgetDropsTheSnapshotAndItsRecordingChannels) {
  MarkerRules rules(2);
  ASSERT_TRUE(rules.Start(1).ok());
  ASSERT_TRUE(rules.Start(2).ok());
  ASSERT_TRUE(rules.OnMarker(2, 0).ok());
  // A running part is not forgotten but aborted.
  EXPECT_EQ(rules.Forget(1).error, AgentError::kNotDone);
  EXPECT_TRUE(rules.HasRecorded(1));
  EXPECT_TRUE(rules.Abort(1).ok());  // given up while recording both channels
  EXPECT_FALSE(rules.HasRecorded(1));
  EXPECT_FALSE(rules.PartDone(1));
  EXPECT_EQ(rules.Channel(1, 0), ChannelRecording::kNotRecorded);
  EXPECT_TRUE(Recording(rules, 0).empty());
  EXPECT_EQ(Recording(rules, 1), (std::vector<SnapshotId>{2}));
  EXPECT_EQ(rules.Forget(42).error, AgentError::kUnknownSnapshot);
  EXPECT_TRUE(rules.HasRecorded(2));
  EXPECT_TRUE(rules.Abort(2).ok());
  EXPECT_TRUE(Recording(rules, 1).empty());
  // Issue 14: an aborted id stays finished. A late Start (a slower second
  // initiator) used to start it again, and it never completed.
  EXPECT_EQ(Show(rules.Start(1)), "error=finished");
  EXPECT_EQ(rules.Start(1).error, AgentError::kFinished);
  EXPECT_EQ(rules.OnMarker(2, 1).error, AgentError::kFinished);
  EXPECT_TRUE(Recording(rules, 0).empty());
}

TEST(MarkerRulesTest, ForgetAfterThePartIsDone) {
  MarkerRules rules(1);
  ASSERT_TRUE(rules.OnMarker(1, 0).part_done);
  ASSERT_TRUE(rules.Start(2).ok());
  EXPECT_TRUE(rules.Forget(1).ok());
  EXPECT_FALSE(rules.HasRecorded(1));
  EXPECT_TRUE(rules.IsFinished(1));
  EXPECT_EQ(rules.Start(1).error, AgentError::kFinished);
  EXPECT_EQ(rules.OnMarker(1, 0).error, AgentError::kFinished);
  EXPECT_EQ(Recording(rules, 0), (std::vector<SnapshotId>{2}));
  EXPECT_EQ(Show(rules.OnMarker(2, 0)), "error=none closed done");
}

// The agent with a payload other than the bank's, to show it is generic.
using StringAgent = SnapshotAgent<int, std::string>;

TEST(SnapshotAgentTest, StartRecordsTheStateGiven) {
  StringAgent agent(2, 0);
  ASSERT_TRUE(agent.Start(1, 100).ok());
  ASSERT_NE(agent.Find(1), nullptr);
  EXPECT_EQ(agent.Find(1)->state, 100);
  EXPECT_TRUE(agent.Find(1)->messages.empty());
  EXPECT_EQ(agent.Find(2), nullptr);
  EXPECT_TRUE(agent.HasRecorded(1));
  EXPECT_EQ(agent.incoming_channels(), 2u);
}

TEST(SnapshotAgentTest, MessagesOnRecordingChannelsAreKeptInArrivalOrder) {
  StringAgent agent(2, 0);
  EXPECT_EQ(agent.OnMessage(0, "before").value, 0u);  // nothing is recording yet
  ASSERT_TRUE(agent.Start(1, 10).ok());
  EXPECT_EQ(agent.OnMessage(0, "a").value, 1u);
  EXPECT_EQ(agent.OnMessage(1, "b").value, 1u);
  EXPECT_EQ(agent.OnMessage(0, "c").value, 1u);
  ASSERT_TRUE(agent.OnMarker(1, 0, 999).closed_channel);
  EXPECT_EQ(agent.OnMessage(0, "after marker").value, 0u);
  EXPECT_EQ(agent.OnMessage(1, "d").value, 1u);
  ASSERT_TRUE(agent.OnMarker(1, 1, 999).part_done);
  EXPECT_EQ(agent.OnMessage(1, "after done").value, 0u);

  EXPECT_EQ(agent.ChannelMessages(1, 0), (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(agent.ChannelMessages(1, 1), (std::vector<std::string>{"b", "d"}));
  const StringAgent::Recorded* r = agent.Find(1);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->state, 10);  // later markers do not overwrite the state
  ASSERT_EQ(r->messages.size(), 4u);
  EXPECT_EQ(r->messages[1], (std::pair<ChannelIndex, std::string>{1, "b"}));
  EXPECT_EQ(agent.Channel(1, 0), ChannelRecording::kClosed);
}

TEST(SnapshotAgentTest, FirstMarkerRecordsTheStateAndItsChannelEmpty) {
  StringAgent agent(2, 0);
  ASSERT_EQ(Show(agent.OnMarker(3, 1, 55)), "error=none record closed");
  EXPECT_EQ(agent.Find(3)->state, 55);
  EXPECT_EQ(agent.OnMessage(1, "x").value, 0u);
  EXPECT_EQ(agent.OnMessage(0, "y").value, 1u);
  EXPECT_TRUE(agent.ChannelMessages(3, 1).empty());
  EXPECT_EQ(agent.ChannelMessages(3, 0), (std::vector<std::string>{"y"}));
}

TEST(SnapshotAgentTest, ErrorsKeepWhatWasRecorded) {
  StringAgent agent(1, 0);
  ASSERT_TRUE(agent.Start(1, 10).ok());
  EXPECT_TRUE(agent.Start(1, 20).ok());  // joins: the state stays
  EXPECT_EQ(agent.Find(1)->state, 10);
  EXPECT_EQ(agent.OnMarker(2, 5, 30).error, AgentError::kUnknownChannel);
  EXPECT_EQ(agent.Find(2), nullptr);
  ASSERT_TRUE(agent.OnMarker(1, 0, 40).ok());
  EXPECT_EQ(agent.OnMarker(1, 0, 50).error, AgentError::kDuplicateMarker);
  EXPECT_EQ(agent.Find(1)->state, 10);
}

TEST(SnapshotAgentTest, AMessageBelongsToEverySnapshotRecordingItsChannel) {
  StringAgent agent(2, 0);
  ASSERT_TRUE(agent.Start(1, 1).ok());
  ASSERT_TRUE(agent.Start(2, 2).ok());
  ASSERT_TRUE(agent.OnMarker(3, 1, 3).ok());
  EXPECT_EQ(agent.OnMessage(0, "m").value, 3u);
  EXPECT_EQ(agent.OnMessage(1, "n").value, 2u);  // snapshot 3 closed channel 1
  for (SnapshotId id : {1, 2, 3}) {
    EXPECT_EQ(agent.ChannelMessages(id, 0), (std::vector<std::string>{"m"}));
    EXPECT_EQ(agent.Find(id)->state, static_cast<int>(id));
  }
  EXPECT_TRUE(agent.ChannelMessages(3, 1).empty());
}

TEST(SnapshotAgentTest, ZeroIncomingChannels) {
  StringAgent agent(0, 0);
  EXPECT_EQ(Show(agent.Start(1, 7)), "error=none record done");
  EXPECT_TRUE(agent.PartDone(1));
  EXPECT_EQ(agent.Find(1)->state, 7);
}

TEST(SnapshotAgentTest, ForgetDropsStateAndMessages) {
  StringAgent agent(1, 0);
  ASSERT_TRUE(agent.Start(1, 10).ok());
  ASSERT_EQ(agent.OnMessage(0, "m").value, 1u);
  EXPECT_EQ(agent.Forget(1).error, AgentError::kNotDone);  // still running
  EXPECT_EQ(agent.Find(1)->state, 10);
  EXPECT_TRUE(agent.Abort(1).ok());
  EXPECT_EQ(agent.Find(1), nullptr);
  EXPECT_FALSE(agent.HasRecorded(1));
  EXPECT_TRUE(agent.ChannelMessages(1, 0).empty());
  EXPECT_EQ(agent.OnMessage(0, "n").value, 0u);  // no longer recording
  // Issue 14: and the id stays finished (it used to start anew).
  EXPECT_EQ(agent.Start(1, 20).error, AgentError::kFinished);
  EXPECT_EQ(agent.Find(1), nullptr);
}

}  // namespace
}  // namespace cutline
