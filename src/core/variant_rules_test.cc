// The variants' rules, one process at a time, without a network: what each
// input obliges the host to do.
#include <gtest/gtest.h>

#include "cutline/barrier_rules.h"
#include "cutline/lai_yang_rules.h"
#include "cutline/snapshot_agent.h"

namespace cutline {
namespace {

// Lai-Yang: a newer epoch records before the message is applied; a channel
// closes when its control message's count of older messages has come,
// whatever the order they arrive in.
TEST(LaiYangRulesTest, NewerEpochRecordsFirstAndCountsClose) {
  LaiYangRules p(/*incoming=*/1, /*outgoing=*/1);
  EXPECT_EQ(p.OnOutgoing(0).value, 0u);  // before any snapshot: epoch 0
  // An epoch-0 message, then the sender records snapshot 1 (count 2: it
  // sent two before recording) and an epoch-1 message overtakes the rest.
  EXPECT_FALSE(p.OnMessage(0, 0).step.record_state);
  LaiYangRules::MessageStep newer = p.OnMessage(0, 1);
  EXPECT_TRUE(newer.step.record_state);
  EXPECT_EQ(newer.recorded, 1u);
  EXPECT_FALSE(newer.in_channel_state);  // it belongs to the future
  EXPECT_EQ(p.Epoch(), 1u);
  EXPECT_EQ(p.OnOutgoing(0).value, 1u);  // now stamps epoch 1
  EXPECT_EQ(p.ControlFor(1, 0).value, 1u);  // one sent before recording
  Step control = p.OnControl(1, 0, 2);   // 2 old ones: 1 has come so far
  EXPECT_FALSE(control.closed_channel);
  EXPECT_EQ(p.Channel(1, 0), ChannelRecording::kRecording);
  LaiYangRules::MessageStep old = p.OnMessage(0, 0);
  EXPECT_TRUE(old.in_channel_state);
  EXPECT_EQ(old.snapshot, 1u);
  EXPECT_TRUE(old.step.closed_channel);
  EXPECT_TRUE(old.step.part_done);
  EXPECT_EQ(p.Channel(1, 0), ChannelRecording::kClosed);
  EXPECT_EQ(p.OnControl(1, 0, 2).error, AgentError::kDuplicateMarker);
  EXPECT_TRUE(p.Start(1).ok());  // a further initiator joins
  EXPECT_FALSE(p.Start(1).record_state);
}

TEST(LaiYangRulesTest, ControlOfAnUnrecordedSnapshotRecords) {
  LaiYangRules p(2, 0);
  Step s = p.OnControl(3, 1, 0);
  EXPECT_TRUE(s.record_state);
  EXPECT_TRUE(s.closed_channel);  // nothing old was sent on it
  EXPECT_FALSE(s.part_done);      // channel 0 still waits for its control
  EXPECT_TRUE(p.OnControl(3, 0, 0).part_done);
  EXPECT_EQ(p.OnMessage(5, 0).step.error, AgentError::kUnknownChannel);
}

// Aligned: barriers hold their channels until the last one comes; then the
// process records, closes everything (empty) and releases its inputs.
TEST(AlignedBarrierRulesTest, HoldsUntilAligned) {
  AlignedBarrierRules p(3);
  Step first = p.OnMarker(1, 2);
  EXPECT_TRUE(first.hold_channel);
  EXPECT_FALSE(first.record_state);
  EXPECT_EQ(p.Channel(1, 2), ChannelRecording::kHeldBack);
  EXPECT_EQ(p.Channel(1, 0), ChannelRecording::kNotRecorded);
  EXPECT_EQ(p.Waiting(1), (std::vector<ChannelIndex>{0, 1}));
  EXPECT_EQ(p.OnMarker(1, 2).error, AgentError::kDuplicateMarker);
  EXPECT_TRUE(p.OnMarker(1, 0).hold_channel);
  Step last = p.OnMarker(1, 1);
  EXPECT_TRUE(last.record_state);
  EXPECT_TRUE(last.release_inputs);
  EXPECT_TRUE(last.part_done);
  EXPECT_FALSE(last.hold_channel);
  for (ChannelIndex c = 0; c < 3; ++c) {
    EXPECT_EQ(p.Channel(1, c), ChannelRecording::kClosed);
  }
  EXPECT_TRUE(p.Waiting(1).empty());
}

TEST(AlignedBarrierRulesTest, ASourceRecordsAtOnce) {
  AlignedBarrierRules source(0);
  Step s = source.Start(1);
  EXPECT_TRUE(s.record_state);
  EXPECT_TRUE(s.part_done);
  EXPECT_TRUE(source.Start(1).ok());  // a further initiator joins
  EXPECT_FALSE(source.Start(1).record_state);
}

// The alignment timeout: the aligning snapshot records at once, sends its
// barriers ahead and releases; the inputs without a barrier record what
// comes on them until it does.
TEST(AlignedBarrierRulesTest, UnalignRecordsReleasesAndRecordsTheWaitingInputs) {
  AlignedBarrierRules p(3, 2);
  EXPECT_TRUE(p.OnMarker(1, 0).hold_channel);
  Reply r = p.Unalign(1);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.snapshot, 1u);
  EXPECT_TRUE(r.record_state);
  EXPECT_TRUE(r.markers_ahead);
  EXPECT_TRUE(r.release_inputs);
  EXPECT_FALSE(r.part_done);
  EXPECT_FALSE(r.hold_channel);
  EXPECT_EQ(p.aligning(), 0u);
  EXPECT_TRUE(p.HasRecorded(1));
  EXPECT_FALSE(p.PartDone(1));
  EXPECT_TRUE(p.ControlFor(1, 1).ok());
  EXPECT_TRUE(p.Waiting(1).empty());
  EXPECT_EQ(p.Channel(1, 0), ChannelRecording::kClosed);
  EXPECT_EQ(p.Channel(1, 1), ChannelRecording::kRecording);
  EXPECT_EQ(p.Channel(1, 2), ChannelRecording::kRecording);
  auto joins = [&](ChannelIndex c) {
    std::vector<SnapshotId> ids;
    EXPECT_TRUE(p.OnMessage(c, NoStamp{}, [&](const Reply& j) {
                   EXPECT_FALSE(j.part_done);
                   ids.push_back(j.snapshot);
                 }).ok());
    return ids;
  };
  EXPECT_EQ(joins(0), std::vector<SnapshotId>{});  // after its barrier: not in flight
  EXPECT_EQ(joins(1), std::vector<SnapshotId>{1});
  Step second = p.OnMarker(1, 1);
  EXPECT_TRUE(second.closed_channel);
  EXPECT_FALSE(second.record_state);
  EXPECT_FALSE(second.part_done);
  EXPECT_EQ(p.OnMarker(1, 1).error, AgentError::kDuplicateMarker);
  EXPECT_EQ(joins(1), std::vector<SnapshotId>{});
  EXPECT_EQ(joins(2), std::vector<SnapshotId>{1});
  EXPECT_EQ(p.Forget(1).error, AgentError::kNotDone);
  Step last = p.OnMarker(1, 2);
  EXPECT_TRUE(last.closed_channel);
  EXPECT_TRUE(last.part_done);
  EXPECT_FALSE(last.release_inputs);
  EXPECT_TRUE(p.PartDone(1));
  EXPECT_EQ(joins(2), std::vector<SnapshotId>{});
  EXPECT_TRUE(p.Forget(1).ok());
  EXPECT_TRUE(p.IsFinished(1));
}

TEST(AlignedBarrierRulesTest, UnalignIsOnlyForTheAligningSnapshot) {
  AlignedBarrierRules p(2, 1);
  EXPECT_EQ(p.Unalign(0).error, AgentError::kInvalidSnapshot);
  EXPECT_EQ(p.Unalign(1).error, AgentError::kUnknownSnapshot);  // nothing aligns
  EXPECT_TRUE(p.OnMarker(1, 0).hold_channel);
  Reply wrong = p.Unalign(2);
  EXPECT_EQ(wrong.error, AgentError::kUnknownSnapshot);
  EXPECT_EQ(wrong.snapshot, 2u);
  EXPECT_EQ(p.aligning(), 1u);  // a refusal changes nothing
  EXPECT_TRUE(p.Unalign(1).ok());
  EXPECT_EQ(p.Unalign(1).error, AgentError::kAlreadyRecorded);  // switched already
  EXPECT_TRUE(p.OnMarker(1, 1).part_done);
  EXPECT_EQ(p.Unalign(1).error, AgentError::kAlreadyRecorded);
  EXPECT_TRUE(p.Forget(1).ok());
  EXPECT_EQ(p.Unalign(1).error, AgentError::kFinished);
  // Aligned without a switch: recorded at its last barrier.
  p.OnMarker(2, 0);
  EXPECT_TRUE(p.OnMarker(2, 1).record_state);
  EXPECT_EQ(p.Unalign(2).error, AgentError::kAlreadyRecorded);
  AlignedBarrierRules source(0, 1);
  EXPECT_TRUE(source.Start(3).ok());
  EXPECT_EQ(source.Unalign(3).error, AgentError::kAlreadyRecorded);
}

// After a switch nothing is held, so the next snapshot aligns while the
// switched one still records: its barrier comes first on every input.
TEST(AlignedBarrierRulesTest, ASwitchedSnapshotThenANewAlignedOne) {
  AlignedBarrierRules p(2, 1);
  p.OnMarker(1, 0);
  ASSERT_TRUE(p.Unalign(1).ok());
  Step next = p.OnMarker(2, 0);  // input 0 goes on, and brings 2's barrier
  EXPECT_TRUE(next.hold_channel);
  EXPECT_EQ(p.aligning(), 2u);
  EXPECT_EQ(p.Channel(2, 0), ChannelRecording::kHeldBack);
  EXPECT_EQ(p.OnMessage(0, NoStamp{}, [](const Reply&) {}).error, AgentError::kChannelHeld);
  int joined = 0;
  EXPECT_TRUE(p.OnMessage(1, NoStamp{}, [&](const Reply& j) {
                 EXPECT_EQ(j.snapshot, 1u);
                 ++joined;
               }).ok());
  EXPECT_EQ(joined, 1);
  Step old = p.OnMarker(1, 1);  // not out of order: 1 is switched
  ASSERT_TRUE(old.ok());
  EXPECT_TRUE(old.part_done);
  EXPECT_FALSE(old.release_inputs);
  EXPECT_EQ(p.aligning(), 2u);  // 2 still holds input 0
  Step aligned = p.OnMarker(2, 1);
  EXPECT_TRUE(aligned.record_state);
  EXPECT_FALSE(aligned.markers_ahead);
  EXPECT_TRUE(aligned.release_inputs);
  EXPECT_TRUE(p.PartDone(2));
}

// Two switched snapshots record the same input: a message joins both, in
// id order; an Abort of a switched one releases nothing.
TEST(AlignedBarrierRulesTest, SwitchedSnapshotsJoinInIdOrderAndAbortQuietly) {
  AlignedBarrierRules p(2, 0);
  p.OnMarker(5, 0);
  ASSERT_TRUE(p.Unalign(5).ok());
  p.OnMarker(7, 0);
  ASSERT_TRUE(p.Unalign(7).ok());
  std::vector<SnapshotId> ids;
  p.OnMessage(1, NoStamp{}, [&](const Reply& j) { ids.push_back(j.snapshot); });
  EXPECT_EQ(ids, (std::vector<SnapshotId>{5, 7}));
  Reply aborted = p.Abort(5);
  EXPECT_TRUE(aborted.ok());
  EXPECT_FALSE(aborted.release_inputs);
  ids.clear();
  p.OnMessage(1, NoStamp{}, [&](const Reply& j) { ids.push_back(j.snapshot); });
  EXPECT_EQ(ids, std::vector<SnapshotId>{7});
  EXPECT_TRUE(p.OnMarker(7, 1).part_done);
  EXPECT_TRUE(p.Forget(7).ok());
  ids.clear();
  p.OnMessage(1, NoStamp{}, [&](const Reply& j) { ids.push_back(j.snapshot); });
  EXPECT_TRUE(ids.empty());
}

// The agent keeps the switched part: its state, what joined, and what its
// barriers overtook on the outputs.
TEST(AlignedBarrierRulesTest, TheAgentKeepsASwitchedPart) {
  SnapshotAgent<int, int, AlignedBarrierRules> agent(2, 1);
  EXPECT_EQ(agent.Unalign(1, 10).error, AgentError::kUnknownSnapshot);
  EXPECT_TRUE(agent.OnMarker(1, 0, 10).hold_channel);
  Reply r = agent.Unalign(1, 11);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.markers_ahead);
  EXPECT_TRUE(agent.RecordOvertaken(1, 0, 40).ok());
  EXPECT_TRUE(agent.OnMessage(1, NoStamp{}, 20, 11).ok());
  EXPECT_TRUE(agent.OnMessage(0, NoStamp{}, 30, 31).ok());  // after 0's barrier
  EXPECT_EQ(agent.TakeFinished(), std::nullopt);
  EXPECT_TRUE(agent.OnMarker(1, 1, 61).part_done);
  auto done = agent.TakeFinished();
  ASSERT_TRUE(done.has_value());
  EXPECT_EQ(done->part.state, 11);
  EXPECT_EQ(done->part.channels, (std::vector<std::vector<int>>{{}, {20}}));
  EXPECT_EQ(done->part.sent, (std::vector<std::vector<int>>{{40}}));
}

// Unaligned: Chandy-Lamport's recording, with the barriers sent ahead.
TEST(UnalignedBarrierRulesTest, RecordsLikeChandyLamportButSendsAhead) {
  UnalignedBarrierRules p(2);
  Step first = p.OnMarker(1, 0);
  EXPECT_TRUE(first.record_state);
  EXPECT_TRUE(first.markers_ahead);
  EXPECT_TRUE(first.closed_channel);
  int recording = 0;
  p.ForEachRecording(1, [&](SnapshotId) { ++recording; });
  EXPECT_EQ(recording, 1);
  Step second = p.OnMarker(1, 1);
  EXPECT_FALSE(second.markers_ahead);  // only a record sends barriers
  EXPECT_TRUE(second.part_done);
}

}  // namespace
}  // namespace cutline
