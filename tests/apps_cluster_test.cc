// jobs and locks on real ranks (`cutline cluster --app`): every run ends at
// the first snapshot that finds its property, and that snapshot is never
// early. "Early" is judged from the ranks' own logs, not from what the
// coordinator says: after a rank recorded its state for the detecting
// snapshot, its log must show nothing that the property forbids (a job
// worked, handed out or received; a branch on the cycle asking again or
// being granted). Each test runs several seeds; a failure prints the seed
// and the command that replays it.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_cutline.h"

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

class AppsClusterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("cutline_apps_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

// Every line of every rank's log, by rank.
std::vector<std::vector<json>> ReadLogs(const fs::path& dir, int ranks) {
  std::vector<std::vector<json>> logs(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    std::ifstream in(dir / fmt::format("rank-{}.jsonl", r));
    for (std::string line; std::getline(in, line);) {
      logs[static_cast<std::size_t>(r)].push_back(json::parse(line));
    }
  }
  return logs;
}

// The lines of `log` after its record for snapshot `id` (none if it never
// recorded: then the test fails on that).
std::vector<json> AfterRecord(const std::vector<json>& log, std::uint64_t id) {
  for (std::size_t i = 0; i < log.size(); ++i) {
    if (log[i]["e"] == "record" && log[i]["snapshot"] == id) {
      return std::vector<json>(log.begin() + static_cast<std::ptrdiff_t>(i) + 1, log.end());
    }
  }
  ADD_FAILURE() << "no record of snapshot " << id;
  return {};
}

struct AppRun {
  Outcome outcome;
  json summary;  // the --json summary
  std::vector<std::string> command;
  std::string Replay() const { return fmt::format("cutline {}", fmt::join(command, " ")); }
};

AppRun RunApp(const std::string& app, int ranks, int seed, const fs::path& logs) {
  AppRun run;
  run.command = {"cluster",  "--app",    app,  "--ranks", std::to_string(ranks),
                 "--seed",   std::to_string(seed), "--snapshot-every", "5ms",
                 "--duration", "20s", "--log-dir", logs.string(), "--json"};
  run.outcome = Cutline(run.command, "", std::chrono::seconds(60));
  run.summary = json::parse(run.outcome.out, nullptr, false);
  return run;
}

// What the run and `cutline check --logs` must say of any run that found its
// property. Returns the detecting snapshot's id (0 if there was none).
std::uint64_t ExpectDetectedAndChecked(const AppRun& run, const fs::path& logs) {
  EXPECT_EQ(run.outcome.status, 0) << run.Replay() << "\n" << run.outcome;
  if (!run.summary.is_object() || !run.summary.contains("property")) {
    ADD_FAILURE() << run.Replay() << "\n" << run.outcome;
    return 0;
  }
  const json& p = run.summary["property"];
  if (p["detected_by"].is_null()) {
    ADD_FAILURE() << "never detected: " << run.Replay() << "\n" << p.dump();
    return 0;
  }
  // From the ranks' clocks: it became true, and no sooner than declared.
  EXPECT_FALSE(p["true_us"].is_null()) << run.Replay() << "\n" << p.dump();
  EXPECT_FALSE(p["early"].get<bool>()) << run.Replay() << "\n" << p.dump();
  EXPECT_GE(p["delay_us"].get<std::int64_t>(), 0) << run.Replay();
  Outcome check = Cutline({"check", "--logs", logs.string()});
  EXPECT_EQ(check.status, 0) << run.Replay() << "\n" << check;
  // The detecting snapshot, and any that was running then and completed.
  std::smatch m;
  EXPECT_TRUE(std::regex_search(check.out, m, std::regex(R"(\((\d+) holding\))")) &&
              std::stoi(m[1]) >= 1)
      << run.Replay() << "\n" << check;
  return p["detected_by"].get<std::uint64_t>();
}

// Rank 0's logged verdict on snapshot `id`.
json VerdictOf(const std::vector<std::vector<json>>& logs, std::uint64_t id) {
  for (const json& line : logs.at(0)) {
    if (line["e"] == "verdict" && line["snapshot"] == id) return line;
  }
  return nullptr;
}

// A run that found its property: the run, every rank's log, and rank 0's
// logged verdict on the detecting snapshot `id`, which must hold.
struct Detected {
  AppRun run;
  std::vector<std::vector<json>> lines;
  json verdict;
  std::uint64_t id = 0;
};

// Runs `app` with `seed` and checks what every such run must show; nothing
// (and a failure) if it found no property.
std::optional<Detected> RunAndDetect(const std::string& app, int ranks, int seed,
                                     const fs::path& dir) {
  const fs::path logs = dir / fmt::format("{}-{}", app, seed);
  Detected d;
  d.run = RunApp(app, ranks, seed, logs);
  SCOPED_TRACE(fmt::format("seed {}: {}", seed, d.run.Replay()));
  d.id = ExpectDetectedAndChecked(d.run, logs);
  if (d.id == 0) return std::nullopt;
  d.lines = ReadLogs(logs, ranks);
  d.verdict = VerdictOf(d.lines, d.id);
  if (!d.verdict.is_object()) {
    ADD_FAILURE() << "rank 0 logged no verdict on snapshot " << d.id;
    return std::nullopt;
  }
  EXPECT_TRUE(d.verdict["holds"].get<bool>());
  return d;
}

TEST_F(AppsClusterTest, AJobsRunAlwaysTerminatesAndIsNeverDeclaredEarly) {
  for (int seed = 1; seed <= 6; ++seed) {
    const int ranks = 2 + seed % 3;
    std::optional<Detected> d = RunAndDetect("jobs", ranks, seed, dir_);
    if (!d) continue;
    SCOPED_TRACE(fmt::format("seed {}: {}", seed, d->run.Replay()));
    // From the logs: once each rank recorded for that snapshot, no job was
    // ever worked, handed out or received again anywhere.
    for (int r = 0; r < ranks; ++r) {
      for (const json& line : AfterRecord(d->lines[static_cast<std::size_t>(r)], d->id)) {
        EXPECT_TRUE(line["e"] != "local" && line["e"] != "send" && line["e"] != "receive")
            << "rank " << r << " worked after the cut of snapshot " << d->id << ": "
            << line.dump();
      }
    }
  }
}

TEST_F(AppsClusterTest, ALocksRunsDetectedCycleIsRealByTheLogs) {
  for (int seed = 1; seed <= 6; ++seed) {
    const int ranks = 3 + seed % 2;
    std::optional<Detected> d = RunAndDetect("locks", ranks, seed, dir_);
    if (!d) continue;
    SCOPED_TRACE(fmt::format("seed {}: {}", seed, d->run.Replay()));
    const std::uint64_t id = d->id;
    const json& verdict = d->verdict;
    const auto& lines = d->lines;
    const AppRun& run = d->run;
    std::vector<std::string> cycle;
    for (const json& b : verdict["branches"]) cycle.push_back(fmt::format("N{}", b.get<int>()));
    EXPECT_GE(cycle.size(), 2u);
    EXPECT_EQ(run.summary["property"]["cycle"].get<std::vector<std::string>>(), cycle);
    // From the logs: each branch on the cycle last asked the next one, and
    // after recording for that snapshot it never asked again nor was granted.
    const auto& members = verdict["branches"];
    for (std::size_t i = 0; i < members.size(); ++i) {
      const int b = members[i].get<int>();
      const int next = members[(i + 1) % members.size()].get<int>();
      const auto& log = lines[static_cast<std::size_t>(b)];
      int asked = -1;
      for (const json& line : log) {
        if (line["e"] == "send" && line["amount"] == 1) asked = line["to"].get<int>();
      }
      EXPECT_EQ(asked, next) << "N" << b << " does not wait for N" << next;
      for (const json& line : AfterRecord(log, id)) {
        const bool request = line["e"] == "send" && line["amount"] == 1;
        const bool grant = line["e"] == "receive" && line["amount"] == 2;
        EXPECT_FALSE(request || grant)
            << "N" << b << " moved after the cut of snapshot " << id << ": " << line.dump();
      }
    }
  }
}

// Stopping the world detects termination too (its snapshots drain every
// channel, so a job in flight is never missed); its logs hold no cut, so
// `check --logs` checks each declaration only for stability.
TEST_F(AppsClusterTest, StopTheWorldDetectsTerminationToo) {
  for (int seed = 1; seed <= 2; ++seed) {
    const fs::path logs = dir_ / fmt::format("stw-{}", seed);
    std::vector<std::string> args = {"cluster", "--app", "jobs", "--ranks", "3", "--seed",
                                     std::to_string(seed), "--algorithm", "stop-the-world",
                                     "--snapshot-every", "5ms", "--duration", "20s",
                                     "--log-dir", logs.string(), "--json"};
    SCOPED_TRACE(fmt::format("cutline {}", fmt::join(args, " ")));
    Outcome o = Cutline(args);
    ASSERT_EQ(o.status, 0) << o;
    const json p = json::parse(o.out)["property"];
    EXPECT_FALSE(p["detected_by"].is_null()) << p.dump();
    EXPECT_FALSE(p["early"].get<bool>()) << p.dump();
    Outcome check = Cutline({"check", "--logs", logs.string()});
    EXPECT_EQ(check.status, 0) << check;
    EXPECT_NE(check.out.find("checked for stability only"), std::string::npos) << check;
  }
}

// The store keeps a run's application and each snapshot's verdict; a bank
// run cannot restore from a jobs snapshot, and the refusal changes nothing.
TEST_F(AppsClusterTest, TheStoreKeepsTheVerdictsAndRefusesToRestoreThem) {
  const std::string store = (dir_ / "jobs.db").string();
  Outcome o = Cutline({"cluster", "--app", "jobs", "--ranks", "3", "--snapshot-every", "5ms",
                       "--duration", "20s", "--store", store, "--json"});
  ASSERT_EQ(o.status, 0) << o;
  const json summary = json::parse(o.out);
  const auto id = summary["property"]["detected_by"].get<std::uint64_t>();
  Outcome list = Cutline({"store", "list", store, "--json"});
  ASSERT_EQ(list.status, 0) << list;
  EXPECT_EQ(json::parse(list.out)["runs"][0]["app"], "jobs");
  Outcome show = Cutline({"store", "show", store, std::to_string(id), "--json"});
  ASSERT_EQ(show.status, 0) << show;
  EXPECT_EQ(json::parse(show.out)["property"], (json{{"terminated", true}, {"why", nullptr}}));
  // In the application's words, as run --json writes them: job counts, and
  // the kinds of the recorded messages (none: it terminated).
  const json shown = json::parse(show.out);
  for (const json& r : shown["recorded"]) {
    EXPECT_EQ(r["jobs"], 0) << r;
    EXPECT_FALSE(r.contains("balance")) << r;
  }
  for (const json& c : shown["channels"]) EXPECT_EQ(c["messages"], json::array()) << c;
  // The listing names each verdict; the text too, in place of a total.
  const json listed = json::parse(list.out)["snapshots"];
  const auto detected = std::find_if(listed.begin(), listed.end(),
                                     [&](const json& s) { return s["id"] == id; });
  ASSERT_NE(detected, listed.end());
  EXPECT_EQ((*detected)["property"]["terminated"], true);
  Outcome text = Cutline({"store", "list", store});
  EXPECT_NE(text.out.find("app=jobs"), std::string::npos) << text;
  EXPECT_NE(text.out.find("  terminated\n"), std::string::npos) << text;
  // The verdicts have a column of their own, named in the header.
  const std::size_t header = text.out.find("snapshot   run  status    initiator         total  latency ");
  ASSERT_NE(header, std::string::npos) << text;
  EXPECT_EQ(text.out.substr(text.out.find('\n', header) - 9, 9), "  verdict") << text;
  Outcome shown_text = Cutline({"store", "show", store, std::to_string(id)});
  EXPECT_NE(shown_text.out.find("it says: terminated\nrecorded states: N0 no job, N1 no job, N2 no job\n"),
            std::string::npos)
      << shown_text;
  if (id > 1) {
    Outcome before = Cutline({"store", "show", store, "1", "--json"});
    EXPECT_EQ(json::parse(before.out)["property"]["terminated"], false) << before;
  }
  Outcome verify = Cutline({"store", "verify", store});
  EXPECT_EQ(verify.status, 0) << verify;

  const std::string bytes = [&] {
    std::ifstream in(store, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  Outcome restore = Cutline({"cluster", "--ranks", "3", "--store", store, "--restore"});
  EXPECT_EQ(restore.status, 2) << restore;
  EXPECT_NE(restore.err.find("is of a jobs run: only a bank's or a dataflow's snapshot can be restored"),
            std::string::npos)
      << restore;
  std::ifstream in(store, std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), bytes);
}

TEST_F(AppsClusterTest, BadAppFlagsAreOneLineAndExitTwo) {
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const Case cases[] = {
      {{"--app", "chess"}, "--app: 'chess' is not an application (bank, jobs, locks, dataflow)"},
      {{"--app", "jobs", "--restore"}, "--restore is for --app bank, not --app jobs"},
      {{"--app", "locks", "--balance", "5"},
       "--balance is for --app bank, not --app locks"},
      {{"--app", "jobs", "--rate", "max"}, "--rate is for --app bank, not --app jobs"},
      {{"--app", "locks", "--jobs", "3"}, "--jobs is for --app jobs, not --app locks"},
      {{"--jobs", "3"}, "--jobs is for --app jobs, not --app bank"},
      {{"--app", "jobs", "--jobs", "0"}, "--jobs"},
      // In Japanese (--lang ja): the same refusal, the names kept.
      {{"--app", "chess", "--lang", "ja"},
       "--app: 'chess' はアプリケーションではありません（bank, jobs, locks, dataflow）"},
      {{"--app", "locks", "--jobs", "3", "--lang", "ja"},
       "--jobs は --app jobs 用で、--app locks には使えません"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"cluster", "--ranks", "2", "--duration", "1s"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    ExpectRefusedInOneLine(args, c.says);
  }
}

}  // namespace
