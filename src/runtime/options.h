// The runtime's options (docs/runtime.md): what `cutline cluster` takes, and
// what it hands to every `cutline node` rank. Parsing lives here, once, so
// that both commands give the same one-line errors.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/algorithm.h"
#include "apps/app.h"
#include "base/lang.h"
#include "base/status.h"
#include "dataflow/topology.h"

namespace cutline::runtime {

using Micros = std::chrono::microseconds;

// --kill RANK@WHEN: RANK kills itself at a time, or right after it has
// recorded its state for snapshot K (before its part is done).
struct KillSpec {
  std::uint32_t rank = 0;
  std::optional<Micros> at;                // "3s"
  std::optional<std::uint64_t> snapshot;   // "snapshot:K"
};

// The snapshot algorithm of a run: one of the registry's (src/algorithms/)
// that its ranks can run (Algorithm::runs_on_ranks).
using algorithms::Algorithm;
// Why --algorithm NAME is refused, in one line from the registry's facts
// (unknown, broken on purpose, or scenarios only); empty if the ranks run it
// (which application runs it is checked once --app is known).
std::string AlgorithmRefusal(std::string_view name);
// The algorithms the bank's ranks (or a dataflow's) run, as a sentence
// lists them: "chandy-lamport or stop-the-world".
std::string AlgorithmsRunBy(bool dataflow);

// The application the ranks run (src/apps/): the bank, jobs, locks or a
// dataflow.
using apps::App;

// --slow RANK:FACTOR (--app dataflow): that rank handles at most
// --rate/FACTOR records a second, where a source emits --rate a second.
struct SlowSpec {
  std::uint32_t rank = 0;
  double factor = 1;
};

// --app dataflow: a DAG of sources, operators and sinks instead of the
// bank's branches (src/dataflow, docs/runtime.md).
struct DataflowOptions {
  dataflow::Topology topology;
  std::uint32_t buffers = 8;  // per channel, at its receiver
  std::optional<SlowSpec> slow;
  // Aligned barriers: a snapshot that has aligned at a vertex this long
  // switches to unaligned there (Flink's aligned checkpoint timeout).
  std::optional<Micros> alignment_timeout;
};

struct NodeOptions {
  // What --app names (no default here: the command line's is the bank).
  // Every other member has one (the `{}`s): NodeOptions{.app = ...}.
  App app;
  // Its topology and pace, when the application's ranks are vertices
  // (--app dataflow; App::vertices()): set exactly then.
  std::optional<DataflowOptions> dataflow{};
  // The language of what a rank prints (refusals): the cluster's --lang,
  // passed on to every rank.
  Lang lang = Lang::kEn;
  std::int64_t balance = 1000;       // the bank's opening balance per branch
  // jobs: the jobs each branch starts with; it may hand out twice as many
  // new ones in all (the limit that makes the computation finish).
  std::uint32_t jobs = 8;
  double rate = 1000;                // transfers per second per branch; 0: as fast as it can
  Micros duration = std::chrono::seconds(5);
  std::optional<Micros> snapshot_every{};  // none: no snapshots
  Algorithm algorithm = Algorithm::kChandyLamport;
  std::string store{};               // empty: snapshots are not stored
  bool restore = false;
  std::optional<std::uint64_t> restore_id{};  // none: the latest complete one
  std::string log_dir{};             // empty: no logs
  Micros link_delay{0};
  // The channels stop being FIFO (transport.h): markers on a tag of their
  // own, transfers held back a random time.
  bool reorder = false;
  std::optional<KillSpec> kill{};
  // Fault injection: the store is capped at this many pages (0: no cap),
  // as if its disk were full past them.
  std::uint32_t store_max_pages = 0;
  std::uint64_t seed = 1;
  // A snapshot not complete this long after it started is given up on
  // every rank and stored as failed. Far above any healthy snapshot's
  // latency (milliseconds), so that only a stuck one reaches it.
  Micros snapshot_timeout = std::chrono::seconds(60);
  // The run stops (exit 1) once this many snapshots in a row have failed.
  std::uint32_t tolerable_failures = 10;
};

// "250us", "100ms", "3s", "1.5s", "2m". Returns nothing for anything else
// (negative, no unit, unknown unit).
std::optional<Micros> ParseDuration(const std::string& text);
std::string FormatDuration(Micros d);
// "max" (0) or a positive number of transfers per second.
std::optional<double> ParseRate(const std::string& text);
// "3:4" or "3:2.5" (a factor above 1).
std::optional<SlowSpec> ParseSlow(const std::string& text);
// "2@3s" or "2@snapshot:5".
std::optional<KillSpec> ParseKill(const std::string& text);

// --reorder against the run's algorithm, from the registry's traits: a
// refusal for one that refuses channels that reorder (needs_fifo); OK
// otherwise.
Status ReorderRefusal(const NodeOptions& o);
// The one-line warning a run under --reorder starts with when its
// algorithm assumes FIFO channels without refusing others (it is not
// correct_without_fifo): its snapshots can be wrong, and the summary
// counts them. None otherwise.
std::optional<Status> ReorderWarning(const NodeOptions& o);
// --log-dir is refused where `cutline check --logs` could not read the run
// back: channels that reorder, or rules whose transfers carry stamps (a
// transfer, not a marker, may make a rank record).
Status LogsRefusal(const NodeOptions& o);

// The arguments that give `options` to `cutline node` (and the parser back).
std::vector<std::string> NodeArguments(const NodeOptions& options);
// The cluster flags of the run's application (AppDefinition::cluster_flags).
std::span<const std::string_view> ClusterFlags(const NodeOptions& o);
// What an application's cluster flag (AppDefinition::cluster_flags) holds
// in `o`, as the ranks are told it; nullopt for a flag without a value.
std::optional<std::string> FlagValue(const NodeOptions& o, std::string_view flag);
// Every rank's opening state: what the application's opening flag holds,
// or 0 when it has none.
Amount OpeningState(const NodeOptions& o);

}  // namespace cutline::runtime
