// A real run's logs (`cutline cluster --log-dir DIR`) read back into one
// history, so that the simulator's independent checker judges the run's
// complete snapshots exactly as it judges a simulated run's; and the same
// logs as a ShiViz log (https://bestchai.bitbucket.io/shiviz/).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "check/consistency_checker.h"

namespace cutline::runtime {

struct LogCheck {
  check::CheckReport report;
  std::uint32_t ranks = 0;
  std::size_t events = 0;
  std::size_t dropped = 0;  // events after a rank's log ends early (see .cc)
  bank::Amount total = 0;  // of the ranks that logged their start
  // Ranks whose log holds no start (empty: killed before the log's buffer
  // was first written). Their money and events are unknown; no snapshot
  // they took part in is complete in the logs.
  std::vector<std::uint32_t> silent;
};

// Reads DIR/rank-*.jsonl and checks every snapshot whose every part is in
// the logs. Nothing, with a one-line reason in *error, if DIR holds no
// readable set of logs.
std::optional<LogCheck> CheckLogs(const std::string& dir, std::string* error);

// The logs as a ShiViz log (GoVector's format: its parsing regex, then each
// event as "host {clock}" and a description line).
std::optional<std::string> ShiVizLog(const std::string& dir, std::string* error);

}  // namespace cutline::runtime
