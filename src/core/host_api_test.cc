// What a host needs beside the agent: the wire frame that keeps markers in
// the application's stream, and the collector that assembles parts. Then the
// silent failures of issue 25, each reproduced as the issue found it: every
// one must now get a named answer.
#include <gtest/gtest.h>

#include <array>
#include <charconv>
#include <cstdint>
#include <deque>
#include <iostream>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "cutline/barrier_rules.h"
#include "cutline/collector.h"
#include "cutline/lai_yang_rules.h"
#include "cutline/snapshot_agent.h"
#include "cutline/wire.h"

namespace cutline {
namespace {

TEST(Wire, MarkersAndApplicationBytesRoundTrip) {
  for (SnapshotId id : {SnapshotId{1}, SnapshotId{255}, SnapshotId{256},
                        SnapshotId{0x0102030405060708ULL}, ~SnapshotId{0}}) {
    std::string bytes = wire::EncodeMarker(id);
    EXPECT_EQ(bytes.size(), wire::kMarkerFrameSize);
    auto frame = wire::Decode(bytes);
    ASSERT_TRUE(frame);
    EXPECT_EQ(frame->kind, wire::FrameKind::kMarker);
    EXPECT_EQ(frame->snapshot, id);
    EXPECT_EQ(frame->payload, "");
  }
  // What a host appends to a marker comes back as its payload.
  // (The frame's payload points into the bytes: they must outlive it.)
  std::string clocked = wire::EncodeMarker(7, std::string("\0\1vc", 4));
  auto with_clock = wire::Decode(clocked);
  ASSERT_TRUE(with_clock);
  EXPECT_EQ(with_clock->snapshot, 7u);
  EXPECT_EQ(with_clock->payload, std::string("\0\1vc", 4));
  // Little-endian whatever the host.
  EXPECT_EQ(wire::EncodeMarker(0x0102)[1], '\x02');
  EXPECT_EQ(wire::EncodeMarker(0x0102)[2], '\x01');

  for (std::string payload : {std::string(), std::string("40"), std::string("\0M\xff", 3)}) {
    std::string bytes = wire::EncodeApplication(payload);
    auto frame = wire::Decode(bytes);
    ASSERT_TRUE(frame);
    EXPECT_EQ(frame->kind, wire::FrameKind::kApplication);
    EXPECT_EQ(frame->payload, payload);
  }
}

TEST(Wire, BytesThatAreNoFrameAreRefused) {
  EXPECT_FALSE(wire::Decode(""));
  EXPECT_FALSE(wire::Decode("X12345678"));
  EXPECT_FALSE(wire::Decode("M1234567"));  // one byte short of an id
  EXPECT_FALSE(wire::Decode("M"));
}

using Collector = SnapshotCollector<int, int>;

Collector::Part PartOf(int state, std::vector<std::vector<int>> channels) {
  return Collector::Part{state, std::move(channels)};
}

TEST(Collector, ASnapshotIsWholeWithItsLastPart) {
  Collector c(3);
  EXPECT_EQ(c.Add(1, 2, PartOf(30, {{}, {5}})), Collector::Added::kPending);
  EXPECT_FALSE(c.Take(1));
  EXPECT_EQ(c.Missing(1), (std::vector<ProcessIndex>{0, 1}));
  EXPECT_EQ(c.Add(1, 0, PartOf(10, {{}, {}})), Collector::Added::kPending);
  EXPECT_EQ(c.Received(1), 2u);
  // What a host names when it gives the snapshot up: the part it waits for.
  EXPECT_EQ(c.Missing(1), std::vector<ProcessIndex>{1});
  EXPECT_EQ(c.Missing(9), (std::vector<ProcessIndex>{0, 1, 2})) << "no part yet: all of them";
  EXPECT_EQ(c.Pending(), std::vector<SnapshotId>{1});
  EXPECT_EQ(c.Add(1, 1, PartOf(20, {{7, 8}, {}})), Collector::Added::kComplete);
  auto parts = c.Take(1);
  ASSERT_TRUE(parts);
  ASSERT_EQ(parts->size(), 3u);
  EXPECT_EQ((*parts)[0].state, 10);
  EXPECT_EQ((*parts)[1].channels[0], (std::vector<int>{7, 8}));
  EXPECT_EQ((*parts)[2].channels[1], std::vector<int>{5});
  EXPECT_TRUE(c.Pending().empty());
  // Taken: it is gone, and a late part is refused.
  EXPECT_FALSE(c.Take(1));
  EXPECT_EQ(c.Add(1, 0, PartOf(10, {})), Collector::Added::kClosed);
}

TEST(Collector, SnapshotsAssembleIndependentlyAndOutOfOrder) {
  Collector c(2);
  EXPECT_EQ(c.Add(2, 0, PartOf(1, {})), Collector::Added::kPending);
  EXPECT_EQ(c.Add(1, 1, PartOf(2, {})), Collector::Added::kPending);
  EXPECT_EQ(c.Add(2, 1, PartOf(3, {})), Collector::Added::kComplete);
  EXPECT_TRUE(c.Take(2));
  EXPECT_EQ(c.Pending(), std::vector<SnapshotId>{1});
  EXPECT_EQ(c.Add(1, 0, PartOf(4, {})), Collector::Added::kComplete);
  EXPECT_TRUE(c.Take(1));
  EXPECT_EQ(c.Add(2, 0, PartOf(1, {})), Collector::Added::kClosed);
  EXPECT_EQ(c.Add(1, 0, PartOf(1, {})), Collector::Added::kClosed);
  EXPECT_EQ(c.Add(3, 0, PartOf(1, {})), Collector::Added::kPending);
}

TEST(Collector, BadPartsAreRefusedAndChangeNothing) {
  Collector c(2);
  EXPECT_EQ(c.Add(1, 0, PartOf(10, {})), Collector::Added::kPending);
  EXPECT_EQ(c.Add(1, 0, PartOf(99, {})), Collector::Added::kDuplicate);
  EXPECT_EQ(c.Add(1, 2, PartOf(99, {})), Collector::Added::kUnknownProcess);
  EXPECT_EQ(c.Received(1), 1u);
  EXPECT_EQ(c.Add(1, 1, PartOf(20, {})), Collector::Added::kComplete);
  EXPECT_EQ((*c.Take(1))[0].state, 10);  // the first part, not the duplicate
}

TEST(Collector, AnAbandonedSnapshotRefusesLateParts) {
  Collector c(2, /*first_id=*/57);  // a restored run continues at 57
  EXPECT_EQ(c.Add(56, 0, PartOf(1, {})), Collector::Added::kClosed);
  EXPECT_EQ(c.Add(57, 0, PartOf(1, {})), Collector::Added::kPending);
  c.Abandon(57);
  EXPECT_TRUE(c.Pending().empty());
  EXPECT_EQ(c.Add(57, 1, PartOf(1, {})), Collector::Added::kClosed);
  EXPECT_FALSE(c.Take(57));
  EXPECT_EQ(c.Add(58, 1, PartOf(1, {})), Collector::Added::kPending);
}

// ---- Issue 25, item 1: "too old to know" is not "finished". ----

// A ring A -> B -> C -> A of Chandy-Lamport agents. A starts snapshot 1; B
// starts `overtakers` newer ones before marker 1 reaches it; then every
// marker is delivered and every finished part taken to one collector.
// Returns C's answer to marker 1 and whether snapshot 1 completed.
struct RingOutcome {
  AgentError c_on_marker_1 = AgentError::kNone;
  PartAdded last_added_1 = PartAdded::kPending;
  bool complete_1 = false;
};
RingOutcome RunRing(SnapshotId overtakers, IdLimits limits = {}) {
  using Agent = SnapshotAgent<int, int, MarkerRules>;
  std::vector<Agent> agents;  // A, B, C: one input and one output each
  for (int i = 0; i < 3; ++i) agents.emplace_back(1, 1, limits);
  std::array<std::deque<SnapshotId>, 3> to;  // markers on the way to process i
  SnapshotCollector<int, int> collector(3);
  RingOutcome out;
  auto handle = [&](std::size_t p, const Reply& r) {
    if (r.record_state) to[(p + 1) % 3].push_back(r.snapshot);
    while (auto done = agents[p].TakeFinished()) {
      PartAdded added = collector.Add(done->id, static_cast<ProcessIndex>(p),
                                      std::move(done->part));
      if (done->id == 1) out.last_added_1 = added;
      if (added == PartAdded::kComplete) {
        if (done->id == 1) out.complete_1 = true;
        collector.Take(done->id);
      }
    }
  };
  handle(0, agents[0].Start(1, 0));
  for (SnapshotId id = 2; id < 2 + overtakers; ++id) handle(1, agents[1].Start(id, 0));
  // B takes marker 1 only now: it travels to C behind all the others.
  for (bool moved = true; moved;) {
    moved = false;
    for (std::size_t p = 0; p < 3; ++p) {
      if (to[p].empty()) continue;
      SnapshotId id = to[p].front();
      to[p].pop_front();
      Reply r = agents[p].OnMarker(id, 0, 0);
      if (p == 2 && id == 1) out.c_on_marker_1 = r.error;
      handle(p, r);
      moved = true;
    }
  }
  return out;
}

TEST(SilentFailures, ASnapshotOvertakenPastTheWindowIsTooOldNotFinished) {
  // Within the window (64 by default) every snapshot completes.
  RingOutcome within = RunRing(64);
  EXPECT_EQ(within.c_on_marker_1, AgentError::kNone);
  EXPECT_TRUE(within.complete_1);
  // One more, and C cannot tell any more: before 0.3 it said kFinished,
  // which the docs told hosts to ignore, and snapshot 1 hung.
  RingOutcome past = RunRing(65);
  EXPECT_EQ(past.c_on_marker_1, AgentError::kTooOld);
  EXPECT_EQ(ToString(past.c_on_marker_1), "too_old");
  EXPECT_FALSE(past.complete_1);
  // The window is the host's to choose.
  RingOutcome wider = RunRing(65, IdLimits{128});
  EXPECT_EQ(wider.c_on_marker_1, AgentError::kNone);
  EXPECT_TRUE(wider.complete_1);
}

TEST(SilentFailures, ClosedIdsTellFinishedFromForgotten) {
  ClosedIds closed(1, /*window=*/2);
  closed.Add(1);  // the floor climbs over 1: known finished
  closed.Add(3);
  closed.Add(5);
  closed.Add(7);  // a third above the floor: 2 is never known again
  EXPECT_EQ(closed.Check(1), AgentError::kFinished);
  EXPECT_EQ(closed.Check(2), AgentError::kTooOld);
  EXPECT_EQ(closed.Check(3), AgentError::kFinished);  // closed, and known to be
  EXPECT_EQ(closed.Check(5), AgentError::kFinished);
  EXPECT_EQ(closed.Check(6), AgentError::kNone);
  EXPECT_EQ(closed.Check(0), AgentError::kInvalidSnapshot);
  EXPECT_TRUE(closed.Contains(2));  // either way nothing records it
  // The host closing everything below 4 does not make 2 known.
  closed.RaiseFloor(4);
  EXPECT_EQ(closed.Check(2), AgentError::kTooOld);
  ClosedIds fresh(10);
  fresh.RaiseFloor(20);  // the host's own word: every id below is closed
  EXPECT_EQ(fresh.Check(15), AgentError::kFinished);
  // Ever more jumps keep a bounded memory, and stay unsure rather than wrong.
  ClosedIds sparse(1, /*window=*/1);
  for (SnapshotId id = 2; id < 2000; id += 2) sparse.Add(id);
  EXPECT_EQ(sparse.size(), 1u);
  for (SnapshotId id = 1; id < 1995; id += 2) {
    ASSERT_EQ(sparse.Check(id), AgentError::kTooOld) << id;
  }
}

TEST(SilentFailures, TheCollectorAnswersTooOldPastItsWindow) {
  Collector c(1, /*first_id=*/1, IdLimits{.closed_window = 4});
  for (SnapshotId id = 2; id <= 6; ++id) {
    ASSERT_EQ(c.Add(id, 0, PartOf(0, {})), PartAdded::kComplete);
    ASSERT_TRUE(c.Take(id));
  }
  // Five complete while 1 lags, window 4: before 0.3 this was kClosed, as
  // if 1 had been taken.
  EXPECT_EQ(c.Add(1, 0, PartOf(0, {})), PartAdded::kTooOld);
  EXPECT_EQ(ToString(PartAdded::kTooOld), "too_old");
  EXPECT_EQ(c.Add(4, 0, PartOf(0, {})), PartAdded::kClosed);  // known taken
  EXPECT_EQ(c.Add(7, 0, PartOf(0, {})), PartAdded::kComplete);
  ASSERT_TRUE(c.Take(7));
  EXPECT_EQ(c.Add(7, 0, PartOf(0, {})), PartAdded::kClosed);
  EXPECT_EQ(c.limits().closed_window, 4u);
}

// ---- Item 2: a barrier never overtakes an older barrier. ----

TEST(SilentFailures, AnUnalignedBarrierGoesBehindTheLastQueuedBarrier) {
  struct Entry {
    bool barrier;
    int value;
  };
  std::deque<Entry> queue{{false, 1}, {true, 10}, {false, 2}, {false, 3}};
  auto is_barrier = [](const Entry& e) { return e.barrier; };
  auto place = UnalignedBarrierPlace(queue.begin(), queue.end(), is_barrier);
  // Behind barrier 10, ahead of 2 and 3, which it overtakes.
  ASSERT_EQ(place - queue.begin(), 2);
  std::vector<int> overtaken;
  for (auto it = place; it != queue.end(); ++it) overtaken.push_back(it->value);
  EXPECT_EQ(overtaken, (std::vector<int>{2, 3}));
  // No barrier queued: the head, ahead of everything.
  std::deque<Entry> plain{{false, 1}, {false, 2}};
  EXPECT_EQ(UnalignedBarrierPlace(plain.begin(), plain.end(), is_barrier), plain.begin());
  // A barrier last: behind it, overtaking nothing.
  std::deque<Entry> last{{false, 1}, {true, 10}};
  EXPECT_EQ(UnalignedBarrierPlace(last.begin(), last.end(), is_barrier), last.end());
}

// ---- Item 3: aligned barriers and kOutOfOrder, both ways out. ----

TEST(SilentFailures, OutOfOrderAbortingTheRefusedOneDropsItsBarrier) {
  AlignedBarrierRules p(2, 1);
  EXPECT_TRUE(p.OnControl(1, 0, {}).hold_channel);
  Reply refused = p.OnControl(2, 1, {});
  EXPECT_EQ(refused.error, AgentError::kOutOfOrder);
  EXPECT_EQ(refused.snapshot, 2u);
  EXPECT_EQ(p.aligning(), 1u);  // the other of the two
  EXPECT_TRUE(p.Abort(2).ok());  // refused one aborted, its barrier dropped
  Reply aligned = p.OnControl(1, 1, {});
  EXPECT_TRUE(aligned.record_state);
  EXPECT_TRUE(aligned.release_inputs);
}

TEST(SilentFailures, OutOfOrderAbortingTheAligningOneNeedsTheBarrierAgain) {
  AlignedBarrierRules p(2, 1);
  EXPECT_TRUE(p.OnControl(1, 0, {}).hold_channel);
  EXPECT_EQ(p.OnControl(2, 1, {}).error, AgentError::kOutOfOrder);
  Reply abort = p.Abort(p.aligning());
  EXPECT_TRUE(abort.release_inputs);
  EXPECT_EQ(p.aligning(), 0u);
  // Dropped, the refused barrier would leave 2 without a barrier on input 1
  // for ever; the contract says to deliver it again.
  EXPECT_TRUE(p.Waiting(2).empty());  // not even started here yet
  EXPECT_TRUE(p.OnControl(2, 1, {}).hold_channel);
  EXPECT_EQ(p.Waiting(2), std::vector<ChannelIndex>{0});
  EXPECT_TRUE(p.OnControl(2, 0, {}).record_state);
}

// ---- Item 4: preconditions that hold in every build. ----

// The three older calls that return a bare value are deprecated (their
// error-valued successors: OnOutgoing, ControlFor, ReadLittleEndian); until
// they go, called wrong they stop the program in every build.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
TEST(SilentFailuresDeathTest, OlderCallsCalledWrongStopTheProgram) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  LaiYangRules p(1, 1);
  EXPECT_DEATH(p.OnSend(99), "OnSend: no such outgoing channel");
  EXPECT_DEATH(p.ControlCount(99), "ControlCount: no such outgoing channel");
  EXPECT_DEATH(wire::GetLittleEndian("ab"), "GetLittleEndian");
  EXPECT_EQ(p.OnSend(0), 0u);  // in range: unchanged
  EXPECT_EQ(p.ControlCount(0), 0u);
  EXPECT_EQ(wire::GetLittleEndian("abcdefgh", 1), std::uint64_t{'a'});
}
#pragma GCC diagnostic pop

TEST(SilentFailures, AShortBufferIsAnAnswerNotAReadPastIt) {
  EXPECT_FALSE(wire::ReadLittleEndian("ab"));
  EXPECT_FALSE(wire::ReadLittleEndian("", 1));
  EXPECT_EQ(wire::ReadLittleEndian("\x02\x01", 2), 0x0102u);
  EXPECT_EQ(wire::ReadLittleEndian(std::string_view("\x02\x01\0\0", 4), 4), 0x0102u);
  // Past eight bytes only zeros are an integer.
  std::string ten;
  wire::PutLittleEndian(&ten, 7, 10);
  EXPECT_EQ(ten.size(), 10u);
  EXPECT_EQ(wire::ReadLittleEndian(ten, 10), 7u);
  ten[9] = 1;
  EXPECT_FALSE(wire::ReadLittleEndian(ten, 10));
  // ForEachRecording out of range calls nothing (no assert, no read).
  MarkerRules m(1, 1);
  ASSERT_TRUE(m.Start(1).ok());
  int calls = 0;
  m.ForEachRecording(5, [&](SnapshotId) { ++calls; });
  EXPECT_EQ(calls, 0);
}

// ---- Item 5: wrong inputs are refused with a code, not answered "ok". ----

TEST(SilentFailures, ACountTooLowIsRefusedAtTheControl) {
  LaiYangRules p(1, 1);
  ASSERT_TRUE(p.Start(1).record_state);
  int joins = 0;
  auto join = [&](const Reply&) { ++joins; };
  p.OnMessage(0, 0, join);  // two old messages after the record
  p.OnMessage(0, 0, join);
  EXPECT_EQ(joins, 2);
  // The sender says it sent one before its record: two have come.
  Reply r = p.OnControl(1, 0, 1);
  EXPECT_EQ(r.error, AgentError::kCountMismatch);
  EXPECT_EQ(ToString(r.error), "count_mismatch");
  EXPECT_EQ(p.Channel(1, 0), ChannelRecording::kRecording);  // unchanged
  EXPECT_TRUE(p.OnControl(1, 0, 2).closed_channel);           // the true count
}

TEST(SilentFailures, AnOldMessageOnAClosedChannelNamesTheMiscountedSnapshot) {
  LaiYangRules p(1, 1);
  ASSERT_TRUE(p.Start(1).record_state);
  int joins = 0;
  auto join = [&](const Reply&) { ++joins; };
  EXPECT_TRUE(p.OnControl(1, 0, 1).ok());
  EXPECT_TRUE(p.OnMessage(0, 0, join).ok());  // closes on the count of 1
  EXPECT_EQ(p.Channel(1, 0), ChannelRecording::kClosed);
  // A second old message: before 0.3 silently left out of the state.
  Reply late = p.OnMessage(0, 0, join);
  EXPECT_EQ(late.error, AgentError::kCountMismatch);
  EXPECT_EQ(late.snapshot, 1u);
  EXPECT_EQ(joins, 1);
}

TEST(SilentFailures, AMiscountIsNamedEvenAfterThePartWasTaken) {
  // The agent takes a part as soon as it is done: the late message must
  // still be caught.
  SnapshotAgent<int, int, LaiYangRules> agent(1, 1);
  ASSERT_TRUE(agent.Start(1, 0).record_state);
  EXPECT_TRUE(agent.OnControl(1, 0, 0, 0).part_done);  // "none sent before"
  ASSERT_TRUE(agent.TakeFinished());
  Reply late = agent.OnMessage(0, 0, 7, 0);  // yet an old one comes
  EXPECT_EQ(late.error, AgentError::kCountMismatch);
  EXPECT_EQ(late.snapshot, 1u);
  // Messages of the current epoch are untouched by it.
  EXPECT_TRUE(agent.OnMessage(0, 1, 8, 0).ok());
}

TEST(SilentFailures, AStampOrIdFarAheadIsRefusedAndChangesNothing) {
  LaiYangRules p(1, 1);
  int joins = 0;
  Reply r = p.OnMessage(0, std::numeric_limits<SnapshotId>::max(),
                        [&](const Reply&) { ++joins; });
  EXPECT_EQ(r.error, AgentError::kTooFarAhead);
  EXPECT_EQ(p.Epoch(), 0u);
  // Before 0.3 the epoch jumped to UINT64_MAX and this was kSuperseded.
  EXPECT_TRUE(p.Start(1).record_state);
  EXPECT_EQ(p.OnControl(SnapshotId{1} << 40, 0, 0).error, AgentError::kTooFarAhead);

  MarkerRules m(1, 1);
  EXPECT_EQ(m.OnMarker(SnapshotId{1} << 40, 0).error, AgentError::kTooFarAhead);
  EXPECT_EQ(m.retained(), 0u);  // no snapshot kept until aborted
  EXPECT_EQ(m.Abort(SnapshotId{1} << 40).error, AgentError::kTooFarAhead);
  // The bound is the host's; ids within it are fine, and it follows the ids.
  MarkerRules near(1, 1, IdLimits{64, 10});
  EXPECT_EQ(near.Start(12).error, AgentError::kTooFarAhead);
  EXPECT_TRUE(near.Start(10).record_state);
  EXPECT_TRUE(near.Start(20).record_state);
}

TEST(SilentFailures, TheCollectorRefusesPartsOfTheWrongShapeAndIdZero) {
  Collector c(std::vector<PartShape>{{1, 1}, {2, 0}});
  std::vector<std::vector<int>> seventeen(17);
  EXPECT_EQ(c.Add(1, 0, PartOf(1, seventeen)), PartAdded::kWrongShape);
  EXPECT_EQ(ToString(PartAdded::kWrongShape), "wrong_shape");
  EXPECT_EQ(c.Add(1, 1, PartOf(1, {{}})), PartAdded::kWrongShape);
  Collector::Part bad_sent = PartOf(1, {{}});
  bad_sent.sent.resize(3);
  EXPECT_EQ(c.Add(1, 0, bad_sent), PartAdded::kWrongShape);
  EXPECT_EQ(c.Received(1), 0u);
  EXPECT_EQ(c.Add(1, 0, PartOf(1, {{}})), PartAdded::kPending);  // sent may be empty
  EXPECT_EQ(c.Add(1, 1, PartOf(1, {{}, {}})), PartAdded::kComplete);
  EXPECT_EQ(c.Add(0, 0, PartOf(1, {{}})), PartAdded::kInvalidSnapshot);
  EXPECT_EQ(c.Add(SnapshotId{1} << 40, 0, PartOf(1, {{}})), PartAdded::kTooFarAhead);
}

// ---- Item 6: the smaller traps. ----

TEST(SilentFailures, AJoinThatFinishesAPartSaysPartDone) {
  SnapshotAgent<int, int, LaiYangRules> agent(1, 1);
  ASSERT_TRUE(agent.Start(1, 5).record_state);
  EXPECT_FALSE(agent.OnControl(1, 0, 1, 5).part_done);  // one old message due
  Reply r = agent.OnMessage(0, 0, 42, 5);  // it comes, joins and closes
  EXPECT_TRUE(r.part_done);                // before 0.3: false
  EXPECT_EQ(r.snapshot, 1u);
  auto done = agent.TakeFinished();
  ASSERT_TRUE(done);
  EXPECT_EQ(done->part.channels[0], std::vector<int>{42});
}

TEST(SilentFailures, AnAgentWithOutgoingChannelsAnswersControlFor) {
  SnapshotAgent<int, int> agent(1, 2);
  ASSERT_TRUE(agent.Start(1, 0).record_state);
  EXPECT_TRUE(agent.ControlFor(1, 0).ok());
  EXPECT_TRUE(agent.ControlFor(1, 1).ok());
  EXPECT_EQ(agent.ControlFor(1, 2).error, AgentError::kUnknownChannel);
}

// ---- The wire: frames on byte streams, parts as bytes. ----

std::string IntBytes(int v) { return std::to_string(v); }
std::optional<int> IntOf(std::string_view bytes) {
  int v = 0;
  auto [end, ec] = std::from_chars(bytes.data(), bytes.data() + bytes.size(), v);
  if (ec != std::errc() || end != bytes.data() + bytes.size()) return std::nullopt;
  return v;
}

TEST(Wire, LengthPrefixedFramesSplitAByteStream) {
  std::string stream;
  ASSERT_TRUE(wire::AppendLengthPrefixed(&stream, wire::EncodeMarker(7)));
  ASSERT_TRUE(wire::AppendLengthPrefixed(&stream, wire::EncodeApplication("hi")));
  ASSERT_TRUE(wire::AppendLengthPrefixed(&stream, ""));
  std::vector<std::string> frames;
  // Fed one byte at a time, as a pipe may deliver it.
  std::string have;
  for (char ch : stream) {
    have += ch;
    for (;;) {
      wire::StreamFrame f = wire::NextFrame(have);
      if (f.status != wire::StreamStatus::kFrame) {
        EXPECT_EQ(f.status, wire::StreamStatus::kIncomplete);
        break;
      }
      frames.emplace_back(f.frame);
      have.erase(0, f.consumed);
    }
  }
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(wire::Decode(frames[0])->snapshot, 7u);
  EXPECT_EQ(wire::Decode(frames[1])->payload, "hi");
  EXPECT_EQ(frames[2], "");
  EXPECT_TRUE(have.empty());
  // A corrupt length is refused, not waited for.
  std::string huge;
  wire::PutLittleEndian(&huge, 0xffffffffu, wire::kLengthSize);
  EXPECT_EQ(wire::NextFrame(huge).status, wire::StreamStatus::kTooLong);
  EXPECT_EQ(wire::NextFrame(std::string_view("\x05\0\0\0ab", 6), 4).status,
            wire::StreamStatus::kTooLong);
}

TEST(Wire, APartRoundTripsAndEveryTruncationIsRefused) {
  Collector::Part part = PartOf(300, {{1, 2}, {}, {-3}});
  part.sent = {{4}, {}};
  std::optional<std::string> bytes = wire::EncodePart(9, 2, part, IntBytes, IntBytes);
  ASSERT_TRUE(bytes);
  auto decoded = wire::DecodePart<int, int>(*bytes, IntOf, IntOf);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->snapshot, 9u);
  EXPECT_EQ(decoded->from, 2u);
  EXPECT_EQ(decoded->part.state, 300);
  EXPECT_EQ(decoded->part.channels, part.channels);
  EXPECT_EQ(decoded->part.sent, part.sent);
  for (std::size_t n = 0; n < bytes->size(); ++n) {
    EXPECT_FALSE((wire::DecodePart<int, int>(bytes->substr(0, n), IntOf, IntOf))) << n;
  }
  EXPECT_FALSE((wire::DecodePart<int, int>(*bytes + "x", IntOf, IntOf)));
}

// Random bytes, and random damage to good frames, through every decoder:
// never a crash or a read past the end (ASan runs this too), and what does
// decode is within the bytes given. The seed is printed to replay a failure.
TEST(Wire, DecodersTakeAnyBytes) {
  const unsigned seed = std::random_device{}();
  std::cout << "Wire.DecodersTakeAnyBytes seed " << seed << "\n";
  std::mt19937 rng(seed);
  Collector::Part part = PartOf(1, {{2}, {3, 4}});
  const std::string good = *wire::EncodePart(5, 1, part, IntBytes, IntBytes);
  for (int round = 0; round < 3000; ++round) {
    std::string bytes;
    if (round % 2 == 0) {
      bytes.resize(rng() % 40);
      for (char& ch : bytes) ch = static_cast<char>(rng());
      if (!bytes.empty() && round % 4 == 0) bytes[0] = "AMP"[rng() % 3];
    } else {
      bytes = good;
      bytes[rng() % bytes.size()] = static_cast<char>(rng());
    }
    if (auto f = wire::Decode(bytes)) {
      EXPECT_LE(f->payload.size(), bytes.size());
    }
    wire::StreamFrame s = wire::NextFrame(bytes);
    if (s.status == wire::StreamStatus::kFrame) {
      EXPECT_LE(s.consumed, bytes.size());
    }
    if (auto p = wire::DecodePart<int, int>(bytes, IntOf, IntOf)) {
      EXPECT_LE(p->part.channels.size(), bytes.size());
    }
  }
}

// ---- Issue 40: the library's three silent cases and its smaller traps. ----

TEST(Issue40, ALaiYangCountTooHighIsNamedPastTheHostsBound) {
  // The sender says 5 messages went out before its record; none will come.
  SnapshotAgent<int, int, LaiYangRules> agent(1, 1, IdLimits{.running_max = 3});
  ASSERT_TRUE(agent.OnControl(1, 0, 5, 0).record_state);
  EXPECT_FALSE(agent.PartDone(1));
  for (SnapshotId id = 2; id <= 4; ++id) ASSERT_TRUE(agent.Start(id, 0).record_state);
  EXPECT_FALSE(agent.TakeOverdue());  // three newer records: within the bound
  ASSERT_TRUE(agent.Start(5, 0).record_state);
  std::optional<Reply> late = agent.TakeOverdue();
  ASSERT_TRUE(late);
  EXPECT_EQ(late->error, AgentError::kOverdue);
  EXPECT_EQ(ToString(late->error), "overdue");
  EXPECT_EQ(late->snapshot, 1u);
  // Named once; the host aborts it, and the newer ones are not overdue.
  EXPECT_FALSE(agent.TakeOverdue());
  EXPECT_TRUE(agent.Abort(1).ok());
  EXPECT_TRUE(agent.IsFinished(1));
  // The default bound is the same for every algorithm.
  EXPECT_EQ(agent.limits().running_max, 3u);
  EXPECT_EQ((SnapshotAgent<int, int>(1, 1).limits().running_max), IdLimits::kDefaultRunningMax);
}

TEST(Issue40, APartThatFinishesIsNeverOverdue) {
  SnapshotAgent<int, int> agent(1, 1, IdLimits{.running_max = 1});
  ASSERT_TRUE(agent.Start(1, 0).record_state);
  ASSERT_TRUE(agent.OnMarker(1, 0, 0).part_done);  // done, not taken
  for (SnapshotId id = 2; id <= 4; ++id) ASSERT_TRUE(agent.Start(id, 0).record_state);
  std::optional<Reply> late = agent.TakeOverdue();  // 2: two newer than it
  ASSERT_TRUE(late);
  EXPECT_EQ(late->snapshot, 2u);
  EXPECT_FALSE(agent.TakeOverdue());  // 3: one newer, within the bound
  EXPECT_EQ(agent.TakeFinished()->id, 1u);
}

TEST(Issue40, AStampWithBit32FlippedIsRefusedAndPoisonsNothing) {
  LaiYangRules p(1, 1);
  int joins = 0;
  auto join = [&](const Reply&) { ++joins; };
  // 0.3 took exactly 2^32 as a new epoch: every later Start was superseded.
  EXPECT_EQ(p.OnMessage(0, SnapshotId{1} << 32, join).error, AgentError::kTooFarAhead);
  EXPECT_EQ(p.Epoch(), 0u);
  ASSERT_TRUE(p.Start(5).record_state);
  EXPECT_EQ(p.OnMessage(0, (SnapshotId{1} << 32) | 5, join).error, AgentError::kTooFarAhead);
  EXPECT_EQ(p.OnMessage(0, (SnapshotId{1} << 20) | 5, join).error, AgentError::kTooFarAhead);
  EXPECT_EQ(p.Epoch(), 5u);
  EXPECT_TRUE(p.Start(6).record_state);
  // The default is below every bit from 20 up: none of them flipped passes.
  EXPECT_EQ(IdLimits{}.ahead_max, (SnapshotId{1} << 20) - 1);
  EXPECT_TRUE(p.OnMessage(0, 7, join).record_state);  // a real next epoch
}

TEST(Issue40, GarbageMarkersCannotClimb) {
  // 0.3 accepted all of them, each 2^22 above the last, and held 2,000
  // entries: the bound followed the newest garbage.
  SnapshotAgent<int, int> agent(2, 1);
  for (SnapshotId k = 1; k <= 1000; ++k) {
    ASSERT_EQ(agent.OnMarker(k << 22, 0, 0).error, AgentError::kTooFarAhead) << k;
  }
  EXPECT_EQ(agent.retained(), 0u);
  // Garbage within the bound is taken (nothing can tell it from an id), but
  // a recorded id vouches for nothing: the bound stays where it was.
  MarkerRules m(2, 1, IdLimits{.ahead_max = 100});
  EXPECT_TRUE(m.OnMarker(100, 0).record_state);
  EXPECT_EQ(m.OnMarker(200, 0).error, AgentError::kTooFarAhead);
  EXPECT_EQ(m.Abort(100).error, AgentError::kNone);
  EXPECT_EQ(m.OnMarker(200, 0).error, AgentError::kTooFarAhead);  // nor an abort
  // A part that finished here (a marker on every input) does vouch.
  EXPECT_TRUE(m.OnMarker(90, 0).record_state);
  EXPECT_TRUE(m.OnMarker(90, 1).part_done);
  EXPECT_TRUE(m.Forget(90).ok());
  EXPECT_TRUE(m.OnMarker(190, 0).record_state);
  // So does the host's own Start.
  EXPECT_TRUE(m.Start(180).record_state);
  EXPECT_TRUE(m.OnMarker(280, 0).record_state);
}

TEST(Issue40, ACountBelowAnOlderSnapshotsIsRefusedBeforeThePartIsTaken) {
  SnapshotAgent<int, int, LaiYangRules> agent(1, 1);
  ASSERT_TRUE(agent.OnControl(1, 0, 3, 0).record_state);  // 3 sent before 1
  // Snapshot 2 was recorded after 1 by the same sender: it cannot count fewer.
  Reply r = agent.OnControl(2, 0, 2, 0);
  EXPECT_EQ(r.error, AgentError::kCountMismatch);
  EXPECT_EQ(r.snapshot, 2u);
  EXPECT_FALSE(agent.HasRecorded(2));  // refused whole
  // 0.3 closed 2 on the second old message, its part was taken, and the
  // third named it only then.
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(agent.OnMessage(0, 0, i, 0).ok());
  ASSERT_TRUE(agent.PartDone(1));
  EXPECT_EQ(agent.TakeFinished()->id, 1u);
  EXPECT_FALSE(agent.TakeFinished());

  // The other order: an older snapshot's control counting more than a newer
  // one's cannot be honest either.
  LaiYangRules p(1, 1);
  ASSERT_TRUE(p.OnControl(2, 0, 2).record_state);
  Reply older = p.OnControl(1, 0, 3);
  EXPECT_EQ(older.error, AgentError::kSuperseded);  // 1 < epoch 2: as before
  LaiYangRules q(2, 1);
  ASSERT_TRUE(q.OnControl(1, 1, 0).record_state);
  ASSERT_TRUE(q.OnControl(2, 0, 2).ok());
  EXPECT_EQ(q.OnControl(1, 0, 3).error, AgentError::kCountMismatch);
  EXPECT_TRUE(q.OnControl(1, 0, 2).ok());  // equal counts are honest
}

TEST(Issue40, ForgettingTwoHundredThousandUntakenPartsOldestFirst) {
  // Correctness over 200,000 entries; bench/bench_snapshot.cc measures the
  // time (0.3 took 24 s: every Forget moved every newer entry).
  constexpr SnapshotId kParts = 200'000;
  SnapshotAgent<int, int> agent(0, 0, IdLimits{.running_max = kParts});
  for (SnapshotId id = 1; id <= kParts; ++id) {
    ASSERT_TRUE(agent.Start(id, static_cast<int>(id)).part_done);
  }
  for (SnapshotId id = 1; id <= kParts; ++id) {
    if (id % 1000 == 0) {
      ASSERT_EQ(agent.Find(id)->state, static_cast<int>(id));
    }
    ASSERT_TRUE(agent.Forget(id).ok()) << id;
  }
  for (SnapshotId id : {SnapshotId{1}, kParts / 2, kParts}) {
    EXPECT_TRUE(agent.IsFinished(id)) << id;
    EXPECT_EQ(agent.Forget(id).error, AgentError::kFinished);
  }
  EXPECT_EQ(agent.retained(), 0u);
}

TEST(Issue40, AMessageThatFinishesTwoPartsSaysSo) {
  SnapshotAgent<int, int, LaiYangRules> agent(1, 1);
  ASSERT_TRUE(agent.OnControl(1, 0, 1, 0).record_state);
  ASSERT_TRUE(agent.OnControl(2, 0, 1, 0).record_state);
  Reply r = agent.OnMessage(0, 0, 42, 0);  // counted by both: closes both
  EXPECT_TRUE(r.part_done);
  EXPECT_EQ(r.snapshot, 1u);
  EXPECT_EQ(r.also_done, 1u);  // 0.3 named 1 and said nothing of 2
  EXPECT_EQ(agent.TakeFinished()->id, 1u);
  EXPECT_EQ(agent.TakeFinished()->id, 2u);
}

TEST(Issue40, AgentsAndTheCollectorShareOneWindowType) {
  SnapshotCollector<int, int> c(2, 1, IdLimits{.closed_window = 2, .ahead_max = 10});
  EXPECT_EQ(c.limits().closed_window, 2u);
  EXPECT_EQ(c.Add(12, 0, PartOf(1, {})), PartAdded::kTooFarAhead);
  // One default for both.
  const Collector plain(2);
  EXPECT_EQ(plain.limits().closed_window, MarkerRules(1, 1).limits().closed_window);
  EXPECT_EQ(plain.limits().ahead_max, IdLimits{}.ahead_max);
}

TEST(Issue40, DecodeAnswersAPartFrameAsOne) {
  const std::string bytes = *wire::EncodePart(9, 1, PartOf(1, {{2}}), IntBytes, IntBytes);
  std::optional<wire::Frame> f = wire::Decode(bytes);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, wire::FrameKind::kPart);
  EXPECT_EQ(f->snapshot, 9u);
  EXPECT_EQ(f->payload, bytes);  // what DecodePart reads
  EXPECT_TRUE((wire::DecodePart<int, int>(f->payload, IntOf, IntOf)));
  EXPECT_FALSE(wire::Decode(bytes.substr(0, 5)));  // too short for its id
}

TEST(Issue40, TheBoundsAnswersSayTheirBound) {
  const IdLimits limits{.closed_window = 7, .ahead_max = 9, .running_max = 3};
  EXPECT_EQ(ToString(AgentError::kTooOld, limits), "too_old (closed_window 7)");
  EXPECT_EQ(ToString(AgentError::kTooFarAhead, limits), "too_far_ahead (ahead_max 9)");
  EXPECT_EQ(ToString(AgentError::kOverdue, limits), "overdue (running_max 3)");
  EXPECT_EQ(ToString(AgentError::kFinished, limits), "finished");
  EXPECT_EQ(ToString(PartAdded::kTooOld, limits), "too_old (closed_window 7)");
  EXPECT_EQ(ToString(PartAdded::kTooFarAhead, limits), "too_far_ahead (ahead_max 9)");
  EXPECT_EQ(ToString(PartAdded::kClosed, limits), "closed");
}

}  // namespace
}  // namespace cutline
