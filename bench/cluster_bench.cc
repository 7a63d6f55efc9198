// `make bench-cluster`: what a snapshot costs a running bank, Chandy-Lamport
// against stopping the world, in one run. For 2, 4 and 8 ranks, with no link
// delay and with 2 ms, it runs `cutline cluster` with no snapshots, then
// with each algorithm every 100 ms and every 10 ms, and prints transfers per
// second, the loss against no snapshots in the same run, snapshot latency
// (start to collected) and, for stop-the-world, how long the bank stood
// still. docs/performance.md keeps the table.
//
// Each branch offers a fixed rate the machine can carry (--rate), rather
// than `max`: with more ranks than cores, "as fast as it can" measures the
// scheduler, and runs of the same setting differ by half. At a fixed rate,
// what a snapshot costs shows as transfers not sent while the bank stood
// still.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "machine.h"

namespace {

// Runs `command` (a `cutline cluster --json`) and returns its summary; null
// (said on standard error) if it failed.
nlohmann::json RunJson(const std::string& command) {
  std::FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return nullptr;
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  int status = ::pclose(pipe);
  auto summary = nlohmann::json::parse(out, nullptr, false);
  if (status != 0 || summary.is_discarded()) {
    fmt::print(stderr, "bench-cluster: `{}` failed:\n{}\n", command, out);
    return nullptr;
  }
  return summary;
}

nlohmann::json RunCluster(const std::string& binary, int ranks, const std::string& rate,
                          const std::string& delay, const std::string& algorithm,
                          const std::string& every, int seconds, const std::string& more = "") {
  std::string command = fmt::format(
      "{} cluster --json --ranks {} --rate {} --balance 10000000 --duration {}s "
      "--link-delay {} --algorithm {}{}{}",
      binary, ranks, rate, seconds, delay, algorithm,
      every.empty() ? "" : " --snapshot-every " + every, more);
  return RunJson(command);
}


// The 1-, 5- and 15-minute load averages, and the processes runnable right
// now (/proc/loadavg). The averages still carry the previous rows' ranks (64
// runnable processes lift them for minutes); the count now, between rows,
// is the other work on the machine.
std::string Load() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen, running;
  in >> one >> five >> fifteen >> running;
  return fmt::format("{} {} {}, {} now", one, five, fifteen, running.substr(0, running.find('/')));
}

// CPU seconds of every descendant waited for so far (`cluster`, mpirun and,
// through them, every rank).
double ChildrenCpu() {
  rusage u{};
  ::getrusage(RUSAGE_CHILDREN, &u);
  auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return seconds(u.ru_utime) + seconds(u.ru_stime);
}

int Scale(const std::string& binary, const std::vector<int>& ranks, const std::string& rate,
          const std::string& every, int seconds) {
  fmt::print("Machine: {}. Each row: one `cutline cluster --rate {} --snapshot-every {} "
             "--duration {}s --store` run (Chandy-Lamport); load: the averages just before it and "
             "the processes runnable then.\n\n",
             cutline::bench::Machine(), rate, every, seconds);
  fmt::print("| ranks | load before | transfers/s | complete | latency p50 / p99 ms | collect p50 / "
             "p99 ms | bytes per snapshot | rank 0 peak RSS | rank 0 CPU | all ranks' CPU | "
             "rank 0 share |\n");
  fmt::print("|---|---|---|---|---|---|---|---|---|---|---|\n");
  std::fflush(stdout);
  const auto dir = std::filesystem::temp_directory_path() /
                   fmt::format("cutline-bench-scale-{}", ::getpid());
  std::filesystem::create_directories(dir);
  int failures = 0;
  for (int n : ranks) {
    const std::string store = (dir / fmt::format("scale-{}.db", n)).string();
    const std::string load = Load();
    const double cpu_before = ChildrenCpu();
    nlohmann::json s =
        RunCluster(binary, n, rate, "0ms", "chandy-lamport", every, seconds, " --store " + store);
    const double job_cpu = ChildrenCpu() - cpu_before;
    std::filesystem::remove(store);
    if (s.is_null()) {
      ++failures;
      continue;
    }
    const double rank0_cpu = s["rank0_cpu_s"].get<double>();
    fmt::print("| {} | {} | {:.0f} | {} | {:.2f} / {:.2f} | {:.2f} / {:.2f} | {:.0f} | {:.1f} MiB | "
               "{:.2f} s | {:.2f} s | {:.1f}% (1/N = {:.1f}%) |\n",
               n, load, s["transfers_per_s"].get<double>(), s["complete"].get<std::uint64_t>(),
               s["latency_p50_us"].get<double>() / 1000, s["latency_p99_us"].get<double>() / 1000,
               s["collect_p50_us"].get<double>() / 1000, s["collect_p99_us"].get<double>() / 1000,
               s["collected_bytes_per_snapshot"].get<double>(),
               static_cast<double>(s["rank0_peak_rss_bytes"].get<std::uint64_t>()) / (1 << 20),
               rank0_cpu, job_cpu, job_cpu > 0 ? 100.0 * rank0_cpu / job_cpu : 0.0, 100.0 / n);
    std::fflush(stdout);
  }
  std::filesystem::remove_all(dir);
  return failures == 0 ? 0 : 1;
}

// `make bench-detect`: how long after a stable property really began to
// hold a snapshot says so, against the snapshot interval. Each setting runs
// a few seeds of `cutline cluster --app jobs` (termination: from the last
// job's finish) and `--app locks` (deadlock: from the request that closed
// the cycle), by the ranks' clocks, to the detecting snapshot being whole on
// rank 0. The aim: within one interval (the property can begin just after a
// snapshot started) plus one snapshot's latency.
int Detect(const std::string& binary, const std::vector<int>& ranks, int runs, int jobs) {
  fmt::print("Machine: {}. Each row: {} runs (seeds 1..{}) of `cutline cluster --app A "
             "--snapshot-every E --link-delay D` (jobs: `--jobs {}`). Delay: from the moment the "
             "property began to hold (jobs: the last job's finish; locks: the request that closed "
             "the cycle) to the detecting snapshot collected. Aim: E + that run's snapshot latency "
             "p99. Naive: its wrong declarations (false terminations, phantom deadlocks) of all it "
             "made.\n\n",
             cutline::bench::Machine(), runs, runs, jobs);
  fmt::print("| app | ranks | link delay | every | delay p50 / max ms | latency p50 / p99 ms | "
             "within aim | snapshots to detect (mean) | naive: wrong / declared |\n");
  fmt::print("|---|---|---|---|---|---|---|---|---|\n");
  std::fflush(stdout);
  int failures = 0;
  for (const char* app : {"jobs", "locks"}) {
    const std::string app_flags = std::string(app) == "jobs"
                                      ? fmt::format("--app jobs --jobs {}", jobs)
                                      : std::string("--app locks");
    for (int n : ranks) {
      for (const char* delay : {"0ms", "2ms"}) {
        for (const char* every : {"10ms", "50ms", "200ms"}) {
          std::vector<double> delays, p50s, p99s;
          int within = 0;
          double snapshots = 0;
          std::uint64_t naive_wrong = 0, naive_declared = 0;
          for (int seed = 1; seed <= runs; ++seed) {
            std::string command = fmt::format(
                "{} cluster --json {} --ranks {} --link-delay {} --snapshot-every {} "
                "--duration 60s --seed {}",
                binary, app_flags, n, delay, every, seed);
            const nlohmann::json s = RunJson(command);
            if (s.is_null() || s["property"]["delay_us"].is_null()) {
              if (!s.is_null()) fmt::print(stderr, "bench-detect: `{}` never detected\n", command);
              ++failures;
              continue;
            }
            const nlohmann::json& p = s["property"];
            const double d = p["delay_us"].get<double>() / 1000;
            const double p99 = s["latency_p99_us"].get<double>() / 1000;
            delays.push_back(d);
            p50s.push_back(s["latency_p50_us"].get<double>() / 1000);
            p99s.push_back(p99);
            const double interval = std::stod(every);  // "50ms": 50
            if (d <= interval + p99) ++within;
            snapshots += static_cast<double>(s["complete"].get<std::uint64_t>());
            naive_wrong += p["naive_false"].get<std::uint64_t>();
            naive_declared += p["naive_declared"].get<std::uint64_t>();
          }
          if (delays.empty()) continue;
          std::sort(delays.begin(), delays.end());
          std::sort(p50s.begin(), p50s.end());
          std::sort(p99s.begin(), p99s.end());
          const double count = static_cast<double>(delays.size());
          fmt::print(
              "| {} | {} | {} | {} | {:.1f} / {:.1f} | {:.2f} / {:.2f} | {} of {} | {:.1f} | {} / {} "
              "|\n",
              app, n, delay, every, delays[delays.size() / 2], delays.back(), p50s[p50s.size() / 2],
              p99s.back(), within, delays.size(), snapshots / count, naive_wrong, naive_declared);
          std::fflush(stdout);
        }
      }
    }
  }
  return failures == 0 ? 0 : 1;
}

// `make bench-dataflow`: what each barrier algorithm costs a dataflow, with
// and without backpressure. For 4, 8 and 16 ranks (topologies 1-2-1, 2-4-2
// and 4-8-4: sources, operators, sinks), with no slow vertex and with the
// first operator four times slower than a source (its inputs stay full), it
// runs `cutline cluster --app dataflow` without snapshots, then aligned,
// unaligned and aligned with a 20 ms alignment timeout, a snapshot every
// 100 ms, and prints throughput at the sinks against the run without
// snapshots, the snapshots' duration, alignment, records held back and bytes
// persisted, and the snapshots the timeout switched.
int Dataflow(const std::string& binary, const std::vector<int>& ranks, int seconds) {
  fmt::print("Machine: {}. Each row: one `cutline cluster --app dataflow --topology T --rate 1000 "
             "--buffers 8 --duration {}s` run; slow: `--slow R:4` on the first operator (it takes "
             "250 records a second of the 500 to 1000 that reach it).\n\n",
             cutline::bench::Machine(), seconds);
  fmt::print("| ranks | topology | slow | snapshots | records/s | loss | complete | duration p50 / "
             "p99 / max ms | alignment p50 / p99 ms | held back | bytes persisted | switched |\n");
  fmt::print("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  std::fflush(stdout);
  int failures = 0;
  for (int n : ranks) {
    // A quarter sources, half operators, a quarter sinks.
    const int edge = std::max(1, n / 4);
    const std::string topology = fmt::format("{}-{}-{}", edge, n - 2 * edge, edge);
    for (bool slow : {false, true}) {
      const std::string base_command = fmt::format(
          "{} cluster --json --app dataflow --topology {} --rate 1000 --buffers 8 --duration {}s{}",
          binary, topology, seconds, slow ? fmt::format(" --slow {}:4", edge) : "");
      const nlohmann::json none = RunJson(base_command + " --algorithm aligned");
      if (none.is_null()) {
        ++failures;
        continue;
      }
      const double base = none["transfers_per_s"].get<double>();
      fmt::print("| {} | {} | {} | none | {:.0f} | - | - | - | - | - | - | - |\n", n, topology,
                 slow ? "yes" : "no", base);
      const std::pair<const char*, const char*> modes[] = {
          {"aligned", "--algorithm aligned"},
          {"unaligned", "--algorithm unaligned"},
          {"aligned, 20 ms timeout", "--algorithm aligned --alignment-timeout 20ms"}};
      for (const auto& [name, flags] : modes) {
        const nlohmann::json s =
            RunJson(fmt::format("{} {} --snapshot-every 100ms", base_command, flags));
        if (s.is_null()) {
          ++failures;
          continue;
        }
        const double rps = s["transfers_per_s"].get<double>();
        fmt::print("| {} | {} | {} | {} every 100 ms | {:.0f} | {:+.1f}% | {} | {:.1f} / {:.1f} / "
                   "{:.1f} | {:.1f} / {:.1f} | {:.1f} | {:.0f} | {} |\n",
                   n, topology, slow ? "yes" : "no", name, rps, 100.0 * (rps - base) / base,
                   s["complete"].get<std::uint64_t>(), s["latency_p50_us"].get<double>() / 1000,
                   s["latency_p99_us"].get<double>() / 1000,
                   s["latency_max_us"].get<double>() / 1000,
                   s["alignment_p50_us"].get<double>() / 1000,
                   s["alignment_p99_us"].get<double>() / 1000,
                   s["held_back_per_snapshot"].get<double>(),
                   s["persisted_bytes_per_snapshot"].get<double>(),
                   s["switched_snapshots"].get<std::uint64_t>());
        std::fflush(stdout);
      }
    }
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Chandy-Lamport against stop-the-world on a running cluster"};
  std::string binary = "build-release/cutline";
  std::vector<int> ranks;
  int seconds = 0;
  std::string rate;
  bool scale = false;
  std::string every = "100ms";
  app.add_option("--cutline", binary, "The cutline binary")->capture_default_str();
  app.add_option("--ranks", ranks, "Rank counts (default 2,4,8; with --scale 2,4,...,64)")
      ->delimiter(',');
  app.add_option("--seconds", seconds, "Length of each run (default 3; with --scale 8)");
  app.add_option("--rate", rate,
                 "Transfers per second offered by each branch, or max (default 10000; with "
                 "--scale 1000)");
  app.add_flag("--scale", scale, "How a Chandy-Lamport run grows with its ranks");
  bool detect = false;
  int runs = 5, jobs = 30;
  app.add_flag("--detect", detect, "Detection delay of --app jobs and --app locks runs");
  app.add_option("--runs", runs, "With --detect: runs (seeds) per setting")->capture_default_str();
  app.add_option("--jobs", jobs, "With --detect: each branch's jobs at the start")
      ->capture_default_str();
  app.add_option("--snapshot-every", every, "With --scale: the snapshot interval")
      ->capture_default_str();
  bool dataflow = false;
  app.add_flag("--dataflow", dataflow, "A dataflow's barrier algorithms, with and without backpressure");
  CLI11_PARSE(app, argc, argv);
  if (dataflow) {
    return Dataflow(binary, ranks.empty() ? std::vector<int>{4, 8, 16} : ranks,
                    seconds > 0 ? seconds : 5);
  }
  if (detect) return Detect(binary, ranks.empty() ? std::vector<int>{2, 4, 8} : ranks, runs, jobs);
  if (scale) {
    return Scale(binary, ranks.empty() ? std::vector<int>{2, 4, 8, 16, 32, 64} : ranks,
                 rate.empty() ? "1000" : rate, every, seconds > 0 ? seconds : 8);
  }
  if (ranks.empty()) ranks = {2, 4, 8};
  if (seconds <= 0) seconds = 3;
  if (rate.empty()) rate = "10000";

  fmt::print("Machine: {}. Each row: one `cutline cluster --rate {}` run of {} s.\n\n", cutline::bench::Machine(),
             rate, seconds);
  fmt::print("| ranks | link delay | snapshots | transfers/s | loss | complete | latency p50 / p99 ms | stop p50 / p99 ms |\n");
  fmt::print("|---|---|---|---|---|---|---|---|\n");
  std::fflush(stdout);
  int failures = 0;
  for (int n : ranks) {
    for (const char* delay : {"0ms", "2ms"}) {
      nlohmann::json none = RunCluster(binary, n, rate, delay, "chandy-lamport", "", seconds);
      if (none.is_null()) {
        ++failures;
        continue;
      }
      double base = none["transfers_per_s"].get<double>();
      fmt::print("| {} | {} | none | {:.0f} | - | - | - | - |\n", n, delay, base);
      for (const char* algorithm : {"chandy-lamport", "stop-the-world"}) {
        for (const char* every : {"100ms", "10ms"}) {
          nlohmann::json s = RunCluster(binary, n, rate, delay, algorithm, every, seconds);
          if (s.is_null()) {
            ++failures;
            continue;
          }
          double tps = s["transfers_per_s"].get<double>();
          bool stw = std::string(algorithm) == "stop-the-world";
          fmt::print("| {} | {} | {} every {} | {:.0f} | {:+.1f}% | {} | {:.2f} / {:.2f} | {} |\n", n,
                     delay, stw ? "stop-the-world" : "Chandy-Lamport", every, tps,
                     100.0 * (tps - base) / base, s["complete"].get<std::uint64_t>(),
                     s["latency_p50_us"].get<double>() / 1000,
                     s["latency_p99_us"].get<double>() / 1000,
                     stw ? fmt::format("{:.2f} / {:.2f}", s["stop_p50_us"].get<double>() / 1000,
                                       s["stop_p99_us"].get<double>() / 1000)
                         : std::string("-"));
          std::fflush(stdout);
        }
      }
    }
  }
  return failures == 0 ? 0 : 1;
}
