// One rank of a cluster run: the transport, the rank's role (a branch, or a
// dataflow's vertex) and on rank 0 the coordinator's, in one loop: take
// what arrived (held back by --link-delay), hand each message to its role,
// let each role do what is due, and sleep a little when there was nothing
// to do (ranks may outnumber cores).
#include "runtime/node.h"

#include <mpi.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <csignal>
#include <cstdio>
#include <memory>
#include <thread>

#include "base/error_line.h"
#include "runtime/branch.h"
#include "runtime/branches_policy.h"
#include "runtime/dataflow_policy.h"
#include "runtime/fault.h"
#include "runtime/protocol.h"
#include "runtime/scheduler.h"
#include "runtime/transport.h"
#include "runtime/vertex_rank.h"

namespace cutline::runtime {

namespace {

// SIGUSR1, which mpirun passes on to every rank: `cluster` asks for an early
// end (it got Ctrl-C or SIGTERM). Rank 0 ends the run as at the end of
// --duration; the others only must not die of it.
volatile std::sig_atomic_t g_end_early = 0;
extern "C" void OnEndEarly(int) { g_end_early = 1; }

// Rank 0's scheduler sends through the transport and prints its lines for
// `cluster` (cluster.cc) on standard output.
class TransportOutbox final : public Outbox {
 public:
  explicit TransportOutbox(Transport& transport) : transport_(transport) {}
  void Send(int rank, const protocol::Control& message) override {
    transport_.SendControl(rank, message);
  }
  void Line(std::string_view kind, const nlohmann::json& body) override {
    fmt::print("{} {}\n", kind, body.dump());
    std::fflush(stdout);
  }

 private:
  Transport& transport_;
};

// A rank's two roles for the application the run is of: a branch of the
// bank (jobs, locks) or a vertex of a dataflow, and on rank 0 the
// scheduler with the application's policy. The rank role outlives the
// coordinator (it is declared first).
struct Roles {
  std::unique_ptr<RankRole> rank;
  std::unique_ptr<Outbox> outbox;
  std::unique_ptr<CoordinatorRole> coordinator;
};

Roles MakeRoles(const NodeOptions& o, int rank, int ranks, Transport& transport,
                std::unique_ptr<Sink> sink) {
  Roles roles;
  std::unique_ptr<Policy> policy;
  if (o.dataflow) {
    roles.rank = std::make_unique<VertexRank>(o, *o.dataflow, rank, transport);
    if (rank == kCoordinator) policy = std::make_unique<DataflowPolicy>(o, *o.dataflow);
  } else {
    auto branch = std::make_unique<Branch>(o, rank, ranks, transport);
    if (rank == kCoordinator) {
      auto branches = std::make_unique<BranchesPolicy>(o, ranks);
      branches->OnVerdict(
          [b = branch.get()](SnapshotId id, const apps::Verdict& v) { b->LogVerdict(id, v); });
      policy = std::move(branches);
    }
    roles.rank = std::move(branch);
  }
  if (policy) {
    roles.outbox = std::make_unique<TransportOutbox>(transport);
    roles.coordinator = std::make_unique<Scheduler>(o, ranks, std::move(policy), std::move(sink),
                                                    *roles.outbox);
  }
  return roles;
}

int Run(const NodeOptions& o, int rank, int ranks, Transport& transport,
        std::unique_ptr<Sink> sink, const Say& say) {
  Roles roles = MakeRoles(o, rank, ranks, transport, std::move(sink));
  RankRole& own = *roles.rank;
  CoordinatorRole* coordinator = roles.coordinator.get();
  if (coordinator) {
    if (Status s = coordinator->Begin(); !s.ok()) {
      PrintErrorLine(say(s));
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  // Blocking: nothing else can have been sent to this rank yet.
  protocol::Control first = transport.ReceiveControl(kCoordinator);
  const auto* init = std::get_if<protocol::Init>(&first);
  if (init == nullptr) {
    throw Fault(Status::Error(Code::kRuntimeFirstNotInit, protocol::Name(first)));
  }
  own.Begin(*init);
  MPI_Barrier(MPI_COMM_WORLD);

  const auto start = Clock::now();
  own.Go(start);
  if (coordinator) coordinator->Started(start);
  for (;;) {
    bool busy = transport.Poll();
    while (auto e = transport.NextDue()) {
      busy = true;
      if (!e->control) {
        own.OnFrame(e->source, e->bytes);
        continue;
      }
      protocol::Control message = protocol::DecodeControl(e->bytes);
      if (own.OnControl(message)) continue;
      if (!coordinator) {
        throw Fault(Status::Error(Code::kRuntimeNotCoordinator, e->source, rank,
                                  protocol::Name(message)));
      }
      coordinator->OnControl(e->source, message, e->bytes.size(), Clock::now());
    }
    auto now = Clock::now();
    if (coordinator && g_end_early) coordinator->EndEarly(now);
    if (coordinator) busy |= coordinator->Tick(now);
    busy |= own.Tick(now);
    transport.Reap();
    if (own.final_sent() && (!coordinator || coordinator->finished())) break;
    if (!busy) {
      // Ranks may outnumber cores: give the core away while idle.
      std::this_thread::sleep_for(std::chrono::microseconds(o.rate > 0 ? 100 : 20));
    }
  }
  transport.Flush();
  own.Finish();
  if (!coordinator) return 0;
  coordinator->End();
  return coordinator->exit_code();
}

}  // namespace

int RunNode(const NodeOptions& options, int* argc, char*** argv,
            const std::function<std::unique_ptr<Sink>(std::uint32_t)>& make_sink,
            const Say& say) {
  int provided = 0;
  // Rank 0's sink may write from a thread of its own; only this thread calls MPI.
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    if (rank == 0) {
      PrintErrorLine(say(Status::Error(Code::kTooFewRanks)));
    }
    MPI_Finalize();
    return 2;
  }
  if (options.dataflow && options.dataflow->topology.vertices() != static_cast<std::uint32_t>(size)) {
    // mpirun started directly with another -n: one rank per vertex.
    if (rank == 0) {
      const dataflow::Topology& t = options.dataflow->topology;
      PrintErrorLine(say(Status::Error(Code::kRanksNotTopology, size, t.spec(), t.vertices())));
    }
    MPI_Finalize();
    return 2;
  }
  if (options.kill && options.kill->rank >= static_cast<std::uint32_t>(size)) {
    if (rank == 0) {
      PrintErrorLine(say(Status::Error(Code::kKillRankOutOfRange, options.kill->rank, size)));
    }
    MPI_Finalize();
    return 2;
  }
  struct sigaction end_early {};
  end_early.sa_handler = OnEndEarly;
  sigemptyset(&end_early.sa_mask);
  ::sigaction(SIGUSR1, &end_early, nullptr);
  MPI_Comm bank, ctl;
  MPI_Comm_dup(MPI_COMM_WORLD, &bank);
  MPI_Comm_dup(MPI_COMM_WORLD, &ctl);
  int code = 0;
  try {
    std::unique_ptr<Sink> sink =
        rank == 0 ? make_sink(static_cast<std::uint32_t>(size)) : std::make_unique<NullSink>();
    // --reorder's hold-back draws from the run's seed, differently on each rank.
    const Reorder reorder =
        options.reorder ? Reorder{kMostHeldBack, options.seed * 7919u + static_cast<unsigned>(rank)}
                        : Reorder{};
    Transport transport(bank, ctl, options.link_delay, reorder);
    code = Run(options, rank, size, transport, std::move(sink), say);
  } catch (const Fault& fault) {
    // Said once, by the rank at fault, and the whole job ends with it.
    PrintErrorLine(say(Status::Error(Code::kRankFault, rank, fault.status())));
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
  } catch (const std::exception& e) {
    // What a library throws (bad_alloc, MPI's errors), in its own words.
    PrintErrorLine(say(Status::Error(Code::kRankFailed, rank, e.what())));
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Comm_free(&bank);
  MPI_Comm_free(&ctl);
  MPI_Finalize();
  return code;
}

}  // namespace cutline::runtime
