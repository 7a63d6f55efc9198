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

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "machine.h"

namespace {

nlohmann::json RunCluster(const std::string& binary, int ranks, int rate, const std::string& delay,
                          const std::string& algorithm, const std::string& every, int seconds) {
  std::string command = fmt::format(
      "{} cluster --json --ranks {} --rate {} --balance 10000000 --duration {}s "
      "--link-delay {} --algorithm {}{}",
      binary, ranks, rate, seconds, delay, algorithm,
      every.empty() ? "" : " --snapshot-every " + every);
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


}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Chandy-Lamport against stop-the-world on a running cluster"};
  std::string binary = "build-release/cutline";
  std::vector<int> ranks = {2, 4, 8};
  int seconds = 3;
  int rate = 10000;
  app.add_option("--cutline", binary, "The cutline binary")->capture_default_str();
  app.add_option("--ranks", ranks, "Rank counts")->delimiter(',');
  app.add_option("--seconds", seconds, "Length of each run")->capture_default_str();
  app.add_option("--rate", rate, "Transfers per second offered by each branch")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

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
