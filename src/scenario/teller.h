// Teller: what each step of a run says, in one language: the network it
// built, the view it asked for (`show`), or the narration of its events. It
// only reads the runner. It must hear every step, in order, right after the
// step ran: `show` describes the state at that moment, and the narration
// follows the history step by step.
#pragma once

#include <string>
#include <vector>

#include "catalogue/messages.h"
#include "scenario/narrator.h"
#include "scenario/runner.h"

namespace cutline::scenario {

class Teller {
 public:
  explicit Teller(Lang lang) : lang_(lang) {}

  // The lines for runner's latest step.
  // REQUIRES: runner has a step; every earlier step was told, in order.
  std::vector<std::string> Tell(const Runner& runner);

  Lang lang() const { return lang_; }

 private:
  Lang lang_;
  Narrator narrator_;
};

}  // namespace cutline::scenario
