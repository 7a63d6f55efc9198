// The bank's invariants, in one place: the engine's live state against its
// own history and its agents, for the tests to check after every command
// (the golden files, the property test and the fuzzer):
//  1. (the bank) money is conserved: balances plus money in flight equal the total, and
//     the money in flight is exactly the transfers waiting in the channels;
//  2. the history agrees with the state: replayed, it gives every branch's
//     balance, and every channel's queue holds what it says was sent on it
//     and not yet delivered, in send order;
//  1'. (jobs, locks) every state makes sense and the application's
//     property is stable: once it holds, it holds after every command;
//  3. each snapshot's bookkeeping agrees with its agents: markers sent, parts
//     done, completion, initiators and channel states, and a complete
//     snapshot adds up to the bank's total.
// Whether a complete snapshot is *right* (a consistent cut with exact
// channel states) is the consistency checker's question, not this one's.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <optional>

#include "engine/engine.h"
#include "engine/replay.h"

namespace cutline::engine {

// Keeps what it has replayed of the history between calls, so that checking
// after every command costs the new events, not the whole run again.
// REQUIRES: one instance follows one bank from its creation.
class Invariants {
 public:
  // One English line per broken invariant; empty when all hold.
  std::vector<std::string> CheckInvariants(const Engine& bank);

 private:
  void CheckMoney(const Engine& bank, std::vector<std::string>* out);
  void CheckProperty(const Engine& bank, std::vector<std::string>* out);
  void CheckHistory(const Engine& bank, std::vector<std::string>* out);
  void CheckSnapshot(const Engine& bank, const SnapshotInfo& s,
                     std::vector<std::string>* out);

  std::optional<Replay> replay_;  // of the events seen so far
  // Complete snapshots already found right: they never change again.
  std::vector<bool> settled_;  // by snapshot id - 1
  bool held_ = false;  // the application's property held at some check
};

}  // namespace cutline::engine
