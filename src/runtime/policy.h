// What differs between the applications on rank 0 (scheduler.h runs the
// rest, once): what starts a snapshot, what a part carries and how the
// parts make a whole one, and what the run's lines and summary say. The
// shape is etcd raft's Ready: the scheduler hands a policy what happened
// (a control message, a snapshot to start or to give up, the time) and
// gets back a Ready, what to do about it. A policy sends nothing, stores
// nothing and keeps no clock of its own, so each one can be driven by a
// test without MPI, a store or a wait.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/epoch.h"
#include "runtime/protocol.h"
#include "runtime/sink.h"

namespace cutline::runtime {

// A rank of Ready::send that means every rank, in rank order.
inline constexpr int kEveryRank = -1;

struct Ready {
  // Control messages to send, in order: (rank or kEveryRank, message).
  std::vector<std::pair<int, protocol::Control>> send;
  // Snapshots that became whole, as the sink keeps them.
  std::vector<WholeSnapshot> whole;
  // Snapshots a rank's rules refused (protocol::GiveUp): to be given up on
  // every rank, as at --snapshot-timeout but at once.
  std::vector<SnapshotId> give_up;
  // The run found what it ran for (a stable property held): no more
  // snapshots are started.
  bool found = false;

  void Send(int to, protocol::Control message) { send.emplace_back(to, std::move(message)); }
  void Append(Ready more) {
    for (auto& m : more.send) send.push_back(std::move(m));
    for (auto& w : more.whole) whole.push_back(std::move(w));
    give_up.insert(give_up.end(), more.give_up.begin(), more.give_up.end());
    found |= more.found;
  }
};

class Policy {
 public:
  virtual ~Policy() = default;

  // The run begins fresh or from `from` (a restore): every rank's Init, and
  // this application's fields of the run's first line (`run_line`).
  virtual Ready Begin(const std::optional<RestorePoint>& from, SnapshotId first_id,
                      nlohmann::json& run_line) = 0;
  // How many snapshots may run at once (the rules' own limit).
  virtual std::size_t may_run() const = 0;
  // The rank named as snapshot `id`'s initiator (the store keeps it).
  virtual std::uint32_t Initiator(SnapshotId id) const = 0;
  // Snapshot `id` starts now: what to send.
  virtual Ready Start(SnapshotId id, std::uint32_t initiator, Clock::time_point now) = 0;
  // A control message from rank `from`, `bytes` long as it came. Throws
  // Fault (fault.h) for one that breaks the protocol.
  virtual Ready OnControl(int from, const protocol::Control& message, std::size_t bytes,
                          Clock::time_point now) = 0;
  // Snapshot `id` is given up: frees what the policy kept of it, names the
  // ranks whose parts had not come (`*missing`), and what to send beside
  // the scheduler's Abort (stop-the-world: the paused ranks resume).
  virtual Ready Abandon(SnapshotId id, std::vector<std::uint32_t>* missing) = 0;
  // Whatever else fell due (the naive detector's reads); `scheduling`:
  // snapshots are still being started.
  virtual Ready Tick(Clock::time_point /*now*/, bool /*scheduling*/) { return {}; }

  // Every rank sent its final report.
  virtual bool all_final() const = 0;
  // The run's work so far: transfers or messages sent, or records counted
  // at a dataflow's sinks. A restored run's policy counts from where its
  // snapshot stood (Begin), the rate from what this run did.
  virtual std::uint64_t work() const = 0;
  // This application's fields of the status line and of the summary.
  virtual void Status(nlohmann::json& line) const = 0;
  virtual void Summary(nlohmann::json& summary) const = 0;
  // 0, or 1 when a snapshot or the end of the run was wrong.
  virtual int exit_code() const = 0;
};

}  // namespace cutline::runtime
