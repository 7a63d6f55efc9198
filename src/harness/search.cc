#include "harness/search.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <random>
#include <unordered_set>

#include "catalogue/messages.h"

namespace cutline::harness {

namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

bool Fails(const Played& p) { return !p.verdict.ok() || !p.verdict->ok(); }

// What a failed play says: the judge's findings, or the program's fault.
Failure FailureOf(const Played& p, const Rules& rules, Lang lang) {
  Failure f;
  f.path = p.path;
  f.skipped = rules.skipped;
  if (!p.verdict.ok()) {
    f.fault = true;
    f.findings.push_back(catalogue::Message(p.verdict.status(), lang));
  } else {
    f.findings = p.verdict->findings;
  }
  return f;
}

SearchResult Every(Nodes* nodes, const SearchOptions& o);

// A state by what each node was given, in its order: a history's number in
// the trie depends on the order the search met it, these words do not.
std::string Inputs(const Nodes& nodes, const State& s) {
  std::string out;
  for (std::uint32_t n = 0; n < s.local.size(); ++n) {
    std::vector<std::string> lines;
    for (std::uint32_t h = s.local[n]; h != Nodes::kRoot; h = nodes.local(h).parent) {
      lines.push_back(nodes.InputLine(n, nodes.local(h).input));
    }
    std::reverse(lines.begin(), lines.end());
    for (const std::string& line : lines) out += line + "\n";
    out += "--\n";
  }
  return out;
}

// The most the shrinker's last pass searches: every schedule of two or three
// commands, a few seconds even for a Python node; past it the pass gives up.
constexpr std::uint64_t kShrinkStates = 5000;
constexpr double kShrinkSeconds = 10;
// And all its searches together, from the shrinking's start.
constexpr double kShrinkBudget = 30;

// A shorter failure in place of *f, which keeps where it was found and
// what the shrinking has cost so far.
void Replace(Failure shorter, Failure* f) {
  shorter.schedule = f->schedule;
  shorter.seed = f->seed;
  shorter.found_steps = f->found_steps;
  shorter.shrink_runs = f->shrink_runs;
  *f = std::move(shorter);
}

// Shorter while it still fails: leave commands out (each a transfer's
// messages or a snapshot's, the most that one change removes), then remove
// single steps (a step removed is taken later, when the schedule is spent,
// if at all: removing reorders too). Accepts only a strictly shorter
// schedule, so it ends. Last, the every schedule of a few of the commands
// left is searched breadth-first (below), each within kShrinkStates and
// kShrinkSeconds.
void Shrink(Nodes* nodes, const Rules& base, Lang lang, Failure* f) {
  const auto start = Clock::now();
  f->found_steps = f->path.size();
  Rules rules = base;
  rules.skipped = f->skipped;
  rules.skipped.resize(nodes->workload().commands.size(), false);
  auto attempt = [&](const Rules& r, const std::vector<Step>& path) -> bool {
    ++f->shrink_runs;
    Played p = Play(nodes, r, path, lang);
    if (!Fails(p) || p.path.size() >= f->path.size()) return false;
    Replace(FailureOf(p, r, lang), f);
    rules = r;
    return true;
  };
  for (bool progress = true; progress;) {
    progress = false;
    for (std::size_t c = rules.skipped.size(); c-- > 0;) {
      if (rules.skipped[c]) continue;
      Rules fewer = rules;
      fewer.skipped[c] = true;
      progress |= attempt(fewer, f->path);
    }
    for (std::size_t i = f->path.size(); i-- > 0;) {
      if (i >= f->path.size()) continue;
      std::vector<Step> path = f->path;
      path.erase(path.begin() + static_cast<std::ptrdiff_t>(i));
      progress |= attempt(rules, path);
    }
  }
  // Every schedule of one command, then of each pair of those left, then
  // of all of them: the first failure found is a shortest one of its
  // workload. (A failure may need two commands, a snapshot and a transfer
  // in flight across its cut, where removing any single one of three
  // spoils it.)
  std::vector<std::size_t> left;
  for (std::size_t c = 0; c < rules.skipped.size(); ++c) {
    if (!rules.skipped[c]) left.push_back(c);
  }
  auto search = [&](const std::vector<std::size_t>& keep) {
    const double left_s = kShrinkBudget - Since(start);
    if (left_s <= 0) return false;
    SearchOptions every;
    every.every = true;
    every.rules = rules;
    every.rules.skipped.assign(rules.skipped.size(), true);
    for (std::size_t c : keep) every.rules.skipped[c] = false;
    every.max_states = kShrinkStates;
    every.max_seconds = std::min(kShrinkSeconds, left_s);
    every.shrink = false;
    every.lang = lang;
    SearchResult r = Every(nodes, every);
    f->shrink_runs += r.schedules;
    if (!r.failure || r.failure->path.size() >= f->path.size()) return false;
    Replace(std::move(*r.failure), f);
    return true;
  };
  bool found = false;
  for (std::size_t i = 0; i < left.size() && !found; ++i) found = search({left[i]});
  // A snapshot and a transfer first: the commonest failure's shape, and
  // a far smaller search than two snapshots'.
  const auto& commands = nodes->workload().commands;
  for (bool mixed : {true, false}) {
    for (std::size_t i = 0; i < left.size() && !found; ++i) {
      for (std::size_t j = i + 1; j < left.size() && !found; ++j) {
        if ((commands[left[i]].kind != commands[left[j]].kind) == mixed) {
          found = search({left[i], left[j]});
        }
      }
    }
  }
  if (!found && left.size() > 2) search(left);
  f->shrink_seconds = Since(start);
}

SearchResult Random(Nodes* nodes, const SearchOptions& o) {
  SearchResult result;
  const auto start = Clock::now();
  for (std::uint64_t k = 1; k <= o.schedules; ++k) {
    if (o.max_seconds > 0 && Since(start) > o.max_seconds) {
      result.outcome = SearchResult::Outcome::kBounded;
      result.bound = "seconds";
      break;
    }
    const std::uint64_t seed = o.seed + k - 1;
    std::mt19937_64 rng(seed);
    World world(nodes, o.rules);
    std::vector<Step> path;
    StatusOr<State> s = world.Start();
    while (s.ok()) {
      const std::vector<Step> steps = world.Enabled(*s);
      if (steps.empty()) break;
      Step step = steps[rng() % steps.size()];
      if (step.kind == Step::Kind::kDeliver && o.lose > 0) {
        const std::uint32_t m = s->channels[world.ChannelOf(step.from, step.to)][step.index];
        if (!nodes->message(m).transfer &&
            std::uniform_real_distribution<double>(0, 1)(rng) < o.lose) {
          step.kind = Step::Kind::kDrop;
        }
      }
      path.push_back(step);
      s = world.Apply(*s, step);
    }
    Played played{path, s.ok() ? Judge(world, path, o.lang) : StatusOr<Verdict>(s.status())};
    ++result.schedules;
    if (Fails(played)) {
      Failure f = FailureOf(played, world.rules(), o.lang);
      f.schedule = k;
      f.seed = seed;
      f.found_steps = path.size();
      if (o.shrink) Shrink(nodes, world.rules(), o.lang, &f);
      result.failure = std::move(f);
      result.outcome = SearchResult::Outcome::kFailed;
      break;
    }
    result.judged += played.verdict->judged;
  }
  result.seconds = Since(start);
  return result;
}

// Breadth-first: states by depth, each kept with the step that first
// reached it, so that its path is rebuilt from the start.
SearchResult Every(Nodes* nodes, const SearchOptions& o) {
  SearchResult result;
  const auto start = Clock::now();
  World world(nodes, o.rules);
  struct Seen {
    std::uint32_t parent;
    Step step;
  };
  std::vector<Seen> seen;
  std::unordered_set<std::string> keys;
  std::deque<std::pair<std::uint32_t, State>> frontier;
  auto path_to = [&](std::uint32_t i) {
    std::vector<Step> path;
    for (; i != 0; i = seen[i].parent) path.push_back(seen[i].step);
    std::reverse(path.begin(), path.end());
    return path;
  };
  auto fail = [&](Played played) {
    Failure f = FailureOf(played, world.rules(), o.lang);
    f.found_steps = played.path.size();
    if (o.shrink) Shrink(nodes, world.rules(), o.lang, &f);
    result.failure = std::move(f);
    result.outcome = SearchResult::Outcome::kFailed;
  };
  StatusOr<State> s0 = world.Start();
  if (!s0.ok()) {
    fail(Played{{}, s0.status()});
    result.seconds = Since(start);
    return result;
  }
  seen.push_back({0, {}});
  keys.insert(s0->Key());
  frontier.emplace_back(0, std::move(*s0));
  while (!frontier.empty()) {
    auto [index, state] = std::move(frontier.front());
    frontier.pop_front();
    const std::vector<Step> steps = o.reduction ? world.Ample(state) : world.Enabled(state);
    if (steps.empty()) {
      if (o.end_states != nullptr) o.end_states->push_back(Inputs(*nodes, state));
      std::vector<Step> path = path_to(index);
      Played played{path, Judge(world, path, o.lang)};
      ++result.schedules;
      if (Fails(played)) {
        fail(std::move(played));
        break;
      }
      result.judged += played.verdict->judged;
      continue;
    }
    for (const Step& step : steps) {
      StatusOr<State> next = world.Apply(state, step);
      if (!next.ok()) {
        std::vector<Step> path = path_to(index);
        path.push_back(step);
        fail(Played{path, next.status()});
        break;
      }
      if (!keys.insert(next->Key()).second) continue;
      seen.push_back({index, step});
      frontier.emplace_back(static_cast<std::uint32_t>(seen.size() - 1), std::move(*next));
    }
    if (result.failure) break;
    if (o.max_states > 0 && seen.size() >= o.max_states) {
      result.bound = "states";
    } else if (o.max_seconds > 0 && Since(start) > o.max_seconds) {
      result.bound = "seconds";
    }
    if (!result.bound.empty() && !frontier.empty()) {
      result.outcome = SearchResult::Outcome::kBounded;
      break;
    }
    result.bound.clear();
  }
  result.states = seen.size();
  result.seconds = Since(start);
  return result;
}

}  // namespace

Played Play(Nodes* nodes, const Rules& rules, const std::vector<Step>& path, Lang lang) {
  World world(nodes, rules);
  Played played;
  StatusOr<State> s = world.Start();
  auto take = [&](const Step& step) {
    played.path.push_back(step);
    s = world.Apply(*s, step);
  };
  for (const Step& step : path) {
    if (!s.ok()) break;
    if (world.Allows(*s, step)) take(step);
  }
  while (s.ok()) {
    const std::vector<Step> steps = world.Enabled(*s);
    if (steps.empty()) break;
    take(steps.front());
  }
  played.verdict = s.ok() ? Judge(world, played.path, lang) : StatusOr<Verdict>(s.status());
  return played;
}

SearchResult Search(Nodes* nodes, const SearchOptions& options) {
  return options.every ? Every(nodes, options) : Random(nodes, options);
}

}  // namespace cutline::harness
