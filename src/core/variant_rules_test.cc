// The variants' rules, one process at a time, without a network: what each
// input obliges the host to do.
#include <gtest/gtest.h>

#include "cutline/barrier_rules.h"
#include "cutline/lai_yang_rules.h"

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
