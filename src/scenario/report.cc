// RunReport: run, telling each step as it goes, then gather the views.
#include "scenario/report.h"

#include "scenario/shiviz.h"
#include "scenario/teller.h"
#include "scenario/text_output.h"

namespace cutline::scenario {

Status RunReport(std::string_view text, Lang lang, const Limits& limits,
                 Json* out) {
  Runner runner;
  runner.set_limits(limits);
  Teller teller(lang);
  Json steps = Json::array();
  Status status = runner.RunText(text, [&](const StepResult& step) {
    steps.push_back({{"line", step.line},
                     {"command", step.command},
                     {"log", teller.Tell(runner)}});
  });
  if (!status.ok()) return status;
  if (runner.bank() == nullptr) return Status::Error(Code::kNoNetwork);
  const engine::Engine& bank = *runner.bank();
  // Every view renders this one analysis, the questions included.
  const Analysis analysis = Analyze(bank, &runner.steps());
  auto lab = LabBlock(analysis, lang);
  Json state = StateJson(analysis);
  // What the page calls the algorithm's markers (web/labels.js), so that
  // the page need not know which algorithm names them how.
  state["markers"] = algorithms::NounToken(bank.algorithm().words().marker);
  // Whether the algorithm is meant to be right on this network (Traits::
  // RightOn): the page words its offer to explore every schedule by it
  // (web/explore.js).
  state["sound"] = bank.algorithm().traits().RightOn(bank.config().fifo);
  *out = Json{{"steps", std::move(steps)},
              {"state", std::move(state)},
              {"history", HistoryJson(bank, runner.steps())},
              {"naive", NaiveJson(analysis)},
              {"lab", lab ? Json(*lab) : Json(nullptr)},
              {"questions", QuestionsJson(analysis)}};
  return Status::Ok();
}

Status RunShiViz(std::string_view text, const Limits& limits, std::string* out) {
  Runner runner;
  runner.set_limits(limits);
  Status status = runner.RunText(text);
  if (!status.ok()) return status;
  if (runner.bank() == nullptr) return Status::Error(Code::kNoNetwork);
  *out = ShiVizLog(*runner.bank());
  return Status::Ok();
}

}  // namespace cutline::scenario
