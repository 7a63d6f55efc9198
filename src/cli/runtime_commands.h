// `cutline cluster` and `cutline node`: the runtime's two commands, their
// options and their checks (docs/runtime.md).
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <string>

#include "base/lang.h"

namespace cutline::cli {

class RuntimeCommands {
 public:
  explicit RuntimeCommands(CLI::App& app);
  ~RuntimeCommands();
  // If `cluster` or `node` was chosen: runs it and gives its exit code.
  std::optional<int> Run(int* argc, char*** argv);

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// `cutline check --logs DIR [--format text|shiviz] [--lang en|ja]`: the
// simulator's checker on a real run's logs (its findings and summary in
// `lang`), or the logs as a ShiViz log. Returns the exit code.
int CheckLogsCommand(const std::string& dir, const std::string& format, Lang lang);

}  // namespace cutline::cli
