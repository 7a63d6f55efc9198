// The example application: branches holding money, transfers over FIFO
// channels, Chandy-Lamport snapshots driven by one SnapshotAgent per branch,
// and the naive reader. Every operation checks everything first and changes
// nothing when it returns an error.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "bank/history.h"
#include "base/status.h"
#include "cutline/barrier_rules.h"
#include "cutline/lai_yang_rules.h"
#include "cutline/snapshot_agent.h"
#include <map>
#include "sim/network.h"

namespace cutline::bank {

// The simulated network carrying the bank's transfers and markers.
using Network = sim::Network<Payload, IsTransfer>;

// A letter, then letters, digits or '_' (the scenario language's rule).
bool IsValidBranchName(std::string_view name);

struct BranchSpec {
  std::string name;
  Amount balance = 0;
};

// The snapshot algorithm every branch runs (docs/variants in
// docs/scenario-language.md).
enum class Algorithm : std::uint8_t { kChandyLamport, kLaiYang, kAligned, kUnaligned };
// "chandy-lamport", "lai-yang", "aligned", "unaligned".
const char* AlgorithmName(Algorithm a);

struct Config {
  std::vector<BranchSpec> branches;
  // Directed channels by branch name; nullopt = every ordered pair.
  std::optional<std::vector<std::pair<std::string, std::string>>> links;
  std::uint32_t capacity_transfers = 0;  // 0 = unlimited
  bool one_snapshot_at_a_time = false;   // snapshots=one
  bool keep_history = true;
  bool fifo = true;                       // fifo=no: channels may reorder
  Algorithm algorithm = Algorithm::kChandyLamport;
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

struct ChannelRecord {
  ChannelRecording state = ChannelRecording::kNotRecorded;
  std::vector<Amount> transfers;  // in the order received
  // Unaligned barriers: the transfers the barrier overtook (the tail of
  // `transfers`, which they also belong to).
  std::vector<Amount> overtaken;
};

struct NaiveRead {
  NodeId branch;
  Amount balance;
  std::size_t history_index;  // when the read happened
};

class Bank {
 public:
  // Fails on an invalid configuration (fewer than 2 branches, duplicate or
  // bad names, links naming an unknown branch, self-loops, duplicates).
  static Status Create(const Config& config, std::optional<Bank>* out);

  Status Transfer(NodeId from, NodeId to, Amount amount);
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

  std::size_t branch_count() const { return names_.size(); }
  const std::string& name(NodeId n) const { return names_[n]; }
  std::optional<NodeId> FindBranch(const std::string& name) const;
  Amount balance(NodeId n) const { return balances_[n]; }
  Amount total() const { return total_; }
  Amount in_flight_amount() const { return in_flight_amount_; }
  const Network& network() const { return network_; }
  const History& history() const { return history_; }
  const Config& config() const { return config_; }
  Amount initial_balance(NodeId n) const { return config_.branches[n].balance; }

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

  Algorithm algorithm() const { return config_.algorithm; }
  // Lai-Yang: a transfer's epoch or a control message's count (0 else).
  std::uint64_t MessageTag(Seq seq) const {
    auto it = tags_.find(seq);
    return it == tags_.end() ? 0 : it->second;
  }
  // Aligned: the incoming channels `n` still waits for in snapshot `id`.
  std::vector<ChannelId> AlignmentWaits(NodeId n, SnapshotId id) const;

 private:
  using Agent = SnapshotAgent<Amount, Amount>;
  using UnalignedAgent = SnapshotAgent<Amount, Amount, UnalignedBarrierRules>;
  Bank(Config config, std::vector<std::string> names,
       std::unordered_map<std::string, NodeId> index, Network network);

  Status CheckBranch(NodeId n) const;
  Status CheckChannel(NodeId from, NodeId to, ChannelId* c) const;
  void Send(ChannelId c, const Payload& payload);
  void SendMarkers(NodeId n, const Step& step, SnapshotInfo& snapshot);
  Step StartStep(NodeId n, SnapshotId id);
  void Receive(const Network::Msg& m);
  void FinishStep(NodeId n, const Step& step, SnapshotInfo& snapshot,
                  Cause cause, std::optional<ChannelId> closed);
  SnapshotInfo& MutableSnapshot(SnapshotId id);

  Config config_;
  std::vector<std::string> names_;
  std::unordered_map<std::string, NodeId> index_;  // name -> branch
  Network network_;
  History history_;
  std::vector<Amount> balances_;
  std::vector<Agent> agents_;  // Chandy-Lamport
  std::vector<UnalignedAgent> unaligned_;
  std::vector<LaiYangRules> lai_yang_;
  std::vector<AlignedBarrierRules> aligned_;
  // What the host keeps for Lai-Yang, aligned and stop-the-world snapshots
  // (the agents above keep their own): balances by (id, branch), channel
  // states by (id, channel).
  std::map<std::pair<SnapshotId, NodeId>, Amount> recorded_;
  std::map<std::pair<SnapshotId, ChannelId>, std::vector<Amount>> channel_state_;
  std::map<std::pair<SnapshotId, ChannelId>, std::vector<Amount>> overtaken_;
  std::unordered_map<Seq, std::uint64_t> tags_;  // Lai-Yang epochs, counts
  Amount total_ = 0;
  Amount in_flight_amount_ = 0;
  std::vector<SnapshotInfo> snapshots_;  // by id (ids are 1, 2, 3, ...)
  std::vector<NaiveRead> naive_;
};

}  // namespace cutline::bank
