// The registry of snapshot algorithms: every algorithm the project knows, by
// the name a person types, with the facts the hosts ask about it (its traits)
// and the codes of the words it is told in (its words; the sentences are in
// src/scenario's catalogues). Each algorithm is one folder below this one
// (src/algorithms/<name>/), which defines its Definition; the list of folders
// is made by the build (src/algorithms/CMakeLists.txt), so this is the only place
// that enumerates them. docs/design.md, "Adding an algorithm".
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "algorithms/words.h"

namespace cutline::sim {
class Topology;
}

namespace cutline::dataflow {
class VertexAgent;
}

namespace cutline::algorithms {

class RankAgent;
class SnapshotHost;

// What the hosts (the bank, the parser, the checker's adapter, the runtime)
// need to know about an algorithm, instead of asking which one it is.
struct Traits {
  // Several snapshots may run at once (snapshots=many).
  bool concurrent_snapshots = false;
  // Refuses channels that reorder (fifo=no).
  bool needs_fifo = false;
  // Takes a consistent snapshot over channels that reorder. (One that does
  // not, and does not refuse them either, is what a fifo=no run shows.)
  bool correct_without_fifo = false;
  // Refuses a network with a directed cycle.
  bool needs_acyclic = false;
  // Only a branch with no incoming channel starts a snapshot.
  bool only_sources_start = false;
  // Transfers carry their sender's epoch and markers a count (Lai-Yang);
  // the bank keeps these tags beside the messages.
  bool tags_messages = false;
  // The host must see every delivered transfer, not only while a snapshot
  // runs (an epoch may start a snapshot).
  bool sees_every_transfer = false;
  // A branch records only once a marker has come on every input (aligned):
  // the checker then expects the markers before the record.
  bool records_after_all_markers = false;
  // Markers jump the queue and the sender records what they overtake.
  bool sender_records_overtaken = false;
  // Not the branches' algorithm but the whole bank (or cluster) stopping
  // for one read: no markers at all.
  bool stops_the_world = false;
  // Chandy-Lamport with one rule broken, for teaching (broken-*): its
  // snapshots may be wrong on any network, which the checker shows.
  bool broken_on_purpose = false;
  // Broken on purpose (broken-late-markers): a branch that starts (or
  // joins) a snapshot keeps its markers until after its next transfer (the
  // bank sends them then). A branch recording on a marker sends its own at
  // once, so the snapshot completes once every initiator has transferred.
  bool markers_after_next_transfer = false;

  // Meant to take consistent snapshots on a network whose channels are FIFO
  // (`fifo`) or reorder: not broken on purpose, and FIFO channels, an
  // algorithm right without them, or the world stopped (which needs no
  // order). Where it is not, a wrong snapshot is what the run shows.
  constexpr bool RightOn(bool fifo) const {
    return !broken_on_purpose && (fifo || correct_without_fifo || stops_the_world);
  }
};

// Whether the simulated bank runs an algorithm by name (algorithm=NAME in
// a network line; stop-the-world is the bank's own command instead). Who
// else runs it is said by what its Definition provides: the MPI runtime's
// ranks run the algorithms that name a rank agent (Algorithm::runs_on_ranks)
// and its dataflow those that name a vertex agent (runs_on_dataflow).
struct Hosts {
  bool scenario = false;
};

// One algorithm, as its folder defines it. Literal types only, so that every
// Definition is constant-initialised (no order of initialisation to mind).
struct Definition {
  std::string_view name;  // "chandy-lamport": the scenario's and CLI's word
  Traits traits;
  Words words;
  Hosts hosts;
  // The bank's side of the algorithm at every branch of `topology`.
  std::unique_ptr<algorithms::SnapshotHost> (*make_engine_host)(
      const sim::Topology& topology, bool keep_history) = nullptr;
  // The runtime's side at one rank (rank_agent.h: MakeRankAgent<Rules>);
  // none for an algorithm the cluster's ranks cannot run.
  std::unique_ptr<RankAgent> (*make_rank_agent)(std::uint32_t incoming,
                                                std::uint32_t outgoing) = nullptr;
  // The runtime's dataflow side at one vertex, barriers through a DAG of
  // sources, operators and sinks (dataflow/vertex_agent.h:
  // MakeVertexAgent<Rules>); none for an algorithm a dataflow cannot run.
  std::unique_ptr<dataflow::VertexAgent> (*make_vertex_agent)(std::uint32_t inputs,
                                                             std::uint32_t outputs) = nullptr;
};

// A handle on one registered algorithm: cheap to copy, compared by identity.
class Algorithm {
 public:
  constexpr explicit Algorithm(const Definition* d) : d_(d) {}

  // The registered algorithm of that name, if any.
  static std::optional<Algorithm> Find(std::string_view name);
  // Every registered algorithm, in the order of their folders' names.
  static std::span<const Algorithm> All();

  std::string_view name() const { return d_->name; }
  const Traits& traits() const { return d_->traits; }
  const Words& words() const { return d_->words; }
  const Hosts& hosts() const { return d_->hosts; }
  // `cutline cluster --algorithm NAME` runs it: its ranks host its rules
  // (make_rank_agent; stop-the-world's answer the coordinator's rounds).
  bool runs_on_ranks() const { return d_->make_rank_agent != nullptr; }
  // `cutline cluster --app dataflow --algorithm NAME` runs it: its
  // vertices host its rules (make_vertex_agent).
  bool runs_on_dataflow() const { return d_->make_vertex_agent != nullptr; }
  const Definition& definition() const { return *d_; }

  bool operator==(const Algorithm& o) const { return d_ == o.d_; }

  // The algorithms that existed before the registry, named for code and
  // tests that choose one (each defined in its own folder). A new algorithm
  // needs none of these: Find() it by name.
  static const Algorithm kChandyLamport;
  static const Algorithm kLaiYang;
  static const Algorithm kAligned;
  static const Algorithm kUnaligned;
  static const Algorithm kStopTheWorld;

 private:
  const Definition* d_;
};

}  // namespace cutline::algorithms
