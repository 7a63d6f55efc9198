// Narrator: one sentence per thing that happened, grouped the way a person
// tells it ("P2 receives its first marker: records $60, sends markers...").
// A record caused by a marker is told with that marker's delivery, and a
// record's marker sends with the record: which belongs to which is read from
// the events (the record's cause, the marker's snapshot and sender), never
// from where they sit in the history.
#include "scenario/narrator.h"

#include <algorithm>

#include <fmt/format.h>

#include "scenario/analysis.h"
#include "scenario/format.h"
#include "catalogue/sentences.h"

namespace cutline::scenario {

// The sentences of the catalogue (catalogue/sentences.h).
using catalogue::DeliveryClause;
using catalogue::MarkersClause;
using catalogue::MessageLine;
using catalogue::NaiveLine;
using catalogue::Said;
using catalogue::Say;
using catalogue::SnapshotLine;

// The catalogue's marker words and tales (catalogue/messages.h).
using catalogue::CloseSentence;
using catalogue::FirstMarkerSentence;
using catalogue::LaterMarkerSentence;
using catalogue::MarkerTale;
using catalogue::MarkerWord;

using cutline::Amount;
using sim::NodeId;

struct Narrator::Telling {
  const engine::Engine& bank;
  Lang lang;
  std::vector<std::string> out;
  // The records this command's marker deliveries caused, by marker.
  std::map<sim::Seq, const history::Recorded*> caused;
  // Whom each (snapshot, branch) sent markers to, in sending order.
  std::map<std::pair<SnapshotId, NodeId>, std::vector<std::string>> markers_to;

  // The words of the bank's algorithm (by code; the sentences are the
  // catalogue's), and what it calls its markers, singular and plural.
  const algorithms::Words& words;
  std::string marker, markers;
  // The (snapshot, branch) records of this command: markers sent without
  // one were kept back (broken-late-markers) and are told on their own.
  std::set<std::pair<SnapshotId, NodeId>> recorded_here, late_told;

  std::string name(NodeId n) const { return bank.name(n); }
  const sim::ChannelInfo& channel(sim::ChannelId c) const {
    return bank.network().channel(c);
  }
  // The facts of a sentence, with the algorithm's words for its markers.
  Said Facts() const {
    Said s;
    s.marker = marker;
    s.markers = markers;
    s.money = bank.app().conserved();
    return s;
  }
  // A message on channel c: its sender and receiver.
  Said Between(sim::ChannelId c) const {
    Said s = Facts();
    s.from = name(channel(c).from);
    s.to = name(channel(c).to);
    return s;
  }
  void Say(MessageLine line, const Said& s) { out.push_back(scenario::Say(line, s, lang)); }
  void Say(SnapshotLine line, const Said& s) { out.push_back(scenario::Say(line, s, lang)); }
  void Say(NaiveLine line, const Said& s) { out.push_back(scenario::Say(line, s, lang)); }
  // "sends markers to P2 and P3", or that there is no channel to send on.
  std::string Markers(SnapshotId id, NodeId n) const {
    auto it = markers_to.find({id, n});
    Said s = Facts();
    if ((it == markers_to.end() || it->second.empty()) && bank.HoldsMarkers(n, id)) {
      return scenario::Say(MarkersClause::kKeeps, s, lang);
    }
    if (it == markers_to.end() || it->second.empty()) {
      return scenario::Say(MarkersClause::kNoOutgoing, s, lang);
    }
    s.list = JoinNames(it->second, lang);
    return scenario::Say(MarkersClause::kSends, s, lang);
  }
  Amount RecordedBalance(NodeId n, SnapshotId id) const {
    return bank.RecordedBalance(n, id).value_or(0);
  }
  // What a marker tale of `id` on channel c, at its receiver, is told with.
  MarkerTale Tale(SnapshotId id, sim::ChannelId c) const {
    const sim::ChannelInfo& ch = channel(c);
    MarkerTale tale;
    tale.to = name(ch.to);
    tale.from = name(ch.from);
    tale.channel = ChannelName(bank, c);
    tale.id = id;
    tale.marker = marker;
    return tale;
  }
};

std::vector<std::string> Narrator::Narrate(const engine::Engine& bank,
                                           std::size_t begin, std::size_t end,
                                           Lang lang) {
  if (!replay_) replay_.emplace(bank);
  const auto& events = bank.history().events();
  const algorithms::Words& words = bank.algorithm().words();
  Telling t{bank, lang, {}, {}, {}, words,
            MarkerWord(words.marker, false, lang), MarkerWord(words.marker, true, lang), {}, {}};
  for (std::size_t i = begin; i < end; ++i) {
    if (const auto* r = std::get_if<history::Recorded>(&events[i])) {
      if (r->cause.by_message()) t.caused[r->cause.message_seq()] = r;
      t.recorded_here.insert({r->snapshot, r->node});
    } else if (const auto* s = std::get_if<history::Sent<history::Marker>>(&events[i])) {
      const sim::ChannelInfo& ch = t.channel(s->channel);
      t.markers_to[{s->what.snapshot, ch.from}].push_back(bank.name(ch.to));
    }
  }
  for (std::size_t i = begin; i < end; ++i) {
    replay_->Apply(events[i]);  // the balances now include this event
    std::visit([&](const auto& e) { Tell(t, e); }, events[i]);
  }
  return std::move(t.out);
}

void Narrator::Tell(Telling& t, const history::Sent<history::Transfer>& e) {
  Said s = t.Between(e.channel);
  s.seq = e.seq;
  s.what = Money(e.what.amount);
  const Amount now = replay_->balance(t.channel(e.channel).from);
  if (t.bank.app().conserved()) {
    s.state = Money(now);
    return t.Say(MessageLine::kBankSent, s);
  }
  s.state = StateText(t.bank, now, t.lang);
  std::string_view kind = t.bank.app().MessageKind(e.what.amount);
  t.Say(kind == "job"       ? MessageLine::kJobHanded
        : kind == "request" ? MessageLine::kRequestSent
                            : MessageLine::kGrantSent,
        s);
}

// A marker is told with the record that sent it, except one a branch kept
// back until after a transfer (broken-late-markers): told once per branch.
void Narrator::Tell(Telling& t, const history::Sent<history::Marker>& e) {
  const sim::ChannelInfo& ch = t.channel(e.channel);
  const std::pair key{e.what.snapshot, ch.from};
  if (t.recorded_here.count(key) || !t.late_told.insert(key).second) return;
  auto it = t.markers_to.find(key);
  if (it == t.markers_to.end()) return;
  Said s = t.Facts();
  s.who = t.name(ch.from);
  s.id = e.what.snapshot;
  s.list = JoinNames(it->second, t.lang);
  t.Say(MessageLine::kLateMarkers, s);
}

void Narrator::Tell(Telling& t, const history::Delivered<history::Transfer>& e) {
  Said s = t.Between(e.channel);
  s.seq = e.seq;
  s.what = Money(e.what.amount);
  const Amount now = replay_->balance(t.channel(e.channel).to);
  s.state = Money(now);
  MessageLine line = MessageLine::kBankReceived;
  if (!t.bank.app().conserved()) {
    s.state = StateText(t.bank, now, t.lang);
    std::string_view kind = t.bank.app().MessageKind(e.what.amount);
    line = kind == "job"       ? MessageLine::kJobReceived
           : kind == "request" ? MessageLine::kRequestReceived
                               : MessageLine::kGrantReceived;
  }
  t.out.push_back(Say(line, s, t.lang) + Recording(t, e));
}

// Where a delivered transfer goes for the running snapshots: into the
// channel state of those recording its channel, not into those that closed it.
std::string Narrator::Recording(const Telling& t,
                                const history::Delivered<history::Transfer>& e) {
  const sim::ChannelInfo& ch = t.channel(e.channel);
  const std::string channel = ChannelName(t.bank, e.channel);
  const std::string money = MessageText(t.bank, e.what.amount, t.lang);
  // The host says which snapshots the transfer joined; a snapshot the
  // receiver recorded that it did not join has closed the channel, or
  // (a rule broken on purpose) fails to record it.
  const std::vector<SnapshotId>& joined = t.bank.JoinedBy(e.seq);
  std::vector<std::string> recording, closed, missed;
  for (const auto& [id, node] : recorded_) {
    if (node != ch.to) continue;
    if (std::find(joined.begin(), joined.end(), id) != joined.end()) {
      recording.push_back(std::to_string(id));
    } else if (t.bank.AlgorithmOf(id).traits().broken_on_purpose &&
               !marked_.count({id, e.channel})) {
      // Before the channel's marker: Chandy-Lamport's rule records it.
      missed.push_back(std::to_string(id));
    } else if (closed_.count({id, e.channel})) {
      closed.push_back(std::to_string(id));
    }
  }
  // Each clause names its snapshots; English says "snapshots" for more than one.
  Said said = t.Between(e.channel);
  said.channel = channel;
  said.what = money;
  std::string s;
  auto clause = [&](DeliveryClause c, const std::vector<std::string>& ids) {
    if (ids.empty()) return;
    said.list = JoinNames(ids, t.lang);
    said.count = ids.size();
    s += Say(c, said, t.lang);
  };
  clause(DeliveryClause::kJoins, recording);
  clause(DeliveryClause::kMissed, missed);
  clause(DeliveryClause::kAfter, closed);
  return s;
}

// A marker: the first of its snapshot at the receiver (it caused a record,
// told here) or a later one; the algorithm's words say which tale each is.
void Narrator::Tell(Telling& t, const history::Delivered<history::Marker>& e) {
  const sim::ChannelInfo& ch = t.channel(e.channel);
  SnapshotId id = e.what.snapshot;
  marked_.insert({id, e.channel});
  MarkerTale tale = t.Tale(id, e.channel);
  tale.count = t.bank.MessageTag(e.seq);
  if (t.caused.count(e.seq)) {
    tale.balance = StateText(t.bank, t.RecordedBalance(ch.to, id), t.lang);
    tale.markers = t.Markers(id, ch.to);
    t.out.push_back(FirstMarkerSentence(t.words.first_marker, tale, t.lang));
    return;
  }
  tale.contents = t.bank.RecordedChannel(id, e.channel).transfers;
  tale.listed = MessagesText(t.bank, tale.contents, t.lang);
  t.out.push_back(LaterMarkerSentence(t.words.later_marker, tale, t.lang));
}

// A record caused by a marker was told with the marker; one started by the
// branch is told here.
void Narrator::Tell(Telling& t, const history::Recorded& e) {
  recorded_.insert({e.snapshot, e.node});
  const engine::SnapshotInfo* info = t.bank.FindSnapshot(e.snapshot);
  if (e.cause.by_marker()) return;  // told with the marker
  Said s = t.Facts();
  s.who = t.name(e.node);
  s.id = e.snapshot;
  if (e.cause.by_transfer()) {
    // Lai-Yang: a transfer of a newer epoch made the branch record first.
    s.seq = e.cause.message_seq();
    s.state = StateText(t.bank, t.RecordedBalance(e.node, e.snapshot), t.lang);
    s.more = t.Markers(e.snapshot, e.node);
    return t.Say(SnapshotLine::kEpochRecord, s);
  }
  if (t.bank.AlgorithmOf(e.snapshot).traits().stops_the_world) {
    if (e.node != 0) return;  // one sentence for the whole stop
    s.count = info->stopped_deliveries;
    return t.Say(SnapshotLine::kStopsTheWorld, s);
  }
  bool first = info && !info->initiators.empty() && info->initiators[0] == e.node;
  s.state = StateText(t.bank, t.RecordedBalance(e.node, e.snapshot), t.lang);
  s.more = t.Markers(e.snapshot, e.node);
  t.Say(first ? SnapshotLine::kStarts : SnapshotLine::kJoins, s);
}

// Unaligned barriers: the barrier went ahead of a transfer, which the
// sender records as the channel's state.
void Narrator::Tell(Telling& t, const history::Overtaken& e) {
  const engine::Flight* f = replay_->Find(e.transfer);
  Said s = t.Facts();
  s.seq = e.barrier;
  s.seq2 = e.transfer;
  s.channel = ChannelName(t.bank, e.channel);
  s.what = MessageText(t.bank, f ? f->amount() : 0, t.lang);
  t.Say(MessageLine::kOvertakes, s);
}

void Narrator::Tell(Telling& t, const history::Closed& e) {
  closed_.insert({e.snapshot, e.channel});
  if (t.bank.AlgorithmOf(e.snapshot).traits().broken_on_purpose &&
      !marked_.count({e.snapshot, e.channel})) {
    // Closed by a message before its marker (broken-stop-at-first).
    Said s = t.Between(e.channel);
    s.channel = ChannelName(t.bank, e.channel);
    s.id = e.snapshot;
    return t.Say(SnapshotLine::kStopsAtFirst, s);
  }
  // Told with its marker, unless the snapshot's algorithm says otherwise
  // (Lai-Yang: the control message's count is reached).
  MarkerTale tale = t.Tale(e.snapshot, e.channel);
  tale.contents = t.bank.RecordedChannel(e.snapshot, e.channel).transfers;
  tale.listed = MessagesText(t.bank, tale.contents, t.lang);
  std::string s =
      CloseSentence(t.bank.AlgorithmOf(e.snapshot).words().close, tale, t.lang);
  if (!s.empty()) t.out.push_back(std::move(s));
}

void Narrator::Tell(Telling& t, const history::PartDone& e) {
  // told with the stop
  if (t.bank.AlgorithmOf(e.snapshot).traits().stops_the_world) return;
  Said s = t.Facts();
  s.who = t.name(e.node);
  s.id = e.snapshot;
  const bool alone = t.bank.network().Incoming(e.node).empty();
  t.Say(alone ? SnapshotLine::kPartDoneAlone : SnapshotLine::kPartDone, s);
}

void Narrator::Tell(Telling& t, const history::Local& e) {
  Said s = t.Facts();
  s.who = t.name(e.node);
  s.state = StateText(t.bank, replay_->balance(e.node), t.lang);
  t.Say(MessageLine::kJobFinished, s);
}

void Narrator::Tell(Telling& t, const history::Completed& e) {
  // A complete snapshot records nothing more: forget it, so that a delivery
  // only looks at the snapshots still running.
  std::erase_if(recorded_, [&](const auto& p) { return p.first == e.snapshot; });
  std::erase_if(closed_, [&](const auto& p) { return p.first == e.snapshot; });
  std::erase_if(marked_, [&](const auto& p) { return p.first == e.snapshot; });
  Said s = t.Facts();
  s.id = e.snapshot;
  if (t.bank.app().has_property()) {
    s.state = VerdictText(t.bank, DeclaredOf(t.bank, e.snapshot), t.lang);
    return t.Say(SnapshotLine::kCompleteVerdict, s);
  }
  Amount balances = 0;
  for (NodeId n = 0; n < t.bank.branch_count(); ++n) {
    Amount b = t.RecordedBalance(n, e.snapshot);
    balances += b;
    s.list += fmt::format("{}{} {}", n ? " + " : "", t.name(n), Money(b));
  }
  Amount total = t.bank.SnapshotTotal(e.snapshot);
  s.what = Money(total - balances);
  s.state = Money(total);
  t.Say(SnapshotLine::kCompleteTotal, s);
}

void Narrator::Tell(Telling& t, const history::Read& e) {
  Said s = t.Facts();
  s.who = t.name(e.node);
  reads_[e.node] = e.balance;
  if (!t.bank.app().conserved()) {
    s.state = StateText(t.bank, e.balance, t.lang);
    t.Say(NaiveLine::kCopiesState, s);
    std::vector<std::optional<Amount>> reads(t.bank.branch_count());
    for (const auto& [node, value] : reads_) reads[node] = value;
    apps::Verdict v = t.bank.app().Naive(reads);
    if (v.holds) {
      s.state = VerdictText(t.bank, v, t.lang);
      t.Say(NaiveLine::kDeclares, s);
    }
    return;
  }
  s.state = Money(e.balance);
  t.Say(NaiveLine::kCopiesBalance, s);
  if (reads_.size() != t.bank.branch_count()) return;
  Amount sum = 0;
  for (const auto& [node, value] : reads_) sum += value;
  s.state = Money(sum);
  s.what = Money(t.bank.total());
  t.Say(NaiveLine::kTotal, s);
}

}  // namespace cutline::scenario
