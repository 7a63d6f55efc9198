// The schedule file's trace as frames: one at the start, one after each
// step, and one for the verdict. Each frame is the whole picture (balances,
// what each node recorded, what is in flight) so that the page draws any
// frame alone, backwards as well as forwards.
#include "server/trace_route.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "apps/bank/money.h"
#include "base/lang.h"
#include "catalogue/test_lines.h"
#include "catalogue/messages.h"
#include "harness/schedule_file.h"

namespace cutline::server {

namespace {

// nlohmann::json by its own name: routes.cc, in the same unity batch, has
// its own `json` (scenario::Json).
using TraceJson = nlohmann::json;
using catalogue::Say;
using catalogue::TestLine;
using catalogue::TestSaid;
using harness::ScheduleFile;
using harness::Trace;
using harness::TraceMessage;

// How long a file's name may be in a refusal: it is the visitor's.
constexpr std::size_t kMaxNameChars = 80;
// Each frame holds every node's state in every snapshot: the answer grows
// with steps x nodes x (snapshots + 1), which the body's cap alone does not
// bound (a few bytes of steps may name many nodes and snapshots). A shrunk
// schedule of 30 steps, 5 nodes and 3 snapshots is 600 of these.
constexpr std::uint64_t kMaxNodeStates = 100000;

class Frames {
 public:
  Frames(const ScheduleFile& file, Lang lang)
      : file_(file), t_(*file.trace), w_(file.workload), lang_(lang),
        n_(static_cast<std::uint32_t>(w_.nodes.size())) {
    for (std::size_t c = 0; c < w_.commands.size(); ++c) {
      if (w_.commands[c].kind == harness::Command::Kind::kSnapshot && !file.rules.skipped[c]) {
        snapshots_.push_back(w_.commands[c].snapshot);
      }
    }
    recorded_.assign(snapshots_.size(), std::vector<TraceJson>(n_, TraceJson(nullptr)));
    done_.assign(snapshots_.size(), std::vector<TraceJson>(n_, TraceJson(nullptr)));
  }

  TraceJson Answer() {
    TraceJson frames = TraceJson::array();
    for (std::size_t i = 0; i < t_.steps.size(); ++i) frames.push_back(Frame(i));
    const std::vector<std::string>& findings =
        lang_ == Lang::kJa ? t_.findings_ja : t_.findings_en;
    // The verdict: the last step's picture, the findings as its caption.
    TraceJson end = frames.back();
    TestSaid said;
    said.count = findings.empty() ? t_.judged : findings.size();
    // Never a pass about nothing: no finding and nothing judged says so.
    const TestLine verdict = !findings.empty() ? TestLine::kTraceEndFail
                             : t_.judged > 0   ? TestLine::kTraceEndOk
                                               : TestLine::kTraceEndNothing;
    end["caption"] = Say(verdict, said, lang_);
    end["did"] = {{"kind", "end"}};
    end["findings"] = findings;
    frames.push_back(std::move(end));
    std::string bin;
    for (const std::string& word : file_.bin) bin += (bin.empty() ? "" : " ") + word;
    return {{"nodes", w_.nodes},
            {"snapshots", snapshots_},
            {"total", apps::Money(w_.total())},
            {"bin", bin},
            {"reorder", file_.rules.reorder},
            {"findings", findings},
            {"frames", std::move(frames)}};
  }

 private:
  std::string Name(const TraceMessage& m) const {
    return harness::TransferName(w_.nodes[m.from], m.id);
  }

  // A message in a caption: "a marker", "transfer n3-1 ($31)".
  std::string Words(const TraceMessage& m) const {
    TestSaid said;
    said.text = m.type;
    if (m.transfer) {
      said.more = apps::Money(m.amount);
      said.nodes = {Name(m)};
    }
    return Say(TestLine::kTraceMessage, said, lang_);
  }

  // A message as the page draws it.
  TraceJson Drawn(std::uint32_t number) const {
    const TraceMessage& m = t_.messages[number];
    TraceJson out = {{"type", m.type}, {"transfer", m.transfer}};
    if (m.transfer) {
      out["name"] = Name(m);
      out["amount"] = apps::Money(m.amount);
    }
    return out;
  }

  std::size_t SnapshotAt(SnapshotId id) const {
    for (std::size_t i = 0; i < snapshots_.size(); ++i) {
      if (snapshots_[i] == id) return i;
    }
    return snapshots_.size();
  }

  TraceJson Frame(std::size_t i) {
    const harness::TraceStep& s = t_.steps[i];
    std::vector<std::string> sentences;
    TestSaid said;
    TraceJson did;
    if (i == 0) {
      said.nodes = w_.nodes;
      said.text = apps::Money(w_.balance);
      sentences.push_back(Say(TestLine::kTraceStart, said, lang_));
      did = {{"kind", "start"}};
    } else if (const harness::Step& step = file_.steps[i - 1]; step.kind == harness::Step::Kind::kCommand) {
      const harness::Command& c = w_.commands[step.index];
      if (c.kind == harness::Command::Kind::kTransfer) {
        said.nodes = {w_.nodes[c.node], w_.nodes[c.to]};
        said.text = apps::Money(c.amount);
        sentences.push_back(Say(TestLine::kTraceAsksTransfer, said, lang_));
      } else {
        said.nodes = {w_.nodes[c.node]};
        said.id = c.snapshot;
        sentences.push_back(Say(TestLine::kTraceAsksSnapshot, said, lang_));
      }
      did = {{"kind", "command"}, {"node", w_.nodes[c.node]}};
    } else {
      const bool lost = step.kind == harness::Step::Kind::kDrop;
      said.nodes = {w_.nodes[step.from], w_.nodes[step.to]};
      if (s.message) said.text = Words(t_.messages[*s.message]);
      sentences.push_back(Say(lost ? TestLine::kTraceLoses : TestLine::kTraceDelivers, said, lang_));
      did = {{"kind", lost ? "lose" : "deliver"}, {"from", w_.nodes[step.from]}, {"to", w_.nodes[step.to]}};
      if (s.message) did["message"] = Drawn(*s.message);
    }
    for (const harness::TraceRecord& r : s.records) {
      TestSaid rec;
      rec.nodes = {w_.nodes[r.node]};
      rec.id = r.snapshot;
      rec.text = apps::Money(r.balance);
      sentences.push_back(Say(TestLine::kTraceRecords, rec, lang_));
      if (std::size_t k = SnapshotAt(r.snapshot); k < snapshots_.size()) {
        recorded_[k][r.node] = apps::Money(r.balance);
      }
    }
    Sends(s, &sentences);
    for (const harness::TracePart& p : s.parts) {
      TestSaid part;
      part.nodes = {w_.nodes[p.node]};
      part.id = p.snapshot;
      TraceJson channels = TraceJson::array();
      for (const auto& [from, ids] : p.channels) {
        TestSaid ch;
        ch.nodes = {w_.nodes[from], w_.nodes[p.node]};
        TraceJson transfers = TraceJson::array();
        for (std::int64_t id : ids) {
          const TraceMessage m = TransferOf(from, id);
          transfers.push_back({{"name", Name(m)}, {"amount", apps::Money(m.amount)}});
          ch.others.push_back(Words(m));
        }
        part.others.push_back(Say(TestLine::kTraceChannel, ch, lang_));
        channels.push_back({{"from", w_.nodes[from]}, {"transfers", std::move(transfers)}});
      }
      sentences.push_back(Say(TestLine::kTracePartDone, part, lang_));
      if (std::size_t k = SnapshotAt(p.snapshot); k < snapshots_.size()) {
        done_[k][p.node] = std::move(channels);
      }
    }
    std::string caption;
    for (const std::string& sentence : sentences) {
      caption += (caption.empty() ? "" : std::string(SentenceGap(lang_))) + sentence;
    }
    TraceJson balances = TraceJson::array();
    for (cutline::Amount b : s.balances) balances.push_back(apps::Money(b));
    TraceJson in_flight = TraceJson::array();
    for (std::size_t c = 0; c < s.in_flight.size(); ++c) {
      if (s.in_flight[c].empty()) continue;
      TraceJson messages = TraceJson::array();
      for (std::uint32_t m : s.in_flight[c]) messages.push_back(Drawn(m));
      in_flight.push_back({{"from", w_.nodes[c / n_]}, {"to", w_.nodes[c % n_]}, {"messages", messages}});
    }
    TraceJson snapshots = TraceJson::array();
    for (std::size_t k = 0; k < snapshots_.size(); ++k) {
      TraceJson nodes = TraceJson::array();
      for (std::uint32_t node = 0; node < n_; ++node) {
        nodes.push_back({{"recorded", recorded_[k][node]}, {"channels", done_[k][node]}});
      }
      snapshots.push_back({{"id", snapshots_[k]}, {"nodes", std::move(nodes)}});
    }
    return {{"caption", caption}, {"did", did}, {"balances", balances},
            {"in_flight", in_flight}, {"snapshots", snapshots}};
  }

  // What the step's node sent, one sentence per sender (init: each node).
  void Sends(const harness::TraceStep& s, std::vector<std::string>* sentences) const {
    for (std::uint32_t sender = 0; sender < n_; ++sender) {
      TestSaid said;
      said.nodes = {w_.nodes[sender]};
      for (std::uint32_t m : s.sent) {
        const TraceMessage& msg = t_.messages[m];
        if (msg.from != sender) continue;
        TestSaid to;
        to.text = Words(msg);
        to.nodes = {w_.nodes[msg.to]};
        said.others.push_back(Say(TestLine::kTraceSentTo, to, lang_));
      }
      if (!said.others.empty()) sentences->push_back(Say(TestLine::kTraceSends, said, lang_));
    }
  }

  // A recorded transfer by its sender and msg_id (the judge took only
  // transfers that reached the node, so it is among the messages).
  TraceMessage TransferOf(std::uint32_t from, std::int64_t id) const {
    for (const TraceMessage& m : t_.messages) {
      if (m.transfer && m.from == from && m.id == id) return m;
    }
    return TraceMessage{from, 0, "transfer", true, 0, id};
  }

  const ScheduleFile& file_;
  const Trace& t_;
  const harness::Workload& w_;
  const Lang lang_;
  const std::uint32_t n_;
  std::vector<SnapshotId> snapshots_;  // the workload's, less those left out
  // By snapshot (as snapshots_) and node, so far: the balance recorded, and
  // the channels its part_done listed.
  std::vector<std::vector<TraceJson>> recorded_, done_;
};

}  // namespace

Response HandleTraceRequest(const Request& req) {
  Lang lang = Lang::kEn;
  if (std::optional<Response> bad = QueryLang(req, &lang)) return *bad;
  // "error_status=200" answers a refusal with 200, as /api/run's field: the
  // page takes it as an answer, and the browser logs no failed load.
  int refused = 400;
  if (auto e = req.query.find("error_status"); e != req.query.end()) {
    if (e->second == "200") {
      refused = 200;
    } else if (e->second != "400") {
      return ErrorResponse(400, "parameter error_status must be 200 or 400");
    }
  }
  std::string name = "schedule";
  if (auto n = req.query.find("name"); n != req.query.end() && !n->second.empty()) {
    name = n->second.substr(0, kMaxNameChars);
  }
  StatusOr<ScheduleFile> file = harness::ParseScheduleFile(
      TraceJson::parse(req.body, nullptr, /*allow_exceptions=*/false), name);
  if (!file.ok()) return ErrorResponse(refused, catalogue::Message(file.status(), lang));
  if (!file->trace) {
    return ErrorResponse(refused, name + ": " + Say(TestLine::kTraceNone, {}, lang));
  }
  TestSaid size;
  size.count = file->steps.size();
  size.count2 = file->workload.nodes.size();
  for (std::size_t c = 0; c < file->workload.commands.size(); ++c) {
    const bool drawn = !file->rules.skipped[c];
    if (drawn && file->workload.commands[c].kind == harness::Command::Kind::kSnapshot) ++size.count3;
  }
  size.count4 = kMaxNodeStates;
  if ((size.count + 2) * size.count2 * (size.count3 + 1) > kMaxNodeStates) {
    return ErrorResponse(refused, name + ": " + Say(TestLine::kTraceTooBig, size, lang));
  }
  return JsonResponse(200, Frames(*file, lang).Answer().dump(
                               -1, ' ', false, TraceJson::error_handler_t::replace));
}

}  // namespace cutline::server
