// JSON output: key names and order are a contract (tools outside read them),
// so every object is built in the order docs/scenario-language.md gives.
#include "scenario/json_output.h"

#include "bank/cuts.h"
#include "scenario/text_output.h"

namespace cutline::scenario {

using bank::NodeId;
using json = Json;

std::string Dump(const Json& j, int indent) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

namespace {

json MessageJson(const bank::Bank& bank, const bank::CrossingMessage& m) {
  return json{{"seq", m.seq},
              {"from", bank.name(m.from)},
              {"to", bank.name(m.to)},
              {"kind", m.kind == sim::MessageKind::kTransfer ? "transfer" : "marker"},
              {"amount", m.amount}};
}

// The naive reader's table, in the order branches were first read.
json ReadsJson(const bank::Bank& bank) {
  json reads = json::array();
  for (const bank::NaiveRead& r : bank.naive_reads()) {
    reads.push_back({{"name", bank.name(r.branch)}, {"balance", r.balance}});
  }
  return reads;
}

}  // namespace

json StateJson(const bank::Bank& bank) {
  const auto& net = bank.network();
  json out = json::object();
  json branches = json::array();
  for (NodeId n = 0; n < bank.branch_count(); ++n) {
    branches.push_back({{"name", bank.name(n)}, {"balance", bank.balance(n)}});
  }
  out["branches"] = branches;
  json channels = json::array();
  for (bank::ChannelId c = 0; c < net.channel_count(); ++c) {
    const auto& ch = net.channel(c);
    json queue = json::array();
    net.ForEachQueued(c, [&](const sim::Message& m) {
      if (m.kind == sim::MessageKind::kTransfer) {
        queue.push_back({{"kind", "transfer"}, {"amount", m.value}, {"seq", m.seq}});
      } else {
        queue.push_back({{"kind", "marker"}, {"snapshot", m.value}, {"seq", m.seq}});
      }
    });
    channels.push_back(
        {{"from", bank.name(ch.from)}, {"to", bank.name(ch.to)}, {"queue", queue}});
  }
  out["channels"] = channels;
  out["total"] = bank.total();
  json snapshots = json::array();
  for (const bank::SnapshotInfo& s : bank.snapshots()) {
    json initiators = json::array();
    for (NodeId n : s.initiators) initiators.push_back(bank.name(n));
    json recorded = json::array();
    json parts_done = json::array();
    for (NodeId n = 0; n < bank.branch_count(); ++n) {
      if (auto b = bank.RecordedBalance(n, s.id)) {
        recorded.push_back({{"name", bank.name(n)}, {"balance", *b}});
      }
      if (bank.PartDone(n, s.id)) parts_done.push_back(bank.name(n));
    }
    json snapshot_channels = json::array();
    for (bank::ChannelId c = 0; c < net.channel_count(); ++c) {
      const auto& ch = net.channel(c);
      bank::ChannelRecord r = bank.RecordedChannel(s.id, c);
      snapshot_channels.push_back({{"from", bank.name(ch.from)},
                                   {"to", bank.name(ch.to)},
                                   {"state", ChannelRecordingName(r.state)},
                                   {"transfers", r.transfers}});
    }
    json snapshot = {{"id", s.id},
                     {"initiators", initiators},
                     {"complete", s.complete},
                     {"markers_sent", s.markers_sent},
                     {"recorded", recorded},
                     {"channels", snapshot_channels}};
    if (s.complete) snapshot["total"] = bank.SnapshotTotal(s.id);
    snapshot["parts_done"] = parts_done;
    snapshot["markers_expected"] = net.channel_count();
    if (net.history().enabled()) {
      json backward = json::array();
      for (const auto& m : bank::BackwardAcross(bank, bank::SnapshotCut(bank, s.id))) {
        backward.push_back(MessageJson(bank, m));
      }
      snapshot["backward"] = backward;
    }
    snapshots.push_back(snapshot);
  }
  out["snapshots"] = snapshots;
  bank::Amount naive_total = 0;
  for (const bank::NaiveRead& r : bank.naive_reads()) naive_total += r.balance;
  out["naive"] = {{"reads", ReadsJson(bank)}, {"total", naive_total}};
  out["in_flight"] = bank.in_flight_amount();
  const auto& config = bank.config();
  out["capacity"] = config.capacity_transfers == 0
                        ? json(nullptr)
                        : json(config.capacity_transfers);
  out["snapshots_mode"] = config.one_snapshot_at_a_time ? "one" : "many";
  const bank::SnapshotInfo* running = bank.Running();
  out["running"] = running ? json(running->id) : json(nullptr);
  return out;
}

json NaiveJson(const bank::Bank& bank) {
  bank::NaiveAnalysis a = bank::AnalyzeNaive(bank);
  auto list = [&](const std::vector<bank::CrossingMessage>& ms) {
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

json HistoryJson(const bank::Bank& bank, const std::vector<StepResult>& steps) {
  const auto& net = bank.network();
  const auto& events = net.history().events();
  json out = json::array();
  std::size_t step = 0;
  for (std::size_t i = 0; i < events.size(); ++i) {
    while (step + 1 < steps.size() && i >= steps[step].history_end) ++step;
    const sim::Event& e = events[i];
    json j = {{"i", i}, {"step", step}, {"branch", bank.name(e.node)}};
    switch (e.kind) {
      case sim::EventKind::kSend:
      case sim::EventKind::kDeliver: {
        const auto& ch = net.channel(e.channel);
        j["kind"] = e.kind == sim::EventKind::kSend ? "send" : "deliver";
        j["seq"] = e.seq;
        j["from"] = bank.name(ch.from);
        j["to"] = bank.name(ch.to);
        if (e.message == sim::MessageKind::kTransfer) {
          j["message"] = "transfer";
          j["amount"] = e.value;
        } else {
          j["message"] = "marker";
          j["snapshot"] = e.value;
        }
        break;
      }
      case sim::EventKind::kRecord:
        j["kind"] = "record";
        j["snapshot"] = e.snapshot;
        j["balance"] = e.value;
        break;
      case sim::EventKind::kRead:
        j["kind"] = "read";
        j["balance"] = e.value;
        break;
      case sim::EventKind::kClose: {
        const auto& ch = net.channel(e.channel);
        j["kind"] = "close";
        j["snapshot"] = e.snapshot;
        j["from"] = bank.name(ch.from);
        j["to"] = bank.name(ch.to);
        break;
      }
      case sim::EventKind::kPartDone:
        j["kind"] = "part_done";
        j["snapshot"] = e.snapshot;
        break;
      case sim::EventKind::kComplete:
        j["kind"] = "complete";
        j["snapshot"] = e.snapshot;
        break;
    }
    out.push_back(std::move(j));
  }
  return out;
}

Status RunReport(std::string_view text, Lang lang, const Limits& limits,
                 json* out) {
  Runner runner(lang);
  runner.set_limits(limits);
  Status status = runner.RunText(text);
  if (!status.ok()) return status;
  if (runner.bank() == nullptr) return Status::Error(Code::kNoNetwork);
  const bank::Bank& bank = *runner.bank();
  auto lab = LabBlock(bank, lang);
  json steps = json::array();
  for (const StepResult& step : runner.steps()) {
    steps.push_back(
        {{"line", step.line}, {"command", step.command}, {"log", step.log}});
  }
  *out = json{{"steps", steps},
              {"state", StateJson(bank)},
              {"history", HistoryJson(bank, runner.steps())},
              {"naive", NaiveJson(bank)},
              {"lab", lab ? json(*lab) : json(nullptr)}};
  return Status::Ok();
}

json ErrorJson(const Status& s, Lang lang) {
  json error = {{"error", Message(s, lang)}, {"code", CodeName(s.code())}};
  if (s.line() > 0) error["line"] = s.line();
  error["message"] = Reason(s, lang);
  return error;
}

}  // namespace cutline::scenario
