// `cutline explore FILE`: a scenario's network and commands taken as a
// nondeterministic system. Its transfers, snapshot starts and the other
// commands happen in the order written (with `starts_anywhere`, each
// snapshot start may also happen at any point between them); every order of
// deliveries the network allows is explored (a FIFO channel's head, or on
// channels that reorder any waiting message), breadth first. Every snapshot
// that completes in a reachable state is judged by the one judge
// (check::CheckRun), so the answer is either that it is right in every
// schedule, or the shortest schedule that breaks it, as a scenario anyone can
// run (every `deliver` written out), with the judge's findings.
//
// Two schedules meet in one state only when nothing that comes after can
// tell them apart (docs/design.md, "Every schedule"). The visited states
// are kept as 64-bit fingerprints of that state's key, as TLC keeps them:
// two different states could share one, and the result says how likely
// that was (Result::collision_chance); Options::exact keeps the keys whole.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/lang.h"
#include "base/status.h"
#include "scenario/runner.h"

namespace cutline::explore {

// How far a search has gone, while it runs (Options::progress).
struct Progress {
  std::uint64_t states = 0;  // distinct states met so far
  std::size_t depth = 0;     // every schedule of up to this many steps is explored
  std::uint64_t queued = 0;  // states waiting to be explored (one queued again counts again)
  double seconds = 0;
};

struct Options {
  // Each snapshot start may happen at any point, not only where written.
  bool starts_anywhere = false;
  // Bounds (0: none): distinct states, and seconds of search.
  std::uint64_t max_states = 0;
  double max_seconds = 0;
  // Visited-state hashing: schedules that reach one state are explored on
  // from it once. Off for measuring it, and for the tests that hold the
  // reduced search to the full one.
  bool hashing = true;
  // The visited set keeps each state's key whole: no two states are ever
  // taken for one. Off (the default), it keeps a fingerprint of the key
  // (Result::collision_chance says what that could hide); the tests that
  // compare searches keep it on.
  bool exact = false;
  // The fingerprint's width: 64, or fewer for the test that makes
  // collisions happen and sees them counted.
  int fingerprint_bits = 64;
  // Partial-order reduction: once every written command has run, on FIFO
  // channels, only one branch's deliveries are taken from a state when no
  // other step can interfere with them (explore.cc, Choices). Off for
  // measuring it, and for the tests that hold it to the full search.
  bool reduction = true;
  // Sleep sets: two steps that commute (deliveries at different branches,
  // a command and a delivery that touch no branch in common) are taken in
  // one order only (explore.cc, Independent). Off for measuring them, and
  // for the tests that hold them to the full search.
  bool sleep_sets = true;
  // Schedules longer than this many steps are not explored (0: no bound);
  // a search that meets it is bounded ("depth").
  std::size_t max_depth = 0;
  // For the tests that hold the reductions to the full search: keep the
  // states where nothing more can happen (Result::end_states).
  bool keep_end_states = false;
  // Called about every `progress_every` seconds while the search runs, as
  // TLC reports its progress: `cutline explore` prints it on stderr, so
  // that a search of minutes is not silent. None: no calls.
  std::function<void(const Progress&)> progress;
  double progress_every = 10;
  // What the scenario as written may cost (the server's, scenario/runner.h);
  // past them it is refused before any search.
  scenario::Limits limits;
  Lang lang = Lang::kEn;
};

enum class Outcome : std::uint8_t {
  kRight,    // every complete snapshot of every reachable state passes, and
             // every snapshot started completes in every schedule
  kBroken,   // a schedule breaks it: `counterexample`, `findings`
  kBounded,  // a bound stopped the search first (`bound` says which)
  kNothing,  // no schedule starts a snapshot: nothing judged, no verdict
};

struct Result {
  Outcome outcome = Outcome::kRight;
  std::uint64_t states = 0;       // distinct states reached
  std::uint64_t transitions = 0;  // steps taken from them
  // Complete schedules: paths from the start to a state where nothing more
  // can happen (every command done, or the next one impossible, and nothing
  // deliverable). A double: there are often more than 2^64.
  double schedules = 0;
  std::uint64_t snapshots_judged = 0;
  // Steps of the longest schedule explored to its end; kBounded: the steps
  // up to which every schedule was explored.
  std::size_t depth = 0;
  double seconds = 0;
  // kBroken: the shortest breaking schedule as scenario lines (the network
  // line, then one command a step), and the judge's findings on it; or,
  // with `never_completes`, a shortest schedule after which nothing more
  // can happen while a snapshot started is not complete, and one finding a
  // snapshot so left (check::Findings::NeverCompletes).
  std::vector<std::string> counterexample;
  std::vector<std::string> findings;
  bool never_completes = false;
  // With fingerprints (not Options::exact, with hashing): an upper bound on
  // the chance that two different states met shared a fingerprint, so that
  // the second was taken for the first and its future left out. Each step's
  // state is compared with at most `states` fingerprints, each equal by
  // chance with odds 2^-bits: at most transitions * states / 2^bits.
  // Negative: exact (no chance).
  double collision_chance = -1;
  // kBounded: "states", "seconds" or "depth".
  std::string bound;
  // With keep_end_states, kRight or kNothing: every state reached where
  // nothing more can happen, each as the visited-state key says it (sorted,
  // once each), so that two searches can be compared.
  std::vector<std::string> end_states;
};

// Refused as `cutline run` refuses it (one line, with its line number) when
// the scenario as written does not run.
StatusOr<Result> Explore(std::string_view scenario, const Options& options);

}  // namespace cutline::explore
