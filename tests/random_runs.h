// Random runs of the simulated bank, for the tests that judge one run two
// ways and compare (src/check/events_log_test.cc: the events format;
// src/runtime/log_check_agrees_test.cc: the ranks' logs). Each random test
// prints its seed and the command that replays it.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "scenario/runner.h"

namespace cutline::random_runs {

// Chandy-Lamport and its rules broken on purpose: what both formats describe.
inline const std::vector<std::string> kAlgorithms = {
    "chandy-lamport", "broken-unrecorded-channel", "broken-stop-at-first", "broken-late-markers"};

// The seed from `env` if set, else a fresh one; printed with its replay line
// (`filter` narrows the replay to the test's suite).
inline std::uint64_t Seed(const char* env, const std::string& filter) {
  std::uint64_t seed = std::random_device{}();
  if (const char* given = std::getenv(env)) seed = std::strtoull(given, nullptr, 10);
  std::cout << "seed " << seed << "; replay: " << env << "=" << seed << " "
            << ::testing::internal::GetArgvs().front() << " --gtest_filter=" << filter
            << std::endl;
  return seed;
}

// Three branches of $100 named `names` under `algorithm`, 40 random
// snapshots, transfers and deliveries, then a drain.
inline std::string Scenario(std::mt19937_64& random, const std::vector<std::string>& names,
                            const std::string& algorithm, bool one_snapshot_at_a_time) {
  std::string text = "network";
  for (const std::string& n : names) text += " " + n + "=100";
  text += " algorithm=" + algorithm + (one_snapshot_at_a_time ? " snapshots=one\n" : "\n");
  auto pick = [&](std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(random);
  };
  for (int step = 0; step < 40; ++step) {
    const std::size_t a = pick(3), b = (a + 1 + pick(2)) % 3;
    switch (pick(6)) {
      case 0:
        text += "snapshot " + names[a] + "\n";
        break;
      case 1:
      case 2:
        text += "transfer " + names[a] + " " + names[b] + " " + std::to_string(pick(30) + 1) + "\n";
        break;
      default:
        text += "deliver " + names[a] + " " + names[b] + "\n";
        break;
    }
  }
  return text + "drain\n";
}

// Runs `text` line by line: a refused line (an empty channel, a snapshot
// already running) changes nothing and the run goes on, as in a scenario.
inline void Run(scenario::Runner& runner, std::string_view text) {
  for (std::size_t at = 0, line = 1; at < text.size(); ++line) {
    const std::size_t end = text.find('\n', at);
    (void)runner.Execute(text.substr(at, end - at), static_cast<int>(line));
    at = end + 1;
  }
}

}  // namespace cutline::random_runs
