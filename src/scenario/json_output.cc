// JSON output: key names and order are a contract (tools outside read them),
// so every object is built in the order docs/scenario-language.md gives.
#include "scenario/json_output.h"

#include "engine/cuts.h"
#include "check/cost.h"
#include "base/check.h"
#include "base/overloaded.h"
#include "scenario/format.h"
#include "scenario/questions.h"

#include <map>
#include <set>

namespace cutline::scenario {

using sim::NodeId;
using json = Json;

std::string Dump(const Json& j, int indent) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

json StateValue(const engine::Engine& bank, cutline::Amount state) {
  return apps::StateJson(bank.app(), state, bank.names());
}

namespace {

json MessageJson(const engine::Engine& bank, const engine::CrossingMessage& m) {
  json j{{"seq", m.seq},
         {"from", bank.name(m.from)},
         {"to", bank.name(m.to)},
         {"kind", m.is_transfer() ? "transfer" : "marker"},
         {"amount", m.amount()}};
  if (!bank.app().conserved()) {
    j.erase("amount");
    if (m.is_transfer()) j["kind"] = bank.app().MessageKind(m.amount());
  }
  return j;
}

json BranchJson(const engine::Engine& bank, NodeId n, cutline::Amount state) {
  return json{{"name", bank.name(n)},
              {std::string(bank.app().definition().state_key), StateValue(bank, state)}};
}

// The naive reader's table, in the order branches were first read.
json ReadsJson(const engine::Engine& bank) {
  json reads = json::array();
  for (const engine::NaiveRead& r : bank.naive_reads()) {
    reads.push_back(BranchJson(bank, r.branch, r.balance));
  }
  return reads;
}

}  // namespace

json PropertyJson(const engine::Engine& bank, const apps::Verdict& v) {
  const auto& net = bank.network();
  std::vector<std::string> branches;
  for (NodeId n : v.branches) branches.emplace_back(bank.name(n));
  std::vector<std::pair<std::string, std::string>> channels;
  for (sim::ChannelId c : v.channels) {
    channels.emplace_back(bank.name(net.channel(c).from), bank.name(net.channel(c).to));
  }
  return apps::VerdictJson(bank.app(), v.holds, branches, channels);
}

namespace {

// The naive detector's verdict, and whether the history shows it wrong.
json NaivePropertyJson(const Analysis& a) {
  const engine::Engine& bank = a.bank;
  CUTLINE_CHECK(a.naive.has_value());  // Analyze judges it for every property
  const check::NaiveJudgement& n = *a.naive;
  json j = PropertyJson(bank, n.declared);
  j[apps::NaiveWrongKey(bank.app())] = n.wrong();
  // What was true when it last read: the page says why a wrong verdict is.
  if (n.truth) j["truth"] = PropertyJson(bank, *n.truth);
  return j;
}

}  // namespace

// What a snapshot cost beside the least it could (check/cost.h).
json CostJson(const check::SnapshotCost& c) {
  json chain = nullptr;
  if (c.longest_chain) {
    chain = {{"longest", *c.longest_chain},
             {"least", c.least_chain},
             {"eccentricity", c.eccentricity}};
  }
  return json{{"control", {{"sent", c.control_sent}, {"least", c.control_least}}},
              {"chain", chain},
              {"recorded", {{"transfers", c.recorded_transfers},
                            {"amount", c.recorded_amount}}},
              {"held_back", c.held_back},
              {"carried_twice", c.carried_twice}};
}

json StateJson(const engine::Engine& bank) { return StateJson(Analyze(bank)); }

namespace {

// The verdict's transfers, as the spec's items.
json TransfersJson(const engine::Engine& bank, const engine::Replay& replay,
                   const std::vector<sim::Seq>& seqs) {
  json arr = json::array();
  for (sim::Seq seq : seqs) {
    const engine::Flight* f = replay.Find(seq);
    const auto& ch = bank.network().channel(f->channel);
    json item{{"seq", seq}, {"from", bank.name(ch.from)}, {"to", bank.name(ch.to)}};
    if (bank.app().conserved()) {
      item["amount"] = f->amount();
    } else {
      item["kind"] = bank.app().MessageKind(f->amount());
    }
    arr.push_back(item);
  }
  return arr;
}

}  // namespace

namespace {

// A waiting message as the page draws it. Where the algorithm tags its
// messages (Lai-Yang), a transfer shows its epoch and a marker is a control
// message with its count.
json QueuedJson(const engine::Engine& bank, const engine::Network::Msg& m, bool tags) {
  if (const auto* t = std::get_if<history::Transfer>(&m.payload)) {
    json entry = {{"kind", "transfer"}, {"amount", t->amount}, {"seq", m.seq}};
    if (!bank.app().conserved()) {
      entry = {{"kind", bank.app().MessageKind(t->amount)}, {"seq", m.seq}};
    }
    if (tags) entry["epoch"] = bank.MessageTag(m.seq);
    return entry;
  }
  if (tags) {
    return {{"kind", "control"},
            {"snapshot", std::get<history::Marker>(m.payload).snapshot},
            {"count", bank.MessageTag(m.seq)},
            {"seq", m.seq}};
  }
  return {{"kind", "marker"},
          {"snapshot", std::get<history::Marker>(m.payload).snapshot},
          {"seq", m.seq}};
}

// Every channel with what waits in it, in order.
json ChannelsJson(const engine::Engine& bank) {
  const auto& net = bank.network();
  const bool tags = bank.algorithm().traits().tags_messages;
  json channels = json::array();
  for (sim::ChannelId c = 0; c < net.channel_count(); ++c) {
    const auto& ch = net.channel(c);
    json queue = json::array();
    net.ForEachQueued(c, [&](const engine::Network::Msg& m) {
      queue.push_back(QueuedJson(bank, m, tags));
    });
    channels.push_back(
        {{"from", bank.name(ch.from)}, {"to", bank.name(ch.to)}, {"queue", queue}});
  }
  return channels;
}

// What a snapshot recorded of each channel.
json SnapshotChannelsJson(const engine::Engine& bank, const SnapshotFacts& s) {
  const auto& net = bank.network();
  const bool overtaken = bank.AlgorithmOf(s.info->id).traits().sender_records_overtaken;
  json channels = json::array();
  for (sim::ChannelId c = 0; c < net.channel_count(); ++c) {
    const auto& ch = net.channel(c);
    const history::ChannelRecord& r = s.channels[c];
    json channel = {{"from", bank.name(ch.from)},
                    {"to", bank.name(ch.to)},
                    {"state", history::ChannelRecordingName(r.state)},
                    {"transfers", r.transfers}};
    if (!bank.app().conserved()) {
      json kinds = json::array();
      for (cutline::Amount w : r.transfers) kinds.push_back(bank.app().MessageKind(w));
      channel.erase("transfers");
      channel["messages"] = kinds;
    }
    if (overtaken) channel["overtaken"] = r.overtaken;
    channels.push_back(channel);
  }
  return channels;
}

// The checker's verdict on a complete snapshot, or for a running one the
// messages crossing its cut so far.
void AddVerdict(const Analysis& a, const SnapshotFacts& s, json* snapshot) {
  const engine::Engine& bank = a.bank;
  if (const check::SnapshotVerdict* verdict = s.verdict) {
    (*snapshot)["consistent"] = verdict->consistent();
    (*snapshot)["backward"] = TransfersJson(bank, a.replay, verdict->backward);
    (*snapshot)["extra"] = TransfersJson(bank, a.replay, verdict->extra);
    (*snapshot)["missed"] = TransfersJson(bank, a.replay, verdict->missed);
    (*snapshot)["unrecorded"] = TransfersJson(bank, a.replay, verdict->unrecorded);
    return;
  }
  json backward = json::array();
  for (const auto& m : s.backward) backward.push_back(MessageJson(bank, m));
  (*snapshot)["backward"] = backward;
}

// One snapshot: its records, parts, channels and, given a history, its
// verdict and cost.
json SnapshotJson(const Analysis& a, const SnapshotFacts& f) {
  const engine::Engine& bank = a.bank;
  const engine::SnapshotInfo& s = *f.info;
  json initiators = json::array();
  for (NodeId n : s.initiators) initiators.push_back(bank.name(n));
  json recorded = json::array();
  json parts_done = json::array();
  for (NodeId n = 0; n < bank.branch_count(); ++n) {
    if (f.recorded[n]) recorded.push_back(BranchJson(bank, n, *f.recorded[n]));
    if (f.parts_done[n]) parts_done.push_back(bank.name(n));
  }
  json snapshot = {{"id", s.id},
                   {"initiators", initiators},
                   {"complete", s.complete},
                   {"markers_sent", s.markers_sent},
                   {"recorded", recorded},
                   {"channels", SnapshotChannelsJson(bank, f)}};
  if (f.total && bank.app().conserved()) snapshot["total"] = *f.total;
  if (f.declared) snapshot["property"] = PropertyJson(bank, *f.declared);
  snapshot["parts_done"] = parts_done;
  snapshot["markers_expected"] = bank.network().channel_count();
  snapshot["algorithm"] = bank.AlgorithmOf(s.id).name();
  if (a.has_history) AddVerdict(a, f, &snapshot);
  if (s.stop_the_world) snapshot["stopped_deliveries"] = s.stopped_deliveries;
  if (f.cost) snapshot["cost"] = CostJson(*f.cost);
  return snapshot;
}

// Every snapshot, with the checker's verdicts and the costs when the
// history is replayed.
json SnapshotsJson(const Analysis& a) {
  json snapshots = json::array();
  for (const SnapshotFacts& f : a.snapshots) snapshots.push_back(SnapshotJson(a, f));
  return snapshots;
}

// The naive reader's reads and what they add up to (or declare), and the
// run's settings.
void AddNaiveAndSettings(const Analysis& a, json* out) {
  const engine::Engine& bank = a.bank;
  if (bank.app().conserved()) {
    cutline::Amount naive_total = 0;
    for (const engine::NaiveRead& r : bank.naive_reads()) naive_total += r.balance;
    (*out)["naive"] = {{"reads", ReadsJson(bank)}, {"total", naive_total}};
    (*out)["in_flight"] = bank.in_flight_amount();
  } else {
    (*out)["naive"] = {{"reads", ReadsJson(bank)}, {"property", NaivePropertyJson(a)}};
    // The property of the live state, as someone who sees everything at once.
    CUTLINE_CHECK(a.now.has_value());  // Analyze evaluates every property
    (*out)["property"] = PropertyJson(bank, *a.now);
  }
  const auto& config = bank.config();
  (*out)["capacity"] =
      config.capacity_transfers == 0 ? json(nullptr) : json(config.capacity_transfers);
  (*out)["snapshots_mode"] = config.one_snapshot_at_a_time ? "one" : "many";
  const engine::SnapshotInfo* running = bank.Running();
  (*out)["running"] = running ? json(running->id) : json(nullptr);
  (*out)["fifo"] = config.fifo;
  (*out)["algorithm"] = config.algorithm.name();
  (*out)["app"] = bank.app().name();
}

}  // namespace

json StateJson(const Analysis& a) {
  const engine::Engine& bank = a.bank;
  json out = json::object();
  json branches = json::array();
  for (NodeId n = 0; n < bank.branch_count(); ++n) {
    branches.push_back(BranchJson(bank, n, bank.state(n)));
  }
  out["branches"] = branches;
  out["channels"] = ChannelsJson(bank);
  if (bank.app().conserved()) out["total"] = bank.total();
  out["snapshots"] = SnapshotsJson(a);
  AddNaiveAndSettings(a, &out);
  return out;
}

json NaiveJson(const Analysis& analysis) {
  const engine::Engine& bank = analysis.bank;
  if (!bank.app().conserved()) {
    return json{{"reads", ReadsJson(bank)}, {"property", NaivePropertyJson(analysis)}};
  }
  CUTLINE_CHECK(analysis.naive_reads.has_value());  // REQUIRES: a history
  const engine::NaiveAnalysis& a = *analysis.naive_reads;
  auto list = [&](const std::vector<engine::CrossingMessage>& ms) {
    json arr = json::array();
    for (const auto& m : ms) arr.push_back(MessageJson(bank, m));
    return arr;
  };
  return json{{"reads", ReadsJson(bank)},
              {"total", a.total},
              {"all_read", a.all_read},
              {"bank_total", bank.total()},
              {"lost", list(a.lost)},
              {"counted_twice", list(a.counted_twice)},
              {"consistent", a.consistent()},
              {"backward", list(a.backward)}};
}

namespace {

// The keys of one event after "i", "step" and "branch".
void MessageKeys(const engine::Engine& bank, const char* kind, sim::Seq seq,
                 sim::ChannelId c, const history::Payload& what, json& j) {
  const auto& ch = bank.network().channel(c);
  j["kind"] = kind;
  j["seq"] = seq;
  j["from"] = bank.name(ch.from);
  j["to"] = bank.name(ch.to);
  // Where the algorithm tags its messages, the queue's "epoch" and "count"
  // (StateJson) ride on the events too, so that the diagram can label a
  // message after it has left.
  const bool tags = bank.algorithm().traits().tags_messages;
  if (const auto* t = std::get_if<history::Transfer>(&what)) {
    j["message"] = bank.app().MessageKind(t->amount);
    if (bank.app().conserved()) j["amount"] = t->amount;
    if (tags) j["epoch"] = bank.MessageTag(seq);
  } else {
    j["message"] = "marker";
    j["snapshot"] = std::get<history::Marker>(what).snapshot;
    if (tags) j["count"] = bank.MessageTag(seq);
  }
}

json EventJson(const engine::Engine& bank, const history::Event& e, json j) {
  std::visit(
      Overloaded{
          [&](const history::Sent<history::Transfer>& s) {
            MessageKeys(bank, "send", s.seq, s.channel, s.what, j);
          },
          [&](const history::Sent<history::Marker>& s) {
            MessageKeys(bank, "send", s.seq, s.channel, s.what, j);
          },
          [&](const history::Delivered<history::Transfer>& d) {
            MessageKeys(bank, "deliver", d.seq, d.channel, d.what, j);
          },
          [&](const history::Delivered<history::Marker>& d) {
            MessageKeys(bank, "deliver", d.seq, d.channel, d.what, j);
          },
          [&](const history::Recorded& r) {
            j["kind"] = "record";
            j["snapshot"] = r.snapshot;
            j[std::string(bank.app().definition().state_key)] =
                StateValue(bank, bank.RecordedBalance(r.node, r.snapshot).value_or(0));
            if (r.cause.by_transfer()) {
              j["cause"] = "transfer";
              j["transfer_seq"] = r.cause.message_seq();
            } else if (r.cause.by_marker()) {
              j["cause"] = "marker";
              j["marker_seq"] = r.cause.message_seq();
            } else {
              j["cause"] = "start";
            }
          },
          [&](const history::Read& r) {
            j["kind"] = "read";
            j[std::string(bank.app().definition().state_key)] = StateValue(bank, r.balance);
          },
          [&](const history::Local&) { j["kind"] = "finish"; },
          [&](const history::Closed& c) {
            const auto& ch = bank.network().channel(c.channel);
            j["kind"] = "close";
            j["snapshot"] = c.snapshot;
            j["from"] = bank.name(ch.from);
            j["to"] = bank.name(ch.to);
          },
          [&](const history::PartDone& p) {
            j["kind"] = "part_done";
            j["snapshot"] = p.snapshot;
          },
          [&](const history::Completed& c) {
            j["kind"] = "complete";
            j["snapshot"] = c.snapshot;
          },
          [&](const history::Overtaken& o) {
            const auto& ch = bank.network().channel(o.channel);
            j["kind"] = "overtake";
            j["barrier_seq"] = o.barrier;
            j["seq"] = o.transfer;
            j["from"] = bank.name(ch.from);
            j["to"] = bank.name(ch.to);
          },
      },
      e);
  return j;
}

}  // namespace

json HistoryJson(const engine::Engine& bank, const std::vector<StepResult>& steps) {
  const auto& events = bank.history().events();
  json out = json::array();
  // What is waiting on each channel, by sequence number (= age), so that a
  // delivery can name the older messages it overtook: a non-FIFO delivery
  // with at=K > 1, or an unaligned barrier sent at the head of its channel.
  std::map<sim::ChannelId, std::set<sim::Seq>> waiting;
  auto sent = [&](sim::Seq seq, sim::ChannelId c) { waiting[c].insert(seq); };
  auto delivered = [&](sim::Seq seq, sim::ChannelId c, json& j) {
    std::set<sim::Seq>& w = waiting[c];
    json overtook = json::array();
    for (auto it = w.begin(); it != w.end() && *it < seq; ++it) overtook.push_back(*it);
    w.erase(seq);
    if (!overtook.empty()) j["overtook"] = overtook;
  };
  std::size_t step = 0;
  for (std::size_t i = 0; i < events.size(); ++i) {
    while (step + 1 < steps.size() && i >= steps[step].history_end) ++step;
    json j = EventJson(
        bank, events[i],
        json{{"i", i}, {"step", step}, {"branch", bank.name(history::NodeOf(events[i], bank.network()))}});
    std::visit(Overloaded{
                   [&](const history::Sent<history::Transfer>& s) { sent(s.seq, s.channel); },
                   [&](const history::Sent<history::Marker>& s) { sent(s.seq, s.channel); },
                   [&](const history::Delivered<history::Transfer>& d) { delivered(d.seq, d.channel, j); },
                   [&](const history::Delivered<history::Marker>& d) { delivered(d.seq, d.channel, j); },
                   [](const auto&) {},
               },
               events[i]);
    out.push_back(std::move(j));
  }
  return out;
}

// ---- Predict mode's questions (docs/api.md): the derivation is
// scenario/questions.cc; this only names what it found.
namespace {

// A message a question names, as the page shows it.
struct QuestionMessages {
  const engine::Engine& bank;
  const engine::Replay& replay;

  json One(sim::Seq seq) const {
    const engine::Flight* f = replay.Find(seq);
    const auto& ch = bank.network().channel(f->channel);
    return json{{"seq", seq},
                {"from", bank.name(ch.from)},
                {"to", bank.name(ch.to)},
                {"message", f->is_transfer() ? "transfer" : "marker"},
                {"amount", f->amount()}};
  }
  json Many(const std::vector<sim::Seq>& seqs) const {
    json arr = json::array();
    for (sim::Seq seq : seqs) arr.push_back(One(seq));
    return arr;
  }
};

// "What did the snapshot record of this channel?": "empty", each transfer
// alone, and the recorded set where it holds more than one; one of them is
// the answer.
void AddChannelStateQuestion(const Question& q, const QuestionMessages& m, json* j, json* why) {
  const auto& ch = m.bank.network().channel(q.channel);
  (*j)["snapshot"] = q.snapshot;
  (*j)["from"] = m.bank.name(ch.from);
  (*j)["to"] = m.bank.name(ch.to);
  json choices = json::array({json{{"id", "empty"}, {"transfers", json::array()}}});
  for (sim::Seq seq : q.choices) {
    choices.push_back({{"id", std::to_string(seq)}, {"transfers", m.Many({seq})}});
  }
  std::string answer = "empty";
  if (!q.answer.empty()) {
    answer.clear();
    for (sim::Seq seq : q.answer) answer += (answer.empty() ? "" : "+") + std::to_string(seq);
    if (q.answer.size() > 1) choices.push_back({{"id", answer}, {"transfers", m.Many(q.answer)}});
  }
  (*j)["choices"] = choices;
  (*j)["answer"] = answer;
  (*why)["transfers"] = m.Many(q.answer);
  if (!q.missing.empty() || !q.extra.empty()) {
    (*why)["missing"] = m.Many(q.missing);
    (*why)["extra"] = m.Many(q.extra);
  }
}

}  // namespace

json QuestionsJson(const Analysis& a) {
  const engine::Engine& bank = a.bank;
  const engine::Replay& replay = a.replay;
  const QuestionMessages words{bank, replay};
  auto message = [&](sim::Seq seq) { return words.One(seq); };
  auto messages = [&](const std::vector<sim::Seq>& seqs) { return words.Many(seqs); };
  json out = json::array();
  for (const Question& q : a.questions) {
    json j = {{"kind", QuestionKindName(q.kind)},
              {"step", q.step},
              {"at", q.at},
              {"branch", bank.name(q.branch)}};
    json why = {{"code", WhyCodeName(q.why)}};
    switch (q.kind) {
      case QuestionKind::kNaiveTotal:
        j["answer"] = q.number;
        why["total"] = q.number;
        why["bank_total"] = q.bank_total;
        why["lost"] = messages(q.lost);
        why["twice"] = messages(q.twice);
        break;
      case QuestionKind::kBalanceIncludes:
        j["snapshot"] = q.snapshot;
        j["transfer"] = message(q.transfer);
        j["answer"] = q.yes;
        why["balance"] = q.balance;
        break;
      case QuestionKind::kChannelState:
        AddChannelStateQuestion(q, words, &j, &why);
        break;
      case QuestionKind::kDeliveryRecorded: {
        const auto& ch = bank.network().channel(q.channel);
        j["snapshot"] = q.snapshot;
        j["from"] = bank.name(ch.from);
        j["to"] = bank.name(ch.to);
        j["transfer"] = message(q.transfer);
        j["answer"] = q.yes;
        if (q.why == WhyCode::kNewerEpoch) why["epoch"] = q.epoch;
        if (!q.missing.empty() || !q.extra.empty()) {
          why["missing"] = messages(q.missing);
          why["extra"] = messages(q.extra);
        }
        break;
      }
      case QuestionKind::kPropertyDeclared:
        // Who declares: the naive detector (no snapshot) or snapshot N.
        j["by"] = q.snapshot == 0 ? "naive" : "snapshot";
        if (q.snapshot != 0) j["snapshot"] = q.snapshot;
        j["property"] = bank.app().definition().property;
        j["answer"] = q.yes;
        why["verdict"] = PropertyJson(bank, q.verdict);
        if (q.truth) why["truth"] = PropertyJson(bank, *q.truth);
        break;
      case QuestionKind::kCutConsistent: {
        json read = json::array();
        for (sim::NodeId n : q.read) read.push_back(bank.name(n));
        j["read"] = read;
        j["answer"] = q.yes;
        j["choices"] = messages(q.choices);
        j["backward"] = messages(q.answer);
        if (!q.answer.empty()) why["message"] = message(q.answer.front());
        break;
      }
    }
    j["why"] = why;
    out.push_back(std::move(j));
  }
  return out;
}

json ErrorJson(const Status& s, Lang lang) {
  json error = {{"error", catalogue::Message(s, lang)}, {"code", CodeName(s.code())}};
  if (s.line() > 0) error["line"] = s.line();
  error["message"] = catalogue::Reason(s, lang);
  return error;
}

}  // namespace cutline::scenario
