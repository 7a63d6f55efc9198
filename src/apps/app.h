// Applications: what the branches compute while snapshots are taken. The
// bank moves money; jobs hand out work until it is done; locks wait for each
// other. The snapshot engine (its hosting of agents, channels and history,
// src/engine/) never asks which one runs: a branch's state is one
// word and a message's content is one word, recorded and carried as they
// are. An application says what the words mean: how a send, a delivery or a
// branch's own step changes its state, how they are named, and which stable
// property a global state has (the "why" included). Everything here is a
// pure function of words, so the same code judges a live state, a recorded
// snapshot and a state replayed from the history.
//
// Each application is one folder under src/apps/ holding its definition and
// the commands it adds (docs/design.md, "Applications").
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/amount.h"
#include "base/check.h"
#include "base/lang.h"
#include "base/status.h"
#include "sim/network.h"

namespace cutline::apps {

using cutline::Amount;
using sim::ChannelId;
using sim::NodeId;

// A global state as the property reads it: every branch's word, and the
// words on every channel (in flight, or in a recorded channel state).
struct GlobalState {
  const sim::Topology* topology = nullptr;
  std::span<const Amount> states;               // by NodeId
  std::span<const std::vector<Amount>> channels;  // by ChannelId
};

// A stable property's value on one global state, with its reason.
struct Verdict {
  bool holds = false;
  // jobs: the busy branches (why not terminated); locks: the cycle, from
  // its lowest-numbered branch on.
  std::vector<NodeId> branches;
  // jobs: each channel holding a job, once per job (why not terminated);
  // locks: each channel on or into the cycle holding a grant for it.
  std::vector<ChannelId> channels;
  bool operator==(const Verdict&) const = default;
};

// The running branches as an application's command sees them. The engine
// (src/engine) implements it, so that an application knows no engine and
// the arrows between the floors point one way.
class Branches {
 public:
  virtual ~Branches() = default;
  // The branch's state: a balance, a job count, whom it waits for.
  virtual Amount state(NodeId n) const = 0;
  virtual const std::string& name(NodeId n) const = 0;
  // Fails unless from->to is a channel (then *c names it).
  virtual Status CheckChannel(NodeId from, NodeId to, ChannelId* c) const = 0;
  // Whether a message of `word` waits on channel c.
  virtual bool Carries(ChannelId c, Amount word) const = 0;
  // `word` leaves `from` (whose state the application changes) for `to`;
  // the engine checks the channel and its capacity.
  virtual Status SendMessage(NodeId from, NodeId to, Amount word) = 0;
  // A step of `n`'s own, no message (jobs: finishing one).
  virtual Status LocalStep(NodeId n) = 0;
};

// A command an application adds to the language: `VERB NAME...`. `run`
// gets the named branches (resolved by the runner) and checks everything
// before it changes anything.
struct AppCommand {
  std::string_view verb;   // "job"
  std::string_view usage;  // "job FROM TO"
  std::size_t names = 0;   // how many branch names follow the verb
  Status (*run)(Branches& branches, std::span<const NodeId> named);
};

// How an application's values read in one language. `names` names the
// branches by NodeId; `channels` are channel names ("P1→P2", ChannelText),
// once per message of a reason.
struct AppWordsIn {
  // "$70", "2 jobs", "waiting for P2".
  std::string (*state)(Amount state, std::span<const std::string> names);
  // "$40", "job", "grant".
  std::string (*message)(Amount word);
  // "not terminated: P1 is busy", "deadlocked: P1 → P2 → P1"; "" for the bank.
  std::string (*verdict)(bool holds, std::span<const std::string> branches,
                         std::span<const std::string> channels);
  // What a naive detector's wrong verdict is: "a false termination".
  std::string_view naive_wrong;
  // A verdict's reason in a checker's finding: when it names no branch
  // ("no branch busy", "no cycle"), and what its channels hold ("jobs",
  // "grants").
  std::string_view reason_none, reason_messages;
  // A real run's summary: the moment the property became true ("the last
  // job finished") and what a wrong naive declaration was ("false (work
  // remained)").
  std::string_view became_true, naive_false;
};

// An application's words in each language (its folder's <app>_words.cc
// holds one table per language); in() is the one place they are chosen.
struct AppWords {
  AppWordsIn en, ja;

  const AppWordsIn& in(Lang lang) const {
    switch (lang) {
      case Lang::kJa:
        return ja;
      case Lang::kEn:
        break;
    }
    return en;
  }
  std::string state(Amount state, std::span<const std::string> names, Lang lang) const {
    return in(lang).state(state, names);
  }
  std::string message(Amount word, Lang lang) const { return in(lang).message(word); }
  std::string verdict(bool holds, std::span<const std::string> branches,
                      std::span<const std::string> channels, Lang lang) const {
    return in(lang).verdict(holds, branches, channels);
  }
};

// How an application's values are written in JSON (apps/app_json.h; kept
// apart so that this header stays free of the JSON library).
struct AppJson;
// What a rank of a real run does for it (apps/rank_work.h).
class RankWork;

// What a real run's ranks are (`cutline cluster --app`): branches on a
// complete graph, every rank sending to every other; or a dataflow's
// vertices on the topology --topology names, which no scenario's network
// can describe (a scenario's application has branches).
enum class Ranks : std::uint8_t { kBranches, kVertices };

// What a real run's throughput counts, as `cutline cluster` names it: the
// bank's transfers (they carry money, so its status line shows the latest
// snapshot's total), jobs' and locks' messages, a dataflow's records
// counted at its sinks.
enum class Work : std::uint8_t { kTransfers, kMessages, kRecords };

struct AppDefinition {
  std::string_view name;      // "bank", "jobs", "locks", "dataflow"
  Ranks ranks = Ranks::kBranches;
  Work work = Work::kTransfers;
  // A message's word is an amount that a send moves from the sender's
  // state into the channel and a delivery from the channel into the
  // receiver's (the bank's money), so the states and the messages in flight
  // add up to what the branches started with: a snapshot's total is checked
  // against it and shown, and the engine's deliveries stay two additions.
  // Else the application has a stable property, which snapshots detect.
  bool conserved = false;
  std::string_view property;  // "terminated", "deadlocked"; "" for the bank
  // A network line may give each branch its initial state (P1=100, P1=2);
  // else every branch starts at 0 (locks: active), written P1 or P1=0.
  bool initial_state_settable = true;
  // The naive detector declares only once it has read every branch (jobs:
  // all idle); else from two reads on (locks: a cycle of two).
  bool naive_reads_all = false;
  // The JSON key of a branch's state ("balance", "jobs", "waiting_for").
  std::string_view state_key;
  // The sender's state after it sends `word` to `to`.
  Amount (*after_send)(Amount sender, Amount word, NodeId to);
  // The receiver's state after `word` arrives. Two deliveries commute (the
  // state after a then b is the state after b then a): `cutline explore`
  // merges the schedules that differ only in the order of a branch's
  // receipts on different channels (explore.cc, KeyInto), and its tests
  // hold every application to it.
  Amount (*after_deliver)(Amount receiver, Amount word);
  // A branch's state after a step of its own (jobs: finishing one).
  Amount (*after_local)(Amount state);
  // Whether `state` can be branch n's among `branches` (locks: it waits
  // for another branch that exists); nullptr: any state can.
  bool (*valid_state)(Amount state, NodeId n, std::size_t branches) = nullptr;
  // "transfer", "job", "request", "grant".
  std::string_view (*message_kind)(Amount word);
  // The property on a global state. Only called when `property` is set.
  Verdict (*evaluate)(const GlobalState& state);
  // What the naive detector declares from its reads (by NodeId; nullopt =
  // not read): whether the property holds, and why it thinks so.
  Verdict (*naive)(std::span<const std::optional<Amount>> reads);
  // The commands it adds (the bank's `transfer` is the parser's own).
  std::span<const AppCommand> commands;
  const AppWords* words = nullptr;
  const AppJson* json = nullptr;
  // A real run's rank, given --jobs (the jobs each branch starts with);
  // nullptr for a conserved application, whose transfers the runtime paces.
  std::unique_ptr<RankWork> (*make_rank_work)(std::uint32_t jobs) = nullptr;
  // The flags of `cutline cluster` that are this application's (the others
  // refuse them), and the one of them that sets every rank's opening state
  // ("" when every rank opens at 0).
  std::span<const std::string_view> cluster_flags = {};
  std::string_view opening_flag = {};
  // A real run's property, judged from where the ranks ended (`final`, its
  // channels drained) and when each rank's state last changed: since when
  // it has held, or nullopt if it does not hold there. `cycle`: the
  // branches a detection named, when its reason is a cycle.
  std::optional<std::int64_t> (*true_since)(const GlobalState& final,
                                            std::span<const std::int64_t> changed_us,
                                            std::span<const NodeId> cycle) = nullptr;
  // The verdict's branches form a cycle (locks), which the run's summary
  // names; else they are only its reason.
  bool reason_is_cycle = false;
};

// A handle on one application of the registry (registry.cc). Cheap to copy.
class App {
 public:
  static const App kBank;
  static const App kJobs;
  static const App kLocks;
  // A dataflow's records (apps/dataflow/): its vertices are a real run's
  // ranks, never a scenario's branches (Ranks::kVertices).
  static const App kDataflow;
  // nullopt for an unknown name.
  static std::optional<App> Find(std::string_view name);
  // The application a store, a log or a run's record names: the bank when
  // the name is unknown or empty (what was written before applications).
  static App NamedOrBank(std::string_view name) { return Find(name).value_or(kBank); }
  // Every application, in the registry's order.
  static std::span<const App> All();
  // The application with command `verb`, and the command; nullopt if none.
  static std::optional<std::pair<App, const AppCommand*>> FindCommand(std::string_view verb);

  // No default: every layer that holds an application is told which one
  // (a forgotten one is a compile error, not a silent bank).
  App() = delete;
  const AppDefinition& definition() const;
  std::string_view name() const { return definition().name; }
  // AppDefinition::conserved.
  bool conserved() const { return definition().conserved; }
  bool has_property() const { return !definition().property.empty(); }
  // A real run's ranks are a dataflow's vertices, not branches.
  bool vertices() const { return definition().ranks == Ranks::kVertices; }
  // A scenario's network may name it (app=): its ranks are branches.
  bool in_scenarios() const { return !vertices(); }
  const AppWords& words() const {
    CUTLINE_CHECK(definition().words != nullptr);  // every definition has its words
    return *definition().words;
  }

  Amount AfterSend(Amount sender, Amount word, NodeId to) const {
    return definition().after_send(sender, word, to);
  }
  Amount AfterDeliver(Amount receiver, Amount word) const {
    return definition().after_deliver(receiver, word);
  }
  Amount AfterLocal(Amount state) const { return definition().after_local(state); }
  std::string_view MessageKind(Amount word) const {
    return definition().message_kind(word);
  }
  Verdict Evaluate(const GlobalState& state) const {
    return definition().evaluate(state);
  }
  Verdict Naive(std::span<const std::optional<Amount>> reads) const {
    return definition().naive(reads);
  }

  bool operator==(const App& o) const { return &definition() == &o.definition(); }

 private:
  constexpr explicit App(const AppDefinition* def) : def_(def) {}
  const AppDefinition* def_;  // never null
};

// The words of each application, where its commands and its property need
// them (the engine never reads these).
namespace jobs {
inline constexpr Amount kJob = 1;  // a message: one job
}  // namespace jobs
namespace locks {
inline constexpr Amount kRequest = 1;
inline constexpr Amount kGrant = 2;
// A branch's state: 0 = active, else 1 + the branch it waits for.
inline constexpr Amount kActive = 0;
inline constexpr Amount WaitingFor(NodeId n) { return Amount{n} + 1; }
inline std::optional<NodeId> Waits(Amount state) {
  if (state == kActive) return std::nullopt;
  return static_cast<NodeId>(state - 1);
}
}  // namespace locks

// A conserved application's (the bank's, a dataflow's records'): no stable
// property to evaluate, no naive detector's verdict, no verdict to word.
Verdict NoProperty(const GlobalState&);
Verdict NoNaive(std::span<const std::optional<Amount>>);
std::string NoVerdictWords(bool, std::span<const std::string>, std::span<const std::string>);

// Each application's definition, words and JSON, defined in its folder.
extern const AppDefinition kBankDefinition;
extern const AppDefinition kJobsDefinition;
extern const AppDefinition kLocksDefinition;
extern const AppDefinition kDataflowDefinition;
extern const AppWords kBankWords, kJobsWords, kLocksWords;
extern const AppJson kBankJson, kJobsJson, kLocksJson, kDataflowJson;
std::unique_ptr<RankWork> MakeJobsRank(std::uint32_t jobs);
std::unique_ptr<RankWork> MakeLocksRank(std::uint32_t jobs);

}  // namespace cutline::apps
