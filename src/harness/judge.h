// One schedule of a program under test, judged by the one checker
// (check/consistency_checker.h). The tester carried every message, so it
// knows the true order of every send and delivery; the nodes' reports say
// what they recorded and when. The algorithm's own messages are opaque to
// the tester: the judgement is the algorithm's result (a consistent cut,
// each recorded state as replayed, each channel's state exact, the money
// conserved), whatever messages it used to get there. A snapshot the
// workload started that has not completed once nothing is left to happen
// is a finding too: a verdict is never about nothing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/lang.h"
#include "base/status.h"
#include "harness/world.h"

namespace cutline::harness {

struct Verdict {
  std::vector<std::string> findings;  // one line each, in the language asked
  std::uint32_t judged = 0;           // complete snapshots judged
  bool ok() const { return findings.empty(); }
};

// REQUIRES: `path` leads from world.Start() to a state where nothing is
// left to happen. A fault the schedule as a whole reveals (a report naming
// a transfer never sent on that channel, a msg_id given to two transfers)
// is the program's, as a Status.
StatusOr<Verdict> Judge(World& world, const std::vector<Step>& path, Lang lang);

}  // namespace cutline::harness
