#include "harness/schedule_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace cutline::harness {

namespace {

using json = nlohmann::json;

json StepJson(const Step& s, const Workload& w) {
  if (s.kind == Step::Kind::kCommand) return {{"command", s.index}};
  return {{s.kind == Step::Kind::kDrop ? "lose" : "deliver",
           json::array({w.nodes[s.from], w.nodes[s.to]})},
          {"index", s.index}};
}

}  // namespace

Status WriteScheduleFile(const std::string& path, const ScheduleFile& file) {
  json steps = json::array();
  for (const Step& s : file.steps) steps.push_back(StepJson(s, file.workload));
  json skipped = json::array();
  for (std::size_t c = 0; c < file.rules.skipped.size(); ++c) {
    if (file.rules.skipped[c]) skipped.push_back(c);
  }
  const json out = {{"format", kScheduleFormat}, {"version", 1},
                    {"workload", file.workload.ToJson()}, {"reorder", file.rules.reorder},
                    {"skipped", skipped},     {"bin", file.bin},
                    {"steps", steps},         {"findings", file.findings}};
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
  const json j = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  auto bad = [&](std::string_view key) { return Status::Error(Code::kTestNotSchedule, path, key); };
  if (!j.is_object() || j.value("format", json()) != kScheduleFormat) return bad("format");
  if (j.value("version", json()) != 1) return bad("version");
  ScheduleFile file;
  StatusOr<Workload> w = Workload::FromJson(j.value("workload", json()), path);
  if (!w.ok()) return w.status();
  file.workload = std::move(*w);
  const std::size_t commands = file.workload.commands.size();
  const std::size_t n = file.workload.nodes.size();
  file.rules.reorder = j.value("reorder", false);
  file.rules.skipped.assign(commands, false);
  for (const json& c : j.value("skipped", json::array())) {
    if (!c.is_number_unsigned() || c.get<std::size_t>() >= commands) return bad("skipped");
    file.rules.skipped[c.get<std::size_t>()] = true;
  }
  for (const json& b : j.value("bin", json::array())) {
    if (b.is_string()) file.bin.push_back(b.get<std::string>());
  }
  for (const json& f : j.value("findings", json::array())) {
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
      const json& ends = lose ? s["lose"] : s.value("deliver", json());
      if (!ends.is_array() || ends.size() != 2 || !node(ends[0]) || !node(ends[1]) ||
          !s.value("index", json()).is_number_unsigned()) {
        return bad("steps[].deliver");
      }
      step.kind = lose ? Step::Kind::kDrop : Step::Kind::kDeliver;
      step.from = *node(ends[0]);
      step.to = *node(ends[1]);
      step.index = s["index"].get<std::uint32_t>();
    }
    file.steps.push_back(step);
  }
  return file;
}

}  // namespace cutline::harness
