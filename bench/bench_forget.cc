// BM_ForgetUntaken: n parts finished and never taken, then forgotten oldest
// first, through SnapshotAgent under Chandy-Lamport and Lai-Yang. 0.3 erased
// each from the front of a sorted vector: 200,000 took 24 s (quadratic).
// Since 0.4 a Forget marks its slot and the marked ones are squeezed out in
// bulk (cutline/running_table.h): the time per part should not grow with n,
// so compare the per-part figures of the two sizes. Only the Forgets are
// timed; src/core/host_api_test.cc checks that they are right.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "cutline/lai_yang_rules.h"
#include "cutline/marker_rules.h"
#include "cutline/snapshot_agent.h"

namespace cutline::bench {
namespace {

template <class Rules>
void BM_ForgetUntaken(benchmark::State& state) {
  const auto n = static_cast<SnapshotId>(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    // No incoming channel: each part is done at its Start.
    SnapshotAgent<int, int, Rules> agent(0, 0, IdLimits{.running_max = n});
    for (SnapshotId id = 1; id <= n; ++id) agent.Start(id, 0);
    state.ResumeTiming();
    for (SnapshotId id = 1; id <= n; ++id) benchmark::DoNotOptimize(agent.Forget(id));
    state.PauseTiming();
    if (agent.retained() != 0) state.SkipWithError("parts left after forgetting them all");
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
}

BENCHMARK(BM_ForgetUntaken<MarkerRules>)->Arg(20'000)->Arg(200'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ForgetUntaken<LaiYangRules>)->Arg(20'000)->Arg(200'000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cutline::bench
