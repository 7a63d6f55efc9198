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
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/amount.h"
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

struct AppDefinition {
  std::string_view name;      // "bank", "jobs", "locks"
  std::string_view property;  // "terminated", "deadlocked"; "" for the bank
  // The JSON key of a branch's state ("balance", "jobs", "waiting_for").
  std::string_view state_key;
  // The sender's state after it sends `word` to `to`.
  Amount (*after_send)(Amount sender, Amount word, NodeId to);
  // The receiver's state after `word` arrives.
  Amount (*after_deliver)(Amount receiver, Amount word);
  // A branch's state after a step of its own (jobs: finishing one).
  Amount (*after_local)(Amount state);
  // "transfer", "job", "request", "grant".
  std::string_view (*message_kind)(Amount word);
  // The property on a global state. Only called when `property` is set.
  Verdict (*evaluate)(const GlobalState& state);
  // What the naive detector declares from its reads (by NodeId; nullopt =
  // not read): whether the property holds, and why it thinks so.
  Verdict (*naive)(std::span<const std::optional<Amount>> reads);
  // The commands it adds (the bank's `transfer` is the parser's own).
  std::span<const AppCommand> commands;
};

// A handle on one application of the registry (registry.cc). Cheap to copy.
class App {
 public:
  static const App kBank;
  static const App kJobs;
  static const App kLocks;
  // nullopt for an unknown name.
  static std::optional<App> Find(std::string_view name);
  // Every application, in the registry's order.
  static std::span<const App> All();
  // The application with command `verb`, and the command; nullopt if none.
  static std::optional<std::pair<App, const AppCommand*>> FindCommand(std::string_view verb);

  constexpr App() : def_(nullptr) {}  // the bank
  const AppDefinition& definition() const;
  std::string_view name() const { return definition().name; }
  bool is_bank() const { return def_ == nullptr || def_ == kBank.def_; }
  bool has_property() const { return !definition().property.empty(); }

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
  const AppDefinition* def_;
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

// Each application's definition, defined in its folder.
extern const AppDefinition kBankDefinition;
extern const AppDefinition kJobsDefinition;
extern const AppDefinition kLocksDefinition;

}  // namespace cutline::apps
