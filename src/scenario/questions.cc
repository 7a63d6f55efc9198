// DeriveQuestions: one walk through the history, asking at each read, record,
// marker-closed channel and delivery into a recording snapshot what a student
// could have foreseen. A question is kept only when its answer agrees with
// what the bank itself recorded (the recorded balance, the channel's recorded
// transfers, the snapshots a delivered transfer joined), so that a variant
// whose rules differ is never asked about under the wrong rules; a variant
// broken on purpose is asked, with what it really recorded as the answer and
// the broken rule as the reason.
#include "scenario/questions.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "base/overloaded.h"
#include "history/crossing.h"
#include "scenario/analysis.h"

namespace cutline::scenario {

using sim::ChannelId;
using engine::Flight;
using sim::NodeId;
using sim::Seq;

const char* QuestionKindName(QuestionKind k) {
  switch (k) {
    case QuestionKind::kNaiveTotal:
      return "naive_total";
    case QuestionKind::kBalanceIncludes:
      return "balance_includes";
    case QuestionKind::kChannelState:
      return "channel_state";
    case QuestionKind::kCutConsistent:
      return "cut_consistent";
    case QuestionKind::kPropertyDeclared:
      return "property_declared";
    case QuestionKind::kDeliveryRecorded:
      return "delivery_recorded";
  }
  return "?";
}

const char* WhyCodeName(WhyCode c) {
  switch (c) {
    case WhyCode::kNaiveExact: return "naive_exact";
    case WhyCode::kNaiveLost: return "naive_lost";
    case WhyCode::kNaiveTwice: return "naive_twice";
    case WhyCode::kNaiveLostTwice: return "naive_lost_twice";
    case WhyCode::kArrivedBefore: return "arrived_before";
    case WhyCode::kInFlight: return "in_flight";
    case WhyCode::kRecordedInFlight: return "recorded_in_flight";
    case WhyCode::kFirstMarker: return "first_marker";
    case WhyCode::kNothingBetween: return "nothing_between";
    case WhyCode::kOvertaken: return "overtaken";
    case WhyCode::kCutConsistent: return "cut_consistent";
    case WhyCode::kCutBackward: return "cut_backward";
    case WhyCode::kChannelRecording: return "channel_recording";
    case WhyCode::kChannelClosed: return "channel_closed";
    case WhyCode::kNewerEpoch: return "newer_epoch";
    case WhyCode::kBrokenRule: return "broken_rule";
    case WhyCode::kBrokenRuleExtra: return "broken_rule_extra";
    case WhyCode::kNaiveWrong: return "naive_wrong";
    case WhyCode::kNaiveRight: return "naive_right";
    case WhyCode::kNaiveNot: return "naive_not";
    case WhyCode::kSnapshotHolds: return "snapshot_holds";
    case WhyCode::kSnapshotNot: return "snapshot_not";
  }
  return "?";
}

namespace {

// The step whose events hold event i: the last to begin at or before it
// (steps are in history order; a step without events holds none).
std::size_t StepHolding(const std::vector<StepResult>& steps, std::size_t i) {
  auto it = std::upper_bound(steps.begin(), steps.end(), i, [](std::size_t e, const StepResult& s) {
    return e < s.history_begin;
  });
  while (it != steps.begin() && (it - 1)->history_end <= i) --it;
  return it == steps.begin() ? 0 : static_cast<std::size_t>(it - steps.begin() - 1);
}

bool DeliveredBefore(const Flight& f, std::size_t i) {
  return f.delivered() && f.delivered_at < i;
}

class Deriver {
 public:
  Deriver(const Analysis& a, const std::vector<StepResult>& steps)
      : a_(a), bank_(a.bank), replay_(a.replay), steps_(steps),
        by_channel_(a.bank.network().channel_count()), by_receiver_(a.bank.branch_count()) {
    // Each question looks at one channel's or one branch's messages: index
    // them once, so that a long run stays linear in its questions.
    for (const Flight& f : replay_.flights()) {
      by_channel_[f.channel].push_back(&f);
      by_receiver_[To(f)].push_back(&f);
    }
  }

  std::vector<Question> Run() {
    const auto& events = bank_.history().events();
    for (std::size_t i = 0; i < events.size(); ++i) {
      std::visit(Overloaded{
                     [&](const history::Read& r) { OnRead(r, i); },
                     [&](const history::Recorded& r) { OnRecorded(r, i); },
                     [&](const history::Closed& c) { OnClosed(c); },
                     [&](const history::Delivered<history::Marker>& d) { OnMarker(d, i); },
                     [&](const history::Delivered<history::Transfer>& d) { OnDelivered(d, i); },
                     [&](const history::Completed& c) { OnCompleted(c); },
                     [](const auto&) {},
                 },
                 events[i]);
    }
    return std::move(out_);
  }

 private:
  std::size_t StepOf(std::size_t i) const { return StepHolding(steps_, i); }

  Question Make(QuestionKind kind, std::size_t i, NodeId branch) const {
    Question q;
    q.kind = kind;
    q.step = StepOf(i);
    q.at = i;
    q.branch = branch;
    q.bank_total = bank_.total();
    return q;
  }

  NodeId From(const Flight& f) const { return bank_.network().channel(f.channel).from; }
  NodeId To(const Flight& f) const { return bank_.network().channel(f.channel).to; }

  // Reads: the one that completes the table asks for the total; each one
  // before it (from the second on) asks whether the cut so far holds.
  void OnRead(const history::Read& r, std::size_t i) {
    const bool all_before = read_at_.size() == bank_.branch_count();
    read_at_[r.node] = i;
    reads_[r.node] = r.balance;
    const bool all_after = read_at_.size() == bank_.branch_count();
    if (all_before) return;  // a re-read after the table was full
    auto is_read = [&](NodeId n) { return read_at_.count(n) > 0; };
    if (all_after) {
      Question q = Make(QuestionKind::kNaiveTotal, i, r.node);
      for (const auto& [n, b] : reads_) q.number += b;
      for (const Flight& f : replay_.flights()) {
        if (!f.is_transfer() || f.sent_at >= i) continue;
        const std::size_t from = read_at_[From(f)], to = read_at_[To(f)];
        const history::Crossing crossing =
            history::CrossingOf(f.sent_at < from, DeliveredBefore(f, to));
        if (crossing == history::Crossing::kForward) q.lost.push_back(f.seq);
        if (crossing == history::Crossing::kBackward) q.twice.push_back(f.seq);
      }
      q.why = q.lost.empty() ? (q.twice.empty() ? WhyCode::kNaiveExact : WhyCode::kNaiveTwice)
                             : (q.twice.empty() ? WhyCode::kNaiveLost : WhyCode::kNaiveLostTwice);
      out_.push_back(std::move(q));
      return;
    }
    if (read_at_.size() < 2) return;
    Question q = Make(QuestionKind::kCutConsistent, i, r.node);
    for (const auto& [n, at] : read_at_) q.read.push_back(n);
    // Whether the cut holds: every pair of read branches.
    for (const auto& [to, at] : read_at_) {
      for (const Flight* f : by_receiver_[to]) {
        if (is_read(From(*f)) &&
            history::CrossingOf(f->sent_at < read_at_[From(*f)], DeliveredBefore(*f, at)) ==
                history::Crossing::kBackward) {
          q.answer.push_back(f->seq);
        }
      }
    }
    std::sort(q.answer.begin(), q.answer.end());
    q.yes = q.answer.empty();
    // What to choose among: a few of the backward messages (the newest) and
    // of the others the branch just read had received, so that a long run
    // asks a short question.
    constexpr std::size_t kBackward = 3, kOthers = 4;
    if (q.answer.size() > kBackward) q.answer.erase(q.answer.begin(), q.answer.end() - kBackward);
    q.choices = q.answer;
    std::size_t others = 0;
    const auto& mine = by_receiver_[r.node];
    for (auto it = mine.rbegin(); it != mine.rend() && others < kOthers; ++it) {
      const Flight* f = *it;
      if (!DeliveredBefore(*f, i) || std::find(q.answer.begin(), q.answer.end(), f->seq) != q.answer.end()) continue;
      q.choices.push_back(f->seq);
      ++others;
    }
    std::sort(q.choices.begin(), q.choices.end());
    if (q.yes) q.choices.clear();
    q.why = q.yes ? WhyCode::kCutConsistent : WhyCode::kCutBackward;
    out_.push_back(std::move(q));
  }

  // A record asks whether the balance includes a transfer sent to the
  // branch: one still in flight if there is one, else the latest arrived.
  void OnRecorded(const history::Recorded& r, std::size_t i) {
    first_record_.try_emplace(r.snapshot, i);
    recorded_at_[{r.snapshot, r.node}] = i;
    recorded_by_[r.node].push_back(r.snapshot);
    const std::optional<cutline::Amount> recorded = bank_.RecordedBalance(r.node, r.snapshot);
    // The branch's balance as of this event is what a record keeps; where a
    // variant records otherwise, no question.
    auto live = a_.state_at_record.find({r.snapshot, r.node});
    if (!recorded || live == a_.state_at_record.end() || *recorded != live->second) return;
    const Flight* pick = nullptr;
    for (const Flight* f : by_receiver_[r.node]) {
      if (!f->is_transfer() || f->sent_at >= i) continue;
      if (!DeliveredBefore(*f, i)) {
        pick = f;
        break;
      }
      if (!pick || f->delivered_at > pick->delivered_at) pick = f;
    }
    if (!pick) return;
    Question q = Make(QuestionKind::kBalanceIncludes, i, r.node);
    q.snapshot = r.snapshot;
    q.transfer = pick->seq;
    q.yes = DeliveredBefore(*pick, i);
    q.why = q.yes ? WhyCode::kArrivedBefore : WhyCode::kInFlight;
    q.balance = *recorded;
    out_.push_back(std::move(q));
  }

  // A channel closed by a marker's arrival asks what it recorded, among the
  // transfers on it since the snapshot began.
  void OnClosed(const history::Closed& c) {
    closed_.insert({c.snapshot, c.channel});
    auto marker = last_marker_.find({c.snapshot, c.channel});
    if (marker == last_marker_.end()) return;
    AskChannel(c.snapshot, c.channel, marker->second);
  }

  // A marker: where a rule broken on purpose closed its channel before it
  // came (a recording that stops early), the channel question is asked at
  // the marker, the point where Chandy-Lamport's rule would close it.
  void OnMarker(const history::Delivered<history::Marker>& d, std::size_t i) {
    const SnapshotId s = d.what.snapshot;
    last_marker_[{s, d.channel}] = i;
    if (closed_.count({s, d.channel}) && Broken(s)) AskChannel(s, d.channel, i);
  }

  // A complete snapshot records nothing more: its deliveries ask nothing.
  void OnCompleted(const history::Completed& c) {
    for (auto& [n, ids] : recorded_by_) std::erase(ids, c.snapshot);
  }

  bool Broken(SnapshotId s) const { return bank_.AlgorithmOf(s).traits().broken_on_purpose; }
  static bool Has(const std::vector<SnapshotId>& ids, SnapshotId s) {
    return std::find(ids.begin(), ids.end(), s) != ids.end();
  }

  // What channel `c` recorded for snapshot `s`, asked at its marker (event m).
  void AskChannel(SnapshotId s, ChannelId c, std::size_t m) {
    auto start = first_record_.find(s);
    const NodeId to = bank_.network().channel(c).to;
    auto rec = recorded_at_.find({s, to});
    if (start == first_record_.end() || rec == recorded_at_.end()) return;
    // Once per channel and snapshot, whichever event asked first.
    if (!asked_channel_.insert({s, c}).second) return;
    Question q = Make(QuestionKind::kChannelState, m, to);
    q.snapshot = s;
    q.channel = c;
    std::vector<cutline::Amount> amounts;
    bool overtaken = false;
    for (const Flight* fp : by_channel_[c]) {
      const Flight& f = *fp;
      if (!f.is_transfer() || f.sent_at >= m) continue;
      if (DeliveredBefore(f, start->second)) continue;
      q.choices.push_back(f.seq);
      // Chandy-Lamport's rule: what arrived between the record and the
      // marker; unaligned barriers: what the barrier overtook at the sender.
      const bool between = f.delivered() && f.delivered_at > rec->second && f.delivered_at < m;
      const bool jumped = !replay_.OvertakenBy(f.seq).empty();
      if (between || jumped) {
        q.answer.push_back(f.seq);
        amounts.push_back(f.amount());
        overtaken = overtaken || (jumped && !between);
      }
    }
    // Only where there is something to choose between.
    if (q.choices.empty()) return;
    const std::vector<cutline::Amount> recorded = bank_.RecordedChannel(s, c).transfers;
    if (amounts != recorded) {
      // The bank recorded otherwise. A correct variant is never asked under
      // Chandy-Lamport's rule; one broken on purpose is asked what it
      // really recorded (the transfers whose delivery joined this
      // snapshot's channel state, as its host said), the difference being
      // the reason.
      if (!Broken(s)) return;
      std::vector<Seq> actual;
      std::vector<cutline::Amount> actual_amounts;
      for (Seq seq : q.choices) {
        if (!Has(bank_.JoinedBy(seq), s)) continue;
        actual.push_back(seq);
        actual_amounts.push_back(replay_.Find(seq)->amount());
      }
      // The recorded amounts, whatever order the channel delivered them
      // in, must be exactly these; else the engine's facts do not explain
      // the record, and nothing is asked.
      std::vector<cutline::Amount> want = recorded;
      std::sort(want.begin(), want.end());
      std::sort(actual_amounts.begin(), actual_amounts.end());
      if (want != actual_amounts) return;
      for (Seq seq : q.answer) {
        if (!Has(bank_.JoinedBy(seq), s)) q.missing.push_back(seq);
      }
      for (Seq seq : actual) {
        if (std::find(q.answer.begin(), q.answer.end(), seq) == q.answer.end()) q.extra.push_back(seq);
      }
      q.answer = std::move(actual);
      q.why = q.missing.empty() ? WhyCode::kBrokenRuleExtra : WhyCode::kBrokenRule;
      out_.push_back(std::move(q));
      return;
    }
    if (overtaken) {
      q.why = WhyCode::kOvertaken;
    } else if (!q.answer.empty()) {
      q.why = WhyCode::kRecordedInFlight;
    } else if (rec->second > m) {
      q.why = WhyCode::kFirstMarker;
    } else {
      q.why = WhyCode::kNothingBetween;
    }
    out_.push_back(std::move(q));
  }

  // A transfer delivered to a branch that recorded a running snapshot
  // before the step began asks whether that snapshot records it in the
  // channel's state. The answer is the engine's (Engine::JoinedBy); the
  // reason is the algorithm's rule, stated from the run's facts: the
  // channel's marker has not come yet (a channel still recording) or has
  // (closed), or, under Lai-Yang, the transfer's epoch. One question per
  // step, about its first such delivery, so that a drain asks once.
  void OnDelivered(const history::Delivered<history::Transfer>& d, std::size_t i) {
    const std::size_t step = StepOf(i);
    if (step == asked_delivery_step_ || step >= steps_.size()) return;
    // Unaligned: a transfer a barrier overtook is recorded by its sender,
    // not at its delivery; the channel question asks about it.
    if (!replay_.OvertakenBy(d.seq).empty()) return;
    const NodeId to = bank_.network().channel(d.channel).to;
    const std::size_t begin = steps_[step].history_begin;
    for (SnapshotId s : recorded_by_[to]) {
      if (recorded_at_[{s, to}] >= begin) continue;
      const algorithms::Traits& traits = bank_.AlgorithmOf(s).traits();
      if (traits.stops_the_world) continue;
      const bool yes = Has(bank_.JoinedBy(d.seq), s);
      // The rule's answer, from the facts of the run: Lai-Yang records an
      // older epoch's transfers after the record; the others, a channel's
      // transfers until its marker.
      const std::uint64_t epoch = traits.tags_messages ? bank_.MessageTag(d.seq) : 0;
      const bool newer = traits.tags_messages && epoch >= s;
      const bool marker_came = last_marker_.count({s, d.channel}) > 0;
      const bool rule = traits.tags_messages ? !newer : !marker_came;
      // Over channels that reorder, a transfer sent before its sender
      // recorded may come after the marker: neither recorded nor of the
      // future, it is lost (the checker's finding), which no reason here
      // states; not asked.
      if (!traits.tags_messages && marker_came && !yes) {
        const NodeId from = bank_.network().channel(d.channel).from;
        auto sender = recorded_at_.find({s, from});
        if (sender == recorded_at_.end() || replay_.Find(d.seq)->sent_at < sender->second) continue;
      }
      Question q = Make(QuestionKind::kDeliveryRecorded, i, to);
      q.snapshot = s;
      q.channel = d.channel;
      q.transfer = d.seq;
      q.yes = yes;
      if (yes == rule) {
        q.why = yes ? WhyCode::kChannelRecording : newer ? WhyCode::kNewerEpoch : WhyCode::kChannelClosed;
        q.epoch = epoch;
      } else if (traits.broken_on_purpose) {
        q.why = yes ? WhyCode::kBrokenRuleExtra : WhyCode::kBrokenRule;
        (yes ? q.extra : q.missing).push_back(d.seq);
      } else {
        continue;  // the engine and the rule disagree with no reason to give
      }
      asked_delivery_step_ = step;
      out_.push_back(std::move(q));
      return;
    }
  }

  const Analysis& a_;
  const engine::Engine& bank_;
  const engine::Replay& replay_;  // the whole run: every flight's end
  const std::vector<StepResult>& steps_;
  std::vector<std::vector<const Flight*>> by_channel_;   // in send order
  std::vector<std::vector<const Flight*>> by_receiver_;  // in send order
  std::map<NodeId, std::size_t> read_at_;
  std::map<NodeId, cutline::Amount> reads_;
  std::map<SnapshotId, std::size_t> first_record_;
  std::map<std::pair<SnapshotId, NodeId>, std::size_t> recorded_at_;
  std::map<std::pair<SnapshotId, ChannelId>, std::size_t> last_marker_;
  std::set<std::pair<SnapshotId, ChannelId>> closed_;
  std::set<std::pair<SnapshotId, ChannelId>> asked_channel_;
  // Per branch, the running snapshots it has recorded, in the order it did.
  std::map<NodeId, std::vector<SnapshotId>> recorded_by_;
  std::size_t asked_delivery_step_ = static_cast<std::size_t>(-1);
  std::vector<Question> out_;
};

}  // namespace

namespace {

// Jobs and locks: the questions are about the stable property. The naive
// detector is asked about at each read that gives it something to declare
// (jobs: the read that completes its table; locks: every read from the
// second on, since a cycle needs two); a snapshot as it completes. What
// each declares, and what was true at a read, the analysis has judged.
class PropertyDeriver {
 public:
  PropertyDeriver(const Analysis& a, const std::vector<StepResult>& steps)
      : a_(a), bank_(a.bank), steps_(steps) {
    for (const SnapshotFacts& s : a.snapshots) {
      if (s.declared) declared_.emplace(s.info->id, &*s.declared);
    }
  }

  std::vector<Question> Run() {
    const auto& events = bank_.history().events();
    std::size_t read = 0;  // into the analysis's judged reads, in history order
    for (std::size_t i = 0; i < events.size(); ++i) {
      // Every read is judged where the application has a property.
      if (std::holds_alternative<history::Read>(events[i]) && read < a_.reads.size()) {
        OnRead(a_.reads[read++]);
      }
      if (const auto* c = std::get_if<history::Completed>(&events[i])) OnCompleted(*c, i);
    }
    return std::move(out_);
  }

 private:
  Question Make(std::size_t i, NodeId branch) const {
    Question q;
    q.kind = QuestionKind::kPropertyDeclared;
    q.at = i;
    q.branch = branch;
    q.step = StepHolding(steps_, i);
    return q;
  }

  void OnRead(const ReadJudgement& r) {
    const bool all = bank_.app().definition().naive_reads_all;
    if (all ? r.branches_read != bank_.branch_count() || asked_full_ : r.branches_read < 2) return;
    asked_full_ = asked_full_ || r.branches_read == bank_.branch_count();
    Question q = Make(r.at, r.node);
    q.verdict = r.declared;
    q.yes = q.verdict.holds;
    q.truth = r.truth;
    q.why = !q.yes ? WhyCode::kNaiveNot : q.truth->holds ? WhyCode::kNaiveRight : WhyCode::kNaiveWrong;
    out_.push_back(std::move(q));
  }

  void OnCompleted(const history::Completed& c, std::size_t i) {
    auto declared = declared_.find(c.snapshot);
    if (declared == declared_.end()) return;
    Question q = Make(i, c.node);
    q.snapshot = c.snapshot;
    q.verdict = *declared->second;
    q.yes = q.verdict.holds;
    q.why = q.yes ? WhyCode::kSnapshotHolds : WhyCode::kSnapshotNot;
    out_.push_back(std::move(q));
  }

  const Analysis& a_;
  const engine::Engine& bank_;
  const std::vector<StepResult>& steps_;
  bool asked_full_ = false;
  std::map<SnapshotId, const apps::Verdict*> declared_;  // of the complete snapshots
  std::vector<Question> out_;
};

}  // namespace

std::vector<Question> DeriveQuestions(const Analysis& a, const std::vector<StepResult>& steps) {
  if (!a.bank.app().conserved()) return PropertyDeriver(a, steps).Run();
  return Deriver(a, steps).Run();
}

}  // namespace cutline::scenario
