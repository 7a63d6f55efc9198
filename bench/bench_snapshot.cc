// One Chandy-Lamport snapshot on a complete graph of n branches
// (n(n-1) channels, so n(n-1) markers), from StartSnapshot until Drain()
// returns with the snapshot complete.
//
// Time: the reported time (manual, wall clock) is StartSnapshot + Drain
// only; building the bank (Bank::Create: topology, agents) is timed
// separately and reported as the counter construct_ms. snapshot_cpu_ms and
// construct_cpu_ms are the same regions in thread CPU time (user + system),
// which a busy machine does not inflate.
//
// Memory, two ways, both reported as counters:
//  - heap_*: in-process count of bytes held through operator new
//    (alloc_counter.h). heap_bank_MiB = live after Create; heap_peak_MiB =
//    highest live during Create + snapshot (both relative to before Create);
//    heap_B_per_channel = heap_peak / channels.
//  - rss_*: peak RSS (VmHWM) of a fresh child process
//    (this binary, --cutline-child) that does only the measured work:
//    rss_peak_MiB = the whole process (construct + snapshot, including the
//    program's own baseline); rss_net_MiB = that minus a child that does
//    nothing; rss_B_per_channel = rss_net / channels.
#include <benchmark/benchmark.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <tuple>

#include "alloc_counter.h"
#include "bank/bank.h"
#include "bench_util.h"

extern char** environ;

namespace cutline::bench {
namespace {

constexpr bank::Amount kBalance = 1000;
constexpr double kMiB = 1024.0 * 1024.0;

// Runs this binary in child mode; returns the child's peak RSS in bytes
// (its VmHWM, which it prints on stdout), or -1. Not wait4's ru_maxrss: on
// Linux that carries the parent's high-water mark across posix_spawn.
double ChildPeakRss(const std::string& mode, std::uint32_t n, bool history) {
  std::string n_arg = std::to_string(n);
  std::string h_arg = history ? "1" : "0";
  char arg0[] = "cutline_bench";
  char arg1[] = "--cutline-child";
  char* argv[] = {arg0, arg1, const_cast<char*>(mode.c_str()),
                  n_arg.data(), h_arg.data(), nullptr};
  int fds[2];
  if (pipe(fds) != 0) return -1;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  pid_t pid;
  int spawned = posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv,
                            environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (spawned != 0) {
    close(fds[0]);
    return -1;
  }
  std::string out;
  char buf[256];
  for (ssize_t got; (got = read(fds[0], buf, sizeof buf)) > 0;) {
    out.append(buf, static_cast<std::size_t>(got));
  }
  close(fds[0]);
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0) {
    return -1;
  }
  return std::strtod(out.c_str(), nullptr) * 1024.0;  // printed in KiB
}

// This process's peak RSS in KiB (VmHWM), or -1.
long PeakRssKiB() {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return -1;
  char line[256];
  long kib = -1;
  while (std::fgets(line, sizeof line, f) != nullptr) {
    if (std::strncmp(line, "VmHWM:", 6) == 0) {
      kib = std::strtol(line + 6, nullptr, 10);
      break;
    }
  }
  std::fclose(f);
  return kib;
}

struct Rss {
  double baseline, construct, snapshot;
};

const Rss& ChildRss(std::uint32_t n, bool history) {
  static std::map<std::pair<std::uint32_t, bool>, Rss> cache;
  auto key = std::make_pair(n, history);
  auto it = cache.find(key);
  if (it == cache.end()) {
    Rss r{ChildPeakRss("baseline", n, history),
          ChildPeakRss("construct", n, history),
          ChildPeakRss("snapshot", n, history)};
    it = cache.emplace(key, r).first;
  }
  return it->second;
}

bool SnapshotOnce(bank::Bank& bank) {
  if (!bank.StartSnapshot(0, std::nullopt).ok()) return false;
  if (!bank.Drain().ok()) return false;
  const bank::SnapshotInfo* info = bank.FindSnapshot(1);
  return info != nullptr && info->complete &&
         info->markers_sent == bank.network().channel_count();
}

void BM_Snapshot(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  const bool history = state.range(1) != 0;
  const bank::Config config = CompleteBank(n, kBalance, history);
  const double channels = static_cast<double>(n) * (n - 1);
  double construct_seconds = 0, construct_cpu = 0, snapshot_cpu = 0;
  double heap_bank = 0, heap_peak = 0;
  for (auto _ : state) {
    std::size_t before = HeapLive();
    ResetHeapPeak();
    double c0 = ThreadCpuSeconds();
    auto t0 = std::chrono::steady_clock::now();
    std::optional<bank::Bank> bank;
    if (!bank::Bank::Create(config, &bank).ok()) std::abort();
    auto t1 = std::chrono::steady_clock::now();
    double c1 = ThreadCpuSeconds();
    std::size_t after_construct = HeapLive();
    bool ok = SnapshotOnce(*bank);
    auto t2 = std::chrono::steady_clock::now();
    double c2 = ThreadCpuSeconds();
    heap_peak = static_cast<double>(HeapPeak() - before);
    heap_bank = static_cast<double>(after_construct - before);
    if (!ok) {
      state.SkipWithError("snapshot did not complete");
      break;
    }
    if (bank->SnapshotTotal(1) != bank->total()) {
      state.SkipWithError("snapshot total differs from the bank's total");
      break;
    }
    construct_seconds += std::chrono::duration<double>(t1 - t0).count();
    construct_cpu += c1 - c0;
    snapshot_cpu += c2 - c1;
    state.SetIterationTime(std::chrono::duration<double>(t2 - t1).count());
  }
  using benchmark::Counter;
  state.SetItemsProcessed(state.iterations() *
                          static_cast<std::int64_t>(channels));  // markers
  state.counters["construct_ms"] =
      Counter(construct_seconds * 1000.0, Counter::kAvgIterations);
  state.counters["construct_cpu_ms"] =
      Counter(construct_cpu * 1000.0, Counter::kAvgIterations);
  state.counters["snapshot_cpu_ms"] =
      Counter(snapshot_cpu * 1000.0, Counter::kAvgIterations);
  state.counters["heap_bank_MiB"] = heap_bank / kMiB;
  state.counters["heap_peak_MiB"] = heap_peak / kMiB;
  state.counters["heap_B_per_channel"] = heap_peak / channels;
  const Rss& rss = ChildRss(n, history);
  state.counters["rss_peak_MiB"] = rss.snapshot / kMiB;
  state.counters["rss_net_MiB"] = (rss.snapshot - rss.baseline) / kMiB;
  state.counters["rss_B_per_channel"] = (rss.snapshot - rss.baseline) / channels;
}

BENCHMARK(BM_Snapshot)
    ->ArgNames({"n", "history"})
    ->ArgsProduct({{10, 100, 1000}, {0, 1}})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

int RunSnapshotChild(const std::string& mode, std::uint32_t n, bool history) {
  std::optional<bank::Bank> bank;
  if (mode != "baseline") {
    const bank::Config config = CompleteBank(n, kBalance, history);
    if (!bank::Bank::Create(config, &bank).ok()) return 1;
    if (mode == "snapshot" && !SnapshotOnce(*bank)) return 1;
    if (mode != "construct" && mode != "snapshot") return 2;
  }
  std::printf("%ld\n", PeakRssKiB());
  return 0;
}

}  // namespace cutline::bench
