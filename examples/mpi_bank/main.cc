// mpi_bank: Chandy-Lamport in an MPI program of your own. Every rank is a
// branch holding $100 that sends random transfers to the others; halfway,
// rank 0 starts a snapshot. What it takes:
//   - the agent (cutline/snapshot_agent.h) in every rank, fed every arrival;
//   - markers and transfers in ONE ordered stream: one communicator, one tag,
//     each message a frame (cutline/wire.h), so no marker overtakes;
//   - parts sent to rank 0 on a second communicator, where a collector
//     (cutline/collector.h) assembles them.
// Rank 0 prints the snapshot and exits 1 unless it adds up to the bank.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <cutline/collector.h>
#include <cutline/snapshot_agent.h>
#include <cutline/wire.h>

namespace {

using Amount = std::int64_t;
using Agent = cutline::SnapshotAgent<Amount, Amount>;
using Collector = cutline::SnapshotCollector<Amount, Amount>;
constexpr int kTag = 0;
constexpr cutline::SnapshotId kSnapshot = 1;
constexpr Amount kOpening = 100;
constexpr int kTransfers = 200;  // per rank

std::string AmountBytes(Amount a) { return std::string(reinterpret_cast<const char*>(&a), sizeof a); }
Amount ReadAmount(std::string_view bytes) {
  Amount a = 0;
  std::memcpy(&a, bytes.data(), sizeof a);
  return a;
}

struct Rank {
  int me = 0, n = 0;
  MPI_Comm bank{}, parts{};
  Amount balance = kOpening;
  Agent agent{0, 0};
  int ends = 0;  // peers that said they will send no more transfers

  // Incoming channels are numbered 0..n-2 by sender, skipping this rank.
  cutline::ChannelIndex In(int sender) const {
    return static_cast<cutline::ChannelIndex>(sender < me ? sender : sender - 1);
  }
  void Send(int to, const std::string& frame) {
    MPI_Send(frame.data(), static_cast<int>(frame.size()), MPI_BYTE, to, kTag, bank);
  }
  void Step(const cutline::Step& step) {
    if (step.record_state) {
      // Rule 1: before anything else, a marker on every outgoing channel.
      for (int j = 0; j < n; ++j) {
        if (j != me) Send(j, cutline::wire::EncodeMarker(kSnapshot));
      }
    }
    if (step.part_done) {
      // The part: recorded balance, then each channel's count and amounts.
      std::string part = AmountBytes(agent.Find(kSnapshot)->state);
      for (cutline::ChannelIndex c = 0; c < agent.incoming_channels(); ++c) {
        auto recorded = agent.ChannelMessages(kSnapshot, c);
        part += AmountBytes(static_cast<Amount>(recorded.size()));
        for (Amount a : recorded) part += AmountBytes(a);
      }
      MPI_Send(part.data(), static_cast<int>(part.size()), MPI_BYTE, 0, kTag, parts);
    }
  }
  // Takes one message off the bank stream, if one is there (or waits for
  // one). Says whether it took one.
  bool Receive(bool wait) {
    int flag = 1;
    MPI_Status st;
    if (wait) {
      MPI_Probe(MPI_ANY_SOURCE, kTag, bank, &st);
    } else {
      MPI_Iprobe(MPI_ANY_SOURCE, kTag, bank, &flag, &st);
      if (!flag) return false;
    }
    int size = 0;
    MPI_Get_count(&st, MPI_BYTE, &size);
    std::string bytes(static_cast<std::size_t>(size), '\0');
    MPI_Recv(bytes.data(), size, MPI_BYTE, st.MPI_SOURCE, kTag, bank, MPI_STATUS_IGNORE);
    auto frame = cutline::wire::Decode(bytes);
    if (!frame || frame->kind == cutline::wire::FrameKind::kPart) MPI_Abort(MPI_COMM_WORLD, 3);
    if (frame->kind == cutline::wire::FrameKind::kMarker) {
      Step(agent.OnMarker(frame->snapshot, In(st.MPI_SOURCE), balance));
    } else if (frame->payload.empty()) {
      ++ends;  // an empty application frame: that peer is done sending
    } else {
      Amount amount = ReadAmount(frame->payload);
      agent.OnMessage(In(st.MPI_SOURCE), amount);  // recorded if its channel is recording
      balance += amount;
    }
    return true;
  }
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Rank r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r.me);
  MPI_Comm_size(MPI_COMM_WORLD, &r.n);
  if (r.n < 2) {
    if (r.me == 0) std::fprintf(stderr, "mpi_bank: run with at least 2 ranks\n");
    MPI_Finalize();
    return 2;
  }
  MPI_Comm_dup(MPI_COMM_WORLD, &r.bank);
  MPI_Comm_dup(MPI_COMM_WORLD, &r.parts);
  r.agent = Agent(static_cast<std::uint32_t>(r.n - 1), static_cast<std::uint32_t>(r.n - 1));
  std::mt19937 rng(static_cast<unsigned>(r.me) + 7);
  MPI_Barrier(MPI_COMM_WORLD);  // start together, so that transfers cross

  for (int i = 0; i < kTransfers; ++i) {
    if (r.me == 0 && i == kTransfers / 2) r.Step(r.agent.Start(kSnapshot, r.balance));
    if (r.balance > 0) {
      int to = static_cast<int>(rng() % static_cast<unsigned>(r.n - 1));
      if (to >= r.me) ++to;
      Amount amount = 1 + static_cast<Amount>(rng() % static_cast<unsigned>(std::min<Amount>(r.balance, 3)));
      r.balance -= amount;
      r.Send(to, cutline::wire::EncodeApplication(AmountBytes(amount)));
    }
    while (r.Receive(false)) {
    }
  }
  for (int j = 0; j < r.n; ++j) {
    if (j != r.me) r.Send(j, cutline::wire::EncodeApplication(""));
  }
  // Until every peer is done and every marker has come.
  while (r.ends < r.n - 1 || !r.agent.PartDone(kSnapshot)) r.Receive(true);

  int code = 0;
  if (r.me == 0) {
    Collector collector(static_cast<cutline::ProcessIndex>(r.n));
    for (int k = 0; k < r.n; ++k) {
      MPI_Status st;
      MPI_Probe(MPI_ANY_SOURCE, kTag, r.parts, &st);
      int size = 0;
      MPI_Get_count(&st, MPI_BYTE, &size);
      std::string bytes(static_cast<std::size_t>(size), '\0');
      MPI_Recv(bytes.data(), size, MPI_BYTE, st.MPI_SOURCE, kTag, r.parts, MPI_STATUS_IGNORE);
      Collector::Part part;
      std::size_t at = 0;
      auto next = [&] { Amount a = ReadAmount(std::string_view(bytes).substr(at)); at += sizeof a; return a; };
      part.state = next();
      part.channels.resize(static_cast<std::size_t>(r.n - 1));
      for (auto& channel : part.channels) {
        channel.resize(static_cast<std::size_t>(next()));
        for (Amount& a : channel) a = next();
      }
      collector.Add(kSnapshot, static_cast<cutline::ProcessIndex>(st.MPI_SOURCE), std::move(part));
    }
    auto parts = collector.Take(kSnapshot);
    Amount total = 0;
    for (int k = 0; k < r.n; ++k) {
      const auto& part = (*parts)[static_cast<std::size_t>(k)];
      Amount in_channels = 0;
      for (const auto& channel : part.channels) {
        for (Amount a : channel) in_channels += a;
      }
      std::printf("rank %d recorded $%lld, and $%lld in flight towards it\n", k,
                  static_cast<long long>(part.state), static_cast<long long>(in_channels));
      total += part.state + in_channels;
    }
    Amount bank = kOpening * r.n;
    std::printf("snapshot total: $%lld of $%lld: %s\n", static_cast<long long>(total),
                static_cast<long long>(bank), total == bank ? "conserved" : "NOT conserved");
    code = total == bank ? 0 : 1;
  } else {
    code = 0;
  }
  MPI_Comm_free(&r.bank);
  MPI_Comm_free(&r.parts);
  MPI_Finalize();
  return code;
}
