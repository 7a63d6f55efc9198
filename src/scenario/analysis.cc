// Analyze: each analysis of a run made once, for every view. The history is
// replayed whole once (every message's flight, for the naive reads, the
// verdicts' transfers and the questions); an application with a property
// has it walked once more event by event, since the naive detector's reads
// are judged on the state at each read. The checker and the costs walk it
// on their own: the checker is independent of the engine by design.
#include "scenario/analysis.h"

#include <algorithm>

#include "base/check.h"

namespace cutline::scenario {

Analysis::Analysis(const engine::Engine& b)
    : bank(b),
      replay(b.history().enabled() ? engine::Replay::Of(b) : engine::Replay(b)),
      has_history(b.history().enabled()) {}

const check::SnapshotVerdict* Analysis::Verdict(SnapshotId id) const {
  auto it = verdict_at_.find(id);
  return it == verdict_at_.end() ? nullptr : &check.verdicts[it->second];
}

const SnapshotFacts* Analysis::LatestComplete() const {
  auto it = std::find_if(snapshots.rbegin(), snapshots.rend(),
                         [](const SnapshotFacts& s) { return s.info->complete; });
  return it == snapshots.rend() ? nullptr : &*it;
}

namespace {

// The application's property of a snapshot's recorded states and channels.
apps::Verdict Declare(const engine::Engine& bank,
                      std::vector<std::optional<cutline::Amount>> recorded,
                      std::vector<history::ChannelRecord> channels) {
  check::SnapshotClaim claim;
  claim.balances = std::move(recorded);
  claim.channels = std::move(channels);
  return check::DeclaredProperty(bank.app(), bank.network(), claim);
}

}  // namespace

apps::Verdict DeclaredOf(const engine::Engine& bank, SnapshotId id) {
  std::vector<std::optional<cutline::Amount>> recorded;
  for (sim::NodeId n = 0; n < bank.branch_count(); ++n) {
    recorded.push_back(bank.RecordedBalance(n, id));
  }
  std::vector<history::ChannelRecord> channels;
  for (sim::ChannelId c = 0; c < bank.network().channel_count(); ++c) {
    channels.push_back(bank.RecordedChannel(id, c));
  }
  return Declare(bank, std::move(recorded), std::move(channels));
}

namespace {

// What snapshot `at` (its position in bank.snapshots()) recorded, asked of
// the engine once here, and the judgements already made of it.
SnapshotFacts FactsOf(const Analysis& a, std::size_t at) {
  const engine::Engine& bank = a.bank;
  const engine::SnapshotInfo& s = bank.snapshots()[at];
  SnapshotFacts f;
  f.info = &s;
  for (sim::NodeId n = 0; n < bank.branch_count(); ++n) {
    f.recorded.push_back(bank.RecordedBalance(n, s.id));
    f.parts_done.push_back(bank.PartDone(n, s.id));
  }
  for (sim::ChannelId c = 0; c < bank.network().channel_count(); ++c) {
    f.channels.push_back(bank.RecordedChannel(s.id, c));
  }
  if (s.complete) f.total = bank.SnapshotTotal(s.id);
  if (s.complete && bank.app().has_property()) {
    f.declared = Declare(bank, f.recorded, f.channels);
  }
  if (a.has_history) {
    f.verdict = a.Verdict(s.id);
    f.cost = &a.costs[at];  // the costs are by position, as the snapshots
    if (f.verdict == nullptr) f.backward = engine::BackwardAcrossSnapshot(bank, a.replay, s.id);
  }
  return f;
}

// Every read of the naive detector judged, in one walk of the history: the
// reads so far declare, the state replayed to the read is the truth.
std::vector<ReadJudgement> JudgeReads(const engine::Engine& bank) {
  std::vector<ReadJudgement> out;
  std::vector<std::optional<cutline::Amount>> reads(bank.branch_count());
  std::size_t read = 0;
  engine::Replay walk(bank);
  const auto& events = bank.history().events();
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (const auto* r = std::get_if<history::Read>(&events[i])) {
      if (!reads[r->node]) ++read;
      reads[r->node] = r->balance;
      out.push_back({i, r->node, read, bank.app().Naive(reads),
                     check::PropertyOfReplay(bank, walk)});
    }
    walk.Apply(events[i]);
  }
  return out;
}

// The naive detector's verdict on its latest reads; with a history, the
// truth at the last of them (a read changes nothing, so the state at it is
// the state just after it).
check::NaiveJudgement JudgeNaive(const Analysis& a) {
  const engine::Engine& bank = a.bank;
  check::NaiveJudgement j;
  std::vector<std::optional<cutline::Amount>> reads(bank.branch_count());
  for (const engine::NaiveRead& r : bank.naive_reads()) reads[r.branch] = r.balance;
  j.declared = bank.app().Naive(reads);
  if (!a.reads.empty()) j.truth = a.reads.back().truth;
  return j;
}

}  // namespace

Analysis Analyze(const engine::Engine& bank, const std::vector<StepResult>* steps) {
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
  for (std::size_t at = 0; at < bank.snapshots().size(); ++at) {
    a.snapshots.push_back(FactsOf(a, at));
  }
  if (bank.app().has_property()) {
    if (a.has_history) a.reads = JudgeReads(bank);
    a.naive = JudgeNaive(a);
    a.now = check::PropertyNow(bank);
  }
  if (steps != nullptr && a.has_history) a.questions = DeriveQuestions(a, *steps);
  return a;
}

}  // namespace cutline::scenario
