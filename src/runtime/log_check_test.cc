// check --logs on logs written by hand: what a crashed or damaged run can
// leave (issue 17's fault campaign), each with its one-line answer. A real
// run's logs are checked in tests/cluster_test.cc.
#include "runtime/log_check.h"

#include "catalogue/messages.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "check/shiviz.h"
#include "sim/network.h"

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
  // The check, or nothing with the refusal's English words in *error.
  std::optional<LogCheck> Check(std::string* error) {
    StatusOr<LogCheck> checked = CheckLogs(dir_.string());
    if (!checked.ok()) {
      *error = catalogue::Message(checked.status(), Lang::kEn);
      return std::nullopt;
    }
    return std::move(checked).value();
  }

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

// A header is believed only where a run could have written it: a rank
// below its count of ranks (so at least 1), the count the other logs give,
// and the rank the file's name gives. Anything else is named in one line,
// never read as an empty log (rank 1 of 0 ranks was, and its lines skipped)
// or as a run of another size (a count past 32 bits was cut to one).
TEST_F(LogCheckTest, AHeaderNoRunCanWriteIsRefused) {
  struct Case {
    std::string header;  // rank 1's
    std::string says;
  };
  const std::vector<Case> cases = {
      {R"({"e":"rank","rank":1,"ranks":0})",
       "rank-1.jsonl's header names rank 1 of a run of 0 ranks, which cannot be"},
      {R"({"e":"rank","rank":1,"ranks":1})",
       "rank-1.jsonl's header names rank 1 of a run of 1 ranks, which cannot be"},
      {R"({"e":"rank","rank":1,"ranks":4294967298})",
       "rank-1.jsonl's header names rank 1 of a run of 4294967298 ranks, which cannot be"},
      {R"({"e":"rank","rank":1,"ranks":3})", "rank-1.jsonl belongs to a run of 3 ranks, not 2"},
      {R"({"e":"rank","rank":0,"ranks":2})", "rank-1.jsonl does not begin as rank 1's log"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> one = Rank1();
    one[0] = c.header;
    Write(0, Rank0());
    Write(1, one);
    std::string error;
    auto r = Check(&error);
    EXPECT_FALSE(r) << c.header << ": " << (r ? r->silent.size() : 0) << " silent";
    EXPECT_NE(error.find(c.says), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    StatusOr<LogCheck> ja = CheckLogs(dir_.string(), Lang::kJa);
    ASSERT_FALSE(ja.ok());
    EXPECT_NE(catalogue::Message(ja.status(), Lang::kJa).find("rank-1.jsonl"), std::string::npos);
  }
}

TEST_F(LogCheckTest, NoRankWroteItsLog) {
  Write(0, {});
  Write(1, {});
  std::string error;
  EXPECT_FALSE(Check(&error));
  EXPECT_NE(error.find("every log in"), std::string::npos) << error;
}


// The merge relies on each log growing in its clock (every event ticks its
// rank's entry): a clock that goes back is an edited log, refused.
TEST_F(LogCheckTest, AClockThatGoesBackIsRefusedWithFileAndLine) {
  std::vector<std::string> one = Rank1();
  one[2] = R"({"e":"receive","from":0,"n":1,"amount":10,"vc":[0,0]})";
  Write(0, Rank0());
  Write(1, one);
  std::string error;
  EXPECT_FALSE(Check(&error));
  EXPECT_NE(error.find("rank-1.jsonl:3: \"vc\" goes back"), std::string::npos) << error;
  // The same refusal in Japanese: the file, its line, then what is wrong.
  StatusOr<LogCheck> ja = CheckLogs(dir_.string(), Lang::kJa);
  ASSERT_FALSE(ja.ok());
  EXPECT_EQ(ja.status().code(), Code::kLogAt);
  const std::string said = catalogue::Message(ja.status(), Lang::kJa);
  EXPECT_NE(said.find("rank-1.jsonl の 3 行目: \"vc\" が戻っています"), std::string::npos) << said;
}

// ---- The streaming check's own cases ----------------------------------

// Two ranks with real vector clocks, for logs written by a test.
class TwoRanks {
 public:
  std::vector<std::string> log[2] = {{R"({"e":"rank","rank":0,"ranks":2})"},
                                     {R"({"e":"rank","rank":1,"ranks":2})"}};
  void Start(int r, long balance) { Line(r, fmt("\"e\":\"start\",\"balance\":{}", balance)); }
  // Returns the message's clock, for its receipt.
  std::vector<std::uint64_t> Send(int r, long amount) {
    Line(r, fmt("\"e\":\"send\",\"to\":{},\"n\":{},\"amount\":{}", 1 - r, ++n_[r], amount));
    return vc_[r];
  }
  std::vector<std::uint64_t> Marker(int r, int snapshot) {
    Line(r, fmt("\"e\":\"send_marker\",\"to\":{},\"n\":{},\"snapshot\":{}", 1 - r, ++n_[r],
                snapshot));
    return vc_[r];
  }
  void Receive(int r, std::uint64_t n, long amount, const std::vector<std::uint64_t>& clock) {
    Merge(r, clock);
    Line(r, fmt("\"e\":\"receive\",\"from\":{},\"n\":{},\"amount\":{}", 1 - r, n, amount));
  }
  void ReceiveMarker(int r, std::uint64_t n, int snapshot, const std::vector<std::uint64_t>& clock) {
    Merge(r, clock);
    Line(r, fmt("\"e\":\"receive_marker\",\"from\":{},\"n\":{},\"snapshot\":{}", 1 - r, n,
                snapshot));
  }
  void Record(int r, int snapshot, long balance, bool by_marker) {
    Line(r, fmt("\"e\":\"record\",\"snapshot\":{},\"balance\":{},\"cause\":\"{}\"", snapshot,
                balance, by_marker ? "marker" : "start"));
  }
  void Part(int r, int snapshot, long balance, const std::string& from_other) {
    Line(r, fmt("\"e\":\"part\",\"snapshot\":{},\"balance\":{},\"channels\":{{\"{}\":[{}]}}",
                snapshot, balance, 1 - r, from_other));
  }
  std::uint64_t n(int r) const { return n_[r]; }

 private:
  template <typename... A>
  static std::string fmt(const char* f, A&&... a) {
    return ::fmt::format(::fmt::runtime(f), std::forward<A>(a)...);
  }
  void Merge(int r, const std::vector<std::uint64_t>& clock) {
    for (int i = 0; i < 2; ++i) vc_[r][i] = std::max(vc_[r][i], clock[i]);
  }
  void Line(int r, const std::string& body) {
    ++vc_[r][r];
    log[r].push_back("{" + body + ::fmt::format(",\"vc\":[{},{}]}}", vc_[r][0], vc_[r][1]));
  }
  std::vector<std::uint64_t> vc_[2] = {{0, 0}, {0, 0}};
  std::uint64_t n_[2] = {0, 0};
};

std::string All(const LogCheck& r) {
  std::string all;
  for (const std::string& p : r.report.problems) all += p + "\n";
  return all;
}

// N0 records, then sends $10 before its marker; N1 receives the $10 before
// it records on its own: the $10 crosses the cut backwards (the two ranks'
// logs).
TwoRanks BackwardCrossing() {
  TwoRanks t;
  t.Start(0, 100);
  t.Start(1, 100);
  t.Record(0, 1, 100, false);
  auto ten = t.Send(0, 10);
  auto marker = t.Marker(0, 1);
  t.Receive(1, 1, 10, ten);
  t.Record(1, 1, 110, false);
  auto back = t.Marker(1, 1);
  t.ReceiveMarker(1, 2, 1, marker);
  t.Part(1, 1, 110, "");
  t.ReceiveMarker(0, 1, 1, back);
  t.Part(0, 1, 100, "");
  return t;
}

TEST_F(LogCheckTest, AMessageAcrossTheCutBackwardsIsNamed) {
  const TwoRanks t = BackwardCrossing();
  Write(0, t.log[0]);
  Write(1, t.log[1]);
  std::string error;
  auto r = Check(&error);
  ASSERT_TRUE(r) << error;
  EXPECT_EQ(r->report.snapshots_checked, 1);
  const std::string all = All(*r);
  EXPECT_NE(all.find("snapshot 1: inconsistent cut: $10 (message #1, N0→N1) counted twice: N1 "
                     "received it before recording, N0 sent it after recording"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("snapshot 1: N0 sent message #1 ($10 from N0) on N0→N1 after recording "
                     "but before the marker"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("money is not conserved"), std::string::npos) << all;
  ASSERT_EQ(r->report.verdicts.size(), 1u);
  EXPECT_EQ(r->report.verdicts[0].backward, std::vector<sim::Seq>{1});
}

// The same logs judged in Japanese: the findings come from the Japanese
// catalogue (findings_ja.cc), names and amounts as they are.
TEST_F(LogCheckTest, FindingsOnLogsComeInTheLanguageAsked) {
  const TwoRanks t = BackwardCrossing();
  Write(0, t.log[0]);
  Write(1, t.log[1]);
  StatusOr<LogCheck> r = CheckLogs(dir_.string(), Lang::kJa);
  ASSERT_TRUE(r.ok()) << CodeName(r.status().code());
  const std::string all = All(*r);
  EXPECT_NE(all.find("スナップショット1: 不整合なカット: $10（メッセージ#1、N0→N1）が二重に数え"
                     "られています。N1は記録前に受け取り、N0は記録後に送りました"),
            std::string::npos)
      << all;
  EXPECT_EQ(all.find("snapshot"), std::string::npos) << all;
}

// N1 records before the $10 N0 sent before recording arrives: the $10 is
// the channel's state, exactly; a part that leaves it out is caught.
TEST_F(LogCheckTest, AChannelStateMustBeExactlyTheTransfersAcrossTheCut) {
  for (const std::string& claimed : {std::string("10"), std::string(""), std::string("10,4")}) {
    TwoRanks t;
    t.Start(0, 100);
    t.Start(1, 100);
    auto ten = t.Send(0, 10);
    t.Record(0, 1, 90, false);
    auto marker = t.Marker(0, 1);
    t.Record(1, 1, 100, false);
    auto back = t.Marker(1, 1);
    t.Receive(1, 1, 10, ten);
    t.ReceiveMarker(1, 2, 1, marker);
    t.Part(1, 1, 100, claimed);
    t.ReceiveMarker(0, 1, 1, back);
    t.Part(0, 1, 90, "");
    Write(0, t.log[0]);
    Write(1, t.log[1]);
    std::string error;
    auto r = Check(&error);
    ASSERT_TRUE(r) << error;
    const std::string all = All(*r);
    EXPECT_EQ(r->report.snapshots_checked, 1);
    if (claimed == "10") {
      EXPECT_TRUE(r->report.ok()) << all;
    } else if (claimed.empty()) {
      EXPECT_NE(all.find("snapshot 1: channel N0→N1 recorded [] but expected [$10]"),
                std::string::npos)
          << all;
      EXPECT_NE(all.find("snapshot 1: $10 (message #1) in flight on N0→N1 is missing from the "
                         "snapshot"),
                std::string::npos)
          << all;
    } else {
      EXPECT_NE(all.find("snapshot 1: channel N0→N1 recorded [$10, $4] but expected [$10]"),
                std::string::npos)
          << all;
      EXPECT_NE(all.find("money is not conserved: recorded balances $190 + channel states $14"),
                std::string::npos)
          << all;
    }
  }
}

// N0's log ends (a crash) before a send N1 logged receiving: N1's log is
// cut before that receipt; the events after it are counted, not checked.
TEST_F(LogCheckTest, AReceiptWhoseSendIsNotLoggedCutsItsLog) {
  TwoRanks t;
  t.Start(0, 100);
  t.Start(1, 100);
  auto ten = t.Send(0, 10);
  t.Receive(1, 1, 10, ten);
  auto lost = t.Send(0, 5);  // N0's log is cut before this line
  std::vector<std::string> zero = t.log[0];
  zero.pop_back();
  t.Receive(1, 2, 5, lost);
  t.Send(1, 1);
  t.Record(1, 1, 104, false);
  Write(0, zero);
  Write(1, t.log[1]);
  std::string error;
  auto r = Check(&error);
  ASSERT_TRUE(r) << error;
  EXPECT_TRUE(r->report.ok()) << All(*r);
  EXPECT_EQ(r->dropped, 3u);
  EXPECT_EQ(r->events, 2u);  // the send and its receipt
  EXPECT_EQ(r->total, 200);
}

// A long run of many snapshots: each is judged and forgotten when its last
// part is read, so what the check holds does not grow with the log.
TEST_F(LogCheckTest, ALongLogIsCheckedInBoundedState) {
  auto run = [&](int snapshots) {
    TwoRanks t;
    long b0 = 1000, b1 = 100000;  // N1 pays $1 a snapshot to N0
    t.Start(0, b0);
    t.Start(1, b1);
    for (int k = 1; k <= snapshots; ++k) {
      auto one = t.Send(0, 1);
      b0 -= 1;
      t.Receive(1, t.n(0), 1, one);
      b1 += 1;
      t.Record(0, k, b0, false);
      auto m0 = t.Marker(0, k);
      auto two = t.Send(1, 2);  // before N1 records: N1->N0's state
      b1 -= 2;
      t.ReceiveMarker(1, t.n(0), k, m0);
      t.Record(1, k, b1, true);
      auto m1 = t.Marker(1, k);
      t.Part(1, k, b1, "");
      t.Receive(0, t.n(1) - 1, 2, two);
      t.ReceiveMarker(0, t.n(1), k, m1);
      t.Part(0, k, b0, "2");
      b0 += 2;
    }
    Write(0, t.log[0]);
    Write(1, t.log[1]);
    std::string error;
    auto r = Check(&error);
    EXPECT_TRUE(r) << error;
    if (r) {
      EXPECT_TRUE(r->report.ok()) << All(*r);
      EXPECT_EQ(r->report.snapshots_checked, snapshots);
      EXPECT_EQ(r->peak_open_snapshots, 1u);
    }
    return r ? r->peak_state : 0;
  };
  // A few items per snapshot open, whatever the length: a snapshot, a
  // message or two in flight, a channel's expected and claimed state.
  const std::size_t small = run(10);
  const std::size_t large = run(5000);
  EXPECT_GT(small, 0u);
  EXPECT_LE(small, 12u);
  EXPECT_LE(large, 12u);
}

}  // namespace
}  // namespace cutline::runtime

namespace cutline::runtime {
namespace {

// jobs on two ranks: N0 holds one job, hands a new one to N1, finishes its
// own and starts snapshot 1; N1 gets the job before the marker, so it
// records itself busy, then finishes it. Rank 0 declares `holds`.
std::vector<std::string> JobsRank0(const std::string& verdict) {
  return {R"({"e":"rank","rank":0,"ranks":2,"app":"jobs"})",
          R"({"e":"start","balance":1,"vc":[1,0]})",
          R"({"e":"send","to":1,"n":1,"amount":1,"vc":[2,0]})",
          R"({"e":"local","state":0,"vc":[3,0]})",
          R"({"e":"record","snapshot":1,"balance":0,"cause":"start","vc":[4,0]})",
          R"({"e":"send_marker","to":1,"n":2,"snapshot":1,"vc":[5,0]})",
          R"({"e":"receive_marker","from":1,"n":1,"snapshot":1,"vc":[6,5]})",
          R"({"e":"part","snapshot":1,"balance":0,"channels":{"1":[]},"vc":[7,5]})",
          R"({"e":"verdict","snapshot":1,)" + verdict + R"(,"vc":[8,5]})"};
}
std::vector<std::string> JobsRank1(const std::string& last_state = "0") {
  return {R"({"e":"rank","rank":1,"ranks":2,"app":"jobs"})",
          R"({"e":"start","balance":0,"vc":[0,1]})",
          R"({"e":"receive","from":0,"n":1,"amount":1,"vc":[2,2]})",
          R"({"e":"receive_marker","from":0,"n":2,"snapshot":1,"vc":[5,3]})",
          R"({"e":"record","snapshot":1,"balance":1,"cause":"marker","vc":[5,4]})",
          R"({"e":"send_marker","to":0,"n":1,"snapshot":1,"vc":[5,5]})",
          R"({"e":"part","snapshot":1,"balance":1,"channels":{"0":[]},"vc":[5,6]})",
          R"({"e":"local","state":)" + last_state + R"(,"vc":[5,7]})"};
}

class AppLogCheckTest : public LogCheckTest {};

TEST_F(AppLogCheckTest, ARightDeclarationPasses) {
  Write(0, JobsRank0(R"("holds":false,"branches":[1],"channels":[])"));
  Write(1, JobsRank1());
  std::string error;
  auto r = Check(&error);
  ASSERT_TRUE(r) << error;
  EXPECT_TRUE(r->report.ok()) << r->report.problems.front();
  EXPECT_EQ(r->app, "jobs");
  EXPECT_EQ(r->declared, 1u);
  EXPECT_EQ(r->declared_holding, 0u);
}

TEST_F(AppLogCheckTest, ADeclarationTheCutDoesNotBearOutIsNamed) {
  Write(0, JobsRank0(R"("holds":true,"branches":[],"channels":[])"));
  Write(1, JobsRank1());
  std::string error;
  auto r = Check(&error);
  ASSERT_TRUE(r) << error;
  ASSERT_EQ(r->report.problems.size(), 1u);
  EXPECT_EQ(r->report.problems[0],
            "snapshot 1: declared terminated (no branch busy), but the state replayed at its "
            "cut says not terminated (N1)");
}

TEST_F(AppLogCheckTest, AStepThatDisagreesWithTheReplayIsNamed) {
  Write(0, JobsRank0(R"("holds":false,"branches":[1],"channels":[])"));
  Write(1, JobsRank1("3"));
  std::string error;
  auto r = Check(&error);
  ASSERT_TRUE(r) << error;
  ASSERT_FALSE(r->report.ok());
  EXPECT_EQ(r->report.problems[0],
            "history: N1 says its state is 3 after a step of its own, but replayed it is 0 "
            "(rank-1.jsonl:8)");
}

// Both ranks idle at snapshot 1, declared terminated, rightly at its cut;
// then N0 (idle, against the rules) hands N1 a job: where the logs end the
// computation is not terminated, so the declaration was early. Without the
// cut in the logs (as stop-the-world leaves them) only that is checked.
TEST_F(AppLogCheckTest, ADeclarationTheEndOfTheLogsUndoesWasEarly) {
  const std::vector<std::string> rank0 = {
      R"({"e":"rank","rank":0,"ranks":2,"app":"jobs"})",
      R"({"e":"start","balance":0,"vc":[1,0]})",
      R"({"e":"record","snapshot":1,"balance":0,"cause":"start","vc":[2,0]})",
      R"({"e":"send_marker","to":1,"n":1,"snapshot":1,"vc":[3,0]})",
      R"({"e":"receive_marker","from":1,"n":1,"snapshot":1,"vc":[4,5]})",
      R"({"e":"part","snapshot":1,"balance":0,"channels":{"1":[]},"vc":[5,5]})",
      R"({"e":"verdict","snapshot":1,"holds":true,"branches":[],"channels":[],"vc":[6,5]})",
      R"({"e":"send","to":1,"n":2,"amount":1,"vc":[7,5]})"};
  const std::vector<std::string> rank1 = {
      R"({"e":"rank","rank":1,"ranks":2,"app":"jobs"})",
      R"({"e":"start","balance":0,"vc":[0,1]})",
      R"({"e":"receive_marker","from":0,"n":1,"snapshot":1,"vc":[3,2]})",
      R"({"e":"record","snapshot":1,"balance":0,"cause":"marker","vc":[3,3]})",
      R"({"e":"send_marker","to":0,"n":1,"snapshot":1,"vc":[3,4]})",
      R"({"e":"part","snapshot":1,"balance":0,"channels":{"0":[]},"vc":[3,5]})",
      R"({"e":"receive","from":0,"n":2,"amount":1,"vc":[7,6]})"};
  Write(0, rank0);
  Write(1, rank1);
  std::string error;
  auto r = Check(&error);
  ASSERT_TRUE(r) << error;
  ASSERT_EQ(r->report.problems.size(), 1u);
  EXPECT_EQ(r->report.problems[0],
            "snapshot 1: declared terminated, but where the logs end it is not (N1): declared "
            "too early");
  EXPECT_EQ(r->unchecked, 0u);

  // The same without the snapshot's cut: unchecked, and still early.
  std::vector<std::string> bare0 = {rank0[0], rank0[1], rank0[6], rank0[7]};
  std::vector<std::string> bare1 = {rank1[0], rank1[1], rank1[6]};
  Write(0, bare0);
  Write(1, bare1);
  r = Check(&error);
  ASSERT_TRUE(r) << error;
  EXPECT_EQ(r->unchecked, 1u);
  ASSERT_EQ(r->report.problems.size(), 1u);
  EXPECT_NE(r->report.problems[0].find("declared too early"), std::string::npos);
}

TEST_F(AppLogCheckTest, LogsOfTwoApplicationsAreRefused) {
  Write(0, JobsRank0(R"("holds":false,"branches":[1],"channels":[])"));
  std::vector<std::string> locks = JobsRank1();
  locks[0] = R"({"e":"rank","rank":1,"ranks":2,"app":"locks"})";
  Write(1, locks);
  std::string error;
  EXPECT_FALSE(Check(&error));
  EXPECT_NE(error.find("rank-1.jsonl is a log of locks, but rank 0's is of jobs"),
            std::string::npos)
      << error;
  locks[0] = R"({"e":"rank","rank":1,"ranks":2,"app":"chess"})";
  Write(1, locks);
  EXPECT_FALSE(Check(&error));
  EXPECT_NE(error.find("names an application cutline does not know: \"chess\""),
            std::string::npos)
      << error;
}

// A kill of the whole job can leave rank 0's log empty. It names no
// application, so the run is what the other logs say it is (not the bank's
// by default), and the check goes on with what there is.
TEST_F(AppLogCheckTest, AnEmptyRank0LogIsReadAsTheOthersApplication) {
  Write(0, {});
  Write(1, JobsRank1());
  std::string error;
  auto r = Check(&error);
  ASSERT_TRUE(r) << error;
  EXPECT_EQ(r->silent, std::vector<std::uint32_t>{0});
  EXPECT_EQ(r->ranks, 2u);
  EXPECT_EQ(r->report.snapshots_checked, 0u);  // N0's part is unknown

  // Of three ranks, the lowest that logged anything names the run; another
  // application beside it is still refused, naming that rank.
  Write(1, {R"({"e":"rank","rank":1,"ranks":3,"app":"jobs"})",
            R"({"e":"start","balance":0,"vc":[0,1,0]})"});
  Write(2, {R"({"e":"rank","rank":2,"ranks":3,"app":"jobs"})",
            R"({"e":"start","balance":0,"vc":[0,0,1]})"});
  r = Check(&error);
  ASSERT_TRUE(r) << error;
  EXPECT_EQ(r->silent, std::vector<std::uint32_t>{0});
  Write(2, {R"({"e":"rank","rank":2,"ranks":3,"app":"locks"})",
            R"({"e":"start","balance":0,"vc":[0,0,1]})"});
  EXPECT_FALSE(Check(&error));
  EXPECT_NE(error.find("rank-2.jsonl is a log of locks, but rank 1's is of jobs"),
            std::string::npos)
      << error;
}

// A dataflow's logs (`cluster --app dataflow --log-dir`): topology 1-1, a
// source N0 and a sink N1, unaligned barriers. N0 puts records 1-3 on its
// output; record 1 has left. It records snapshot 1 and its barrier (4)
// jumps records 2 and 3 still queued. Record 2 leaves; snapshot 2's
// barrier (5) jumps record 3 again. N0's part of snapshot 1 comes last, so
// the judge judges it with barrier 5, sent after the cut, ahead of record
// 3, sent before it: record 3 is still in snapshot 1's channel state.
std::vector<std::string> Source() {
  return {R"({"e":"rank","rank":0,"ranks":2,"app":"dataflow","topology":"1-1"})",
          R"({"e":"start","balance":0,"vc":[1,0]})",
          R"({"e":"send","to":1,"n":1,"amount":1,"vc":[2,0]})",
          R"({"e":"send","to":1,"n":2,"amount":1,"vc":[3,0]})",
          R"({"e":"send","to":1,"n":3,"amount":1,"vc":[4,0]})",
          R"({"e":"record","snapshot":1,"balance":-3,"cause":"start","vc":[5,0]})",
          R"({"e":"send_marker","to":1,"n":4,"snapshot":1,"vc":[6,0]})",
          R"({"e":"overtaken","to":1,"n":2,"by":4,"vc":[7,0]})",
          R"({"e":"overtaken","to":1,"n":3,"by":4,"vc":[8,0]})",
          R"({"e":"record","snapshot":2,"balance":-3,"cause":"start","vc":[9,0]})",
          R"({"e":"send_marker","to":1,"n":5,"snapshot":2,"vc":[10,0]})",
          R"({"e":"overtaken","to":1,"n":3,"by":5,"vc":[11,0]})",
          R"({"e":"part","snapshot":1,"balance":-3,"channels":{},"sent":{"1":[1,1]},"vc":[12,0]})",
          R"({"e":"part","snapshot":2,"balance":-3,"channels":{},"sent":{"1":[1]},"vc":[13,0]})"};
}
std::vector<std::string> SinkLog() {
  return {R"({"e":"rank","rank":1,"ranks":2,"app":"dataflow","topology":"1-1"})",
          R"({"e":"start","balance":0,"vc":[0,1]})",
          R"({"e":"receive","from":0,"n":1,"amount":1,"vc":[2,2]})",
          R"({"e":"receive_marker","from":0,"n":4,"snapshot":1,"vc":[6,3]})",
          R"({"e":"record","snapshot":1,"balance":1,"cause":"marker","vc":[6,4]})",
          R"({"e":"part","snapshot":1,"balance":1,"channels":{"0":[]},"vc":[6,5]})",
          R"({"e":"receive","from":0,"n":2,"amount":1,"vc":[6,6]})",
          R"({"e":"receive_marker","from":0,"n":5,"snapshot":2,"vc":[10,7]})",
          R"({"e":"record","snapshot":2,"balance":2,"cause":"marker","vc":[10,8]})",
          R"({"e":"part","snapshot":2,"balance":2,"channels":{"0":[]},"vc":[10,9]})",
          R"({"e":"receive","from":0,"n":3,"amount":1,"vc":[10,10]})"};
}

TEST_F(LogCheckTest, ADataflowsLogsPassWithRecordsJumpedTwice) {
  Write(0, Source());
  Write(1, SinkLog());
  std::string error;
  auto r = Check(&error);
  ASSERT_TRUE(r) << error;
  EXPECT_TRUE(r->report.ok()) << ::testing::PrintToString(r->report.problems);
  EXPECT_EQ(r->report.snapshots_checked, 2);
  EXPECT_EQ(r->topology, "1-1");
}

// The same for a dataflow: an empty rank-0 log (its source's) is not read
// as the bank's, and the sink's log is checked on its topology.
TEST_F(LogCheckTest, AnEmptyRank0LogOfADataflowIsReadAsTheDataflows) {
  Write(0, {});
  Write(1, SinkLog());
  std::string error;
  auto r = Check(&error);
  ASSERT_TRUE(r) << error;
  EXPECT_EQ(r->topology, "1-1");
  EXPECT_EQ(r->silent, std::vector<std::uint32_t>{0});
  EXPECT_TRUE(r->report.ok()) << ::testing::PrintToString(r->report.problems);
}

TEST_F(LogCheckTest, ADataflowPartThatLosesAJumpedRecordIsCaught) {
  std::vector<std::string> source = Source();
  source[12] = R"({"e":"part","snapshot":1,"balance":-3,"channels":{},"sent":{"1":[1]},"vc":[12,0]})";
  Write(0, source);
  Write(1, SinkLog());
  std::string error;
  auto r = Check(&error);
  ASSERT_TRUE(r) << error;
  ASSERT_FALSE(r->report.ok());
  const std::string all = ::testing::PrintToString(r->report.problems);
  EXPECT_NE(all.find("snapshot 1: channel N0→N1 recorded [record] but expected [record, record]"), std::string::npos)
      << all;
  EXPECT_EQ(all.find("snapshot 2"), std::string::npos) << all;
}

// A barrier taken on its arrival ahead of records waiting at the receiver:
// the log says which it jumped ("overtaken" with "from"). Left out, the
// barrier's receipt overtakes them unannounced, which the judge names.
TEST_F(LogCheckTest, ABarrierJumpingUnannouncedAtItsReceiverIsNamed) {
  std::vector<std::string> source = {
      R"({"e":"rank","rank":0,"ranks":2,"app":"dataflow","topology":"1-1"})",
      R"({"e":"start","balance":0,"vc":[1,0]})",
      R"({"e":"send","to":1,"n":1,"amount":1,"vc":[2,0]})",
      R"({"e":"record","snapshot":1,"balance":-1,"cause":"start","vc":[3,0]})",
      R"({"e":"send_marker","to":1,"n":2,"snapshot":1,"vc":[4,0]})",
      R"({"e":"part","snapshot":1,"balance":-1,"channels":{},"vc":[5,0]})"};
  std::vector<std::string> sink = {
      R"({"e":"rank","rank":1,"ranks":2,"app":"dataflow","topology":"1-1"})",
      R"({"e":"start","balance":0,"vc":[0,1]})",
      R"({"e":"overtaken","from":0,"n":1,"by":2,"vc":[4,2]})",
      R"({"e":"receive_marker","from":0,"n":2,"snapshot":1,"vc":[4,3]})",
      R"({"e":"record","snapshot":1,"balance":0,"cause":"marker","vc":[4,4]})",
      R"({"e":"part","snapshot":1,"balance":0,"channels":{"0":[1]},"vc":[5,5]})",
      R"({"e":"receive","from":0,"n":1,"amount":1,"vc":[5,6]})"};
  Write(0, source);
  Write(1, sink);
  std::string error;
  auto r = Check(&error);
  ASSERT_TRUE(r) << error;
  EXPECT_TRUE(r->report.ok()) << ::testing::PrintToString(r->report.problems);
  sink.erase(sink.begin() + 2);
  Write(1, sink);
  r = Check(&error);
  ASSERT_TRUE(r) << error;
  const std::string all = ::testing::PrintToString(r->report.problems);
  EXPECT_NE(all.find("channel N0→N1 is not FIFO"), std::string::npos) << all;
}

TEST_F(LogCheckTest, DamagedDataflowLinesAreRefusedWithFileAndLine) {
  struct Case {
    int rank;
    std::size_t line;  // 0-based
    std::string text;
    std::string says;
  };
  const std::vector<Case> cases = {
      {1, 2, R"({"e":"send","to":0,"n":1,"amount":1,"vc":[2,2]})",
       "rank-1.jsonl:3: a \"send\" line on N1→N0, which the dataflow 1-1 has no channel for"},
      {0, 7, R"({"e":"overtaken","to":1,"from":1,"n":2,"by":4,"vc":[7,0]})",
       "rank-0.jsonl:8: an \"overtaken\" line names its channel by \"to\" or by \"from\", one of the two"},
      {0, 12, R"({"e":"part","snapshot":1,"balance":-3,"channels":{"1":[]},"vc":[12,0]})",
       "rank-0.jsonl:13: a \"part\" line on N1→N0, which the dataflow 1-1 has no channel for"},
      {0, 0, R"({"e":"rank","rank":0,"ranks":2,"app":"dataflow","topology":"1-x"})",
       "rank-0.jsonl names a dataflow of no topology cutline reads: \"1-x\""},
      {0, 0, R"({"e":"rank","rank":0,"ranks":2,"app":"dataflow","topology":"2-1"})",
       "rank-0.jsonl names a dataflow of no topology cutline reads: \"2-1\""},
      {1, 0, R"({"e":"rank","rank":1,"ranks":2})",
       "rank-1.jsonl is a log of bank, but rank 0's is of dataflow 1-1"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> source = Source(), sink = SinkLog();
    (c.rank == 0 ? source : sink)[c.line] = c.text;
    Write(0, source);
    Write(1, sink);
    std::string error;
    EXPECT_FALSE(Check(&error)) << c.text;
    EXPECT_NE(error.find(c.says), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
}

}  // namespace
}  // namespace cutline::runtime

namespace cutline::runtime {
namespace {

// A ShiViz log's events: each host line with its clock, and its description.
std::vector<std::pair<std::string, std::string>> ShiVizEvents(const std::string& log) {
  std::vector<std::pair<std::string, std::string>> events;
  std::size_t at = log.find("\n\n");
  if (at == std::string::npos) return events;
  std::istringstream lines(log.substr(at + 2));
  for (std::string host, what; std::getline(lines, host) && std::getline(lines, what);) {
    events.emplace_back(host, what);
  }
  return events;
}

// The ShiViz log of the two-rank bank: every event but none of the
// judge's, in the merge's causal order, with the clocks the ranks kept
// (zero entries left out) and the bank's money.
TEST_F(LogCheckTest, TheShiVizLogOfABankRunSaysItsMoney) {
  Write(0, Rank0());
  Write(1, Rank1());
  StatusOr<std::string> log = ShiVizLog(dir_.string());
  ASSERT_TRUE(log.ok()) << catalogue::Message(log.status(), Lang::kEn);
  const std::vector<std::pair<std::string, std::string>> expected = {
      {R"(N0 {"N0":1})", "start with $100"},
      {R"(N1 {"N1":1})", "start with $100"},
      {R"(N0 {"N0":2})", "send $10 to N1"},
      {R"(N0 {"N0":3})", "record $90 for snapshot 1 (start)"},
      {R"(N0 {"N0":4})", "marker 1 to N1"},
      {R"(N1 {"N0":2,"N1":2})", "receive $10 from N0"},
      {R"(N1 {"N0":4,"N1":3})", "marker 1 from N0"},
      {R"(N1 {"N0":4,"N1":4})", "record $110 for snapshot 1 (marker)"},
      {R"(N1 {"N0":4,"N1":5})", "marker 1 to N0"},
      {R"(N1 {"N0":4,"N1":6})", "part of snapshot 1 done"},
      {R"(N0 {"N0":5,"N1":6})", "marker 1 from N1"},
      {R"(N0 {"N0":6,"N1":6})", "part of snapshot 1 done"},
  };
  EXPECT_EQ(log->rfind(std::string(check::kShiVizRegex) + "\n\n", 0), 0u) << *log;
  EXPECT_EQ(ShiVizEvents(*log), expected) << *log;
}

// A dataflow's ShiViz log says its records and barriers, never money: a
// source's state below 0 is the records it emitted beyond those received.
// The order is the merge's, by clock sum then rank; the overtaken lines are
// the judge's, not drawn.
TEST_F(LogCheckTest, TheShiVizLogOfADataflowSaysItsRecords) {
  Write(0, Source());
  Write(1, SinkLog());
  StatusOr<std::string> log = ShiVizLog(dir_.string());
  ASSERT_TRUE(log.ok()) << catalogue::Message(log.status(), Lang::kEn);
  std::vector<std::string> said;
  for (const auto& [host, what] : ShiVizEvents(*log)) said.push_back(host.substr(0, 2) + ": " + what);
  const std::vector<std::string> expected = {
      "N0: start with 0 records",
      "N1: start with 0 records",
      "N0: send record to N1",
      "N0: send record to N1",
      "N0: send record to N1",
      "N1: receive record from N0",
      "N0: record -3 records for snapshot 1 (start)",
      "N0: barrier 1 to N1",
      "N0: record -3 records for snapshot 2 (start)",  // (9, N0) before (9, N1)
      "N1: barrier 1 from N0",
      "N0: barrier 2 to N1",
      "N1: record 1 record for snapshot 1 (marker)",
      "N1: part of snapshot 1 done",
      "N0: part of snapshot 1 done",
      "N1: receive record from N0",
      "N0: part of snapshot 2 done",
      "N1: barrier 2 from N0",
      "N1: record 2 records for snapshot 2 (marker)",
      "N1: part of snapshot 2 done",
      "N1: receive record from N0",
  };
  EXPECT_EQ(said, expected) << *log;
  EXPECT_EQ(log->find('$'), std::string::npos) << *log;
}

// One reader: the ShiViz log refuses what the check refuses, in the same
// words (a clock that goes back, logs of two applications, a rank missing).
TEST_F(LogCheckTest, TheShiVizLogRefusesWhatTheCheckRefuses) {
  std::vector<std::string> back = Rank1();
  back[2] = R"({"e":"receive","from":0,"n":1,"amount":10,"vc":[0,0]})";
  std::vector<std::string> other_app = SinkLog();
  other_app[0] = R"({"e":"rank","rank":1,"ranks":2})";
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> cases = {
      {Rank0(), back}, {Source(), other_app}, {Rank0(), {}}};
  for (const auto& [zero, one] : cases) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    Write(0, zero);
    if (!one.empty()) Write(1, one);
    std::string error;
    EXPECT_FALSE(Check(&error));
    StatusOr<std::string> log = ShiVizLog(dir_.string());
    ASSERT_FALSE(log.ok()) << *log;
    EXPECT_EQ(catalogue::Message(log.status(), Lang::kEn), error);
  }
}

}  // namespace
}  // namespace cutline::runtime
