#include "harness/world.h"

#include <fmt/format.h>

#include <algorithm>

namespace cutline::harness {

std::string State::Key() const {
  std::string key;
  auto put = [&](std::uint32_t v) { key.append(reinterpret_cast<const char*>(&v), sizeof v); };
  for (std::uint32_t l : local) put(l);
  put(next);
  for (const auto& c : channels) {
    put(static_cast<std::uint32_t>(c.size()));
    for (std::uint32_t m : c) put(m);
  }
  return key;
}

World::World(Nodes* nodes, Rules rules)
    : nodes_(nodes), rules_(std::move(rules)),
      n_(static_cast<std::uint32_t>(nodes->workload().nodes.size())) {
  rules_.skipped.resize(nodes_->workload().commands.size(), false);
}

std::uint32_t World::Skip(std::uint32_t next) const {
  while (next < rules_.skipped.size() && rules_.skipped[next]) ++next;
  return next;
}

void World::Sent(std::uint32_t local, State* s) const {
  for (const Output& o : nodes_->local(local).outputs) {
    if (o.kind != Output::Kind::kSend) continue;
    const Carried& m = nodes_->message(o.message);
    s->channels[ChannelOf(m.from, m.to)].push_back(o.message);
  }
}

StatusOr<State> World::Start() {
  State s;
  s.channels.resize(static_cast<std::size_t>(n_) * n_);
  for (std::uint32_t n = 0; n < n_; ++n) {
    StatusOr<std::uint32_t> root = nodes_->Root(n);
    if (!root.ok()) return root.status();
    s.local.push_back(*root);
    Sent(*root, &s);
  }
  s.next = Skip(0);
  return s;
}

std::vector<Step> World::Enabled(const State& s) const {
  std::vector<Step> steps;
  if (s.next < nodes_->workload().commands.size()) {
    steps.push_back(Step{Step::Kind::kCommand, 0, 0, s.next});
  }
  for (std::uint32_t from = 0; from < n_; ++from) {
    for (std::uint32_t to = 0; to < n_; ++to) {
      const auto& q = s.channels[ChannelOf(from, to)];
      const std::uint32_t places = rules_.reorder ? static_cast<std::uint32_t>(q.size())
                                                  : std::min<std::uint32_t>(1, q.size());
      for (std::uint32_t i = 0; i < places; ++i) {
        steps.push_back(Step{Step::Kind::kDeliver, from, to, i});
      }
      if (!rules_.lose) continue;
      for (std::uint32_t i = 0; i < places; ++i) {
        if (!nodes_->message(q[i]).transfer) steps.push_back(Step{Step::Kind::kDrop, from, to, i});
      }
    }
  }
  return steps;
}

// Steps at different nodes commute: each changes its own node's history,
// takes from one of that node's input channels and appends to its outputs'
// tails, and on FIFO channels no step moves another channel's head, so
// neither disables the other. The steps at node r (the deliveries and losses
// at the heads of its inputs, a command sent to it) can be taken first,
// alone, when no step elsewhere can make a new step at r possible: every
// input of r already holds a message (a send by another node lands behind
// its head, which is the step already there), and no command left is sent
// to r. The schedules left out are then reorderings of ones taken: the
// same end states (a node's history is the order of its own inputs), the
// same verdicts (the judge reads the histories), and the same lengths, so
// breadth-first still finds a shortest failure. The program is opaque, so
// nothing is assumed of what it sends; channels that reorder are not
// reduced (a message sent later may overtake the head).
std::vector<Step> World::Ample(const State& s) const {
  std::vector<Step> all = Enabled(s);
  if (rules_.reorder) return all;
  const auto& commands = nodes_->workload().commands;
  std::vector<bool> commanded(n_, false);
  for (std::uint32_t c = s.next; c < commands.size(); ++c) {
    if (!rules_.skipped[c]) commanded[commands[c].node] = true;
  }
  for (std::uint32_t r = 0; r < n_; ++r) {
    if (commanded[r]) continue;
    bool fed = true;
    for (std::uint32_t q = 0; q < n_ && fed; ++q) {
      fed = q == r || !s.channels[ChannelOf(q, r)].empty();
    }
    if (!fed) continue;
    std::vector<Step> at_r;
    for (const Step& step : all) {
      if (step.kind != Step::Kind::kCommand && step.to == r) at_r.push_back(step);
    }
    return at_r;
  }
  return all;
}

bool World::Allows(const State& s, const Step& step) const {
  Step as_delivery = step;
  if (step.kind == Step::Kind::kDrop) as_delivery.kind = Step::Kind::kDeliver;
  const std::vector<Step> steps = Enabled(s);
  return std::find(steps.begin(), steps.end(), as_delivery) != steps.end();
}

StatusOr<State> World::Apply(const State& s, const Step& step) {
  State next = s;
  if (step.kind == Step::Kind::kCommand) {
    const std::uint32_t node = nodes_->workload().commands[step.index].node;
    StatusOr<std::uint32_t> l =
        nodes_->Step(s.local[node], Input{Input::Kind::kCommand, step.index});
    if (!l.ok()) return l.status();
    next.local[node] = *l;
    next.next = Skip(step.index + 1);
    Sent(*l, &next);
    return next;
  }
  auto& q = next.channels[ChannelOf(step.from, step.to)];
  const std::uint32_t message = q[step.index];
  q.erase(q.begin() + step.index);
  if (step.kind == Step::Kind::kDrop) return next;
  StatusOr<std::uint32_t> l =
      nodes_->Step(s.local[step.to], Input{Input::Kind::kDeliver, message});
  if (!l.ok()) return l.status();
  next.local[step.to] = *l;
  Sent(*l, &next);
  return next;
}

std::string World::Describe(const State& before, const Step& step) const {
  const Workload& w = nodes_->workload();
  if (step.kind == Step::Kind::kCommand) return w.Describe(w.commands[step.index]);
  const Carried& m = nodes_->message(before.channels[ChannelOf(step.from, step.to)][step.index]);
  return fmt::format("{} {}→{} {}", step.kind == Step::Kind::kDrop ? "lose" : "deliver",
                     w.nodes[step.from], w.nodes[step.to], m.body.dump());
}

}  // namespace cutline::harness
