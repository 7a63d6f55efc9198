// Predict mode's questions: each kind on a schedule that shows it, with its
// answer checked against what the bank itself recorded, and every demo and
// the lab run asking at least two.
#include "scenario/questions.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "apps/app.h"
#include "base/status.h"
#include "check/consistency_checker.h"
#include "scenario/analysis.h"
#include "scenario/demos.h"

namespace cutline::scenario {
namespace {

struct Played {
  Runner runner;
  std::vector<Question> questions;
  explicit Played(const std::string& text) {
    Status s = runner.RunText(text);
    EXPECT_TRUE(s.ok()) << text;
    const engine::Engine& bank = *runner.bank();
    questions = Analyze(bank, &runner.steps()).questions;
  }
  const engine::Engine& bank() const { return *runner.bank(); }
  std::vector<const Question*> Of(QuestionKind kind) const {
    std::vector<const Question*> out;
    for (const Question& q : questions) {
      if (q.kind == kind) out.push_back(&q);
    }
    return out;
  }
  cutline::Amount Amount(sim::Seq seq) const {
    return engine::Replay::Of(bank()).Find(seq)->amount();
  }
};

TEST(Questions, NaiveTotalLostInFlight) {
  Played r("network P1=100 P2=100 P3=100\ntransfer P1 P2 30\nread P1\nread P2\nread P3\ndeliver");
  auto total = r.Of(QuestionKind::kNaiveTotal);
  ASSERT_EQ(total.size(), 1u);
  EXPECT_EQ(total[0]->number, 270);
  EXPECT_EQ(total[0]->step, 4u);  // "read P3": step 0 is the network line
  EXPECT_EQ(total[0]->why, WhyCode::kNaiveLost);
  ASSERT_EQ(total[0]->lost.size(), 1u);
  EXPECT_EQ(r.Amount(total[0]->lost[0]), 30);
  EXPECT_TRUE(total[0]->twice.empty());
  EXPECT_EQ(total[0]->bank_total, 300);
  // The read of P2 (the second) asks about the cut: no message crosses it.
  auto cut = r.Of(QuestionKind::kCutConsistent);
  ASSERT_EQ(cut.size(), 1u);
  EXPECT_TRUE(cut[0]->yes);
  EXPECT_EQ(cut[0]->step, 3u);
}

TEST(Questions, CutBackwardAndCountedTwice) {
  Played r("network P1=100 P2=100 P3=100\nread P1\ntransfer P1 P2 30\ndeliver P1 P2\nread P2\nread P3");
  auto cut = r.Of(QuestionKind::kCutConsistent);
  ASSERT_EQ(cut.size(), 1u);
  EXPECT_FALSE(cut[0]->yes);
  EXPECT_EQ(cut[0]->why, WhyCode::kCutBackward);
  ASSERT_EQ(cut[0]->answer.size(), 1u);
  EXPECT_EQ(r.Amount(cut[0]->answer[0]), 30);
  EXPECT_EQ(cut[0]->choices, cut[0]->answer);
  auto total = r.Of(QuestionKind::kNaiveTotal);
  ASSERT_EQ(total.size(), 1u);
  EXPECT_EQ(total[0]->number, 330);
  EXPECT_EQ(total[0]->why, WhyCode::kNaiveTwice);
}

TEST(Questions, ReReadAfterTheTableIsFullAsksNothing) {
  Played r("network A=100 B=100\nread A\nread B\nread A");
  EXPECT_EQ(r.Of(QuestionKind::kNaiveTotal).size(), 1u);
  EXPECT_EQ(r.Of(QuestionKind::kCutConsistent).size(), 0u);  // two branches: the second read is the last
}

TEST(Questions, SnapshotBalanceAndChannel) {
  Played r("network A=100 B=100\ntransfer B A 40\nsnapshot A\ndeliver B A\ndeliver A B\ndeliver B A");
  auto balance = r.Of(QuestionKind::kBalanceIncludes);
  ASSERT_GE(balance.size(), 1u);
  EXPECT_EQ(balance[0]->branch, 0u);  // A, at its start: the $40 is on its way
  EXPECT_FALSE(balance[0]->yes);
  EXPECT_EQ(r.Amount(balance[0]->transfer), 40);
  EXPECT_EQ(balance[0]->balance, 100);
  auto channel = r.Of(QuestionKind::kChannelState);
  ASSERT_EQ(channel.size(), 1u);
  EXPECT_EQ(r.bank().network().channel(channel[0]->channel).from, 1u);  // B->A
  ASSERT_EQ(channel[0]->answer.size(), 1u);
  EXPECT_EQ(r.Amount(channel[0]->answer[0]), 40);
  EXPECT_EQ(channel[0]->why, WhyCode::kRecordedInFlight);
  EXPECT_EQ(channel[0]->step, 5u);
}

TEST(Questions, NothingToForeseeAsksNothing) {
  Played r("network A=100 B=100\ntransfer A B 10\ndeliver");
  EXPECT_TRUE(r.questions.empty());
}

TEST(Questions, UnalignedBarrierRecordsWhatItOvertook) {
  const Demo* d = FindDemo(9);
  ASSERT_NE(d, nullptr);
  Played r(DemoScenario(*d));
  auto channel = r.Of(QuestionKind::kChannelState);
  ASSERT_FALSE(channel.empty());
  EXPECT_EQ(channel[0]->why, WhyCode::kOvertaken);
}

// A delivery into a running snapshot whose receiver has recorded: the answer
// is the engine's (Bank::JoinedBy), the reason the rule's.
TEST(Questions, DeliveryIntoARecordingChannelIsRecorded) {
  Played r("network A=100 B=100\ntransfer B A 40\nsnapshot A\ndeliver B A\ndeliver A B\ndeliver B A");
  auto asked = r.Of(QuestionKind::kDeliveryRecorded);
  ASSERT_EQ(asked.size(), 1u);
  const Question& q = *asked[0];
  EXPECT_EQ(q.step, 3u);  // "deliver B A": A recorded at step 2
  EXPECT_EQ(q.branch, 0u);
  EXPECT_EQ(q.snapshot, 1u);
  EXPECT_EQ(r.bank().network().channel(q.channel).from, 1u);  // B->A
  EXPECT_EQ(r.Amount(q.transfer), 40);
  EXPECT_TRUE(q.yes);
  EXPECT_EQ(q.why, WhyCode::kChannelRecording);
  EXPECT_EQ(r.bank().JoinedBy(q.transfer), std::vector<SnapshotId>{1});
}

// Demo 3's schedule played in free play: the $40 delivered to P1 after it
// recorded, before P2's marker, is asked about and recorded.
TEST(Questions, DemoThreeInFreePlayAsksBeforeTheRecordedDelivery) {
  const Demo* d = FindDemo(3);
  ASSERT_NE(d, nullptr);
  Played r(DemoScenario(*d));
  auto asked = r.Of(QuestionKind::kDeliveryRecorded);
  ASSERT_FALSE(asked.empty());
  const Question* forty = nullptr;
  for (const Question* q : asked) {
    if (r.Amount(q->transfer) == 40) forty = q;
  }
  ASSERT_NE(forty, nullptr);
  EXPECT_TRUE(forty->yes);
  EXPECT_EQ(forty->why, WhyCode::kChannelRecording);
  EXPECT_STREQ(d->steps[forty->step - 1].command, "deliver P2 P1");
  for (const Question* q : asked) {
    EXPECT_EQ(q->yes, !r.bank().JoinedBy(q->transfer).empty()) << "step " << q->step;
  }
}

// A transfer behind the marker arrives after the channel closed: the running
// snapshot does not record it.
TEST(Questions, DeliveryAfterTheMarkerClosedTheChannelIsNotRecorded) {
  Played r(
      "network P1=100 P2=100 P3=100\nsnapshot P1\ndeliver P1 P2\ntransfer P2 P1 10\n"
      "deliver P2 P1\ndeliver P2 P1");
  auto asked = r.Of(QuestionKind::kDeliveryRecorded);
  ASSERT_EQ(asked.size(), 1u);
  const Question& q = *asked[0];
  EXPECT_EQ(q.step, 5u);
  EXPECT_EQ(r.Amount(q.transfer), 10);
  EXPECT_FALSE(q.yes);
  EXPECT_EQ(q.why, WhyCode::kChannelClosed);
  EXPECT_TRUE(r.bank().JoinedBy(q.transfer).empty());
  // Still running: P3 has not recorded.
  EXPECT_FALSE(r.bank().FindSnapshot(1)->complete);
}

// Chandy-Lamport over channels that reorder: a transfer sent before its
// sender recorded, delivered after the marker, is lost from the snapshot, not
// "of the future": no reason states that, so it is not asked.
TEST(Questions, ATransferOvertakenByTheMarkerIsNotAsked) {
  Played r(
      "network P1=100 P2=100 P3=100 fifo=no\ntransfer P2 P1 10\nsnapshot P1\ndeliver P1 P2\n"
      "deliver P2 P1 at=2\ndeliver P2 P1");
  // The marker (#5) went first; the $10 (#1) comes after it.
  EXPECT_TRUE(r.bank().JoinedBy(1).empty());
  EXPECT_TRUE(r.Of(QuestionKind::kDeliveryRecorded).empty());
}

// A receiver that recorded in the same step (the marker before the transfer,
// in one drain) is not asked: the page asks before the step, from what is on
// screen. Nor is a delivery with no snapshot running, or after it completed.
TEST(Questions, DeliveryAsksOnlyWhatTheScreenShowsBeforeTheStep) {
  Played r("network A=100 B=100\ntransfer A B 5\nsnapshot A\ndrain\ntransfer B A 7\ndeliver B A");
  EXPECT_TRUE(r.bank().FindSnapshot(1)->complete);
  EXPECT_TRUE(r.Of(QuestionKind::kDeliveryRecorded).empty());
}

// A drain delivering several transfers into a recording channel asks once.
TEST(Questions, ADrainAsksAboutOneDelivery) {
  Played r("network P1=100 P2=100 P3=100\ntransfer P2 P1 10\ntransfer P2 P1 20\ntransfer P3 P1 30\n"
           "snapshot P1\ndrain");
  auto asked = r.Of(QuestionKind::kDeliveryRecorded);
  ASSERT_EQ(asked.size(), 1u);
  EXPECT_EQ(r.Amount(asked[0]->transfer), 10);
  EXPECT_TRUE(asked[0]->yes);
}

// Lai-Yang: a transfer P2 sent after recording carries the new epoch and
// joins no channel state; one P3 sent before recording joins P3->P1's.
TEST(Questions, LaiYangDeliveryOfANewerEpochIsNotRecorded) {
  Played r(
      "network P1=100 P2=100 P3=100 algorithm=lai-yang\nsnapshot P1\ndeliver P1 P2\n"
      "transfer P2 P1 10\ntransfer P3 P1 5\ndeliver P2 P1\ndeliver P3 P1\ndeliver P2 P1");
  auto asked = r.Of(QuestionKind::kDeliveryRecorded);
  ASSERT_EQ(asked.size(), 2u);
  EXPECT_EQ(r.Amount(asked[0]->transfer), 5);
  EXPECT_TRUE(asked[0]->yes);
  EXPECT_EQ(asked[0]->why, WhyCode::kChannelRecording);
  EXPECT_EQ(r.Amount(asked[1]->transfer), 10);
  EXPECT_FALSE(asked[1]->yes);
  EXPECT_EQ(asked[1]->why, WhyCode::kNewerEpoch);
  EXPECT_EQ(asked[1]->epoch, 1u);
  EXPECT_EQ(r.bank().MessageTag(asked[1]->transfer), 1u);
}

// Broken on purpose (broken-unrecorded-channel): P1 never records its first
// incoming channel, P2->P1. The $40 in flight there is asked about twice, and
// both answers are what the bank did, with the broken rule as the reason.
TEST(Questions, BrokenVariantIsAskedWhatItReallyRecorded) {
  Played r(
      "network P1=100 P2=100 P3=100 capacity=2 algorithm=broken-unrecorded-channel\n"
      "transfer P2 P1 40\nsnapshot P1\ndeliver P2 P1\ndeliver P1 P2\ndeliver P2 P1");
  const engine::Engine& bank = r.bank();
  // P1's incoming channel of index 0 is P2->P1 (channels by sender, then receiver).
  const sim::ChannelId p2p1 = bank.network().Incoming(0).front();
  ASSERT_EQ(bank.network().channel(p2p1).from, 1u);
  EXPECT_EQ(bank.network().channel(p2p1).in_index, 0u);

  auto delivery = r.Of(QuestionKind::kDeliveryRecorded);
  ASSERT_EQ(delivery.size(), 1u);
  EXPECT_EQ(delivery[0]->step, 3u);
  EXPECT_EQ(delivery[0]->channel, p2p1);
  EXPECT_FALSE(delivery[0]->yes);
  EXPECT_EQ(delivery[0]->why, WhyCode::kBrokenRule);
  ASSERT_EQ(delivery[0]->missing.size(), 1u);
  EXPECT_EQ(r.Amount(delivery[0]->missing[0]), 40);

  // The channel question is kept (Chandy-Lamport's rule would record the
  // $40; the bank recorded it empty): the answer is the bank's.
  auto channel = r.Of(QuestionKind::kChannelState);
  ASSERT_EQ(channel.size(), 1u);
  EXPECT_EQ(channel[0]->channel, p2p1);
  EXPECT_EQ(channel[0]->step, 5u);
  EXPECT_TRUE(channel[0]->answer.empty());
  EXPECT_TRUE(bank.RecordedChannel(1, p2p1).transfers.empty());
  EXPECT_EQ(channel[0]->why, WhyCode::kBrokenRule);
  ASSERT_EQ(channel[0]->missing.size(), 1u);
  EXPECT_EQ(r.Amount(channel[0]->missing[0]), 40);
  ASSERT_EQ(channel[0]->choices.size(), 1u);
  EXPECT_TRUE(channel[0]->extra.empty());

  // The balance a record keeps is not what the variant breaks: asked as
  // under Chandy-Lamport, and true of the bank.
  auto balance = r.Of(QuestionKind::kBalanceIncludes);
  ASSERT_EQ(balance.size(), 1u);
  EXPECT_FALSE(balance[0]->yes);
  EXPECT_EQ(balance[0]->why, WhyCode::kInFlight);
  EXPECT_EQ(bank.RecordedBalance(0, 1), balance[0]->balance);
}

// The same schedule under Chandy-Lamport: the $40 is recorded, and the
// reasons are the rule's own.
TEST(Questions, TheSameScheduleUnderChandyLamportRecordsIt) {
  Played r(
      "network P1=100 P2=100 P3=100 capacity=2\n"
      "transfer P2 P1 40\nsnapshot P1\ndeliver P2 P1\ndeliver P1 P2\ndeliver P2 P1");
  auto delivery = r.Of(QuestionKind::kDeliveryRecorded);
  ASSERT_EQ(delivery.size(), 1u);
  EXPECT_TRUE(delivery[0]->yes);
  EXPECT_EQ(delivery[0]->why, WhyCode::kChannelRecording);
  auto channel = r.Of(QuestionKind::kChannelState);
  ASSERT_EQ(channel.size(), 1u);
  EXPECT_EQ(channel[0]->why, WhyCode::kRecordedInFlight);
  EXPECT_TRUE(channel[0]->missing.empty());
}

// Every answer agrees with the bank's own record, and every demo asks at
// least twice.
TEST(Questions, EveryDemoAsksAtLeastTwiceAndAgreesWithTheBank) {
  for (const Demo& d : Demos()) {
    Played r(DemoScenario(d));
    // Jobs and locks ask about their verdicts: each demo has one at least.
    EXPECT_GE(r.questions.size(), r.bank().app().conserved() ? 2u : 1u) << "demo " << d.id;
    for (const Question& q : r.questions) {
      EXPECT_LT(q.step, r.runner.steps().size());
      EXPECT_GE(q.step, 1u);
      if (q.kind == QuestionKind::kChannelState) {
        std::vector<cutline::Amount> amounts;
        for (sim::Seq s : q.answer) amounts.push_back(r.Amount(s));
        EXPECT_EQ(amounts, r.bank().RecordedChannel(q.snapshot, q.channel).transfers) << "demo " << d.id;
      }
      if (q.kind == QuestionKind::kBalanceIncludes) {
        EXPECT_EQ(r.bank().RecordedBalance(q.branch, q.snapshot), q.balance) << "demo " << d.id;
      }
      if (q.kind == QuestionKind::kPropertyDeclared && q.snapshot == 0 &&
          q.at == r.bank().naive_reads().back().history_index) {
        // The last read's question agrees with the naive judgement the
        // naive panel shows.
        const std::optional<check::NaiveJudgement> j = Analyze(r.bank()).naive;
        ASSERT_TRUE(j.has_value()) << "demo " << d.id;
        EXPECT_EQ(q.yes, j->declared.holds) << "demo " << d.id;
        ASSERT_TRUE(q.truth && j->truth) << "demo " << d.id;
        EXPECT_EQ(*q.truth, *j->truth) << "demo " << d.id;
      }
      if (q.kind == QuestionKind::kDeliveryRecorded) {
        const auto& joined = r.bank().JoinedBy(q.transfer);
        EXPECT_EQ(q.yes, std::find(joined.begin(), joined.end(), q.snapshot) != joined.end()) << "demo " << d.id;
      }
    }
  }
}


// docs/page.md lists every demo's questions; the list is this table, made
// from the engine's answers, so the docs cannot drift from the demos.
std::string Money(cutline::Amount a) { return "$" + std::to_string(a); }

std::string QuestionTable() {
  std::ostringstream out;
  out << "| demo | step | command | question | answer | why |\n|---|---|---|---|---|---|\n";
  for (const Demo& d : Demos()) {
    Played r(DemoScenario(d));
    const engine::Engine& bank = r.bank();
    const engine::Replay replay = engine::Replay::Of(bank);
    auto msg = [&](sim::Seq seq) {
      const engine::Flight* f = replay.Find(seq);
      const auto& ch = bank.network().channel(f->channel);
      return Money(f->amount()) + " " + bank.name(ch.from) + "->" + bank.name(ch.to);
    };
    auto list = [&](const std::vector<sim::Seq>& seqs) {
      std::string s;
      for (sim::Seq q : seqs) s += (s.empty() ? "" : " and ") + msg(q);
      return s;
    };
    const std::string name = d.id == kLabDemoId ? "lab" : std::to_string(d.id);
    for (const Question& q : r.questions) {
      // The page asks these in free play only: a demo keeps its curated
      // questions, which are this table.
      if (q.kind == QuestionKind::kDeliveryRecorded) continue;
      std::string question, answer;
      switch (q.kind) {
        case QuestionKind::kDeliveryRecorded:
          break;
        case QuestionKind::kNaiveTotal:
          question = "naive total once " + bank.name(q.branch) + " is read";
          answer = Money(q.number);
          break;
        case QuestionKind::kBalanceIncludes:
          question = bank.name(q.branch) + "'s recorded balance includes " + msg(q.transfer) + "?";
          answer = q.yes ? "yes" : "no";
          break;
        case QuestionKind::kChannelState: {
          const auto& ch = bank.network().channel(q.channel);
          question = "channel " + bank.name(ch.from) + "->" + bank.name(ch.to) + " records? (choices: empty, " +
                     list(q.choices) + ")";
          answer = q.answer.empty() ? "empty" : list(q.answer);
          break;
        }
        case QuestionKind::kPropertyDeclared: {
          const std::string property(bank.app().definition().property);
          question = q.snapshot == 0
                         ? "naive detector declares " + property + " once " + bank.name(q.branch) + " is read?"
                         : "snapshot " + std::to_string(q.snapshot) + " declares " + property + "?";
          answer = q.yes ? "yes" : "no";
          break;
        }
        case QuestionKind::kCutConsistent:
          question = "naive cut consistent once " + bank.name(q.branch) + " is read?";
          answer = q.yes ? "yes" : "no: " + list(q.answer) + " crosses it backwards";
          break;
      }
      out << "| " << name << " | " << q.step << " | `" << d.steps[q.step - 1].command << "` | " << question
          << " | " << answer << " | " << WhyCodeName(q.why) << " |\n";
    }
  }
  return out.str();
}

TEST(Questions, DocsListEveryDemosQuestions) {
  std::ifstream in(std::string(CUTLINE_SOURCE_DIR) + "/docs/page.md");
  ASSERT_TRUE(in) << "docs/page.md not found";
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string doc = buf.str();
  const std::string begin = "<!-- questions:begin -->\n", end = "<!-- questions:end -->";
  const auto b = doc.find(begin), e = doc.find(end);
  ASSERT_TRUE(b != std::string::npos && e != std::string::npos) << "docs/page.md lacks the questions block";
  const std::string table = QuestionTable();
  EXPECT_EQ(doc.substr(b + begin.size(), e - b - begin.size()), table)
      << "docs/page.md's questions are out of date; the block should read:\n" << table;
}

// The run's one analysis: a snapshot's facts are what the engine recorded,
// every read of the naive detector is judged, and its verdict agrees with
// the checker's own judgement, which replays the history apart; without the
// steps, no questions are derived.
TEST(Questions, TheAnalysisAgreesWithTheEngineAndTheChecker) {
  for (const Demo& d : Demos()) {
    Played r(DemoScenario(d));
    const engine::Engine& bank = r.bank();
    const Analysis a = Analyze(bank);
    EXPECT_TRUE(a.questions.empty()) << "demo " << d.id;
    ASSERT_EQ(a.snapshots.size(), bank.snapshots().size()) << "demo " << d.id;
    for (const SnapshotFacts& f : a.snapshots) {
      const SnapshotId id = f.info->id;
      for (sim::NodeId n = 0; n < bank.branch_count(); ++n) {
        EXPECT_EQ(f.recorded[n], bank.RecordedBalance(n, id)) << "demo " << d.id;
        EXPECT_EQ(f.parts_done[n], bank.PartDone(n, id)) << "demo " << d.id;
      }
      for (sim::ChannelId c = 0; c < bank.network().channel_count(); ++c) {
        EXPECT_EQ(f.channels[c].transfers, bank.RecordedChannel(id, c).transfers) << "demo " << d.id;
      }
      EXPECT_EQ(f.verdict, a.Verdict(id)) << "demo " << d.id;
    }
    if (!bank.app().has_property()) continue;
    const auto reads = std::count_if(bank.history().events().begin(), bank.history().events().end(),
                                     [](const history::Event& e) { return std::holds_alternative<history::Read>(e); });
    EXPECT_EQ(a.reads.size(), static_cast<std::size_t>(reads)) << "demo " << d.id;
    // The naive judgement itself is held to a walk of the history of its
    // own in tests/property_test.cc (PropertyTest, the naive detector).
    ASSERT_TRUE(a.naive.has_value());
    EXPECT_EQ(a.naive->truth.has_value(), !bank.naive_reads().empty()) << "demo " << d.id;
  }
}

// The naive detector read P3 before the job came and P1 after it finished:
// it declares termination, and the history shows a job in flight. (The
// naive judgement the page shows, Analysis::naive.)
TEST(NaiveJudgement, TheNaiveDetectorsFalseTerminationIsNamed) {
  engine::Config config{.app = apps::App::kJobs};
  for (const char* name : {"P1", "P2", "P3"}) config.branches.push_back({name, 0});
  config.branches[0].balance = 1;
  std::optional<engine::Engine> made;
  ASSERT_TRUE(engine::Engine::Create(config, &made).ok());
  engine::Engine& bank = *made;
  auto ok = [](const Status& s) { ASSERT_TRUE(s.ok()) << CodeName(s.code()); };
  ok(bank.Read(2));
  ok(apps::App::FindCommand("job")->second->run(bank, std::vector<sim::NodeId>{0, 2}));
  ok(apps::App::FindCommand("finish")->second->run(bank, std::vector<sim::NodeId>{0}));
  ok(bank.Read(0));
  ok(bank.Read(1));
  const check::NaiveJudgement j = *Analyze(bank).naive;
  EXPECT_TRUE(j.declared.holds);
  ASSERT_TRUE(j.truth.has_value());
  EXPECT_FALSE(j.truth->holds);
  EXPECT_TRUE(j.wrong());
  // Read again once the job has arrived: no longer all idle, no claim.
  ok(bank.Drain());
  ok(bank.Read(2));
  EXPECT_FALSE(Analyze(bank).naive->declared.holds);
  EXPECT_FALSE(Analyze(bank).naive->wrong());
}

// The demos' titles and captions are written by hand beside their commands;
// they write a channel as the narration under them does (ChannelText,
// "P2→P1"), never "P2->P1" (issue 28).
TEST(DemoWords, CaptionsWriteChannelsWithThePagesArrow) {
  for (const Demo& d : Demos()) {
    for (Lang lang : {Lang::kEn, Lang::kJa}) {
      EXPECT_EQ(std::string(d.title.in(lang)).find("->"), std::string::npos) << d.title.in(lang);
      for (const DemoStep& step : d.steps) {
        const std::string caption = step.caption.in(lang);
        EXPECT_EQ(caption.find("->"), std::string::npos) << "demo " << d.id << ": " << caption;
      }
    }
  }
}

}  // namespace
}  // namespace cutline::scenario
