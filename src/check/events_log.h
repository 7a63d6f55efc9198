// The open events format (docs/logs.md): a log any snapshot implementation
// can write, one JSON object per line, so that the checker can judge a
// Chandy-Lamport implementation that is not cutline. Each process logs its
// start, sends and receives, the state it recorded, the markers it sent and
// received, and the channel contents it recorded when its part was done.
// Happens-before comes from each process's order and the message ids; no
// clocks are needed.
//
// This file turns such a log into the checker's RunRecord (the history the
// simulator keeps, in a causal order); CheckRun then judges it with the
// same rules and findings as `cutline check` on a scenario.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "check/consistency_checker.h"
#include "sim/network.h"

namespace cutline::check {

// The format's name and the highest version this build reads.
inline constexpr const char* kEventsFormat = "cutline-events";
inline constexpr int kEventsVersion = 1;
// The longest line read: a longer one is refused, not held (docs/logs.md).
inline constexpr std::size_t kEventsLineBytesMax = std::size_t{1} << 20;

struct EventsLog {
  std::vector<std::string> processes;  // by NodeId: sorted by name
  std::optional<sim::Topology> topology;
  std::vector<history::Event> events;     // merged in a causal order
  std::vector<cutline::Amount> initial;   // by NodeId
  std::vector<std::string> message_names;  // by Seq
  std::vector<SnapshotClaim> claims;   // the snapshots every process finished
  // Snapshots some process began but not every process finished, each with
  // the processes that logged no part-done of it: not judged.
  std::vector<std::pair<SnapshotId, std::vector<std::string>>> incomplete;
  // What the log shows wrong before any snapshot is judged (a receipt no
  // send explains, a channel state naming an unknown message), in the
  // checker's words ("history: ...", "snapshot N: ...") in `lang`.
  std::vector<std::string> problems;
  Lang lang = Lang::kEn;
  std::size_t lines = 0;  // events read, over every file
  // False when the history could not be put in a causal order: then no
  // snapshot is judged, and `problems` says why.
  bool ordered = true;

  // What CheckRun reads. REQUIRES: *this outlives the record.
  RunRecord Record() const;
};

// Reads every DIR/*.jsonl. Refused (kLogAt: the file and line, and what is
// wrong there; or the folder's own problem) when DIR holds no such files or
// a line is not what the format says; a log that is well formed but wrong is
// read, and judged. `lang`: the language of the log's problems.
StatusOr<EventsLog> ReadEventsLog(const std::string& dir, Lang lang = Lang::kEn);

// The log's own problems, then the checker's findings on its snapshots, in
// the log's language.
CheckReport CheckEventsLog(const EventsLog& log);

}  // namespace cutline::check
