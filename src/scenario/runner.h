// Runner: executes scenario lines against an Engine, one command at a time,
// and records what each did (its line, its command, its span of the bank's
// history). It says nothing: what a step means in words is the Teller's
// (teller.h), the JSON's and the text views', which only read. An error
// changes nothing.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.h"
#include "base/status.h"
#include "scenario/parser.h"

namespace cutline::scenario {

// Bounds on one run, for a front end that must stay cheap whatever it is
// sent (the server). Zero means no bound.
struct Limits {
  std::size_t max_branches = 0;
  std::size_t max_commands = 0;
  // The history may grow past this only by the command that crosses it;
  // that command then fails and the run is spent: a budget cannot be
  // checked before a `drain` has run.
  std::size_t max_events = 0;
};

struct StepResult {
  int line = 0;
  std::string command;  // the line without comment and extra blanks
  Command parsed;       // what it asked for
  std::size_t history_begin = 0;  // its events in the bank's history
  std::size_t history_end = 0;
};

// One command other than `network` on a running bank (the Runner's, and
// `cutline explore`'s at each of its choices). An error changes nothing.
Status ApplyCommand(engine::Engine& bank, const Command& command);

class Runner {
 public:
  // Executes one line. On error, returns the refusal at line_no and
  // changes nothing.
  Status Execute(std::string_view line, int line_no);
  // Executes every line of `text`, stopping at the first error; calls
  // on_step (if given) after each command that ran.
  Status RunText(std::string_view text,
                 const std::function<void(const StepResult&)>& on_step = {});

  void set_limits(const Limits& limits) { limits_ = limits; }
  // Runs the network under `a` whatever its line says (the page's
  // comparison of algorithms on one schedule, scenario/compare.h).
  void set_algorithm(algorithms::Algorithm a) { algorithm_ = a; }

  const engine::Engine* bank() const { return bank_ ? &*bank_ : nullptr; }
  const std::vector<StepResult>& steps() const { return steps_; }

 private:
  Status Apply(const Command& command, int line_no);
  Status CheckLimits() const;

  std::optional<engine::Engine> bank_;
  int network_line_ = 0;
  Limits limits_;
  std::optional<algorithms::Algorithm> algorithm_;
  bool spent_ = false;  // the event budget ran out
  std::vector<StepResult> steps_;
};

}  // namespace cutline::scenario
