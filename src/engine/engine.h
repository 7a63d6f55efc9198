// The engine: branches running one application (src/apps: the bank's money,
// jobs, locks), messages over FIFO (or reordering) channels, snapshots taken
// by the algorithm of its Config (the algorithm's SnapshotHost,
// src/algorithms/), stopping the world, and the naive reader; and the
// history of it all. It never asks which application or algorithm runs.
// Every operation checks everything first and changes nothing when it
// returns an error.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "algorithms/algorithm.h"
#include "algorithms/snapshot_host.h"
#include "apps/app.h"
#include "base/cloned.h"
#include "base/status.h"
#include "engine/vocabulary.h"
#include "history/history.h"
#include "sim/network.h"

namespace cutline::engine {

// The simulated network carrying the application's messages and markers.
using Network = sim::Network<Payload, IsTransfer>;

// A letter, then letters, digits or '_' (the scenario language's rule).
bool IsValidBranchName(std::string_view name);

struct BranchSpec {
  std::string name;
  Amount balance = 0;  // the application's initial state (apps/app.h)
};

using apps::App;

// The snapshot algorithm every branch runs (the registry,
// algorithms/algorithm.h; docs/variants in docs/scenario-language.md).
using algorithms::Algorithm;
// "chandy-lamport", "lai-yang", "aligned", "unaligned", ...
inline std::string_view AlgorithmName(Algorithm a) { return a.name(); }

// Every member but `app` has a default (the `{}`s): Config{.app = ...}.
struct Config {
  std::vector<BranchSpec> branches{};
  // Directed channels by branch name; nullopt = every ordered pair.
  std::optional<std::vector<std::pair<std::string, std::string>>> links{};
  std::uint32_t capacity_transfers = 0;  // 0 = unlimited
  bool one_snapshot_at_a_time = false;   // snapshots=one
  bool keep_history = true;
  bool fifo = true;                       // fifo=no: channels may reorder
  Algorithm algorithm = Algorithm::kChandyLamport;
  // What the branches compute (apps/app.h). No default: the engine never
  // assumes an application, so whoever builds a run names it.
  App app;
};

// The run-wide view of one snapshot (each branch's part is in its agent).
struct SnapshotInfo {
  SnapshotId id = 0;
  std::vector<NodeId> initiators;  // in the order they started
  std::uint64_t markers_sent = 0;
  std::uint32_t parts_done = 0;
  bool complete = false;
  bool stop_the_world = false;  // taken by StopTheWorld, not an algorithm
  std::uint64_t stopped_deliveries = 0;
};

struct NaiveRead {
  NodeId branch;
  Amount balance;
  std::size_t history_index;  // when the read happened
};

class Engine final : public apps::Branches {
 public:
  // Fails on an invalid configuration (fewer than 2 branches, duplicate or
  // bad names, links naming an unknown branch, self-loops, duplicates).
  static Status Create(const Config& config, std::optional<Engine>* out);
  // A copy that goes on independently (its algorithm's hosts cloned):
  // `cutline explore` branches a run at every choice.
  Engine(const Engine& other) = default;
  Engine& operator=(const Engine&) = delete;
  Engine(Engine&&) = default;
  Engine& operator=(Engine&&) = default;

  Status Transfer(NodeId from, NodeId to, Amount amount);
  // Any application's message: `word` leaves `from` (whose state the
  // application changes) for `to`. The application's command has checked
  // its own rule; this checks the channel and its capacity.
  Status SendMessage(NodeId from, NodeId to, Amount word) override;
  // A step of `n`'s own, no message (jobs: finishing one). The
  // application's command has checked it may.
  Status LocalStep(NodeId n) override;
  // Fails unless from->to is a channel (then *c names it).
  Status CheckChannel(NodeId from, NodeId to, ChannelId* c) const override;
  bool Carries(ChannelId c, Amount word) const override;
  // `at`: the at-th oldest message waiting (1 = the oldest).
  Status Deliver(NodeId from, NodeId to, std::uint64_t at = 1);
  Status DeliverNext();
  Status Drain();
  // Stops every branch, delivers everything in flight, reads every balance
  // as one snapshot and resumes.
  Status StopTheWorld();
  Status Read(NodeId branch);
  // Starts a new snapshot (id == nullopt) or joins running snapshot *id.
  Status StartSnapshot(NodeId branch, std::optional<SnapshotId> id);

  std::size_t branch_count() const { return fixed_->names.size(); }
  const std::string& name(NodeId n) const override { return fixed_->names[n]; }
  // Every branch's name, by NodeId.
  const std::vector<std::string>& names() const { return fixed_->names; }
  std::optional<NodeId> FindBranch(const std::string& name) const;
  // The branch's state: a balance, a job count, whom it waits for.
  Amount state(NodeId n) const override { return balances_[n]; }
  App app() const { return fixed_->config.app; }
  Amount total() const { return total_; }
  Amount in_flight_amount() const { return in_flight_amount_; }
  const Network& network() const { return network_; }
  const History& history() const { return history_; }
  const Config& config() const { return fixed_->config; }
  Amount initial_balance(NodeId n) const { return fixed_->config.branches[n].balance; }

  const std::vector<SnapshotInfo>& snapshots() const { return snapshots_; }
  const SnapshotInfo* FindSnapshot(SnapshotId id) const;
  const SnapshotInfo* Running() const;  // the newest incomplete, if any
  bool HasRecorded(NodeId n, SnapshotId id) const;
  bool PartDone(NodeId n, SnapshotId id) const;
  std::optional<Amount> RecordedBalance(NodeId n, SnapshotId id) const;
  ChannelRecord RecordedChannel(SnapshotId id, ChannelId c) const;
  // Sum of recorded balances and channel states; meaningful once complete.
  Amount SnapshotTotal(SnapshotId id) const;

  // In the order branches were first read; a re-read updates in place.
  const std::vector<NaiveRead>& naive_reads() const { return naive_; }

  Algorithm algorithm() const { return fixed_->config.algorithm; }
  // The algorithm snapshot `id` was taken by (stop-the-world, or the
  // bank's). REQUIRES: FindSnapshot(id) != nullptr.
  Algorithm AlgorithmOf(SnapshotId id) const;
  // traits().tags_messages (Lai-Yang): a transfer's epoch or a control
  // message's count; 0 else. Without a history, only for messages in flight.
  std::uint64_t MessageTag(Seq seq) const { return host_->Tag(seq); }
  // Broken on purpose (traits().markers_after_next_transfer): `n` started
  // `id` and keeps its markers until its next transfer.
  bool HoldsMarkers(NodeId n, SnapshotId id) const;
  // The snapshots whose recorded channel state delivered transfer #seq
  // joined, as the algorithm's host said (empty for one that
  // joined none, or without a history).
  const std::vector<SnapshotId>& JoinedBy(Seq transfer) const;
  // Aligned: the incoming channels `n` still waits for in snapshot `id`.
  std::vector<ChannelId> AlignmentWaits(NodeId n, SnapshotId id) const;

 private:
  Engine(Config config, std::vector<std::string> names,
       std::unordered_map<std::string, NodeId> index, Network network);
  // The host that keeps snapshot id's records. REQUIRES: id was started.
  const SnapshotHost& HostOf(SnapshotId id) const;

  Status CheckBranch(NodeId n) const;
  void SendWord(ChannelId c, NodeId from, Amount word);
  void Send(ChannelId c, const Payload& payload);
  void SendMarkers(NodeId n, const Step& step, SnapshotInfo& snapshot);
  void Receive(const Network::Msg& m);
  void FinishStep(NodeId n, const Step& step, SnapshotInfo& snapshot,
                  Cause cause, std::optional<ChannelId> closed);
  SnapshotInfo& MutableSnapshot(SnapshotId id);

  // What never changes once the run is made, shared by every copy: a copy
  // of a run (cutline explore makes one at every step) copies a pointer.
  struct Fixed {
    Config config;
    std::vector<std::string> names;
    std::unordered_map<std::string, NodeId> index;  // name -> branch
  };
  std::shared_ptr<const Fixed> fixed_;
  Network network_;
  History history_;
  std::vector<Amount> balances_;
  // The algorithm's side at every branch, and (made at the first stop)
  // stopping the world's.
  Cloned<SnapshotHost> host_;
  Cloned<SnapshotHost> stop_host_;
  // From the algorithm's traits, read on every message.
  bool sees_every_transfer_ = false;
  bool tags_messages_ = false;
  bool app_conserved_ = true;  // a conserved application's deliveries stay two additions
  std::uint32_t running_ = 0;  // snapshots started and not complete
  std::vector<Reply> replies_;  // a transfer's, reused (Receive)
  std::vector<SnapshotId> joined_;  // a transfer's, reused (Receive)
  // By branch, only under traits().markers_after_next_transfer (else
  // empty): the snapshots the branch started and keeps the markers of.
  std::vector<std::vector<SnapshotId>> held_markers_;
  // With a history: what each delivered transfer joined (JoinedBy), for
  // the transfers that joined something.
  std::unordered_map<Seq, std::vector<SnapshotId>> joins_;
  Amount total_ = 0;
  Amount in_flight_amount_ = 0;
  std::vector<SnapshotInfo> snapshots_;  // by id (ids are 1, 2, 3, ...)
  std::vector<NaiveRead> naive_;
};

}  // namespace cutline::engine
