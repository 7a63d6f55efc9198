// ResultJson and CounterexampleDemo: the explore result in the words and
// fields its two readers share.
#include "explore/explore_json.h"

#include <string>
#include <vector>

#include "check/findings.h"
#include "scenario/teller.h"

namespace cutline::explore {

namespace {

const char* OutcomeName(Outcome o) {
  switch (o) {
    case Outcome::kRight:
      return "right";
    case Outcome::kBroken:
      return "broken";
    case Outcome::kNothing:
      return "nothing";
    case Outcome::kBounded:
      break;
  }
  return "bounded";
}

// The narration's lines (which end without a full stop, as log lines do)
// as sentences one after another: "." and a space in English, "。" in
// Japanese.
std::string Sentences(const std::vector<std::string>& lines, Lang lang) {
  std::string out;
  for (const std::string& line : lines) {
    if (!out.empty()) out += SentenceGap(lang);
    out += line;
    out += FullStop(lang);
  }
  return out;
}

}  // namespace

scenario::Json ResultJson(const Result& r, const Options& options) {
  const check::Findings& say = check::FindingsIn(options.lang);
  scenario::Json out = {{"outcome", OutcomeName(r.outcome)},
                        {"schedules", r.schedules},
                        {"states", r.states},
                        {"steps", r.transitions},
                        {"snapshots_judged", r.snapshots_judged},
                        {"depth", r.depth},
                        {"seconds", r.seconds},
                        {"starts", options.starts_anywhere ? "anywhere" : "as-written"},
                        {"summary", say.Explored(r.schedules, r.states, r.transitions, r.seconds)}};
  if (r.collision_chance >= 0) {
    out["collision_chance"] = r.collision_chance;
    out["fingerprints"] = say.ExploredFingerprints(options.fingerprint_bits, r.collision_chance);
  }
  switch (r.outcome) {
    case Outcome::kRight:
      out["verdict"] = say.ExploredRight(r.states, r.snapshots_judged);
      break;
    case Outcome::kBroken: {
      std::string scenario;
      for (const std::string& line : r.counterexample) scenario += line + "\n";
      const std::size_t steps = r.counterexample.size() - 1;
      out["verdict"] = r.never_completes ? say.ExploredNeverCompletes(steps) : say.ExploredBroken(steps);
      out["counterexample"] = std::move(scenario);
      out["findings"] = r.findings;
      out["never_completes"] = r.never_completes;
      break;
    }
    case Outcome::kNothing:
      out["verdict"] = say.NothingJudgedInScenario(0);
      break;
    case Outcome::kBounded:
      out["verdict"] = say.ExploredBounded(r.bound, r.states, r.depth);
      out["bound"] = r.bound;
      break;
  }
  return out;
}

scenario::Json CounterexampleDemo(const Result& r, Lang lang) {
  scenario::Json steps = scenario::Json::array();
  scenario::Runner runner;
  scenario::Teller teller(lang);
  int line_no = 0;
  for (const std::string& line : r.counterexample) {
    // The counterexample is a schedule the search ran: it runs again.
    Status s = runner.Execute(line, ++line_no);
    CUTLINE_CHECK(s.ok());
    std::vector<std::string> told = teller.Tell(runner);
    if (&line == &r.counterexample.front()) continue;  // the network: the demo's start
    steps.push_back({{"command", line}, {"caption", Sentences(told, lang)}});
  }
  if (!steps.empty() && !r.findings.empty()) {
    std::string& last = steps.back()["caption"].get_ref<std::string&>();
    last += SentenceGap(lang);
    const check::Findings& say = check::FindingsIn(lang);
    last += r.never_completes ? say.ExploredStuck(r.findings) : say.ExploredFindings(r.findings);
  }
  return {{"network", r.counterexample.empty() ? "" : r.counterexample.front()},
          {"steps", std::move(steps)}};
}

}  // namespace cutline::explore
