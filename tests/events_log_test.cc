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
      {"P2.jsonl", 0,
       R"({"process": "P2", "kind": "part-done", "snapshot": 1, "channels": {"P1": []}})",
       "P2.jsonl:49: P2's part-done of snapshot 1 lists no channel from P3: every input must be "
       "listed, [] when it recorded nothing"},
      {"P1.jsonl", 2, R"({"process": "P1", "kind": "start", "state": -5, "inputs": ["P2", "P3"]})",
       R"(P1.jsonl:2: "state" must be a whole number of at least 0)"},
      {"P2.jsonl", 0, R"({"process": "P2", "pad": ")" + std::string(1 << 20, 'x') + "\"}",
       "P2.jsonl:49: the line is longer than 1048576 bytes, the most an events log's line may "
       "hold"},
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

// A file with no header line, and one message's id written once as a
// number and once as a string, are refused like any line (docs/logs.md).
TEST_F(EventsLogTest, AnEmptyFileAndAnIdWrittenTwoWaysAreRefused) {
  const fs::path logs = dir_ / "logs";
  fs::copy(kTestdata / "good", logs);
  std::ofstream(logs / "P4.jsonl", std::ios::binary).flush();
  Outcome empty = Check(logs);
  EXPECT_EQ(empty.status, 2) << empty;
  EXPECT_EQ(empty.err,
            "cutline: error: P4.jsonl:1: the file is empty: an events log's first line must be "
            "{\"format\": \"cutline-events\", \"version\": 1}\n");
  Outcome ja = Cutline({"check", "--logs", logs.string(), "--format", "events", "--lang", "ja"});
  EXPECT_EQ(ja.status, 2) << ja;
  EXPECT_EQ(ja.err.rfind("cutline: error: P4.jsonl の 1 行目: ファイルが空です", 0), 0u) << ja;
  fs::remove(logs / "P4.jsonl");

  std::ofstream(logs / "P2.jsonl", std::ios::app)
      << R"({"process": "P2", "kind": "send", "to": "P1", "msg": 77, "amount": 1})" << "\n";
  std::ofstream(logs / "P1.jsonl", std::ios::app)
      << R"({"process": "P1", "kind": "receive", "from": "P2", "msg": "77"})" << "\n";
  Outcome mixed = Check(logs);
  EXPECT_EQ(mixed.status, 2) << mixed;
  EXPECT_EQ(mixed.err,
            "cutline: error: P2.jsonl:49: message id 77 is a number in one place and a string in "
            "the other (here and at P1.jsonl:51): write each message's id one way\n");
}

// Logs in which no snapshot completes are not an "ok": nothing was judged
// (exit 3), and each snapshot begun is named with the processes that never
// finished it. Beside complete ones, a snapshot never finished is a finding.
TEST_F(EventsLogTest, NoCompleteSnapshotIsNothingJudgedAndAnUnfinishedOneIsNamed) {
  const fs::path logs = dir_ / "logs";
  fs::create_directories(logs);
  const std::string header = R"({"format": "cutline-events", "version": 1})" "\n";
  std::ofstream(logs / "P1.jsonl", std::ios::binary)
      << header << R"({"process": "P1", "kind": "start", "state": 100, "inputs": ["P2"]})" "\n"
      << R"({"process": "P1", "kind": "record", "snapshot": 1, "state": 100})" "\n"
      << R"({"process": "P1", "kind": "marker-send", "to": "P2", "snapshot": 1})" "\n";
  std::ofstream(logs / "P2.jsonl", std::ios::binary)
      << header << R"({"process": "P2", "kind": "start", "state": 50, "inputs": ["P1"]})" "\n"
      << R"({"process": "P2", "kind": "marker-receive", "from": "P1", "snapshot": 1})" "\n"
      << R"({"process": "P2", "kind": "record", "snapshot": 1, "state": 50})" "\n"
      << R"({"process": "P2", "kind": "part-done", "snapshot": 1, "channels": {"P1": []}})" "\n";
  Outcome o = Check(logs);
  EXPECT_EQ(o.status, 3) << o;
  EXPECT_EQ(o.out,
            "snapshot 1 never completed: P1 logged no part-done\n"
            "nothing judged: the logs of 2 processes (7 events) hold no complete snapshot\n");
  EXPECT_EQ(o.err, "");
  Outcome ja = Cutline({"check", "--logs", logs.string(), "--format", "events", "--lang", "ja"});
  EXPECT_EQ(ja.status, 3) << ja;
  EXPECT_EQ(ja.out,
            "スナップショット1は完了しませんでした: P1がpart-doneをログに書いていません\n"
            "判定したものはありません: 2プロセスのログ（イベント7件）に完了したスナップショットが"
            "ありません\n");

  const fs::path more = dir_ / "more";
  fs::copy(kTestdata / "good", more);
  std::ofstream(more / "P1.jsonl", std::ios::app)
      << R"({"process": "P1", "kind": "record", "snapshot": 3, "state": 97})" << "\n";
  Outcome some = Check(more);
  EXPECT_EQ(some.status, 1) << some;
  EXPECT_EQ(some.out, "FAIL snapshot 3 never completed: P1, P2 and P3 logged no part-done\n");
}

// A message sent and never received, which later messages on its channel
// overtook, is named lost once, not as a FIFO fault at every later receipt;
// two messages received in the opposite order of sending still are one.
TEST_F(EventsLogTest, ALostMessageIsNamedOnceAndARealFifoFaultStill) {
  auto lines_of = [](const fs::path& p) {
    std::vector<std::string> lines;
    std::istringstream in(Read(p));
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
  };
  auto write = [](const fs::path& p, const std::vector<std::string>& lines) {
    std::ofstream out(p, std::ios::trunc | std::ios::binary);
    for (const std::string& l : lines) out << l << "\n";
  };
  auto count = [](const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  const fs::path lost = dir_ / "lost";
  fs::copy(kTestdata / "good", lost);
  std::vector<std::string> p1 = lines_of(lost / "P1.jsonl");
  ASSERT_EQ(p1.at(4), R"({"process": "P1", "kind": "receive", "from": "P3", "msg": "P3-2"})");
  p1.erase(p1.begin() + 4);  // P3-2 never arrives; P3-4 and later ones do
  write(lost / "P1.jsonl", p1);
  Outcome o = Check(lost);
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_EQ(count(o.out, "FAIL history: message P3-2 ($29) sent on P3→P1 was never received\n"),
            1u)
      << o;
  EXPECT_EQ(count(o.out, "not FIFO"), 0u) << o;

  const fs::path swapped = dir_ / "swapped";
  fs::copy(kTestdata / "good", swapped);
  p1 = lines_of(swapped / "P1.jsonl");
  std::swap(p1.at(4), p1.at(6));  // P3-4 received before P3-2
  write(swapped / "P1.jsonl", p1);
  Outcome fifo = Check(swapped);
  EXPECT_EQ(fifo.status, 1) << fifo;
  EXPECT_EQ(count(fifo.out, "FAIL history: channel P3→P1 is not FIFO: message P3-4"), 1u) << fifo;
  EXPECT_EQ(count(fifo.out, "never received"), 0u) << fifo;
}

// A part-done logged before a marker of its snapshot came on every input,
// and a send that takes more than its process holds, are findings.
TEST_F(EventsLogTest, AnEarlyPartDoneAndAnOverdraftAreFindings) {
  const fs::path early = dir_ / "early";
  fs::copy(kTestdata / "good", early);
  std::vector<std::string> p2;
  {
    std::istringstream in(Read(early / "P2.jsonl"));
    for (std::string l; std::getline(in, l);) p2.push_back(l);
  }
  ASSERT_NE(p2.at(20).find("\"part-done\", \"snapshot\": 1"), std::string::npos);
  std::swap(p2.at(19), p2.at(20));  // the part-done before the marker from P3
  {
    std::ofstream out(early / "P2.jsonl", std::ios::trunc | std::ios::binary);
    for (const std::string& l : p2) out << l << "\n";
  }
  Outcome o = Check(early);
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_NE(o.out.find("FAIL snapshot 1: P2 logged its part-done (P2.jsonl:20) before the marker "
                       "from P3 arrived: its channel from P3 could not be closed yet\n"),
            std::string::npos)
      << o;

  const fs::path poor = dir_ / "poor";
  fs::copy(kTestdata / "good", poor);
  std::string p1 = Read(poor / "P1.jsonl");
  const std::string start = R"("kind": "start", "state": 100,)";
  ASSERT_NE(p1.find(start), std::string::npos);
  p1.replace(p1.find(start), start.size(), R"("kind": "start", "state": 0,)");
  std::ofstream(poor / "P1.jsonl", std::ios::trunc | std::ios::binary) << p1;
  Outcome od = Check(poor);
  EXPECT_EQ(od.status, 1) << od;
  EXPECT_EQ(od.out.rfind("FAIL history: P1 sent $3 (message P1-1, P1.jsonl:3) holding only $0: "
                         "its state went below 0\n",
                         0),
            0u)
      << od;
  EXPECT_EQ(od.out.find("below 0", od.out.find("below 0") + 1), std::string::npos) << od;
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
