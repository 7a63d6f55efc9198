// CompareAlgorithms: the same lines, a runner per algorithm.
#include "scenario/compare.h"

#include "scenario/analysis.h"

namespace cutline::scenario {

namespace {

// Each snapshot of a finished run: its cost and, once complete, its total
// and the checker's verdict.
Json SnapshotsJson(const engine::Engine& bank) {
  const Analysis a = Analyze(bank);  // the runner keeps the history: costs for all
  Json out = Json::array();
  for (std::size_t i = 0; i < bank.snapshots().size(); ++i) {
    const engine::SnapshotInfo& s = bank.snapshots()[i];
    Json j = {{"id", s.id}, {"complete", s.complete}};
    if (s.complete) {
      j["total"] = bank.SnapshotTotal(s.id);
      if (const check::SnapshotVerdict* v = a.Verdict(s.id)) j["consistent"] = v->consistent();
    }
    j["cost"] = CostJson(a.costs[i]);
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace

Status CompareAlgorithms(std::string_view text, Lang lang, const Limits& limits,
                         Json* out) {
  Runner as_written;
  as_written.set_limits(limits);
  if (Status s = as_written.RunText(text); !s.ok()) return s;
  if (!as_written.bank()) return Status::Error(Code::kNoNetwork);
  Json runs = Json::array();
  for (const algorithms::Algorithm& a : algorithms::Algorithm::All()) {
    // Stopping the world is a command, not a network's algorithm; a rule
    // broken on purpose is not a way to take a snapshot, so it is no rival.
    if (!a.hosts().scenario || a.traits().stops_the_world) continue;
    if (a.traits().broken_on_purpose) continue;
    Runner runner;
    runner.set_limits(limits);
    runner.set_algorithm(a);
    // What the page calls its markers (web/labels.js), as in /api/run.
    Json run = {{"algorithm", a.name()},
                {"markers", algorithms::NounToken(a.words().marker)}};
    Status s = runner.RunText(text);
    run["applies"] = s.ok();
    if (s.ok()) {
      run["snapshots"] = SnapshotsJson(*runner.bank());
    } else {
      run["refusal"] = catalogue::Message(s, lang);
      run["code"] = CodeName(s.code());
    }
    runs.push_back(std::move(run));
  }
  *out = Json{{"algorithm", as_written.bank()->algorithm().name()}, {"runs", std::move(runs)}};
  return Status::Ok();
}

}  // namespace cutline::scenario
