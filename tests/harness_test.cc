// `cutline test` on real programs run as real processes: the examples'
// Chandy-Lamport node in Python (right in every schedule of a small
// workload and over random schedules of a larger one; each rule broken on
// purpose caught, shrunk, written and replayed), its Lai-Yang node (right
// on channels that reorder), the node on cutline's own library, and a node
// that breaks the protocol in each way a program can (tests/harness/faulty_node.py), named
// in one line with nothing left running.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "harness/nodes.h"
#include "harness/search.h"
#include "harness/workload.h"
#include "run_cutline.h"

namespace {

namespace fs = std::filesystem;
const fs::path kRepo = CUTLINE_SOURCE_DIR;

// Debian's interpreter itself: a wrapper on PATH (pyenv's shims) costs a
// tenth of a second a process, and the tester starts hundreds.
const std::string kPython = "/usr/bin/python3";

std::string ClNode(const std::string& more = "") {
  std::string bin = kPython + " " + (kRepo / "examples/harness/chandy_lamport.py").string();
  return more.empty() ? bin : bin + " " + more;
}

std::string Faulty(const std::string& fault, const std::string& tag) {
  return kPython + " " + (kRepo / "tests/harness/faulty_node.py").string() + " --fault " +
         fault + " --tag " + tag;
}

std::string TempPath(const std::string& name) {
  return (fs::temp_directory_path() / ("cutline_harness_" + name)).string();
}

// Whether any process still running has `tag` on its command line.
bool AnyProcessWith(const std::string& tag) {
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string pid = entry.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    // A process may end between the listing and the read: the read then
    // fails (ESRCH), which means "not running", never an error of the test.
    const int fd = ::open((entry.path() / "cmdline").c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    std::string text;
    char buffer[4096];
    for (ssize_t got; (got = ::read(fd, buffer, sizeof buffer)) > 0;) text.append(buffer, got);
    ::close(fd);
    if (text.find(tag) != std::string::npos) return true;
  }
  return false;
}

TEST(HarnessTest, TheCorrectNodeIsRightInEveryScheduleOfASmallWorkload) {
  Outcome o = Cutline({"test", "--schedules", "every", "--transfers", "1", "--snapshots", "1",
                       "--bin", ClNode()},
                      "", std::chrono::seconds(300));
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(Contains(o.out, "ok in every schedule: ")) << o;
  // Every end state had its snapshot judged: as many judged as end states.
  EXPECT_TRUE(Contains(o.out, " end states, ")) << o;
}

TEST(HarnessTest, TheCorrectNodeIsRightOverRandomSchedulesOfALargerOne) {
  Outcome o = Cutline({"test", "--schedules", "random:40", "--seed", "7", "--nodes", "4",
                       "--transfers", "6", "--snapshots", "2", "--bin", ClNode()},
                      "", std::chrono::seconds(300));
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(Contains(o.out, "ok: 40 random schedules of 4 nodes (6 transfers and 2 snapshots "
                              "each): 80 complete snapshots judged"))
      << o;
}

std::string LaiYang() {
  return kPython + " " + (kRepo / "examples/harness/lai_yang.py").string();
}

// Lai-Yang needs no FIFO: right in every schedule of a small workload on
// channels that reorder, and over random ones of a larger.
TEST(HarnessTest, TheLaiYangNodeIsRightOnChannelsThatReorder) {
  Outcome every = Cutline({"test", "--schedules", "every", "--reorder", "--transfers", "1",
                           "--snapshots", "1", "--bin", LaiYang()},
                          "", std::chrono::seconds(300));
  EXPECT_EQ(every.status, 0) << every;
  EXPECT_TRUE(Contains(every.out, "ok in every schedule: ")) << every;
  Outcome random = Cutline({"test", "--schedules", "random:40", "--reorder", "--nodes", "4",
                            "--transfers", "6", "--snapshots", "3", "--bin", LaiYang()},
                           "", std::chrono::seconds(300));
  EXPECT_EQ(random.status, 0) << random;
  EXPECT_TRUE(Contains(random.out, "120 complete snapshots judged")) << random;
}

// The node on cutline's own library (examples/harness_node): right in every
// schedule of a small workload on 3 nodes, and over random schedules on 5.
TEST(HarnessTest, TheLibraryNodeIsRightInEveryScheduleAndOverRandomOnes) {
  Outcome every = Cutline({"test", "--schedules", "every", "--transfers", "2", "--snapshots", "1",
                           "--bin", CUTLINE_CL_NODE},
                          "", std::chrono::seconds(300));
  EXPECT_EQ(every.status, 0) << every;
  EXPECT_TRUE(Contains(every.out, "ok in every schedule: ")) << every;
  Outcome random = Cutline({"test", "--schedules", "random:100", "--nodes", "5", "--transfers",
                            "8", "--snapshots", "2", "--bin", CUTLINE_CL_NODE},
                           "", std::chrono::seconds(300));
  EXPECT_EQ(random.status, 0) << random;
  EXPECT_TRUE(Contains(random.out, "200 complete snapshots judged")) << random;
}

// The run's findings as it printed them ("FAIL snapshot 1: ..." lines).
std::vector<std::string> PrintedFindings(const std::string& out) {
  std::vector<std::string> findings;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("FAIL snapshot ", 0) == 0) findings.push_back(line.substr(5));
  }
  return findings;
}

// The file's trace (docs/harness.md) tells the run the tester judged: a
// step more than the schedule (init first); at every step the money is all
// there, in the balances the tester knows or in transfers in flight; at the
// end nothing is in flight; and its findings are the run's, in English and
// (as many) in Japanese.
void ExpectTheTraceTellsTheRun(const std::string& file, const std::string& out) {
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(file));
  ASSERT_TRUE(j.contains("trace")) << file;
  const nlohmann::json& t = j["trace"];
  ASSERT_EQ(t["steps"].size(), j["steps"].size() + 1);
  const std::int64_t total = j["workload"]["balance"].get<std::int64_t>() *
                             static_cast<std::int64_t>(j["workload"]["nodes"].size());
  for (const nlohmann::json& step : t["steps"]) {
    std::int64_t money = 0;
    for (const nlohmann::json& b : step["balances"]) money += b.get<std::int64_t>();
    for (const nlohmann::json& c : step["in_flight"]) {
      for (const nlohmann::json& m : c["messages"]) {
        const nlohmann::json& message = t["messages"][m.get<std::size_t>()];
        if (message["type"] == "transfer") money += message["amount"].get<std::int64_t>();
      }
    }
    EXPECT_EQ(money, total) << step;
  }
  EXPECT_TRUE(t["steps"].back()["in_flight"].empty());
  const std::vector<std::string> printed = PrintedFindings(out);
  ASSERT_FALSE(printed.empty()) << out;
  EXPECT_EQ(t["findings"]["en"].get<std::vector<std::string>>(), printed);
  EXPECT_EQ(j["findings"].get<std::vector<std::string>>(), printed);
  EXPECT_EQ(t["findings"]["ja"].size(), printed.size());
  EXPECT_NE(t["findings"]["ja"], t["findings"]["en"]);
}

struct BrokenRule {
  std::string rule;
  std::vector<std::string> options;
  std::string finding;
};

TEST(HarnessTest, EachBrokenRuleIsCaughtShrunkWrittenAndReplayed) {
  const std::vector<BrokenRule> cases = {
      {"--break late-markers", {}, "never completed"},
      {"--break unrecorded-channel", {}, "is missing from the snapshot"},
      {"--break late-record", {}, "is missing from the snapshot"},
      {"--break lose-message", {}, "money is not conserved"},
      {"", {"--reorder"}, "is missing from the snapshot"},  // FIFO assumed
  };
  for (const BrokenRule& b : cases) {
    SCOPED_TRACE(b.rule.empty() ? "--reorder" : b.rule);
    const std::string file = TempPath("failure.json");
    fs::remove(file);
    std::vector<std::string> args = {"test", "--schedules", "random:50", "--out", file};
    args.insert(args.end(), b.options.begin(), b.options.end());
    args.insert(args.end(), {"--bin", ClNode(b.rule)});
    Outcome o = Cutline(args, "", std::chrono::seconds(300));
    EXPECT_EQ(o.status, 1) << o;
    EXPECT_TRUE(Contains(o.out, "FAIL snapshot ")) << o;
    EXPECT_TRUE(Contains(o.out, b.finding)) << o;
    // Shrunk to a strictly shorter schedule than the one found. (How short
    // depends on the shrinker's time bounds; every schedule's shortest is
    // held to its exact length below.)
    unsigned shrunk = 0, from = 0;
    const std::size_t at = o.out.find("shrunk to ");
    ASSERT_NE(at, std::string::npos) << o;
    const std::size_t from_at = o.out.find(" from ", at);
    ASSERT_NE(from_at, std::string::npos) << o;
    ASSERT_EQ(std::sscanf(o.out.c_str() + at, "shrunk to %u", &shrunk), 1) << o;
    ASSERT_EQ(std::sscanf(o.out.c_str() + from_at, " from %u", &from), 1) << o;
    EXPECT_LT(shrunk, from) << o;
    ASSERT_TRUE(fs::exists(file)) << o;
    ExpectTheTraceTellsTheRun(file, o.out);
    // The file plays the same failure again, step by step.
    Outcome replay = Cutline({"test", "--replay", file, "--bin", ClNode(b.rule)}, "",
                             std::chrono::seconds(120));
    EXPECT_EQ(replay.status, 1) << replay;
    EXPECT_TRUE(Contains(replay.out, "step 1: ")) << replay;
    EXPECT_TRUE(Contains(replay.out, b.finding)) << replay;
    // Played on the correct node, the schedule passes.
    if (!b.rule.empty()) {
      Outcome right = Cutline({"test", "--replay", file, "--bin", ClNode()}, "",
                              std::chrono::seconds(120));
      EXPECT_EQ(right.status, 0) << right;
      EXPECT_TRUE(Contains(right.out, "complete snapshot")) << right;
    }
  }
}

TEST(HarnessTest, TheShortestFailingScheduleOfEveryIsFoundBreadthFirst) {
  Outcome o = Cutline({"test", "--schedules", "every", "--transfers", "1", "--snapshots", "1",
                       "--out", TempPath("every.json"), "--bin",
                       ClNode("--break unrecorded-channel")},
                      "", std::chrono::seconds(300));
  EXPECT_EQ(o.status, 1) << o;
  // A snapshot, a transfer and its delivery, and the six markers: nine
  // steps is the least in which a transfer can be in flight across the cut.
  EXPECT_TRUE(Contains(o.out, "FAIL: the shortest failing schedule, 9 steps")) << o;
}

// The partial-order reduction (World::Ample) leaves schedules out, never an
// end state: the reduced search and the full one judge the same end states
// of the correct node, and find a broken node's failure at the same length.
TEST(HarnessTest, TheReductionKeepsEveryEndStateAndTheShortestFailure) {
  namespace harness = cutline::harness;
  using harness::SearchOptions;
  using harness::SearchResult;
  auto search = [](const std::vector<std::string>& argv, std::uint32_t transfers,
                   bool reduction, std::vector<std::string>* ends) {
    const harness::Workload w = harness::Workload::Generate(3, 100, transfers, 2, /*seed=*/5);
    harness::Nodes nodes(w, {argv, std::chrono::milliseconds(5000)});
    SearchOptions o;
    o.every = true;
    o.shrink = false;
    o.reduction = reduction;
    o.end_states = ends;
    SearchResult r = harness::Search(&nodes, o);
    std::sort(ends->begin(), ends->end());
    return r;
  };
  std::vector<std::string> reduced_ends, full_ends;
  const SearchResult reduced = search({CUTLINE_CL_NODE}, 1, true, &reduced_ends);
  const SearchResult full = search({CUTLINE_CL_NODE}, 1, false, &full_ends);
  ASSERT_EQ(full.outcome, SearchResult::Outcome::kOk);
  EXPECT_EQ(reduced.outcome, SearchResult::Outcome::kOk);
  EXPECT_LT(reduced.states, full.states);
  EXPECT_GT(full_ends.size(), 100u);
  EXPECT_EQ(reduced_ends.size(), full_ends.size());
  EXPECT_TRUE(reduced_ends == full_ends) << "the end states differ";
  EXPECT_EQ(reduced.judged, full.judged);

  const std::vector<std::string> broken = {kPython,
                                           (kRepo / "examples/harness/chandy_lamport.py").string(),
                                           "--break", "late-markers"};
  std::vector<std::string> unused;
  const SearchResult reduced_fail = search(broken, 1, true, &unused);
  const SearchResult full_fail = search(broken, 1, false, &unused);
  ASSERT_TRUE(full_fail.failure.has_value());
  ASSERT_TRUE(reduced_fail.failure.has_value());
  EXPECT_EQ(reduced_fail.failure->path.size(), full_fail.failure->path.size());
}

struct ProtocolFault {
  std::string fault;
  std::string says;
};

TEST(HarnessTest, AProgramThatBreaksTheProtocolIsNamedInOneLineAndLeftNoProcess) {
  const std::vector<ProtocolFault> cases = {
      {"not-json", "wrote a line that is not JSON in answer to snapshot 1 at "},
      {"no-type", "without a string \"type\""},
      {"exit", "exited with status 3 while handling snapshot 1 at "},
      {"hang", "hangs: no answer to the sync after snapshot 1 at "},  // within --timeout-ms
      {"bad-dest", "sent a message to \"n9\", which is no other node"},
      {"no-init-ok", "did not answer init with init_ok"},
      {"unsent-report", "lists transfer 77 from "},
      {"nondeterministic", "is nondeterministic: given the same inputs again"},
  };
  for (const ProtocolFault& f : cases) {
    SCOPED_TRACE(f.fault);
    const std::string tag = "cutline-harness-test-" + f.fault;
    Outcome o = Cutline({"test", "--schedules", "random:5", "--transfers", "0", "--snapshots",
                         "1", "--timeout-ms", "2000", "--no-shrink", "--out",
                         TempPath("fault.json"), "--bin", Faulty(f.fault, tag)},
                        "", std::chrono::seconds(120));
    EXPECT_EQ(o.status, 1) << o;
    EXPECT_TRUE(Contains(o.out, f.says)) << o;
    // The heading and one finding, each a line.
    std::size_t fail_lines = 0;
    for (std::size_t at = o.out.find("FAIL"); at != std::string::npos;
         at = o.out.find("\nFAIL", at + 1)) {
      ++fail_lines;
    }
    EXPECT_EQ(fail_lines, 2u) << o;
    EXPECT_FALSE(AnyProcessWith(tag)) << "a node of '" << f.fault << "' is still running";
  }
}

// A schedule whose snapshots were all left out (shrunk from a program's
// fault) judges nothing when replayed on a program without the fault: it
// says so and exits 3, never a pass.
TEST(HarnessTest, AReplayWithEverySnapshotLeftOutJudgesNothing) {
  const std::string file = TempPath("no-snapshot.json");
  std::ofstream(file) << R"({"format": "cutline-test-schedule", "version": 1,
    "workload": {"nodes": ["n1", "n2"], "balance": 100, "commands": [
      {"do": "transfer", "at": "n1", "to": "n2", "amount": 5},
      {"do": "snapshot", "at": "n1", "snapshot": 1}]},
    "reorder": false, "skipped": [1], "steps": [{"command": 0}]})";
  Outcome o = Cutline({"test", "--replay", file, "--bin", ClNode()}, "", std::chrono::seconds(60));
  EXPECT_EQ(o.status, 3) << o;
  EXPECT_TRUE(Contains(o.out, "replayed: nothing judged")) << o;
  EXPECT_FALSE(Contains(o.out, "pass now")) << o;
}

TEST(HarnessTest, AWrongCommandIsRefusedInOneLine) {
  ExpectRefusedInOneLine({"test", "--schedules", "most", "--bin", ClNode()},
                         "--schedules most: expected every, or random:K");
  ExpectRefusedInOneLine({"test", "--snapshots", "0", "--bin", ClNode()},
                         "a workload needs at least one snapshot");
  ExpectRefusedInOneLine({"test", "--bin", "/no/such/program"},
                         "cannot start /no/such/program: No such file or directory");
  const std::string not_schedule = TempPath("not-a-schedule.json");
  std::ofstream(not_schedule) << "{\"format\": \"something else\"}\n";
  ExpectRefusedInOneLine({"test", "--replay", not_schedule, "--bin", ClNode()},
                         "not a schedule cutline test wrote (\"format\" is missing or wrong)");
}

TEST(HarnessTest, JapaneseWordsTheVerdictAndTheFault) {
  Outcome ok = Cutline({"test", "--schedules", "random:3", "--lang", "ja", "--bin", ClNode()}, "",
                       std::chrono::seconds(120));
  EXPECT_EQ(ok.status, 0) << ok;
  EXPECT_TRUE(Contains(ok.out, "合格: 3ノードのランダムなスケジュール3件")) << ok;
  Outcome bad = Cutline({"test", "--schedules", "random:3", "--lang", "ja", "--transfers", "0",
                         "--no-shrink", "--out", TempPath("ja.json"), "--bin",
                         Faulty("exit", "cutline-harness-ja")},
                        "", std::chrono::seconds(120));
  EXPECT_EQ(bad.status, 1) << bad;
  EXPECT_TRUE(Contains(bad.out, "の処理中に終了しました（終了ステータス3）")) << bad;
}

}  // namespace
