// A dataflow on real ranks (`cutline cluster --app dataflow`): mpirun starts
// one `cutline node` per vertex, records and barriers travel as real MPI
// messages, credits bound every channel, and a slow operator backpressures
// everything upstream. Each mode must take snapshots that conserve the
// records at every stage boundary and end with every record counted once at
// the sinks; what distinguishes the modes (records held back, persisted,
// channels switched by the timeout) is asserted only in the direction a
// slower machine cannot reverse: the slow operator is paced by the clock, so
// its buffers stay full however fast the rest runs.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_cutline.h"

namespace {

using nlohmann::json;

struct FlowRun {
  Outcome outcome;
  json summary;
  std::vector<std::string> command;
  std::string Replay() const { return fmt::format("cutline {}", fmt::join(command, " ")); }
};

// Two sources, two operators (rank 2 four times slower than a source), one
// sink, four buffers a channel: the slow operator's inputs stay full.
FlowRun RunFlow(const std::vector<std::string>& mode) {
  FlowRun run;
  run.command = {"cluster",          "--app",   "dataflow", "--topology", "2-2-1", "--buffers", "4",
                 "--slow",           "2:4",     "--rate",   "1000",       "--duration", "1200ms",
                 "--snapshot-every", "50ms",    "--json"};
  run.command.insert(run.command.end(), mode.begin(), mode.end());
  run.outcome = Cutline(run.command, "", std::chrono::seconds(120));
  run.summary = json::parse(run.outcome.out, nullptr, false);
  return run;
}

// What every mode must show: snapshots taken, none breaking conservation,
// every record the sources emitted counted once at the sink.
void ExpectConservedAndExact(const FlowRun& run) {
  ASSERT_EQ(run.outcome.status, 0) << run.Replay() << "\n" << run.outcome;
  ASSERT_TRUE(run.summary.is_object()) << run.Replay() << "\n" << run.outcome;
  const json& s = run.summary;
  EXPECT_GE(s["complete"].get<int>(), 3) << s.dump();
  EXPECT_EQ(s["wrong_totals"], 0) << s.dump();
  EXPECT_EQ(s["failed"], 0) << s.dump();
  EXPECT_TRUE(s["exactly_once"].get<bool>()) << s.dump();
  EXPECT_GT(s["emitted"].get<std::uint64_t>(), 0u) << s.dump();
  EXPECT_EQ(s["transfers"], s["emitted"]) << s.dump();
  EXPECT_EQ(s["channels"].get<std::uint64_t>(), s["complete"].get<std::uint64_t>() * 6)
      << "2 + 2 operator inputs and 2 sink inputs a snapshot: " << s.dump();
}

TEST(DataflowClusterTest, AlignedBarriersHoldRecordsBackAndPersistNone) {
  FlowRun run = RunFlow({"--algorithm", "aligned"});
  SCOPED_TRACE(run.Replay());
  ExpectConservedAndExact(run);
  const json& s = run.summary;
  EXPECT_EQ(s["persisted_records_per_snapshot"].get<double>(), 0) << s.dump();
  EXPECT_EQ(s["unaligned_channels"], 0) << s.dump();
  EXPECT_EQ(s["switched_snapshots"], 0) << s.dump();
  // The slow operator's full buffers wait behind the barriers that came.
  EXPECT_GT(s["held_back_per_snapshot"].get<double>(), 0) << s.dump();
  EXPECT_GT(s["alignment_p50_us"].get<double>(), 0) << s.dump();
}

TEST(DataflowClusterTest, UnalignedBarriersPersistTheRecordsTheyOvertake) {
  FlowRun run = RunFlow({"--algorithm", "unaligned"});
  SCOPED_TRACE(run.Replay());
  ExpectConservedAndExact(run);
  const json& s = run.summary;
  EXPECT_GT(s["persisted_records_per_snapshot"].get<double>(), 0) << s.dump();
  EXPECT_DOUBLE_EQ(s["persisted_bytes_per_snapshot"].get<double>(),
                   8 * s["persisted_records_per_snapshot"].get<double>());
  EXPECT_GT(s["unaligned_channels"].get<std::uint64_t>(), 0u) << s.dump();
  EXPECT_EQ(s["held_back_per_snapshot"].get<double>(), 0) << s.dump();
}

TEST(DataflowClusterTest, TheAlignmentTimeoutSwitchesSlowAlignmentsToUnaligned) {
  // A barrier behind four records of a vertex taking 4 ms each aligns for
  // longer than 1 ms at the slow operator, whatever the machine.
  FlowRun run = RunFlow({"--algorithm", "aligned", "--alignment-timeout", "1ms"});
  SCOPED_TRACE(run.Replay());
  ExpectConservedAndExact(run);
  const json& s = run.summary;
  EXPECT_GT(s["switched_snapshots"].get<std::uint64_t>(), 0u) << s.dump();
  EXPECT_GT(s["unaligned_channels"].get<std::uint64_t>(), 0u) << s.dump();
  EXPECT_EQ(s["alignment_timeout_us"], 1000) << s.dump();
}

TEST(DataflowClusterTest, TheTextSummarySaysWhatTheSnapshotsCost) {
  Outcome o = Cutline({"cluster", "--app", "dataflow", "--topology", "1-1", "--duration", "500ms",
                       "--snapshot-every", "50ms"},
                      "", std::chrono::seconds(60));
  ASSERT_EQ(o.status, 0) << o;
  EXPECT_NE(o.out.find("run: 2 ranks (1-1), aligned"), std::string::npos) << o;
  EXPECT_NE(o.out.find("(each once)"), std::string::npos) << o;
  EXPECT_NE(o.out.find("(0 breaking conservation)"), std::string::npos) << o;
  EXPECT_NE(o.out.find("records held back"), std::string::npos) << o;
}

// An operator killed inside a snapshot (its part done, not yet sent), or
// at a time: Open MPI ends the job, and `cluster` says which rank died.
TEST(DataflowClusterTest, AKilledVertexEndsTheRunWithStatus1) {
  for (const char* kill : {"2@snapshot:3", "3@500ms"}) {
    SCOPED_TRACE(kill);
    Outcome o = Cutline({"cluster", "--app", "dataflow", "--topology", "2-2-1", "--duration", "20s",
                         "--snapshot-every", "50ms", "--kill", kill},
                        "", std::chrono::seconds(60));
    ASSERT_TRUE(o.exited) << o;
    EXPECT_EQ(o.status, 1) << o;
    const std::string rank = std::string(kill).substr(0, 1);
    EXPECT_NE(o.err.find("rank " + rank), std::string::npos) << o;
    EXPECT_NE(o.err.find("died"), std::string::npos) << o;
  }
}

TEST(DataflowClusterTest, BadDataflowFlagsAreOneLineAndExitTwo) {
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const Case cases[] = {
      {{"--app", "dataflow", "--topology", "2-x"}, "--topology '2-x' is not stages joined by '-'"},
      {{"--app", "dataflow", "--topology", "2-2-1", "--slow", "5:2"},
       "--slow names rank 5, but the topology has 5 ranks"},
      {{"--app", "dataflow", "--slow", "1:1"}, "--slow"},
      {{"--app", "dataflow", "--algorithm", "unaligned", "--alignment-timeout", "5ms"},
       "--alignment-timeout switches aligned barriers to unaligned: it needs --algorithm "
       "aligned, not unaligned"},
      {{"--app", "dataflow", "--algorithm", "chandy-lamport"},
       "--algorithm chandy-lamport does not run with --app dataflow: it runs aligned or unaligned"},
      {{"--algorithm", "aligned"},
       "--algorithm aligned does not run with --app bank: it runs chandy-lamport or lai-yang or "
       "stop-the-world"},
      {{"--topology", "2-1"}, "--topology is for --app dataflow, not --app bank"},
      {{"--app", "jobs", "--buffers", "3"}, "--buffers is for --app dataflow, not --app jobs"},
      {{"--app", "dataflow", "--balance", "5"}, "--balance is for --app bank, not --app dataflow"},
      {{"--app", "dataflow", "--store", "x.db"}, "--store is not available with --app dataflow"},
      {{"--app", "dataflow", "--ranks", "3", "--topology", "2-2"},
       "--ranks 3 does not match --topology 2-2, which has 4 ranks (leave --ranks out)"},
      {{"--app", "dataflow", "--ranks", "3", "--topology", "2-2", "--lang", "ja"},
       "--ranks 3 は --topology 2-2（ランク 4 個）と合いません"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"cluster", "--duration", "1s"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    ExpectRefusedInOneLine(args, c.says);
  }
}

}  // namespace
