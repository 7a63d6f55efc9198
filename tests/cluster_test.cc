// The runtime with real processes: `cutline cluster` starts mpirun, whose
// ranks are real `cutline node` processes exchanging real MPI messages. The
// tests assert what must hold however fast the machine is (a slow machine
// takes fewer snapshots, never a wrong one).
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "run_cutline.h"

namespace {

using namespace std::chrono_literals;

struct Summary {
  long complete = -1, wrong = -1, failed = -1;
  long final_total = -1, bank_total = -1;
};

// The summary lines `cutline cluster` prints at the end of a run.
Summary Parse(const std::string& out) {
  Summary s;
  std::smatch m;
  if (std::regex_search(out, m, std::regex(R"(snapshots: (\d+) complete \((\d+) with a wrong total\), (\d+) failed)"))) {
    s.complete = std::stol(m[1]);
    s.wrong = std::stol(m[2]);
    s.failed = std::stol(m[3]);
  }
  if (std::regex_search(out, m, std::regex(R"(total at the end: \$(\d+) of \$(\d+))"))) {
    s.final_total = std::stol(m[1]);
    s.bank_total = std::stol(m[2]);
  }
  return s;
}

Outcome Cluster(std::vector<std::string> args) {
  args.insert(args.begin(), "cluster");
  return Cutline(args, "", 240s);
}

TEST(ClusterTest, SnapshotsWhileTransfersFlowAllAddUp) {
  for (const char* algorithm : {"chandy-lamport", "stop-the-world"}) {
    SCOPED_TRACE(algorithm);
    Outcome o = Cluster({"--ranks", "4", "--duration", "2s", "--snapshot-every", "50ms",
                         "--rate", "max", "--algorithm", algorithm});
    ASSERT_TRUE(o.exited) << o;
    EXPECT_EQ(o.status, 0) << o;
    Summary s = Parse(o.out);
    EXPECT_GE(s.complete, 1) << o;
    EXPECT_EQ(s.wrong, 0) << o;
    EXPECT_EQ(s.failed, 0) << o;
    EXPECT_EQ(s.bank_total, 4000) << o;
    EXPECT_EQ(s.final_total, 4000) << o;
  }
}

// The link delay holds every message back; the money is still all there.
TEST(ClusterTest, ALinkDelayChangesNoTotal) {
  Outcome o = Cluster({"--ranks", "3", "--duration", "1s", "--snapshot-every", "100ms",
                       "--link-delay", "2ms", "--balance", "500"});
  ASSERT_TRUE(o.exited) << o;
  EXPECT_EQ(o.status, 0) << o;
  Summary s = Parse(o.out);
  EXPECT_EQ(s.wrong, 0) << o;
  EXPECT_EQ(s.final_total, 1500) << o;
}

// A rank that dies ends the job (Open MPI's way): exit 1, naming the rank.
TEST(ClusterTest, AKilledRankEndsTheRunWithStatus1) {
  for (const char* kill : {"1@snapshot:3", "2@500ms"}) {
    SCOPED_TRACE(kill);
    Outcome o = Cluster({"--ranks", "3", "--duration", "20s", "--snapshot-every", "50ms",
                         "--kill", kill});
    ASSERT_TRUE(o.exited) << o;
    EXPECT_EQ(o.status, 1) << o;
    std::string rank = std::string(kill).substr(0, 1);
    EXPECT_TRUE(Contains(o.err, "rank " + rank)) << o;
    EXPECT_TRUE(Contains(o.err, "died")) << o;
  }
}

TEST(ClusterTest, BadArgumentsAreOneLineAndStatus2) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--ranks", "1"}, "--ranks"},
      {{"--ranks", "many"}, "--ranks"},
      {{"--duration", "5"}, "--duration"},
      {{"--duration", "5x"}, "--duration"},
      {{"--duration", "0s"}, "--duration"},
      {{"--duration", "-1s"}, "--duration"},
      {{"--snapshot-every", "0ms"}, "--snapshot-every"},
      {{"--snapshot-every", "soon"}, "--snapshot-every"},
      {{"--rate", "-3"}, "--rate"},
      {{"--rate", "fast"}, "--rate"},
      {{"--link-delay", "2"}, "--link-delay"},
      {{"--kill", "x"}, "--kill"},
      {{"--kill", "1@"}, "--kill"},
      {{"--kill", "1@snapshot:0"}, "--kill"},
      {{"--ranks", "3", "--kill", "3@1s"}, "--kill"},
      {{"--algorithm", "paxos"}, "--algorithm"},
      {{"--restore"}, "--restore"},
      {{"--balance", "0"}, "--balance"},
      {{"--bogus"}, "--bogus"},
  };
  for (const auto& [args, mentions] : cases) {
    std::string cmd;
    for (const auto& a : args) cmd += a + " ";
    Outcome o = Cluster(args);
    EXPECT_TRUE(o.exited) << cmd << o;
    EXPECT_EQ(o.status, 2) << cmd << o;
    EXPECT_EQ(o.out, "") << cmd << o;
    EXPECT_EQ(Lines(o.err), 1u) << cmd << o;
    EXPECT_EQ(o.err.rfind("cutline: error: ", 0), 0u) << cmd << o;
    EXPECT_TRUE(Contains(o.err, mentions)) << cmd << o;
  }
}

}  // namespace
