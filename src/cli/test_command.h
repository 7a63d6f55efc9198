// `cutline test --bin CMD [ARGS]`: anyone's snapshot implementation, run as
// one process per node over the schedules the tester chooses, every
// complete snapshot judged, a failure shrunk and written for `--replay`
// (docs/harness.md).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/search.h"

namespace cutline::cli {

class TestCommand {
 public:
  explicit TestCommand(CLI::App& app);
  TestCommand(const TestCommand&) = delete;
  TestCommand& operator=(const TestCommand&) = delete;

  bool chosen() const { return test_->parsed(); }
  // 0: every schedule tried passes; 1: one fails (shrunk, written to
  // --out); 3: a bound stopped the search first; 2: refused.
  int Run() const;

 private:
  int Replay() const;
  CLI::App* test_;
  std::vector<std::string> bin_;
  std::string replay_;
  std::uint32_t nodes_ = 3, transfers_ = 4, snapshots_ = 2;
  std::int64_t balance_ = 100;
  std::string schedules_ = "random:100";
  std::uint64_t seed_ = 1;
  bool reorder_ = false;
  double lose_ = 0;
  std::uint64_t max_states_ = 200000;
  double max_seconds_ = 0;
  int timeout_ms_ = 5000;
  bool no_shrink_ = false;
  bool no_reduction_ = false;
  std::string out_ = "cutline-test-failure.json";
  std::string lang_ = "en";
};

}  // namespace cutline::cli
