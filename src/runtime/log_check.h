// A real run's logs (`cutline cluster --log-dir DIR`) checked as they are
// read: the ranks' logs are merged line by line in an order consistent with
// their vector clocks, and every snapshot whose every part is logged is
// judged with the simulator's checker's rules and words (src/check), in
// memory bounded by the ranks, the channels and the snapshots still open,
// not by the run's length; and the same logs as a ShiViz log
// (https://bestchai.bitbucket.io/shiviz/).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "check/consistency_checker.h"

namespace cutline::runtime {

struct LogCheck {
  // As check::CheckRun reports it, but `verdicts` holds only the snapshots
  // whose verdict is not consistent (a long run checks thousands).
  check::CheckReport report;
  std::uint32_t ranks = 0;
  std::size_t events = 0;
  std::size_t dropped = 0;  // events after a rank's log ends early (see .cc)
  cutline::Amount total = 0;  // of the ranks that logged their start
  // Ranks whose log holds no start (empty: killed before the log's buffer
  // was first written). Their money and events are unknown; no snapshot
  // they took part in is complete in the logs.
  std::vector<std::uint32_t> silent;
  // The most the check held at once: open snapshots, messages in flight,
  // and the per-snapshot items (pending crossings, expected channel
  // transfers, findings) of the snapshots still open. Bounded by the ranks,
  // channels and open snapshots, not by the length of the logs.
  std::size_t peak_state = 0;
  std::size_t peak_open_snapshots = 0;
  // The application the logs' header names ("bank" when none), and for
  // jobs and locks the properties rank 0 declared: each is checked against
  // the property on the state replayed at its snapshot's cut, and one that
  // holds must hold at the end of the logs too (it is stable).
  std::string app = "bank";
  std::size_t declared = 0;
  std::size_t declared_holding = 0;  // of the ones checked at their cut
  // Of those, the ones whose snapshot has no cut in the logs (stop-the-world
  // logs none): only checked for stability.
  std::size_t unchecked = 0;
};

// Reads DIR/rank-*.jsonl and checks every snapshot whose every part is in
// the logs. Nothing, with a one-line reason in *error, if DIR holds no
// readable set of logs.
std::optional<LogCheck> CheckLogs(const std::string& dir, std::string* error);

// The logs as a ShiViz log (GoVector's format: its parsing regex, then each
// event as "host {clock}" and a description line).
std::optional<std::string> ShiVizLog(const std::string& dir, std::string* error);

}  // namespace cutline::runtime
