// Analyze: each analysis of a run made once, for every view.
#include "scenario/analysis.h"

namespace cutline::scenario {

Analysis::Analysis(const engine::Engine& b)
    : bank(b),
      replay(b.history().enabled() ? engine::Replay::Of(b) : engine::Replay(b)),
      has_history(b.history().enabled()) {}

const check::SnapshotVerdict* Analysis::Verdict(SnapshotId id) const {
  auto it = verdict_at_.find(id);
  return it == verdict_at_.end() ? nullptr : &check.verdicts[it->second];
}

Analysis Analyze(const engine::Engine& bank) {
  Analysis a(bank);
  // Without a history, CheckSnapshots says so of any complete snapshot.
  a.check = check::CheckSnapshots(bank);
  if (a.has_history) {
    for (std::size_t i = 0; i < a.check.verdicts.size(); ++i) {
      a.verdict_at_[a.check.verdicts[i].id] = i;
    }
    a.costs = check::CostOfSnapshots(bank);
    if (bank.app().conserved()) a.naive_reads = engine::AnalyzeNaive(bank, a.replay);
  }
  if (bank.app().has_property()) {
    a.naive = check::JudgeNaive(bank);
    a.now = check::PropertyNow(bank);
  }
  return a;
}

}  // namespace cutline::scenario
