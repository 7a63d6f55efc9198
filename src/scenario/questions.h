// Questions: what a student can foresee in a run, derived from its history
// (predict mode, docs/page.md). Each is tied to the step whose events answer
// it, so the page asks it before it shows that step. The answers and the
// facts behind them come from the run; the words are the page's (web/i18n.js).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <optional>

#include "apps/app.h"
#include "engine/engine.h"
#include "engine/replay.h"
#include "scenario/runner.h"

namespace cutline::scenario {

enum class QuestionKind {
  kNaiveTotal,       // the naive reader's total once every branch is read
  kBalanceIncludes,  // will a branch's recorded balance include a transfer
  kChannelState,     // what a channel records when its marker arrives
  kCutConsistent,    // is the naive reader's cut so far consistent
  // Will a running snapshot record a transfer about to be delivered in its
  // channel's state (its receiver has recorded it). The page asks it in
  // free play only: the demos keep their curated questions (docs/page.md).
  kDeliveryRecorded,
  // Jobs and locks: will the naive detector (after this read) or a snapshot
  // (as it completes) declare the application's stable property.
  kPropertyDeclared,
};

// Why the right answer is right: a code (words: web/i18n.js, "why_" + code).
enum class WhyCode {
  kNaiveExact,       // nothing in flight was lost or counted twice
  kNaiveLost,        // transfers in flight at the reads are in no answer
  kNaiveTwice,       // transfers read at both ends
  kNaiveLostTwice,   // both
  kArrivedBefore,    // the transfer reached the branch before it recorded
  kInFlight,         // the transfer was still travelling when it recorded
  kRecordedInFlight, // delivered between the receiver's record and the marker
  kFirstMarker,      // the marker was the receiver's first: recorded empty
  kNothingBetween,   // nothing arrived between the record and the marker
  kOvertaken,        // unaligned: the barrier overtook it at the sender
  kCutConsistent,    // no message received inside the cut was sent outside it
  kCutBackward,      // a message was received inside the cut, sent outside it
  kChannelRecording, // the receiver recorded and the channel is still open
  kChannelClosed,    // the channel was already closed: the transfer is after the cut
  kNewerEpoch,       // Lai-Yang: sent after its sender recorded (its epoch)
  // A rule broken on purpose: the bank left out what Chandy-Lamport's rule
  // records (kBrokenRule), or recorded what the rule leaves out.
  kBrokenRule,
  kBrokenRuleExtra,
  // kPropertyDeclared: the naive detector declares and is wrong (what it
  // read was true at different moments), declares and is right, or does not
  // declare (a read shows the property does not hold); a snapshot declares
  // (its recorded state has the property) or does not (why: the verdict).
  kNaiveWrong,
  kNaiveRight,
  kNaiveNot,
  kSnapshotHolds,
  kSnapshotNot,
};

const char* QuestionKindName(QuestionKind k);
const char* WhyCodeName(WhyCode c);

struct Question {
  QuestionKind kind = QuestionKind::kNaiveTotal;
  std::size_t step = 0;  // index of the command (the runner's steps)
  std::size_t at = 0;    // the event the question is about
  sim::NodeId branch = 0;       // read, recording, or the channel's receiver
  SnapshotId snapshot = 0;       // kBalanceIncludes, kChannelState, kDeliveryRecorded
  sim::ChannelId channel = 0;   // kChannelState, kDeliveryRecorded
  sim::Seq transfer = 0;        // kBalanceIncludes, kDeliveryRecorded: the transfer asked about
  cutline::Amount number = 0;       // kNaiveTotal: the answer
  // kBalanceIncludes, kCutConsistent, kDeliveryRecorded: the answer
  bool yes = false;
  // kChannelState: the candidate transfers (each a choice, beside "empty");
  // kCutConsistent: those backward messages and up to four other messages
  // the branch just read had received, to find them among.
  std::vector<sim::Seq> choices;
  // kChannelState: the recorded transfers (empty: "empty");
  // kCutConsistent: the messages crossing the cut backwards (the newest
  // three; `yes` is judged on all of them).
  std::vector<sim::Seq> answer;
  WhyCode why = WhyCode::kNaiveExact;
  // The facts of the explanation: kNaiveTotal's lost and counted-twice
  // transfers; the bank's total; the recorded balance.
  std::vector<sim::Seq> lost;
  std::vector<sim::Seq> twice;
  cutline::Amount bank_total = 0;
  cutline::Amount balance = 0;
  std::vector<sim::NodeId> read;  // kCutConsistent: the branches read so far
  // kBrokenRule, kBrokenRuleExtra: the transfers Chandy-Lamport's rule
  // records and the bank left out, and those it recorded beyond the rule.
  std::vector<sim::Seq> missing;
  std::vector<sim::Seq> extra;
  std::uint64_t epoch = 0;  // kNewerEpoch: the transfer's epoch (its tag)
  // kPropertyDeclared: `snapshot` 0 for the naive detector. The verdict
  // declared (its reason when it does not hold), and for the naive detector
  // the property of the real state at this read.
  apps::Verdict verdict;
  std::optional<apps::Verdict> truth;
};

struct Analysis;

// Every question of the run, in history order, from the run's analysis
// (its replay, its snapshots' facts, its judged reads); Analyze calls it,
// and the views read Analysis::questions.
// REQUIRES: the bank keeps its history; `steps` are the runner's.
std::vector<Question> DeriveQuestions(const Analysis& analysis,
                                      const std::vector<StepResult>& steps);

}  // namespace cutline::scenario
