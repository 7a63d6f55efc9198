// Runner: executes scenario lines against a Bank, one command at a time,
// keeping a narrated step per command. An error changes nothing.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bank/bank.h"
#include "bank/status.h"
#include "scenario/narrator.h"
#include "scenario/parser.h"

namespace cutline::scenario {

struct StepResult {
  int line = 0;
  std::string command;           // the line without comment and extra blanks
  std::vector<std::string> log;  // what the command did, in words
  std::size_t history_begin = 0;  // its events in the bank's history
  std::size_t history_end = 0;
};

class Runner {
 public:
  explicit Runner(Lang lang = Lang::kEn) : lang_(lang) {}

  // Executes one line. On error, returns "line N: reason" (in both
  // languages), remembers N in failed_line(), and changes nothing.
  Status Execute(std::string_view line, int line_no);
  // Executes every line of `text`, stopping at the first error; calls
  // on_step (if given) after each command that ran.
  Status RunText(std::string_view text,
                 const std::function<void(const StepResult&)>& on_step = {});

  // A network with more branches is refused (0 = no limit). The server sets
  // it: the work and the size of a run's report grow with n^2 channels.
  void set_max_branches(std::size_t n) { max_branches_ = n; }

  const bank::Bank* bank() const { return bank_ ? &*bank_ : nullptr; }
  const std::vector<StepResult>& steps() const { return steps_; }
  int failed_line() const { return failed_line_; }
  Lang lang() const { return lang_; }

 private:
  Status Apply(const Command& command, int line_no);
  Status Branch(const std::string& name, bank::NodeId* out) const;

  Lang lang_;
  std::optional<bank::Bank> bank_;
  int network_line_ = 0;
  int failed_line_ = 0;
  std::size_t max_branches_ = 0;
  std::vector<StepResult> steps_;
  Narrator narrator_;
};

}  // namespace cutline::scenario
