// JudgeHistory (stream_judge.h): the simulator's history, vetted as it is
// read (HistoryFeed), as the streaming judge's events, each as the rank that
// did it would log it; and the same walk shown to observers
// (history_observer.h), with the judge or without.
#include "check/history_feed.h"

#include <fmt/format.h>

#include "base/check.h"
#include "base/overloaded.h"
#include "check/findings.h"
#include "check/history_observer.h"
#include "check/stream_judge.h"

namespace cutline::check {

using cutline::Amount;
using sim::ChannelId;
using sim::Seq;
using Kind = StreamEvent::Kind;

HistoryFeed::HistoryFeed(const RunRecord& run, Lang lang, bool parts)
    : run_(run),
      net_(*run.topology),
      lang_(lang),
      parts_(parts),
      sent_on_(net_.channel_count(), 0) {
  for (std::uint32_t r = 0; r < net_.nodes(); ++r) {
    names_.push_back(r < run.names.size() ? run.names[r] : fmt::format("#{}", r));
  }
  for (const SnapshotClaim& c : run.claims) claim_of_.emplace(c.id, &c);  // the first
  for (const history::Event& e : run.events) {
    if (const auto* c = std::get_if<history::Closed>(&e)) closed_.emplace(c->snapshot, c->channel);
  }
  if (run.app.conserved()) money_ = run.initial_balances;
}

std::optional<std::string> HistoryFeed::Start() const {
  if (run_.initial_balances.size() == net_.nodes()) return std::nullopt;
  const Findings& say = FindingsIn(lang_);
  return say.AboutHistory(say.InitialStates(run_.initial_balances.size(), net_.nodes()));
}

std::optional<std::string> HistoryFeed::Vet(std::size_t i) {
  const Findings& say = FindingsIn(lang_);
  const std::optional<std::string> fault = std::visit(
      Overloaded{
          [&](const history::Sent<history::Transfer>& s) { return VetSend(i, s.seq, s.channel, s.what); },
          [&](const history::Sent<history::Marker>& s) { return VetSend(i, s.seq, s.channel, s.what); },
          [&](const history::Delivered<history::Transfer>& d) {
            return VetDelivery(i, d.seq, d.channel, d.what);
          },
          [&](const history::Delivered<history::Marker>& d) {
            return VetDelivery(i, d.seq, d.channel, d.what);
          },
          [&](const history::Closed& c) { return VetChannel(i, c.channel); },
          [&](const history::Overtaken& o) { return VetChannel(i, o.channel); },
          [&](const history::Local& l) -> std::optional<std::string> {
            if (l.node >= net_.nodes()) return say.UnknownNode(i);
            if (!money_.empty()) money_[l.node] = run_.app.AfterLocal(money_[l.node]);
            return std::nullopt;
          },
          [&](const auto& other) -> std::optional<std::string> {
            if (other.node >= net_.nodes()) return say.UnknownNode(i);
            return std::nullopt;
          },
      },
      run_.events[i]);
  if (!fault) return std::nullopt;
  return say.AboutHistory(*fault);
}

std::optional<std::string> HistoryFeed::VetChannel(std::size_t i, ChannelId c) const {
  if (c < net_.channel_count()) return std::nullopt;
  return FindingsIn(lang_).UnknownChannel(i);
}

std::optional<std::string> HistoryFeed::VetSend(std::size_t i, Seq seq, ChannelId c,
                                                const history::Payload& payload) {
  const Findings& say = FindingsIn(lang_);
  if (std::optional<std::string> unknown = VetChannel(i, c)) return unknown;
  if (!sent_.emplace(seq, Sent{c, payload, 0, false}).second) {
    return say.SentTwice(fmt::format("#{}", seq));
  }
  const auto* t = std::get_if<history::Transfer>(&payload);
  Amount* from = money_.empty() ? nullptr : &money_[net_.channel(c).from];
  if (t != nullptr && from != nullptr && __builtin_sub_overflow(*from, t->amount, from)) {
    return say.ReplayOverflows(i);
  }
  return std::nullopt;
}

std::optional<std::string> HistoryFeed::VetDelivery(std::size_t i, Seq seq, ChannelId c,
                                                    const history::Payload& payload) {
  const Findings& say = FindingsIn(lang_);
  if (std::optional<std::string> unknown = VetChannel(i, c)) return unknown;
  auto it = sent_.find(seq);
  if (it == sent_.end()) return say.NeverSent(i, fmt::format("#{}", seq));
  Sent& m = it->second;
  if (m.delivered) return say.DeliveredTwice(fmt::format("#{}", seq));
  if (m.channel != c || m.payload != payload) return say.DeliveredAsOther(i, AsSent(seq));
  m.delivered = true;
  const auto* t = std::get_if<history::Transfer>(&payload);
  Amount* to = money_.empty() ? nullptr : &money_[net_.channel(c).to];
  if (t != nullptr && to != nullptr && __builtin_add_overflow(*to, t->amount, to)) {
    return say.ReplayOverflows(i);
  }
  return std::nullopt;
}

// "message #1 ($10 from P1)": the message as it was sent.
std::string HistoryFeed::AsSent(Seq seq) const {
  const Findings& say = FindingsIn(lang_);
  const Sent& m = sent_.at(seq);
  const std::string from = names_[net_.channel(m.channel).from];
  const std::string msg = say.Message(MessageRef(run_.message_names, seq));
  if (const auto* marker = std::get_if<history::Marker>(&m.payload)) {
    return say.DescribeMarker(msg, marker->snapshot, from);
  }
  const Amount amount = std::get<history::Transfer>(m.payload).amount;
  return say.DescribeTransfer(msg, run_.app.words().message(amount, lang_), from);
}

bool HistoryFeed::Next(std::size_t i, std::uint32_t* at, StreamEvent* out) {
  StreamEvent e;
  e.line = i + 1;
  bool feed = true;
  std::visit(
      Overloaded{
          [&](const history::Sent<history::Transfer>& s) {
            *at = Send(s.seq, s.channel, Kind::kSend, &e);
            e.amount = s.what.amount;
          },
          [&](const history::Sent<history::Marker>& s) {
            *at = Send(s.seq, s.channel, Kind::kSendMarker, &e);
            e.snapshot = s.what.snapshot;
          },
          [&](const history::Delivered<history::Transfer>& d) {
            *at = Receive(d.seq, d.channel, Kind::kReceive, &e);
            e.amount = d.what.amount;
          },
          [&](const history::Delivered<history::Marker>& d) {
            *at = Receive(d.seq, d.channel, Kind::kReceiveMarker, &e);
            e.snapshot = d.what.snapshot;
            // A channel a Closed event closes is not closed by its marker.
            e.keeps_open = closed_.contains({d.what.snapshot, d.channel});
          },
          [&](const history::Recorded& r) { *at = Record(r, &e); },
          [&](const history::Overtaken& o) {
            *at = net_.channel(o.channel).from;
            e.kind = Kind::kOvertaken;
            e.peer = net_.channel(o.channel).to;
            e.n = Number(o.transfer);
            e.overtaker = Number(o.barrier);
          },
          [&](const history::Closed& c) {
            *at = net_.channel(c.channel).to;
            e.kind = Kind::kClose;
            e.peer = net_.channel(c.channel).from;
            e.snapshot = c.snapshot;
          },
          [&](const history::PartDone& p) {
            *at = p.node;
            if (parts_) Part(p, &e);  // else the claim says it
          },
          // The judge counts a completion itself when it judges at the last part.
          [&](const history::Completed& c) {
            *at = c.node;
            feed = !parts_;
          },
          [&](const history::Local& l) {
            *at = l.node;
            e.kind = Kind::kLocal;
            e.unstated = true;  // the history keeps no state to compare
          },
          [&](const history::Read& r) { *at = r.node; },
      },
      run_.events[i]);
  *out = std::move(e);
  return feed;
}

std::vector<StreamEvent> HistoryFeed::Claims() const {
  std::vector<StreamEvent> out;
  for (const SnapshotClaim& c : run_.claims) {
    StreamEvent e;
    e.kind = Kind::kClaim;
    e.snapshot = c.id;
    e.claim = &c;
    out.push_back(std::move(e));
  }
  return out;
}

const SnapshotClaim* HistoryFeed::ClaimOf(SnapshotId id) const {
  auto c = claim_of_.find(id);
  return c == claim_of_.end() ? nullptr : c->second;
}

// The node's claimed state, as its log would say it (0 if none).
Amount HistoryFeed::Claimed(SnapshotId id, sim::NodeId node) const {
  const SnapshotClaim* c = ClaimOf(id);
  return c == nullptr || node >= c->balances.size() ? 0 : c->balances[node].value_or(0);
}

// A message's number on its channel, as a rank's log gives it (0: none in
// flight by that number; the judge then moves nothing).
std::uint64_t HistoryFeed::Number(Seq seq) const {
  auto it = sent_.find(seq);
  return it == sent_.end() || it->second.delivered ? 0 : it->second.n;
}

std::uint32_t HistoryFeed::Send(Seq seq, ChannelId c, Kind kind, StreamEvent* e) {
  e->kind = kind;
  e->peer = net_.channel(c).to;
  e->n = sent_.at(seq).n = ++sent_on_[c];
  return net_.channel(c).from;
}

std::uint32_t HistoryFeed::Receive(Seq seq, ChannelId c, Kind kind, StreamEvent* e) {
  e->kind = kind;
  e->peer = net_.channel(c).from;
  e->n = sent_.at(seq).n;
  return net_.channel(c).to;
}

std::uint32_t HistoryFeed::Record(const history::Recorded& r, StreamEvent* e) const {
  e->kind = Kind::kRecord;
  e->snapshot = r.snapshot;
  e->amount = Claimed(r.snapshot, r.node);
  e->by_marker = r.cause.by_marker();
  e->by_transfer = r.cause.by_transfer();
  e->cause = r.cause.by_message() ? r.cause.message_seq() : 0;
  if (const SnapshotClaim* c = ClaimOf(r.snapshot)) {
    e->after_markers = c->markers_before_record;
    e->no_markers = !c->markers;
    e->epochs = c->epochs;
  }
  return r.node;
}

void HistoryFeed::Part(const history::PartDone& p, StreamEvent* e) const {
  e->kind = Kind::kPart;
  e->snapshot = p.snapshot;
  e->amount = Claimed(p.snapshot, p.node);
  const SnapshotClaim* c = ClaimOf(p.snapshot);
  for (ChannelId ch : net_.Incoming(p.node)) {
    e->channels.emplace_back(net_.channel(ch).from,
                             c == nullptr || ch >= c->channels.size()
                                 ? std::vector<Amount>{}
                                 : c->channels[ch].transfers);
  }
}

namespace {

// The one walk of a history through the feed: each event vetted, shown to
// the observers, then (given a judge) said to the judge as its rank would
// log it. It stops at the history's first fault, which the judge is told.
void Walk(const RunRecord& run, HistoryFeed& feed,
          std::initializer_list<HistoryObserver*> observers, StreamJudge* judge) {
  if (std::optional<std::string> fault = feed.Start()) {
    if (judge != nullptr) judge->HistoryBroken(std::move(*fault));
    return;
  }
  if (judge != nullptr) {
    for (std::uint32_t r = 0; r < run.topology->nodes(); ++r) {
      StreamEvent start;
      start.kind = Kind::kStart;
      start.amount = run.initial_balances[r];
      judge->Apply(r, start);
    }
  }
  for (std::size_t i = 0; i < run.events.size(); ++i) {
    if (std::optional<std::string> fault = feed.Vet(i)) {
      if (judge != nullptr) judge->HistoryBroken(std::move(*fault));
      return;
    }
    for (HistoryObserver* o : observers) o->Saw(i, run.events[i]);
    if (judge == nullptr) continue;
    std::uint32_t at = 0;
    StreamEvent e;
    if (!feed.Next(i, &at, &e)) continue;
    // Vetted: every receipt's send came before it.
    const bool applied = judge->Apply(at, e);
    CUTLINE_CHECK(applied);
  }
}

}  // namespace

StreamResult JudgeHistory(const RunRecord& run, Lang lang, HistoryJudging how,
                          std::initializer_list<HistoryObserver*> observers) {
  CUTLINE_CHECK(run.topology != nullptr);
  const std::uint32_t n = run.topology->nodes();
  std::vector<std::string> names, sources(n, "history");
  for (std::uint32_t r = 0; r < n; ++r) {
    names.push_back(r < run.names.size() ? run.names[r] : fmt::format("#{}", r));
  }
  StreamJudge judge(*run.topology, std::move(names), std::move(sources), run.app, lang);
  if (!run.fifo) judge.ReorderingIsNoFault();
  judge.KeepEveryVerdict();
  judge.NameMessages(run.message_names);
  const bool claims = how == HistoryJudging::kClaims;
  HistoryFeed feed(run, lang, /*parts=*/!claims);
  Walk(run, feed, observers, &judge);
  if (claims) {
    for (const StreamEvent& e : feed.Claims()) judge.Apply(0, e);
  }
  return judge.Finish();
}

void ObserveHistory(const RunRecord& run, std::initializer_list<HistoryObserver*> observers) {
  CUTLINE_CHECK(run.topology != nullptr);
  HistoryFeed feed(run, Lang::kEn, /*parts=*/false);  // its words are never read
  Walk(run, feed, observers, nullptr);
}

}  // namespace cutline::check
