// Predict mode's questions: each kind on a schedule that shows it, with its
// answer checked against what the bank itself recorded, and every demo and
// the lab run asking at least two.
#include "scenario/questions.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "scenario/demos.h"

namespace cutline::scenario {
namespace {

struct Played {
  Runner runner;
  std::vector<Question> questions;
  explicit Played(const std::string& text) {
    Status s = runner.RunText(text);
    EXPECT_TRUE(s.ok()) << text;
    const bank::Bank& bank = *runner.bank();
    questions = DeriveQuestions(bank, bank::Replay::Of(bank), runner.steps());
  }
  const bank::Bank& bank() const { return *runner.bank(); }
  std::vector<const Question*> Of(QuestionKind kind) const {
    std::vector<const Question*> out;
    for (const Question& q : questions) {
      if (q.kind == kind) out.push_back(&q);
    }
    return out;
  }
  bank::Amount Amount(bank::Seq seq) const {
    return bank::Replay::Of(bank()).Find(seq)->amount();
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

// Every answer agrees with the bank's own record, and every demo asks at
// least twice.
TEST(Questions, EveryDemoAsksAtLeastTwiceAndAgreesWithTheBank) {
  for (const Demo& d : Demos()) {
    Played r(DemoScenario(d));
    EXPECT_GE(r.questions.size(), 2u) << "demo " << d.id;
    for (const Question& q : r.questions) {
      EXPECT_LT(q.step, r.runner.steps().size());
      EXPECT_GE(q.step, 1u);
      if (q.kind == QuestionKind::kChannelState) {
        std::vector<bank::Amount> amounts;
        for (bank::Seq s : q.answer) amounts.push_back(r.Amount(s));
        EXPECT_EQ(amounts, r.bank().RecordedChannel(q.snapshot, q.channel).transfers) << "demo " << d.id;
      }
      if (q.kind == QuestionKind::kBalanceIncludes) {
        EXPECT_EQ(r.bank().RecordedBalance(q.branch, q.snapshot), q.balance) << "demo " << d.id;
      }
    }
  }
}


// docs/page.md lists every demo's questions; the list is this table, made
// from the engine's answers, so the docs cannot drift from the demos.
std::string Money(bank::Amount a) { return "$" + std::to_string(a); }

std::string QuestionTable() {
  std::ostringstream out;
  out << "| demo | step | command | question | answer | why |\n|---|---|---|---|---|---|\n";
  for (const Demo& d : Demos()) {
    Played r(DemoScenario(d));
    const bank::Bank& bank = r.bank();
    const bank::Replay replay = bank::Replay::Of(bank);
    auto msg = [&](bank::Seq seq) {
      const bank::Flight* f = replay.Find(seq);
      const auto& ch = bank.network().channel(f->channel);
      return Money(f->amount()) + " " + bank.name(ch.from) + "->" + bank.name(ch.to);
    };
    auto list = [&](const std::vector<bank::Seq>& seqs) {
      std::string s;
      for (bank::Seq q : seqs) s += (s.empty() ? "" : " and ") + msg(q);
      return s;
    };
    const std::string name = d.id == kLabDemoId ? "lab" : std::to_string(d.id);
    for (const Question& q : r.questions) {
      std::string question, answer;
      switch (q.kind) {
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

}  // namespace
}  // namespace cutline::scenario
