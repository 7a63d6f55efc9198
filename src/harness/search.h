// The schedules `cutline test` tries, and the shrinking of a failure.
// Random: K walks, each from its own seed, choosing uniformly among the
// steps the state allows. Every: breadth-first over the exact states
// (world.h), so the first failing end state found is reached by a shortest
// failing schedule; states are kept by key, so schedules that reach one
// state go on from it once (the interleavings of independent steps meet).
// A failure is then shrunk: commands left out and steps removed while it
// still fails, keeping the shortest.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/lang.h"
#include "base/status.h"
#include "harness/judge.h"
#include "harness/world.h"

namespace cutline::harness {

struct SearchOptions {
  bool every = false;             // else random
  std::uint64_t schedules = 100;  // random: how many
  std::uint64_t seed = 1;         // random: the first schedule's seed
  double lose = 0;                // random: the chance an algorithm message is lost
  Rules rules;
  std::uint64_t max_states = 200000;  // every: 0 no bound
  double max_seconds = 0;             // 0: no bound
  bool shrink = true;
  // every: the partial-order reduction (World::Ample); off for the test
  // that holds it to the full search.
  bool reduction = true;
  // every: when given, each end state judged, as every node's inputs in
  // their order (the same words in any search of the workload), for the
  // test that holds the reduced search to the full one.
  std::vector<std::string>* end_states = nullptr;
  Lang lang = Lang::kEn;
};

// A schedule that fails, as short as the shrinker made it.
struct Failure {
  std::vector<Step> path;
  std::vector<bool> skipped;  // by command: left out
  std::vector<std::string> findings;  // the judge's lines, or the program's fault
  bool fault = false;                 // findings[0] is a fault of the protocol
  std::uint64_t schedule = 0;         // random: its number (from 1); its seed
  std::uint64_t seed = 0;
  std::size_t found_steps = 0;        // before shrinking
  double shrink_seconds = 0;
  std::uint64_t shrink_runs = 0;
};

struct SearchResult {
  enum class Outcome : std::uint8_t { kOk, kFailed, kBounded };
  Outcome outcome = Outcome::kOk;
  std::uint64_t schedules = 0;  // random: schedules run; every: end states judged
  std::uint64_t states = 0;     // every: distinct states
  std::uint64_t judged = 0;     // complete snapshots judged
  std::string bound;            // kBounded: "states" or "seconds"
  std::optional<Failure> failure;
  double seconds = 0;
};

SearchResult Search(Nodes* nodes, const SearchOptions& options);

// Plays `path` with `skipped` commands left out: a step the state does not
// allow is passed over, and once the path is spent the first step allowed
// is taken until none is (commands first, then channels in order). The
// steps taken, and the verdict or the program's fault.
struct Played {
  std::vector<Step> path;
  StatusOr<Verdict> verdict = Verdict{};
};
Played Play(Nodes* nodes, const Rules& rules, const std::vector<Step>& path, Lang lang);

}  // namespace cutline::harness
