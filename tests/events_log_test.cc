// `cutline check --logs DIR --format events` (docs/logs.md) on logs that
// cutline did not write: those of examples/events_log/bank_snapshots.py, a
// Chandy-Lamport implementation in Python, good and broken on purpose, and
// lines that are not what the format says, each refused with its place.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "catalogue/messages.h"
#include "check/events_log.h"
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
      {"P2.jsonl", 1, R"({"format": "cutline-events", "version": 3})",
       "P2.jsonl:1: version 3 of cutline-events is not one this cutline reads (it reads 1 to 2)"},
      {"P2.jsonl", 3, "{\"process\": \"P2\", \"kind\": \"send\"", "P2.jsonl:3: not a JSON object"},
      {"P2.jsonl", 3, R"({"kind": "send"})", R"(P2.jsonl:3: no "process")"},
      {"P2.jsonl", 3, R"({"process": "P2", "kind": "teleport"})",
       "P2.jsonl:3: kind \"teleport\" is not one of start, send, receive, record, marker-send, "
       "marker-receive, part-done (and in version 2 drop, abort, crash, restart)"},
      {"P2.jsonl", 3, R"({"process": "P2", "kind": "drop", "msg": "x"})",
       "P2.jsonl:3: kind drop is new in version 2; this file's first line says version 1"},
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
      // JSON's own rules hold on every line, however plain the rest.
      {"P2.jsonl", 3, R"({"process": "P2", "kind": "send", "to": "P1", "msg": "x", "amount": 010})",
       "P2.jsonl:3: not a JSON object"},
      {"P2.jsonl", 3, R"({"process": "P2", "kind": "send", "to": "P1", "msg": "x", "amount": 4.0})",
       R"(P2.jsonl:3: "amount" must be a whole number of at least 0)"},
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

// A file may hold several processes' events (docs/logs.md, "Files"): the
// reader then holds every line, rather than read the file through once for
// each of its processes (HoldEveryLine). The committed logs, their lines dealt into one file in turns
// (each process's in its order), get the verdicts of one file each.
TEST_F(EventsLogTest, OneFileOfEveryProcessGetsTheVerdictOfAFileEach) {
  for (const std::string name : {"good", "lost-message", "record-after-marker"}) {
    SCOPED_TRACE(name);
    std::vector<std::vector<std::string>> by_file;
    for (const auto& [file, text] : Files(kTestdata / name)) {
      std::istringstream in(text);
      by_file.emplace_back();
      std::string line;
      std::getline(in, line);  // the header: one for the whole file
      while (std::getline(in, line)) by_file.back().push_back(line);
    }
    const fs::path one = dir_ / name;
    fs::create_directories(one);
    std::ofstream out(one / "all.jsonl");
    out << R"({"format": "cutline-events", "version": 1})" << "\n";
    for (std::size_t i = 0, dealt = 1; dealt > 0; ++i) {
      dealt = 0;
      for (const std::vector<std::string>& lines : by_file) {
        if (i < lines.size()) out << lines[i] << "\n", ++dealt;
      }
    }
    out.close();
    const Outcome want = Check(kTestdata / name);
    const Outcome got = Check(one);
    EXPECT_EQ(got.status, want.status) << got;
    EXPECT_EQ(got.err, want.err);
    // Findings name a line by its file and number: those differ, the rest not.
    const std::regex place(R"([A-Za-z0-9]+\.jsonl:[0-9]+)");
    const std::string got_out = std::regex_replace(got.out, place, "FILE:LINE");
    EXPECT_EQ(got_out, std::regex_replace(want.out, place, "FILE:LINE"));
    EXPECT_NE(got_out, "");
  }
}

// A log of many processes, each in a file of its own, is judged as ever
// when the program may hold fewer files open at once than there are
// processes: reading the files again would open every one at once, so the
// reader holds such a log's lines instead (HoldEveryLine). A ring of 100
// processes, each passing $1 on and recording one snapshot, under a limit
// of 64 open files.
TEST_F(EventsLogTest, ALogOfMoreProcessesThanOpenFilesIsJudged) {
  constexpr int kProcesses = 100;
  const fs::path ring = dir_ / "ring";
  fs::create_directories(ring);
  auto name = [](int i) { return "P" + std::to_string((i + kProcesses) % kProcesses); };
  for (int i = 0; i < kProcesses; ++i) {
    const std::string me = name(i), next = name(i + 1), prev = name(i - 1);
    std::ofstream out(ring / (me + ".jsonl"));
    out << R"({"format": "cutline-events", "version": 1})" << "\n"
        << R"({"process": ")" << me << R"(", "kind": "start", "state": 10, "inputs": [")" << prev << "\"]}\n"
        << R"({"process": ")" << me << R"(", "kind": "send", "to": ")" << next << R"(", "msg": "m)" << i
        << R"(", "amount": 1})" << "\n"
        << R"({"process": ")" << me << R"(", "kind": "receive", "from": ")" << prev << R"(", "msg": "m)"
        << (i + kProcesses - 1) % kProcesses << "\"}\n"
        << R"({"process": ")" << me << R"(", "kind": "record", "snapshot": 1, "state": 10})" << "\n"
        << R"({"process": ")" << me << R"(", "kind": "marker-send", "to": ")" << next << R"(", "snapshot": 1})" << "\n"
        << R"({"process": ")" << me << R"(", "kind": "marker-receive", "from": ")" << prev << R"(", "snapshot": 1})"
        << "\n"
        << R"({"process": ")" << me << R"(", "kind": "part-done", "snapshot": 1, "channels": {")" << prev
        << "\": []}}\n";
  }
  auto few_files = [] {
    const rlimit limit{64, 64};
    return ::setrlimit(RLIMIT_NOFILE, &limit) == 0;
  };
  const Outcome o = Cutline({"check", "--logs", ring.string(), "--format", "events"}, "", std::chrono::seconds(60),
                            few_files);
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_EQ(o.out.rfind("ok: 1 complete snapshot", 0), 0u) << o;
}

// The reader reads the files twice: the first reading checks every line,
// the second feeds the judge (ReadEventsLog). A file written to in between
// is refused in one line, and nothing is judged, however it changed: a
// message id the first reading never saw (the merge's tables are sized by
// those it saw), an amount (the same bytes' count), a line cut or added,
// the header's version, the file gone. The same bytes written again are
// no change.
TEST_F(EventsLogTest, AFileChangedBetweenTheReadingsIsRefused) {
  const fs::path p1 = dir_ / "P1.jsonl";
  const std::string text = Read(kTestdata / "good" / "P1.jsonl");
  auto replaced = [&](const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.substr(0, at) + to + text.substr(at + from.size());
  };
  const std::string last_line = text.substr(text.rfind('\n', text.size() - 2) + 1);
  const std::map<std::string, std::function<void()>> changes = {
      {"a new id", [&] { std::ofstream(p1) << replaced(R"("msg": "P1-1")", R"("msg": "P1-999")"); }},
      {"an amount", [&] { std::ofstream(p1) << replaced(R"("amount": 3})", R"("amount": 4})"); }},
      {"a line cut", [&] { std::ofstream(p1) << text.substr(0, text.size() - last_line.size()); }},
      {"a line added",
       [&] { std::ofstream(p1) << text << R"({"process": "P1", "kind": "receive", "from": "P3", "msg": "P3-2"})" << "\n"; }},
      {"the version", [&] { std::ofstream(p1) << replaced(R"("version": 1)", R"("version": 2)"); }},
      {"the file gone", [&] { fs::remove(p1); }},
  };
  const std::string want_en = p1.string() + ": changed while it was read; judge it again once it is written";
  for (const auto& [what, change] : changes) {
    SCOPED_TRACE(what);
    for (const auto& [file, bytes] : Files(kTestdata / "good")) std::ofstream(dir_ / file) << bytes;
    const cutline::StatusOr<cutline::check::EventsLog> log =
        cutline::check::ReadEventsLog(dir_.string(), cutline::Lang::kEn, change);
    ASSERT_FALSE(log.ok());
    EXPECT_EQ(cutline::catalogue::Message(log.status(), cutline::Lang::kEn), want_en);
    EXPECT_EQ(cutline::catalogue::Message(log.status(), cutline::Lang::kJa),
              p1.string() + ": 読んでいる間に変わりました。書き終えてから判定し直してください");
  }
  // Unchanged, or written again byte for byte: judged as ever.
  for (const auto& [file, bytes] : Files(kTestdata / "good")) std::ofstream(dir_ / file) << bytes;
  const cutline::StatusOr<cutline::check::EventsLog> log =
      cutline::check::ReadEventsLog(dir_.string(), cutline::Lang::kEn, [&] { std::ofstream(p1) << text; });
  ASSERT_TRUE(log.ok()) << cutline::catalogue::Message(log.status(), cutline::Lang::kEn);
  EXPECT_TRUE(cutline::check::CheckEventsLog(*log).ok());
  EXPECT_GT(log->report.snapshots_checked, 0);
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

// Version 2 (docs/logs.md, "Version 2"): logs written here, by hand, one
// process a file; `lines` by file, each without the header.
void WriteVersion2(const fs::path& dir, const std::map<std::string, std::vector<std::string>>& files) {
  fs::create_directories(dir);
  for (const auto& [file, lines] : files) {
    std::ofstream out(dir / file, std::ios::trunc | std::ios::binary);
    out << R"({"format": "cutline-events", "version": 2})" << "\n";
    for (const std::string& l : lines) out << l << "\n";
  }
}

// Two processes, one snapshot whose id is a string: P1 sends $10, records,
// and both pass markers; `p2_state` is what P2 records (60 is right).
std::map<std::string, std::vector<std::string>> NamedSnapshot(int p2_state) {
  return {
      {"P1.jsonl",
       {R"({"process": "P1", "kind": "start", "state": 100, "inputs": ["P2"]})",
        R"({"process": "P1", "kind": "send", "to": "P2", "msg": "m1", "amount": 10})",
        R"({"process": "P1", "kind": "record", "snapshot": "ckpt-a", "state": 90})",
        R"({"process": "P1", "kind": "marker-send", "to": "P2", "snapshot": "ckpt-a"})",
        R"({"process": "P1", "kind": "marker-receive", "from": "P2", "snapshot": "ckpt-a"})",
        R"({"process": "P1", "kind": "part-done", "snapshot": "ckpt-a", "channels": {"P2": []}})"}},
      {"P2.jsonl",
       {R"({"process": "P2", "kind": "start", "state": 50, "inputs": ["P1"]})",
        R"({"process": "P2", "kind": "receive", "from": "P1", "msg": "m1"})",
        R"({"process": "P2", "kind": "marker-receive", "from": "P1", "snapshot": "ckpt-a"})",
        R"({"process": "P2", "kind": "record", "snapshot": "ckpt-a", "state": )" +
            std::to_string(p2_state) + "}",
        R"({"process": "P2", "kind": "marker-send", "to": "P1", "snapshot": "ckpt-a"})",
        R"({"process": "P2", "kind": "part-done", "snapshot": "ckpt-a", "channels": {"P1": []}})"}},
  };
}

// Lines written in less plain JSON read as their plain twins: an escaped
// id, a field written twice (the last one counts, as JSON readers do), a
// field of the writer's own that is no whole number, spaces and a
// carriage return. The state P2 records twice is right the second time
// only, so a reader that took the first would find the snapshot wrong.
TEST_F(EventsLogTest, LessPlainJsonReadsAsItsPlainTwin) {
  const fs::path plain = dir_ / "plain", fancy = dir_ / "fancy";
  WriteVersion2(plain, NamedSnapshot(60));
  auto files = NamedSnapshot(60);
  files["P1.jsonl"][1] =
      R"({"process": "P1", "kind": "send", "to": "P2", "msg": "m\u0031", "amount": 10, "clock": 0.5})";
  files["P2.jsonl"][1] = "  {\"process\":\"P2\",\"kind\":\"receive\",\"from\":\"P1\",\"msg\":\"m1\"} \r";
  files["P2.jsonl"][3] =
      R"({"process": "P2", "kind": "record", "snapshot": "ckpt-a", "state": 7, "state": 60})";
  WriteVersion2(fancy, files);
  Outcome want = Check(plain);
  ASSERT_EQ(want.status, 0) << want;
  Outcome got = Check(fancy);
  EXPECT_EQ(got.status, 0) << got;
  EXPECT_EQ(got.out, want.out);
  EXPECT_EQ(got.err, "");
}

TEST_F(EventsLogTest, Version2SnapshotIdsAreStringsShownAsWritten) {
  WriteVersion2(dir_ / "good", NamedSnapshot(60));
  Outcome good = Check(dir_ / "good");
  EXPECT_EQ(good.status, 0) << good;
  EXPECT_EQ(good.out,
            "ok: 1 complete snapshot of 2 processes checked from 12 logged events: consistent "
            "cuts, exact channel states, total $150 conserved\n");
  WriteVersion2(dir_ / "broken", NamedSnapshot(70));
  Outcome broken = Check(dir_ / "broken");
  EXPECT_EQ(broken.status, 1) << broken;
  EXPECT_EQ(broken.out,
            "FAIL snapshot ckpt-a: P2 recorded $70 but its balance replayed from the history at "
            "its record is $60\n"
            "FAIL snapshot ckpt-a: money is not conserved: recorded balances $160 + channel "
            "states $0 = $160, but the bank holds $150\n");
  // One snapshot's id written as a number and as a string is refused.
  auto mixed = NamedSnapshot(60);
  mixed["P2.jsonl"][5] =
      R"({"process": "P2", "kind": "part-done", "snapshot": 7, "channels": {"P1": []}})";
  mixed["P1.jsonl"][5] =
      R"({"process": "P1", "kind": "part-done", "snapshot": "7", "channels": {"P2": []}})";
  WriteVersion2(dir_ / "mixed", mixed);
  Outcome refused = Check(dir_ / "mixed");
  EXPECT_EQ(refused.status, 2) << refused;
  EXPECT_EQ(refused.err,
            "cutline: error: P2.jsonl:7: snapshot id 7 is a number in one place and a string in "
            "the other (here and at P1.jsonl:7): write each snapshot's id one way\n");
}

// A message dropped on purpose is neither lost nor in flight, and the
// receipts after it on its channel are no FIFO fault; the money it held
// is gone from every cut it was sent inside.
TEST_F(EventsLogTest, Version2ADroppedMessageIsNotLost) {
  const std::map<std::string, std::vector<std::string>> dropped = {
      {"P1.jsonl",
       {R"({"process": "P1", "kind": "start", "state": 100, "inputs": ["P2"]})",
        R"({"process": "P1", "kind": "send", "to": "P2", "msg": "m1", "amount": 10})",
        R"({"process": "P1", "kind": "send", "to": "P2", "msg": "m2", "amount": 5})",
        R"({"process": "P1", "kind": "record", "snapshot": 1, "state": 85})",
        R"({"process": "P1", "kind": "marker-send", "to": "P2", "snapshot": 1})",
        R"({"process": "P1", "kind": "marker-receive", "from": "P2", "snapshot": 1})",
        R"({"process": "P1", "kind": "part-done", "snapshot": 1, "channels": {"P2": []}})"}},
      {"P2.jsonl",
       {R"({"process": "P2", "kind": "start", "state": 50, "inputs": ["P1"]})",
        R"({"process": "P2", "kind": "drop", "msg": "m1"})",
        R"({"process": "P2", "kind": "receive", "from": "P1", "msg": "m2"})",
        R"({"process": "P2", "kind": "marker-receive", "from": "P1", "snapshot": 1})",
        R"({"process": "P2", "kind": "record", "snapshot": 1, "state": 55})",
        R"({"process": "P2", "kind": "marker-send", "to": "P1", "snapshot": 1})",
        R"({"process": "P2", "kind": "part-done", "snapshot": 1, "channels": {"P1": []}})"}},
  };
  WriteVersion2(dir_ / "dropped", dropped);
  Outcome o = Check(dir_ / "dropped");
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_EQ(o.out.rfind("ok: 1 complete snapshot of 2 processes checked from 14 logged events", 0),
            0u)
      << o;
  // Without its drop line the same message is lost, named once.
  auto lost = dropped;
  lost["P2.jsonl"].erase(lost["P2.jsonl"].begin() + 1);
  WriteVersion2(dir_ / "lost", lost);
  Outcome l = Check(dir_ / "lost");
  EXPECT_EQ(l.status, 1) << l;
  EXPECT_EQ(l.out.rfind("FAIL history: message m1 ($10) sent on P1→P2 was never received\n", 0),
            0u)
      << l;
  EXPECT_EQ(l.out.find("not FIFO"), std::string::npos) << l;
  // A message dropped and received is refused.
  auto both = dropped;
  both["P2.jsonl"][1] = R"({"process": "P2", "kind": "drop", "msg": "m2"})";
  WriteVersion2(dir_ / "both", both);
  Outcome b = Check(dir_ / "both");
  EXPECT_EQ(b.status, 2) << b;
  EXPECT_EQ(b.err,
            "cutline: error: P2.jsonl:3: message m2 is dropped here and received at "
            "P2.jsonl:4\n");
}

// An aborted snapshot is not judged and not "never completed": a note.
// When every snapshot was aborted, nothing was judged.
TEST_F(EventsLogTest, Version2AnAbortedSnapshotIsANoteNotAFinding) {
  auto logs = NamedSnapshot(60);
  logs["P1.jsonl"].push_back(R"({"process": "P1", "kind": "record", "snapshot": "ckpt-b", "state": 90})");
  logs["P1.jsonl"].push_back(
      R"({"process": "P1", "kind": "abort", "snapshot": "ckpt-b", "why": "timed out"})");
  WriteVersion2(dir_ / "aborted", logs);
  Outcome o = Check(dir_ / "aborted");
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_EQ(o.out,
            "snapshot ckpt-b was aborted by P1 (P1.jsonl:9: timed out): not judged\n"
            "ok: 1 complete snapshot of 2 processes checked from 14 logged events: consistent "
            "cuts, exact channel states, total $150 conserved\n");
  auto all = NamedSnapshot(60);
  all["P2.jsonl"].push_back(
      R"({"process": "P2", "kind": "abort", "snapshot": "ckpt-a", "why": "disk full"})");
  WriteVersion2(dir_ / "all", all);
  Outcome none = Check(dir_ / "all");
  EXPECT_EQ(none.status, 3) << none;
  EXPECT_EQ(none.out,
            "snapshot ckpt-a was aborted by P2 (P2.jsonl:8: disk full): not judged\n"
            "nothing judged: the logs of 2 processes (13 events) hold no complete snapshot\n");
  Outcome ja = Cutline({"check", "--logs", (dir_ / "all").string(), "--format", "events",
                        "--lang", "ja"});
  EXPECT_EQ(ja.out.rfind("スナップショットckpt-aはP2が中止しました（P2.jsonl:8: disk full）: "
                         "判定しません\n",
                         0),
            0u)
      << ja;
}

// Lai-Yang: sends carry their sender's epoch; a transfer of a later epoch
// makes its receiver record before it; a part-done's control counts are
// the transfers truly sent before the sender recorded. `m2_epoch` (1 is
// right), `p2_state` (53) and `expected` (1) break it.
std::map<std::string, std::vector<std::string>> LaiYang(int m2_epoch, int p2_state, int expected) {
  return {
      {"P1.jsonl",
       {R"({"process": "P1", "kind": "start", "state": 100, "inputs": ["P2"]})",
        R"({"process": "P1", "kind": "send", "to": "P2", "msg": "m1", "amount": 10, "epoch": 0})",
        R"({"process": "P1", "kind": "record", "snapshot": 1, "state": 90})",
        R"({"process": "P1", "kind": "send", "to": "P2", "msg": "m2", "amount": 5, "epoch": )" +
            std::to_string(m2_epoch) + "}",
        R"({"process": "P1", "kind": "receive", "from": "P2", "msg": "m3"})",
        R"({"process": "P1", "kind": "part-done", "snapshot": 1, "channels": {"P2": ["m3"]}, "expected": {"P2": 1}})"}},
      {"P2.jsonl",
       {R"({"process": "P2", "kind": "start", "state": 50, "inputs": ["P1"]})",
        R"({"process": "P2", "kind": "send", "to": "P1", "msg": "m3", "amount": 7, "epoch": 0})",
        R"({"process": "P2", "kind": "receive", "from": "P1", "msg": "m1"})",
        R"({"process": "P2", "kind": "receive", "from": "P1", "msg": "m2"})",
        R"({"process": "P2", "kind": "record", "snapshot": 1, "state": )" +
            std::to_string(p2_state) + "}",
        R"({"process": "P2", "kind": "part-done", "snapshot": 1, "channels": {"P1": []}, "expected": {"P1": )" +
            std::to_string(expected) + "}}"}},
  };
}

TEST_F(EventsLogTest, Version2LaiYangEpochsAndControlCounts) {
  WriteVersion2(dir_ / "good", LaiYang(1, 53, 1));
  Outcome good = Check(dir_ / "good");
  EXPECT_EQ(good.status, 0) << good;
  EXPECT_EQ(good.out.rfind("ok: 1 complete snapshot of 2 processes", 0), 0u) << good;
  WriteVersion2(dir_ / "count", LaiYang(1, 53, 2));
  Outcome count = Check(dir_ / "count");
  EXPECT_EQ(count.status, 1) << count;
  EXPECT_EQ(count.out,
            "FAIL snapshot 1: P2's part-done (P2.jsonl:7) expects 2 messages from P1, but P1 "
            "sent 1 on that channel before recording\n");
  // Recording after taking in the later epoch's $5: the state is not the cut's.
  WriteVersion2(dir_ / "late", LaiYang(1, 58, 1));
  Outcome late = Check(dir_ / "late");
  EXPECT_EQ(late.status, 1) << late;
  EXPECT_EQ(late.out.rfind("FAIL snapshot 1: P2 recorded $58 but its balance replayed from the "
                           "history at its record is $53\n",
                           0),
            0u)
      << late;
  // A wrong colour: named, and P2 then records after a message from outside the cut.
  WriteVersion2(dir_ / "colour", LaiYang(0, 58, 1));
  Outcome colour = Check(dir_ / "colour");
  EXPECT_EQ(colour.status, 1) << colour;
  EXPECT_EQ(colour.out.rfind("FAIL history: P1 sent message m2 (P1.jsonl:5) with epoch 0, but it "
                             "had recorded 1 snapshot by then\n",
                             0),
            0u)
      << colour;
  EXPECT_NE(colour.out.find("FAIL snapshot 1: inconsistent cut: $5 (message m2, P1→P2) counted "
                            "twice: P2 received it before recording, P1 sent it after recording\n"),
            std::string::npos)
      << colour;
  // A send without its epoch in a Lai-Yang log is refused.
  auto bare = LaiYang(1, 53, 1);
  bare["P2.jsonl"][1] = R"({"process": "P2", "kind": "send", "to": "P1", "msg": "m3", "amount": 7})";
  WriteVersion2(dir_ / "bare", bare);
  Outcome refused = Check(dir_ / "bare");
  EXPECT_EQ(refused.status, 2) << refused;
  EXPECT_EQ(refused.err.rfind("cutline: error: P2.jsonl:3: this send carries no \"epoch\"", 0), 0u)
      << refused;
}

// Barriers (P1 and P2 feed P3): aligned, P3 records once both have come;
// unaligned, at the first, and the barrier from P2 overtakes P2's $5, which
// P3's part-done lists as that channel's state.
std::map<std::string, std::vector<std::string>> Barriers(const std::vector<std::string>& p3) {
  return {
      {"P1.jsonl",
       {R"({"process": "P1", "kind": "start", "state": 100, "inputs": []})",
        R"({"process": "P1", "kind": "record", "snapshot": 1, "state": 100})",
        R"({"process": "P1", "kind": "marker-send", "to": "P3", "snapshot": 1})",
        R"({"process": "P1", "kind": "send", "to": "P3", "msg": "m1", "amount": 10})",
        R"({"process": "P1", "kind": "part-done", "snapshot": 1, "channels": {}})"}},
      {"P2.jsonl",
       {R"({"process": "P2", "kind": "start", "state": 50, "inputs": []})",
        R"({"process": "P2", "kind": "send", "to": "P3", "msg": "m2", "amount": 5})",
        R"({"process": "P2", "kind": "record", "snapshot": 1, "state": 45})",
        R"({"process": "P2", "kind": "marker-send", "to": "P3", "snapshot": 1})",
        R"({"process": "P2", "kind": "part-done", "snapshot": 1, "channels": {}})"}},
      {"P3.jsonl", p3},
  };
}

TEST_F(EventsLogTest, Version2AlignedAndUnalignedBarriers) {
  const std::string start = R"({"process": "P3", "kind": "start", "state": 0, "inputs": ["P1", "P2"]})";
  const std::string aligned = R"({"process": "P3", "kind": "start", "state": 0, "inputs": ["P1", "P2"], "aligned": true})";
  const std::vector<std::string> aligned_p3 = {
      aligned,
      R"({"process": "P3", "kind": "marker-receive", "from": "P1", "snapshot": 1})",
      R"({"process": "P3", "kind": "receive", "from": "P2", "msg": "m2"})",
      R"({"process": "P3", "kind": "marker-receive", "from": "P2", "snapshot": 1})",
      R"({"process": "P3", "kind": "record", "snapshot": 1, "state": 5})",
      R"({"process": "P3", "kind": "part-done", "snapshot": 1, "channels": {"P1": [], "P2": []}})",
      R"({"process": "P3", "kind": "receive", "from": "P1", "msg": "m1"})"};
  WriteVersion2(dir_ / "aligned", Barriers(aligned_p3));
  Outcome o = Check(dir_ / "aligned");
  EXPECT_EQ(o.status, 0) << o;
  // The same log without "aligned": Chandy-Lamport's rules, under which the
  // barrier from P1 crossed P3's cut.
  auto plain = aligned_p3;
  plain[0] = start;
  WriteVersion2(dir_ / "plain", Barriers(plain));
  Outcome p = Check(dir_ / "plain");
  EXPECT_EQ(p.status, 1) << p;
  EXPECT_EQ(p.out,
            "FAIL snapshot 1: inconsistent cut: P3 recorded the receipt of message P1.jsonl:4 "
            "(marker of snapshot 1 from P1) but P1 recorded before sending it\n");

  const std::vector<std::string> unaligned_p3 = {
      R"({"process": "P3", "kind": "start", "state": 0, "inputs": ["P1", "P2"], "aligned": false})",
      R"({"process": "P3", "kind": "marker-receive", "from": "P1", "snapshot": 1})",
      R"({"process": "P3", "kind": "record", "snapshot": 1, "state": 0})",
      R"({"process": "P3", "kind": "marker-receive", "from": "P2", "snapshot": 1})",
      R"({"process": "P3", "kind": "part-done", "snapshot": 1, "channels": {"P1": [], "P2": ["m2"]}})",
      R"({"process": "P3", "kind": "receive", "from": "P2", "msg": "m2"})",
      R"({"process": "P3", "kind": "receive", "from": "P1", "msg": "m1"})"};
  WriteVersion2(dir_ / "unaligned", Barriers(unaligned_p3));
  Outcome u = Check(dir_ / "unaligned");
  EXPECT_EQ(u.status, 0) << u;
  EXPECT_EQ(u.out.find("FIFO"), std::string::npos) << u;
  // Its part-done leaves out the record the barrier overtook.
  auto forgot = unaligned_p3;
  forgot[4] = R"({"process": "P3", "kind": "part-done", "snapshot": 1, "channels": {"P1": [], "P2": []}})";
  WriteVersion2(dir_ / "forgot", Barriers(forgot));
  Outcome f = Check(dir_ / "forgot");
  EXPECT_EQ(f.status, 1) << f;
  EXPECT_EQ(f.out.rfind("FAIL snapshot 1: channel P2→P3 recorded [] but expected [$5]\n", 0), 0u)
      << f;
}

// A process that crashes and restarts from a snapshot: its restored state
// must be what that snapshot recorded for it; what was in flight to it and
// never arrives was lost by the crash (not by the program); a snapshot it
// had not finished is cut short, a note.
std::map<std::string, std::vector<std::string>> Crash(int restored) {
  return {
      {"P1.jsonl",
       {R"({"process": "P1", "kind": "start", "state": 100, "inputs": ["P2"]})",
        R"({"process": "P1", "kind": "send", "to": "P2", "msg": "m1", "amount": 10})",
        R"({"process": "P1", "kind": "record", "snapshot": 1, "state": 90})",
        R"({"process": "P1", "kind": "marker-send", "to": "P2", "snapshot": 1})",
        R"({"process": "P1", "kind": "marker-receive", "from": "P2", "snapshot": 1})",
        R"({"process": "P1", "kind": "part-done", "snapshot": 1, "channels": {"P2": []}})",
        R"({"process": "P1", "kind": "send", "to": "P2", "msg": "m5", "amount": 20})",
        R"({"process": "P1", "kind": "record", "snapshot": 2, "state": 70})",
        R"({"process": "P1", "kind": "marker-send", "to": "P2", "snapshot": 2})",
        R"({"process": "P1", "kind": "send", "to": "P2", "msg": "m6", "amount": 4})",
        R"({"process": "P1", "kind": "send", "to": "P2", "msg": "m7", "amount": 3})",
        R"({"process": "P1", "kind": "record", "snapshot": 3, "state": 63})",
        R"({"process": "P1", "kind": "marker-send", "to": "P2", "snapshot": 3})",
        R"({"process": "P1", "kind": "marker-receive", "from": "P2", "snapshot": 3})",
        R"({"process": "P1", "kind": "part-done", "snapshot": 3, "channels": {"P2": []}})"}},
      {"P2.jsonl",
       {R"({"process": "P2", "kind": "start", "state": 50, "inputs": ["P1"]})",
        R"({"process": "P2", "kind": "receive", "from": "P1", "msg": "m1"})",
        R"({"process": "P2", "kind": "marker-receive", "from": "P1", "snapshot": 1})",
        R"({"process": "P2", "kind": "record", "snapshot": 1, "state": 60})",
        R"({"process": "P2", "kind": "marker-send", "to": "P1", "snapshot": 1})",
        R"({"process": "P2", "kind": "part-done", "snapshot": 1, "channels": {"P1": []}})",
        R"({"process": "P2", "kind": "receive", "from": "P1", "msg": "m5"})",
        R"({"process": "P2", "kind": "marker-receive", "from": "P1", "snapshot": 2})",
        R"({"process": "P2", "kind": "record", "snapshot": 2, "state": 80})",
        R"({"process": "P2", "kind": "crash"})",
        R"({"process": "P2", "kind": "restart", "snapshot": 1, "state": )" +
            std::to_string(restored) + "}",
        R"({"process": "P2", "kind": "receive", "from": "P1", "msg": "m7"})",
        R"({"process": "P2", "kind": "marker-receive", "from": "P1", "snapshot": 3})",
        R"({"process": "P2", "kind": "record", "snapshot": 3, "state": )" +
            std::to_string(restored + 3) + "}",
        R"({"process": "P2", "kind": "marker-send", "to": "P1", "snapshot": 3})",
        R"({"process": "P2", "kind": "part-done", "snapshot": 3, "channels": {"P1": []}})"}},
  };
}

// m6 ($4), in flight to P2 when it crashed, is lost by the crash: neither
// "never received" nor missing from snapshot 3, whose total lacks it and
// the $20 P2 held beyond what it restored.
TEST_F(EventsLogTest, Version2ACrashAndARestartFromASnapshot) {
  WriteVersion2(dir_ / "good", Crash(60));
  Outcome good = Check(dir_ / "good");
  EXPECT_EQ(good.status, 0) << good;
  EXPECT_EQ(good.out,
            "snapshot 2 was cut short by P2's crash (P2.jsonl:11): not judged\n"
            "ok: 2 complete snapshots of 2 processes checked from 31 logged events: consistent "
            "cuts, exact channel states, total $150 conserved\n");
  WriteVersion2(dir_ / "wrong", Crash(70));
  Outcome wrong = Check(dir_ / "wrong");
  EXPECT_EQ(wrong.status, 1) << wrong;
  EXPECT_EQ(wrong.out.rfind("FAIL history: P2 restarted (P2.jsonl:12) with $70 from snapshot 1, "
                            "which recorded $60 for it\n",
                            0),
            0u)
      << wrong;
  // An event between a crash and its restart is refused.
  auto busy = Crash(60);
  busy["P2.jsonl"].insert(busy["P2.jsonl"].begin() + 10,
                          R"({"process": "P2", "kind": "record", "snapshot": 4, "state": 1})");
  WriteVersion2(dir_ / "busy", busy);
  Outcome b = Check(dir_ / "busy");
  EXPECT_EQ(b.status, 2) << b;
  EXPECT_EQ(b.err,
            "cutline: error: P2.jsonl:12: P2 logs an event after its crash: its next event must "
            "be its restart\n");
}

}  // namespace
