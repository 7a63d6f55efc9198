#include "store/summary.h"

#include <algorithm>

#include "base/percentile.h"

namespace cutline::store {

RunSummary Summarize(const StoredRun& run, const std::vector<SnapshotRecord>& snapshots,
                     std::int64_t now_us) {
  RunSummary out;
  out.run = run.id;
  if (run.status.empty()) {
    out.state = "unknown";
  } else if (run.status == "live" && !Writing(run, now_us)) {
    out.state = "silent";
  } else {
    out.state = run.status;
  }
  // An ended run's count is its end's; a died or live one's, its last
  // heartbeat's: the rate is over the time the count covers.
  std::optional<std::int64_t> until = run.status == "ended" ? run.ended_us : run.updated_us;
  if (until && *until >= run.started_us) out.duration_us = *until - run.started_us;
  out.transfers = run.transfers;
  if (out.transfers && out.duration_us && *out.duration_us > 0) {
    out.transfers_per_s = static_cast<double>(*out.transfers) * 1e6 /
                          static_cast<double>(*out.duration_us);
  }
  std::vector<std::int64_t> latencies;
  for (const SnapshotRecord& s : snapshots) {
    if (s.run != run.id) continue;
    if (s.status == "complete") {
      ++out.complete;
      latencies.push_back(s.completed_us - s.started_us);
    } else if (s.status == "failed") {
      ++out.failed;
    } else {
      ++out.running;
    }
  }
  if (!latencies.empty()) {
    out.latency_p50_us = Percentile(latencies, 50);
    out.latency_p99_us = Percentile(latencies, 99);
    out.latency_max_us = *std::max_element(latencies.begin(), latencies.end());
  }
  return out;
}

std::optional<CriticalPath> CriticalPathOf(const SnapshotRecord& s) {
  // A dataflow's snapshot has no path of markers to show: what it cost is
  // its alignment, per channel (StoredChannel::Cost).
  if (s.status != "complete" || !s.vertices.empty()) return std::nullopt;
  CriticalPath path;
  path.collected_us = s.completed_us - s.started_us;
  for (std::uint32_t r = 0; r < s.recorded_us.size(); ++r) {
    if (s.recorded_us[r] != 0) path.recorded.push_back({r, r, s.recorded_us[r] - s.started_us});
  }
  for (const StoredChannel& c : s.channels) {
    if (c.marker_us) path.markers.push_back({c.from, c.to, *c.marker_us - s.started_us});
  }
  // Ties keep the store's order (by sender, then receiver).
  std::stable_sort(path.markers.begin(), path.markers.end(),
                   [](const auto& a, const auto& b) { return a.at_us < b.at_us; });
  if (!path.markers.empty() && path.markers.size() == s.channels.size()) {
    path.last = path.markers.back();
  }
  return path;
}

}  // namespace cutline::store
