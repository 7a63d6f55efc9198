// DeriveQuestions: one walk through the history, asking at each read, record
// and marker-closed channel what a student could have foreseen. A question is
// kept only when its answer agrees with what the bank itself recorded (the
// recorded balance, the channel's recorded transfers), so that a variant whose
// rules differ is never asked about under the wrong rules.
#include "scenario/questions.h"

#include <algorithm>
#include <map>
#include <optional>

#include "base/overloaded.h"

namespace cutline::scenario {

using bank::ChannelId;
using bank::Flight;
using bank::NodeId;
using bank::Seq;

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
  }
  return "?";
}

namespace {

bool DeliveredBefore(const Flight& f, std::size_t i) {
  return f.delivered() && f.delivered_at < i;
}

class Deriver {
 public:
  Deriver(const bank::Bank& bank, const bank::Replay& replay,
          const std::vector<StepResult>& steps)
      : bank_(bank), replay_(replay), steps_(steps), walk_(bank),
        by_channel_(bank.network().channel_count()), by_receiver_(bank.branch_count()) {
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
                     [&](const bank::Read& r) { OnRead(r, i); },
                     [&](const bank::Recorded& r) { OnRecorded(r, i); },
                     [&](const bank::Closed& c) { OnClosed(c); },
                     [&](const bank::Delivered<bank::Marker>& d) {
                       last_marker_[{d.what.snapshot, d.channel}] = i;
                     },
                     [](const auto&) {},
                 },
                 events[i]);
      walk_.Apply(events[i]);
    }
    return std::move(out_);
  }

 private:
  // The step whose events hold event i: the last to begin at or before it
  // (steps are in history order; a step without events holds none).
  std::size_t StepOf(std::size_t i) const {
    auto it = std::upper_bound(steps_.begin(), steps_.end(), i, [](std::size_t e, const StepResult& s) {
      return e < s.history_begin;
    });
    while (it != steps_.begin() && (it - 1)->history_end <= i) --it;
    return it == steps_.begin() ? 0 : static_cast<std::size_t>(it - steps_.begin() - 1);
  }

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
  void OnRead(const bank::Read& r, std::size_t i) {
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
        const bool in_from = f.sent_at < from, in_to = DeliveredBefore(f, to);
        if (in_from && !in_to) q.lost.push_back(f.seq);
        if (!in_from && in_to) q.twice.push_back(f.seq);
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
        if (DeliveredBefore(*f, at) && is_read(From(*f)) && f->sent_at > read_at_[From(*f)]) {
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
  void OnRecorded(const bank::Recorded& r, std::size_t i) {
    first_record_.try_emplace(r.snapshot, i);
    recorded_at_[{r.snapshot, r.node}] = i;
    const std::optional<bank::Amount> recorded = bank_.RecordedBalance(r.node, r.snapshot);
    // The branch's balance as of this event is what a record keeps; where a
    // variant records otherwise, no question.
    if (!recorded || *recorded != walk_.balance(r.node)) return;
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
  void OnClosed(const bank::Closed& c) {
    auto marker = last_marker_.find({c.snapshot, c.channel});
    auto start = first_record_.find(c.snapshot);
    const NodeId to = bank_.network().channel(c.channel).to;
    auto rec = recorded_at_.find({c.snapshot, to});
    if (marker == last_marker_.end() || start == first_record_.end() || rec == recorded_at_.end()) {
      return;
    }
    const std::size_t m = marker->second;
    Question q = Make(QuestionKind::kChannelState, m, to);
    q.step = StepOf(m);
    q.snapshot = c.snapshot;
    q.channel = c.channel;
    std::vector<bank::Amount> amounts;
    bool overtaken = false;
    for (const Flight* fp : by_channel_[c.channel]) {
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
    // Only where the bank recorded exactly these, and where there is
    // something to choose between.
    if (q.choices.empty() || amounts != bank_.RecordedChannel(c.snapshot, c.channel).transfers) return;
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

  const bank::Bank& bank_;
  const bank::Replay& replay_;  // the whole run: every flight's end
  const std::vector<StepResult>& steps_;
  bank::Replay walk_;  // the events before the current one: balances
  std::vector<std::vector<const Flight*>> by_channel_;   // in send order
  std::vector<std::vector<const Flight*>> by_receiver_;  // in send order
  std::map<NodeId, std::size_t> read_at_;
  std::map<NodeId, bank::Amount> reads_;
  std::map<SnapshotId, std::size_t> first_record_;
  std::map<std::pair<SnapshotId, NodeId>, std::size_t> recorded_at_;
  std::map<std::pair<SnapshotId, ChannelId>, std::size_t> last_marker_;
  std::vector<Question> out_;
};

}  // namespace

std::vector<Question> DeriveQuestions(const bank::Bank& bank, const bank::Replay& replay,
                                      const std::vector<StepResult>& steps) {
  return Deriver(bank, replay, steps).Run();
}

}  // namespace cutline::scenario
