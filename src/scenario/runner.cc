// Runner: resolves names, applies one command, records the step.
#include "scenario/runner.h"

#include "base/overloaded.h"

namespace cutline::scenario {

namespace {

// The command as written, without its comment and with single spaces.
std::string Normalized(std::string_view line) {
  std::string out;
  for (std::string_view word : SplitWords(line)) {
    if (!out.empty()) out += ' ';
    out += word;
  }
  return out;
}

}  // namespace

Status Runner::RunText(
    std::string_view text,
    const std::function<void(const StepResult&)>& on_step) {
  // A byte-order mark (some editors write one) is not part of the text.
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  int line_no = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t nl = text.find('\n', start);
    std::string_view line = text.substr(
        start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    ++line_no;
    std::size_t before = steps_.size();
    if (Status s = Execute(line, line_no); !s.ok()) return s;
    if (on_step && steps_.size() > before) on_step(steps_.back());
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return Status::Ok();
}

Status Runner::Execute(std::string_view line, int line_no) {
  std::optional<Command> command;
  Status s = ParseLine(line, &command);
  if (s.ok() && command) s = CheckLimits();
  if (s.ok() && command) s = Apply(*command, line_no);
  if (s.ok() && command && limits_.max_events > 0 && bank_ &&
      bank_->history().size() > limits_.max_events) {
    spent_ = true;
    s = CheckLimits();
  }
  if (!s.ok()) {
    return std::move(s).AtLine(line_no);
  }
  if (!command) return Status::Ok();  // blank or comment
  StepResult step;
  step.line = line_no;
  step.command = Normalized(line);
  step.parsed = std::move(*command);
  step.history_begin = steps_.empty() ? 0 : steps_.back().history_end;
  step.history_end = bank_->history().size();
  steps_.push_back(std::move(step));
  return Status::Ok();
}

Status Runner::CheckLimits() const {
  if (spent_) {
    return Status::Error(Code::kEventLimit, limits_.max_events);
  }
  if (limits_.max_commands > 0 && steps_.size() >= limits_.max_commands) {
    return Status::Error(Code::kCommandLimit, limits_.max_commands);
  }
  return Status::Ok();
}

namespace {

Status FindNamed(const engine::Engine& bank, const std::string& name, sim::NodeId* out) {
  auto n = bank.FindBranch(name);
  if (!n) {
    return Status::Error(Code::kUnknownBranch, name);
  }
  *out = *n;
  return Status::Ok();
}

}  // namespace

Status Runner::Apply(const Command& command, int line_no) {
  if (const auto* network = std::get_if<NetworkCmd>(&command)) {
    if (bank_) {
      return Status::Error(Code::kNetworkTwice, network_line_);
    }
    if (limits_.max_branches > 0 && network->branches.size() > limits_.max_branches) {
      return Status::Error(Code::kBranchLimit, limits_.max_branches);
    }
    engine::Config config{.app = network->app};
    config.branches = network->branches;
    config.links = network->links;
    config.capacity_transfers = network->capacity_transfers;
    config.one_snapshot_at_a_time = network->one_snapshot_at_a_time;
    config.fifo = network->fifo;
    config.algorithm = algorithm_.value_or(network->algorithm);
    if (Status s = engine::Engine::Create(config, &bank_); !s.ok()) return s;
    network_line_ = line_no;
    return Status::Ok();
  }
  if (!bank_) {
    return Status::Error(Code::kNetworkFirst);
  }
  return ApplyCommand(*bank_, command);
}

Status ApplyCommand(engine::Engine& b, const Command& command) {
  auto Branch = [&](const std::string& name, sim::NodeId* out) {
    return FindNamed(b, name, out);
  };
  return std::visit(
      Overloaded{
          [](const NetworkCmd&) { return Status::Ok(); },  // handled above
          [&](const TransferCmd& c) {
            if (!b.app().conserved()) {
              return Status::Error(Code::kWrongApp, "transfer", "bank",
                                   std::string(b.app().name()));
            }
            sim::NodeId from, to;
            if (Status s = Branch(c.from, &from); !s.ok()) return s;
            if (Status s = Branch(c.to, &to); !s.ok()) return s;
            return b.Transfer(from, to, c.amount);
          },
          [&](const DeliverCmd& c) {
            sim::NodeId from, to;
            if (Status s = Branch(c.from, &from); !s.ok()) return s;
            if (Status s = Branch(c.to, &to); !s.ok()) return s;
            return b.Deliver(from, to, c.at);
          },
          [&](const DeliverNextCmd&) { return b.DeliverNext(); },
          [&](const DrainCmd&) { return b.Drain(); },
          [&](const ReadCmd& c) {
            sim::NodeId n;
            if (Status s = Branch(c.branch, &n); !s.ok()) return s;
            return b.Read(n);
          },
          [&](const SnapshotCmd& c) {
            sim::NodeId n;
            if (Status s = Branch(c.branch, &n); !s.ok()) return s;
            return b.StartSnapshot(n, c.id);
          },
          [](const ShowCmd&) { return Status::Ok(); },
          [&](const StopTheWorldCmd&) { return b.StopTheWorld(); },
          [&](const AppCmd& c) {
            // The parser found the verb in the registry.
            auto [app, command] = *apps::App::FindCommand(c.verb);
            if (app != b.app()) {
              return Status::Error(Code::kWrongApp, c.verb, std::string(app.name()),
                                   std::string(b.app().name()));
            }
            std::vector<sim::NodeId> nodes(c.branches.size());
            for (std::size_t i = 0; i < nodes.size(); ++i) {
              if (Status s = Branch(c.branches[i], &nodes[i]); !s.ok()) return s;
            }
            return command->run(b, nodes);
          },
      },
      command);
}

}  // namespace cutline::scenario
