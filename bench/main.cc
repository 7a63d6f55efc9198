// cutline_bench: Google Benchmark's main, plus a child mode used by the
// snapshot benchmark to measure peak RSS in a fresh process:
//   cutline_bench --cutline-child <baseline|construct|snapshot> <n> <0|1> <variant>
// (variant: a position in bench_util.h's kVariants).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <string>

#ifndef CUTLINE_BUILD_TYPE
#define CUTLINE_BUILD_TYPE ""
#endif

#include "bench_util.h"

int main(int argc, char** argv) {
  if (argc == 6 && std::strcmp(argv[1], "--cutline-child") == 0) {
    return cutline::bench::RunSnapshotChild(
        argv[2], static_cast<std::uint32_t>(std::strtoul(argv[3], nullptr, 10)),
        std::strcmp(argv[4], "1") == 0, std::strtoul(argv[5], nullptr, 10));
  }
  benchmark::AddCustomContext("cutline_build_type", CUTLINE_BUILD_TYPE[0]
                                                      ? CUTLINE_BUILD_TYPE
                                                      : "(none: unoptimised)");
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
