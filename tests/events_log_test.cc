// `cutline check --logs DIR --format events` (docs/logs.md) on logs that
// cutline did not write: those of examples/events_log/bank_snapshots.py, a
// Chandy-Lamport implementation in Python, good and broken on purpose, and
// lines that are not what the format says, each refused with its place.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "run_cutline.h"

namespace {

namespace fs = std::filesystem;

const fs::path kSource = CUTLINE_SOURCE_DIR;
const fs::path kTestdata = kSource / "testdata" / "events";
const fs::path kExample = kSource / "examples" / "events_log" / "bank_snapshots.py";
// The arguments testdata/events was written with (see its README).
const std::string kTestdataArgs = "--seed 2 --steps 120 --snapshots 2";

std::string Read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every file of a folder, by name, with its bytes.
std::map<std::string, std::string> Files(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::directory_iterator(dir)) files[e.path().filename()] = Read(e.path());
  return files;
}

class EventsLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("cutline-events-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs the Python example into dir_/name; its exit status.
  int Example(const std::string& name, const std::string& args) {
    const std::string command = "python3 " + kExample.string() + " --out " +
                                (dir_ / name).string() + " " + args + " > /dev/null";
    return std::system(command.c_str());
  }

  static Outcome Check(const fs::path& logs) {
    return Cutline({"check", "--logs", logs.string(), "--format", "events"});
  }

  fs::path dir_;
};

// The committed logs get, word for word, the verdicts committed beside them:
// the good run passes, each broken rule is caught with its finding.
TEST_F(EventsLogTest, EachTestdataLogGetsItsVerdict) {
  const std::map<std::string, int> status = {
      {"good", 0}, {"lost-message", 1}, {"record-after-marker", 1}};
  for (const auto& [name, expected] : status) {
    SCOPED_TRACE(name);
    Outcome o = Check(kTestdata / name);
    EXPECT_EQ(o.status, expected) << o;
    EXPECT_EQ(o.out, Read(kTestdata / (name + ".expected")));
    EXPECT_EQ(o.err, "");
  }
  const std::string lost = Read(kTestdata / "lost-message.expected");
  EXPECT_NE(lost.find("(message P2-5) in flight on P2→P3 is missing from the snapshot"),
            std::string::npos)
      << lost;
  EXPECT_NE(Read(kTestdata / "record-after-marker.expected")
                .find("FAIL snapshot 1: P1 sent its marker on P1→P2 (P1.jsonl:9) before "
                      "recording"),
            std::string::npos);
}

// `--lang ja`: the same verdict, said by the Japanese catalogue.
TEST_F(EventsLogTest, CheckLangJaSaysTheFindingsInJapanese) {
  Outcome o = Cutline({"check", "--logs", (kTestdata / "lost-message").string(), "--format",
                       "events", "--lang", "ja"});
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_NE(o.out.find("不合格 スナップショット1: チャネルP2→P3の記録は[]ですが、正しくは[$12]"
                       "です\n"),
            std::string::npos)
      << o;
  EXPECT_EQ(o.out.find("snapshot"), std::string::npos) << o;
  Outcome good = Cutline({"check", "--logs", (kTestdata / "good").string(), "--format", "events",
                          "--lang", "ja"});
  EXPECT_EQ(good.status, 0) << good;
  EXPECT_EQ(good.out.rfind("合格: ", 0), 0u) << good;
}

// The testdata are what the Python program writes: the example is real, and
// the same seed writes the same logs.
TEST_F(EventsLogTest, TheExampleProgramWritesTheTestdata) {
  const std::map<std::string, std::string> runs = {
      {"good", ""},
      {"lost-message", " --break lose-message"},
      {"record-after-marker", " --break record-after-marker"}};
  for (const auto& [name, extra] : runs) {
    SCOPED_TRACE(name);
    ASSERT_EQ(Example(name, kTestdataArgs + extra), 0);
    EXPECT_EQ(Files(dir_ / name), Files(kTestdata / name));
  }
}

// The honest implementation passes whatever the order of its steps.
TEST_F(EventsLogTest, TheExamplesSnapshotsPassOverManySeeds) {
  for (int seed = 1; seed <= 12; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed) + "; replay: python3 " + kExample.string() +
                 " --out logs --seed " + std::to_string(seed) +
                 " && cutline check --logs logs --format events");
    const std::string name = "seed" + std::to_string(seed);
    ASSERT_EQ(Example(name, "--seed " + std::to_string(seed)), 0);
    Outcome o = Check(dir_ / name);
    EXPECT_EQ(o.status, 0) << o;
    EXPECT_EQ(o.out.rfind("ok: 3 complete snapshots of 3 processes checked from ", 0), 0u) << o;
  }
}

// A line that is not what docs/logs.md says is refused before anything is
// judged: one line naming its file and line, exit 2, the logs unchanged.
TEST_F(EventsLogTest, AMalformedLineIsRefusedWithItsPlace) {
  struct Case {
    std::string file;
    int line;  // replaced; 0 appends
    std::string text;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"P1.jsonl", 1, R"({"format": "other", "version": 1})",
       R"(P1.jsonl:1: not an events log: its first line must be {"format": "cutline-events", "version": 1})"},
      {"P2.jsonl", 1, R"({"format": "cutline-events", "version": 2})",
       "P2.jsonl:1: version 2 of cutline-events is not one this cutline reads (it reads 1)"},
      {"P2.jsonl", 3, "{\"process\": \"P2\", \"kind\": \"send\"", "P2.jsonl:3: not a JSON object"},
      {"P2.jsonl", 3, R"({"kind": "send"})", R"(P2.jsonl:3: no "process")"},
      {"P2.jsonl", 3, R"({"process": "P2", "kind": "teleport"})",
       "P2.jsonl:3: kind \"teleport\" is not one of start, send, receive, record, marker-send, "
       "marker-receive, part-done"},
      {"P2.jsonl", 3, R"({"process": "P2", "kind": "send", "to": "P1", "msg": "x", "amount": -4})",
       R"(P2.jsonl:3: "amount" must be a whole number of at least 0)"},
      {"P2.jsonl", 3, R"({"process": "P2", "kind": "send", "to": "P1", "msg": [1], "amount": 4})",
       R"(P2.jsonl:3: "msg" must be a message id (a string or a whole number))"},
      {"P2.jsonl", 3, R"({"process": "P2", "kind": "record", "snapshot": 0, "state": 4})",
       R"(P2.jsonl:3: "snapshot" must be a whole number of at least 1)"},
      {"P2.jsonl", 3, R"({"process": "P2", "kind": "send", "to": "P9", "msg": "x", "amount": 1})",
       "P2.jsonl:3: P2 sends to P9, which lists no input from P2"},
      {"P2.jsonl", 3, R"({"process": "P2", "kind": "receive", "from": "P2", "msg": "x"})",
       "P2.jsonl:3: P2 receives from P2, which is not among its inputs"},
      {"P2.jsonl", 3, R"({"process": "P2", "kind": "send", "to": "P1", "msg": "P2-1", "amount": 1})",
       "P2.jsonl:4: message P2-1 is sent twice (first at P2.jsonl:3)"},
      {"P2.jsonl", 2, R"({"process": "P2", "kind": "send", "to": "P1", "msg": "y", "amount": 1})",
       "P2.jsonl:2: P2's first event must be its start"},
      {"P2.jsonl", 0, R"({"process": "P2", "kind": "start", "state": 1, "inputs": []})",
       "P2.jsonl:49: P2 starts twice"},
      {"P3.jsonl", 0, R"({"process": "P1", "kind": "record", "snapshot": 9, "state": 1})",
       "P3.jsonl:51: P1's events are also in P1.jsonl: one file per process"},
      {"P2.jsonl", 0,
       R"({"process": "P2", "kind": "part-done", "snapshot": 1, "channels": {"P7": []}})",
       "P2.jsonl:49: P2's part names a channel from P7, which is not among its inputs"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.error);
    const fs::path logs = dir_ / "logs";
    fs::remove_all(logs);
    fs::copy(kTestdata / "good", logs);
    std::vector<std::string> lines;
    {
      std::istringstream in(Read(logs / c.file));
      for (std::string l; std::getline(in, l);) lines.push_back(l);
    }
    if (c.line == 0) {
      lines.push_back(c.text);
    } else {
      lines.at(static_cast<std::size_t>(c.line - 1)) = c.text;
    }
    {
      std::ofstream out(logs / c.file, std::ios::trunc);
      for (const std::string& l : lines) out << l << "\n";
    }
    const auto before = Files(logs);
    Outcome o = Check(logs);
    EXPECT_EQ(o.status, 2) << o;
    EXPECT_EQ(o.err, "cutline: error: " + c.error + "\n");
    EXPECT_EQ(o.out, "");
    EXPECT_EQ(Files(logs), before);
  }
  // A folder with no logs at all.
  Outcome o = Check(dir_);
  EXPECT_EQ(o.status, 2) << o;
  EXPECT_EQ(o.err, "cutline: error: " + dir_.string() + " holds no .jsonl files (docs/logs.md)\n");
}

// The same refusals in Japanese: the file and its line, then what is wrong
// there, from the Japanese catalogue.
TEST_F(EventsLogTest, AMalformedLineIsRefusedInJapaneseToo) {
  const fs::path logs = dir_ / "logs";
  fs::copy(kTestdata / "good", logs);
  {
    std::ofstream out(logs / "P2.jsonl", std::ios::app);
    out << R"({"process": "P2", "kind": "start", "state": 1, "inputs": []})" << "\n";
  }
  const auto before = Files(logs);
  Outcome o = Cutline({"check", "--logs", logs.string(), "--format", "events", "--lang", "ja"});
  EXPECT_EQ(o.status, 2) << o;
  EXPECT_EQ(o.err, "cutline: error: P2.jsonl の 49 行目: P2 が2回 start しています\n");
  EXPECT_EQ(o.out, "");
  EXPECT_EQ(Files(logs), before);
  Outcome none = Cutline({"check", "--logs", dir_.string(), "--format", "events", "--lang", "ja"});
  EXPECT_EQ(none.status, 2) << none;
  EXPECT_EQ(none.err, "cutline: error: " + dir_.string() +
                          " に .jsonl ファイルがありません（docs/logs.md を参照）\n");
}

// A log that is well formed but cannot have happened is the
// implementation's fault: a finding, exit 1, not a refusal.
TEST_F(EventsLogTest, AReceiptNoSendExplainsIsAFinding) {
  const fs::path logs = dir_ / "logs";
  fs::copy(kTestdata / "good", logs);
  std::ofstream(logs / "P3.jsonl", std::ios::app)
      << R"({"process": "P3", "kind": "receive", "from": "P1", "msg": "ghost"})" << "\n";
  Outcome o = Check(logs);
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_EQ(o.out,
            "FAIL history: P3 receives message ghost (P3.jsonl:51), which no process's log "
            "sends\n");
}

}  // namespace
