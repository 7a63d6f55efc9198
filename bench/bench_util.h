// Shared helpers for the benchmarks.
#pragma once

#include <benchmark/benchmark.h>
#include <time.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "engine/engine.h"

namespace cutline::bench {

// n branches B0..B{n-1}, each holding `balance`, complete graph.
inline engine::Config CompleteBank(std::uint32_t n, cutline::Amount balance,
                                 bool keep_history) {
  engine::Config config;
  config.branches.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    // (Not "B" + std::to_string(i): GCC 12 -Wrestrict false positive.)
    std::string name = std::to_string(i);
    name.insert(name.begin(), 'B');
    config.branches.push_back({std::move(name), balance});
  }
  config.keep_history = keep_history;
  return config;
}

// The networks the benchmarks run on.
enum class Graph : std::uint8_t {
  kComplete,     // every ordered pair: n(n-1) channels
  kCompleteDag,  // Bi -> Bj for every i < j: n(n-1)/2 channels, one source B0
};

// What a benchmark measures: one snapshot algorithm of the bank on one kind
// of network, or stopping the world (Bank::StopTheWorld on a
// Chandy-Lamport bank, which then takes no snapshot of its own).
struct Variant {
  const char* name;  // the benchmark name's second part
  algorithms::Algorithm algorithm;
  bool fifo;
  Graph graph;
  bool stop_the_world;
};

// Aligned barriers need an acyclic network whose sources start, so they run
// on the complete DAG; Chandy-Lamport runs there too, as their yardstick.
// Lai-Yang runs over channels that reorder, the network it exists for.
inline const Variant kChandyLamport{"chandy-lamport", algorithms::Algorithm::kChandyLamport,
                                        true, Graph::kComplete, false};
inline const Variant kLaiYang{"lai-yang-fifo-no", algorithms::Algorithm::kLaiYang, false,
                                  Graph::kComplete, false};
inline const Variant kUnaligned{"unaligned", algorithms::Algorithm::kUnaligned, true,
                                    Graph::kComplete, false};
inline const Variant kAlignedDag{"aligned-dag", algorithms::Algorithm::kAligned, true,
                                     Graph::kCompleteDag, false};
inline const Variant kChandyLamportDag{"chandy-lamport-dag",
                                           algorithms::Algorithm::kChandyLamport, true,
                                           Graph::kCompleteDag, false};
inline const Variant kStopTheWorld{"stop-the-world", algorithms::Algorithm::kChandyLamport,
                                       true, Graph::kComplete, true};

// Every variant, in one list so that a child process can be told one by its
// position (bench_snapshot.cc).
inline const Variant kVariants[] = {kChandyLamport, kLaiYang,          kUnaligned,
                                        kAlignedDag,    kChandyLamportDag, kStopTheWorld};

// The bank of `n` branches holding `balance` each, on the variant's network,
// running its algorithm.
inline engine::Config VariantBank(const Variant& v, std::uint32_t n,
                                cutline::Amount balance, bool keep_history) {
  engine::Config config = CompleteBank(n, balance, keep_history);
  config.algorithm = v.algorithm;
  config.fifo = v.fifo;
  if (v.graph == Graph::kCompleteDag) {
    config.links.emplace();
    config.links->reserve(static_cast<std::size_t>(n) * (n - 1) / 2);
    for (std::uint32_t i = 0; i < n; ++i) {
      for (std::uint32_t j = i + 1; j < n; ++j) {
        config.links->emplace_back(config.branches[i].name,
                                   config.branches[j].name);
      }
    }
  }
  return config;
}

// The benchmarks move money Bi -> B(i+1 mod n). On the complete graph every
// branch sends in turn (a ring); on the complete DAG Bn-1 has no outgoing
// channel, so the senders are B0..Bn-2 (a path, restarted at B0).
inline std::uint32_t Senders(const Variant& v, std::uint32_t n) {
  return v.graph == Graph::kComplete ? n : n - 1;
}

// Registers body(state, variant) once per variant, named
// "<base>/<variant>", and hands each to `configure` (arguments, units).
inline void RegisterPerVariant(
    const std::string& base, std::span<const Variant> variants,
    void (*body)(benchmark::State&, const Variant&),
    const std::function<void(benchmark::internal::Benchmark*)>& configure) {
  for (const Variant& v : variants) {
    configure(benchmark::RegisterBenchmark((base + "/" + v.name).c_str(), body, v));
  }
}

// CPU time of the calling thread (user + system, so page faults count), in
// seconds. Unlike wall time it does not grow while other processes hold the
// CPU, which matters on a shared 2-core machine.
inline double ThreadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Child-process entry point (see main.cc): runs one phase of the snapshot
// benchmark in a fresh process so that its peak RSS can be read; `variant`
// is a position in kVariants.
int RunSnapshotChild(const std::string& mode, std::uint32_t n, bool history,
                     std::size_t variant);

}  // namespace cutline::bench
