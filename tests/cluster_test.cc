// The runtime with real processes: `cutline cluster` starts mpirun, whose
// ranks are real `cutline node` processes exchanging real MPI messages. The
// tests assert what must hold however fast the machine is (a slow machine
// takes fewer snapshots, never a wrong one).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <cstdlib>
#include <iostream>
#include <random>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include <sched.h>
#include <sqlite3.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "raw_http.h"
#include "run_cutline.h"
#include "runtime/protocol.h"
#include "catalogue/messages.h"
#include "store/store.h"
#include "store/writer_lock.h"
#include "store/summary.h"

namespace {

using namespace std::chrono_literals;
using nlohmann::json;
namespace fs = std::filesystem;
using cutline::StatusOr;

// A refusal as a user reads it (the catalogue's English line); "" for ok.
std::string Said(const cutline::Status& s) {
  return s.ok() ? "" : cutline::catalogue::Message(s, cutline::Lang::kEn);
}

std::string Bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A fresh folder per test, removed at the end.
class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("cutline_cluster_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    store_ = (dir_ / "bank.db").string();
  }
  void TearDown() override { fs::remove_all(dir_); }
  json List() {
    Outcome o = Cutline({"store", "list", store_, "--json"});
    EXPECT_EQ(o.status, 0) << o;
    return json::parse(o.out, nullptr, false);
  }
  fs::path dir_;
  std::string store_;
};

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

// A run that ended normally with every snapshot and the final balances
// adding up to `total`.
void ExpectAddsUp(const Outcome& o, long total) {
  ASSERT_TRUE(o.exited) << o;
  EXPECT_EQ(o.status, 0) << o;
  Summary s = Parse(o.out);
  EXPECT_EQ(s.wrong, 0) << o;
  EXPECT_EQ(s.bank_total, total) << o;
  EXPECT_EQ(s.final_total, total) << o;
}

// Bad input: status 2, nothing on standard output, one line on standard
// error naming `mentions`.
void ExpectOneLineRefusal(const Outcome& o, const std::vector<std::string>& args,
                          const std::string& mentions) {
  std::string cmd;
  for (const auto& a : args) cmd += a + " ";
  EXPECT_TRUE(o.exited) << cmd << o;
  EXPECT_EQ(o.status, 2) << cmd << o;
  EXPECT_EQ(o.out, "") << cmd << o;
  EXPECT_EQ(Lines(o.err), 1u) << cmd << o;
  EXPECT_EQ(o.err.rfind("cutline: error: ", 0), 0u) << cmd << o;
  EXPECT_TRUE(Contains(o.err, mentions)) << cmd << o;
}
void ExpectRefused(const std::vector<std::string>& args, const std::string& mentions) {
  ExpectOneLineRefusal(Cluster(args), args, mentions);
}

TEST(ClusterTest, SnapshotsWhileTransfersFlowAllAddUp) {
  for (const char* algorithm : {"chandy-lamport", "stop-the-world"}) {
    SCOPED_TRACE(algorithm);
    Outcome o = Cluster({"--ranks", "4", "--duration", "2s", "--snapshot-every", "50ms",
                         "--rate", "max", "--algorithm", algorithm});
    ExpectAddsUp(o, 4000);
    Summary s = Parse(o.out);
    EXPECT_GE(s.complete, 1) << o;
    EXPECT_EQ(s.failed, 0) << o;
  }
}

// What the summary says the collector received: every complete snapshot's
// parts, byte for byte as the protocol encodes them, rebuilt here from what
// the store kept of each rank's part. More ranks send more (N parts of N-1
// channels each); rank 0's peak memory is a figure a process can have.
TEST_F(StoreTest, TheCollectorsBytesAreThePartsAsEncoded) {
  double per_snapshot[2] = {0, 0};
  for (int i = 0; i < 2; ++i) {
    const int n = i == 0 ? 2 : 4;
    SCOPED_TRACE(n);
    const std::string store = (dir_ / fmt::format("bank{}.db", n)).string();
    Outcome o = Cluster({"--ranks", std::to_string(n), "--duration", "2s", "--snapshot-every",
                         "50ms", "--rate", "100", "--store", store, "--json"});
    ASSERT_TRUE(o.exited) << o;
    ASSERT_EQ(o.status, 0) << o;
    json summary = json::parse(o.out, nullptr, false);
    ASSERT_TRUE(summary.is_object()) << o;

    std::string error;
    StatusOr<cutline::store::Store> stored = cutline::store::Store::OpenReadOnly(store);
    error = Said(stored.status());
    ASSERT_TRUE(stored.ok()) << error;
    std::uint64_t expected = 0, complete = 0;
    for (const auto& listed : stored->Snapshots()) {
      if (listed.status != "complete") continue;
      auto s = stored->Find(listed.id);
      ASSERT_TRUE(s);
      ++complete;
      for (int r = 0; r < n; ++r) {
        namespace protocol = cutline::runtime::protocol;
        protocol::Part part{.id = s->id,
                            .rank = static_cast<std::uint32_t>(r),
                            .recorded = {.state = s->balances.at(static_cast<std::size_t>(r)),
                                         .channels = {}},
                            .recorded_us = s->recorded_us.at(static_cast<std::size_t>(r)),
                            .marker_us = {}};
        // A rank's incoming channels, by sender (the store's order too).
        for (const auto& c : s->channels) {
          if (c.to == static_cast<std::uint32_t>(r)) {
            part.recorded.channels.push_back(c.transfers);
            part.marker_us.push_back(c.marker_us.value_or(0));
          }
        }
        expected += protocol::Encode(protocol::Control{part}).size();
      }
    }
    ASSERT_GE(complete, 1u) << o;
    EXPECT_EQ(summary["complete"].get<std::uint64_t>(), complete) << o;
    EXPECT_EQ(summary["collected_bytes"].get<std::uint64_t>(), expected) << o;
    per_snapshot[i] = summary["collected_bytes_per_snapshot"].get<double>();
    EXPECT_DOUBLE_EQ(per_snapshot[i], static_cast<double>(expected) / static_cast<double>(complete));

    // Rank 0 is a whole process with MPI loaded: megabytes, not bytes, and
    // far from gigabytes for a two-second run.
    const auto peak = summary["rank0_peak_rss_bytes"].get<std::uint64_t>();
    EXPECT_GT(peak, 1u << 20) << o;
    EXPECT_LT(peak, 1ull << 31) << o;
    EXPECT_GT(summary["rank0_cpu_s"].get<double>(), 0.0) << o;
    EXPECT_LE(summary["collect_p50_us"].get<double>(), summary["collect_p99_us"].get<double>());
    // The collector's share is a share: within the whole latency (1 ms for the
    // two clocks it is read on).
    EXPECT_LE(summary["collect_p99_us"].get<double>(), summary["latency_p99_us"].get<double>() + 1000);
  }
  EXPECT_GT(per_snapshot[1], per_snapshot[0]);
}

// A snapshot not complete --snapshot-timeout after it started is given up
// on every rank and stored as failed; the run goes on and ends conserved.
// Markers take at least the 100 ms link delay, so none of these snapshots
// can finish within 1 ms.
TEST_F(StoreTest, ASnapshotPastItsTimeoutIsGivenUpAndStoredAsFailed) {
  Outcome o = Cluster({"--ranks", "3", "--duration", "1s", "--snapshot-every", "100ms",
                       "--link-delay", "100ms", "--snapshot-timeout", "1ms",
                       "--tolerable-failures", "1000", "--store", store_, "--json"});
  ASSERT_TRUE(o.exited) << o;
  ASSERT_EQ(o.status, 0) << o;
  json summary = json::parse(o.out.substr(o.out.rfind('{')), nullptr, false);
  ASSERT_TRUE(summary.is_object()) << o;
  EXPECT_GE(summary["timed_out"].get<long>(), 1) << o;
  EXPECT_EQ(summary["timed_out"], summary["failed"]) << o;
  EXPECT_EQ(summary["final_total"], 3000) << o;
  EXPECT_TRUE(summary["gave_up"].empty()) << o;
  // None is left running: each is failed (or, on a machine slow enough,
  // complete and adding up).
  json list = List();
  long failed = 0;
  for (const json& s : list["snapshots"]) {
    EXPECT_NE(s["status"], "running") << s;
    if (s["status"] == "failed") {
      ++failed;
      EXPECT_EQ(s["failure"], "timeout") << s;  // stored with its reason
    }
    if (s["status"] == "complete") {
      EXPECT_EQ(s["total"], 3000) << s;
    }
  }
  EXPECT_EQ(failed, summary["failed"].get<long>()) << list.dump();
}

// --tolerable-failures K: K failed snapshots in a row stop the run, exit 1,
// naming them; the money is still all there.
TEST_F(StoreTest, TooManyFailedSnapshotsInARowStopTheRun) {
  Outcome o = Cluster({"--ranks", "3", "--duration", "20s", "--snapshot-every", "50ms",
                       "--link-delay", "100ms", "--snapshot-timeout", "1ms",
                       "--tolerable-failures", "2", "--store", store_});
  ASSERT_TRUE(o.exited) << o;
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_EQ(Lines(o.err), 1u) << o;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(o.err, m,
                                std::regex(R"(snapshots (\d+), (\d+) failed one after another \(--tolerable-failures 2\): the run was stopped)")))
      << o;
  EXPECT_EQ(std::stol(m[2]), std::stol(m[1]) + 1) << o;
  EXPECT_EQ(Parse(o.out).final_total, 3000) << o;
  const json list = List();
  for (const json& s : list["snapshots"]) EXPECT_NE(s["status"], "running") << s;
}

// The processes whose command line names `text` (a test's own store path).
std::vector<std::string> ProcessesNaming(const std::string& text) {
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string pid = entry.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(entry.path() / "cmdline", std::ios::binary);
    std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (cmdline.find(text) != std::string::npos) found.push_back(pid + ": " + cmdline);
  }
  return found;
}

// Ctrl-C (SIGINT) or SIGTERM to `cluster`: the run ends as at the end of
// its --duration, with its summary, exit 128 + the signal, no rank left
// running, no snapshot left running in the store, which then restores.
TEST_F(StoreTest, ASignalEndsTheRunWithItsSummaryAndAStoreThatRestores) {
  for (int sig : {SIGINT, SIGTERM}) {
    SCOPED_TRACE(sig == SIGINT ? "SIGINT" : "SIGTERM");
    auto complete = [&] {
      if (!fs::exists(store_)) return 0L;
      long n = 0;
      const json list = List();  // kept: a range-for over a temporary's member dangles
      for (const json& s : list["snapshots"]) n += s["status"] == "complete";
      return n;
    };
    const long before = complete();
    int in = TempFd(), out = TempFd(), err = TempFd();
    ASSERT_TRUE(in >= 0 && out >= 0 && err >= 0);
    pid_t pid = ::fork();
    if (pid == 0) {
      ExecCutline({"cluster", "--ranks", "3", "--duration", "120s", "--snapshot-every", "50ms",
                   "--store", store_},
                  in, out, err);
    }
    ASSERT_GT(pid, 0);
    // Running, with a snapshot stored (bounded: the run itself lasts 120 s).
    for (int i = 0; i < 600 && complete() <= before; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (complete() <= before) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
      FAIL() << "no snapshot was stored";
    }
    ::kill(pid, sig);
    int wstatus = 0;
    ASSERT_TRUE(WaitFor(pid, std::chrono::seconds(60), &wstatus)) << "still running";
    Outcome o{WIFEXITED(wstatus), WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1, ReadFd(out),
              ReadFd(err)};
    ::close(in);
    ::close(out);
    ::close(err);
    EXPECT_TRUE(o.exited) << o;
    EXPECT_EQ(o.status, 128 + sig) << o;
    EXPECT_EQ(o.err, std::string("cutline: stopped by ") + (sig == SIGINT ? "SIGINT" : "SIGTERM") +
                         ": the run ended early\n")
        << o;
    EXPECT_EQ(Parse(o.out).final_total, 3000) << o;
    EXPECT_EQ(Parse(o.out).wrong, 0) << o;
    EXPECT_EQ(ProcessesNaming(store_), std::vector<std::string>{});
    const json list = List();
    for (const json& s : list["snapshots"]) EXPECT_NE(s["status"], "running") << s;
  }
  ExpectAddsUp(Cluster({"--ranks", "3", "--duration", "500ms", "--snapshot-every", "100ms",
                        "--store", store_, "--restore"}),
               3000);
}

// Starts `cutline cluster args...` in the background; its output goes to
// `out` and `err` (temporary files, read with ReadFd once it has ended).
pid_t StartCluster(std::vector<std::string> args, int* out, int* err) {
  args.insert(args.begin(), "cluster");
  int in = TempFd();
  *out = TempFd();
  *err = TempFd();
  pid_t pid = ::fork();
  if (pid == 0) ExecCutline(args, in, *out, *err);
  ::close(in);
  return pid;
}

// Waits (bounded) until the store holds a complete snapshot of its newest run.
bool AStoredSnapshot(const std::function<json()>& list) {
  for (int i = 0; i < 600; ++i) {
    const json l = list();
    if (l.is_object() && !l["runs"].empty()) {
      const auto run = l["runs"].back()["id"];
      for (const json& s : l["snapshots"]) {
        if (s["run"] == run && s["status"] == "complete") return true;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

// One run writes a store at a time: a second is refused (one line, exit 2,
// the file unchanged by it), naming the run that writes.
TEST_F(StoreTest, ASecondRunOnAStoreBeingWrittenIsRefused) {
  int out = -1, err = -1;
  pid_t first = StartCluster({"--ranks", "2", "--duration", "120s", "--snapshot-every", "100ms",
                              "--store", store_},
                             &out, &err);
  ASSERT_GT(first, 0);
  ASSERT_TRUE(AStoredSnapshot([&] { return fs::exists(store_) ? List() : json(); }));
  ExpectRefused({"--ranks", "2", "--duration", "1s", "--store", store_},
                "run 1 is writing this store (process ");
  ExpectRefused({"--ranks", "2", "--duration", "1s", "--store", store_, "--restore"},
                "run 1 is writing this store (process ");
  ::kill(first, SIGINT);
  int wstatus = 0;
  EXPECT_TRUE(WaitFor(first, std::chrono::seconds(60), &wstatus));
  EXPECT_EQ(WEXITSTATUS(wstatus), 128 + SIGINT) << ReadFd(err);
  ::close(out);
  ::close(err);
  EXPECT_EQ(List()["runs"].size(), 1u);
}

// The whole job killed from outside (SIGKILL to `cluster`, mpirun and every
// rank): nothing marks the run died, and its snapshots stay running. A
// restore started at once finds the store's writer lock free (it died with
// rank 0), marks the run died, fails its running snapshots and restores.
TEST_F(StoreTest, AJobKilledFromOutsideLeavesAStoreThatRestores) {
  int out = -1, err = -1;
  pid_t pid = StartCluster({"--ranks", "3", "--duration", "120s", "--snapshot-every", "20ms",
                            "--store", store_},
                           &out, &err);
  ASSERT_GT(pid, 0);
  ASSERT_TRUE(AStoredSnapshot([&] { return fs::exists(store_) ? List() : json(); }));
  // Every process of the job: `cluster` itself, mpirun and the ranks name
  // the test's own store in their command lines.
  ::kill(pid, SIGKILL);
  for (int round = 0; round < 50 && !ProcessesNaming(store_).empty(); ++round) {
    for (const std::string& p : ProcessesNaming(store_)) {
      ::kill(static_cast<pid_t>(std::stol(p.substr(0, p.find(':')))), SIGKILL);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  int wstatus = 0;
  ::waitpid(pid, &wstatus, 0);
  ::close(out);
  ::close(err);
  ASSERT_EQ(ProcessesNaming(store_), std::vector<std::string>{});
  {
    std::string error;
    StatusOr<cutline::store::Store> store = cutline::store::Store::OpenReadOnly(store_);
    error = Said(store.status());
    ASSERT_TRUE(store.ok()) << error;
    EXPECT_EQ(store->Runs().at(0).status, "live");  // nothing could say otherwise
  }
  // At once: the writer's lock died with rank 0, so nothing waits for a
  // heartbeat to grow old.
  Outcome restored = Cluster({"--ranks", "3", "--duration", "1s", "--snapshot-every", "50ms",
                              "--store", store_, "--restore"});
  ExpectAddsUp(restored, 3000);
  // A notice, on standard error: standard output is the run's.
  EXPECT_TRUE(Contains(restored.err, "run 1 had stopped without a word")) << restored;
  EXPECT_FALSE(Contains(restored.out, "without a word")) << restored;
  std::string error;
  StatusOr<cutline::store::Store> store = cutline::store::Store::OpenReadOnly(store_);
  error = Said(store.status());
  ASSERT_TRUE(store.ok()) << error;
  EXPECT_EQ(store->Runs().at(0).status, "died");
  for (const auto& s : store->Snapshots()) EXPECT_NE(s.status, "running") << s.id;
}

// `--json` prints one JSON object on standard output, and nothing else,
// even when the run first marks an earlier run died: that notice goes to
// standard error. The earlier run here was left "live" as a job ended from
// outside leaves it (its writer lock free, its run never ended).
TEST_F(StoreTest, JsonIsOneObjectAfterARunThatStoppedWithoutAWord) {
  {
    StatusOr<cutline::store::Store> s = cutline::store::Store::Open(store_, true);
    ASSERT_TRUE(s.ok()) << Said(s.status());
    s->BeginRun(2, 1000, 2000, std::nullopt);
  }
  Outcome o = Cluster({"--ranks", "2", "--duration", "300ms", "--snapshot-every", "50ms",
                       "--store", store_, "--json"});
  ASSERT_TRUE(o.exited) << o;
  ASSERT_EQ(o.status, 0) << o;
  json summary = json::parse(o.out, nullptr, false);
  ASSERT_TRUE(summary.is_object()) << o;
  EXPECT_EQ(summary["run"], 2) << o;
  EXPECT_TRUE(Contains(o.err, "cutline: run 1 had stopped without a word")) << o;
  // And the notice in the language asked.
  {
    StatusOr<cutline::store::Store> s = cutline::store::Store::Open(store_, false);
    ASSERT_TRUE(s.ok()) << Said(s.status());
    s->BeginRun(2, 1000, 2000, std::nullopt);
  }
  o = Cluster({"--ranks", "2", "--duration", "300ms", "--snapshot-every", "50ms", "--store",
               store_, "--json", "--lang", "ja"});
  ASSERT_EQ(o.status, 0) << o;
  EXPECT_TRUE(json::parse(o.out, nullptr, false).is_object()) << o;
  EXPECT_TRUE(Contains(o.err, "実行 3 は何も言わずに止まっていました")) << o;
}

// Faults, as Flink's ITCases try them: a seeded chain of three crashes, each
// killing a random rank (rank 0, the coordinator and the store's writer,
// included) at a random time or inside a random snapshot, each followed by
// a restore from the latest complete snapshot. After every crash the store
// holds no snapshot left running and no complete one with a wrong total, and
// the crashed run's logs pass the checker; the last run ends with the
// bank's total. The seed is printed; CUTLINE_FAULT_SEED=<seed> replays it.
TEST_F(StoreTest, AChainOfRandomCrashesAndRestoresLosesNothing) {
  std::uint64_t seed = std::random_device{}();
  if (const char* given = std::getenv("CUTLINE_FAULT_SEED")) seed = std::strtoull(given, nullptr, 10);
  const std::string replay = fmt::format(
      "seed {}; replay: CUTLINE_FAULT_SEED={} {} --gtest_filter=StoreTest.AChainOfRandomCrashesAndRestoresLosesNothing",
      seed, seed, ::testing::internal::GetArgvs().front());
  std::cout << replay << std::endl;
  SCOPED_TRACE(replay);
  std::mt19937_64 random(seed);
  auto pick = [&](std::uint64_t lo, std::uint64_t hi) {
    return std::uniform_int_distribution<std::uint64_t>(lo, hi)(random);
  };
  std::uint64_t last_id = 0;  // the highest snapshot id in the store
  bool any_complete = false;  // else there is nothing to restore from: start afresh
  for (int crash = 1; crash <= 3; ++crash) {
    const std::uint64_t rank = pick(0, 2);
    const std::string kill =
        pick(0, 1) == 0 ? fmt::format("{}@{}ms", rank, pick(300, 900))
                        : fmt::format("{}@snapshot:{}", rank, last_id + pick(1, 6));
    SCOPED_TRACE(fmt::format("crash {}: --kill {}", crash, kill));
    const std::string logs = (dir_ / fmt::format("logs{}", crash)).string();
    std::vector<std::string> args = {"--ranks", "3", "--duration", "30s", "--snapshot-every",
                                     "50ms", "--store", store_, "--log-dir", logs,
                                     "--kill", kill};
    if (any_complete) args.push_back("--restore");
    Outcome o = Cluster(args);
    ASSERT_TRUE(o.exited) << o;
    EXPECT_EQ(o.status, 1) << o;
    EXPECT_TRUE(Contains(o.err, fmt::format("rank {}", rank))) << o;
    const json list = List();
    ASSERT_TRUE(list.is_object()) << "the store is not readable";
    for (const json& s : list["snapshots"]) {
      EXPECT_NE(s["status"], "running") << s;
      if (s["status"] == "complete") {
        EXPECT_EQ(s["total"], 3000) << s;
        any_complete = true;
      }
      last_id = std::max(last_id, s["id"].get<std::uint64_t>());
    }
    // No finding. A rank killed inside the run's first snapshot leaves
    // its logs no complete snapshot: the checker then says it judged
    // nothing (exit 3), which is the truth, not a pass.
    Outcome check = Cutline({"check", "--logs", logs});
    if (check.status == 3) {
      EXPECT_TRUE(Contains(check.out, "nothing judged")) << check;
    } else {
      EXPECT_EQ(check.status, 0) << check;
    }
  }
  std::vector<std::string> last = {"--ranks", "3", "--duration", "1s", "--snapshot-every", "50ms",
                                   "--store", store_};
  if (any_complete) last.push_back("--restore");
  ExpectAddsUp(Cluster(last), 3000);
  if (HasFailure()) ADD_FAILURE() << replay;
}

// The link delay holds every message back; the money is still all there.
TEST(ClusterTest, ALinkDelayChangesNoTotal) {
  Outcome o = Cluster({"--ranks", "3", "--duration", "1s", "--snapshot-every", "100ms",
                       "--link-delay", "2ms", "--balance", "500"});
  ExpectAddsUp(o, 1500);
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

// Every complete snapshot in the store adds up to the bank; none failed.
TEST_F(StoreTest, TheStoreKeepsCompleteSnapshotsThatAddUp) {
  Outcome o = Cluster({"--ranks", "4", "--duration", "2s", "--snapshot-every", "50ms",
                       "--store", store_});
  ASSERT_TRUE(o.exited) << o;
  ASSERT_EQ(o.status, 0) << o;
  json list = List();
  ASSERT_EQ(list["runs"].size(), 1u) << list;
  EXPECT_EQ(list["runs"][0]["total"], 4000);
  int complete = 0;
  for (const json& snapshot : list["snapshots"]) {
    EXPECT_EQ(snapshot["status"], "complete") << snapshot;
    EXPECT_EQ(snapshot["total"], 4000) << snapshot;
    ++complete;
  }
  EXPECT_GE(complete, 1);
  EXPECT_EQ(complete, Parse(o.out).complete);
  // And one of them in full, in the shape of `cutline run --json`.
  Outcome show = Cutline({"store", "show", store_, "1", "--json"});
  ASSERT_EQ(show.status, 0) << show;
  json first = json::parse(show.out);
  EXPECT_EQ(first["total"], 4000);
  EXPECT_EQ(first["recorded"].size(), 4u);
  EXPECT_EQ(first["channels"].size(), 12u);

  // Schema 2: the run's end, and every complete snapshot's times, which the
  // ranks measured and sent with their parts. They must agree with what
  // happened (one host, one clock): a rank records after the snapshot
  // started; a channel closes after both its ends recorded (the sender sent
  // its marker after recording, the receiver records at its first marker at
  // the latest) and before the snapshot was collected.
  std::string error;
  StatusOr<cutline::store::Store> store = cutline::store::Store::OpenReadOnly(store_);
  error = Said(store.status());
  ASSERT_TRUE(store.ok()) << error;
  EXPECT_EQ(store->schema_version(), 5u);
  cutline::store::StoredRun run = store->Runs().at(0);
  EXPECT_EQ(run.status, "ended");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(o.out, m, std::regex(R"((\d+) transfers)"))) << o;
  EXPECT_EQ(run.transfers, std::stoull(m[1])) << o;
  int checked = 0;
  for (const auto& listed : store->Snapshots()) {
    auto s = store->Find(listed.id);
    ASSERT_TRUE(s && s->status == "complete");
    ASSERT_EQ(s->recorded_us.size(), 4u);
    for (std::int64_t at : s->recorded_us) {
      EXPECT_GE(at, s->started_us) << "snapshot " << s->id;
      EXPECT_LE(at, s->completed_us) << "snapshot " << s->id;
    }
    std::int64_t last = 0;
    for (const auto& c : s->channels) {
      ASSERT_TRUE(c.marker_us) << "snapshot " << s->id << " " << c.from << "->" << c.to;
      EXPECT_GE(*c.marker_us, s->recorded_us[c.from]) << "snapshot " << s->id;
      EXPECT_GE(*c.marker_us, s->recorded_us[c.to]) << "snapshot " << s->id;
      EXPECT_LE(*c.marker_us, s->completed_us) << "snapshot " << s->id;
      last = std::max(last, *c.marker_us);
    }
    auto path = cutline::store::CriticalPathOf(*s);
    ASSERT_TRUE(path && path->last);
    EXPECT_EQ(path->last->at_us, last - s->started_us);
    ++checked;
  }
  EXPECT_EQ(checked, complete);
}

// A rank killed inside snapshot 3: the job ends with status 1, snapshot 3
// is never complete, the store stays readable, and a restore from the last
// complete snapshot has the same money and takes further snapshots.
TEST_F(StoreTest, ACrashInsideASnapshotThenARestoreLosesNothing) {
  Outcome crash = Cluster({"--ranks", "3", "--duration", "30s", "--snapshot-every", "50ms",
                           "--store", store_, "--kill", "1@snapshot:3"});
  ASSERT_TRUE(crash.exited) << crash;
  EXPECT_EQ(crash.status, 1) << crash;
  EXPECT_TRUE(Contains(crash.err, "rank 1")) << crash;
  json list = List();
  ASSERT_TRUE(list.is_object()) << "the store is not readable";
  std::uint64_t latest = 0;
  for (const json& snapshot : list["snapshots"]) {
    EXPECT_NE(snapshot["status"], "running") << snapshot;  // failed, after the crash
    if (snapshot["id"] == 3) {
      EXPECT_EQ(snapshot["status"], "failed") << snapshot;
    }
    if (snapshot["status"] == "complete") {
      EXPECT_EQ(snapshot["total"], 3000) << snapshot;
      latest = snapshot["id"];
    }
  }
  // Snapshots before 3 complete well before it (one takes about a
  // millisecond, and they start 50 ms apart); 3 never does.
  ASSERT_GE(latest, 1u) << list;
  EXPECT_NE(latest, 3u) << list;
  EXPECT_TRUE(Contains(crash.err, "#" + std::to_string(latest))) << crash;
  {
    // The store says the run died, and when.
    std::string error;
    StatusOr<cutline::store::Store> store = cutline::store::Store::OpenReadOnly(store_);
    error = Said(store.status());
    ASSERT_TRUE(store.ok()) << error;
    EXPECT_EQ(store->Runs().at(0).status, "died");
    EXPECT_TRUE(store->Runs().at(0).ended_us);
  }

  Outcome restored = Cluster({"--ranks", "3", "--duration", "1s", "--snapshot-every", "50ms",
                              "--store", store_, "--restore"});
  ExpectAddsUp(restored, 3000);
  list = List();
  ASSERT_EQ(list["runs"].size(), 2u);
  EXPECT_EQ(list["runs"][1]["restored_from"], latest);
  int after = 0;
  for (const json& snapshot : list["snapshots"]) {
    if (snapshot["run"] != list["runs"][1]["id"]) continue;
    EXPECT_GT(snapshot["id"].get<std::uint64_t>(), 3u) << "ids continue after the stored ones";
    EXPECT_EQ(snapshot["status"], "complete") << snapshot;
    EXPECT_EQ(snapshot["total"], 3000) << snapshot;
    ++after;
  }
  EXPECT_GE(after, 1);
}

// Bad stores and bad restores: one line, status 2, nothing started, and the
// store file exactly as it was.
TEST_F(StoreTest, BadStoresAndRestoresChangeNothing) {
  ASSERT_EQ(Cluster({"--ranks", "2", "--duration", "500ms", "--snapshot-every", "100ms",
                     "--store", store_}).status, 0);
  std::string text = (dir_ / "notes.txt").string();
  std::ofstream(text) << "not a store\n";
  std::string before = Bytes(store_);
  std::string text_before = Bytes(text);
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--store", text}, "not a cutline store"},
      {{"--store", text, "--restore"}, "not a cutline store"},
      {{"--ranks", "2", "--store", store_, "--restore", "999"}, "999"},
      {{"--ranks", "3", "--store", store_, "--restore"}, "--ranks 2"},
      {{"--ranks", "2", "--store", store_, "--restore", "x"}, "--restore"},
      // Past 2^64 - 1: named as given, not as the largest id.
      {{"--ranks", "2", "--store", store_, "--restore", "99999999999999999999"},
       "'99999999999999999999' is not a snapshot id"},
      {{"--ranks", "2", "--store", (dir_ / "missing.db").string(), "--restore"}, "missing.db"},
      // In Japanese: the store's refusal and the restore's, from the catalogue.
      {{"--store", text, "--lang", "ja"}, "cutline のストアではありません"},
      {{"--ranks", "3", "--store", store_, "--restore", "--lang", "ja"},
       "--ranks 2 で実行してください"},
      {{"--ranks", "2", "--store", store_, "--restore", "999", "--lang", "ja"},
       "にスナップショット 999 はありません"},
  };
  for (const auto& [args, mentions] : cases) ExpectRefused(args, mentions);
  EXPECT_EQ(Bytes(store_), before);
  EXPECT_EQ(Bytes(text), text_before);
  EXPECT_FALSE(fs::exists(dir_ / "missing.db"));
}

// Damage a store as a bad disk or a hand with the sqlite3 shell might: a
// plain SQLite connection, foreign keys off (SQLite's default).
void Damage(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* message = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message), SQLITE_OK)
      << sql << ": " << (message ? message : "");
  sqlite3_free(message);
  sqlite3_close(db);
}

// `cutline store` with bad input, refused the same way.
void ExpectStoreRefused(const std::vector<std::string>& args, const std::string& mentions) {
  ExpectOneLineRefusal(Cutline(args), args, mentions);
}

// A real run's store verifies; damaged, verify names the snapshot and what
// is wrong, and --restore refuses it before any process starts. Neither
// changes a byte of the file.
TEST_F(StoreTest, VerifyPassesARealRunAndNamesADamagedSnapshotThatRestoreRefuses) {
  Outcome run = Cluster({"--ranks", "3", "--duration", "1s", "--snapshot-every", "50ms",
                         "--store", store_});
  ASSERT_EQ(run.status, 0) << run;
  const long complete = Parse(run.out).complete;
  ASSERT_GE(complete, 2) << run;
  std::string before = Bytes(store_);
  Outcome ok = Cutline({"store", "verify", store_});
  EXPECT_EQ(ok.status, 0) << ok;
  EXPECT_EQ(ok.out, "ok: " + std::to_string(complete) + " complete snapshots verified in " +
                        store_ + "\n")
      << ok;
  EXPECT_EQ(ok.err, "") << ok;
  Outcome one = Cutline({"store", "verify", store_, "1"});
  EXPECT_EQ(one.status, 0) << one;
  EXPECT_TRUE(Contains(one.out, "ok: snapshot 1 (complete) verified")) << one;
  EXPECT_EQ(Bytes(store_), before);

  // The latest complete snapshot loses N2's recorded balance.
  std::uint64_t latest_id = 0;
  const json listed = List();
  for (const json& snapshot : listed["snapshots"]) {
    if (snapshot["status"] == "complete") latest_id = snapshot["id"];
  }
  ASSERT_GT(latest_id, 1u);
  const std::string latest = std::to_string(latest_id);
  Damage(store_, "DELETE FROM balances WHERE snapshot = " + latest + " AND rank = 2");
  before = Bytes(store_);
  Outcome bad = Cutline({"store", "verify", store_});
  EXPECT_EQ(bad.status, 1) << bad;
  EXPECT_EQ(Lines(bad.out), 1u) << bad;
  EXPECT_EQ(bad.out.rfind("snapshot " + latest + ": rank N2's part is missing", 0), 0u) << bad;
  Outcome bad_one = Cutline({"store", "verify", store_, latest});
  EXPECT_EQ(bad_one.status, 1) << bad_one;
  EXPECT_EQ(bad_one.out, bad.out);
  EXPECT_EQ(Cutline({"store", "verify", store_, "1"}).status, 0);
  // Restoring from it, named or as the latest: refused, nothing started.
  ExpectRefused({"--ranks", "3", "--store", store_, "--restore", latest},
                "snapshot " + latest + " in " + store_ + " is damaged");
  ExpectRefused({"--ranks", "3", "--store", store_, "--restore"},
                "rank N2's part is missing");
  // A changed amount, on another snapshot: named too, one line each.
  Damage(store_, "UPDATE balances SET balance = balance + 7 WHERE snapshot = 1 AND rank = 0");
  before = Bytes(store_);
  bad = Cutline({"store", "verify", store_});
  EXPECT_EQ(bad.status, 1) << bad;
  EXPECT_EQ(Lines(bad.out), 2u) << bad;
  EXPECT_TRUE(Contains(bad.out, "snapshot 1: its parts add up to $3007, not its total $3000"))
      << bad;
  ExpectRefused({"--ranks", "3", "--store", store_, "--restore", "1"}, "$3007");
  EXPECT_EQ(Bytes(store_), before);
}

// Prune keeps the latest N complete snapshots of the run; a refused prune
// changes nothing.
TEST_F(StoreTest, PruneKeepsTheLatestNAndRefusesBadInput) {
  Outcome run = Cluster({"--ranks", "2", "--duration", "1s", "--snapshot-every", "50ms",
                         "--store", store_});
  ASSERT_EQ(run.status, 0) << run;
  const long complete = Parse(run.out).complete;
  ASSERT_GE(complete, 4) << run;
  std::vector<std::uint64_t> ids;
  const json listed = List();
  for (const json& snapshot : listed["snapshots"]) {
    ASSERT_EQ(snapshot["status"], "complete") << snapshot;  // a run that ended: none failed
    ids.push_back(snapshot["id"]);
  }
  ASSERT_EQ(ids.size(), static_cast<std::size_t>(complete));
  std::string text = (dir_ / "notes.txt").string();
  std::ofstream(text) << "not a store\n";
  const std::string before = Bytes(store_);
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"store", "prune", store_, "--keep", "0"}, "at least 1"},
      {{"store", "prune", store_, "--keep", "-1"}, "--keep"},
      {{"store", "prune", store_, "--keep", "two"}, "--keep"},
      {{"store", "prune", store_}, "--keep"},
      {{"store", "prune", text, "--keep", "1"}, "not a cutline store"},
      {{"store", "prune", (dir_ / "missing.db").string(), "--keep", "1"}, "missing.db"},
      {{"store", "prune", store_, "--keep", "1", "extra"}, "extra"},
      {{"store", "verify"}, "file"},
      {{"store", "verify", store_, "x"}, "not a number"},
      {{"store", "verify", store_, "999"}, "has no snapshot 999"},
      {{"store", "verify", text}, "not a cutline store"},
      {{"store", "verify", store_, "1", "2"}, "2"},
      {{"store", "bogus", store_}, "bogus"},
  };
  for (const auto& [args, mentions] : cases) ExpectStoreRefused(args, mentions);
  EXPECT_EQ(Bytes(store_), before);
  EXPECT_FALSE(fs::exists(dir_ / "missing.db"));

  Outcome pruned = Cutline({"store", "prune", store_, "--keep", "2"});
  ASSERT_EQ(pruned.status, 0) << pruned;
  const long gone = complete - 2;
  EXPECT_TRUE(Contains(pruned.out, "run 1: removed " + std::to_string(gone) + " snapshots (" +
                                       std::to_string(gone) + " complete, 0 failed); kept 2 "
                                       "complete"))
      << pruned;
  EXPECT_TRUE(Contains(pruned.out, "removed " + std::to_string(gone) + " snapshots (")) << pruned;
  json list = List();
  ASSERT_EQ(list["runs"].size(), 1u);
  ASSERT_EQ(list["snapshots"].size(), 2u) << list;
  EXPECT_EQ(list["snapshots"][0]["id"], ids[ids.size() - 2]);
  EXPECT_EQ(list["snapshots"][1]["id"], ids.back());
  Outcome verify = Cutline({"store", "verify", store_});
  EXPECT_EQ(verify.out, "ok: 2 complete snapshots verified in " + store_ + "\n") << verify;
}

// The run's own logs, read back into one history, pass the simulator's
// checker for every complete snapshot; the same logs, tampered with, fail it.
TEST_F(StoreTest, ARealRunsLogsPassTheCheckerAndATamperedOneFails) {
  std::string logs = (dir_ / "logs").string();  // made by the run
  Outcome run = Cluster({"--ranks", "4", "--duration", "2s", "--snapshot-every", "50ms",
                         "--rate", "3000", "--log-dir", logs});
  ExpectAddsUp(run, 4000);
  Outcome check = Cutline({"check", "--logs", logs});
  ASSERT_TRUE(check.exited) << check;
  EXPECT_EQ(check.status, 0) << check;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(check.out, m, std::regex(R"(ok: (\d+) complete snapshots? of 4 ranks)")))
      << check;
  EXPECT_EQ(std::stol(m[1]), Parse(run.out).complete) << check;

  // ShiViz: its regex, then "host {clock}" and a description, per event.
  Outcome shiviz = Cutline({"check", "--logs", logs, "--format", "shiviz"});
  ASSERT_EQ(shiviz.status, 0) << shiviz.err;
  EXPECT_EQ(shiviz.out.rfind("(?<host>\\S*) (?<clock>{.*})\\n(?<event>.*)\n\n", 0), 0u)
      << shiviz.out.substr(0, 200);
  std::string second = shiviz.out.substr(shiviz.out.find("\n\n") + 2);
  second = second.substr(0, second.find('\n'));
  ASSERT_TRUE(std::regex_match(second, m, std::regex(R"((N\d+) (\{.*\}))"))) << second;
  EXPECT_TRUE(json::parse(m[2].str()).contains(m[1].str())) << second;

  // One recorded balance changed by $7: the checker names the snapshot.
  fs::path rank2 = fs::path(logs) / "rank-2.jsonl";
  std::string text = Bytes(rank2);
  std::regex part(R"(\{"e":"part","snapshot":(\d+),"balance":(\d+))");
  ASSERT_TRUE(std::regex_search(text, m, part)) << "no part in rank 2's log";
  std::string tampered = text.substr(0, m.position(2)) + std::to_string(std::stol(m[2]) + 7) +
                         text.substr(m.position(2) + m.length(2));
  std::ofstream(rank2, std::ios::binary) << tampered;
  Outcome caught = Cutline({"check", "--logs", logs});
  EXPECT_EQ(caught.status, 1) << caught;
  EXPECT_TRUE(Contains(caught.out, "FAIL snapshot " + m[1].str() + ": N2 recorded")) << caught;
}

// A crash leaves logs that end at different moments: what they hold up to a
// consistent point is still checked.
TEST_F(StoreTest, TheLogsOfACrashedRunAreCheckedUpToWhereTheyAgree) {
  std::string logs = (dir_ / "logs").string();
  fs::create_directories(logs);
  Outcome crash = Cluster({"--ranks", "3", "--duration", "30s", "--snapshot-every", "50ms",
                           "--rate", "3000", "--log-dir", logs, "--kill", "1@snapshot:4"});
  ASSERT_EQ(crash.status, 1) << crash;
  Outcome check = Cutline({"check", "--logs", logs});
  EXPECT_EQ(check.status, 0) << check;
  EXPECT_TRUE(Contains(check.out, "ok: ")) << check;
}

TEST_F(StoreTest, LogFoldersThatAreNotLogsAreOneLineAndStatus2) {
  fs::create_directories(dir_ / "empty");
  std::ofstream(dir_ / "file.txt") << "x\n";
  fs::create_directories(dir_ / "wrong");
  std::ofstream(dir_ / "wrong" / "rank-0.jsonl") << "{\"e\":\"rank\",\"rank\":0,\"ranks\":2}\n";
  for (const std::string& dir : {(dir_ / "missing").string(), (dir_ / "empty").string(),
                                 (dir_ / "file.txt").string(), (dir_ / "wrong").string()}) {
    Outcome o = Cutline({"check", "--logs", dir});
    EXPECT_EQ(o.status, 2) << dir << o;
    EXPECT_EQ(Lines(o.err), 1u) << dir << o;
    EXPECT_EQ(o.err.rfind("cutline: error: ", 0), 0u) << dir << o;
  }
  Outcome neither = Cutline({"check"});
  EXPECT_EQ(neither.status, 2) << neither;
  Outcome shiviz_alone = Cutline({"check", "--format", "shiviz", "x.txt"});
  EXPECT_EQ(shiviz_alone.status, 2) << shiviz_alone;
}

// What a refusal must leave as it was: the file's bytes, and FILE-wal's and
// FILE-shm's presence (and FILE-wal's bytes).
struct FilesBeside {
  std::string db, wal;
  bool has_wal = false, has_shm = false;
  bool operator==(const FilesBeside&) const = default;
};
FilesBeside StateOf(const std::string& path) {
  FilesBeside f;
  f.db = Bytes(path);
  f.has_wal = fs::exists(path + "-wal");
  f.has_shm = fs::exists(path + "-shm");
  if (f.has_wal) f.wal = Bytes(path + "-wal");
  return f;
}
void ExpectUnchanged(const FilesBeside& before, const std::string& path,
                     const std::string& after_what) {
  const FilesBeside after = StateOf(path);
  EXPECT_EQ(after.db == before.db, true) << "the file changed: " << after_what;
  EXPECT_EQ(after.has_wal, before.has_wal) << "FILE-wal came or went: " << after_what;
  EXPECT_EQ(after.has_shm, before.has_shm) << "FILE-shm came or went: " << after_what;
  EXPECT_EQ(after.wal == before.wal, true) << "FILE-wal changed: " << after_what;
}

// Every reason `cluster --store` refuses a store, each before any process
// starts, and none of them touches the file or makes anything beside it,
// whatever its journal mode (a store a person turned to rollback mode must
// not be turned back to WAL by a run that is then refused).
TEST_F(StoreTest, ARefusedStoreIsLeftAsItWas) {
  ASSERT_EQ(Cluster({"--ranks", "2", "--duration", "500ms", "--snapshot-every", "100ms",
                     "--store", store_}).status, 0);
  const std::string base = Bytes(store_);
  auto fresh = [&](const std::string& name, const std::string& sql) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << base;
    if (!sql.empty()) Damage(path, sql);
    return path;
  };
  // A live writer is a process holding the store's writer lock, whatever
  // the rows say: the test holds it for the "writing" cases, as run 1.
  const std::string live = "UPDATE runs SET status = 'live'";
  const std::string other = (dir_ / "other.db").string();
  Damage(other, "CREATE TABLE t (x)");
  struct Case {
    std::string path;
    std::vector<std::string> args;
    std::string mentions;
    bool held = false;
  };
  const std::vector<Case> cases = {
      {other, {}, "not a cutline store"},
      {fresh("newer.db", "PRAGMA user_version = 99"), {}, "newer cutline"},
      {fresh("writing.db", live), {}, "run 1 is writing this store (process ", true},
      {fresh("writing-rollback.db", "PRAGMA journal_mode = DELETE; " + live), {},
       "run 1 is writing this store (process ", true},
      {fresh("rollback.db", "PRAGMA journal_mode = DELETE"), {"--restore", "999"}, "999"},
      {fresh("ranks.db", ""), {"--ranks", "3", "--restore"}, "--ranks 2"},
      {fresh("damaged.db", "DELETE FROM balances WHERE rank = 1"), {"--restore"}, "damaged"},
  };
  for (const Case& c : cases) {
    std::optional<cutline::store::WriterLock> writer;
    if (c.held) {
      StatusOr<cutline::store::WriterLock> taken = cutline::store::WriterLock::Take(c.path);
      ASSERT_TRUE(taken.ok()) << Said(taken.status());
      writer.emplace(std::move(taken).value());
      writer->SetRun(1);
    }
    const FilesBeside before = StateOf(c.path);
    std::vector<std::string> args = {"--duration", "1s", "--store", c.path};
    if (std::find(c.args.begin(), c.args.end(), "--ranks") == c.args.end()) {
      args.insert(args.end(), {"--ranks", "2"});
    }
    args.insert(args.end(), c.args.begin(), c.args.end());
    ExpectRefused(args, c.mentions);
    ExpectUnchanged(before, c.path, c.path);
  }
}

// A WAL left beside another store (a copied or renamed file): SQLite reads
// it over the file it finds it beside, and the store seen would be a mix of
// both, or the other one. Every command refuses the pair in one line naming
// FILE-wal, and leaves both files as they were (a run, or the WAL's
// checkpoint, would have written the mix into the file).
TEST_F(StoreTest, AnotherStoresWalBesideAStoreIsRefusedByEveryCommand) {
  ASSERT_EQ(Cluster({"--ranks", "2", "--duration", "500ms", "--snapshot-every", "100ms",
                     "--store", store_}).status, 0);
  ASSERT_FALSE(fs::exists(store_ + "-wal"));
  const std::string other = (dir_ / "other.db").string();
  {
    // The other store's WAL as a crash would leave it: taken while it is
    // open, its writes not yet in its file.
    std::string error;
    StatusOr<cutline::store::Store> b = cutline::store::Store::Open(other, /*create=*/true);
    error = Said(b.status());
    ASSERT_TRUE(b.ok()) << error;
    const std::int64_t run = b->BeginRun(2, 500, 1000, std::nullopt);
    for (std::uint64_t id = 1; id <= 3; ++id) {
      b->SnapshotStarted(run, id, 0, 1);
      cutline::store::SnapshotRecord s;
      s.id = id;
      s.run = run;
      s.started_us = 1;
      s.completed_us = 2;
      s.status = "complete";
      s.balances = {500, 500};
      s.channels = {{0, 1, {}}, {1, 0, {}}};
      b->SnapshotComplete(s);
    }
    fs::copy_file(other + "-wal", store_ + "-wal");
  }
  const std::string wal = store_ + "-wal";
  const FilesBeside before = StateOf(store_);
  const std::vector<std::vector<std::string>> commands = {
      {"store", "list", store_},
      {"store", "list", store_, "--json"},
      {"store", "show", store_, "1"},
      {"store", "verify", store_},
      {"store", "prune", store_, "--keep", "1"},
      {"serve", "--store", store_, "--port", "0"},
  };
  for (const auto& args : commands) {
    ExpectStoreRefused(args, wal + " does not belong to " + store_);
    EXPECT_EQ(Bytes(store_) == before.db && Bytes(wal) == before.wal, true) << args[1];
  }
  ExpectRefused({"--ranks", "2", "--store", store_, "--restore"}, wal + " does not belong");
  ExpectRefused({"--ranks", "2", "--duration", "1s", "--store", store_}, wal + " does not belong");
  EXPECT_EQ(Bytes(store_) == before.db, true);
  EXPECT_EQ(Bytes(wal) == before.wal, true);
  // Its own WAL gone, the file alone is the sound store it was.
  fs::remove(wal);
  fs::remove(store_ + "-shm");
  Outcome ok = Cutline({"store", "verify", store_});
  EXPECT_EQ(ok.status, 0) << ok;

  // Two copies of one store that went their own ways: the same runs, but
  // the WAL of the one that took fewer snapshots would hide the other's.
  const std::string fork = (dir_ / "fork.db").string();
  fs::copy_file(store_, fork);
  auto snapshots = [](const std::string& path, std::uint64_t from, std::uint64_t to,
                      const std::string& copy_wal_to) {
    std::string error;
    StatusOr<cutline::store::Store> s = cutline::store::Store::Open(path, /*create=*/false);
    error = Said(s.status());
    ASSERT_TRUE(s.ok()) << error;
    for (std::uint64_t id = from; id <= to; ++id) s->SnapshotStarted(1, id, 0, 1);
    if (!copy_wal_to.empty()) fs::copy_file(path + "-wal", copy_wal_to);
  };
  snapshots(store_, 100, 110, "");
  ASSERT_FALSE(fs::exists(wal));
  snapshots(fork, 100, 104, wal);
  const FilesBeside forked = StateOf(store_);
  ExpectStoreRefused({"store", "list", store_}, wal + " does not belong to " + store_);
  ExpectRefused({"--ranks", "2", "--store", store_, "--restore"}, wal + " does not belong");
  EXPECT_EQ(Bytes(store_) == forked.db && Bytes(wal) == forked.wal, true);
}

// Makes `dir` read-only for this process (a child's): as root, whom chmod
// does not stop, a read-only bind mount in a mount namespace of its own.
bool MountReadOnly(const fs::path& dir) {
  return ::unshare(CLONE_NEWNS) == 0 &&
         ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0 &&
         ::mount(dir.c_str(), dir.c_str(), nullptr, MS_BIND, nullptr) == 0 &&
         ::mount(nullptr, dir.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr) == 0;
}

// `cutline args...` in a child for which `dir` is read-only (`mount`), or
// as it is (chmod done by the caller); for at most `limit`.
Outcome CutlineReadOnly(const fs::path& dir, bool mount, const std::vector<std::string>& args,
                        std::chrono::seconds limit = std::chrono::seconds(120)) {
  return Cutline(args, "", limit, [&] { return !mount || MountReadOnly(dir); });
}

// A sound store where it cannot be written (a read-only mount, folder or
// file) is read by every reading command, as where it can; a writing one
// says in one line that it is read-only, not that it is corrupt.
TEST_F(StoreTest, AReadOnlyStoreIsReadAndNotCalledCorrupt) {
  ASSERT_EQ(Cluster({"--ranks", "2", "--duration", "500ms", "--snapshot-every", "100ms",
                     "--store", store_}).status, 0);
  // Root passes chmod: a read-only mount then, where this machine lets
  // a process have a mount namespace of its own.
  bool mount = ::geteuid() == 0;
  if (mount) {
    pid_t probe = ::fork();
    if (probe == 0) ::_exit(MountReadOnly(dir_) ? 0 : 1);
    int wstatus = 0;
    ::waitpid(probe, &wstatus, 0);
    if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
      GTEST_SKIP() << "running as root without the right to mount (unshare -m): no way to "
                      "make a folder read-only for it";
    }
  }
  const std::vector<std::vector<std::string>> reading = {
      {"store", "list", store_},
      {"store", "list", store_, "--json"},
      {"store", "show", store_, "1"},
      {"store", "verify", store_},
  };
  std::vector<Outcome> writable;
  for (const auto& args : reading) writable.push_back(Cutline(args));
  const FilesBeside before = StateOf(store_);
  auto lock = [&](bool locked) {
    if (mount) return;
    fs::permissions(dir_, locked ? fs::perms(0555) : fs::perms(0755));
    fs::permissions(store_, locked ? fs::perms(0444) : fs::perms(0644));
  };
  lock(true);
  for (std::size_t i = 0; i < reading.size(); ++i) {
    Outcome o = CutlineReadOnly(dir_, mount, reading[i]);
    EXPECT_EQ(o.status, 0) << reading[i][1] << o;
    EXPECT_EQ(o.out, writable[i].out) << reading[i][1] << o;
    EXPECT_EQ(o.err, "") << reading[i][1] << o;
  }
  const std::vector<std::vector<std::string>> writing = {
      {"store", "prune", store_, "--keep", "1"},
      {"cluster", "--ranks", "2", "--duration", "1s", "--store", store_},
      {"cluster", "--ranks", "2", "--store", store_, "--restore"},
      {"cluster", "--ranks", "2", "--duration", "1s", "--store", (dir_ / "new.db").string()},
  };
  for (const auto& args : writing) {
    Outcome o = CutlineReadOnly(dir_, mount, args);
    ExpectOneLineRefusal(o, args, "read-only");
    EXPECT_FALSE(Contains(o.err, "corrupt")) << o;
  }
  // The page reads it too, and shows its runs.
  {
    int in = TempFd(), out = TempFd(), err = TempFd();
    pid_t serve = ::fork();
    if (serve == 0) {
      if (mount && !MountReadOnly(dir_)) ::_exit(126);
      ExecCutline({"serve", "--store", store_, "--port", "0"}, in, out, err);
    }
    std::smatch m;
    std::string said;
    for (int i = 0; i < 300 && !std::regex_search(said, m, std::regex(R"(:(\d+)/)")); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      said = ReadFd(out);
    }
    ASSERT_FALSE(m.empty()) << said << ReadFd(err);
    RawResponse r = RawExchange(std::stoi(m[1]), RawGet("/api/store"));
    EXPECT_EQ(r.status, 200) << r.body;
    EXPECT_TRUE(Contains(r.body, "\"runs\"")) << r.body;
    ::kill(serve, SIGTERM);
    int wstatus = 0;
    WaitFor(serve, std::chrono::seconds(30), &wstatus);
    ::close(in);
    ::close(out);
    ::close(err);
  }
  lock(false);
  ExpectUnchanged(before, store_, "read-only");
  EXPECT_FALSE(fs::exists(dir_ / "new.db"));
}

// A full store (here its page limit; a full disk alike) ends the run at
// once, naming the store and saying it is full, in one line, exit 1; the
// snapshots stored before it stay whole and readable.
TEST_F(StoreTest, AFullStoreEndsTheRunSayingSoAndKeepsWhatItHolds) {
  Outcome o = Cluster({"--ranks", "3", "--duration", "60s", "--snapshot-every", "10ms",
                       "--store", store_, "--store-max-pages", "14"});
  ASSERT_TRUE(o.exited) << o;
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_EQ(Lines(o.err), 1u) << o;
  EXPECT_EQ(o.err.rfind("cutline: error: " + store_ + ": the store is full", 0), 0u) << o;
  EXPECT_TRUE(Contains(o.err, "last complete snapshot: #")) << o;
  EXPECT_FALSE(Contains(o.err, "died")) << o;
  Outcome verify = Cutline({"store", "verify", store_});
  EXPECT_EQ(verify.status, 0) << verify;
  const json list = List();
  std::size_t complete = 0;
  for (const json& s : list["snapshots"]) complete += s["status"] == "complete";
  EXPECT_GE(complete, 1u) << list.dump();
  std::string error;
  StatusOr<cutline::store::Store> store = cutline::store::Store::OpenReadOnly(store_);
  error = Said(store.status());
  ASSERT_TRUE(store.ok()) << error;
  ASSERT_EQ(store->Runs().size(), 1u);
  EXPECT_EQ(store->Runs().at(0).status, "died");
}

// --reorder: each channel's transfers are held back at random and its
// markers travel on a tag of their own, so markers overtake transfers.
// Lai-Yang (epochs on the transfers, counts in the markers) needs no FIFO
// channels, and stop-the-world waits for counts, not order: every snapshot
// of theirs adds up, as Lai-Yang's do on FIFO channels too; and no
// warning is said.
TEST(ClusterTest, LaiYangAndStopTheWorldAddUpOverChannelsThatReorder) {
  const std::vector<std::vector<std::string>> runs = {
      {"--algorithm", "lai-yang", "--reorder"},
      {"--algorithm", "lai-yang"},
      {"--algorithm", "stop-the-world", "--reorder"},
  };
  for (std::vector<std::string> args : runs) {
    SCOPED_TRACE(fmt::format("{}", fmt::join(args, " ")));
    args.insert(args.end(), {"--ranks", "4", "--duration", "2s", "--snapshot-every", "20ms",
                             "--rate", "2000"});
    Outcome o = Cluster(args);
    ExpectAddsUp(o, 4000);
    Summary s = Parse(o.out);
    EXPECT_GE(s.complete, 3) << o;
    EXPECT_EQ(s.failed, 0) << o;
    EXPECT_FALSE(Contains(o.err, "warning")) << o;
  }
}

// Chandy-Lamport assumes FIFO channels, and says so at the start of a run
// under --reorder; it runs all the same, and the judge shows it wrong: a
// marker that overtook a transfer closed the channel without it, so the
// money was in neither the sender's recorded balance nor the channel. The
// final total is still right (the end of a stream waits for every transfer
// before it). A run catches it nearly always (every snapshot at 2000
// transfers a second); a few seeds make it certain enough.
TEST(ClusterTest, ChandyLamportOverChannelsThatReorderIsShownWrong) {
  for (int seed = 1; seed <= 4; ++seed) {
    Outcome o = Cluster({"--ranks", "4", "--duration", "2s", "--snapshot-every", "20ms",
                         "--rate", "2000", "--algorithm", "chandy-lamport", "--reorder",
                         "--seed", std::to_string(seed)});
    ASSERT_TRUE(o.exited) << o;
    EXPECT_EQ(o.err.rfind("cutline: warning: chandy-lamport assumes FIFO channels: under "
                          "--reorder its snapshots can be wrong",
                          0),
              0u)
        << o;
    Summary s = Parse(o.out);
    EXPECT_EQ(s.final_total, 4000) << o;
    if (s.wrong > 0) {
      EXPECT_EQ(o.status, 1) << o;
      std::cout << "seed " << seed << ": " << s.wrong << " of " << s.complete
                << " snapshots with a wrong total\n";
      return;
    }
    EXPECT_EQ(o.status, 0) << o;
    std::cout << "seed " << seed << ": no wrong total in " << s.complete << " snapshots\n";
  }
  ADD_FAILURE() << "no seed showed chandy-lamport wrong over channels that reorder";
}

// The warning is the catalogue's, in the run's language.
TEST(ClusterTest, TheReorderWarningIsSaidInJapanese) {
  Outcome o = Cluster({"--ranks", "2", "--duration", "100ms", "--algorithm", "chandy-lamport",
                       "--reorder", "--lang", "ja"});
  ASSERT_TRUE(o.exited) << o;
  EXPECT_EQ(o.err.rfind("cutline: warning: chandy-lamport は FIFO チャネルを前提とします。", 0), 0u)
      << o;
  EXPECT_EQ(Lines(o.err), 1u) << o;
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
      {{"--algorithm", "paxos"},
       "no algorithm is called paxos: the ranks run chandy-lamport or lai-yang or stop-the-world "
       "(aligned or unaligned with --app dataflow)"},
      // Where `cutline check --logs` could not read the run back, and a
      // dataflow's channels, which --reorder does not reach.
      {{"--algorithm", "lai-yang", "--log-dir", "logs"},
       "--log-dir is not available with --algorithm lai-yang"},
      {{"--reorder", "--log-dir", "logs"}, "--log-dir is not available with --reorder"},
      {{"--app", "dataflow", "--reorder"}, "--reorder is not available with --app dataflow"},
      {{"--lang", "ja", "--reorder", "--log-dir", "logs"},
       "--log-dir は --reorder と一緒には使えません"},
      {{"--lang", "ja", "--app", "dataflow", "--reorder"},
       "--reorder は --app dataflow では使えません"},
      {{"--snapshot-timeout", "0s"}, "--snapshot-timeout"},
      {{"--snapshot-timeout", "soon"}, "--snapshot-timeout"},
      {{"--tolerable-failures", "0"}, "--tolerable-failures"},
      {{"--tolerable-failures", "x"}, "--tolerable-failures"},
      // Broken on purpose: the scenario's (testdata/broken_*.txt), never the runtime's.
      {{"--algorithm", "broken-unrecorded-channel"},
       "broken-unrecorded-channel is broken on purpose, for teaching, and runs in scenarios "
       "only"},
      {{"--restore"}, "--restore"},
      {{"--balance", "0"}, "--balance"},
      {{"--bogus"}, "--bogus"},
      {{"--store-max-pages", "0", "--store", "x.db"}, "--store-max-pages"},
      {{"--store-max-pages", "10"}, "--store-max-pages needs --store"},
  };
  for (const auto& [args, mentions] : cases) ExpectRefused(args, mentions);
}

}  // namespace
