// The one coordinator loop, driven without MPI: the test plays the ranks
// (it sends the parts and final reports a rank would) and moves the clock,
// and reads what the scheduler sent, printed and stored. Every rule of the
// loop is checked for the branches and for a dataflow alike, since both run
// through it: a snapshot that outlives --snapshot-timeout is aborted on
// every rank and stored as timed out, --tolerable-failures such failures
// in a row stop the run and are named, and the end stops every rank.
#include "runtime/scheduler.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/branches_policy.h"
#include "runtime/dataflow_policy.h"
#include "runtime/fault.h"

namespace cutline::runtime {
namespace {

using namespace std::chrono_literals;

// What the scheduler sent and printed.
class RecordingOutbox final : public Outbox {
 public:
  void Send(int rank, const protocol::Control& message) override {
    sent.emplace_back(rank, message);
  }
  void Line(std::string_view kind, const nlohmann::json& body) override {
    lines.emplace_back(std::string(kind), body);
  }
  // The messages of type T sent, by receiving rank.
  template <class T>
  std::vector<int> To() const {
    std::vector<int> ranks;
    for (const auto& [rank, message] : sent) {
      if (std::holds_alternative<T>(message)) ranks.push_back(rank);
    }
    return ranks;
  }
  nlohmann::json Last(std::string_view kind) const {
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
      if (it->first == kind) return it->second;
    }
    return nullptr;
  }
  std::vector<std::pair<int, protocol::Control>> sent;
  std::vector<std::pair<std::string, nlohmann::json>> lines;
};

// What reached the store.
struct SinkLog {
  std::vector<std::uint64_t> started, complete;
  struct Failure {
    std::uint64_t id;
    bool timed_out;
    std::vector<std::uint32_t> missing;
  };
  std::vector<Failure> failed;
  std::optional<RestorePoint> restore;  // what Begin hands back
};

class RecordingSink final : public Sink {
 public:
  explicit RecordingSink(SinkLog& log) : log_(log) {}
  Status Begin(const RunShape&, bool, std::optional<std::uint64_t>,
               std::optional<RestorePoint>* from, std::uint64_t* first) override {
    *from = log_.restore;
    *first = log_.restore ? log_.restore->snapshot + 1 : 1;
    return Status::Ok();
  }
  void Started(std::uint64_t id, std::uint32_t, std::int64_t) override {
    log_.started.push_back(id);
  }
  void Complete(const WholeSnapshot& s) override { log_.complete.push_back(s.id); }
  void Failed(std::uint64_t id, bool timed_out, const std::vector<std::uint32_t>& missing) override {
    log_.failed.push_back({id, timed_out, missing});
  }
  void Progress(std::uint64_t) override {}
  void End(std::uint64_t) override {}
  std::int64_t run_id() const override { return 7; }

 private:
  SinkLog& log_;
};

NodeOptions Options(std::string_view app) {
  NodeOptions o{.app = *App::Find(app)};
  o.snapshot_every = 10ms;
  o.snapshot_timeout = 100ms;
  o.duration = 10s;
  o.tolerable_failures = 3;
  o.balance = 100;
  if (o.app.vertices()) {
    o.algorithm = *Algorithm::Find("aligned");
    o.dataflow = DataflowOptions{.topology = *dataflow::Topology::Parse("1-1"),
                                 .buffers = 8, .slow = {}, .alignment_timeout = {}};
  }
  return o;
}

// One scheduler with its policy, its clock at `now`.
struct Drive {
  explicit Drive(std::string_view app) : options(Options(app)) {}
  void Begin() {
    const int ranks = options.dataflow ? static_cast<int>(options.dataflow->topology.vertices()) : 3;
    std::unique_ptr<Policy> policy;
    if (options.dataflow) {
      policy = std::make_unique<DataflowPolicy>(options, *options.dataflow);
    } else {
      policy = std::make_unique<BranchesPolicy>(options, ranks);
    }
    scheduler = std::make_unique<Scheduler>(options, ranks, std::move(policy),
                                            std::make_unique<RecordingSink>(sink), out);
    ASSERT_TRUE(scheduler->Begin().ok());
    scheduler->Started(now);
  }
  void Advance(Clock::duration d) {
    now += d;
    scheduler->Tick(now);
  }
  void From(int rank, protocol::Control message) {
    scheduler->OnControl(rank, message, 64, now);
  }
  NodeOptions options;
  SinkLog sink;
  RecordingOutbox out;
  Clock::time_point now{};
  std::unique_ptr<Scheduler> scheduler;
};

class SchedulerTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SchedulerTest, ASnapshotThatOutlivesItsTimeoutIsAbortedOnEveryRankAndStoredAsTimedOut) {
  Drive run(GetParam());
  run.Begin();
  run.Advance(10ms);  // snapshot 1 starts
  ASSERT_EQ(run.sink.started, std::vector<std::uint64_t>{1});
  run.Advance(99ms);
  EXPECT_TRUE(run.out.To<protocol::Abort>().empty());
  run.Advance(1ms);
  ASSERT_EQ(run.sink.failed.size(), 1u);
  EXPECT_EQ(run.sink.failed[0].id, 1u);
  EXPECT_TRUE(run.sink.failed[0].timed_out);
  // No part came: every rank is missing.
  EXPECT_EQ(run.sink.failed[0].missing.size(),
            static_cast<std::size_t>(run.options.dataflow ? 2 : 3));
  const std::vector<int> aborted = run.out.To<protocol::Abort>();
  EXPECT_EQ(aborted.size(), run.sink.failed[0].missing.size()) << "every rank is told";
}

TEST_P(SchedulerTest, FailuresInARowPastTheBudgetStopTheRunAndAreNamed) {
  Drive run(GetParam());
  run.Begin();
  // Snapshots start every 10 ms and each times out after 100 ms: the third
  // failure in a row stops the scheduling.
  for (int i = 0; i < 40 && run.sink.failed.size() < 3; ++i) run.Advance(10ms);
  ASSERT_EQ(run.sink.failed.size(), 3u);
  const std::size_t started = run.sink.started.size();
  run.Advance(10ms);
  EXPECT_EQ(run.sink.started.size(), started) << "no snapshot starts once the budget is spent";
  // The running ones get their grace period, then every rank is stopped.
  run.Advance(6s);
  EXPECT_FALSE(run.out.To<protocol::Stop>().empty());
  EXPECT_FALSE(run.scheduler->finished());
  run.scheduler->End();
  const nlohmann::json summary = run.out.Last("cutline-summary");
  EXPECT_EQ(summary["gave_up"], (std::vector<std::uint64_t>{1, 2, 3}));
  // The ones still running timed out in the grace period too.
  EXPECT_EQ(summary["timed_out"], run.sink.started.size());
  EXPECT_EQ(summary["failed"], run.sink.started.size());
  EXPECT_EQ(summary["app"], GetParam());
}

TEST_P(SchedulerTest, TheEndStopsEveryRankAndFinishesWhenEachHasReported) {
  Drive run(GetParam());
  run.options.snapshot_every.reset();
  run.options.duration = 1s;
  run.Begin();
  run.Advance(1s);
  const std::vector<int> stopped = run.out.To<protocol::Stop>();
  ASSERT_FALSE(stopped.empty());
  for (int rank : stopped) {
    EXPECT_FALSE(run.scheduler->finished());
    if (run.options.dataflow) {
      run.From(rank, protocol::VertexFinal{.emitted = rank == 0 ? 5u : 0u,
                                           .received = rank == 0 ? 0u : 5u});
    } else {
      run.From(rank, protocol::Final{.sent = 1, .balance = 100, .changed_us = 0});
    }
  }
  run.Advance(1ms);
  EXPECT_TRUE(run.scheduler->finished());
  run.scheduler->End();
  EXPECT_EQ(run.scheduler->exit_code(), 0);
  EXPECT_EQ(run.out.Last("cutline-summary")["exit_code"], 0);
}

INSTANTIATE_TEST_SUITE_P(EveryApplication, SchedulerTest,
                         ::testing::Values("bank", "jobs", "locks", "dataflow"));

// The bank's parts make a whole snapshot, which the sink keeps and the
// summary counts, with its latency on the scheduler's clock.
TEST(SchedulerBankTest, PartsMakeAWholeSnapshot) {
  Drive run("bank");
  run.Begin();
  run.Advance(10ms);
  ASSERT_EQ(run.out.To<protocol::Start>(), std::vector<int>{0}) << "initiators rotate from rank 0";
  run.now += 3ms;
  for (std::uint32_t r = 0; r < 3; ++r) {
    protocol::Part part{.id = 1, .rank = r, .recorded = {.state = 100, .channels = {{}, {}}},
                        .recorded_us = 1, .marker_us = {2, 2}};
    run.From(static_cast<int>(r), part);
  }
  EXPECT_EQ(run.sink.complete, std::vector<std::uint64_t>{1});
  run.scheduler->End();
  const nlohmann::json s = run.out.Last("cutline-summary");
  EXPECT_EQ(s["complete"], 1u);
  EXPECT_EQ(s["wrong_totals"], 0u);
  EXPECT_DOUBLE_EQ(s["latency_p50_us"].get<double>(), 3000.0);
}

// A rank's rules refused a snapshot: it is given up at once, on every rank.
TEST(SchedulerBankTest, ARanksGiveUpAbortsTheSnapshotEverywhere) {
  Drive run("bank");
  run.Begin();
  run.Advance(10ms);
  run.From(2, protocol::GiveUp{.id = 1});
  ASSERT_EQ(run.sink.failed.size(), 1u);
  EXPECT_FALSE(run.sink.failed[0].timed_out);
  EXPECT_EQ(run.out.To<protocol::Abort>(), (std::vector<int>{0, 1, 2}));
  run.From(1, protocol::GiveUp{.id = 1});  // given up already: nothing more
  EXPECT_EQ(run.sink.failed.size(), 1u);
}

// A restored run says where it began from, whatever its application.
TEST(SchedulerBankTest, ARestoredRunNamesItsSnapshotInTheSummary) {
  Drive run("bank");
  run.sink.restore = RestorePoint{.snapshot = 4, .balances = {90, 110, 100}, .channels = {},
                                  .vertices = {}};
  run.Begin();
  EXPECT_EQ(run.out.Last("cutline-run")["restored_from"], 4u);
  EXPECT_EQ(run.out.Last("cutline-run")["total"], 300);
  run.scheduler->End();
  EXPECT_EQ(run.out.Last("cutline-summary")["restored_from"], 4u);
}

TEST(SchedulerBankTest, APartNamingAnotherRankIsAFault) {
  Drive run("bank");
  run.Begin();
  run.Advance(10ms);
  protocol::Part part{.id = 1, .rank = 2, .recorded = {.state = 100, .channels = {{}, {}}},
                      .recorded_us = 1, .marker_us = {2, 2}};
  EXPECT_THROW(run.From(1, part), Fault);
}

}  // namespace
}  // namespace cutline::runtime
