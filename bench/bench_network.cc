// sim::Network alone: a message stuck behind one sent ahead of it (an
// unaligned barrier's overtaken transfer) while `backlog` others are
// delivered. Time per delivery should not grow with the backlog: before the
// parking of stuck messages (docs/performance.md) every delivery rescanned
// all those delivered since, so the total grew with the backlog's square.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "sim/network.h"

namespace cutline::bench {
namespace {

// The transfers count against a channel's capacity; the one sent ahead (a
// barrier, -1) does not, as the network requires of what it sends ahead.
struct TransfersBounded {
  bool operator()(int payload) const { return payload >= 0; }
};

void BM_DeliverBehindAhead(benchmark::State& state) {
  const auto backlog = static_cast<int>(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    sim::Network<int, TransfersBounded> net(3, sim::Topology::Complete(3), 0, true);
    const sim::ChannelId stuck = net.Find(0, 1), other = net.Find(1, 2);
    net.Send(stuck, 0);
    for (int i = 0; i < backlog; ++i) net.Send(other, i);
    net.SendAhead(stuck, -1);
    state.ResumeTiming();
    while (net.AnyInFlight()) benchmark::DoNotOptimize(net.DeliverNext());
  }
  state.SetItemsProcessed(state.iterations() * (backlog + 2));
}
BENCHMARK(BM_DeliverBehindAhead)
    ->ArgName("backlog")
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace cutline::bench
