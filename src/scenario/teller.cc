// Teller: the step's kind picks the view; the events go to the narrator.
#include "scenario/teller.h"

#include "catalogue/sentences.h"
#include "scenario/text_output.h"

namespace cutline::scenario {

// The sentences of the catalogue (catalogue/sentences.h).
using catalogue::MessageLine;
using catalogue::Say;
using catalogue::ShowLine;

std::vector<std::string> Teller::Tell(const Runner& runner) {
  const StepResult& step = runner.steps().back();
  const engine::Engine& bank = *runner.bank();
  if (std::holds_alternative<ShowCmd>(step.parsed)) return ShowLines(Analyze(bank), lang_);
  if (std::holds_alternative<NetworkCmd>(step.parsed)) {
    return {NetworkSummary(bank, lang_)};
  }
  std::vector<std::string> lines =
      narrator_.Narrate(bank, step.history_begin, step.history_end, lang_);
  if (lines.empty()) {  // drain with nothing in flight
    lines.push_back(Say(MessageLine::kNothingInFlight, {}, lang_));
  }
  return lines;
}

}  // namespace cutline::scenario
