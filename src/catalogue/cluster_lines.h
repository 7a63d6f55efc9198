// What `cutline cluster` says of a real run (runtime/cluster.cc): the live
// status line, the summary, and how a run that did not end well ended. The
// runtime gathers the figures from rank 0's lines; the words are here, in
// each language (cluster_lines_en.cc, cluster_lines_ja.cc), and a run's
// work is named in its application's words (apps::Work).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "apps/app.h"
#include "base/lang.h"

namespace cutline::catalogue {

// The figures a line is told with; each line below says which it reads.
// Times are milliseconds; words (a total, a property, names) are already
// the application's.
struct RunFigures {
  apps::Work work = apps::Work::kTransfers;
  std::int64_t run = 0;
  int ranks = 0;
  std::string topology, algorithm;   // a dataflow's
  std::optional<std::uint64_t> restored_from;
  std::uint64_t work_done = 0;       // transfers, messages or records at the sinks
  std::uint64_t emitted = 0;         // a dataflow's sources
  double per_s = 0;
  bool exactly_once = true;
  std::uint64_t complete = 0, wrong = 0, failed = 0, timed_out = 0;
  double p50_ms = 0, p99_ms = 0;     // snapshot latency (a dataflow: duration)
  double stop_p50_ms = 0, stop_p99_ms = 0;
  double collected_bytes = 0, collect_p50_ms = 0, collect_p99_ms = 0, peak_mib = 0, cpu_s = 0;
  std::string final_total, bank_total;  // "$2000"
  bool conserved = true;
  double alignment_p50_ms = 0, alignment_p99_ms = 0, held_back = 0, persisted = 0,
         persisted_bytes = 0;
  std::uint64_t unaligned_channels = 0, channels = 0, switched = 0;
  // The live line.
  std::optional<std::string> latest_total;  // none yet: "-"
  double left_s = 0;
  // jobs and locks: the property ("terminated"), what was detected ("deadlocked:
  // P1 → P2 → P1"), when it became true ("the last job finished").
  std::string property, detected;
  std::optional<std::uint64_t> detected_by;
  std::optional<double> delay_ms;  // detection after the truth; none: not borne out
  bool became_true = false;        // undetected, yet the property came to hold
  std::string became_true_how, naive_false_what;
  std::uint64_t naive_rounds = 0, naive_declared = 0, naive_false = 0;
};

enum class ClusterLine : std::uint8_t {
  kStatus,             // work, per_s, complete, failed, latest_total (transfers only), left_s
  kRun,                // run, ranks, work, work_done, per_s, restored_from
  kSnapshots,          // complete, wrong (transfers only), failed, timed_out, p50/p99
  kStopTime,           // stop_p50/p99
  kCollector,          // collected_bytes, collect_p50/p99, peak_mib, cpu_s
  kTotal,              // final_total, bank_total, conserved
  kPropertyMissed,     // property, became_true
  kPropertyDetected,   // detected, detected_by, delay_ms, became_true_how
  kNaive,              // naive_rounds, naive_declared, property, naive_false, naive_false_what
  kDataflowRun,        // ranks, topology, algorithm, restored_from, emitted, work_done, per_s, exactly_once
  kDataflowSnapshots,  // complete, wrong, failed, timed_out, p50/p99
  kDataflowCost,       // alignment, held_back, persisted(_bytes), unaligned_channels, channels, switched
};

std::string ClusterText(ClusterLine line, const RunFigures& f, Lang lang);
std::string EnglishCluster(ClusterLine line, const RunFigures& f);
std::string JapaneseCluster(ClusterLine line, const RunFigures& f);

// How a run that did not end well ended (cluster.cc), one line each on
// standard error.
struct Ending {
  std::string signal;            // "SIGINT"
  std::string latest;            // the last complete snapshot, as AfterCrash says it
  std::string who;               // a rank that died: its number
  std::optional<int> by_signal;  // what it died of
  std::string reason;            // a rank's own one-line error, already worded
  std::string ids;               // the snapshots given up, joined
  std::uint64_t count = 0;       // how many
  int status = 0;                // mpirun's exit status
  std::string first_line;        // mpirun's own first line of complaint
};
enum class EndingLine : std::uint8_t {
  kStoppedEarly,    // signal: the run ended early, its summary printed
  kStoppedTwice,    // signal, latest
  kGaveUp,          // ids, count (--tolerable-failures)
  kRankDied,        // who, by_signal, latest
  kRankErrored,     // reason, latest
  kMpirunFailed,    // status, first_line
  kNoMpirun,        // first_line: the OS's words
};
std::string EndingText(EndingLine line, const Ending& e, Lang lang);
std::string EnglishEnding(EndingLine line, const Ending& e);
std::string JapaneseEnding(EndingLine line, const Ending& e);

}  // namespace cutline::catalogue
