// The engine's run read for the checker: its history, topology and initial
// states as they are, its snapshots through the engine's accessors.
#include "scenario/run_record.h"

#include <utility>

#include "check/findings.h"
#include "check/stream_judge.h"

namespace cutline::scenario {

using sim::ChannelId;
using sim::NodeId;

std::vector<check::SnapshotClaim> ClaimsOf(const engine::Engine& bank) {
  std::vector<check::SnapshotClaim> claims;
  const sim::Topology& net = bank.network();
  for (const engine::SnapshotInfo& s : bank.snapshots()) {
    if (!s.complete) continue;
    check::SnapshotClaim claim;
    claim.id = s.id;
    claim.markers_sent = s.markers_sent;
    for (NodeId n = 0; n < bank.branch_count(); ++n) {
      claim.balances.push_back(bank.RecordedBalance(n, s.id));
    }
    for (ChannelId c = 0; c < net.channel_count(); ++c) {
      claim.channels.push_back(bank.RecordedChannel(s.id, c));
    }
    claim.total = bank.SnapshotTotal(s.id);
    const algorithms::Traits& traits = bank.AlgorithmOf(s.id).traits();
    claim.markers = !traits.stops_the_world;
    claim.markers_before_record = traits.records_after_all_markers;
    claim.epochs = traits.tags_messages;
    claims.push_back(std::move(claim));
  }
  return claims;
}

check::RunRecord RunOf(const engine::Engine& bank) {
  check::RunRecord run{.app = bank.app()};
  run.events = bank.history().events();
  run.topology = &bank.network();
  for (NodeId n = 0; n < bank.branch_count(); ++n) {
    run.initial_balances.push_back(bank.initial_balance(n));
    run.names.push_back(bank.name(n));
  }
  run.claims = ClaimsOf(bank);
  run.fifo = bank.network().fifo();
  return run;
}

std::vector<check::SnapshotCounts> CountsOf(const engine::Engine& bank) {
  std::vector<check::SnapshotCounts> out;
  for (const engine::SnapshotInfo& s : bank.snapshots()) {
    check::SnapshotCounts counts;
    counts.id = s.id;
    counts.markers_sent = s.markers_sent;
    counts.initiators = s.initiators;
    counts.stops_the_world = s.stop_the_world;
    counts.holds_channels = bank.AlgorithmOf(s.id).traits().records_after_all_markers;
    for (ChannelId c = 0; c < bank.network().channel_count(); ++c) {
      counts.channels.push_back(bank.RecordedChannel(s.id, c));
    }
    out.push_back(std::move(counts));
  }
  return out;
}

check::CheckReport CheckSnapshots(const engine::Engine& bank, Lang lang,
                                  std::vector<check::SnapshotCost>* costs) {
  check::RunRecord run = RunOf(bank);
  if (!bank.history().enabled() && !run.claims.empty()) {
    const check::Findings& say = check::FindingsIn(lang);
    check::CheckReport report;
    report.problems.push_back(say.AboutHistory(say.NoHistory()));
    return report;
  }
  if (costs == nullptr || !bank.history().enabled()) return check::CheckRun(run, lang);
  check::SnapshotCosts observer(bank.network(), CountsOf(bank));
  check::CheckReport report =
      check::JudgeHistory(run, lang, check::HistoryJudging::kClaims, {&observer}).report;
  *costs = observer.Costs();
  return report;
}

}  // namespace cutline::scenario
