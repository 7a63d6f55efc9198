// Breadth-first search over a scenario's schedules. A state is an engine
// and how far the written commands have gone; each state met is remembered
// by its key's fingerprint (Fingerprints) and how it was first reached
// (Reached), and the frontier holds only states' numbers: a state is
// rebuilt by replaying its path from the start when its turn comes
// (Search::Rebuild), its children made from it by copying it, keyed, and
// let go. Each step runs the next command, the next snapshot start (with
// starts_anywhere), or one delivery the network allows, save those the
// reductions leave out (an ample set, Reduced; sleep sets, Independent).
// Each step that completes a snapshot is judged; each state with no step
// left must have every snapshot started complete.
#include "explore/explore.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <set>
#include <type_traits>
#include <unordered_map>
#include <variant>

#include "base/check.h"
#include "base/overloaded.h"
#include "check/consistency_checker.h"
#include "check/findings.h"
#include "engine/engine.h"
#include "scenario/parser.h"
#include "scenario/run_record.h"
#include "scenario/runner.h"

namespace cutline::explore {

namespace {

using engine::Engine;
using scenario::Command;
using sim::ChannelId;
using sim::NodeId;
using sim::Seq;

// A command as written: what it asks, and its line without its comment.
struct Written {
  Command command;
  std::string text;
};

// One step of a schedule.
struct Choice {
  // SleepSets packs the kind in 2 bits, 3 being its own escape.
  enum class Kind : std::uint8_t { kCommand = 0, kStart = 1, kDeliver = 2 };
  Kind kind = Kind::kCommand;
  std::uint32_t index = 0;  // kCommand, kStart: which written one
  ChannelId channel = 0;    // kDeliver: the channel, and the at-th waiting
  std::uint32_t at = 1;
  bool operator==(const Choice&) const = default;
};

// A state of the frontier: its number in the graph, whose path rebuilds
// it (Search::Rebuild), and with sleep sets, which steps to take from it
// when it is met again with fewer asleep (Search::Revisit).
struct Queued {
  std::uint32_t id = 0;
  std::uint32_t again = 0;  // 0: every step; else 1 + its place in Layer::again
};
// The states of one depth, 8 bytes each (the frontier was a fifth of a
// search's memory as a vector a state), and the few queued again.
struct Layer {
  std::vector<Queued> states;
  std::vector<std::vector<Choice>> again;
};

// A state being explored, or one step from it.
struct State {
  Engine engine;
  std::uint32_t done = 0;     // written commands run
  std::uint32_t started = 0;  // snapshot starts run (starts_anywhere)
  std::uint64_t id = 0;       // in the graph
  std::vector<Choice> again;  // Queued::again
};

// One of a branch's events as a running snapshot sees it, in the
// visited-state key (Search::SeenBy).
struct Seen {
  ChannelId channel;   // kNoChannel: a step of the branch's own
  std::uint64_t what;  // the event's kind
  std::uint64_t name;  // the message's name, if any
};
constexpr ChannelId kNoChannel = std::numeric_limits<ChannelId>::max();

// How each state was first reached (at its fewest steps: the search is
// breadth first), for the counterexample. States are numbered in 32 bits
// (Search::kMostStates).
struct Reached {
  std::uint32_t parent = 0;
  Choice choice;
};

// The sleep sets, by state (Search::Revisit): one pool of choices, each
// packed in 4 bytes (8 for a delivery past a channel's head, on channels
// that reorder), and each state's place in it. Held as a vector a state,
// they were half of a search's memory (24 bytes, and a block of 16 bytes a
// choice with the allocator's own; about five choices a state on the
// 5-branch bank).
class SleepSets {
 public:
  // The set of the next state (states are added in their numbers' order).
  void Add(const std::vector<Choice>& set) {
    const std::size_t at = pool_.size();
    for (const Choice& c : set) Pack(c, &pool_);
    places_.push_back(Place(at, pool_.size() - at));
  }
  std::vector<Choice> Of(std::uint32_t id) const {
    std::vector<Choice> set;
    const std::uint64_t at = places_[id] >> kLengthBits, end = at + (places_[id] & kLengthMask);
    for (std::uint64_t i = at; i < end;) set.push_back(Unpack(&i));
    return set;
  }
  // State id's set is now `kept`, which it holds (so it fits in place).
  void Shrink(std::uint32_t id, const std::vector<Choice>& kept) {
    const std::uint64_t at = places_[id] >> kLengthBits;
    std::vector<std::uint32_t> words;
    for (const Choice& c : kept) Pack(c, &words);
    CUTLINE_CHECK(words.size() <= (places_[id] & kLengthMask));
    std::copy(words.begin(), words.end(), pool_.begin() + static_cast<std::ptrdiff_t>(at));
    places_[id] = Place(at, words.size());
  }

 private:
  // A place: where its set begins in the pool, and how many words.
  static constexpr int kLengthBits = 24;
  static constexpr std::uint64_t kLengthMask = (std::uint64_t{1} << kLengthBits) - 1;
  static std::uint64_t Place(std::uint64_t at, std::uint64_t length) {
    CUTLINE_CHECK(length <= kLengthMask && at < (std::uint64_t{1} << (64 - kLengthBits)));
    return at << kLengthBits | length;
  }
  // A choice's first word: its kind in the low 2 bits (3: a delivery with
  // its `at` in a second word), the command's index or the channel above.
  static constexpr std::uint32_t kDeliverAt = 3;
  static void Pack(const Choice& c, std::vector<std::uint32_t>* out) {
    const std::uint32_t which = c.kind == Choice::Kind::kDeliver ? c.channel : c.index;
    CUTLINE_CHECK(which < (1u << 30));
    const bool at = c.kind == Choice::Kind::kDeliver && c.at != 1;
    out->push_back(which << 2 | (at ? kDeliverAt : static_cast<std::uint32_t>(c.kind)));
    if (at) out->push_back(c.at);
  }
  Choice Unpack(std::uint64_t* i) const {
    const std::uint32_t word = pool_[(*i)++];
    Choice c;
    const std::uint32_t kind = word & 3;
    c.kind = kind == kDeliverAt ? Choice::Kind::kDeliver : static_cast<Choice::Kind>(kind);
    (c.kind == Choice::Kind::kDeliver ? c.channel : c.index) = word >> 2;
    if (kind == kDeliverAt) c.at = pool_[(*i)++];
    return c;
  }
  std::vector<std::uint64_t> places_;  // by state: Place
  std::vector<std::uint32_t> pool_;
};

// Appends `v` as 8 bytes.
void Put(std::string& key, std::uint64_t v) { key.append(reinterpret_cast<const char*>(&v), 8); }

// A 64-bit mix in which every bit of the input moves about half the
// output's bits (the finalizer of MurmurHash3).
std::uint64_t Mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

// The 128-bit product of a and b, its halves folded by xor (wyhash's
// "mum"): every bit of either moves about half of the result's.
std::uint64_t Mum(std::uint64_t a, std::uint64_t b) {
  const unsigned __int128 r = static_cast<unsigned __int128>(a) * b;
  return static_cast<std::uint64_t>(r) ^ static_cast<std::uint64_t>(r >> 64);
}

// A state's fingerprint: its key folded 16 bytes at a time through one
// 128-bit multiplication (as wyhash does; folding each 8-byte word through
// two rounds of Mix cost 7 % more of the search), each product xored into
// what came before (a block whose product is 0 keeps it, where wyhash would
// lose it), then Mix, cut to `bits`, never 0 (the empty slot's mark).
std::uint64_t Fingerprint(std::string_view key, int bits) {
  constexpr std::uint64_t kA = 0xa0761d6478bd642fULL, kB = 0xe7037ed1a0b428dbULL;
  std::uint64_t h = Mix(key.size() ^ 0x9e3779b97f4a7c15ULL);
  std::size_t i = 0;
  for (; i + 16 <= key.size(); i += 16) {
    std::uint64_t w[2];
    std::memcpy(w, key.data() + i, 16);
    h ^= Mum(w[0] ^ kA, w[1] ^ h ^ kB);
  }
  if (i < key.size()) {
    std::uint64_t w[2] = {0, 0};
    std::memcpy(w, key.data() + i, key.size() - i);
    h ^= Mum(w[0] ^ kA, w[1] ^ h ^ kB);
  }
  h = Mix(h);
  if (bits < 64) h &= (std::uint64_t{1} << bits) - 1;
  return h == 0 ? 1 : h;
}

// The visited states as fingerprints, each with its state's number, as
// TLC keeps them: open addressing in a power-of-two table of slots (a
// fingerprint, 0 when empty, and a number: 12 bytes), grown at three
// quarters full, so 16 to 32 bytes a state. A state's engine is never kept
// here; a counterexample's states are rebuilt by replaying its path.
class Fingerprints {
 public:
  // The number kept for fingerprint f, and false; or, f being new, `id`,
  // now kept for it, and true.
  std::pair<std::uint32_t, bool> TryEmplace(std::uint64_t f, std::uint32_t id) {
    if ((count_ + 1) * 4 > fps_.size() * 3) Grow();
    const std::size_t i = SlotOf(fps_, f);
    if (fps_[i] == f) return {ids_[i], false};
    fps_[i] = f;
    ids_[i] = id;
    ++count_;
    return {id, true};
  }

 private:
  // Where f is in `fps`, or the empty slot where it would go (linear probing).
  static std::size_t SlotOf(const std::vector<std::uint64_t>& fps, std::uint64_t f) {
    const std::size_t mask = fps.size() - 1;
    std::size_t i = Mix(f) & mask;
    while (fps[i] != 0 && fps[i] != f) i = (i + 1) & mask;
    return i;
  }

  void Grow() {
    std::vector<std::uint64_t> fps(std::max<std::size_t>(1024, fps_.size() * 2), 0);
    std::vector<std::uint32_t> ids(fps.size(), 0);
    for (std::size_t j = 0; j < fps_.size(); ++j) {
      if (fps_[j] == 0) continue;
      const std::size_t i = SlotOf(fps, fps_[j]);
      fps[i] = fps_[j];
      ids[i] = ids_[j];
    }
    fps_.swap(fps);
    ids_.swap(ids);
  }

  std::vector<std::uint64_t> fps_;
  std::vector<std::uint32_t> ids_;
  std::size_t count_ = 0;
};

class Search {
 public:
  Search(std::vector<Written> program, std::vector<Written> starts, const Options& options)
      : program_(std::move(program)),
        starts_(std::move(starts)),
        options_(options),
        max_states_(options.max_states != 0 ? std::min(options.max_states, kMostStates) : kMostStates) {}

  Result Run(Engine initial, const std::string& network_line) {
    network_line_ = network_line;
    const auto begin = std::chrono::steady_clock::now();
    auto elapsed = [&] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    };
    involved_ = Involved(initial, program_);
    involved_starts_ = Involved(initial, starts_);
    start_.emplace(std::move(initial));
    Layer layer;
    layer.states.push_back(Queued{0, 0});
    graph_.push_back(Reached{0, {}});
    ends_.push_back(false);
    sleep_.Add({});
    expanded_.push_back(false);
    if (options_.hashing) Visit(Rebuild(layer.states.front(), layer), 0);
    // A state of the layer with no step left, whose snapshots must all be
    // complete.
    auto ends_incomplete = [&](const Queued& q) {
      if (q.again != 0) return false;
      const State state = Rebuild(q, layer);
      return !HasStep(state) && NeverCompletes(state);
    };
    double next_report = options_.progress_every;  // Options::progress
    for (std::size_t depth = 0; !layer.states.empty(); ++depth) {
      if (options_.max_depth != 0 && depth == options_.max_depth) {
        // The schedules of exactly that many steps that end here are judged
        // too: every schedule up to the bound is.
        for (const Queued& q : layer.states) {
          if (ends_incomplete(q)) return Found(elapsed());
        }
        return Bounded("depth", elapsed(), depth);
      }
      Layer next;
      // A step from this layer broke a snapshot: a schedule of depth + 1
      // steps. Only one that ends in this layer with a snapshot left
      // incomplete is shorter: the rest of the layer is looked at for it.
      bool broken = false;
      for (const Queued& queued : layer.states) {
        if (broken) {
          if (ends_incomplete(queued)) break;
          continue;
        }
        const State state = Rebuild(queued, layer);
        // The steps asleep here are not taken: each was taken before this
        // state from a state whose schedules reorder into those through it.
        // A copy: Revisit changes sleep_ as the children are met.
        const std::vector<Choice> asleep = sleep_.Of(state.id);
        std::vector<Choice> taken;  // the steps taken from here, in order
        bool moved = false;  // some step is possible here, taken or not
        std::vector<std::pair<Choice, State>> steps = Steps(state, asleep, &moved);
        for (auto& [choice, child] : steps) {
          ++result_.transitions;
          if (Broken(state, child, choice)) {
            broken = true;
            break;
          }
          // The child's sleep set: the steps asleep here, and (on a first
          // exploration) those taken here before this one, that commute
          // with it.
          std::vector<Choice> sleep;
          if (options_.sleep_sets) {
            for (const Choice& t : asleep) {
              if (Independent(state, t, choice)) sleep.push_back(t);
            }
            for (const Choice& t : taken) {
              if (state.again.empty() && Independent(state, t, choice)) sleep.push_back(t);
            }
            taken.push_back(choice);
          }
          if (options_.hashing) {
            auto [met, fresh] = Visit(child, static_cast<std::uint32_t>(graph_.size()));
            if (!fresh) {
              // Met again (perhaps later, after it was explored: stopping
              // the world delivers many messages in one step): its future
              // is known; only the schedules through it are counted.
              edges_.emplace_back(state.id, met);
              if (options_.sleep_sets) Revisit(met, sleep, &next);
              continue;
            }
          }
          // Keyed and judged, the child is let go: its number and path
          // rebuild it when its turn comes.
          const auto id = static_cast<std::uint32_t>(graph_.size());
          edges_.emplace_back(state.id, id);
          graph_.push_back(Reached{static_cast<std::uint32_t>(state.id), choice});
          ends_.push_back(false);
          sleep_.Add(sleep);
          expanded_.push_back(false);
          next.states.push_back(Queued{id, 0});
          if (graph_.size() >= max_states_) {
            return Bounded("states", elapsed(), depth);
          }
        }
        expanded_[state.id] = true;
        if (broken) continue;
        if (!moved && NeverCompletes(state)) return Found(elapsed());
        // The clock read once a state, and only when a bound or a report needs it.
        const double now = options_.max_seconds > 0 || options_.progress ? elapsed() : 0;
        if (options_.max_seconds > 0 && now > options_.max_seconds) return Bounded("seconds", now, depth);
        if (options_.progress && now >= next_report) {
          const auto left = static_cast<std::uint64_t>(&layer.states.back() - &queued);
          options_.progress(Progress{graph_.size(), depth, left + next.states.size(), now});
          next_report = now + options_.progress_every;
        }
      }
      if (broken) return Found(elapsed());
      layer = std::move(next);
    }
    // Every schedule ran to its end with every snapshot it started complete:
    // right, unless none started one.
    result_.outcome = any_started_ ? Outcome::kRight : Outcome::kNothing;
    CountSchedules();
    std::sort(result_.end_states.begin(), result_.end_states.end());
    result_.end_states.erase(std::unique(result_.end_states.begin(), result_.end_states.end()),
                             result_.end_states.end());
    result_.seconds = elapsed();
    return std::move(result_);
  }

 private:
  // A counterexample kept (Broken, NeverCompletes): the search ends there.
  Result Found(double seconds) {
    result_.outcome = Outcome::kBroken;
    result_.end_states.clear();
    CountSchedules();
    result_.seconds = seconds;
    return std::move(result_);
  }

  // Stopped while taking the steps from the states `depth` steps deep: every
  // schedule of up to `depth` steps was explored.
  Result Bounded(const char* bound, double seconds, std::size_t depth) {
    result_.outcome = Outcome::kBounded;
    result_.bound = bound;
    result_.end_states.clear();
    CountSchedules();
    result_.depth = depth;
    result_.seconds = seconds;
    return std::move(result_);
  }

  // The schedules explored to their end, and the longest, over the graph of
  // states (a DAG: each step runs a command or delivers a message, which no
  // later step undoes), in topological order.
  void CountSchedules() {
    const std::size_t n = graph_.size();
    result_.states = n;
    if (options_.hashing && !options_.exact) {
      result_.collision_chance = std::min(
          1.0, static_cast<double>(result_.transitions) * static_cast<double>(n) /
                   std::ldexp(1.0, options_.fingerprint_bits));
    }
    // The steps sorted by where they start, in place: a state's are found
    // by a binary search (a vector of successors a state doubled the
    // search's memory at its very end).
    std::sort(edges_.begin(), edges_.end());
    std::vector<std::uint32_t> waiting(n, 0);
    for (const auto& edge : edges_) ++waiting[edge.second];
    std::vector<double> paths(n, 0);
    std::vector<std::uint32_t> longest(n, 0);
    paths[0] = 1;
    std::vector<std::uint32_t> ready = {0};
    while (!ready.empty()) {
      const std::uint32_t s = ready.back();
      ready.pop_back();
      if (ends_[s]) {
        result_.schedules += paths[s];
        result_.depth = std::max<std::size_t>(result_.depth, longest[s]);
      }
      auto from_s = std::lower_bound(edges_.begin(), edges_.end(), std::pair<std::uint32_t, std::uint32_t>(s, 0));
      for (; from_s != edges_.end() && from_s->first == s; ++from_s) {
        const std::uint32_t t = from_s->second;
        paths[t] += paths[s];
        longest[t] = std::max(longest[t], longest[s] + 1);
        if (--waiting[t] == 0) ready.push_back(t);
      }
    }
  }

  static bool Has(const std::vector<Choice>& set, const Choice& c) {
    return std::find(set.begin(), set.end(), c) != set.end();
  }

  // State `id` met again by a step whose sleep set is `sleep`. Only the
  // steps asleep on both ways may stay asleep (Godefroid's state caching
  // with sleep sets): before it is explored, its sleep set shrinks to them;
  // after, the steps asleep before and awake now are taken from it (queued
  // again, with them in `again`).
  void Revisit(std::uint32_t id, const std::vector<Choice>& sleep, Layer* next) {
    std::vector<Choice> both, woken;
    for (const Choice& t : sleep_.Of(id)) (Has(sleep, t) ? both : woken).push_back(t);
    if (woken.empty()) return;
    sleep_.Shrink(id, both);
    if (!expanded_[id]) return;
    next->again.push_back(std::move(woken));
    next->states.push_back(Queued{id, static_cast<std::uint32_t>(next->again.size())});
  }

  // State q.id, rebuilt by replaying its path from the start. The path is
  // the first that reached it; any other way to it has the same key, which
  // nothing after can tell apart.
  State Rebuild(const Queued& q, const Layer& layer) const {
    State s{*start_, 0, 0, q.id, q.again != 0 ? layer.again[q.again - 1] : std::vector<Choice>{}};
    for (const Choice& c : Path(q.id)) {
      const Status done = Apply(s, c);
      CUTLINE_CHECK(done.ok());  // it was taken once, from the same state
    }
    return s;
  }

  // What each written command touches: the branches it names (nullopt:
  // every branch, as stopping the world does). A command reads or changes
  // only those branches and the channels between them and others.
  static std::vector<std::optional<std::vector<NodeId>>> Involved(const Engine& e,
                                                                  const std::vector<Written>& written) {
    std::vector<std::optional<std::vector<NodeId>>> out;
    for (const Written& w : written) {
      std::vector<std::string> names;
      bool known = true;
      std::visit(Overloaded{
                     [&](const scenario::TransferCmd& t) { names = {t.from, t.to}; },
                     [&](const scenario::SnapshotCmd& sn) { names = {sn.branch}; },
                     [&](const scenario::ReadCmd& r) { names = {r.branch}; },
                     [&](const scenario::AppCmd& a) { names = a.branches; },
                     [&](const auto&) { known = false; },
                 },
                 w.command);
      std::vector<NodeId> nodes;
      for (const std::string& name : names) {
        if (std::optional<NodeId> n = e.FindBranch(name)) {
          nodes.push_back(*n);
        } else {
          known = false;
        }
      }
      out.push_back(known ? std::optional(std::move(nodes)) : std::nullopt);
    }
    return out;
  }

  // Whether steps a and b, both possible in s, commute and neither disables
  // the other, as the ample set's argument has it (Reduced): two deliveries
  // at different branches (each changes its own branch and appends at the
  // tails of its outputs, which moves no other channel's waiting messages);
  // a written command and a delivery on a channel neither end of which the
  // command names. Two commands are taken in their written order: never.
  bool Independent(const State& s, const Choice& a, const Choice& b) const {
    const engine::Network& net = s.engine.network();
    const bool da = a.kind == Choice::Kind::kDeliver, db = b.kind == Choice::Kind::kDeliver;
    if (da && db) return net.channel(a.channel).to != net.channel(b.channel).to;
    if (!da && !db) return false;
    const Choice& command = da ? b : a;
    const sim::ChannelInfo& ch = net.channel((da ? a : b).channel);
    const auto& touched = command.kind == Choice::Kind::kCommand ? involved_[command.index]
                                                                 : involved_starts_[command.index];
    if (!touched) return false;
    return std::find(touched->begin(), touched->end(), ch.from) == touched->end() &&
           std::find(touched->begin(), touched->end(), ch.to) == touched->end();
  }

  // The steps to take from s, each with the state it leads to: one
  // branch's deliveries alone when the reduction allows it (Reduced), else
  // every step possible; either way save those `asleep` or, when s is
  // queued again, not in s.again. Those are not made at all (a copy of the
  // engine is what a step costs most), save in a reduced set: a step that
  // completes a snapshot is seen (the judge looks at it), so a set holding
  // one is not taken alone, and each of its steps is made to see, then
  // reused among all of them. *moved: whether any step is possible from s,
  // taken or not.
  std::vector<std::pair<Choice, State>> Steps(const State& s, const std::vector<Choice>& asleep,
                                              bool* moved) const {
    auto wanted = [&](const Choice& c) { return !Has(asleep, c) && (s.again.empty() || Has(s.again, c)); };
    auto unwanted = [&](const auto& step) { return !wanted(step.first); };
    *moved = true;
    // Every step tried in a reduced set, kept for the fallback.
    std::vector<std::pair<Choice, State>> reduced;
    if (options_.reduction) {
      for (const std::vector<Choice>& only : Reduced(s)) {
        std::vector<std::pair<Choice, State>> taken;
        for (const Choice& c : only) TakeInto(s, c, &taken);
        const bool seen = std::any_of(taken.begin(), taken.end(),
                                      [&](const auto& step) { return Completes(s, step.second); });
        if (!seen && !taken.empty()) {
          std::erase_if(taken, unwanted);
          return taken;
        }
        for (auto& step : taken) reduced.push_back(std::move(step));
      }
    }
    std::vector<std::pair<Choice, State>> out;
    bool possible = false;     // a step not wanted was made: it is possible
    std::vector<Choice> left;  // steps not wanted nor made: possible, perhaps
    for (const Choice& c : Choices(s)) {
      auto made = std::find_if(reduced.begin(), reduced.end(), [&](const auto& step) { return step.first == c; });
      if (made != reduced.end()) {
        possible = true;
        if (wanted(c)) out.push_back(std::move(*made));
      } else if (!wanted(c)) {
        left.push_back(c);
      } else {
        TakeInto(s, c, &out);
      }
    }
    *moved = possible || !out.empty() ||
             std::any_of(left.begin(), left.end(), [&](const Choice& c) { return Possible(s, c); });
    return out;
  }

  // Choice c from s, with the state it leads to, onto *out if it is
  // possible there.
  void TakeInto(const State& s, const Choice& c, std::vector<std::pair<Choice, State>>* out) const {
    State child{s.engine, s.done, s.started, 0, {}};
    if (Apply(child, c).ok()) out->emplace_back(c, std::move(child));
  }

  // Whether any step can be taken from s (Steps, without keeping them).
  bool HasStep(const State& s) const {
    const std::vector<Choice> choices = Choices(s);
    return std::any_of(choices.begin(), choices.end(), [&](const Choice& c) { return Possible(s, c); });
  }

  // Whether choice c can be taken from s: Choices offers a delivery only
  // where one can be made; a command is tried on a copy.
  bool Possible(const State& s, const Choice& c) const {
    if (c.kind == Choice::Kind::kDeliver) return true;
    State child{s.engine, s.done, s.started, 0, {}};
    return Apply(child, c).ok();
  }

  static bool Completes(const State& before, const State& after) {
    std::size_t was = 0, now = 0;
    for (const engine::SnapshotInfo& info : before.engine.snapshots()) was += info.complete;
    for (const engine::SnapshotInfo& info : after.engine.snapshots()) now += info.complete;
    return now > was;
  }

  // What may happen next: the next written command, the next snapshot
  // start, and each delivery the network allows.
  std::vector<Choice> Choices(const State& s) const {
    std::vector<Choice> out;
    if (s.done < program_.size()) out.push_back({Choice::Kind::kCommand, s.done, 0, 1});
    if (s.started < starts_.size()) out.push_back({Choice::Kind::kStart, s.started, 0, 1});
    const engine::Network& net = s.engine.network();
    for (ChannelId c = 0; c < net.channel_count(); ++c) {
      if (net.Empty(c) || net.Held(c)) continue;
      const std::uint32_t ways = net.fifo() ? 1 : net.Size(c);
      for (std::uint32_t at = 1; at <= ways; ++at) out.push_back({Choice::Kind::kDeliver, 0, c, at});
    }
    return out;
  }

  // The partial-order reduction (an ample set): the deliveries waiting at
  // the first branch r whose deliveries nothing else can interfere with, in
  // place of every step. Deliveries at different branches commute, and
  // neither disables the other (a FIFO channel's head is not moved by a send
  // at its tail), so the schedules left out are reorderings of ones taken:
  // the same histories up to the order of independent steps, the same
  // verdicts, and the same lengths, so the shortest counterexample survives.
  // A written command commutes with them too unless it acts at r: it
  // changes its own branch and appends at the tails of that branch's
  // channels. What could interfere with r's deliveries is another step at r
  // before them, or a message arriving on one of r's empty inputs and
  // delivered first. So no written command left may act at r, nor the world
  // be left to stop; and each empty input's sender q must send nothing more
  // on it: no command left at q sends there (a snapshot start sends on every
  // output, and under broken-late-markers so does any message q sends, its
  // held markers going with it), q has recorded every snapshot there is,
  // and no snapshot is left to start (its markers would make q record, and
  // send, again). Channels that reorder are not reduced (a message sent
  // later may be delivered first).
  // The candidate sets, one per branch whose deliveries nothing can
  // interfere with, in the branches' order (Steps takes the first whose
  // steps complete no snapshot).
  std::vector<std::vector<Choice>> Reduced(const State& s) const {
    const Engine& e = s.engine;
    const engine::Network& net = e.network();
    if (!net.fifo() || s.started < starts_.size()) return {};
    const std::size_t n = e.branch_count();
    // Of the commands left: the branches they act at, where they send
    // (sends[q * n + t]: on q->t; every[q]: on every output of q), and
    // whether one starts a snapshot.
    std::vector<bool> acts(n, false), every(n, false), sends(n * n, false);
    bool snapshot_left = false;
    const bool late_markers = e.algorithm().traits().markers_after_next_transfer;
    auto branch = [&](const std::string& name) { return e.FindBranch(name); };
    auto sending = [&](std::optional<NodeId> q, std::optional<NodeId> t) {
      if (!q) return;
      acts[*q] = true;
      if (late_markers) every[*q] = true;
      if (t) sends[*q * n + *t] = true;
    };
    for (std::size_t i = s.done; i < program_.size(); ++i) {
      const Command& c = program_[i].command;
      if (std::holds_alternative<scenario::StopTheWorldCmd>(c)) return {};
      std::visit(Overloaded{
                     [&](const scenario::TransferCmd& t) { sending(branch(t.from), branch(t.to)); },
                     [&](const scenario::SnapshotCmd& sn) {
                       snapshot_left = true;
                       if (std::optional<NodeId> q = branch(sn.branch)) {
                         acts[*q] = true;
                         every[*q] = true;
                       }
                     },
                     [&](const scenario::ReadCmd& r) {
                       if (std::optional<NodeId> q = branch(r.branch)) acts[*q] = true;
                     },
                     [&](const scenario::AppCmd& a) {
                       if (a.branches.empty()) return;
                       sending(branch(a.branches[0]),
                               a.branches.size() > 1 ? branch(a.branches[1]) : std::nullopt);
                     },
                     [](const auto&) {},
                 },
                 c);
    }
    // q sends nothing more on q->r.
    auto silent = [&](NodeId q, NodeId r) {
      if (snapshot_left || every[q] || sends[q * n + r]) return false;
      for (const engine::SnapshotInfo& info : e.snapshots()) {
        if (!e.HasRecorded(q, info.id)) return false;
      }
      return true;
    };
    std::vector<std::vector<Choice>> sets;
    for (NodeId r = 0; r < n; ++r) {
      if (acts[r]) continue;
      std::vector<Choice> only;
      bool safe = true;
      for (ChannelId c : net.Incoming(r)) {
        if (net.Empty(c)) {
          safe = safe && silent(net.channel(c).from, r);
        } else if (!net.Held(c)) {
          only.push_back({Choice::Kind::kDeliver, 0, c, 1});
        }
      }
      if (safe && !only.empty()) sets.push_back(std::move(only));
    }
    return sets;
  }

  Status Apply(State& s, const Choice& c) const {
    switch (c.kind) {
      case Choice::Kind::kCommand: {
        Status done = scenario::ApplyCommand(s.engine, program_[c.index].command);
        if (done.ok()) ++s.done;
        return done;
      }
      case Choice::Kind::kStart: {
        Status done = scenario::ApplyCommand(s.engine, starts_[c.index].command);
        if (done.ok()) ++s.started;
        return done;
      }
      case Choice::Kind::kDeliver: {
        const sim::ChannelInfo& ch = s.engine.network().channel(c.channel);
        return s.engine.Deliver(ch.from, ch.to, c.at);
      }
    }
    return Status::Ok();
  }

  // Judges the snapshots the step completed; true, with the counterexample
  // and the findings kept, if one fails.
  bool Broken(const State& before, const State& after, const Choice& choice) {
    std::set<SnapshotId> completed;
    for (const engine::SnapshotInfo& info : after.engine.snapshots()) {
      if (!info.complete) continue;
      const engine::SnapshotInfo* was = before.engine.FindSnapshot(info.id);
      if (was == nullptr || !was->complete) completed.insert(info.id);
    }
    if (completed.empty()) return false;
    check::RunRecord run = scenario::RunOf(after.engine);
    std::erase_if(run.claims, [&](const check::SnapshotClaim& c) { return !completed.contains(c.id); });
    result_.snapshots_judged += completed.size();
    check::CheckReport report = check::CheckRun(run, options_.lang);
    if (report.ok()) return false;
    std::vector<Choice> steps = Path(before.id);
    steps.push_back(choice);
    Keep(after.engine, steps, std::move(report.problems));
    result_.never_completes = false;
    return true;
  }

  // A state where nothing more can happen (no delivery, no command that can
  // run): it ends its schedules, and every snapshot started must be
  // complete there, for nothing will ever complete it. True, with the
  // counterexample and a finding for each snapshot left incomplete kept, if
  // one is not. Its cause is said where the engine knows it (a branch that
  // keeps its markers until a transfer that never comes); else who never
  // recorded and which recorded branch's channels never closed.
  bool NeverCompletes(const State& s) {
    ends_[s.id] = true;
    if (options_.keep_end_states) result_.end_states.push_back(Key(s));
    const Engine& e = s.engine;
    any_started_ = any_started_ || !e.snapshots().empty();
    const check::Findings& say = check::FindingsIn(options_.lang);
    std::vector<std::string> findings;
    for (const engine::SnapshotInfo& info : e.snapshots()) {
      if (info.complete) continue;
      std::vector<std::string> holding, unrecorded, open;
      for (NodeId n = 0; n < e.branch_count(); ++n) {
        if (e.HoldsMarkers(n, info.id)) holding.push_back(e.name(n));
      }
      for (NodeId n = 0; holding.empty() && n < e.branch_count(); ++n) {
        if (!e.HasRecorded(n, info.id)) {
          unrecorded.push_back(e.name(n));
          continue;
        }
        if (e.PartDone(n, info.id)) continue;
        for (ChannelId c : e.network().Incoming(n)) {
          if (e.RecordedChannel(info.id, c).state != ChannelRecording::kClosed) {
            open.push_back(ChannelText(e.name(e.network().channel(c).from), e.name(n)));
          }
        }
      }
      findings.push_back(say.NeverCompletes(info.id, holding, unrecorded, open));
    }
    if (findings.empty()) return false;
    Keep(e, Path(s.id), std::move(findings));
    result_.never_completes = true;
    return true;
  }

  // The steps from the start to state `id`: its first parents', reversed.
  std::vector<Choice> Path(std::uint64_t id) const {
    std::vector<Choice> steps;
    for (; id != 0; id = graph_[id].parent) steps.push_back(graph_[id].choice);
    std::reverse(steps.begin(), steps.end());
    return steps;
  }

  // The counterexample, as scenario lines, and its findings.
  void Keep(const Engine& e, const std::vector<Choice>& steps, std::vector<std::string> findings) {
    result_.counterexample = {network_line_};
    for (const Choice& c : steps) result_.counterexample.push_back(Line(e, c));
    result_.findings = std::move(findings);
  }

  // A step as a scenario line.
  std::string Line(const Engine& e, const Choice& c) const {
    switch (c.kind) {
      case Choice::Kind::kCommand: return program_[c.index].text;
      case Choice::Kind::kStart: return starts_[c.index].text;
      case Choice::Kind::kDeliver: {
        const sim::ChannelInfo& ch = e.network().channel(c.channel);
        std::string line = fmt::format("deliver {} {}", e.name(ch.from), e.name(ch.to));
        if (c.at > 1) line += fmt::format(" at={}", c.at);
        return line;
      }
    }
    return {};
  }

  // Marks s visited as state `id` unless a state with its key (exact) or
  // its fingerprint was: then that state's number, and false.
  std::pair<std::uint32_t, bool> Visit(const State& s, std::uint32_t id) {
    KeyInto(s, &key_);
    if (options_.exact) {
      auto [it, fresh] = exact_.try_emplace(key_, id);
      return {it->second, fresh};
    }
    return fingerprints_.TryEmplace(Fingerprint(key_, options_.fingerprint_bits), id);
  }

  std::string Key(const State& s) const {
    std::string key;
    KeyInto(s, &key);
    return key;
  }

  // The state as what comes after can see it, in bytes. Two schedules with
  // one key have the same future and the judge cannot tell them apart:
  //  - how far the commands went; every balance; every queue, each message
  //    named by its channel and its place among the channel's sends (a
  //    schedule's message numbers depend on the order of independent
  //    steps; the count of sends on a channel does not), with its payload
  //    and its tag; which channels are held; every snapshot's progress;
  //  - and for each running snapshot, what its verdict and each branch's
  //    part in it can still tell apart of the branches' own events (SeenBy):
  //    each branch's order, not how independent steps interleave (the
  //    judge's verdict depends on each branch's order and which send each
  //    receipt matches), and of that order only what that snapshot reads.
  void KeyInto(const State& s, std::string* out) const {
    const Engine& e = s.engine;
    const engine::Network& net = e.network();
    std::string& key = *out;
    key.clear();
    Put(key, s.done);
    Put(key, s.started);
    for (NodeId n = 0; n < e.branch_count(); ++n) Put(key, static_cast<std::uint64_t>(e.state(n)));
    // Each message's place on its channel, from the sends.
    const auto& events = e.history().events();
    // By Seq: the network numbers its messages 1, 2, ... (last_seq).
    std::vector<std::uint64_t>& place = scratch_.place;
    std::vector<std::uint64_t>& sends = scratch_.sends;
    place.assign(net.last_seq() + 1, 0);
    sends.assign(net.channel_count(), 0);
    auto sent = [&](Seq seq, ChannelId c) { place[seq] = c + (++sends[c] << 20); };
    for (const history::Event& ev : events) {
      if (const auto* t = std::get_if<history::Sent<history::Transfer>>(&ev)) sent(t->seq, t->channel);
      if (const auto* m = std::get_if<history::Sent<history::Marker>>(&ev)) sent(m->seq, m->channel);
    }
    auto name = [&](Seq seq) -> std::uint64_t { return seq < place.size() ? place[seq] : 0; };
    for (ChannelId c = 0; c < net.channel_count(); ++c) {
      Put(key, (static_cast<std::uint64_t>(net.Held(c)) << 32) | net.Size(c));
      net.ForEachQueued(c, [&](const engine::Network::Msg& m) {
        Put(key, name(m.seq));
        if (const auto* t = std::get_if<history::Transfer>(&m.payload)) {
          Put(key, static_cast<std::uint64_t>(t->amount) * 2);
        } else {
          Put(key, std::get<history::Marker>(m.payload).snapshot * 2 + 1);
        }
        Put(key, e.MessageTag(m.seq));
      });
    }
    std::vector<SnapshotId> running;
    for (const engine::SnapshotInfo& info : e.snapshots()) {
      Put(key, info.id);
      Put(key, (static_cast<std::uint64_t>(info.complete) << 32) | info.parts_done);
      for (NodeId n : info.initiators) Put(key, n);
      if (!info.complete) running.push_back(info.id);
    }
    for (SnapshotId id : running) {
      Put(key, id);
      SeenBy(e, id, name, &key);
    }
  }

  // What running snapshot `id` can still tell apart, for each branch: its
  // events since `id` began (before, every message sent is inside its cut,
  // so what it did is in the balances and queues) that `id`'s verdict and
  // the branch's part in it read. Those are the transfers' sends and
  // receipts, `id`'s own markers, records, closes and part done, any step
  // of the branch's own, and any overtaking; another snapshot's markers and
  // records are not (each snapshot is judged apart, and the agents keep
  // each snapshot's state apart), save the last receipt before a record.
  // And of their order, only what the judge reads:
  //  - before the branch records, nothing but which side of the record
  //    each event falls on (the cut; a channel's state begins at the
  //    record): they are kept as a set. The record keeps what the order
  //    made: the branch's state then and before its last receipt (the
  //    judge replays both: its balance at the cut, a record a transfer
  //    caused), and that receipt's name and kind (the judge's "its cause
  //    must be its branch's last receipt");
  //  - after, each channel's events in their order (its recorded state,
  //    where it closed, its marker before anything else sent on it), not
  //    how different channels' interleave: the state at the cut is fixed,
  //    and what the branch does next reads only its state now (in the
  //    key) and each channel's recording apart. Its part done stays in
  //    place.
  template <class Name>
  void SeenBy(const Engine& e, SnapshotId id, const Name& name, std::string* key) const {
    const engine::Network& net = e.network();
    const apps::App app = e.app();
    const auto& events = e.history().events();
    const std::size_t n_branches = e.branch_count();
    // Each branch's state as the history replays it, and before its last
    // receipt.
    // Each key reuses the buffers of the one before (Scratch).
    std::vector<Amount>& state = scratch_.state;
    std::vector<Amount>& before_last = scratch_.before_last;
    std::vector<std::uint64_t>& last = scratch_.last;
    std::vector<bool>& recorded = scratch_.recorded;
    std::vector<std::vector<Seen>>& items = scratch_.items;
    std::vector<std::string>& own = scratch_.own;
    state.resize(n_branches);
    before_last.resize(n_branches);
    for (NodeId n = 0; n < n_branches; ++n) state[n] = before_last[n] = e.initial_balance(n);
    last.assign(n_branches, 0);
    recorded.assign(n_branches, false);
    items.resize(n_branches);
    own.resize(n_branches);
    for (NodeId n = 0; n < n_branches; ++n) {
      items[n].clear();
      own[n].clear();
    }
    // The items since the last flush into own[n]: before the record, all
    // of them, sorted; after, by channel, each channel's in order.
    auto flush = [&](NodeId n) {
      std::vector<Seen>& held = items[n];
      if (recorded[n]) {
        std::stable_sort(held.begin(), held.end(),
                         [](const Seen& a, const Seen& b) { return a.channel < b.channel; });
      } else {
        std::sort(held.begin(), held.end(), [](const Seen& a, const Seen& b) {
          return std::tie(a.channel, a.what, a.name) < std::tie(b.channel, b.what, b.name);
        });
      }
      for (const Seen& r : held) {
        Put(own[n], r.what);
        Put(own[n], r.name);
      }
      held.clear();
    };
    bool begun = false;
    for (const history::Event& ev : events) {
      const NodeId n = history::NodeOf(ev, net);
      if (!begun) {
        const auto* r = std::get_if<history::Recorded>(&ev);
        begun = r != nullptr && r->snapshot == id;
      }
      std::visit(Overloaded{
                     [&](const history::Sent<history::Transfer>& x) {
                       state[n] = app.AfterSend(state[n], x.what.amount, net.channel(x.channel).to);
                       if (begun) items[n].push_back({x.channel, ev.index(), name(x.seq)});
                     },
                     [&](const history::Delivered<history::Transfer>& x) {
                       before_last[n] = state[n];
                       state[n] = app.AfterDeliver(state[n], x.what.amount);
                       last[n] = name(x.seq) * 2;
                       if (begun) items[n].push_back({x.channel, ev.index(), name(x.seq)});
                     },
                     [&](const history::Local&) {
                       state[n] = app.AfterLocal(state[n]);
                       if (begun) items[n].push_back({kNoChannel, ev.index(), 0});
                     },
                     [&](const history::Delivered<history::Marker>& x) {
                       before_last[n] = state[n];
                       last[n] = name(x.seq) * 2 + 1;
                       if (begun && x.what.snapshot == id) items[n].push_back({x.channel, ev.index(), name(x.seq)});
                     },
                     [&](const history::Sent<history::Marker>& x) {
                       if (begun && x.what.snapshot == id) items[n].push_back({x.channel, ev.index(), name(x.seq)});
                     },
                     [&](const history::Closed& x) {
                       if (begun && x.snapshot == id) items[n].push_back({x.channel, ev.index(), 0});
                     },
                     [&](const history::Overtaken& x) {
                       if (!begun) return;
                       items[n].push_back({x.channel, ev.index(), name(x.barrier)});
                       items[n].push_back({x.channel, ev.index(), name(x.transfer)});
                     },
                     [&](const history::Recorded& x) {
                       if (x.snapshot != id) return;
                       flush(n);
                       recorded[n] = true;
                       std::string& out = own[n];
                       Put(out, ev.index());
                       Put(out, x.cause.by_message() ? name(x.cause.message_seq()) * 2 + x.cause.by_transfer() : 0);
                       Put(out, last[n]);
                       Put(out, static_cast<std::uint64_t>(state[n]));
                       Put(out, static_cast<std::uint64_t>(before_last[n]));
                     },
                     [&](const history::PartDone& x) {
                       if (x.snapshot != id) return;
                       flush(n);
                       Put(own[n], ev.index());
                     },
                     // The naive reader's reads and which branch finished a
                     // snapshot last change nothing that follows.
                     [](const history::Read&) {},
                     [](const history::Completed&) {},
                 },
                 ev);
    }
    for (NodeId n = 0; n < n_branches; ++n) {
      flush(n);
      Put(*key, own[n].size());
      *key += own[n];
    }
  }

  const std::vector<Written> program_, starts_;
  const Options options_;
  std::string network_line_;
  // States are numbered in 32 bits: a search stops at this many (a bound,
  // "states"), which no memory here would hold anyway.
  static constexpr std::uint64_t kMostStates = std::numeric_limits<std::uint32_t>::max();
  const std::uint64_t max_states_;
  std::optional<Engine> start_;  // the state every path starts from (Rebuild)
  std::vector<Reached> graph_;
  std::vector<bool> ends_;  // by state: nothing more can happen there
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges_;  // every step kept, from -> to
  // The visited set: fingerprints, or with Options::exact whole keys.
  Fingerprints fingerprints_;
  std::unordered_map<std::string, std::uint32_t> exact_;
  std::string key_;  // Visit's, reused
  // KeyInto's and SeenBy's buffers, reused from key to key: a key is made
  // at every step, and allocating them each time was a tenth of the search.
  struct Scratch {
    std::vector<std::uint64_t> place, sends, last;
    std::vector<Amount> state, before_last;
    std::vector<bool> recorded;
    std::vector<std::vector<Seen>> items;
    std::vector<std::string> own;
  };
  mutable Scratch scratch_;
  // By state: its sleep set, and whether its steps were taken yet.
  SleepSets sleep_;
  std::vector<bool> expanded_;
  std::vector<std::optional<std::vector<NodeId>>> involved_, involved_starts_;  // Involved
  bool any_started_ = false;  // an end state reached has a snapshot
  Result result_;
};

}  // namespace

StatusOr<Result> Explore(std::string_view text, const Options& options) {
  // The scenario must run as written: its refusals are `cutline run`'s.
  scenario::Runner written;
  written.set_limits(options.limits);
  if (Status s = written.RunText(text); !s.ok()) return s;
  const std::vector<scenario::StepResult>& steps = written.steps();
  if (steps.empty() || !std::holds_alternative<scenario::NetworkCmd>(steps.front().parsed)) {
    return Status::Error(Code::kNetworkFirst);
  }
  // The network alone: the state every schedule starts from.
  scenario::Runner start;
  if (Status s = start.Execute(steps.front().command, steps.front().line); !s.ok()) return s;
  std::vector<Written> program, starts;
  for (std::size_t i = 1; i < steps.size(); ++i) {
    const scenario::StepResult& step = steps[i];
    // The deliveries written are one schedule among those explored.
    if (std::holds_alternative<scenario::DeliverCmd>(step.parsed) ||
        std::holds_alternative<scenario::DeliverNextCmd>(step.parsed) ||
        std::holds_alternative<scenario::DrainCmd>(step.parsed) ||
        std::holds_alternative<scenario::ShowCmd>(step.parsed)) {
      continue;
    }
    const bool start_anywhere =
        options.starts_anywhere && std::holds_alternative<scenario::SnapshotCmd>(step.parsed);
    (start_anywhere ? starts : program).push_back(Written{step.parsed, step.command});
  }
  Search search(program, starts, options);
  Result found = search.Run(Engine(*start.bank()), steps.front().command);
  if (found.outcome != Outcome::kBroken || (!options.reduction && !options.sleep_sets) ||
      found.counterexample.size() <= 2) {
    return found;
  }
  // The reductions keep every verdict, but they may put an independent step
  // ahead of the one that breaks: the schedules one step shorter are
  // searched again without it, so that the counterexample is a shortest.
  Options shorter = options;
  shorter.progress = nullptr;  // its counts would start again from 0
  shorter.reduction = false;
  shorter.sleep_sets = false;
  shorter.max_depth = found.counterexample.size() - 2;
  Search again(std::move(program), std::move(starts), shorter);
  Result better = again.Run(Engine(*start.bank()), steps.front().command);
  found.states += better.states;
  found.transitions += better.transitions;
  found.snapshots_judged += better.snapshots_judged;
  found.seconds += better.seconds;
  if (better.outcome == Outcome::kBroken) {
    found.counterexample = std::move(better.counterexample);
    found.findings = std::move(better.findings);
    found.never_completes = better.never_completes;
  }
  return found;
}

}  // namespace cutline::explore
