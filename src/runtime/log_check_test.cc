// check --logs on logs written by hand: what a crashed or damaged run can
// leave (issue 17's fault campaign), each with its one-line answer. A real
// run's logs are checked in tests/cluster_test.cc.
#include "runtime/log_check.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace cutline::runtime {
namespace {

namespace fs = std::filesystem;

// Two ranks of $100: N0 sends $10 to N1, then starts snapshot 1 (records
// $90, marker to N1); N1 receives the $10, then the marker (records $110),
// answers with its marker. Consistent, $200.
std::vector<std::string> Rank0() {
  return {R"({"e":"rank","rank":0,"ranks":2})",
          R"({"e":"start","balance":100,"vc":[1,0]})",
          R"({"e":"send","to":1,"n":1,"amount":10,"vc":[2,0]})",
          R"({"e":"record","snapshot":1,"balance":90,"cause":"start","vc":[3,0]})",
          R"({"e":"send_marker","to":1,"n":2,"snapshot":1,"vc":[4,0]})",
          R"({"e":"receive_marker","from":1,"n":1,"snapshot":1,"vc":[5,6]})",
          R"({"e":"part","snapshot":1,"balance":90,"channels":{"1":[]},"vc":[6,6]})"};
}
std::vector<std::string> Rank1() {
  return {R"({"e":"rank","rank":1,"ranks":2})",
          R"({"e":"start","balance":100,"vc":[0,1]})",
          R"({"e":"receive","from":0,"n":1,"amount":10,"vc":[2,2]})",
          R"({"e":"receive_marker","from":0,"n":2,"snapshot":1,"vc":[4,3]})",
          R"({"e":"record","snapshot":1,"balance":110,"cause":"marker","vc":[4,4]})",
          R"({"e":"send_marker","to":0,"n":1,"snapshot":1,"vc":[4,5]})",
          R"({"e":"part","snapshot":1,"balance":110,"channels":{"0":[]},"vc":[4,6]})"};
}

class LogCheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("cutline-logcheck-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Write(int rank, const std::vector<std::string>& lines, bool last_newline = true) {
    std::ofstream out(dir_ / ("rank-" + std::to_string(rank) + ".jsonl"), std::ios::binary);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      out << lines[i];
      if (i + 1 < lines.size() || last_newline) out << '\n';
    }
  }
  std::optional<LogCheck> Check(std::string* error) { return CheckLogs(dir_.string(), error); }

  fs::path dir_;
};

TEST_F(LogCheckTest, HandWrittenLogsOfAGoodRunPass) {
  Write(0, Rank0());
  Write(1, Rank1());
  std::string error;
  auto r = Check(&error);
  ASSERT_TRUE(r) << error;
  EXPECT_TRUE(r->report.ok()) << r->report.problems.front();
  EXPECT_EQ(r->report.snapshots_checked, 1u);
  EXPECT_EQ(r->total, 200);
  EXPECT_TRUE(r->silent.empty());
}

// The record line is what a rank recorded: edited, the snapshot is wrong,
// and the part line, which repeats it, no longer agrees.
TEST_F(LogCheckTest, AnEditedRecordBalanceIsCaught) {
  std::vector<std::string> one = Rank1();
  one[4] = R"({"e":"record","snapshot":1,"balance":117,"cause":"marker","vc":[4,4]})";
  Write(0, Rank0());
  Write(1, one);
  std::string error;
  auto r = Check(&error);
  ASSERT_TRUE(r) << error;
  ASSERT_FALSE(r->report.ok());
  std::string all;
  for (const std::string& p : r->report.problems) all += p + "\n";
  EXPECT_NE(all.find("snapshot 1: N1 recorded $117 but its part says $110 (rank-1.jsonl:7)"),
            std::string::npos)
      << all;
  // And the recorded $117 is judged against the replay.
  EXPECT_NE(all.find("N1 recorded $117"), all.rfind("N1 recorded $117")) << all;
}

TEST_F(LogCheckTest, AnEditedPartBalanceIsCaught) {
  std::vector<std::string> one = Rank1();
  one[6] = R"({"e":"part","snapshot":1,"balance":111,"channels":{"0":[]},"vc":[4,6]})";
  Write(0, Rank0());
  Write(1, one);
  std::string error;
  auto r = Check(&error);
  ASSERT_TRUE(r) << error;
  ASSERT_FALSE(r->report.ok());
  EXPECT_EQ(r->report.problems.back(),
            "snapshot 1: N1 recorded $110 but its part says $111 (rank-1.jsonl:7)");
}

// A rank killed before its log's buffer was first written leaves an empty
// file: the others' logs are still checked, and the answer says so.
TEST_F(LogCheckTest, AnEmptyLogIsARankThatLoggedNothing) {
  std::vector<std::string> zero = Rank0();
  zero.resize(4);  // start, send, record: then the run ended
  Write(0, zero);
  Write(1, {});
  std::string error;
  auto r = Check(&error);
  ASSERT_TRUE(r) << error;
  EXPECT_TRUE(r->report.ok());
  EXPECT_EQ(r->silent, std::vector<std::uint32_t>{1});
  EXPECT_EQ(r->report.snapshots_checked, 0u);
  EXPECT_EQ(r->total, 100);  // N0's; N1's is unknown
}

// A last line cut short is where a rank died: the log ends there.
TEST_F(LogCheckTest, ALastLineCutShortEndsThatLog) {
  std::vector<std::string> one = Rank1();
  one.back() = one.back().substr(0, 20);
  Write(0, Rank0());
  Write(1, one, /*last_newline=*/false);
  std::string error;
  auto r = Check(&error);
  ASSERT_TRUE(r) << error;
  EXPECT_TRUE(r->report.ok());
  EXPECT_EQ(r->report.snapshots_checked, 0u);  // N1's part was lost
}

// Anything else that is not a log line is damage: refused, naming the file
// and line, rather than silently ending the log there.
TEST_F(LogCheckTest, DamagedLinesAreRefusedWithFileAndLine) {
  struct Case {
    std::size_t line;  // 0-based in rank 1's log
    std::string text;
    std::string says;
  };
  const std::vector<Case> cases = {
      {2, "garbage", "rank-1.jsonl:3 is not a line of a cutline log"},
      {2, R"({"e":"receive","from":0,"n":1,"amount":"ten","vc":[2,2]})",
       "rank-1.jsonl:3: a \"receive\" line without a whole number \"amount\""},
      {2, R"({"e":"receive","from":7,"n":1,"amount":10,"vc":[2,2]})",
       "rank-1.jsonl:3: a \"receive\" line with \"from\": 7, not another of 2 ranks"},
      {4, R"({"e":"record","snapshot":1,"balance":110,"vc":[4,4]})",
       "rank-1.jsonl:5: a \"record\" line without its \"cause\""},
      {6, R"({"e":"part","snapshot":1,"balance":110,"vc":[4,6]})",
       "rank-1.jsonl:7: a \"part\" line without its \"channels\""},
      {1, R"({"e":"start","balance":100,"vc":"late"})",
       "rank-1.jsonl:2: \"vc\" is not a vector clock"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> one = Rank1();
    one[c.line] = c.text;
    Write(0, Rank0());
    Write(1, one);
    std::string error;
    auto r = Check(&error);
    EXPECT_FALSE(r) << c.text;
    EXPECT_NE(error.find(c.says), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
}

TEST_F(LogCheckTest, NoRankWroteItsLog) {
  Write(0, {});
  Write(1, {});
  std::string error;
  EXPECT_FALSE(Check(&error));
  EXPECT_NE(error.find("every log in"), std::string::npos) << error;
}

}  // namespace
}  // namespace cutline::runtime
