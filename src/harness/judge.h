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
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/amount.h"
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

// What happened in one schedule, step by step, in facts the page can draw
// without running anything (the schedule file's "trace", docs/harness.md).
// Taken by the judge from the facts it judges, as it walks the schedule:
// never a second account of the run.
struct TraceMessage {  // one message the tester carried
  std::uint32_t from = 0, to = 0;
  std::string type;    // its body's type
  bool transfer = false;
  cutline::Amount amount = 0;  // a transfer's
  std::int64_t id = 0;         // a transfer's msg_id
};
struct TraceRecord {  // a record the judge took (each node's first per snapshot)
  std::uint32_t node = 0;
  SnapshotId snapshot = 0;
  cutline::Amount balance = 0;
};
struct TracePart {  // a part_done the judge took: by sender, the transfers' msg_ids
  std::uint32_t node = 0;
  SnapshotId snapshot = 0;
  std::vector<std::pair<std::uint32_t, std::vector<std::int64_t>>> channels;
};
struct TraceStep {
  std::optional<std::uint32_t> message;  // delivered or lost: its number in Trace::messages
  std::vector<std::uint32_t> sent;       // what the node sent in answer, in its order
  std::vector<TraceRecord> records;
  std::vector<TracePart> parts;
  // After the step: by node, its balance as the tester knows it (the start,
  // less the transfers it sent, plus those delivered to it); by channel
  // (from * nodes + to), the messages in flight, oldest first.
  std::vector<cutline::Amount> balances;
  std::vector<std::vector<std::uint32_t>> in_flight;
};
struct Trace {
  std::vector<TraceMessage> messages;  // numbered by their first send
  std::vector<TraceStep> steps;        // [0]: the answers to init; [i + 1]: to path[i]
  // The verdict at the end, in each language the page speaks.
  std::vector<std::string> findings_en, findings_ja;
  std::uint32_t judged = 0;  // complete snapshots judged
};

// A transfer's name in the findings and on the page: "n3-1", its sender
// and its msg_id.
std::string TransferName(const std::string& sender, std::int64_t id);

// The judge's walk of `path` (as Judge), kept as a Trace. REQUIRES: as Judge.
StatusOr<Trace> TraceOf(World& world, const std::vector<Step>& path);

}  // namespace cutline::harness
