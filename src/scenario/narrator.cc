// Narrator: one sentence per thing that happened, grouped the way a person
// tells it ("P2 receives its first marker: records $60, sends markers...").
// A record caused by a marker is told with that marker's delivery, and a
// record's marker sends with the record: which belongs to which is read from
// the events (the record's cause, the marker's snapshot and sender), never
// from where they sit in the history.
#include "scenario/narrator.h"

#include <algorithm>

#include <fmt/format.h>

#include "check/consistency_checker.h"
#include "scenario/format.h"

namespace cutline::scenario {

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
  bool ja;
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
  // "sends markers to P2 and P3", or that there is no channel to send on.
  std::string Markers(SnapshotId id, NodeId n) const {
    auto it = markers_to.find({id, n});
    if ((it == markers_to.end() || it->second.empty()) && bank.HoldsMarkers(n, id)) {
      return ja ? fmt::format("わざと破った規則のため、次の送金の後まで{}を送らない", marker)
                : fmt::format("keeps its {} until after its next transfer (the rule "
                              "broken on purpose)", markers);
    }
    if (it == markers_to.end() || it->second.empty()) {
      return ja ? fmt::format("{}を送る出力チャネルはない", marker)
                : fmt::format("has no outgoing channel to send a {} on", marker);
    }
    return ja ? fmt::format("{}へ{}を送信", JoinNames(it->second, lang), marker)
              : fmt::format("sends {} to {}", markers, JoinNames(it->second, lang));
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
  Telling t{bank, lang == Lang::kJa, lang, {}, {}, {}, words,
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
  const sim::ChannelInfo& ch = t.channel(e.channel);
  Amount now = replay_->balance(ch.from);
  if (!t.bank.app().conserved()) {
    const std::string from = t.name(ch.from), to = t.name(ch.to);
    std::string_view kind = t.bank.app().MessageKind(e.what.amount);
    if (kind == "job") {
      t.out.push_back(t.ja ? fmt::format("{}が{}へ仕事を渡す（メッセージ#{}）。{}は{}のまま",
                                         from, to, e.seq, from, StateText(t.bank, now, t.lang))
                           : fmt::format("{} hands a job to {} (message #{}); {} still holds {}",
                                         from, to, e.seq, from, StateText(t.bank, now, t.lang)));
    } else if (kind == "request") {
      t.out.push_back(t.ja ? fmt::format("{}が{}へ要求を送り（メッセージ#{}）、{}を待つ", from,
                                         to, e.seq, to)
                           : fmt::format("{} requests {} (message #{}) and waits for it",
                                         from, to, e.seq));
    } else {
      t.out.push_back(t.ja ? fmt::format("{}が{}の要求に許可を返す（メッセージ#{}）", from, to,
                                         e.seq)
                           : fmt::format("{} grants {}'s request (message #{})", from, to,
                                         e.seq));
    }
    return;
  }
  t.out.push_back(
      t.ja ? fmt::format("{}が{}へ{}を送金（メッセージ#{}）。{}の残高は{}",
                         t.name(ch.from), t.name(ch.to), Money(e.what.amount),
                         e.seq, t.name(ch.from), Money(now))
           : fmt::format("{} sends {} to {} (message #{}); {} now has {}",
                         t.name(ch.from), Money(e.what.amount), t.name(ch.to),
                         e.seq, t.name(ch.from), Money(now)));
}

// A marker is told with the record that sent it, except one a branch kept
// back until after a transfer (broken-late-markers): told once per branch.
void Narrator::Tell(Telling& t, const history::Sent<history::Marker>& e) {
  const sim::ChannelInfo& ch = t.channel(e.channel);
  const std::pair key{e.what.snapshot, ch.from};
  if (t.recorded_here.count(key) || !t.late_told.insert(key).second) return;
  auto it = t.markers_to.find(key);
  if (it == t.markers_to.end()) return;
  const std::string to = JoinNames(it->second, t.lang);
  t.out.push_back(
      t.ja ? fmt::format("送金の後で、{}はようやくスナップショット{}の{}を{}へ送信。"
                         "その送金はこれらの{}より先に進み、記録済みの残高にも入っている",
                         t.name(ch.from), e.what.snapshot, t.marker, to, t.marker)
           : fmt::format("only now, after that transfer, does {} send its {} of "
                         "snapshot {} to {}: the transfer travels ahead of them, "
                         "though it is also in {}'s recorded balance",
                         t.name(ch.from), t.markers, e.what.snapshot, to,
                         t.name(ch.from)));
}

void Narrator::Tell(Telling& t, const history::Delivered<history::Transfer>& e) {
  const sim::ChannelInfo& ch = t.channel(e.channel);
  Amount now = replay_->balance(ch.to);
  if (!t.bank.app().conserved()) {
    const std::string from = t.name(ch.from), to = t.name(ch.to);
    std::string_view kind = t.bank.app().MessageKind(e.what.amount);
    std::string s;
    if (kind == "job") {
      s = t.ja ? fmt::format("{}が{}から仕事を受信（#{}）。{}は{}", to, from, e.seq, to,
                             StateText(t.bank, now, t.lang))
               : fmt::format("{} receives a job from {} (#{}); {} now holds {}", to, from,
                             e.seq, to, StateText(t.bank, now, t.lang));
    } else if (kind == "request") {
      s = t.ja ? fmt::format("{}が{}の要求を受信（#{}）。未回答のまま持つ", to, from, e.seq)
               : fmt::format("{} receives {}'s request (#{}) and holds it unanswered", to,
                             from, e.seq);
    } else {
      s = t.ja ? fmt::format("{}が{}の許可を受信（#{}）。{}は再び稼働中", to, from, e.seq, to)
               : fmt::format("{} receives {}'s grant (#{}) and is active again", to, from,
                             e.seq);
    }
    t.out.push_back(s + Recording(t, e));
    return;
  }
  std::string s =
      t.ja ? fmt::format("{}が{}から{}を受信（#{}）。{}の残高は{}", t.name(ch.to),
                         t.name(ch.from), Money(e.what.amount), e.seq,
                         t.name(ch.to), Money(now))
           : fmt::format("{} receives {} from {} (#{}); {} now has {}",
                         t.name(ch.to), Money(e.what.amount), t.name(ch.from),
                         e.seq, t.name(ch.to), Money(now));
  t.out.push_back(s + Recording(t, e));
}

// Where a delivered transfer goes for the running snapshots: into the
// channel state of those recording its channel, not into those that closed it.
std::string Narrator::Recording(const Telling& t,
                                const history::Delivered<history::Transfer>& e) {
  const sim::ChannelInfo& ch = t.channel(e.channel);
  std::string channel = ChannelName(t.bank, e.channel);
  std::string money = MessageText(t.bank, e.what.amount, t.lang);
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
  std::string s;
  if (!recording.empty()) {
    s += t.ja ? fmt::format("。{}は{}を記録中なので、{}はスナップショット{}の"
                            "チャネル状態に入る",
                            t.name(ch.to), channel, money,
                            JoinNames(recording, t.lang))
              : fmt::format("; {} is recording {}, so the {} goes into that "
                            "channel's state in snapshot{} {}",
                            t.name(ch.to), channel, money,
                            recording.size() > 1 ? "s" : "",
                            JoinNames(recording, t.lang));
  }
  if (!missed.empty()) {
    s += t.ja ? fmt::format("。{}のマーカーはまだ届いていないが、わざと破った規則のため"
                            "{}はスナップショット{}で記録されていないので、{}はそこから漏れる",
                            t.name(ch.from), channel, JoinNames(missed, t.lang), money)
              : fmt::format("; {}'s {} has not come yet, but by the rule broken "
                            "on purpose {} is not being recorded for snapshot{} {}, "
                            "so the {} is missing from it",
                            t.name(ch.from), t.marker, channel,
                            missed.size() > 1 ? "s" : "", JoinNames(missed, t.lang),
                            money);
  }
  if (!closed.empty()) {
    s += t.ja ? fmt::format("。{}はスナップショット{}で確定済みなので、{}は"
                            "そこに入らない（未来に属する）",
                            channel, JoinNames(closed, t.lang), money)
              : fmt::format("; {} is already closed for snapshot{} {}, so the "
                            "{} is not in it: it belongs to the future",
                            channel, closed.size() > 1 ? "s" : "",
                            JoinNames(closed, t.lang), money);
  }
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
  if (e.cause.by_transfer()) {
    // Lai-Yang: a transfer of a newer epoch made the branch record first.
    const sim::Seq seq = e.cause.message_seq();
    std::string balance = StateText(t.bank, t.RecordedBalance(e.node, e.snapshot), t.lang);
    t.out.push_back(
        t.ja ? fmt::format("メッセージ#{}はエポック{}なので、{}は適用する前に"
                           "スナップショット{}の{}を記録し、{}",
                           seq, e.snapshot, t.name(e.node), e.snapshot,
                           balance, t.Markers(e.snapshot, e.node))
             : fmt::format("message #{} carries epoch {}, so {} records {} for "
                           "snapshot {} before applying it, and {}",
                           seq, e.snapshot, t.name(e.node), balance,
                           e.snapshot, t.Markers(e.snapshot, e.node)));
    return;
  }
  if (t.bank.AlgorithmOf(e.snapshot).traits().stops_the_world) {
    if (e.node != 0) return;  // one sentence for the whole stop
    const bool money = t.bank.app().conserved();
    t.out.push_back(
        t.ja ? fmt::format("世界を止める: 全支店が{}を止め、{}件の配送を待ってから"
                           "{}をスナップショット{}として読む",
                           money ? "送金" : "送信", info->stopped_deliveries,
                           money ? "全残高" : "全支店の状態", e.snapshot)
             : fmt::format("Stop the world: every branch stops sending; after "
                           "{} deliveries every {} is read as snapshot {}",
                           info->stopped_deliveries, money ? "balance" : "state",
                           e.snapshot));
    return;
  }
  bool first = info && !info->initiators.empty() && info->initiators[0] == e.node;
  std::string balance = StateText(t.bank, t.RecordedBalance(e.node, e.snapshot), t.lang);
  std::string markers = t.Markers(e.snapshot, e.node);
  t.out.push_back(
      first ? (t.ja ? fmt::format("{}がスナップショット{}を開始: {}を記録し、{}",
                                  t.name(e.node), e.snapshot, balance, markers)
                    : fmt::format("{} starts snapshot {}: records {} and {}",
                                  t.name(e.node), e.snapshot, balance, markers))
            : (t.ja ? fmt::format("{}が別の開始者としてスナップショット{}に参加: "
                                  "{}を記録し、{}",
                                  t.name(e.node), e.snapshot, balance, markers)
                    : fmt::format("{} joins snapshot {} as another initiator: "
                                  "records {} and {}",
                                  t.name(e.node), e.snapshot, balance, markers)));
}

// Unaligned barriers: the barrier went ahead of a transfer, which the
// sender records as the channel's state.
void Narrator::Tell(Telling& t, const history::Overtaken& e) {
  const engine::Flight* f = replay_->Find(e.transfer);
  std::string channel = ChannelName(t.bank, e.channel);
  std::string money = MessageText(t.bank, f ? f->amount() : 0, t.lang);
  t.out.push_back(
      t.ja ? fmt::format("バリア#{}が{}で{}（メッセージ#{}）を追い越す: {}は"
                         "チャネル状態として記録",
                         e.barrier, channel, money, e.transfer, money)
           : fmt::format("barrier #{} overtakes the {} (message #{}) on {}: "
                         "the {} is recorded as that channel's state",
                         e.barrier, money, e.transfer, channel, money));
}

void Narrator::Tell(Telling& t, const history::Closed& e) {
  closed_.insert({e.snapshot, e.channel});
  if (t.bank.AlgorithmOf(e.snapshot).traits().broken_on_purpose &&
      !marked_.count({e.snapshot, e.channel})) {
    // Closed by a message before its marker (broken-stop-at-first).
    const sim::ChannelInfo& ch = t.channel(e.channel);
    const std::string channel = ChannelName(t.bank, e.channel);
    t.out.push_back(
        t.ja ? fmt::format("わざと破った規則のため、{}は{}のマーカーを待たずに、この最初の"
                           "メッセージでスナップショット{}の{}の記録を止める",
                           t.name(ch.to), t.name(ch.from), e.snapshot, channel)
             : fmt::format("by the rule broken on purpose, {} stops recording {} for "
                           "snapshot {} at this first message, without waiting for "
                           "{}'s {}",
                           t.name(ch.to), channel, e.snapshot, t.name(ch.from), t.marker));
    return;
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
  bool alone = t.bank.network().Incoming(e.node).empty();
  if (t.ja) {
    t.out.push_back(fmt::format(
        "{}のスナップショット{}の担当分が完了（{}）", t.name(e.node), e.snapshot,
        alone ? "入力チャネルがないので記録だけで終わる"
              : fmt::format("すべての入力チャネルから{}を受信", t.marker)));
  } else {
    t.out.push_back(fmt::format(
        "{}'s own part of snapshot {} is done ({})", t.name(e.node), e.snapshot,
        alone ? "it has no incoming channel to wait for"
              : fmt::format("a {} came on every incoming channel", t.marker)));
  }
}

void Narrator::Tell(Telling& t, const history::Local& e) {
  std::string state = StateText(t.bank, replay_->balance(e.node), t.lang);
  t.out.push_back(t.ja ? fmt::format("{}が仕事を1件終える。{}は{}", t.name(e.node),
                                     t.name(e.node), state)
                       : fmt::format("{} finishes a job; {} now holds {}", t.name(e.node),
                                     t.name(e.node), state));
}

void Narrator::Tell(Telling& t, const history::Completed& e) {
  // A complete snapshot records nothing more: forget it, so that a delivery
  // only looks at the snapshots still running.
  std::erase_if(recorded_, [&](const auto& p) { return p.first == e.snapshot; });
  std::erase_if(closed_, [&](const auto& p) { return p.first == e.snapshot; });
  std::erase_if(marked_, [&](const auto& p) { return p.first == e.snapshot; });
  if (t.bank.app().has_property()) {
    check::SnapshotClaim claim;
    for (NodeId n = 0; n < t.bank.branch_count(); ++n) {
      claim.balances.push_back(t.bank.RecordedBalance(n, e.snapshot));
    }
    for (sim::ChannelId c = 0; c < t.bank.network().channel_count(); ++c) {
      claim.channels.push_back(t.bank.RecordedChannel(e.snapshot, c));
    }
    std::string verdict = VerdictText(
        t.bank, check::DeclaredProperty(t.bank.app(), t.bank.network(), claim), t.lang);
    t.out.push_back(t.ja ? fmt::format("スナップショット{}が完了: {}", e.snapshot, verdict)
                         : fmt::format("Snapshot {} is complete: {}", e.snapshot, verdict));
    return;
  }
  std::string sum;
  Amount balances = 0;
  for (NodeId n = 0; n < t.bank.branch_count(); ++n) {
    Amount b = t.RecordedBalance(n, e.snapshot);
    balances += b;
    sum += fmt::format("{}{} {}", n ? " + " : "", t.name(n), Money(b));
  }
  Amount total = t.bank.SnapshotTotal(e.snapshot);
  Amount in_channels = total - balances;
  t.out.push_back(
      t.ja ? fmt::format("スナップショット{}が完了: {} + チャネル内 {} = {}",
                         e.snapshot, sum, Money(in_channels), Money(total))
           : fmt::format("Snapshot {} is complete: {} + {} in channels = {}",
                         e.snapshot, sum, Money(in_channels), Money(total)));
}

void Narrator::Tell(Telling& t, const history::Read& e) {
  if (!t.bank.app().conserved()) {
    std::string state = StateText(t.bank, e.balance, t.lang);
    t.out.push_back(t.ja ? fmt::format("素朴な検出: {}の状態（{}）を写す", t.name(e.node), state)
                         : fmt::format("The naive detector copies {}'s state: {}",
                                       t.name(e.node), state));
    reads_[e.node] = e.balance;
    std::vector<std::optional<Amount>> reads(t.bank.branch_count());
    for (const auto& [node, value] : reads_) reads[node] = value;
    apps::Verdict v = t.bank.app().Naive(reads);
    if (v.holds) {
      std::string verdict = VerdictText(t.bank, v, t.lang);
      t.out.push_back(t.ja ? fmt::format("素朴な検出の判定: {}", verdict)
                           : fmt::format("The naive detector declares: {}", verdict));
    }
    return;
  }
  t.out.push_back(t.ja ? fmt::format("素朴な読み取り: {}の残高{}を写す",
                                     t.name(e.node), Money(e.balance))
                       : fmt::format("The naive reader copies {}'s balance: {}",
                                     t.name(e.node), Money(e.balance)));
  reads_[e.node] = e.balance;
  if (reads_.size() != t.bank.branch_count()) return;
  Amount sum = 0;
  for (const auto& [node, value] : reads_) sum += value;
  t.out.push_back(t.ja ? fmt::format("素朴な合計: {}（銀行の総額は{}）",
                                     Money(sum), Money(t.bank.total()))
                       : fmt::format("Naive total: {} (the bank holds {})",
                                     Money(sum), Money(t.bank.total())));
}

}  // namespace cutline::scenario
