// A rank's log of its own events, with vector clocks (`--log-dir`): one JSON
// object per line in DIR/rank-<r>.jsonl. `cutline check --logs DIR` reads the
// logs of every rank back into one history and runs the simulator's checker
// on it; the clocks also make a ShiViz log. docs/runtime.md has the format.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "apps/app.h"
#include "cutline/marker_rules.h"
#include "runtime/bytes.h"
#include "runtime/sink.h"

namespace cutline::runtime {

class EventLog {
 public:
  // Opens DIR/rank-<rank>.jsonl for writing; throws a Fault when it cannot.
  // The header names the application unless it is the bank (a bank's log
  // reads as it always did); a dataflow's names itself and its topology
  // (`topology`: its SPEC, "2-3-1"), and each record moves one unit.
  EventLog(const std::string& dir, int rank, int ranks, apps::App app,
           std::string_view topology = {});
  ~EventLog();
  EventLog(const EventLog&) = delete;
  EventLog& operator=(const EventLog&) = delete;

  // The opening balance (for a restored run: with the transfers it re-sends).
  void Start(Amount balance);
  // A message leaves on the channel to `to`, the n-th on it (from 1). Returns
  // the clock to send along.
  std::string Send(int to, std::uint64_t n, Amount amount);
  std::string SendMarker(int to, std::uint64_t n, SnapshotId id);
  // A message arrives, the n-th on the channel from `from`, with the
  // sender's clock.
  void Receive(int from, std::uint64_t n, Amount amount, Reader& clock);
  void ReceiveMarker(int from, std::uint64_t n, SnapshotId id, Reader& clock);
  // The rank recorded its state. `cause`: "start" (by itself), "marker"
  // (the marker it received last), or "timeout" (a dataflow vertex's
  // alignment timeout). `aligned`: after a marker on every input (aligned
  // barriers), which are then the cut's edge.
  void Record(SnapshotId id, Amount balance, std::string_view cause, bool aligned = false);
  // A marker (numbered `by`) went ahead of the message numbered `n` on the
  // channel to `peer` (outgoing) or from it (on its arrival): that message
  // is in the marker's snapshot. An incoming one merges the marker's clock.
  void Overtaken(int to, std::uint64_t n, std::uint64_t by);
  void OvertakenOnArrival(int from, std::uint64_t n, std::uint64_t by, Reader& clock);
  // What the rank claims for its part: its recorded balance, by sender rank
  // the transfers recorded on each incoming channel, and (unaligned
  // barriers) by receiver rank those its markers overtook on each outgoing
  // one.
  using ByPeer = std::vector<std::pair<int, std::vector<Amount>>>;
  void Part(SnapshotId id, Amount balance, const ByPeer& channels, const ByPeer& sent = {});
  // jobs: a step of the rank's own (a job finished); its state after it.
  void Local(Amount state);
  // Rank 0: the property the coordinator declared on complete snapshot
  // `id` (the branches and channels of its "why", as the checker's
  // topology numbers them).
  void Verdict(SnapshotId id, const apps::Verdict& verdict);
  void Flush();

 private:
  void Tick() { ++clock_[static_cast<std::size_t>(rank_)]; }
  void Merge(Reader& clock);
  std::string Clock() const;  // the clock as bytes, to send
  void Write(const std::string& head);  // head plus the clock, one line

  int rank_;
  std::vector<std::uint64_t> clock_;
  std::FILE* file_ = nullptr;
};

}  // namespace cutline::runtime
