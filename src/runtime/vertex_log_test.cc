// A dataflow's logs, judged: random in-process runs of the vertices the
// ranks run (dataflow/test_flow.h), every vertex logging its steps through
// VertexLog as its rank would, items carrying their trailers over the
// in-process wires; then `check --logs` (CheckLogs) on the files. In every
// mode, with and without a slow sink, every snapshot judged must pass, and
// as many as the run completed must be judged. A log that leaves out the
// records a barrier jumped at its receiver must be caught. A failure prints
// the seed; CUTLINE_DATAFLOW_SEED=N replays it.
#include <unistd.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "dataflow/test_flow.h"
#include "runtime/log_check.h"
#include "runtime/vertex_log.h"

namespace cutline::runtime {
namespace {

namespace fs = std::filesystem;
using dataflow::kAligned;
using dataflow::kUnaligned;
using dataflow::VertexAgentMaker;

std::uint64_t Seed() {
  if (const char* s = std::getenv("CUTLINE_DATAFLOW_SEED")) return std::strtoull(s, nullptr, 10);
  return std::random_device{}();
}

// Every vertex's VertexLog, fed as a rank feeds it.
class Logger : public dataflow::FlowObserver {
 public:
  Logger(const fs::path& dir, const dataflow::Topology& t) {
    for (std::uint32_t v = 0; v < t.vertices(); ++v) {
      logs_.push_back(std::make_unique<VertexLog>(dir.string(), v, t));
      logs_.back()->Start(0);
    }
  }
  // Leave out the records a barrier jumped at its receiver: a log that
  // says less than the vertex did.
  bool drop_jumps_in = false;
  std::size_t dropped = 0;

  void Stepped(std::uint32_t v, dataflow::Vertex& vertex) override {
    std::vector<dataflow::Step> steps = vertex.TakeSteps();
    if (drop_jumps_in) {
      dropped += std::erase_if(steps, [](const dataflow::Step& s) {
        return s.kind == dataflow::Step::Kind::kJumpIn;
      });
    }
    logs_[v]->Steps(steps);
  }
  std::string Leaving(std::uint32_t v, ChannelIndex o, const dataflow::Item& item) override {
    return logs_[v]->Trailer(o, item);
  }
  void Arriving(std::uint32_t v, ChannelIndex c, const std::string& beside, dataflow::Item* item) override {
    Reader r(beside);
    logs_[v]->Arrived(c, r, item);
  }
  void Finished(std::uint32_t v, const dataflow::FinishedPart& part) override { logs_[v]->Part(part); }
  void Close() { logs_.clear(); }  // flushes every file

 private:
  std::vector<std::unique_ptr<VertexLog>> logs_;
};

class VertexLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("cutline-vertexlog-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override { fs::remove_all(dir_); }

  struct Judged {
    LogCheck check;
    std::size_t complete = 0;  // snapshots the run itself completed
    std::size_t dropped = 0;
  };
  // A run of `spec`, its vertices logging, then its logs judged.
  Judged Run(const char* spec, VertexAgentMaker a, std::optional<std::int64_t> timeout_us, bool slow_sink,
             std::uint64_t seed, bool drop_jumps_in = false) {
    fs::remove_all(dir_);
    const dataflow::Topology t = *dataflow::Topology::Parse(spec);
    Logger logger(dir_, t);
    logger.drop_jumps_in = drop_jumps_in;
    dataflow::Flow flow(t, 2, a, seed, timeout_us, &logger);
    for (dataflow::Vertex& v : flow.vertices()) v.KeepSteps();
    const std::optional<std::uint32_t> slow =
        slow_sink ? std::optional(t.vertices() - 1) : std::nullopt;
    constexpr int kSteps = 12'000, kEvery = 1'000;
    for (int i = 0; i < kSteps; ++i) {
      if (i % kEvery == kEvery - 1) flow.StartSnapshot();
      flow.Step(true, slow, 8);
    }
    for (int i = 0; i < 20'000; ++i) flow.Step(false);  // barriers and parts arrive
    flow.Collect();
    logger.Close();
    StatusOr<LogCheck> check = CheckLogs(dir_.string());
    EXPECT_TRUE(check.ok()) << CodeName(check.status().code());
    return {check.ok() ? *check : LogCheck{}, flow.complete().size(), logger.dropped};
  }

  fs::path dir_;
};

TEST_F(VertexLogTest, EveryModesLogsPassTheJudge) {
  const std::uint64_t seed = Seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay: CUTLINE_DATAFLOW_SEED=" +
               std::to_string(seed) + ")");
  struct Mode {
    const char* name;
    VertexAgentMaker alignment;
    std::optional<std::int64_t> timeout_us;
  };
  for (const Mode& m : {Mode{"aligned", kAligned, std::nullopt},
                        Mode{"unaligned", kUnaligned, std::nullopt},
                        Mode{"aligned, 100 us timeout", kAligned, 100}}) {
    for (const char* spec : {"2-3-1", "1-2-2-1", "3-1"}) {
      for (bool slow_sink : {false, true}) {
        SCOPED_TRACE(fmt::format("{}, {}, slow sink {}", m.name, spec, slow_sink));
        const Judged j = Run(spec, m.alignment, m.timeout_us, slow_sink, seed);
        EXPECT_TRUE(j.check.report.ok()) << ::testing::PrintToString(j.check.report.problems);
        EXPECT_GE(j.complete, 5u);
        EXPECT_GE(static_cast<std::size_t>(j.check.report.snapshots_checked), j.complete);
        EXPECT_EQ(j.check.topology, spec);
      }
    }
  }
}

TEST_F(VertexLogTest, ALogThatLeavesOutABarriersJumpsIsCaught) {
  const std::uint64_t seed = Seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay: CUTLINE_DATAFLOW_SEED=" +
               std::to_string(seed) + ")");
  // Unaligned with a slow sink: its inputs stay full, so barriers jump
  // records on arrival.
  const Judged j = Run("2-2-1", kUnaligned, std::nullopt, true, seed, /*drop_jumps_in=*/true);
  ASSERT_GT(j.dropped, 0u) << "no barrier jumped a record at its receiver: nothing to leave out";
  EXPECT_FALSE(j.check.report.ok());
}

}  // namespace
}  // namespace cutline::runtime
