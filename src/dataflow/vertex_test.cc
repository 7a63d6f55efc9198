// The dataflow's topology and vertices, run on an in-process network of
// FIFO channels whose every step a seeded random schedule picks: records
// emitted, processed, put on the wire, arrived; credits returned; snapshots
// started at every source. Every complete snapshot must conserve the
// records at every stage boundary, and the flow control must bound what is
// in flight. Aligned runs may have an alignment timeout, on a clock that
// advances one microsecond per step. A failure prints the seed;
// CUTLINE_DATAFLOW_SEED=N replays it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <map>
#include <numeric>
#include <random>
#include <string>

#include "cutline/wire.h"
#include "dataflow/property.h"
#include "dataflow/topology.h"
#include "dataflow/test_flow.h"
#include "dataflow/vertex.h"

namespace cutline::dataflow {
namespace {

TEST(TopologyTest, StagesJoinedAllToAll) {
  StatusOr<Topology> t = Topology::Parse("2-3-1");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->vertices(), 6u);
  EXPECT_EQ(t->RoleOf(0), Role::kSource);
  EXPECT_EQ(t->RoleOf(1), Role::kSource);
  EXPECT_EQ(t->RoleOf(2), Role::kOperator);
  EXPECT_EQ(t->RoleOf(4), Role::kOperator);
  EXPECT_EQ(t->RoleOf(5), Role::kSink);
  EXPECT_EQ(t->Inputs(0), std::vector<std::uint32_t>{});
  EXPECT_EQ(t->Outputs(0), (std::vector<std::uint32_t>{2, 3, 4}));
  EXPECT_EQ(t->Inputs(3), (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(t->Outputs(3), std::vector<std::uint32_t>{5});
  EXPECT_EQ(t->Inputs(5), (std::vector<std::uint32_t>{2, 3, 4}));
  EXPECT_EQ(t->Outputs(5), std::vector<std::uint32_t>{});
  EXPECT_TRUE(Topology::Parse("1-1").ok());
}

TEST(TopologyTest, BadSpecsAreRefusedWithTheirText) {
  for (const char* bad : {"", "3", "2-", "-2", "2--1", "2-0-1", "a-b", "2-3x-1", "2 -1", "+2-1",
                          "99999999999-1"}) {
    StatusOr<Topology> t = Topology::Parse(bad);
    ASSERT_FALSE(t.ok()) << bad;
    EXPECT_EQ(t.status().code(), Code::kBadTopology) << bad;
    EXPECT_EQ(t.status().word(0), bad);
  }
  StatusOr<Topology> big = Topology::Parse("200-57");
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().code(), Code::kTopologyTooLarge);
  EXPECT_EQ(big.status().number(1), 257);
  EXPECT_EQ(big.status().number(2), Topology::kMaxVertices);
  EXPECT_TRUE(Topology::Parse("200-56").ok());
}

std::uint64_t Seed() {
  if (const char* s = std::getenv("CUTLINE_DATAFLOW_SEED")) return std::strtoull(s, nullptr, 10);
  return std::random_device{}();
}

// What a run leaves for a test to judge further.
struct Judged {
  std::vector<std::map<std::uint32_t, Part>> snapshots;  // the complete ones
  std::size_t switched = 0;  // parts the alignment timeout switched
};

// The sources stop and everything in flight drains to the sinks.
void Drain(Flow& flow) {
  for (int i = 0; i < 400'000 && (flow.InFlight() > 0 || flow.sunk() < flow.emitted()); ++i) {
    flow.Step(false);
  }
  for (int i = 0; i < 50'000; ++i) flow.Step(false);  // the last barriers and parts
  flow.Collect();
}

// Runs `steps` random steps with a snapshot started every `every`, then
// stops the sources and drains. Checks every complete snapshot and the end.
Judged RunAndJudge(const char* spec, VertexAgentMaker a, std::uint32_t buffers,
                   std::optional<std::uint32_t> slow, std::uint64_t seed,
                   std::optional<std::int64_t> timeout_us = std::nullopt) {
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay: CUTLINE_DATAFLOW_SEED=" +
               std::to_string(seed) + ")");
  const Topology t = *Topology::Parse(spec);
  Flow flow(t, buffers, a, seed, timeout_us);
  constexpr int kSteps = 20'000, kEvery = 1'500;
  for (int i = 0; i < kSteps; ++i) {
    if (i % kEvery == kEvery - 1) flow.StartSnapshot();
    flow.Step(true, slow, 8);
  }
  Drain(flow);
  // Exactly once: every record emitted reached a sink, once.
  EXPECT_EQ(flow.sunk(), flow.emitted());
  EXPECT_GT(flow.emitted(), 50u);
  EXPECT_EQ(flow.complete().size(), static_cast<std::size_t>(kSteps / kEvery));
  for (const auto& parts : flow.complete()) {
    for (const Boundary& b : Conservation(t, parts)) {
      EXPECT_TRUE(b.holds()) << "boundary " << b.stage << ": emitted " << b.emitted << ", received "
                             << b.received << ", in flight " << b.in_flight;
    }
  }
  return {flow.complete(), flow.switched()};
}

std::uint64_t InFlightIn(const std::map<std::uint32_t, Part>& parts) {
  std::uint64_t n = 0;
  for (const auto& [v, part] : parts) {
    for (const auto& keys : part.channels) n += keys.size();
    for (const auto& keys : part.sent) n += keys.size();
  }
  return n;
}

TEST(DataflowTest, AlignedSnapshotsConserveAndHoldNothingInFlight) {
  const std::uint64_t seed = Seed();
  for (const char* spec : {"2-3-1", "1-2-2-1", "3-1"}) {
    SCOPED_TRACE(spec);
    const Judged run = RunAndJudge(spec, kAligned, 2, std::nullopt, seed);
    for (const auto& parts : run.snapshots) EXPECT_EQ(InFlightIn(parts), 0u);
    EXPECT_EQ(run.switched, 0u);
  }
}

// Past the timeout a vertex switches the snapshot to unaligned, and the
// snapshot must conserve all the same. An alignment here lasts tens to
// hundreds of steps, so a timeout of 100 switches most of them, not all.
TEST(DataflowTest, AlignedSnapshotsWithATimeoutSwitchAndConserve) {
  const std::uint64_t seed = Seed();
  std::size_t switched = 0, persisted = 0;
  std::size_t overtaken = 0;  // records a barrier jumped on an output
  for (const char* spec : {"2-3-1", "1-2-2-1", "3-1"}) {
    SCOPED_TRACE(spec);
    // With a slow sink too: its senders' outputs fill, and a timed-out
    // barrier queued there jumps them.
    const std::uint32_t sink = Topology::Parse(spec)->vertices() - 1;
    for (std::optional<std::uint32_t> slow : {std::optional<std::uint32_t>(), std::optional(sink)}) {
      const Judged run = RunAndJudge(spec, kAligned, 2, slow, seed, /*timeout_us=*/100);
      switched += run.switched;
      for (const auto& parts : run.snapshots) {
        persisted += InFlightIn(parts);
        for (const auto& [v, part] : parts) {
          for (const auto& keys : part.sent) overtaken += keys.size();
        }
      }
    }
  }
  // Else the test would pass without a single switch to judge.
  EXPECT_GT(switched, 0u) << "seed " << seed;
  EXPECT_GT(persisted, 0u) << "seed " << seed;
  EXPECT_GT(overtaken, 0u) << "seed " << seed;
}

TEST(DataflowTest, UnalignedSnapshotsConserveAndPersistWhatIsInFlight) {
  const std::uint64_t seed = Seed();
  for (const char* spec : {"2-3-1", "1-2-2-1", "3-1"}) {
    SCOPED_TRACE(spec);
    // The sink slow: the channels fill, and an unaligned barrier jumps them.
    const std::uint32_t sink = Topology::Parse(spec)->vertices() - 1;
    const Judged run = RunAndJudge(spec, kUnaligned, 2, sink, seed);
    std::uint64_t persisted = 0;
    for (const auto& parts : run.snapshots) persisted += InFlightIn(parts);
    EXPECT_GT(persisted, 0u) << "no snapshot of a backpressured run held a record in flight";
  }
}

TEST(DataflowTest, ASlowSinkBackpressuresTheSources) {
  const Topology t = *Topology::Parse("2-3-1");
  const std::uint32_t buffers = 3;
  Flow flow(t, buffers, kAligned, 7);
  // The sink never processes: everything stops behind it.
  for (int i = 0; i < 20'000; ++i) flow.Step(true, 5, 1'000'000'000);
  // Bounded: each of the 9 channels holds at most `buffers` records at its
  // receiver and on its wire together (credits), each output queues at most
  // `buffers`, and the sources could emit no more.
  const std::uint64_t channels = 2 * 3 + 3 * 1, outputs = 2 * 3 + 3 * 1;
  EXPECT_LE(flow.InFlight(), channels * buffers);
  std::uint64_t queued = 0;
  for (Vertex& v : flow.vertices()) {
    for (ChannelIndex o = 0; o < v.outputs(); ++o) queued += v.Queued(o);
  }
  EXPECT_LE(queued, outputs * buffers);
  EXPECT_EQ(flow.vertices()[0].Emit(0) || flow.vertices()[1].Emit(0) ||
                flow.vertices()[0].Emit(1) || flow.vertices()[1].Emit(2),
            false);
  EXPECT_EQ(flow.sunk(), 0u);
  EXPECT_EQ(flow.vertices()[5].Waiting(0) + flow.vertices()[5].Waiting(1) +
                flow.vertices()[5].Waiting(2),
            3 * buffers);
}

// An aligned barrier holds its input: records behind it wait, the other
// inputs flow, and the vertex records once the last barrier came.
// A run restored from any complete snapshot, in each mode, goes on and
// drains with every record counted once: the sources' emitted (their
// restored counts and the new ones) all reach the sinks, and each vertex's
// keyed counts add up to its records. The unaligned snapshots' records in
// flight are replayed, the aligned ones have none.
TEST(DataflowTest, ARunRestoredFromASnapshotCountsEveryRecordOnce) {
  const std::uint64_t seed = Seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay: CUTLINE_DATAFLOW_SEED=" +
               std::to_string(seed) + ")");
  const Topology t = *Topology::Parse("2-2-1");
  struct Mode {
    VertexAgentMaker a;
    std::optional<std::int64_t> timeout;
  };
  for (const Mode m : {Mode{kAligned, {}}, Mode{kUnaligned, {}},
                       Mode{kAligned, 40}}) {
    const Judged before = RunAndJudge("2-2-1", m.a, 3, 2, seed, m.timeout);
    ASSERT_FALSE(before.snapshots.empty());
    std::uint64_t replayed = 0;
    for (std::size_t k = 0; k < before.snapshots.size(); k += 3) {
      const auto& snapshot = before.snapshots[k];
      replayed += InFlightIn(snapshot);
      Flow restored(t, 3, m.a, seed + k, m.timeout);
      restored.Restore(snapshot);
      std::uint64_t emitted_then = 0;
      for (std::uint32_t v = 0; v < 2; ++v) emitted_then += snapshot.at(v).state.emitted;
      EXPECT_EQ(restored.emitted(), emitted_then);
      for (int i = 0; i < 3'000; ++i) restored.Step(true, 2, 8);
      Drain(restored);
      EXPECT_GT(restored.emitted(), emitted_then) << "the restored sources went on";
      EXPECT_EQ(restored.sunk(), restored.emitted()) << "snapshot " << k;
      for (Vertex& v : restored.vertices()) {
        if (v.role() == Role::kSource) continue;
        std::uint64_t keyed = 0;
        for (const auto& [key, count] : v.state().per_key) keyed += count;
        EXPECT_EQ(keyed, v.state().received);
      }
    }
    if (m.a == kAligned && !m.timeout) {
      EXPECT_EQ(replayed, 0u);
    }
    if (m.a == kUnaligned) {
      EXPECT_GT(replayed, 0u) << "records in flight were replayed";
    }
  }
}

TEST(DataflowTest, AnAlignedBarrierHoldsItsInputUntilTheLastComes) {
  Vertex op(Role::kOperator, 2, 1, 4, kAligned);
  op.Arrive(0, Item{true, 1}, 1);
  op.Arrive(0, Item{false, 5}, 2);
  op.Arrive(1, Item{false, 6}, 3);
  EXPECT_EQ(op.Process(), ChannelIndex{1});  // input 0's barrier holds it: 6 from input 1
  EXPECT_TRUE(op.Held(0));
  EXPECT_EQ(op.Process(), std::nullopt);     // 5 waits behind the barrier
  op.Arrive(1, Item{true, 1}, 7);
  EXPECT_EQ(op.Process(), ChannelIndex{0});  // aligned: recorded, released, 5 applied
  EXPECT_FALSE(op.Held(0));
  // On the output: 6, then the barrier, then 5.
  EXPECT_EQ(op.Send(0), (Item{false, 6}));
  EXPECT_EQ(op.Send(0), (Item{true, 1}));
  EXPECT_EQ(op.Send(0), (Item{false, 5}));
  auto part = op.TakeFinished();
  ASSERT_TRUE(part.has_value());
  EXPECT_EQ(part->part.state.received, 1u);
  EXPECT_EQ(part->part.state.per_key, (std::map<std::uint64_t, std::uint64_t>{{6, 1}}));
  // Recorded at 7, the first barrier having come at 1; input 0 held 5.
  EXPECT_EQ(part->cost, (SnapshotCost{.alignment_us = 6,
                                      .switched = false,
                                      .inputs = {{.waited_us = 6, .held_back = 1}, {}},
                                      .overtaken = 0}));
}

// An unaligned barrier jumps what waits at the receiver and at the sender:
// both are recorded as the channels' state.
TEST(DataflowTest, AnUnalignedBarrierJumpsBothQueuesAndRecordsThem) {
  Vertex op(Role::kOperator, 1, 1, 4, kUnaligned);
  op.Arrive(0, Item{false, 3}, 1);
  op.Arrive(0, Item{false, 4}, 2);
  ASSERT_EQ(op.Process(), ChannelIndex{0});  // 3 applied, queued on the output
  op.Arrive(0, Item{true, 1}, 3);            // jumps 4, records, goes ahead of 3
  EXPECT_EQ(op.Send(0), (Item{true, 1}));
  EXPECT_EQ(op.Send(0), (Item{false, 3}));
  auto part = op.TakeFinished();
  ASSERT_TRUE(part.has_value());
  EXPECT_EQ(part->part.state.received, 1u);
  EXPECT_EQ(part->part.channels, (std::vector<std::vector<std::uint64_t>>{{4}}));
  EXPECT_EQ(part->part.sent, (std::vector<std::vector<std::uint64_t>>{{3}}));
  EXPECT_EQ(part->cost, (SnapshotCost{.alignment_us = 0,
                                      .switched = false,
                                      .inputs = {{.unaligned = true, .persisted = 1}},
                                      .overtaken = 1}));
}

// The timeout: the snapshot started at 10 (its barrier on input 0 came
// then) and input 1's barrier has not come by 110.
// The vertex records, its barrier jumps what waits on the output, input 0
// goes on, and input 1 records until its barrier, which jumps its buffers.
TEST(DataflowTest, TheAlignmentTimeoutSwitchesToUnaligned) {
  Vertex op(Role::kOperator, 2, 1, 4, kAligned, /*alignment_timeout_us=*/100);
  op.Arrive(0, Item{true, 1, 10}, 10);
  op.Arrive(0, Item{false, 5}, 11);
  op.Arrive(1, Item{false, 6}, 12);
  op.Arrive(1, Item{false, 7}, 12);
  EXPECT_EQ(op.Process(), ChannelIndex{1});  // 6; input 0 held
  op.Tick(109);
  EXPECT_TRUE(op.Held(0));                   // not yet
  op.Tick(110);
  EXPECT_FALSE(op.Held(0));                  // switched: recorded and released
  EXPECT_EQ(op.Process(), ChannelIndex{0});  // 5: after the barrier, not in flight
  EXPECT_EQ(op.Process(), ChannelIndex{1});  // 7: in flight, joined
  op.Arrive(1, Item{false, 8}, 120);
  EXPECT_EQ(op.TakeFinished(), std::nullopt);  // input 1 still records
  op.Arrive(1, Item{true, 1, 10}, 130);            // taken at once, jumping 8
  EXPECT_EQ(op.Waiting(1), 1u);
  EXPECT_EQ(op.Process(), ChannelIndex{1});    // 8, after the record
  // On the output: the barrier ahead of 6, then what came after.
  EXPECT_EQ(op.Send(0), (Item{true, 1, 10}));
  EXPECT_EQ(op.Send(0), (Item{false, 6}));
  EXPECT_EQ(op.Send(0), (Item{false, 5}));
  auto part = op.TakeFinished();
  ASSERT_TRUE(part.has_value());
  EXPECT_EQ(part->part.state.received, 1u);
  EXPECT_EQ(part->part.channels, (std::vector<std::vector<std::uint64_t>>{{}, {7, 8}}));
  EXPECT_EQ(part->part.sent, (std::vector<std::vector<std::uint64_t>>{{6}}));
  EXPECT_EQ(part->cost,
            (SnapshotCost{.alignment_us = 100,
                          .switched = true,
                          .inputs = {{.waited_us = 100, .held_back = 1},
                                     {.unaligned = true, .persisted = 2}},
                          .overtaken = 1}));
}

// A switch finds the next snapshot's barrier queued behind the switched
// one's on the released input: that one aligns in its turn, while the
// switched one still records input 1.
TEST(DataflowTest, ASwitchedSnapshotThenAnAlignedOne) {
  Vertex op(Role::kSink, 2, 0, 4, kAligned, /*alignment_timeout_us=*/5);
  op.Arrive(0, Item{true, 1, 0}, 0);
  op.Arrive(0, Item{true, 2, 1}, 1);
  op.Arrive(1, Item{false, 9}, 1);
  EXPECT_EQ(op.Process(), ChannelIndex{1});  // 9 (before 1's barrier on input 1)
  op.Tick(5);                                // 1 switches; 2 comes to input 0's head
  EXPECT_EQ(op.Process(), std::nullopt);     // 2 aligns: input 0 held
  EXPECT_TRUE(op.Held(0));
  op.Arrive(1, Item{true, 1, 0}, 5);         // 1 done
  auto first = op.TakeFinished();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->id, 1u);
  EXPECT_TRUE(first->cost.switched);
  EXPECT_EQ(first->part.channels, (std::vector<std::vector<std::uint64_t>>{{}, {}}));
  op.Arrive(1, Item{true, 2, 1}, 5);         // 4 old: not yet timed out
  EXPECT_EQ(op.Process(), std::nullopt);     // 2 aligned at its head: recorded
  EXPECT_FALSE(op.Held(0));
  auto second = op.TakeFinished();
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->id, 2u);
  EXPECT_FALSE(second->cost.switched);
  EXPECT_EQ(second->cost.alignment_us, 4);   // its first barrier arrived at 1
  EXPECT_EQ(second->part.state.received, 1u);
}

// Past the timeout, a barrier queued on an output behind records jumps
// them (Flink's timed-out barrier in an output buffer), and the part waits
// until that barrier has left: the records it jumped join the part.
TEST(DataflowTest, ATimedOutBarrierJumpsItsOutputQueue) {
  Vertex source(Role::kSource, 0, 1, 4, kAligned, /*alignment_timeout_us=*/10);
  ASSERT_TRUE(source.Emit(1));
  source.Start(1, 0);                             // aligned: behind 1
  for (std::uint64_t key : {2, 3, 4}) ASSERT_TRUE(source.Emit(key));  // after the record
  EXPECT_EQ(source.TakeFinished(), std::nullopt);  // its barrier is still queued
  source.Tick(9);
  EXPECT_EQ(source.Queued(0), 5u);
  source.Tick(10);                                // 10 old: it jumps 1, not what came after
  EXPECT_EQ(source.Send(0), (Item{true, 1, 0}));
  auto part = source.TakeFinished();
  ASSERT_TRUE(part.has_value());
  EXPECT_EQ(part->part.state.emitted, 1u);
  EXPECT_EQ(part->part.sent, (std::vector<std::vector<std::uint64_t>>{{1}}));
  EXPECT_TRUE(part->cost.switched);
  EXPECT_EQ(part->cost.overtaken, 1u);
  for (std::uint64_t key : {1, 2, 3, 4}) EXPECT_EQ(source.Send(0), (Item{false, key}));
  EXPECT_EQ(source.Send(0), std::nullopt);
}

// Past the timeout, a barrier waiting in an input queue is taken at once,
// jumping the records ahead of it (in flight) and not those behind it.
TEST(DataflowTest, ATimedOutBarrierJumpsTheRecordsAheadOfItInItsInput) {
  Vertex op(Role::kOperator, 2, 1, 4, kAligned, /*alignment_timeout_us=*/10);
  op.Arrive(0, Item{false, 5}, 1);
  op.Arrive(0, Item{true, 1, 0}, 2);
  op.Arrive(0, Item{false, 6}, 3);
  op.Tick(10);  // taken ahead of 5; the snapshot switches at once
  EXPECT_FALSE(op.Held(0));
  EXPECT_EQ(op.Process(), ChannelIndex{0});  // 5, after the record
  EXPECT_EQ(op.Process(), ChannelIndex{0});  // 6
  op.Arrive(1, Item{true, 1, 0}, 11);        // input 1 was recording: nothing came
  EXPECT_EQ(op.Send(0), (Item{true, 1, 0}));
  auto part = op.TakeFinished();
  ASSERT_TRUE(part.has_value());
  EXPECT_EQ(part->part.state.received, 0u);
  EXPECT_EQ(part->part.channels, (std::vector<std::vector<std::uint64_t>>{{5}, {}}));
  EXPECT_TRUE(part->cost.switched);
  EXPECT_TRUE(part->cost.inputs[0].unaligned);
  EXPECT_EQ(part->cost.inputs[0].persisted, 1u);
  EXPECT_TRUE(part->cost.inputs[1].unaligned);
}

// A snapshot that loses a record, or counts one twice, breaks conservation
// at the boundary where it happened, and only there.
TEST(DataflowTest, ConservationNamesTheBoundaryThatDoesNotAddUp) {
  const Topology t = *Topology::Parse("1-1-1");
  std::map<std::uint32_t, Part> parts;
  parts[0].state.emitted = 5;
  parts[1].state.received = 4;
  parts[1].channels = {{7}};  // one in flight into the operator
  parts[1].state.emitted = 4;
  parts[1].sent = {{}};
  parts[2].state.received = 3;
  parts[2].channels = {{1}};  // one in flight into the sink
  EXPECT_EQ(Conservation(t, parts),
            (std::vector<Boundary>{{0, 5, 4, 1}, {1, 4, 3, 1}}));
  parts[2].channels = {{}};  // lost
  EXPECT_TRUE(Conservation(t, parts)[0].holds());
  EXPECT_FALSE(Conservation(t, parts)[1].holds());
  parts[2].channels = {{1}};
  parts[1].sent = {{1}};  // counted twice: overtaken at the sender and received
  EXPECT_TRUE(Conservation(t, parts)[0].holds());
  EXPECT_FALSE(Conservation(t, parts)[1].holds());
}

// A part travels in the library's wire part, its state in EncodeState's
// bytes; anything else is refused.
TEST(DataflowTest, APartRoundTripsThroughTheWireFormat) {
  Part part;
  part.state = {.received = 9, .emitted = 8, .per_key = {{1, 4}, {7, 5}}};
  part.channels = {{3, 3}, {}};
  part.sent = {{1}};
  auto key = [](std::uint64_t k) {
    std::string b;
    wire::PutLittleEndian(&b, k);
    return b;
  };
  auto key_of = [](std::string_view b) -> std::optional<std::uint64_t> {
    if (b.size() != 8) return std::nullopt;
    return wire::ReadLittleEndian(b);
  };
  std::optional<std::string> bytes = wire::EncodePart(4, 2, part, EncodeState, key);
  ASSERT_TRUE(bytes.has_value());
  auto back = wire::DecodePart<VertexState, std::uint64_t>(*bytes, DecodeState, key_of);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->part, part);
  const std::string state = EncodeState(part.state);
  EXPECT_EQ(DecodeState(state), part.state);
  for (std::size_t cut = 0; cut < state.size(); ++cut) {
    EXPECT_EQ(DecodeState(state.substr(0, cut)), std::nullopt) << cut;
  }
  EXPECT_EQ(DecodeState(state + std::string(16, '\0')), std::nullopt);
  // Keys out of order (or twice) are not EncodeState's spelling.
  std::string swapped = EncodeState({.received = 0, .emitted = 0, .per_key = {{1, 1}, {2, 1}}});
  std::swap_ranges(swapped.begin() + 24, swapped.begin() + 32, swapped.begin() + 40);
  EXPECT_EQ(DecodeState(swapped), std::nullopt);
}

}  // namespace
}  // namespace cutline::dataflow
