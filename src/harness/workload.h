// The snapshot workload `cutline test` gives a program (docs/harness.md):
// N nodes with a starting balance each, and a list of commands the tester
// sends them in order, interleaved with the deliveries it chooses: move an
// amount to another node, or start a snapshot.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/amount.h"
#include "base/status.h"
#include "cutline/marker_rules.h"

namespace cutline::harness {

struct Command {
  enum class Kind : std::uint8_t { kTransfer, kSnapshot };
  Kind kind = Kind::kTransfer;
  std::uint32_t node = 0;  // who is asked
  std::uint32_t to = 0;    // kTransfer: the receiver
  cutline::Amount amount = 0;
  SnapshotId snapshot = 0;  // kSnapshot: its id, 1, 2, ... in command order
};

struct Workload {
  std::vector<std::string> nodes;  // "n1", "n2", ...: Maelstrom's node ids
  cutline::Amount balance = 0;     // each node's at the start
  std::vector<Command> commands;   // in the order the tester sends them

  // `nodes` nodes, `transfers` transfers between random pairs and
  // `snapshots` snapshots at random nodes, in a random order drawn from
  // `seed`. The amounts are small enough that no node can overdraw
  // whatever the order (each at most balance / transfers).
  static Workload Generate(std::uint32_t nodes, cutline::Amount balance,
                           std::uint32_t transfers, std::uint32_t snapshots,
                           std::uint64_t seed);

  // "transfer n1 n2 30", "snapshot n1 (1)": a command as the tester's lines say it.
  std::string Describe(const Command& c) const;
  cutline::Amount total() const {
    return balance * static_cast<cutline::Amount>(nodes.size());
  }

  nlohmann::json ToJson() const;
  // Refused (kTestNotSchedule, naming `file` and the key at fault) when it
  // is not a workload.
  static StatusOr<Workload> FromJson(const nlohmann::json& j, const std::string& file);
};

}  // namespace cutline::harness
