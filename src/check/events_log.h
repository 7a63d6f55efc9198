// The open events format (docs/logs.md): a log any snapshot implementation
// can write, one JSON object per line, so that the checker can judge an
// implementation that is not cutline. Each process logs its start, sends
// and receives, the state it recorded, the markers (or barriers) it sent
// and received, and the channel contents it recorded when its part was
// done; version 2 adds Lai-Yang's epochs and control counts, aligned and
// unaligned barriers, messages dropped on purpose, aborted snapshots,
// crashes and restarts, and snapshot ids written as strings.
// Happens-before comes from each process's order and the message ids; no
// clocks are needed.
//
// This file puts such a log in a causal order and feeds it, event by
// event, to the streaming judge (stream_judge.h) as a simulated history's
// events are fed to it (JudgeHistory), then each complete snapshot's claim:
// the same rules and findings as `cutline check` on a scenario.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "check/consistency_checker.h"

namespace cutline::check {

// The format's name and the versions this build reads (1 to kEventsVersion).
inline constexpr const char* kEventsFormat = "cutline-events";
inline constexpr int kEventsVersion = 2;
// The longest line read: a longer one is refused, not held (docs/logs.md).
inline constexpr std::size_t kEventsLineBytesMax = std::size_t{1} << 20;

struct EventsLog {
  std::vector<std::string> processes;  // by NodeId: sorted by name
  std::vector<cutline::Amount> initial;   // by NodeId
  // Snapshots some process began but not every process finished (nor any
  // aborted), by their ids as written, each with the processes that logged
  // no part-done of it: not judged.
  std::vector<std::pair<std::string, std::vector<std::string>>> incomplete;
  // What the log shows wrong besides the judge's findings on its snapshots
  // (a receipt no send explains, a channel state naming an unknown
  // message, a restart from a state its snapshot did not record), in the
  // checker's words ("history: ...", "snapshot N: ...") in `lang`.
  std::vector<std::string> problems;
  // Snapshots not judged on purpose (aborted, or cut short by a crash), one
  // sentence each in `lang`: notes, not findings.
  std::vector<std::string> notes;
  Lang lang = Lang::kEn;
  std::size_t lines = 0;  // events read, over every file
  // False when the history could not be put in a causal order: then no
  // snapshot is judged, and `problems` says why.
  bool ordered = true;
  // The judge's findings on the complete snapshots (empty unless ordered).
  CheckReport report;
};

// Reads every DIR/*.jsonl and judges it. Refused (kLogAt: the file and
// line, and what is wrong there; or the folder's own problem) when DIR
// holds no such files or a line is not what the format says; a log that is
// well formed but wrong is read, and judged. `lang`: the language of the
// log's problems and findings. The files are read twice (the first
// reading checks them, the second feeds the judge); one changed in between
// is refused (kLogChanged). `between_readings`, for a test only, runs
// between the two, to change a file there.
StatusOr<EventsLog> ReadEventsLog(const std::string& dir, Lang lang = Lang::kEn,
                                  const std::function<void()>& between_readings = {});

// The log's own problems, then the checker's findings on its snapshots, in
// the log's language.
CheckReport CheckEventsLog(const EventsLog& log);

}  // namespace cutline::check
