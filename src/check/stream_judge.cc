// The streaming judge (stream_judge.h), the one home of the consistency
// rules: per snapshot still open, what its judgement needs, kept as the
// events come; a snapshot is judged and forgotten once its last part comes
// (or, for a simulated history, once its claim comes after every other
// event). The events come in a causal order
// (a send before its receipt), so the messages are numbered in the order
// their sends come, and a transfer crossing a cut is known as soon as both
// its ends are.
#include "check/stream_judge.h"

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "apps/bank/money.h"
#include "base/check.h"
#include "check/findings.h"
#include "history/crossing.h"
#include "history/history.h"

namespace cutline::check {

std::string MessageRef(const std::vector<std::string>& names, sim::Seq seq) {
  if (seq < names.size() && !names[seq].empty()) return names[seq];
  return fmt::format("#{}", seq);
}

namespace {

using cutline::Amount;
using apps::Money;
using sim::ChannelId;
using sim::Seq;
using Kind = StreamEvent::Kind;

// A message between its send and its receipt.
struct Msg {
  Seq seq = 0;
  std::uint64_t n = 0;
  std::uint64_t index = 0;  // its place among its channel's sends, from 1
  Amount amount = 0;         // a transfer's
  // A marker's snapshot; a transfer's: the snapshot whose unaligned barrier
  // overtook it (0: none). One field: the messages in flight are the bulk
  // of what the judge holds.
  SnapshotId snapshot = 0;
  ChannelId channel = 0;
  bool marker = false;
  SnapshotId overtaken_by() const { return marker ? 0 : snapshot; }
};

// Whether a barrier of snapshot `id` overtook transfer m. 0 means none in
// overtaken_by(), so a log's snapshot 0 (which no run of cutline takes, but
// a log may name) is never one that overtook.
bool Overtaken(const Msg& m, SnapshotId id) { return id != 0 && m.overtaken_by() == id; }

// One rank in one open snapshot.
struct RankCut {
  int records = 0;
  std::optional<Amount> recorded;    // the last record line's balance
  std::optional<Amount> said;        // its part's
  Amount replayed = 0;               // the balance replayed at its (first) record
  std::vector<std::uint64_t> sent_at;  // by peer: sends on the channel to it before the record
  std::vector<Msg> pending;          // received before recording, sent after its sender recorded
  bool part = false;
  std::size_t record_event = 0;      // history index of the record
  std::optional<Seq> bad_cause;      // a cause that is not its last receipt
  bool bad_cause_transfer = false;   // that cause named as a transfer
};

// One channel in one open snapshot.
struct ChannelCut {
  std::vector<Msg> expected;         // transfers across the cut, in delivery order
  bool claimed = false;              // its receiver's part names it
  std::vector<Amount> transfers;     // what that part says
  std::vector<Amount> sent;          // what its sender's part says its markers overtook
  int markers = 0;
  Seq marker_seq = 0;
  bool marker_sent_inside = false;
  bool closed = false;               // its receiver stopped recording it (kClose, or the marker)
  bool marker_delivered = false;     // a marker of the snapshot delivered on it
  std::vector<std::pair<Seq, std::string>> before_marker;  // rule 1
};

struct OpenSnapshot {
  std::vector<RankCut> ranks;
  std::vector<ChannelCut> channels;
  std::vector<Msg> backward;           // confirmed crossings
  std::vector<std::pair<Seq, std::string>> judged;  // extra and missed, by seq
  std::vector<Seq> extra, missed;
  std::uint32_t parts = 0;
  bool no_markers = false;  // stop-the-world: none may go over any channel
  bool epochs = false;      // Lai-Yang: a channel's state is of the older epoch only
  // Transfers a barrier of this snapshot overtook that a later barrier
  // overtook again (Msg keeps only the latest): still in its channel state.
  std::vector<Seq> overtaken_before;
  // What left the total inside this cut (kDrop, kRestart): transfers
  // dropped or lost that were sent before their sender recorded, and the
  // state a crash lost less the state restored, at a node not yet recorded.
  Amount left = 0;
};

}  // namespace

class StreamJudge::Impl {
 public:
  Impl(sim::Topology topology, std::vector<std::string> names, std::vector<std::string> sources,
       apps::App app, Lang lang)
      : n_(topology.nodes()),
        app_(app),
        lang_(lang),
        say_(FindingsIn(lang)),
        topology_(std::move(topology)),
        names_(std::move(names)),
        sources_(std::move(sources)) {
    const std::uint32_t n = n_;
    CUTLINE_CHECK(names_.size() == n && sources_.size() == n);
    const std::size_t channels = topology_.channel_count();
    channel_of_.assign(static_cast<std::size_t>(n) * n, sim::kNoChannel);
    for (std::uint32_t f = 0; f < n; ++f) {
      for (std::uint32_t t = 0; t < n; ++t) {
        if (f != t) channel_of_[f * n + t] = topology_.Find(f, t);
      }
    }
    in_flight_.resize(channels);
    sends_.assign(channels, 0);
    balance_.assign(n, 0);
    initial_.assign(n, 0);
    started_.assign(n, false);
    last_delivered_.assign(n, 0);
    before_delivery_.assign(n, 0);
    last_delivered_marker_.assign(n, std::nullopt);
    last_marker_.assign(n, 0);
    rank_records_.resize(n);
  }

  std::uint32_t nodes() const { return n_; }
  bool HasChannel(std::uint32_t from, std::uint32_t to) const {
    return from < n_ && to < n_ && ChannelOf(from, to) != sim::kNoChannel;
  }

  // False: the receipt's send is not in the events so far (the sender's
  // log ended before it): the receiver's log ends here.
  bool Apply(std::uint32_t r, const StreamEvent& e) {
    if (!ApplyEvent(r, e)) return false;
    // What is held, every so often: cheap next to the events.
    if (++applied_ % 4096 == 0) Measure();
    if (!quiet_.empty() && applied_ % 64 == 0) SetAsideSettled();
    return true;
  }

  // No event will name snapshot `id` again (its records and markers are
  // all fed): once nothing still in flight can change what it holds, it is
  // set aside until its claim, and later events are not weighed against it.
  void NoMoreOf(SnapshotId id) {
    if (!open_.contains(id)) return;
    quiet_.push_back(id);
    SetAsideSettled();
  }

  // A node's events were cut where its sender's ended (a crash).
  void CutShort() { cut_short_ = true; }
  void ReorderingIsNoFault() { fifo_ = false; }
  void KeepEveryVerdict() { every_verdict_ = true; }

  // Node r's events are over: a snapshot it has not finished cannot complete.
  void RankEnded(std::uint32_t r) {
    any_ended_ = true;
    for (auto* held : {&open_, &settled_}) {
      for (auto it = held->begin(); it != held->end();) {
        if (it->second.ranks[r].part) {
          ++it;
          continue;
        }
        Unfinished(it->first, it->second);
        it = held->erase(it);
      }
    }
    rank_records_[r].clear();
  }

  // Sets aside each quiet snapshot (NoMoreOf) that no later event can
  // change: every node recorded it (a receipt or a restart then leaves its
  // cut alone), a marker of it went on every channel and closed it (a send
  // then adds nothing to rule 1, a receipt nothing to its channel states),
  // and no transfer still in flight was sent inside its cut or overtaken by
  // its barrier (each would join, or leave, what it holds). The others are
  // looked at again a few events later.
  void SetAsideSettled() {
    std::erase_if(quiet_, [&](SnapshotId id) {
      auto it = open_.find(id);
      if (it == open_.end()) return true;
      if (!Settled(id, it->second)) return false;
      settled_.insert(open_.extract(it));
      return true;
    });
  }
  bool Settled(SnapshotId id, const OpenSnapshot& s) const {
    for (const RankCut& rc : s.ranks) {
      if (rc.records == 0) return false;
    }
    for (ChannelId c = 0; c < s.channels.size(); ++c) {
      if (s.channels[c].markers == 0 || !s.channels[c].closed) return false;
      for (const Msg& m : in_flight_[c]) {
        if (!m.marker && (!SentOutside(s, m) || Overtaken(s, m, id))) return false;
      }
    }
    return true;
  }

  // A snapshot that will not complete, kept as which nodes did their part,
  // if any node recorded or finished it (a marker alone, late, is not one).
  void Unfinished(SnapshotId id, const OpenSnapshot& s) {
    std::vector<bool> parts(n_, false);
    bool begun = false;
    for (std::uint32_t r = 0; r < n_; ++r) {
      parts[r] = s.ranks[r].part;
      begun |= s.ranks[r].part || s.ranks[r].records > 0;
    }
    if (begun) unfinished_[id] = std::move(parts);
  }

  // Each receipt that overtook messages on its channel: a message ahead of
  // it that came later makes it a FIFO fault; one that never came is lost,
  // named once where it was first overtaken, and causes no fault of its own.
  void NameOvertakings() {
    std::set<Seq> named_lost;
    std::vector<std::vector<std::string>> at(overtakings_.size());
    for (std::size_t i = 0; i < overtakings_.size(); ++i) {
      const Overtaking& o = overtakings_[i];
      const std::deque<Msg>& q = in_flight_[o.channel];
      std::optional<Seq> came;
      for (Seq seq : o.ahead) {
        auto lost = std::find_if(q.begin(), q.end(), [&](const Msg& x) { return x.seq == seq; });
        if (dropped_.contains(seq)) continue;  // dropped on purpose: no fault
        if (lost == q.end()) {
          if (!came) came = seq;
          continue;
        }
        if (!named_lost.insert(seq).second) continue;
        const std::string word =
            lost->marker ? say_.MarkerWord(SnapName(lost->snapshot)) : Word(lost->amount);
        at[i].push_back(
            say_.AboutHistory(say_.NeverReceived(MsgName(seq), word, ChannelName(o.channel))));
      }
      if (came) {
        at[i].push_back(say_.AboutHistory(say_.NotFifo(ChannelName(o.channel), o.message, Ref(*came))));
      }
    }
    std::vector<std::string> history;
    std::size_t next = 0;
    for (std::size_t line = 0; line < history_.size(); ++line) {
      if (next < overtakings_.size() && overtakings_[next].line == line) {
        for (std::string& l : at[next++]) history.push_back(std::move(l));
        continue;
      }
      history.push_back(std::move(history_[line]));
    }
    history_ = std::move(history);
    overtakings_.clear();
  }

  void Finish(StreamResult* out) {
    Measure();
    out->events = events_;
    for (std::uint32_t r = 0; r < n_; ++r) {
      if (!started_[r]) {
        out->silent.push_back(r);
        continue;
      }
      out->total += initial_[r];
    }
    // The claims named twice, the history, the snapshots judged at their
    // last part (by id), then at their claim (in the claims' order).
    NameOvertakings();
    for (const auto& [id, s] : open_) Unfinished(id, s);
    for (const auto& [id, s] : settled_) Unfinished(id, s);
    for (auto& [id, parts] : unfinished_) {
      std::vector<std::uint32_t> without;
      for (std::uint32_t r = 0; r < n_; ++r) {
        if (!parts[r]) without.push_back(r);
      }
      if (!without.empty()) out->unfinished.emplace_back(id, std::move(without));
    }
    std::vector<std::string>& problems = out->report.problems;
    problems = std::move(claimed_twice_);
    for (std::string& l : history_) problems.push_back(std::move(l));
    for (auto& [id, lines] : findings_) {
      for (std::string& l : lines) problems.push_back(std::move(l));
    }
    for (std::string& l : claim_findings_) problems.push_back(std::move(l));
    for (std::string& l : part_findings_) problems.push_back(std::move(l));
    CheckDeclared(out);
    out->report.snapshots_checked = checked_;
    out->report.verdicts = std::move(verdicts_);
    out->peak_state = peak_state_;
    out->peak_open_snapshots = peak_open_;
  }

  void NameMessages(std::vector<std::string> names) {
    name_of_ = [names = std::move(names)](Seq seq) {
      return seq < names.size() ? names[seq] : std::string();
    };
  }
  void NameMessagesBy(std::function<std::string(Seq)> name) { name_of_ = std::move(name); }
  void NameSnapshots(std::vector<std::string> names) { snapshot_names_ = std::move(names); }
  void HistoryBroken(std::string finding) {
    history_.push_back(std::move(finding));
    broken_ = true;
  }

  // Counts what is held (every so often: cheap next to the events).
  void Measure() {
    std::size_t held = open_.size() + settled_.size();
    for (const auto& q : in_flight_) held += q.size();
    for (const auto& m : rank_records_) held += m.size();
    for (const auto* snapshots : {&open_, &settled_}) {
      for (const auto& [id, s] : *snapshots) {
        held += s.backward.size() + s.judged.size();
        for (const RankCut& rc : s.ranks) held += rc.pending.size();
        for (const ChannelCut& c : s.channels) {
          held += c.expected.size() + c.transfers.size() + c.before_marker.size();
        }
      }
    }
    peak_state_ = std::max(peak_state_, held);
    peak_open_ = std::max(peak_open_, open_.size() + settled_.size());
  }

  std::string Where(std::uint32_t r, const StreamEvent& e) const {
    return fmt::format("{}:{}", sources_[r], e.line);
  }

  // Each declared property against the one on the state replayed at its
  // cut; one that held must still hold where the logs end (it is stable: a
  // declaration that work or a grant later undid was made too early).
  void CheckDeclared(StreamResult* out) {
    out->app = std::string(app_.name());
    if (!app_.has_property()) return;
    // Where the logs end is the run's end unless a log was cut short (a
    // crash) or is empty.
    const bool whole = !cut_short_ && std::find(started_.begin(), started_.end(), false) ==
                                          started_.end();
    std::optional<apps::Verdict> at_end;
    if (whole) {
      std::vector<std::vector<Amount>> channels(topology_.channel_count());
      for (ChannelId c = 0; c < channels.size(); ++c) {
        for (const Msg& m : in_flight_[c]) {
          if (!m.marker) channels[c].push_back(m.amount);
        }
      }
      at_end = app_.Evaluate({&topology_, balance_, channels});
    }
    for (const auto& [id, declared] : declared_) {
      ++out->declared;
      auto it = computed_.find(id);
      if (declared.holds && it != computed_.end()) ++out->declared_holding;
      if (it == computed_.end()) {
        // No cut of it in the logs (stop-the-world logs none; a crash
        // loses parts): its verdict cannot be replayed, only its stability.
        ++out->unchecked;
      } else if (std::optional<std::string> wrong = JudgeDeclared(declared, it->second)) {
        out->report.problems.push_back(say_.AboutSnapshot(SnapName(id), *wrong));
      }
      if (declared.holds && at_end && !at_end->holds) {
        const Reasons why = ReasonsOf(*at_end);
        out->report.problems.push_back(
            say_.AboutSnapshot(SnapName(id), say_.DeclaredTooEarly(app_, why.branches, why.channels)));
      }
    }
  }

  // A verdict's reason by name: its branches, and its channels (once per
  // message).
  struct Reasons {
    std::vector<std::string> branches, channels;
  };
  Reasons ReasonsOf(const apps::Verdict& v) const {
    Reasons out;
    for (sim::NodeId b : v.branches) out.branches.push_back(Name(b));
    for (ChannelId c : v.channels) out.channels.push_back(ChannelName(c));
    return out;
  }
  std::string VerdictWords(const apps::Verdict& v) const {
    const Reasons why = ReasonsOf(v);
    return say_.Verdict(app_, v, why.branches, why.channels);
  }

 private:
  bool ApplyEvent(std::uint32_t r, const StreamEvent& e) {
    switch (e.kind) {
      case Kind::kStart:
        initial_[r] = e.amount;
        balance_[r] = e.amount;
        started_[r] = true;
        return true;
      case Kind::kSend:
      case Kind::kSendMarker:
        OnSend(r, e);
        return true;
      case Kind::kReceive:
      case Kind::kReceiveMarker:
        return OnReceive(r, e);
      case Kind::kRecord:
        OnRecord(r, e);
        return true;
      case Kind::kPart:
        OnPart(r, e);
        return true;
      case Kind::kLocal:
        ++events_;
        balance_[r] = app_.AfterLocal(balance_[r]);
        if (!e.unstated && balance_[r] != e.amount) {
          history_.push_back(say_.AboutHistory(
              say_.LocalStateDiffers(Name(r), e.amount, balance_[r], Where(r, e))));
        }
        return true;
      case Kind::kVerdict:
        declared_[e.snapshot] = e.verdict;
        return true;
      case Kind::kClose:
        OnClose(r, e);
        return true;
      case Kind::kOvertaken:
        OnOvertaken(r, e);
        return true;
      case Kind::kDrop:
        OnDrop(r, e);
        return true;
      case Kind::kRestart:
        OnRestart(r, e);
        return true;
      case Kind::kClaim:
        OnClaim(*e.claim);
        return true;
      case Kind::kOther:
        ++events_;
        return true;
    }
    return true;
  }

  std::string Name(std::uint32_t r) const { return names_[r]; }
  std::string SnapName(SnapshotId id) const {
    if (id < snapshot_names_.size() && !snapshot_names_[id].empty()) return snapshot_names_[id];
    return fmt::format("{}", id);
  }
  ChannelId ChannelOf(std::uint32_t from, std::uint32_t to) const {
    return channel_of_[from * n_ + to];
  }
  std::string ChannelName(ChannelId c) const {
    const sim::ChannelInfo& ch = topology_.channel(c);
    return ChannelText(Name(ch.from), Name(ch.to));
  }
  // A message's content in findings: the bank's amount, or the
  // application's kind of message ("job", "grant").
  std::string Word(Amount a) const { return app_.words().message(a, lang_); }
  // A state ("$70", "2 jobs", "3 records"), and a channel's messages
  // ("[$40, $10]", "[job]", "[record, record]").
  std::string State(Amount a) const { return app_.words().state(a, names_, lang_); }
  std::string Words(const std::vector<Amount>& amounts) const {
    std::vector<std::string> words;
    for (Amount a : amounts) words.push_back(Word(a));
    return fmt::format("[{}]", fmt::join(words, ", "));
  }
  // Messages are numbered in the order their sends come: "#7", "message #7";
  // or named as their log named them (NameMessages).
  std::string Ref(Seq seq) const {
    std::string name = name_of_ ? name_of_(seq) : std::string();
    return name.empty() ? MessageRef({}, seq) : name;
  }
  std::string MsgName(Seq seq) const { return say_.Message(Ref(seq)); }
  std::string Describe(const Msg& m) const {
    const std::string from = Name(topology_.channel(m.channel).from);
    return m.marker ? say_.DescribeMarker(MsgName(m.seq), SnapName(m.snapshot), from)
                    : say_.DescribeTransfer(MsgName(m.seq), Word(m.amount), from);
  }
  // "$40 (message #7, N0→N1)".
  std::string TransferName(const Msg& m) const {
    return say_.Transfer(Word(m.amount), MsgName(m.seq), ChannelName(m.channel));
  }

  // A snapshot begun once a node's events had ended: it cannot complete.
  std::vector<bool>& Begun(SnapshotId id) {
    return unfinished_.try_emplace(id, n_, false).first->second;
  }

  // The snapshot's state, made if it may still complete (no log has ended).
  OpenSnapshot* Snapshot(SnapshotId id) {
    auto it = open_.find(id);
    if (it != open_.end()) return &it->second;
    // Named again after NoMoreOf said it would not be: weighed again.
    if (auto aside = settled_.find(id); aside != settled_.end()) {
      return &open_.insert(settled_.extract(aside)).position->second;
    }
    if (any_ended_) return nullptr;
    OpenSnapshot& s = open_[id];
    s.left = left_;
    s.ranks.resize(n_);
    s.channels.resize(topology_.channel_count());
    peak_open_ = std::max(peak_open_, open_.size() + settled_.size());
    return &s;
  }

  // Whether a barrier of snapshot `id` (open as s) overtook transfer m.
  static bool Overtaken(const OpenSnapshot& s, const Msg& m, SnapshotId id) {
    return check::Overtaken(m, id) ||
           (!s.overtaken_before.empty() &&
            std::find(s.overtaken_before.begin(), s.overtaken_before.end(), m.seq) !=
                s.overtaken_before.end());
  }

  // Sent after its sender recorded snapshot s (outside the cut)?
  bool SentOutside(const OpenSnapshot& s, const Msg& m) const {
    const sim::ChannelInfo& ch = topology_.channel(m.channel);
    const RankCut& from = s.ranks[ch.from];
    return from.records > 0 && m.index > from.sent_at[ch.to];
  }

  void OnSend(std::uint32_t r, const StreamEvent& e) {
    ++events_;
    const ChannelId c = ChannelOf(r, e.peer);
    Msg m;
    m.seq = next_seq_++;
    m.channel = c;
    m.n = e.n;
    m.index = ++sends_[c];
    m.marker = e.kind == Kind::kSendMarker;
    if (m.marker) {
      m.snapshot = e.snapshot;
    } else {
      m.amount = e.amount;
      balance_[r] = app_.AfterSend(balance_[r], e.amount, e.peer);
    }
    last_delivered_[r] = 0;
    last_delivered_marker_[r].reset();
    if (m.marker) Snapshot(m.snapshot);  // counts its markers from the first
    for (auto& [id, s] : open_) {
      ChannelCut& ch = s.channels[c];
      if (m.marker && m.snapshot == id) {
        if (++ch.markers == 1) {
          ch.marker_seq = m.seq;
          ch.marker_sent_inside = s.ranks[r].records == 0;
        }
      } else if (ch.markers == 0 && SentOutside(s, m)) {
        ch.before_marker.emplace_back(
            m.seq, say_.SentBeforeMarker(Name(r), Describe(m), ChannelName(c)));
      }
    }
    in_flight_[c].push_back(m);
  }

  bool OnReceive(std::uint32_t r, const StreamEvent& e) {
    const ChannelId c = ChannelOf(e.peer, r);
    std::deque<Msg>& q = in_flight_[c];
    Msg m;
    if (!q.empty() && q.front().n == e.n) {
      m = q.front();
      q.pop_front();
    } else {
      auto it = std::find_if(q.begin(), q.end(), [&](const Msg& x) { return x.n == e.n; });
      // Not sent in the logs read so far: the sender's log ended (or lost
      // the line) before the send.
      if (it == q.end()) return false;
      m = *it;
      if (fifo_) {
        // Named at Finish, where a message ahead that never came is lost
        // (named once), not overtaken: a line holds the finding's place.
        Overtaking o{history_.size(), c, Describe(m), {}};
        for (auto ahead = q.begin(); ahead != it; ++ahead) o.ahead.push_back(ahead->seq);
        overtakings_.push_back(std::move(o));
        history_.emplace_back();
      }
      q.erase(it);
    }
    const bool marker = e.kind == Kind::kReceiveMarker;
    if (marker != m.marker || (marker ? m.snapshot != e.snapshot : m.amount != e.amount)) {
      history_.push_back(say_.AboutHistory(say_.DeliveredAsOther(events_, Describe(m))));
    }
    ++events_;
    before_delivery_[r] = balance_[r];
    if (!m.marker) balance_[r] = app_.AfterDeliver(balance_[r], m.amount);
    last_delivered_[r] = m.seq;
    last_delivered_marker_[r] = m.marker ? std::optional<SnapshotId>(m.snapshot) : std::nullopt;
    if (m.marker) {
      last_marker_[r] = m.seq;
      Snapshot(m.snapshot);
    }
    for (auto& [id, s] : open_) {
      RankCut& to = s.ranks[r];
      const bool outside = SentOutside(s, m);
      // Received inside the cut while r has not recorded (a receipt that
      // caused the record is taken back out of it, TakeCause).
      const history::Crossing crossing = history::CrossingOf(!outside, to.records == 0);
      if (to.records == 0) {
        if (crossing == history::Crossing::kBackward) to.pending.push_back(m);  // if r records later
      } else if (!m.marker) {
        ChannelCut& ch = s.channels[c];
        const bool in_state =
            Overtaken(s, m, id) || (!ch.closed && !(s.epochs && outside));
        if (crossing == history::Crossing::kForward) ch.expected.push_back(m);
        if (in_state && outside) {
          s.extra.push_back(m.seq);
          s.judged.emplace_back(m.seq, say_.CountedTwice(TransferName(m), Name(e.peer)));
        }
        if (!outside && !in_state) {
          s.missed.push_back(m.seq);
          s.judged.emplace_back(m.seq,
                                say_.Missed(TransferName(m), Name(e.peer), Name(r)));
        }
      }
      if (m.marker && m.snapshot == id) {
        s.channels[c].closed |= !e.keeps_open;
        s.channels[c].marker_delivered = true;
      }
    }
    return true;
  }

  // The receiver stopped recording the channel: what arrives on it after is
  // not in its state (a history says so with a Closed event, which an
  // algorithm may place before the marker's receipt).
  void OnClose(std::uint32_t r, const StreamEvent& e) {
    ++events_;
    OpenSnapshot* s = Snapshot(e.snapshot);
    if (s != nullptr) s->channels[ChannelOf(e.peer, r)].closed = true;
  }

  // A message dropped on purpose, or lost by its receiver's crash: it
  // leaves its channel. A transfer's amount leaves the total of every cut
  // it was sent inside (money the program destroyed, not the snapshot's).
  void OnDrop(std::uint32_t r, const StreamEvent& e) {
    ++events_;
    const ChannelId c = e.incoming ? ChannelOf(e.peer, r) : ChannelOf(r, e.peer);
    std::deque<Msg>& q = in_flight_[c];
    auto it = std::find_if(q.begin(), q.end(), [&](const Msg& x) { return x.n == e.n; });
    if (it == q.end()) return;  // the reader's to check: not in flight
    dropped_.insert(it->seq);
    if (!it->marker) {
      for (auto& [id, s] : open_) {
        if (!SentOutside(s, *it)) Leave(&s.left, it->amount);
      }
      Leave(&left_, it->amount);
    }
    q.erase(it);
  }

  // The node crashed and came back with state e.amount: what it held left
  // the total, and what it restored joined it, inside every cut it had not
  // recorded yet.
  void OnRestart(std::uint32_t r, const StreamEvent& e) {
    ++events_;
    Amount change = 0;
    if (__builtin_sub_overflow(balance_[r], e.amount, &change)) change = 0;  // the reader saturates
    for (auto& [id, s] : open_) {
      if (s.ranks[r].records == 0) Leave(&s.left, change);
    }
    Leave(&left_, change);
    balance_[r] = e.amount;
  }
  static void Leave(Amount* left, Amount a) {
    if (__builtin_add_overflow(*left, a, left)) *left = a > 0 ? INT64_MAX : INT64_MIN;
  }

  // An unaligned barrier went to the head of its channel, ahead of a
  // transfer, which is then in its snapshot's channel state.
  void OnOvertaken(std::uint32_t r, const StreamEvent& e) {
    ++events_;
    std::deque<Msg>& q = in_flight_[e.incoming ? ChannelOf(e.peer, r) : ChannelOf(r, e.peer)];
    auto number = [&](std::uint64_t n) {
      return std::find_if(q.begin(), q.end(), [&](const Msg& x) { return x.n == n; });
    };
    auto barrier = number(e.overtaker), transfer = number(e.n);
    if (barrier == q.end() || transfer == q.end()) return;  // not in flight: nothing moves
    if (!transfer->marker) {
      // A snapshot still open keeps what an earlier barrier of its overtook.
      if (transfer->snapshot != 0 && transfer->snapshot != barrier->snapshot) {
        auto earlier = open_.find(transfer->snapshot);
        if (earlier != open_.end()) earlier->second.overtaken_before.push_back(transfer->seq);
      }
      transfer->snapshot = barrier->snapshot;  // overtaken_by()
    }
    if (barrier > transfer) {
      const Msg moved = *barrier;
      q.erase(barrier);
      q.insert(number(e.n), moved);
    }
  }

  void OnRecord(std::uint32_t r, const StreamEvent& e) {
    // Named by its place among the events (a history's: its index in it).
    const std::size_t index = events_;
    ++events_;
    rank_records_[r][e.snapshot] = e.amount;  // for CompareWithRecord
    OpenSnapshot* s = Snapshot(e.snapshot);
    if (s == nullptr) {
      Begun(e.snapshot);
      return;
    }
    RankCut& rc = s->ranks[r];
    rc.recorded = e.amount;
    if (++rc.records > 1) return;
    rc.record_event = index;
    rc.replayed = balance_[r];
    if (e.by_marker || e.by_transfer) TakeCause(r, e, rc);
    s->no_markers |= e.no_markers;
    s->epochs |= e.epochs;
    if (e.after_markers) {
      std::erase_if(rc.pending, [&](const Msg& m) { return m.marker && m.snapshot == e.snapshot; });
    }
    rc.sent_at.assign(n_, 0);
    for (std::uint32_t p = 0; p < n_; ++p) {
      if (HasChannel(r, p)) rc.sent_at[p] = sends_[ChannelOf(r, p)];
    }
    for (Msg& m : rc.pending) s->backward.push_back(m);
    rc.pending.clear();
    rc.pending.shrink_to_fit();
  }

  // A record caused by a message: that receipt, which must be the node's
  // last message event and of the kind the cause says, is outside the cut
  // (it only triggered the record), and a transfer that caused it is
  // applied after it. Else the cause is named as a fault of the history.
  void TakeCause(std::uint32_t r, const StreamEvent& e, RankCut& rc) {
    const Seq named = e.cause != 0 ? e.cause : last_marker_[r];
    const bool kind_ok = e.by_transfer ? !last_delivered_marker_[r].has_value()
                                       : last_delivered_marker_[r] == e.snapshot;
    if (last_delivered_[r] == 0 || last_delivered_[r] != named || !kind_ok) {
      // Named once the snapshot is judged (NoteBadCauses).
      rc.bad_cause = named;
      rc.bad_cause_transfer = e.by_transfer;
      return;
    }
    if (!rc.pending.empty() && rc.pending.back().seq == named) rc.pending.pop_back();
    if (e.by_transfer) rc.replayed = before_delivery_[r];
  }

  // A rank's part against its record line of the same snapshot.
  void CompareWithRecord(std::uint32_t r, const StreamEvent& e) {
    auto rec = rank_records_[r].find(e.snapshot);
    if (rec == rank_records_[r].end()) {
      part_findings_.push_back(
          say_.AboutSnapshot(SnapName(e.snapshot), say_.PartWithoutRecord(Name(r), Where(r, e))));
      return;
    }
    if (rec->second != e.amount) {
      part_findings_.push_back(say_.AboutSnapshot(
          SnapName(e.snapshot), say_.PartDiffersFromRecord(Name(r), State(rec->second), State(e.amount), Where(r, e))));
    }
    rank_records_[r].erase(rec);
  }

  void OnPart(std::uint32_t r, const StreamEvent& e) {
    ++events_;  // PartDone
    CompareWithRecord(r, e);
    OpenSnapshot* s = Snapshot(e.snapshot);
    if (s == nullptr) {
      Begun(e.snapshot)[r] = true;
      return;
    }
    RankCut& rc = s->ranks[r];
    rc.part = true;
    rc.said = e.amount;
    for (const auto& [from, amounts] : e.channels) {
      CUTLINE_CHECK(HasChannel(from, r));  // the reader's to check
      ChannelCut& ch = s->channels[ChannelOf(from, r)];
      ch.claimed = true;
      ch.transfers = amounts;
    }
    for (const auto& [to, amounts] : e.sent) {
      CUTLINE_CHECK(HasChannel(r, to));  // the reader's to check
      s->channels[ChannelOf(r, to)].sent = amounts;
    }
    if (++s->parts == n_) {
      // The sender's overtaken records left after every one its receiver
      // recorded: they end the channel's state.
      for (ChannelCut& ch : s->channels) {
        ch.transfers.insert(ch.transfers.end(), ch.sent.begin(), ch.sent.end());
      }
      ++events_;  // Completed
      Measure();  // the most a snapshot holds is just before it is judged
      std::vector<std::string> lines = Judge(e.snapshot, *s, nullptr);
      if (!lines.empty()) findings_[e.snapshot] = std::move(lines);
      open_.erase(e.snapshot);
    }
  }

  // One complete snapshot under judgement: its findings so far, each said as
  // "snapshot N: ..."; the verdict the checker's tests compare; the
  // transfers a channel's recorded state lacks, which (f) names; and its
  // claim, when one is judged (kClaim), with whether its shape fits
  // the network.
  struct Judgement {
    const SnapshotId id;
    const std::string name;  // as its log wrote it
    OpenSnapshot& s;
    const SnapshotClaim* claim;
    const Findings& say;
    std::vector<std::string> out;
    check::SnapshotVerdict v;
    std::vector<Seq> unrecorded;
    bool shape_ok = true;
    void Say(std::string_view text) { out.push_back(say.AboutSnapshot(name, text)); }
  };

  // The checker's findings on a complete snapshot, in its order. Each step
  // is a function of its own below; (a) to (g) need every rank's record.
  std::vector<std::string> Judge(SnapshotId id, OpenSnapshot& s, const SnapshotClaim* claim) {
    ++checked_;
    Judgement j{id, SnapName(id), s, claim, say_, {}, {}, {}};
    j.v.id = id;
    NoteBadCauses(id, s);
    if (claim != nullptr) JudgeShape(j);
    if (!JudgeRecords(j)) {
      // No cut to judge; a claim's verdict is then not given (a log's is
      // consistent, and kept only when every verdict is).
      if (claim == nullptr && every_verdict_) verdicts_.push_back(std::move(j.v));
      return std::move(j.out);
    }
    JudgeBalances(j);   // (b)
    JudgeCut(j);        // (a)
    AddUnsentInFlight(j);
    JudgeChannels(j);   // (c)
    JudgeMarkers(j);    // (e)
    JudgeTotal(j);      // (d)
    JudgeVerdict(j);    // (f)
    JudgeProperty(j);   // (g)
    if (every_verdict_ || !j.v.consistent()) verdicts_.push_back(std::move(j.v));
    return std::move(j.out);
  }

  // A snapshot's claim (kClaim): judged on what the events left, once.
  void OnClaim(const SnapshotClaim& claim) {
    if (!claimed_.insert(claim.id).second) {
      claimed_twice_.push_back(say_.AboutSnapshot(SnapName(claim.id), say_.ClaimedTwice()));
      return;
    }
    if (auto aside = settled_.find(claim.id); aside != settled_.end()) {
      open_.insert(settled_.extract(aside));
    }
    auto it = open_.find(claim.id);
    if (it == open_.end()) {
      // Nothing of it in the events: no node recorded it.
      it = open_.emplace(claim.id, OpenSnapshot{}).first;
      it->second.ranks.resize(n_);
      it->second.channels.resize(topology_.channel_count());
    }
    if (broken_) {
      NoteBadCauses(claim.id, it->second);  // nothing to judge snapshots by
    } else {
      for (std::string& l : Judge(claim.id, it->second, &claim)) {
        claim_findings_.push_back(std::move(l));
      }
    }
    open_.erase(it);
  }

  // A record naming as its cause a marker that is not its last receipt: a
  // fault in the history, not in the snapshot.
  void NoteBadCauses(SnapshotId id, const OpenSnapshot& s) {
    for (std::uint32_t r = 0; r < n_; ++r) {
      if (s.ranks[r].bad_cause) {
        history_.push_back(say_.AboutHistory(say_.CauseNotLast(
            s.ranks[r].record_event, Name(r), SnapName(id), s.ranks[r].bad_cause_transfer,
            *s.ranks[r].bad_cause)));
      }
    }
  }

  // A claim holds a state per node and a channel state per channel, or its
  // states are not judged.
  void JudgeShape(Judgement& j) {
    const SnapshotClaim& claim = *j.claim;
    if (claim.balances.size() != n_) {
      j.Say(say_.ClaimShapeBalances(claim.balances.size(), n_));
      j.shape_ok = false;
    }
    if (claim.channels.size() != topology_.channel_count()) {
      j.Say(say_.ClaimShapeChannels(claim.channels.size(), topology_.channel_count()));
      j.shape_ok = false;
    }
  }

  // Each rank recorded exactly once, else says so; false if one never
  // recorded, when there is no cut to judge.
  bool JudgeRecords(Judgement& j) {
    const OpenSnapshot& s = j.s;
    bool all_recorded = true;
    for (std::uint32_t r = 0; r < n_; ++r) {
      if (s.ranks[r].records == 0) {
        j.Say(say_.NeverRecorded(Name(r)));
        all_recorded = false;
      } else if (s.ranks[r].records > 1) {
        j.Say(say_.RecordedTimes(Name(r), s.ranks[r].records));
      }
    }
    return all_recorded;
  }

  // The state rank r says it recorded: its claim's, else its record line's
  // (or its part's, if it logged no record).
  std::optional<Amount> Claimed(const Judgement& j, std::uint32_t r) const {
    if (j.claim != nullptr) return j.claim->balances[r];
    const RankCut& rc = j.s.ranks[r];
    return rc.recorded ? rc.recorded : rc.said;
  }
  // The state channel c's receiver says it recorded on it.
  const std::vector<Amount>& ClaimedChannel(const Judgement& j, ChannelId c) const {
    return j.claim != nullptr ? j.claim->channels[c].transfers : j.s.channels[c].transfers;
  }

  // (b) each rank's recorded balance against its balance replayed from the
  // history at its record.
  void JudgeBalances(Judgement& j) {
    if (!j.shape_ok) return;
    for (std::uint32_t r = 0; r < n_; ++r) {
      const std::optional<Amount> claimed = Claimed(j, r);
      if (!claimed) {
        j.Say(say_.NoRecordedBalance(Name(r)));
      } else if (*claimed != j.s.ranks[r].replayed) {
        j.Say(say_.BalanceNotReplayed(Name(r), State(*claimed), State(j.s.ranks[r].replayed)));
      }
    }
  }

  // (a) the cut: a message received before its receiver recorded but sent
  // after its sender did. The judge meets each such message itself, so the
  // vector clocks' other witness (a record depending on an event after
  // another node's record) needs no sentence: such a dependency runs along
  // a chain of messages, whose first one received inside the cut was sent
  // outside it (design.md, "One judge, three doors").
  void JudgeCut(Judgement& j) {
    OpenSnapshot& s = j.s;
    check::SnapshotVerdict& v = j.v;
    std::sort(s.backward.begin(), s.backward.end(),
              [](const Msg& a, const Msg& b) { return a.seq < b.seq; });
    for (const Msg& m : s.backward) {
      const sim::ChannelInfo& ch = topology_.channel(m.channel);
      if (!m.marker) {
        v.backward.push_back(m.seq);
        j.Say(say_.TransferCrossesCut(TransferName(m), Name(ch.to), Name(ch.from)));
      } else {
        j.Say(say_.MarkerCrossesCut(Name(ch.to), Describe(m), Name(ch.from)));
      }
    }
  }

  // Transfers sent inside the cut and not delivered (yet): part of their
  // channel's state, after the delivered ones, and missed.
  void AddUnsentInFlight(Judgement& j) {
    OpenSnapshot& s = j.s;
    for (ChannelId c = 0; c < s.channels.size(); ++c) {
      for (const Msg& m : in_flight_[c]) {
        // A later snapshot's unaligned barrier may have jumped ahead of
        // transfers sent inside this cut: only a transfer sent outside it
        // ends the ones sent inside (transfers keep their order).
        if (m.marker) continue;
        if (SentOutside(s, m)) break;  // and so are the later ones
        s.channels[c].expected.push_back(m);
        if (Overtaken(s, m, j.id)) continue;  // in the channel's state
        const sim::ChannelInfo& ch = topology_.channel(c);
        s.missed.push_back(m.seq);
        s.judged.emplace_back(m.seq, say_.Missed(TransferName(m), Name(ch.from), Name(ch.to)));
      }
    }
  }

  // Whether channel c's recording is closed, as its claim or its receiver's
  // part says; else says how it stands.
  void JudgeClosed(Judgement& j, ChannelId c) {
    if (j.claim == nullptr) {
      if (!j.s.channels[c].claimed) j.Say(say_.ChannelNotClosed(ChannelName(c), false));
      return;
    }
    const ChannelRecording state = j.claim->channels[c].state;
    if (state != ChannelRecording::kClosed) {
      j.Say(say_.ChannelNotClosed(ChannelName(c), state == ChannelRecording::kRecording));
    }
  }

  // (c) each channel's recorded state (in its receiver's part) against the
  // transfers that crossed the cut on it; the ones it lacks are kept for (f).
  void JudgeChannels(Judgement& j) {
    if (!j.shape_ok) return;
    const OpenSnapshot& s = j.s;
    std::vector<Seq>& unrecorded = j.unrecorded;
    for (ChannelId c = 0; c < s.channels.size(); ++c) {
      const ChannelCut& ch = s.channels[c];
      JudgeClosed(j, c);
      const std::vector<Amount>& claimed = ClaimedChannel(j, c);
      std::vector<Amount> amounts;
      for (const Msg& m : ch.expected) amounts.push_back(m.amount);
      if (amounts != claimed) {
        j.Say(say_.ChannelNotAsExpected(ChannelName(c), Words(claimed), Words(amounts)));
        // The claim names amounts, not messages: each expected transfer
        // whose amount the claim does not hold (as a multiset) was lost.
        std::vector<Amount> left = claimed;
        for (const Msg& m : ch.expected) {
          auto it = std::find(left.begin(), left.end(), m.amount);
          if (it != left.end()) {
            left.erase(it);
          } else {
            unrecorded.push_back(m.seq);
          }
        }
      }
    }
  }

  // (e) exactly one marker on each channel, sent after its sender recorded
  // and delivered; then what was sent between a record and its markers
  // (rule 1), in send order; then the count a claim says it sent.
  void JudgeMarkers(Judgement& j) {
    const OpenSnapshot& s = j.s;
    std::vector<std::pair<Seq, std::string>> rule1;
    for (ChannelId c = 0; c < s.channels.size(); ++c) {
      const ChannelCut& ch = s.channels[c];
      if (s.no_markers) {
        // No marker, so no rule 1 either: nothing goes out while the world stops.
        if (ch.markers != 0) {
          j.Say(say_.MarkersInStopTheWorld(static_cast<std::size_t>(ch.markers),
                                           ChannelName(c)));
        }
        continue;
      }
      if (ch.markers != 1) {
        j.Say(say_.MarkerCount(static_cast<std::size_t>(ch.markers), ChannelName(c)));
        continue;
      }
      if (ch.marker_sent_inside) {
        j.Say(say_.MarkerSentInside(Name(topology_.channel(c).from), ChannelName(c),
                                    Ref(ch.marker_seq)));
      }
      if (!ch.marker_delivered) {
        j.Say(say_.MarkerNeverDelivered(ChannelName(c), Ref(ch.marker_seq)));
      }
      for (const auto& b : ch.before_marker) rule1.push_back(b);
    }
    std::sort(rule1.begin(), rule1.end());
    for (auto& [seq, text] : rule1) j.Say(std::move(text));
    if (j.claim == nullptr) return;
    const std::size_t channels = j.claim->markers ? topology_.channel_count() : 0;
    if (j.claim->markers_sent != channels) {
      j.Say(say_.ClaimsMarkersSent(j.claim->markers_sent, topology_.channel_count()));
    }
  }

  // (d) the total: the money conserved at the cut, and the total a claim
  // says; for jobs and locks, the property on the state replayed at the
  // cut instead, kept for CheckDeclared (a log's) or (g) (a claim's).
  void JudgeTotal(Judgement& j) {
    if (!j.shape_ok) return;
    if (app_.has_property()) {
      computed_[j.id] = PropertyAtCut(j.s);
      return;
    }
    Amount bank_total = 0, balances = 0, channels = 0, sum = 0;
    bool overflow = false;
    for (Amount a : initial_) overflow |= __builtin_add_overflow(bank_total, a, &bank_total);
    // What the program dropped, or a crash lost, inside the cut is gone.
    overflow |= __builtin_sub_overflow(bank_total, j.s.left, &bank_total);
    for (std::uint32_t r = 0; r < n_; ++r) {
      const std::optional<Amount> b = Claimed(j, r);
      if (b) overflow |= __builtin_add_overflow(balances, *b, &balances);
    }
    for (ChannelId c = 0; c < j.s.channels.size(); ++c) {
      for (Amount a : ClaimedChannel(j, c)) {
        overflow |= __builtin_add_overflow(channels, a, &channels);
      }
    }
    overflow |= __builtin_add_overflow(balances, channels, &sum);
    if (overflow) {
      j.Say(say_.AmountsOverflow());
      return;
    }
    if (sum != bank_total) {
      j.Say(say_.NotConserved(app_, State(balances), State(channels), State(sum), State(bank_total)));
    }
    if (j.claim != nullptr && j.claim->total && *j.claim->total != sum) {
      j.Say(say_.ClaimsTotal(State(*j.claim->total), State(sum)));
    }
  }

  // The property on the state replayed at the cut: each rank's state at its
  // record, each channel's words sent inside the cut and received outside it.
  apps::Verdict PropertyAtCut(const OpenSnapshot& s) const {
    std::vector<Amount> states;
    for (const RankCut& rc : s.ranks) states.push_back(rc.replayed);
    std::vector<std::vector<Amount>> words(s.channels.size());
    for (ChannelId c = 0; c < s.channels.size(); ++c) {
      for (const Msg& m : s.channels[c].expected) words[c].push_back(m.amount);
    }
    return app_.Evaluate({&topology_, states, words});
  }

  // (f) the verdict: the transfers counted twice or missed, in send order,
  // then the ones missing from a channel's state that were not missed.
  void JudgeVerdict(Judgement& j) {
    OpenSnapshot& s = j.s;
    check::SnapshotVerdict& v = j.v;
    const std::vector<Seq>& unrecorded = j.unrecorded;
    std::sort(s.judged.begin(), s.judged.end());
    for (auto& [seq, text] : s.judged) j.Say(std::move(text));
    v.extra = s.extra;  // in receipt order: send order, unless channels reorder
    std::sort(v.extra.begin(), v.extra.end());
    v.missed = s.missed;
    std::sort(v.missed.begin(), v.missed.end());
    for (Seq q : unrecorded) {
      if (std::find(v.missed.begin(), v.missed.end(), q) == v.missed.end()) {
        v.unrecorded.push_back(q);
      }
    }
    std::sort(v.unrecorded.begin(), v.unrecorded.end());
    for (Seq q : v.unrecorded) {
      for (const ChannelCut& ch : s.channels) {
        for (const Msg& m : ch.expected) {
          if (m.seq == q) {
            j.Say(say_.MissingFromSnapshot(Word(m.amount), MsgName(q), ChannelName(m.channel)));
          }
        }
      }
    }
  }

  // (g) for a claim, judged with it: the property it declares from its
  // records (a log's comes on its own, CheckDeclared).
  void JudgeProperty(Judgement& j) {
    if (j.claim == nullptr || !j.shape_ok || !app_.has_property()) return;
    const apps::Verdict at_cut = computed_.at(j.id);
    const apps::Verdict declared = DeclaredProperty(app_, topology_, *j.claim);
    j.v.property = at_cut;
    j.v.declared = declared;
    if (std::optional<std::string> wrong = JudgeDeclared(declared, at_cut)) j.Say(*wrong);
  }

  // (g) jobs and locks: a declared property is the property of the state
  // replayed at its snapshot's cut (JudgeTotal), reasons and all.
  std::optional<std::string> JudgeDeclared(const apps::Verdict& declared,
                                           const apps::Verdict& at_cut) const {
    if (declared == at_cut) return std::nullopt;
    return say_.DeclaredOtherwise(VerdictWords(declared), VerdictWords(at_cut));
  }

  const std::uint32_t n_;
  const apps::App app_;
  const Lang lang_;
  const Findings& say_;  // every sentence, in lang_
  sim::Topology topology_;
  const std::vector<std::string> names_;    // by node, in findings
  const std::vector<std::string> sources_;  // by node, where its events come from
  // jobs and locks: what rank 0 declared and what the replay finds, by
  // snapshot (a run of these ends at its first holding one: few).
  std::map<SnapshotId, apps::Verdict> declared_, computed_;
  std::vector<ChannelId> channel_of_;
  std::vector<std::deque<Msg>> in_flight_;  // by channel, in send order
  std::vector<std::uint64_t> sends_;        // by channel
  std::vector<Amount> balance_, initial_;
  std::vector<bool> started_;
  std::vector<Seq> last_delivered_;  // 0 after a send
  std::vector<Amount> before_delivery_;  // the state before the last receipt
  std::vector<std::optional<SnapshotId>> last_delivered_marker_;
  std::vector<Seq> last_marker_;
  // By rank: the balance of each record line whose part is not read yet.
  std::vector<std::map<SnapshotId, Amount>> rank_records_;
  std::map<SnapshotId, OpenSnapshot> open_;
  // Open snapshots no later event can change (SetAsideSettled), held for
  // their claims; and the ones NoMoreOf named that may still change.
  std::map<SnapshotId, OpenSnapshot> settled_;
  std::vector<SnapshotId> quiet_;
  bool any_ended_ = false;
  bool cut_short_ = false;
  bool fifo_ = true;  // a receipt out of its channel's order is named
  bool every_verdict_ = false;  // else only the inconsistent ones (a long run has thousands)
  Seq next_seq_ = 1;
  std::size_t events_ = 0;  // as the old history counted them
  int checked_ = 0;
  std::vector<std::string> history_;
  // Receipts that overtook messages still in flight on their channel: named
  // at Finish (NameOvertakings), at `line` of history_.
  struct Overtaking {
    std::size_t line;
    ChannelId channel;
    std::string message;     // the receipt's, as Describe says it
    std::vector<Seq> ahead;  // the messages it overtook
  };
  std::vector<Overtaking> overtakings_;
  // Snapshots that cannot complete any more (a node's events ended without
  // its part) or never did: by id, which nodes did their part.
  std::map<SnapshotId, std::vector<bool>> unfinished_;
  std::map<SnapshotId, std::vector<std::string>> findings_;  // judged snapshots with findings
  std::vector<std::string> part_findings_;
  std::vector<check::SnapshotVerdict> verdicts_;
  // kClaim: the snapshots claimed so far, and the claims' findings (a
  // snapshot claimed twice, then each judged claim's); whether the history
  // broke (HistoryBroken), when no claim is judged.
  std::set<SnapshotId> claimed_;
  std::vector<std::string> claimed_twice_, claim_findings_;
  bool broken_ = false;
  // A message's name by Seq ("" for its number): NameMessages' list, or
  // NameMessagesBy's reader, asked only when a finding names the message.
  std::function<std::string(Seq)> name_of_;
  std::vector<std::string> snapshot_names_;  // by SnapshotId; "" for its number
  // Messages dropped on purpose or lost by a crash (kDrop): no receipt that
  // overtook one is a FIFO fault. What has left the total so far (kDrop,
  // kRestart): a snapshot opened later counts all of it inside its cut.
  std::set<Seq> dropped_;
  Amount left_ = 0;
  std::size_t peak_state_ = 0, peak_open_ = 0;
  std::size_t applied_ = 0;
};

StreamJudge::StreamJudge(std::uint32_t nodes, std::vector<std::string> names,
                         std::vector<std::string> sources, apps::App app, Lang lang)
    : StreamJudge(sim::Topology(nodes, sim::Topology::Complete(nodes)), std::move(names),
                  std::move(sources), app, lang) {}
StreamJudge::StreamJudge(sim::Topology topology, std::vector<std::string> names,
                         std::vector<std::string> sources, apps::App app, Lang lang)
    : impl_(std::make_unique<Impl>(std::move(topology), std::move(names), std::move(sources),
                                   app, lang)) {}
StreamJudge::~StreamJudge() = default;

bool StreamJudge::Apply(std::uint32_t node, const StreamEvent& e) {
  // The peers are the reader's to check (a log names any number); here
  // they index the channels.
  CUTLINE_CHECK(node < impl_->nodes());
  const bool sends = e.kind == Kind::kSend || e.kind == Kind::kSendMarker;
  const bool receives = e.kind == Kind::kReceive || e.kind == Kind::kReceiveMarker ||
                        e.kind == Kind::kClose;
  CUTLINE_CHECK(!sends || impl_->HasChannel(node, e.peer));
  CUTLINE_CHECK(!receives || impl_->HasChannel(e.peer, node));
  return impl_->Apply(node, e);
}
void StreamJudge::CutShort() { impl_->CutShort(); }
void StreamJudge::ReorderingIsNoFault() { impl_->ReorderingIsNoFault(); }
void StreamJudge::KeepEveryVerdict() { impl_->KeepEveryVerdict(); }
void StreamJudge::HistoryBroken(std::string finding) { impl_->HistoryBroken(std::move(finding)); }
void StreamJudge::NameMessages(std::vector<std::string> names) {
  impl_->NameMessages(std::move(names));
}
void StreamJudge::NameMessagesBy(std::function<std::string(sim::Seq)> name) {
  impl_->NameMessagesBy(std::move(name));
}
void StreamJudge::NameSnapshots(std::vector<std::string> names) {
  impl_->NameSnapshots(std::move(names));
}
void StreamJudge::NodeEnded(std::uint32_t node) { impl_->RankEnded(node); }
void StreamJudge::NoMoreOf(SnapshotId id) { impl_->NoMoreOf(id); }
StreamResult StreamJudge::Finish() {
  StreamResult out;
  impl_->Finish(&out);
  return out;
}

}  // namespace cutline::check
