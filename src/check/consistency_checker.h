// The independent consistency checker: from a run's history alone (sends,
// deliveries and records, ordered by vector clocks), what every complete
// snapshot must have recorded, compared with what the implementation claims.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bank/bank.h"
#include "bank/history.h"
#include "sim/network.h"

namespace cutline::check {

struct CheckReport {
  // One precise English line each, prefixed "snapshot N: " or "history: ".
  std::vector<std::string> problems;
  int snapshots_checked = 0;

  bool ok() const { return problems.empty(); }
};

// What an implementation claims it recorded for one complete snapshot. The
// checker never derives expectations from these, only compares them.
struct SnapshotClaim {
  SnapshotId id = 0;
  std::uint64_t markers_sent = 0;
  // Recorded balance by NodeId; nullopt = the node claims no recording.
  std::vector<std::optional<bank::Amount>> balances;
  // Recorded state of every channel, by ChannelId.
  std::vector<bank::ChannelRecord> channels;
  // The implementation's own sum of the snapshot, if it reports one.
  std::optional<bank::Amount> total;
};

// Everything the checker reads. Nothing here is derived from the agents
// except `claims`.
struct RunRecord {
  std::span<const bank::Event> events;     // the whole history, in order
  const sim::Topology* topology = nullptr;  // REQUIRES set
  std::vector<bank::Amount> initial_balances;  // by NodeId
  // For messages; a node without a name is written "#<id>".
  std::vector<std::string> names;
  // One per snapshot the implementation says is complete.
  std::vector<SnapshotClaim> claims;
};

// Checks every claimed snapshot against the history:
//  a. the records form a consistent cut (vector clocks): nothing received
//     inside the cut was sent outside it; a record caused by a marker cuts
//     just before that marker's receipt, and its cause must be the marker
//     its node received in its last message event;
//  b. each claimed recorded balance equals the balance replayed from the
//     history at the record;
//  c. each channel's claimed state is closed and is exactly the transfers
//     sent inside the cut and received outside it, in delivery order;
//  d. recorded balances plus channel states add up to the initial total;
//  e. exactly one marker of the snapshot went over each channel, after its
//     sender recorded and before anything else on that channel.
// Also reports a malformed history: an event naming what does not exist, a
// message sent or delivered twice, or delivered as something else (after
// which the snapshots are not checked); a channel that is not FIFO, or a
// record whose cause is not its node's last message event (which are only
// named).
// Thread safe: reads its input only.
CheckReport CheckRun(const RunRecord& run);

// The bank's claims for its complete snapshots, read through its accessors.
std::vector<SnapshotClaim> ClaimsOf(const bank::Bank& bank);

// The bank's run as checker input. The events span points into the bank's
// history: the bank must outlive the result and not change meanwhile.
RunRecord RunOf(const bank::Bank& bank);

// CheckRun(RunOf(bank)). A bank without history reports that as a problem
// when it has complete snapshots to check.
CheckReport CheckSnapshots(const bank::Bank& bank);

}  // namespace cutline::check
