// The tester's network as a transition system: a global state is where
// every node's history stands in the trie (nodes.h), what is in flight on
// every channel, and the next command to send. A step sends that command,
// delivers a message, or (when the run allows losses) loses one of the
// algorithm's own messages. Steps read and extend the trie; a process runs
// only for a history no schedule has reached before.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "harness/nodes.h"

namespace cutline::harness {

struct Step {
  enum class Kind : std::uint8_t { kCommand, kDeliver, kDrop };
  Kind kind = Kind::kCommand;
  // kDeliver, kDrop: the channel from -> to and the message's place in it
  // (0: the oldest in flight); kCommand: index is the command's.
  std::uint32_t from = 0, to = 0, index = 0;
  bool operator==(const Step&) const = default;
};

struct State {
  std::vector<std::uint32_t> local;  // by node: its history (Nodes)
  // By channel (from * nodes + to): the messages in flight, oldest first.
  std::vector<std::vector<std::uint32_t>> channels;
  std::uint32_t next = 0;  // the next command to send
  // Exact: two states with one key are one state (the nodes are
  // deterministic functions of their histories).
  std::string Key() const;
};

struct Rules {
  bool reorder = false;  // a channel may deliver any message in flight, not only its oldest
  bool lose = false;     // the algorithm's own messages may be lost (transfers never are)
  std::vector<bool> skipped;  // by command: left out (the shrinker's doing)
};

class World {
 public:
  World(Nodes* nodes, Rules rules);
  StatusOr<State> Start();
  // Every step the state allows, commands first, then channels in order.
  std::vector<Step> Enabled(const State& s) const;
  // The steps the breadth-first search takes from `s` (the partial-order
  // reduction, an ample set): the steps at the first node r whose steps
  // nothing else can interfere with, else every step (Enabled). See
  // world.cc for why the schedules left out change no verdict.
  std::vector<Step> Ample(const State& s) const;
  // Whether `step` can be taken from `s`: one of Enabled's, or the loss of
  // a message a delivery could take (a schedule file may lose what a random
  // run chose to, whatever these rules say).
  bool Allows(const State& s, const Step& step) const;
  StatusOr<State> Apply(const State& s, const Step& step);
  std::uint32_t ChannelOf(std::uint32_t from, std::uint32_t to) const { return from * n_ + to; }
  const Rules& rules() const { return rules_; }
  Nodes& nodes() { return *nodes_; }
  // A step as the replay and the findings say it: "deliver n1→n2 #0 (transfer 30)".
  std::string Describe(const State& before, const Step& step) const;

 private:
  std::uint32_t Skip(std::uint32_t next) const;
  void Sent(std::uint32_t local, State* s) const;
  Nodes* nodes_;
  Rules rules_;
  std::uint32_t n_;
};

}  // namespace cutline::harness
