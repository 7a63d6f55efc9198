// Delivery throughput of engine::Engine, per snapshot algorithm (bench_util.h's
// Variant: "<benchmark>/<variant>/n:../history:..").
//
// Every branch holds $1,000,000,000 and money only moves around a ring
// (B_i -> B_{i+1 mod n}, $1 at a time), so no branch ever runs dry; on the
// complete DAG of aligned barriers, along the path B0 -> ... -> Bn-1 instead
// (restarted at B0: the last branch cannot send). No snapshot runs: what is
// measured is what each algorithm's bookkeeping adds to a transfer. The bank
// is rebuilt every kRebuildEvery deliveries, outside the timed region, so
// memory stays bounded also with history on (2 events of 32 bytes per
// delivered transfer: its send and its deliver).
//
// BM_TransferDeliver: one Transfer + one delivery per item, with n transfers
//   (one per ring channel; n - 1 on the path) kept in flight; arg 2 picks DeliverNext (0) or
//   Deliver(from, to) (1). items_per_second = deliveries per second,
//   paying for the transfers that feed them.
// BM_DeliverOnly: kBatch ring transfers are queued untimed, then Drain()
//   (= DeliverNext until empty) is timed alone (manual time = wall clock);
//   the counter cpu_items_per_second divides by the thread's CPU time over
//   the same region instead.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <optional>

#include "engine/engine.h"
#include "bench_util.h"

namespace cutline::bench {
namespace {

constexpr cutline::Amount kBalance = 1'000'000'000;
constexpr std::int64_t kRebuildEvery = 1 << 18;
constexpr std::int64_t kBatch = 1 << 16;

std::optional<engine::Engine> MakeBank(const Variant& v, std::uint32_t n, bool history) {
  std::optional<engine::Engine> bank;
  if (!engine::Engine::Create(VariantBank(v, n, kBalance, history), &bank).ok()) {
    std::abort();
  }
  return bank;
}

void BM_TransferDeliver(benchmark::State& state, const Variant& v) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  const bool history = state.range(1) != 0;
  const bool by_channel = state.range(2) != 0;
  const std::uint32_t senders = Senders(v, n);
  std::optional<engine::Engine> bank;
  auto rebuild = [&] {
    bank.reset();
    bank = MakeBank(v, n, history);
    // Prime: one transfer in flight on every ring channel.
    for (sim::NodeId i = 0; i < senders; ++i) {
      if (!bank->Transfer(i, (i + 1) % n, 1).ok()) std::abort();
    }
  };
  rebuild();
  sim::NodeId from = 0;
  std::int64_t since_rebuild = 0;
  for (auto _ : state) {
    sim::NodeId to = from + 1 == n ? 0 : from + 1;
    Status sent = bank->Transfer(from, to, 1);
    Status got = by_channel ? bank->Deliver(from, to) : bank->DeliverNext();
    if (!sent.ok() || !got.ok()) {
      state.SkipWithError("transfer or delivery failed");
      break;
    }
    from = to == senders ? 0 : to;
    if (++since_rebuild == kRebuildEvery) {
      state.PauseTiming();
      rebuild();
      since_rebuild = 0;
      from = 0;
      state.ResumeTiming();
    }
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_DeliverOnly(benchmark::State& state, const Variant& v) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  const bool history = state.range(1) != 0;
  const std::uint32_t senders = Senders(v, n);
  std::optional<engine::Engine> bank;
  std::int64_t since_rebuild = kRebuildEvery;
  double cpu_seconds = 0;
  for (auto _ : state) {
    if (since_rebuild >= kRebuildEvery) {
      bank.reset();
      bank = MakeBank(v, n, history);
      since_rebuild = 0;
    }
    sim::NodeId from = 0;
    for (std::int64_t k = 0; k < kBatch; ++k) {
      sim::NodeId to = from + 1 == n ? 0 : from + 1;
      if (!bank->Transfer(from, to, 1).ok()) std::abort();
      from = to == senders ? 0 : to;
    }
    double cpu_start = ThreadCpuSeconds();
    auto start = std::chrono::steady_clock::now();
    Status s = bank->Drain();
    auto stop = std::chrono::steady_clock::now();
    cpu_seconds += ThreadCpuSeconds() - cpu_start;
    if (!s.ok()) std::abort();
    state.SetIterationTime(std::chrono::duration<double>(stop - start).count());
    since_rebuild += kBatch;
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
  if (cpu_seconds > 0) {
    state.counters["cpu_items_per_second"] =
        static_cast<double>(state.iterations() * kBatch) / cpu_seconds;
  }
  bank.reset();
}

void DeliverArgs(benchmark::internal::Benchmark* b) {
  b->ArgNames({"n", "history", "by_channel"});
  for (int history : {0, 1}) {
    for (int n : {3, 100}) {
      for (int by_channel : {0, 1}) b->Args({n, history, by_channel});
    }
  }
}

// Stop-the-world is no algorithm of the branches: its deliveries are
// Chandy-Lamport's, and it is compared in bench_snapshot.cc.
const Variant kDeliverVariants[] = {kChandyLamport, kLaiYang, kUnaligned,
                                        kAlignedDag};

[[maybe_unused]] const bool kRegistered = [] {
  RegisterPerVariant("BM_TransferDeliver", kDeliverVariants, BM_TransferDeliver,
                     [](benchmark::internal::Benchmark* b) { b->Apply(DeliverArgs); });
  RegisterPerVariant("BM_DeliverOnly", kDeliverVariants, BM_DeliverOnly,
                     [](benchmark::internal::Benchmark* b) {
                       b->ArgNames({"n", "history"})
                           ->ArgsProduct({{3, 100}, {0, 1}})
                           ->UseManualTime();
                     });
  return true;
}();

}  // namespace
}  // namespace cutline::bench
