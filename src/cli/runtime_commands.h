// `cutline cluster` and `cutline node`: the runtime's two commands, their
// options and their checks (docs/runtime.md).
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>

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

}  // namespace cutline::cli
