// Analyze: each analysis of a run made once, for every view. The history is
// replayed once, event by event (Walk): the replay at its end gives every
// message's flight (the naive reads, the verdicts' transfers, the
// questions), and what held at a moment (a record, a read) is noted as the
// walk passes it. The checker walks the history on its own, the costs riding
// on its walk: the checker is independent of the engine by design.
#include "scenario/analysis.h"

#include <algorithm>

#include "base/check.h"
#include "engine/property.h"
#include "scenario/run_record.h"

namespace cutline::scenario {

Analysis::Analysis(const engine::Engine& b)
    : bank(b),
      replay(b),
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

// The one walk of the history: it builds the replay every view reads, and
// notes what was true at a moment as it passes it: the state at each record
// and, for an application with a property, every read of the naive detector
// judged (the reads so far declare; the state replayed to the read, its
// messages in flight included, is the truth). Like Replay::Of, it applies
// no more events after one it cannot make sense of.
void Walk(Analysis& a) {
  const engine::Engine& bank = a.bank;
  const bool property = bank.app().has_property();
  std::vector<std::optional<cutline::Amount>> reads(bank.branch_count());
  std::size_t read = 0;
  bool lost = false;
  const auto& events = bank.history().events();
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (const auto* r = std::get_if<history::Recorded>(&events[i])) {
      a.state_at_record[{r->snapshot, r->node}] = a.replay.balance(r->node);
    }
    const auto* r = std::get_if<history::Read>(&events[i]);
    if (r != nullptr && property) {
      if (!reads[r->node]) ++read;
      reads[r->node] = r->balance;
      a.reads.push_back({i, r->node, read, bank.app().Naive(reads),
                         engine::PropertyOfReplay(bank, a.replay)});
    }
    if (!lost) lost = engine::Fatal(a.replay.Apply(events[i]));
  }
}

// The naive detector's verdict on its latest reads; with a history, the
// truth at the last of them (a read changes nothing, so the state at it is
// the state just after it).
check::NaiveJudgement NaiveVerdict(const Analysis& a) {
  const engine::Engine& bank = a.bank;
  check::NaiveJudgement j;
  std::vector<std::optional<cutline::Amount>> reads(bank.branch_count());
  for (const engine::NaiveRead& r : bank.naive_reads()) reads[r.branch] = r.balance;
  j.declared = bank.app().Naive(reads);
  if (!a.reads.empty()) j.truth = a.reads.back().truth;
  return j;
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

Analysis Analyze(const engine::Engine& bank, const std::vector<StepResult>* steps, Lang lang) {
  Analysis a(bank);
  // Without a history, CheckSnapshots says so of any complete snapshot (and
  // leaves the costs empty).
  a.check = CheckSnapshots(bank, lang, &a.costs);
  if (a.has_history) {
    for (std::size_t i = 0; i < a.check.verdicts.size(); ++i) {
      a.verdict_at_[a.check.verdicts[i].id] = i;
    }
    Walk(a);
    if (bank.app().conserved()) a.naive_reads = engine::AnalyzeNaive(bank, a.replay);
  }
  for (std::size_t at = 0; at < bank.snapshots().size(); ++at) {
    a.snapshots.push_back(FactsOf(a, at));
  }
  if (bank.app().has_property()) {
    a.naive = NaiveVerdict(a);
    a.now = engine::PropertyNow(bank);
  }
  if (steps != nullptr && a.has_history) a.questions = DeriveQuestions(a, *steps);
  return a;
}

}  // namespace cutline::scenario
