// One snapshot on a network of n branches, per snapshot algorithm
// (bench_util.h's Variant), from StartSnapshot until Drain() returns with the
// snapshot complete; for stop-the-world, Bank::StopTheWorld.
//
// BM_Snapshot/<variant>/n/history: the complete graph (n(n-1) channels, so
// n(n-1) markers) at n = 1000 for every algorithm that runs there, and at
// n = 10 and 100 for Chandy-Lamport; aligned barriers (and Chandy-Lamport, as
// their yardstick) on the complete DAG at n = 1414: 998,991 channels, the
// nearest count to 999,000, with B0 the one source.
// BM_VersusStop/<variant>/n/backlog: per iteration, one snapshot of the
// algorithm and, on a bank built the same way, one stop of the world; with
// `backlog` transfers waiting on every channel when it starts. The time is
// the algorithm's; stop_ms is the stop's, time_ratio the one over the other,
// and stopped_deliveries the deliveries the stop held every branch still for
// (the algorithm holds none: a branch may send between any two deliveries).
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
//    heap_B_per_channel = heap_peak / channels; heap_snapshot_MiB = highest
//    live during the snapshot minus live after Create (what the algorithm
//    adds to the bank, whatever the bank was built from).
//  - rss_*: peak RSS (VmHWM) of a fresh child process
//    (this binary, --cutline-child) that does only the measured work:
//    rss_peak_MiB = the whole process (construct + snapshot, including the
//    program's own baseline); rss_net_MiB = that minus a child that does
//    nothing; rss_B_per_channel = rss_net / channels.
#include <benchmark/benchmark.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "alloc_counter.h"
#include "engine/engine.h"
#include "bench_util.h"

extern char** environ;

namespace cutline::bench {
namespace {

// Enough for a backlog of $1 on each of a branch's (up to 1413) channels.
constexpr cutline::Amount kBalance = 1'000'000;
constexpr double kMiB = 1024.0 * 1024.0;

// Runs this binary in child mode; returns the child's peak RSS in bytes
// (its VmHWM, which it prints on stdout), or -1. Not wait4's ru_maxrss: on
// Linux that carries the parent's high-water mark across posix_spawn.
double ChildPeakRss(const std::string& mode, std::uint32_t n, bool history,
                    std::size_t variant) {
  std::string n_arg = std::to_string(n);
  std::string h_arg = history ? "1" : "0";
  std::string v_arg = std::to_string(variant);
  char arg0[] = "cutline_bench";
  char arg1[] = "--cutline-child";
  char* argv[] = {arg0,         arg1,         const_cast<char*>(mode.c_str()),
                  n_arg.data(), h_arg.data(), v_arg.data(),
                  nullptr};
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

// The variant's position in kVariants, which is how a child is told it.
std::size_t VariantIndex(const Variant& v) {
  for (std::size_t i = 0; i < std::size(kVariants); ++i) {
    if (std::strcmp(kVariants[i].name, v.name) == 0) return i;
  }
  std::abort();
}

const Rss& ChildRss(std::uint32_t n, bool history, std::size_t variant) {
  static std::map<std::tuple<std::uint32_t, bool, std::size_t>, Rss> cache;
  auto key = std::make_tuple(n, history, variant);
  auto it = cache.find(key);
  if (it == cache.end()) {
    Rss r{ChildPeakRss("baseline", n, history, variant),
          ChildPeakRss("construct", n, history, variant),
          ChildPeakRss("snapshot", n, history, variant)};
    it = cache.emplace(key, r).first;
  }
  return it->second;
}

// Every branch sends $1 on each of its outgoing channels, `per_channel`
// times: what is waiting when the snapshot starts.
void QueueBacklog(engine::Engine& bank, std::int64_t per_channel) {
  for (std::int64_t k = 0; k < per_channel; ++k) {
    for (sim::ChannelId c = 0; c < bank.network().channel_count(); ++c) {
      const sim::ChannelInfo& ch = bank.network().channel(c);
      if (!bank.Transfer(ch.from, ch.to, 1).ok()) std::abort();
    }
  }
}

// One complete snapshot, taken the variant's way (or by stopping the world,
// if `stop`), checked untimed: complete, one marker per channel (none for a
// stop), and the bank's total. Returns the deliveries a stop held the bank
// still for, or -1 on failure.
std::int64_t SnapshotOnce(engine::Engine& bank, bool stop, double* seconds = nullptr,
                          double* cpu_seconds = nullptr) {
  double c0 = ThreadCpuSeconds();
  auto t0 = std::chrono::steady_clock::now();
  bool ok = stop ? bank.StopTheWorld().ok()
                 : bank.StartSnapshot(0, std::nullopt).ok() && bank.Drain().ok();
  auto t1 = std::chrono::steady_clock::now();
  double c1 = ThreadCpuSeconds();
  if (seconds != nullptr) *seconds = std::chrono::duration<double>(t1 - t0).count();
  if (cpu_seconds != nullptr) *cpu_seconds = c1 - c0;
  const engine::SnapshotInfo* info = bank.FindSnapshot(1);
  ok = ok && info != nullptr && info->complete &&
       info->markers_sent == (stop ? 0 : bank.network().channel_count()) &&
       bank.SnapshotTotal(1) == bank.total();
  return ok ? static_cast<std::int64_t>(info->stopped_deliveries) : -1;
}

std::optional<engine::Engine> Build(const engine::Config& config) {
  std::optional<engine::Engine> bank;
  if (!engine::Engine::Create(config, &bank).ok()) std::abort();
  return bank;
}

void BM_Snapshot(benchmark::State& state, const Variant& v) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  const bool history = state.range(1) != 0;
  const engine::Config config = VariantBank(v, n, kBalance, history);
  double construct_seconds = 0, construct_cpu = 0, snapshot_cpu = 0;
  double heap_bank = 0, heap_peak = 0, heap_snapshot = 0, channels = 0;
  for (auto _ : state) {
    std::size_t before = HeapLive();
    ResetHeapPeak();
    double c0 = ThreadCpuSeconds();
    auto t0 = std::chrono::steady_clock::now();
    std::optional<engine::Engine> bank = Build(config);
    auto t1 = std::chrono::steady_clock::now();
    double c1 = ThreadCpuSeconds();
    std::size_t after_construct = HeapLive();
    std::size_t construct_peak = HeapPeak();
    ResetHeapPeak();
    double seconds = 0, cpu = 0;
    std::int64_t stopped = SnapshotOnce(*bank, v.stop_the_world, &seconds, &cpu);
    std::size_t snapshot_peak = HeapPeak();
    heap_peak = static_cast<double>(std::max(construct_peak, snapshot_peak) - before);
    heap_bank = static_cast<double>(after_construct - before);
    heap_snapshot = static_cast<double>(snapshot_peak - after_construct);
    channels = static_cast<double>(bank->network().channel_count());
    if (stopped < 0) {
      state.SkipWithError("snapshot incomplete, or its total is not the bank's");
      break;
    }
    construct_seconds += std::chrono::duration<double>(t1 - t0).count();
    construct_cpu += c1 - c0;
    snapshot_cpu += cpu;
    state.SetIterationTime(seconds);
  }
  using benchmark::Counter;
  state.SetItemsProcessed(state.iterations() *
                          static_cast<std::int64_t>(channels));  // channels
  state.counters["construct_ms"] =
      Counter(construct_seconds * 1000.0, Counter::kAvgIterations);
  state.counters["construct_cpu_ms"] =
      Counter(construct_cpu * 1000.0, Counter::kAvgIterations);
  state.counters["snapshot_cpu_ms"] =
      Counter(snapshot_cpu * 1000.0, Counter::kAvgIterations);
  state.counters["heap_bank_MiB"] = heap_bank / kMiB;
  state.counters["heap_peak_MiB"] = heap_peak / kMiB;
  state.counters["heap_snapshot_MiB"] = heap_snapshot / kMiB;
  state.counters["heap_B_per_channel"] = heap_peak / channels;
  const Rss& rss = ChildRss(n, history, VariantIndex(v));
  state.counters["rss_peak_MiB"] = rss.snapshot / kMiB;
  state.counters["rss_net_MiB"] = (rss.snapshot - rss.baseline) / kMiB;
  state.counters["rss_B_per_channel"] = (rss.snapshot - rss.baseline) / channels;
}

void BM_VersusStop(benchmark::State& state, const Variant& v) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  const std::int64_t backlog = state.range(1);
  const engine::Config config = VariantBank(v, n, kBalance, false);
  double algorithm_seconds = 0, stop_seconds = 0;
  std::int64_t stopped = 0;
  for (auto _ : state) {
    double seconds[2] = {0, 0};
    for (bool stop : {false, true}) {
      state.PauseTiming();  // (manual time: this only keeps the books)
      std::optional<engine::Engine> bank = Build(config);
      QueueBacklog(*bank, backlog);
      state.ResumeTiming();
      stopped = SnapshotOnce(*bank, stop, &seconds[stop]);
      if (stopped < 0) break;
    }
    if (stopped < 0) {
      state.SkipWithError("snapshot incomplete, or its total is not the bank's");
      break;
    }
    algorithm_seconds += seconds[0];
    stop_seconds += seconds[1];
    state.SetIterationTime(seconds[0]);
  }
  using benchmark::Counter;
  state.counters["stop_ms"] = Counter(stop_seconds * 1000.0, Counter::kAvgIterations);
  state.counters["time_ratio"] = stop_seconds > 0 ? algorithm_seconds / stop_seconds : 0;
  state.counters["stopped_deliveries"] = static_cast<double>(stopped);
}

// Complete graph at 1000, complete DAG at 1414 (998,991 channels).
std::int64_t BigN(const Variant& v) { return v.graph == Graph::kComplete ? 1000 : 1414; }

const Variant kBigOnly[] = {kLaiYang, kUnaligned, kAlignedDag, kChandyLamportDag};
const Variant kAlgorithms[] = {kChandyLamport, kLaiYang, kAlignedDag};

void SnapshotArgs(benchmark::internal::Benchmark* b, std::vector<std::int64_t> ns) {
  b->ArgNames({"n", "history"})
      ->ArgsProduct({std::move(ns), {0, 1}})
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
}

[[maybe_unused]] const bool kRegistered = [] {
  RegisterPerVariant("BM_Snapshot", std::span(&kChandyLamport, 1), BM_Snapshot,
                     [](benchmark::internal::Benchmark* b) {
                       SnapshotArgs(b, {10, 100, 1000});
                     });
  for (const Variant& v : kBigOnly) {
    RegisterPerVariant("BM_Snapshot", std::span(&v, 1), BM_Snapshot,
                       [&](benchmark::internal::Benchmark* b) {
                         SnapshotArgs(b, {BigN(v)});
                       });
  }
  // A stop with nothing in flight takes microseconds; the iterations are
  // fixed, or the benchmark would build the bank thousands of times.
  RegisterPerVariant("BM_Snapshot", std::span(&kStopTheWorld, 1), BM_Snapshot,
                     [](benchmark::internal::Benchmark* b) {
                       SnapshotArgs(b, {1000});
                       b->Iterations(5);
                     });
  auto versus = [](std::vector<std::vector<std::int64_t>> args) {
    return [args](benchmark::internal::Benchmark* b) {
      b->ArgNames({"n", "backlog"})->UseManualTime()->Unit(benchmark::kMillisecond);
      for (const auto& a : args) b->Args(a);
    };
  };
  for (const Variant& v : kAlgorithms) {
    RegisterPerVariant("BM_VersusStop", std::span(&v, 1), BM_VersusStop,
                       versus({{BigN(v), 0}, {BigN(v), 1}}));
  }
  // Unaligned barriers with a backlog: before sim::Network parked the
  // messages stuck behind a barrier, each delivery rescanned those delivered
  // since, so this grew with the square of the backlog and stopped at
  // n = 200; n = 100, 200, 400 and 1000 show it growing with the messages.
  RegisterPerVariant("BM_VersusStop", std::span(&kUnaligned, 1), BM_VersusStop,
                     versus({{1000, 0}, {100, 1}, {200, 1}, {400, 1}, {1000, 1}}));
  return true;
}();

}  // namespace

int RunSnapshotChild(const std::string& mode, std::uint32_t n, bool history,
                     std::size_t variant) {
  if (variant >= std::size(kVariants)) return 2;
  const Variant& v = kVariants[variant];
  std::optional<engine::Engine> bank;
  if (mode != "baseline") {
    const engine::Config config = VariantBank(v, n, kBalance, history);
    if (!engine::Engine::Create(config, &bank).ok()) return 1;
    if (mode == "snapshot" && SnapshotOnce(*bank, v.stop_the_world) < 0) return 1;
    if (mode != "construct" && mode != "snapshot") return 2;
  }
  std::printf("%ld\n", PeakRssKiB());
  return 0;
}

}  // namespace cutline::bench
