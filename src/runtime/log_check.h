// A real run's logs (`cutline cluster --log-dir DIR`) checked as they are
// read: the ranks' logs are merged line by line in an order consistent with
// their vector clocks, and every snapshot whose every part is logged is
// judged by the streaming judge (src/check/stream_judge.h: the simulator's
// checker's rules and words), in memory bounded by the ranks, the channels
// and the snapshots still open, not by the run's length; and the same logs
// as a ShiViz log (https://bestchai.bitbucket.io/shiviz/).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "check/stream_judge.h"

namespace cutline::runtime {

// What the streaming judge found (check::StreamResult: the findings, the
// verdicts not consistent, the declared properties, the most it held), and
// what reading the logs found.
struct LogCheck : check::StreamResult {
  std::uint32_t ranks = 0;
  std::size_t dropped = 0;  // events after a rank's log ends early (see .cc)
  std::string topology;     // a dataflow's SPEC ("2-3-1"); empty for the bank's ranks
  // `silent`: ranks whose log holds no start (empty: killed before the
  // log's buffer was first written). Their money and events are unknown; no
  // snapshot they took part in is complete in the logs.
};

// Reads DIR/rank-*.jsonl and checks every snapshot whose every part is in
// the logs, its findings in `lang`. Refused (the catalogues word why) if DIR
// holds no readable set of logs.
StatusOr<LogCheck> CheckLogs(const std::string& dir, Lang lang = Lang::kEn);

// The logs as a ShiViz log (GoVector's format: its parsing regex, then each
// event as "host {clock}" and a description line in the application's
// words). Read, and refused, exactly as CheckLogs reads them.
StatusOr<std::string> ShiVizLog(const std::string& dir);

}  // namespace cutline::runtime
