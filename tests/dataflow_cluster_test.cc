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

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "run_cutline.h"

namespace {

using nlohmann::json;

namespace fs = std::filesystem;

struct FlowRun {
  Outcome outcome;
  json summary;
  std::vector<std::string> command;
  std::string Replay() const { return fmt::format("cutline {}", fmt::join(command, " ")); }
};

// `cutline check --logs DIR` on a dataflow run's logs: it passes, and says
// how many snapshots it judged (at least `complete`, the ones rank 0
// collected: a part is logged before it is sent).
void ExpectLogsPass(const std::string& dir, int complete) {
  const Outcome o = Cutline({"check", "--logs", dir});
  EXPECT_EQ(o.status, 0) << o;
  const std::string ok = "ok: ";
  const std::size_t at = o.out.find(ok);
  ASSERT_NE(at, std::string::npos) << o;
  const int judged = std::atoi(o.out.c_str() + at + ok.size());
  EXPECT_GE(judged, std::max(complete, 1)) << o;
  EXPECT_TRUE(Contains(o.out, "of the dataflow 2-2-1 (5 vertices)")) << o;
  EXPECT_TRUE(Contains(o.out, "every record counted once")) << o;
}

// Two sources, two operators (rank 2 four times slower than a source), one
// sink, four buffers a channel: the slow operator's inputs stay full. Each
// rank logs its events, and the judge checks every snapshot in the logs.
FlowRun RunFlow(const std::vector<std::string>& mode) {
  const fs::path logs = fs::temp_directory_path() /
                        ("cutline_flow_logs_" + std::to_string(::getpid()) + "_" +
                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
  fs::remove_all(logs);
  FlowRun run;
  run.command = {"cluster",          "--app",   "dataflow", "--topology", "2-2-1", "--buffers", "4",
                 "--slow",           "2:4",     "--rate",   "1000",       "--duration", "1200ms",
                 "--snapshot-every", "50ms",    "--json",   "--log-dir",  logs.string()};
  run.command.insert(run.command.end(), mode.begin(), mode.end());
  run.outcome = Cutline(run.command, "", std::chrono::seconds(120));
  run.summary = json::parse(run.outcome.out, nullptr, false);
  if (run.outcome.status == 0 && run.summary.is_object()) {
    SCOPED_TRACE(run.Replay());
    ExpectLogsPass(logs.string(), run.summary["complete"].get<int>());
  }
  fs::remove_all(logs);
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

// --- kill and restore, with the store -----------------------------------------


std::string FileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class DataflowStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("cutline_dataflow_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    store_ = (dir_ / "flow.db").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<std::string> Flow(const std::vector<std::string>& mode,
                                const std::vector<std::string>& more) const {
    std::vector<std::string> args = {"cluster", "--app",   "dataflow", "--topology", "2-2-1",
                                     "--buffers", "4",     "--slow",   "2:4",        "--rate",
                                     "1000",    "--snapshot-every", "50ms", "--store", store_};
    args.insert(args.end(), mode.begin(), mode.end());
    args.insert(args.end(), more.begin(), more.end());
    return args;
  }
  json List() const {
    Outcome o = Cutline({"store", "list", store_, "--json"});
    EXPECT_EQ(o.status, 0) << o;
    return json::parse(o.out, nullptr, false);
  }

  // The operator N2 (the slow one) killed inside snapshot 6, its part done
  // and not sent; then the run restored from the store's latest complete
  // snapshot. Returns that snapshot as `store show --json` says it.
  json KillThenRestore(const std::vector<std::string>& mode) {
    const std::string crash_logs = (dir_ / "crash-logs").string();
    const std::vector<std::string> crash_args =
        Flow(mode, {"--duration", "20s", "--kill", "2@snapshot:6", "--log-dir", crash_logs});
    const Outcome crash = Cutline(crash_args, "", std::chrono::seconds(120));
    SCOPED_TRACE(fmt::format("cutline {}", fmt::join(crash_args, " ")));
    EXPECT_TRUE(crash.exited) << crash;
    EXPECT_EQ(crash.status, 1) << crash;
    EXPECT_TRUE(Contains(crash.err, "rank 2")) << crash;
    // The store is sound after the crash, and says where a restore starts.
    Outcome verified = Cutline({"store", "verify", store_});
    EXPECT_EQ(verified.status, 0) << verified;
    const json before = List();
    std::uint64_t latest = 0;
    for (const json& snapshot : before["snapshots"]) {
      EXPECT_NE(snapshot["id"] == 6 ? snapshot["status"] : json("failed"), "complete") << snapshot;
      if (snapshot["status"] == "complete") latest = snapshot["id"];
    }
    EXPECT_GE(latest, 1u) << before;
    EXPECT_TRUE(Contains(crash.err, fmt::format("#{} (", latest))) << crash;
    // The judge's verdict on the crashed run's logs: every snapshot whose
    // every part was logged is right, up to the crash.
    ExpectLogsPass(crash_logs, static_cast<int>(latest));
    const Outcome shown = Cutline({"store", "show", store_, std::to_string(latest), "--json"});
    const json origin = json::parse(shown.out, nullptr, false);

    // A topology that is not the snapshot's is refused in one line, and the
    // store is left as it was.
    const std::string bytes = FileBytes(store_);
    const Outcome refused = Cutline({"cluster", "--app", "dataflow", "--topology", "2-1", "--duration", "1s",
                                     "--store", store_, "--restore"});
    EXPECT_EQ(refused.status, 2) << refused;
    EXPECT_EQ(refused.err, fmt::format("cutline: error: snapshot {} is of topology 2-2-1, not 2-1: run "
                                       "with --topology 2-2-1\n", latest));
    EXPECT_EQ(FileBytes(store_), bytes);
    // So is a bank restored from a dataflow's snapshot, in either language.
    const Outcome bank = Cutline({"cluster", "--duration", "1s", "--store", store_, "--restore"});
    EXPECT_EQ(bank.status, 2) << bank;
    EXPECT_EQ(bank.err, fmt::format("cutline: error: snapshot {} is of a dataflow run, not --app bank: "
                                    "run with --app dataflow\n", latest));
    const Outcome ja = Cutline({"cluster", "--duration", "1s", "--store", store_, "--restore", "--lang", "ja"});
    EXPECT_EQ(ja.status, 2) << ja;
    EXPECT_TRUE(Contains(ja.err, "--app dataflow で実行してください")) << ja;
    EXPECT_EQ(Lines(ja.err), 1u) << ja;
    EXPECT_EQ(FileBytes(store_), bytes);

    const std::string restored_logs = (dir_ / "restored-logs").string();
    const std::vector<std::string> restore_args =
        Flow(mode, {"--duration", "800ms", "--restore", "--json", "--log-dir", restored_logs});
    const Outcome restored = Cutline(restore_args, "", std::chrono::seconds(120));
    SCOPED_TRACE(fmt::format("cutline {}", fmt::join(restore_args, " ")));
    EXPECT_EQ(restored.status, 0) << restored;
    const json summary = json::parse(restored.out, nullptr, false);
    EXPECT_TRUE(summary.is_object()) << restored;
    if (!summary.is_object()) return origin;
    // Every record counted once at the sink: those the snapshot had
    // emitted (replayed if in flight) and those emitted since.
    EXPECT_TRUE(summary["exactly_once"].get<bool>()) << summary.dump();
    EXPECT_EQ(summary["transfers"], summary["emitted"]) << summary.dump();
    EXPECT_GT(summary["emitted"].get<std::int64_t>(), origin["total"].get<std::int64_t>())
        << "the restored sources went on from the snapshot's " << origin["total"];
    EXPECT_EQ(summary["wrong_totals"], 0) << summary.dump();
    EXPECT_GE(summary["complete"].get<int>(), 3) << summary.dump();
    // And on the restored run's: its vertices start from the snapshot's
    // states, the replayed records their first sends.
    ExpectLogsPass(restored_logs, summary["complete"].get<int>());
    const json after = List();
    EXPECT_EQ(after["runs"].size(), 2u) << after;
    if (after["runs"].size() == 2) {
      EXPECT_EQ(after["runs"][1]["restored_from"], latest) << after;
    }
    EXPECT_EQ(summary["restored_from"], latest) << summary.dump();
    Outcome again = Cutline({"store", "verify", store_});
    EXPECT_EQ(again.status, 0) << again;
    return origin;
  }

  fs::path dir_;
  std::string store_;
};

TEST_F(DataflowStoreTest, AKilledOperatorRestoresExactlyOnceFromAnAlignedSnapshot) {
  const json origin = KillThenRestore({"--algorithm", "aligned"});
  ASSERT_TRUE(origin.contains("cost")) << origin;
  EXPECT_EQ(origin["cost"]["persisted"], 0) << "aligned: nothing in flight to replay";
  EXPECT_EQ(origin["cost"]["unaligned"], 0) << origin;
}

TEST_F(DataflowStoreTest, AKilledOperatorRestoresExactlyOnceFromAnUnalignedSnapshot) {
  const json origin = KillThenRestore({"--algorithm", "unaligned"});
  ASSERT_TRUE(origin.contains("cost")) << origin;
  // The slow operator's full buffers were in flight: the restore replayed them.
  EXPECT_GT(origin["cost"]["persisted"].get<int>(), 0) << origin;
}

TEST_F(DataflowStoreTest, AKilledOperatorRestoresExactlyOnceFromASwitchedSnapshot) {
  const json origin = KillThenRestore({"--algorithm", "aligned", "--alignment-timeout", "1ms"});
  ASSERT_TRUE(origin.contains("cost")) << origin;
  EXPECT_TRUE(origin["cost"]["switched"].get<bool>()) << origin;
  // The store page's order: the slowest channel first.
  const json& channels = origin["channels"];
  for (std::size_t i = 1; i < channels.size(); ++i) {
    EXPECT_GE(channels[i - 1]["waited_us"].get<std::int64_t>(), channels[i]["waited_us"].get<std::int64_t>())
        << channels;
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
      {{"--app", "dataflow", "--reorder"}, "--reorder is not available with --app dataflow"},
      {{"--app", "dataflow", "--restore"}, "--restore needs --store FILE"},
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
