#include "harness/workload.h"

#include <fmt/format.h>

#include <algorithm>
#include <random>

namespace cutline::harness {

Workload Workload::Generate(std::uint32_t nodes, cutline::Amount balance,
                            std::uint32_t transfers, std::uint32_t snapshots,
                            std::uint64_t seed) {
  Workload w;
  w.balance = balance;
  for (std::uint32_t n = 1; n <= nodes; ++n) w.nodes.push_back(fmt::format("n{}", n));
  std::mt19937_64 rng(seed);
  auto below = [&](std::uint64_t n) { return static_cast<std::uint32_t>(rng() % n); };
  const cutline::Amount most = std::max<cutline::Amount>(1, balance / std::max(1u, transfers));
  for (std::uint32_t t = 0; t < transfers; ++t) {
    Command c;
    c.node = below(nodes);
    c.to = (c.node + 1 + below(nodes - 1)) % nodes;
    c.amount = 1 + static_cast<cutline::Amount>(rng() % static_cast<std::uint64_t>(most));
    w.commands.push_back(c);
  }
  // Each snapshot goes at a random place among the transfers; ids follow
  // the order they end up in.
  for (std::uint32_t s = 0; s < snapshots; ++s) {
    Command c;
    c.kind = Command::Kind::kSnapshot;
    c.node = below(nodes);
    w.commands.insert(w.commands.begin() + below(w.commands.size() + 1), c);
  }
  SnapshotId next = 1;
  for (Command& c : w.commands) {
    if (c.kind == Command::Kind::kSnapshot) c.snapshot = next++;
  }
  return w;
}

std::string Workload::Describe(const Command& c) const {
  if (c.kind == Command::Kind::kSnapshot) {
    return fmt::format("snapshot {} at {}", c.snapshot, nodes[c.node]);
  }
  return fmt::format("transfer {} {} {}", nodes[c.node], nodes[c.to], c.amount);
}

nlohmann::json Workload::ToJson() const {
  nlohmann::json list = nlohmann::json::array();
  for (const Command& c : commands) {
    if (c.kind == Command::Kind::kSnapshot) {
      list.push_back({{"do", "snapshot"}, {"at", nodes[c.node]}, {"snapshot", c.snapshot}});
    } else {
      list.push_back(
          {{"do", "transfer"}, {"at", nodes[c.node]}, {"to", nodes[c.to]}, {"amount", c.amount}});
    }
  }
  return {{"nodes", nodes}, {"balance", balance}, {"commands", list}};
}

StatusOr<Workload> Workload::FromJson(const nlohmann::json& j, const std::string& file) {
  auto bad = [&](std::string_view key) { return Status::Error(Code::kTestNotSchedule, file, key); };
  Workload w;
  if (!j.is_object() || !j.contains("nodes") || !j["nodes"].is_array()) return bad("workload.nodes");
  for (const auto& n : j["nodes"]) {
    if (!n.is_string() || n.get<std::string>().empty()) return bad("workload.nodes");
    w.nodes.push_back(n.get<std::string>());
  }
  if (w.nodes.size() < 2) return bad("workload.nodes");
  if (!j.contains("balance") || !j["balance"].is_number_integer() ||
      j["balance"].get<std::int64_t>() < 0) {
    return bad("workload.balance");
  }
  w.balance = j["balance"].get<std::int64_t>();
  if (!j.contains("commands") || !j["commands"].is_array()) return bad("workload.commands");
  auto node = [&](const nlohmann::json& c, const char* key) -> std::optional<std::uint32_t> {
    if (!c.contains(key) || !c[key].is_string()) return std::nullopt;
    auto it = std::find(w.nodes.begin(), w.nodes.end(), c[key].get<std::string>());
    if (it == w.nodes.end()) return std::nullopt;
    return static_cast<std::uint32_t>(it - w.nodes.begin());
  };
  for (const auto& c : j["commands"]) {
    Command cmd;
    const std::optional<std::uint32_t> at = c.is_object() ? node(c, "at") : std::nullopt;
    if (!at) return bad("workload.commands[].at");
    cmd.node = *at;
    // Not value(): a "do" that is not a string is refused, not thrown.
    const std::string what = c.contains("do") && c["do"].is_string() ? c["do"].get<std::string>() : "";
    if (what == "snapshot") {
      cmd.kind = Command::Kind::kSnapshot;
      if (!c.contains("snapshot") || !c["snapshot"].is_number_unsigned() || c["snapshot"] == 0) {
        return bad("workload.commands[].snapshot");
      }
      cmd.snapshot = c["snapshot"].get<SnapshotId>();
    } else if (what == "transfer") {
      const std::optional<std::uint32_t> to = node(c, "to");
      if (!to || *to == *at) return bad("workload.commands[].to");
      cmd.to = *to;
      if (!c.contains("amount") || !c["amount"].is_number_integer() ||
          c["amount"].get<std::int64_t>() < 0) {
        return bad("workload.commands[].amount");
      }
      cmd.amount = c["amount"].get<std::int64_t>();
    } else {
      return bad("workload.commands[].do");
    }
    w.commands.push_back(cmd);
  }
  return w;
}

}  // namespace cutline::harness
