#include "harness/schedule_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace cutline::harness {

namespace {

using json = nlohmann::json;

// A key of an object, or null: the file may be anyone's JSON, and json's
// own value() throws on a value that is not an object.
const json& At(const json& o, const char* key) {
  static const json kNull;
  if (!o.is_object()) return kNull;
  auto it = o.find(key);
  return it == o.end() ? kNull : *it;
}
// A list that may be left out.
const json& ListAt(const json& o, const char* key) {
  static const json kEmpty = json::array();
  const json& v = At(o, key);
  return v.is_null() ? kEmpty : v;
}

json StepJson(const Step& s, const Workload& w) {
  if (s.kind == Step::Kind::kCommand) return {{"command", s.index}};
  return {{s.kind == Step::Kind::kDrop ? "lose" : "deliver",
           json::array({w.nodes[s.from], w.nodes[s.to]})},
          {"index", s.index}};
}

json TraceJson(const Trace& t, const Workload& w) {
  json messages = json::array();
  for (const TraceMessage& m : t.messages) {
    json one = {{"from", w.nodes[m.from]}, {"to", w.nodes[m.to]}, {"type", m.type}};
    if (m.transfer) {
      one["amount"] = m.amount;
      one["id"] = m.id;
    }
    messages.push_back(std::move(one));
  }
  const std::size_t n = w.nodes.size();
  json steps = json::array();
  for (const TraceStep& s : t.steps) {
    json step = {{"sent", s.sent}, {"balances", s.balances}};
    if (s.message) step["message"] = *s.message;
    json records = json::array();
    for (const TraceRecord& r : s.records) {
      records.push_back({{"node", w.nodes[r.node]}, {"snapshot", r.snapshot}, {"balance", r.balance}});
    }
    json parts = json::array();
    for (const TracePart& p : s.parts) {
      json channels = json::object();
      for (const auto& [from, ids] : p.channels) channels[w.nodes[from]] = ids;
      parts.push_back({{"node", w.nodes[p.node]}, {"snapshot", p.snapshot}, {"channels", channels}});
    }
    if (!records.empty()) step["records"] = std::move(records);
    if (!parts.empty()) step["parts"] = std::move(parts);
    json in_flight = json::array();  // the channels with something in flight
    for (std::size_t c = 0; c < s.in_flight.size(); ++c) {
      if (s.in_flight[c].empty()) continue;
      in_flight.push_back(
          {{"from", w.nodes[c / n]}, {"to", w.nodes[c % n]}, {"messages", s.in_flight[c]}});
    }
    step["in_flight"] = std::move(in_flight);
    steps.push_back(std::move(step));
  }
  return {{"messages", messages},
          {"steps", steps},
          {"findings", {{"en", t.findings_en}, {"ja", t.findings_ja}}},
          {"judged", t.judged}};
}

// Reads the trace back, every number checked against the workload and the
// messages: the page draws from it.
StatusOr<Trace> ParseTrace(const json& j, const Workload& w, std::size_t steps_taken,
                           const std::string& name) {
  auto bad = [&](std::string_view key) { return Status::Error(Code::kTestNotSchedule, name, key); };
  const std::uint32_t n = static_cast<std::uint32_t>(w.nodes.size());
  auto node = [&](const json& v) -> std::optional<std::uint32_t> {
    for (std::uint32_t i = 0; i < n; ++i) {
      if (v == w.nodes[i]) return i;
    }
    return std::nullopt;
  };
  auto strings = [](const json& v, std::vector<std::string>* out) {
    if (!v.is_array()) return false;
    for (const json& x : v) {
      if (!x.is_string()) return false;
      out->push_back(x.get<std::string>());
    }
    return true;
  };
  Trace t;
  if (!j.is_object()) return bad("trace");
  const json& messages = At(j, "messages");
  if (!messages.is_array()) return bad("trace.messages");
  for (const json& m : messages) {
    if (!m.is_object()) return bad("trace.messages");
    const auto from = node(At(m, "from")), to = node(At(m, "to"));
    const json& type = At(m, "type");
    if (!from || !to || *from == *to || !type.is_string()) return bad("trace.messages");
    TraceMessage one;
    one.from = *from;
    one.to = *to;
    one.type = type.get<std::string>();
    one.transfer = one.type == "transfer";
    if (one.transfer) {
      const json &amount = At(m, "amount"), &id = At(m, "id");
      if (!amount.is_number_integer() || amount.get<std::int64_t>() < 0 ||
          !id.is_number_integer()) {
        return bad("trace.messages");
      }
      one.amount = amount.get<cutline::Amount>();
      one.id = id.get<std::int64_t>();
    }
    t.messages.push_back(std::move(one));
  }
  auto message = [&](const json& v) {
    return v.is_number_unsigned() && v.get<std::uint64_t>() < t.messages.size();
  };
  const json& steps = At(j, "steps");
  if (!steps.is_array() || steps.size() != steps_taken + 1) return bad("trace.steps");
  for (const json& s : steps) {
    TraceStep step;
    if (!s.is_object()) return bad("trace.steps");
    if (s.contains("message")) {
      if (!message(s["message"])) return bad("trace.steps[].message");
      step.message = s["message"].get<std::uint32_t>();
    }
    if (!ListAt(s, "sent").is_array() || !ListAt(s, "records").is_array() ||
        !ListAt(s, "parts").is_array()) {
      return bad("trace.steps");
    }
    for (const json& m : ListAt(s, "sent")) {
      if (!message(m)) return bad("trace.steps[].sent");
      step.sent.push_back(m.get<std::uint32_t>());
    }
    const json& balances = At(s, "balances");
    if (!balances.is_array() || balances.size() != n) return bad("trace.steps[].balances");
    for (const json& b : balances) {
      if (!b.is_number_integer()) return bad("trace.steps[].balances");
      step.balances.push_back(b.get<cutline::Amount>());
    }
    for (const json& r : ListAt(s, "records")) {
      const auto at = node(At(r, "node"));
      if (!at || !At(r, "snapshot").is_number_unsigned() ||
          !At(r, "balance").is_number_integer()) {
        return bad("trace.steps[].records");
      }
      step.records.push_back({*at, r["snapshot"].get<SnapshotId>(), r["balance"].get<cutline::Amount>()});
    }
    for (const json& p : ListAt(s, "parts")) {
      const auto at = node(At(p, "node"));
      const json& channels = At(p, "channels");
      if (!at || !At(p, "snapshot").is_number_unsigned() || !channels.is_object()) {
        return bad("trace.steps[].parts");
      }
      TracePart part{*at, p["snapshot"].get<SnapshotId>(), {}};
      for (const auto& [from, ids] : channels.items()) {
        const auto sender = node(from);
        if (!sender || !ids.is_array()) return bad("trace.steps[].parts");
        std::vector<std::int64_t> list;
        for (const json& id : ids) {
          if (!id.is_number_integer()) return bad("trace.steps[].parts");
          list.push_back(id.get<std::int64_t>());
        }
        part.channels.emplace_back(*sender, std::move(list));
      }
      step.parts.push_back(std::move(part));
    }
    step.in_flight.resize(static_cast<std::size_t>(n) * n);
    const json& in_flight = At(s, "in_flight");
    if (!in_flight.is_array()) return bad("trace.steps[].in_flight");
    for (const json& c : in_flight) {
      const auto from = node(At(c, "from")), to = node(At(c, "to"));
      const json& list = At(c, "messages");
      if (!from || !to || !list.is_array()) return bad("trace.steps[].in_flight");
      for (const json& m : list) {
        if (!message(m)) return bad("trace.steps[].in_flight");
        step.in_flight[*from * n + *to].push_back(m.get<std::uint32_t>());
      }
    }
    t.steps.push_back(std::move(step));
  }
  const json& findings = At(j, "findings");
  if (!findings.is_object() || !strings(At(findings, "en"), &t.findings_en) ||
      !strings(At(findings, "ja"), &t.findings_ja)) {
    return bad("trace.findings");
  }
  if (!At(j, "judged").is_number_unsigned()) return bad("trace.judged");
  t.judged = j["judged"].get<std::uint32_t>();
  return t;
}

}  // namespace

Status WriteScheduleFile(const std::string& path, const ScheduleFile& file) {
  json steps = json::array();
  for (const Step& s : file.steps) steps.push_back(StepJson(s, file.workload));
  json skipped = json::array();
  for (std::size_t c = 0; c < file.rules.skipped.size(); ++c) {
    if (file.rules.skipped[c]) skipped.push_back(c);
  }
  const json head = {{"format", kScheduleFormat}, {"version", 1},
                    {"workload", file.workload.ToJson()}, {"reorder", file.rules.reorder},
                    {"skipped", skipped},     {"bin", file.bin},
                    {"steps", steps},         {"findings", file.findings}};
  json out = head;
  if (file.trace) out["trace"] = TraceJson(*file.trace, file.workload);
  std::ofstream f(path);
  f << out.dump(1) << "\n";
  f.close();
  if (!f) return Status::Error(Code::kCannotOpenForWriting, path, std::strerror(errno));
  return Status::Ok();
}

StatusOr<ScheduleFile> ReadScheduleFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::Error(Code::kCannotRead, path, std::strerror(errno));
  std::stringstream text;
  text << in.rdbuf();
  return ParseScheduleFile(json::parse(text.str(), nullptr, /*allow_exceptions=*/false), path);
}

StatusOr<ScheduleFile> ParseScheduleFile(const json& j, const std::string& path) {
  auto bad = [&](std::string_view key) { return Status::Error(Code::kTestNotSchedule, path, key); };
  if (!j.is_object() || At(j, "format") != kScheduleFormat) return bad("format");
  if (At(j, "version") != 1) return bad("version");
  ScheduleFile file;
  StatusOr<Workload> w = Workload::FromJson(At(j, "workload"), path);
  if (!w.ok()) return w.status();
  file.workload = std::move(*w);
  const std::size_t commands = file.workload.commands.size();
  const std::size_t n = file.workload.nodes.size();
  const json& reorder = At(j, "reorder");
  if (!reorder.is_null() && !reorder.is_boolean()) return bad("reorder");
  file.rules.reorder = reorder.is_boolean() && reorder.get<bool>();
  file.rules.skipped.assign(commands, false);
  for (const json& c : ListAt(j, "skipped")) {
    if (!c.is_number_unsigned() || c.get<std::size_t>() >= commands) return bad("skipped");
    file.rules.skipped[c.get<std::size_t>()] = true;
  }
  for (const json& b : ListAt(j, "bin")) {
    if (b.is_string()) file.bin.push_back(b.get<std::string>());
  }
  for (const json& f : ListAt(j, "findings")) {
    if (f.is_string()) file.findings.push_back(f.get<std::string>());
  }
  if (!j.contains("steps") || !j["steps"].is_array()) return bad("steps");
  auto node = [&](const json& name) -> std::optional<std::uint32_t> {
    for (std::uint32_t i = 0; i < n; ++i) {
      if (name == file.workload.nodes[i]) return i;
    }
    return std::nullopt;
  };
  for (const json& s : j["steps"]) {
    Step step;
    if (s.contains("command")) {
      if (!s["command"].is_number_unsigned() || s["command"].get<std::size_t>() >= commands) {
        return bad("steps[].command");
      }
      step.index = s["command"].get<std::uint32_t>();
    } else {
      const bool lose = s.contains("lose");
      const json& ends = lose ? s["lose"] : At(s, "deliver");
      if (!ends.is_array() || ends.size() != 2 || !node(ends[0]) || !node(ends[1]) ||
          !At(s, "index").is_number_unsigned()) {
        return bad("steps[].deliver");
      }
      step.kind = lose ? Step::Kind::kDrop : Step::Kind::kDeliver;
      step.from = *node(ends[0]);
      step.to = *node(ends[1]);
      step.index = s["index"].get<std::uint32_t>();
    }
    file.steps.push_back(step);
  }
  if (j.contains("trace")) {
    StatusOr<Trace> t = ParseTrace(j["trace"], file.workload, file.steps.size(), path);
    if (!t.ok()) return t.status();
    file.trace = std::move(*t);
  }
  return file;
}

}  // namespace cutline::harness
