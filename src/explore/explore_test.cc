// `cutline explore`: every correct algorithm is right in every schedule of
// small networks, each rule broken on purpose (and Chandy-Lamport over
// channels that reorder) yields a counterexample that `cutline check` then
// rejects too, a snapshot that never completes is a finding, a scenario
// without one has nothing judged, and the visited-state hashing changes
// neither the verdict, nor the count of schedules, nor the shortest
// counterexample's length.
#include "explore/explore.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "apps/app.h"
#include "test_share.h"
#include "check/consistency_checker.h"
#include "engine/engine.h"
#include "scenario/run_record.h"
#include "scenario/runner.h"

namespace cutline::explore {
namespace {

// The random tests' share of their full counts (test_share.h); never fewer
// than 4 scenarios.
using test_support::PropertyShare;
int ScenariosFor(int full) { return std::max(4, full * PropertyShare() / 100); }

Result ExploreOk(const std::string& scenario, Options options = {}) {
  StatusOr<Result> r = Explore(scenario, options);
  EXPECT_TRUE(r.ok()) << scenario;
  return r.ok() ? *r : Result{};
}

// The search five ways: full (every schedule walked), with the hashing,
// with the hashing and the partial-order reduction, with those and the
// sleep sets (the default), and with the sleep sets alone. Each
// reduction keeps the answer, the states where nothing more can happen
// (where liveness is judged) and the shortest counterexample's length; the
// hashing keeps the count of schedules and the longest one too (the
// reduction leaves out reorderings, so it counts fewer).
// The searches compared keep their states whole (exact); the default one,
// with fingerprints, is held to its exact twin: the same states, steps,
// schedules and answer.
Result RunEveryWay(const std::string& scenario, Options options = {}) {
  options.hashing = false;
  options.reduction = false;
  options.sleep_sets = false;
  options.keep_end_states = true;
  options.exact = true;
  const Result full = ExploreOk(scenario, options);
  options.hashing = true;
  const Result hashed = ExploreOk(scenario, options);
  options.reduction = true;
  const Result ample = ExploreOk(scenario, options);
  options.sleep_sets = true;
  const Result reduced_exact = ExploreOk(scenario, options);
  options.exact = false;
  const Result reduced = ExploreOk(scenario, options);
  EXPECT_EQ(reduced.states, reduced_exact.states) << scenario;
  EXPECT_EQ(reduced.transitions, reduced_exact.transitions) << scenario;
  EXPECT_EQ(reduced.schedules, reduced_exact.schedules) << scenario;
  EXPECT_EQ(reduced.outcome, reduced_exact.outcome) << scenario;
  EXPECT_TRUE(reduced.end_states == reduced_exact.end_states) << scenario;
  EXPECT_EQ(reduced.counterexample, reduced_exact.counterexample) << scenario;
  EXPECT_LT(reduced_exact.collision_chance, 0) << "an exact search has no chance of a collision";
  EXPECT_GE(reduced.collision_chance, 0) << scenario;
  options.exact = true;
  // The sleep sets alone, without the hashing (each schedule's own).
  options.hashing = false;
  options.reduction = false;
  const Result slept = ExploreOk(scenario, options);
  for (const Result* r : {&ample, &slept}) {
    EXPECT_EQ(r->outcome, full.outcome) << scenario;
    EXPECT_EQ(r->never_completes, full.never_completes) << scenario;
    EXPECT_EQ(r->counterexample.size(), full.counterexample.size()) << scenario;
    if (full.outcome == Outcome::kRight || full.outcome == Outcome::kNothing) {
      EXPECT_TRUE(r->end_states == full.end_states) << scenario;
      EXPECT_EQ(r->depth, full.depth) << scenario;
    }
  }
  if (full.outcome == Outcome::kRight || full.outcome == Outcome::kNothing) {
    EXPECT_LE(reduced.transitions, ample.transitions) << scenario;
    EXPECT_LE(slept.transitions, full.transitions) << scenario;
  }
  EXPECT_EQ(hashed.outcome, full.outcome) << scenario;
  EXPECT_EQ(reduced.outcome, full.outcome) << scenario;
  EXPECT_EQ(hashed.never_completes, full.never_completes) << scenario;
  EXPECT_EQ(reduced.never_completes, full.never_completes) << scenario;
  if (full.outcome == Outcome::kRight || full.outcome == Outcome::kNothing) {
    EXPECT_FALSE(full.end_states.empty()) << scenario;
    EXPECT_TRUE(hashed.end_states == full.end_states) << scenario;
    EXPECT_TRUE(reduced.end_states == full.end_states) << scenario;
    EXPECT_EQ(hashed.schedules, full.schedules) << scenario;
    EXPECT_EQ(hashed.depth, full.depth) << scenario;
    EXPECT_EQ(reduced.depth, full.depth) << scenario;
    EXPECT_LE(hashed.states, full.states) << scenario;
    EXPECT_LE(reduced.states, hashed.states) << scenario;
    EXPECT_LE(reduced.transitions, hashed.transitions) << scenario;
  }
  EXPECT_EQ(hashed.counterexample.size(), full.counterexample.size()) << scenario;
  EXPECT_EQ(reduced.counterexample.size(), full.counterexample.size()) << scenario;
  return reduced;
}

std::string Joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

// The counterexample run as a plain scenario: `cutline check` rejects it
// with the same findings.
void ExpectCheckRejects(const Result& r) {
  ASSERT_EQ(r.outcome, Outcome::kBroken);
  scenario::Runner runner;
  ASSERT_TRUE(runner.RunText(Joined(r.counterexample)).ok()) << Joined(r.counterexample);
  const check::CheckReport report = scenario::CheckSnapshots(*runner.bank());
  EXPECT_FALSE(report.ok()) << Joined(r.counterexample);
  EXPECT_EQ(report.problems, r.findings) << Joined(r.counterexample);
}

struct Case {
  const char* name;
  const char* scenario;
};

TEST(ExploreTest, CorrectAlgorithmsAreRightInEverySchedule) {
  const std::vector<Case> cases = {
      {"Chandy-Lamport, two transfers in flight on three branches",
       "network P1=100 P2=100 P3=100\ntransfer P1 P2 10\ntransfer P2 P3 20\nsnapshot P1\n"},
      {"Chandy-Lamport, two initiators",
       "network P1=100 P2=100 P3=100\ntransfer P1 P2 10\nsnapshot P1\ntransfer P3 P1 5\n"
       "snapshot P3 id=1\n"},
      {"Lai-Yang over channels that reorder",
       "network A=100 B=100 fifo=no algorithm=lai-yang\nsnapshot A\ntransfer A B 10\n"
       "transfer B A 5\n"},
      {"aligned barriers", "network A=100 B=100 C=100 links=A>B,B>C,A>C algorithm=aligned\n"
                           "transfer A B 10\ntransfer A C 5\nsnapshot A\ntransfer B C 3\n"},
      {"unaligned barriers", "network A=100 B=100 C=100 links=A>B,B>C,A>C algorithm=unaligned\n"
                             "transfer A B 10\ntransfer A C 5\nsnapshot A\ntransfer B C 3\n"},
      {"stop the world", "network A=100 B=100\ntransfer A B 10\nstop-the-world\ntransfer B A 5\n"},
      {"jobs", "network P1=1 P2=0 P3=0 app=jobs\njob P1 P3\nfinish P1\nsnapshot P1\n"},
      {"locks", "network P1 P2 P3=0 app=locks\nrequest P1 P2\nrequest P2 P1\nsnapshot P3\n"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    // At a reduced share (ASan), the walk of every schedule is left to the
    // plain build, which holds the reductions to it: here they run alone.
    const Result r = PropertyShare() >= 100 ? RunEveryWay(c.scenario) : ExploreOk(c.scenario);
    EXPECT_EQ(r.outcome, Outcome::kRight) << Joined(r.findings) << Joined(r.counterexample);
    EXPECT_GT(r.schedules, 1) << "more than the schedule written";
    EXPECT_GT(r.snapshots_judged, 0u);
  }
}

TEST(ExploreTest, EachBrokenRuleYieldsTheShortestCounterexample) {
  const std::vector<Case> cases = {
      {"broken-unrecorded-channel",
       "network A=100 B=100 algorithm=broken-unrecorded-channel\ntransfer B A 40\nsnapshot A\n"},
      {"broken-late-markers",
       "network A=100 B=100 algorithm=broken-late-markers\nsnapshot A\ntransfer A B 10\n"},
      {"broken-stop-at-first", "network A=100 B=100 capacity=2 algorithm=broken-stop-at-first\n"
                               "transfer B A 40\ntransfer B A 20\nsnapshot A\n"},
      {"Chandy-Lamport over channels that reorder",
       "network A=100 B=100 fifo=no\nsnapshot A\ntransfer A B 10\n"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    // At a reduced share (ASan), the walk of every schedule is left to the
    // plain build, which holds the reductions to it: here they run alone.
    const Result r = PropertyShare() >= 100 ? RunEveryWay(c.scenario) : ExploreOk(c.scenario);
    ExpectCheckRejects(r);
    EXPECT_EQ(r.counterexample.front(), std::string(c.scenario).substr(0, std::string(c.scenario).find('\n')));
  }
}

// The shortest: on two branches, a transfer in flight missed by the broken
// rule needs the transfer, the start, and three deliveries: the $40 to A
// (not recorded: the broken rule leaves B->A unrecorded), A's marker to B
// (B records, and its part is done: A->B is its only input) and B's marker
// to A, which completes the snapshot. Five steps; the reduction takes A's
// delivery first (the $40 and A's marker commute: they are at different
// branches).
TEST(ExploreTest, TheCounterexampleIsTheShortestSchedule) {
  const Result r = RunEveryWay(
      "network A=100 B=100 algorithm=broken-unrecorded-channel\ntransfer B A 40\nsnapshot A\n");
  ASSERT_EQ(r.outcome, Outcome::kBroken);
  EXPECT_EQ(r.counterexample,
            (std::vector<std::string>{"network A=100 B=100 algorithm=broken-unrecorded-channel",
                                      "transfer B A 40", "snapshot A", "deliver B A", "deliver A B",
                                      "deliver B A"}));
}

// The counterexample of a snapshot that never completes, run as a plain
// scenario: nothing is left to deliver, and the snapshot is not complete.
void ExpectLeftIncomplete(const Result& r) {
  ASSERT_EQ(r.outcome, Outcome::kBroken);
  EXPECT_TRUE(r.never_completes);
  scenario::Runner runner;
  ASSERT_TRUE(runner.RunText(Joined(r.counterexample)).ok()) << Joined(r.counterexample);
  const engine::Engine& bank = *runner.bank();
  EXPECT_FALSE(bank.network().CanDeliverNext()) << Joined(r.counterexample);
  ASSERT_FALSE(bank.snapshots().empty());
  EXPECT_FALSE(bank.snapshots().back().complete) << Joined(r.counterexample);
}

// Issue 42's case: P1 keeps its markers until its next transfer, and none
// comes. No snapshot ever completes, so no safety finding can catch it;
// the state where nothing more can happen does. The shortest such schedule
// has three steps: P2's transfer, the start, and the $40 delivered (before
// it, the $40 is still in flight), in either order of the last two.
TEST(ExploreTest, ASnapshotThatNeverCompletesIsAFindingWithItsShortestSchedule) {
  const std::string scenario =
      "network P1=100 P2=100 P3=100 algorithm=broken-late-markers\ntransfer P2 P1 40\nsnapshot P1\n";
  const Result r = RunEveryWay(scenario);
  ExpectLeftIncomplete(r);
  ASSERT_EQ(r.counterexample.size(), 4u) << Joined(r.counterexample);
  EXPECT_EQ(r.counterexample[1], "transfer P2 P1 40");
  const std::vector<std::string> last = {r.counterexample[2], r.counterexample[3]};
  EXPECT_TRUE(last == (std::vector<std::string>{"snapshot P1", "deliver P2 P1"}) ||
              last == (std::vector<std::string>{"deliver P2 P1", "snapshot P1"}))
      << Joined(r.counterexample);
  EXPECT_EQ(r.findings, (std::vector<std::string>{"snapshot 1 never completes: P1 holds its markers for ever"}));
  EXPECT_EQ(r.snapshots_judged, 0u);
  Options ja;
  ja.lang = Lang::kJa;
  EXPECT_EQ(ExploreOk(scenario, ja).findings,
            (std::vector<std::string>{"スナップショット1は完了しません: P1がマーカーを送らずに持ち続けます"}));
}

// Where no branch holds markers, the finding names who never records and
// which recorded branch's channels never close: here X has no incoming
// channel, so a snapshot Y starts never reaches it (testdata/unreachable.txt).
TEST(ExploreTest, ASnapshotThatNeverReachesABranchNamesItAndTheChannelLeftOpen) {
  const Result r = RunEveryWay("network X=10 Y=10 Z=10 links=X>Y,Y>Z,Z>Y\ntransfer X Y 5\nsnapshot Y\n");
  ExpectLeftIncomplete(r);
  EXPECT_EQ(r.findings,
            (std::vector<std::string>{"snapshot 1 never completes: X never records; channel X→Y never closes"}));
}

// No snapshot in any schedule: nothing judged, no verdict (never "right").
TEST(ExploreTest, AScenarioWithoutASnapshotHasNothingJudged) {
  const Result r = RunEveryWay("network P1=100 P2=100 P3=100\ntransfer P1 P2 10\ntransfer P2 P3 20\n");
  EXPECT_EQ(r.outcome, Outcome::kNothing);
  EXPECT_EQ(r.snapshots_judged, 0u);
  EXPECT_GT(r.schedules, 1);
  EXPECT_TRUE(r.findings.empty());
}

// Starts anywhere: each snapshot start at every point, so more schedules,
// and Chandy-Lamport is still right in all of them.
TEST(ExploreTest, StartsAnywhereExploresMoreAndStaysRight) {
  const std::string scenario =
      "network A=100 B=100\ntransfer A B 10\nsnapshot A\ntransfer B A 5\n";
  Options anywhere;
  anywhere.starts_anywhere = true;
  const Result written = ExploreOk(scenario), everywhere = RunEveryWay(scenario, anywhere);
  EXPECT_EQ(everywhere.outcome, Outcome::kRight);
  EXPECT_GT(everywhere.schedules, written.schedules);
}

// Random small scenarios (two or three branches, channels of capacity 2 or
// of none, a few transfers, a read, a snapshot somewhere, a correct or a
// broken rule): the reduced searches agree with
// the full one every time. A failure names the seed;
// CUTLINE_EXPLORE_SEED=N replays it.
void ExpectReductionsAgreeOnRandomScenarios(int scenarios) {
  std::uint64_t seed = std::random_device{}();
  if (const char* s = std::getenv("CUTLINE_EXPLORE_SEED")) seed = std::strtoull(s, nullptr, 10);
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay: CUTLINE_EXPLORE_SEED=" + std::to_string(seed) + ")");
  std::mt19937_64 rng(seed);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); };
  // Lai-Yang (over channels that reorder, half the time) and unaligned
  // barriers run one snapshot at a time; the others may run a second one
  // beside the first (the visited-state key reads each running snapshot
  // apart: SeenBy).
  const char* rules[] = {"chandy-lamport", "broken-unrecorded-channel", "broken-late-markers",
                         "broken-stop-at-first", "lai-yang", "unaligned"};
  int compared = 0;
  for (int i = 0; i < scenarios; ++i) {
    const int branches = 2 + pick(2);
    std::string s = "network";
    for (int b = 1; b <= branches; ++b) s += " P" + std::to_string(b) + "=100";
    if (pick(3) == 0) s += " capacity=2";
    const int rule = pick(6);
    s += std::string(" algorithm=") + rules[rule] + "\n";
    if (rule == 4 && pick(2) == 0) s.insert(s.size() - 1, " fifo=no");
    const int transfers = 1 + pick(branches == 2 ? 3 : 2);
    const int snapshot_at = pick(transfers + 1);
    const int second_at = rule < 4 && pick(3) == 0 ? pick(transfers + 1) : -1;
    for (int t = 0; t <= transfers; ++t) {
      if (t == snapshot_at) s += "snapshot P" + std::to_string(1 + pick(branches)) + "\n";
      if (t == second_at) s += "snapshot P" + std::to_string(1 + pick(branches)) + "\n";
      if (t == transfers) break;
      const int from = 1 + pick(branches);
      if (pick(4) == 0) s += "read P" + std::to_string(from) + "\n";
      const int to = 1 + (from + pick(branches - 1)) % branches;
      s += "transfer P" + std::to_string(from) + " P" + std::to_string(to) + " " + std::to_string(1 + pick(30)) + "\n";
    }
    SCOPED_TRACE(s);
    Options full;
    full.hashing = false;
    full.reduction = false;
    full.max_states = 10'000;
    // A channel of capacity 2 may refuse the third transfer written on it
    // (the scenario does not run as written); the rest are compared.
    StatusOr<Result> first = Explore(s, full);
    if (!first.ok() || first->outcome == Outcome::kBounded) continue;
    RunEveryWay(s);
    ++compared;
  }
  EXPECT_GE(compared, scenarios / 3) << "most scenarios are small enough to search in full";
}

TEST(ExploreTest, TheReductionsAgreeWithTheFullSearchOnRandomScenarios) {
  ExpectReductionsAgreeOnRandomScenarios(ScenariosFor(16));
}

// `make test-long`: many more.
TEST(ExploreTest, LongTheReductionsAgreeWithTheFullSearchOnRandomScenarios) {
  ExpectReductionsAgreeOnRandomScenarios(400);
}

// The visited-state key takes a branch's receipts on different channels
// in any order (explore.cc, SeenBy): sound only while two deliveries leave
// a branch's state the same in either order, for every application.
TEST(ExploreTest, EveryApplicationsDeliveriesCommute) {
  const Amount words[] = {0, 1, 2, 3, 7, 40};
  const Amount states[] = {0, 1, 2, 3, 5, 100};
  int apps = 0;
  for (const apps::App& app : apps::App::All()) {
    SCOPED_TRACE(std::string(app.name()));
    ++apps;
    for (Amount s : states) {
      for (Amount a : words) {
        for (Amount b : words) {
          EXPECT_EQ(app.AfterDeliver(app.AfterDeliver(s, a), b), app.AfterDeliver(app.AfterDeliver(s, b), a))
              << "state " << s << ", words " << a << " and " << b;
        }
      }
    }
  }
  EXPECT_GE(apps, 3);
}

TEST(ExploreTest, ABoundStopsTheSearchAndSaysWhich) {
  Options small;
  small.max_states = 20;
  const Result r = ExploreOk("network P1=100 P2=100 P3=100\ntransfer P1 P2 10\ntransfer P2 P3 20\nsnapshot P1\n",
                       small);
  EXPECT_EQ(r.outcome, Outcome::kBounded);
  EXPECT_EQ(r.bound, "states");
  EXPECT_EQ(r.states, 20u);
}

// Fingerprints can take two states for one: made 6 bits wide, a search of
// 285 states meets collisions, visits fewer states than the
// exact search, and says the chance was not small (it is capped at 1). At
// 64 bits the same search visits every state, and says how unlikely a
// collision was.
TEST(ExploreTest, FingerprintsCanHideStatesAndTheResultSaysHowLikelyThatWas) {
  const std::string bank =
      "network P1=100 P2=100 P3=100\ntransfer P1 P2 10\nsnapshot P1\ntransfer P2 P3 10\n";
  Options exact;
  exact.exact = true;
  const Result whole = ExploreOk(bank, exact);
  ASSERT_EQ(whole.outcome, Outcome::kRight);
  ASSERT_GT(whole.states, 100u);
  EXPECT_LT(whole.collision_chance, 0);
  const Result wide = ExploreOk(bank, {});
  EXPECT_EQ(wide.states, whole.states);
  EXPECT_EQ(wide.schedules, whole.schedules);
  EXPECT_GT(wide.collision_chance, 0);
  EXPECT_LT(wide.collision_chance, 1e-9);
  Options narrow;
  narrow.fingerprint_bits = 6;
  const Result hidden = ExploreOk(bank, narrow);
  EXPECT_LE(hidden.states, 64u) << "6-bit fingerprints tell at most 64 states apart";
  EXPECT_EQ(hidden.collision_chance, 1.0);
}

// A search reports how far it has gone while it runs (cutline explore
// prints it every 10 s): asked at every state, the reports grow, the last
// is within the result, and the layer explored only deepens.
TEST(ExploreTest, ASearchReportsItsProgressWhileItRuns) {
  std::vector<Progress> seen;
  Options every;
  every.progress = [&](const Progress& p) { seen.push_back(p); };
  every.progress_every = 0;
  const Result r = ExploreOk("network P1=100 P2=100 P3=100\ntransfer P1 P2 10\nsnapshot P1\ntransfer P2 P3 10\n",
                             every);
  ASSERT_EQ(r.outcome, Outcome::kRight);
  ASSERT_GT(seen.size(), 10u);
  for (std::size_t i = 1; i < seen.size(); ++i) {
    EXPECT_GE(seen[i].states, seen[i - 1].states);
    EXPECT_GE(seen[i].depth, seen[i - 1].depth);
    EXPECT_GE(seen[i].seconds, seen[i - 1].seconds);
  }
  EXPECT_LE(seen.back().states, r.states);
  EXPECT_EQ(seen.back().queued, 0u) << "the last state explored leaves nothing waiting";
  EXPECT_GT(seen[seen.size() / 2].queued, 0u);
  // Without a callback, or before its first interval, nothing is reported.
  Options quiet;
  quiet.progress = [&](const Progress& p) { seen.push_back(p); };
  quiet.progress_every = 1e9;
  const std::size_t before = seen.size();
  ExploreOk("network P1=100 P2=100\ntransfer P1 P2 10\nsnapshot P1\n", quiet);
  EXPECT_EQ(seen.size(), before);
}

TEST(ExploreTest, AScenarioThatDoesNotRunIsRefusedAsRunRefusesIt) {
  StatusOr<Result> r = Explore("network A=100 B=100\ntransfer A C 10\n", {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kUnknownBranch);
  EXPECT_EQ(r.status().line(), 2);
  r = Explore("transfer A B 10\n", {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kNetworkFirst);
}

}  // namespace
}  // namespace cutline::explore
