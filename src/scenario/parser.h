// The scenario language, one line at a time: text -> Command, or a one-line
// error. Parsing knows nothing of the run; names are resolved by the Runner.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "engine/engine.h"
#include "base/status.h"

namespace cutline::scenario {

struct NetworkCmd {
  std::vector<engine::BranchSpec> branches;
  std::optional<std::vector<std::pair<std::string, std::string>>> links;
  std::uint32_t capacity_transfers = 0;  // 0 = unlimited
  bool one_snapshot_at_a_time = false;
  bool fifo = true;
  algorithms::Algorithm algorithm = algorithms::Algorithm::kChandyLamport;
  // The one place the bank is a default: the scenario language's own,
  // documented one (a network line without app=; docs/scenario-language.md).
  // The layers below are always told the application.
  apps::App app = apps::App::kBank;
};
struct TransferCmd {
  std::string from, to;
  cutline::Amount amount;
};
struct DeliverCmd {
  std::string from, to;
  std::uint64_t at = 1;  // at=K: the K-th oldest waiting
};
struct StopTheWorldCmd {};
struct DeliverNextCmd {};
struct DrainCmd {};
struct ReadCmd {
  std::string branch;
};
struct SnapshotCmd {
  std::string branch;
  std::optional<SnapshotId> id;
};
struct ShowCmd {};
// A command an application adds (apps/app.h: AppCommand), e.g. `job P1 P2`.
struct AppCmd {
  std::string verb;
  std::vector<std::string> branches;
};

using Command = std::variant<NetworkCmd, TransferCmd, DeliverCmd,
                             DeliverNextCmd, DrainCmd, ReadCmd, SnapshotCmd,
                             ShowCmd, StopTheWorldCmd, AppCmd>;

// The words of a line: split on spaces and tabs (and a CR, so that files
// with CRLF line ends read the same), comment dropped.
std::vector<std::string_view> SplitWords(std::string_view line);

// Parses one line. A blank or comment-only line gives *out = nullopt.
// On error, *out is untouched and the message has no line prefix.
Status ParseLine(std::string_view line, std::optional<Command>* out);

// Parses a decimal amount that fits in int64 ("-5", "3.5", "1e3", "0x10" and
// overflow are errors). `what` names the number in the error.
Status ParseAmount(std::string_view text, std::string_view what,
                   std::int64_t* out);

}  // namespace cutline::scenario
