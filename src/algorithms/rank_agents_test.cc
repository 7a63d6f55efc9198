// The runtime's agents as the registry makes them: every algorithm a rank
// or a vertex can host names its maker, stop-the-world's included, and the
// agents made answer as their rules say.
#include <gtest/gtest.h>

#include "algorithms/algorithm.h"
#include "algorithms/rank_agent.h"
#include "dataflow/vertex_agent.h"

namespace cutline::algorithms {
namespace {

TEST(RankAgentsTest, EveryAlgorithmARankRunsIsMadeByTheRegistry) {
  for (Algorithm a : Algorithm::All()) {
    const auto make = a.definition().make_rank_agent;
    EXPECT_EQ(a.runs_on_ranks(), make != nullptr) << a.name();
    if (make == nullptr) continue;
    std::unique_ptr<RankAgent> agent = make(2, 2);
    ASSERT_NE(agent, nullptr) << a.name();
    EXPECT_EQ(agent->incoming_channels(), 2u) << a.name();
    // The world's rounds are stop-the-world's, and only its.
    EXPECT_EQ(agent->world() != nullptr, a.traits().stops_the_world) << a.name();
  }
  EXPECT_TRUE(Algorithm::kStopTheWorld.runs_on_ranks());
}

TEST(RankAgentsTest, EveryAlgorithmAVertexRunsIsMadeByTheRegistry) {
  int dataflow = 0;
  for (Algorithm a : Algorithm::All()) {
    const auto make = a.definition().make_vertex_agent;
    EXPECT_EQ(a.runs_on_dataflow(), make != nullptr) << a.name();
    if (make == nullptr) continue;
    ++dataflow;
    std::unique_ptr<dataflow::VertexAgent> agent = make(2, 1);
    ASSERT_NE(agent, nullptr) << a.name();
    // Aligned barriers hold their inputs; the registry says which rules do.
    EXPECT_EQ(agent->aligned(), a.traits().records_after_all_markers) << a.name();
  }
  EXPECT_EQ(dataflow, 2);
  EXPECT_TRUE(Algorithm::kAligned.runs_on_dataflow());
  EXPECT_TRUE(Algorithm::kUnaligned.runs_on_dataflow());
}

TEST(RankAgentsTest, AnUnalignedVertexHasNothingToSwitch) {
  auto agent = Algorithm::kUnaligned.definition().make_vertex_agent(1, 1);
  EXPECT_EQ(agent->aligning(), 0u);
  EXPECT_EQ(agent->Unalign(1, {}).error, AgentError::kUnknownSnapshot);
}

// A rank of three (two channels each way) through one round: it counts what
// left and arrived, pauses, reads once the counts its peers paused at have
// all come, and an abandoned round stops waiting.
TEST(RankAgentsTest, StopTheWorldsRoundsAtOneRank) {
  std::unique_ptr<RankAgent> agent = Algorithm::kStopTheWorld.definition().make_rank_agent(2, 2);
  WorldRounds* world = agent->world();
  ASSERT_NE(world, nullptr);
  EXPECT_FALSE(agent->stamps());
  EXPECT_FALSE(agent->counts());
  // It takes no start and no marker: it sends none.
  EXPECT_FALSE(agent->Start(1, 100).ok());
  EXPECT_FALSE(agent->OnMarker(1, 0, 0, 100).ok());

  for (int i = 0; i < 3; ++i) ASSERT_TRUE(agent->OnOutgoing(1).ok());
  ASSERT_TRUE(agent->OnOutgoing(0).ok());
  EXPECT_EQ(agent->OnOutgoing(2).error, AgentError::kUnknownChannel);
  EXPECT_FALSE(world->paused());
  EXPECT_EQ(world->Pause(1), (std::vector<std::uint64_t>{1, 3}));
  EXPECT_TRUE(world->paused());

  // Nothing read before the round drains, nor before its counts are known.
  EXPECT_EQ(world->TakeDrained(), std::nullopt);
  ASSERT_TRUE(agent->OnMessage(0, 0, 5, 100).ok());
  world->Drain(1, {2, 0});
  EXPECT_EQ(world->TakeDrained(), std::nullopt);
  ASSERT_TRUE(agent->OnMessage(0, 0, 5, 105).ok());
  EXPECT_EQ(world->TakeDrained(), std::optional<SnapshotId>(1));
  EXPECT_EQ(world->TakeDrained(), std::nullopt);  // once
  world->Resume();
  EXPECT_FALSE(world->paused());

  // Round 2 given up while it drains: nothing is read for it later.
  world->Pause(2);
  world->Drain(2, {5, 0});
  ASSERT_TRUE(agent->Abort(2).ok());
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(agent->OnMessage(0, 0, 1, 100).ok());
  EXPECT_EQ(world->TakeDrained(), std::nullopt);
}

}  // namespace
}  // namespace cutline::algorithms
