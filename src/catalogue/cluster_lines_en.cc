// The English lines of `cutline cluster` (cluster_lines.h).
#include <fmt/format.h>

#include "catalogue/cluster_lines.h"

namespace cutline::catalogue {

namespace {
std::string_view EnglishWorkNoun(apps::Work w) {
  switch (w) {
    case apps::Work::kTransfers:
      return "transfers";
    case apps::Work::kMessages:
      return "messages";
    case apps::Work::kRecords:
      return "records";
  }
  return "";
}
std::string EnglishRunRestored(const std::optional<std::uint64_t>& from) {
  return from ? fmt::format(", restored from snapshot {}", *from) : "";
}
}  // namespace

std::string EnglishCluster(ClusterLine line, const RunFigures& f) {
  switch (line) {
    case ClusterLine::kStatus: {
      const std::string head =
          f.work == apps::Work::kRecords
              ? fmt::format("{:.0f} records/s at the sinks", f.per_s)
              : fmt::format("{:.0f} {}/s", f.per_s, EnglishWorkNoun(f.work));
      const std::string total = f.work == apps::Work::kTransfers
                                    ? fmt::format(" | latest total {}", f.latest_total.value_or("-"))
                                    : "";
      return fmt::format("{} | snapshots: {} complete, {} failed{} | {:.1f} s left", head,
                         f.complete, f.failed, total, f.left_s);
    }
    case ClusterLine::kRun:
      return fmt::format("run {}: {} ranks{}, {} {} ({:.0f}/s)", f.run, f.ranks,
                         EnglishRunRestored(f.restored_from), f.work_done, EnglishWorkNoun(f.work), f.per_s);
    case ClusterLine::kSnapshots:
      if (f.work != apps::Work::kTransfers) {
        return fmt::format("snapshots: {} complete, {} failed; latency p50 {:.2f} ms, p99 {:.2f} ms",
                           f.complete, f.failed, f.p50_ms, f.p99_ms);
      }
      return fmt::format("snapshots: {} complete ({} with a wrong total), {} failed ({} timed out); "
                         "latency p50 {:.2f} ms, p99 {:.2f} ms",
                         f.complete, f.wrong, f.failed, f.timed_out, f.p50_ms, f.p99_ms);
    case ClusterLine::kStopTime:
      return fmt::format("stop time: p50 {:.2f} ms, p99 {:.2f} ms", f.stop_p50_ms, f.stop_p99_ms);
    case ClusterLine::kCollector:
      return fmt::format("collector (rank 0): {:.0f} bytes of parts per snapshot; collected p50 "
                         "{:.2f} ms, p99 {:.2f} ms after the last channel closed; peak memory "
                         "{:.1f} MiB, CPU {:.2f} s",
                         f.collected_bytes, f.collect_p50_ms, f.collect_p99_ms, f.peak_mib, f.cpu_s);
    case ClusterLine::kTotal:
      return fmt::format("total at the end: {} of {} {}", f.final_total, f.bank_total,
                         f.conserved ? "(conserved)" : "(NOT conserved)");
    case ClusterLine::kPropertyMissed:
      return fmt::format("{}: no snapshot found it before the run ended{}", f.property,
                         f.became_true ? " (it did become true)" : "");
    case ClusterLine::kPropertyDetected: {
      const std::string truth =
          f.delay_ms ? fmt::format("{:.2f} ms after {}", *f.delay_ms, f.became_true_how)
                     : "which the ranks' final states do not bear out";
      return fmt::format("{}: detected by snapshot {}, {}", f.detected, f.detected_by.value_or(0),
                         truth);
    }
    case ClusterLine::kNaive:
      return fmt::format("naive detector: {} rounds of reads, {} declared {}, {} of them {}",
                         f.naive_rounds, f.naive_declared, f.property, f.naive_false,
                         f.naive_false_what);
    case ClusterLine::kDataflowRun:
      return fmt::format("run: {} ranks ({}), {}{}, {} records emitted, {} counted at the sinks "
                         "({:.0f}/s) {}",
                         f.ranks, f.topology, f.algorithm, EnglishRunRestored(f.restored_from), f.emitted,
                         f.work_done, f.per_s, f.exactly_once ? "(each once)" : "(NOT each once)");
    case ClusterLine::kDataflowSnapshots:
      return fmt::format("snapshots: {} complete ({} breaking conservation), {} failed ({} timed "
                         "out); duration p50 {:.2f} ms, p99 {:.2f} ms",
                         f.complete, f.wrong, f.failed, f.timed_out, f.p50_ms, f.p99_ms);
    case ClusterLine::kDataflowCost:
      return fmt::format("alignment p50 {:.2f} ms, p99 {:.2f} ms; per snapshot {:.1f} records held "
                         "back, {:.1f} persisted ({:.0f} bytes); {} of {} channels unaligned; {} "
                         "snapshots switched by the alignment timeout",
                         f.alignment_p50_ms, f.alignment_p99_ms, f.held_back, f.persisted,
                         f.persisted_bytes, f.unaligned_channels, f.channels, f.switched);
  }
  return "";
}

std::string EnglishEnding(EndingLine line, const Ending& e) {
  switch (line) {
    case EndingLine::kStoppedEarly:
      return fmt::format("stopped by {}: the run ended early", e.signal);
    case EndingLine::kStoppedTwice:
      return fmt::format("stopped by {} twice: the job was ended; last complete snapshot: {}",
                         e.signal, e.latest);
    case EndingLine::kGaveUp:
      return fmt::format("snapshots {} failed one after another (--tolerable-failures {}): the "
                         "run was stopped",
                         e.ids, e.count);
    case EndingLine::kRankDied: {
      const std::string who =
          e.who.empty() ? "a rank"
                        : (e.by_signal ? fmt::format("rank {} (signal {})", e.who, *e.by_signal)
                                       : fmt::format("rank {}", e.who));
      return fmt::format("{} died; the job ended; last complete snapshot: {}", who, e.latest);
    }
    case EndingLine::kRankErrored:
      return fmt::format("{}; the job ended; last complete snapshot: {}", e.reason, e.latest);
    case EndingLine::kMpirunFailed:
      return fmt::format("mpirun failed (status {}): {}", e.status, e.first_line);
    case EndingLine::kNoMpirun:
      return fmt::format("cannot start mpirun: {}", e.first_line);
  }
  return "";
}

}  // namespace cutline::catalogue
