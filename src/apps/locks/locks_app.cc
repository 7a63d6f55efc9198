// Locks: a branch's state is whom it waits for (or active); a message is a
// request or a grant. Deadlocked (a cycle of waiting branches with no grant
// on its way to any of them) is stable because a waiting branch never
// grants.
#include <algorithm>

#include "apps/app.h"

namespace cutline::apps {

namespace {

using locks::Waits;

// The wait-for cycles: each branch waits for at most one other, so
// following the edges from any branch ends in a cycle or at an active
// branch. Each cycle once, rotated to start at its lowest branch.
std::vector<std::vector<NodeId>> Cycles(std::span<const std::optional<NodeId>> next) {
  const std::size_t n = next.size();
  std::vector<std::uint8_t> colour(n, 0);  // 0 new, 1 on this walk, 2 done
  std::vector<std::vector<NodeId>> cycles;
  for (NodeId start = 0; start < n; ++start) {
    std::vector<NodeId> walk;
    std::optional<NodeId> at = start;
    while (at && *at < n && colour[*at] == 0) {
      colour[*at] = 1;
      walk.push_back(*at);
      at = next[*at];
    }
    if (at && *at < n && colour[*at] == 1) {  // closed a cycle on this walk
      auto first = std::find(walk.begin(), walk.end(), *at);
      std::vector<NodeId> cycle(first, walk.end());
      std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());
      cycles.push_back(std::move(cycle));
    }
    for (NodeId v : walk) colour[v] = 2;
  }
  std::sort(cycles.begin(), cycles.end());
  return cycles;
}

Verdict Deadlocked(const GlobalState& g) {
  std::vector<std::optional<NodeId>> next;
  for (Amount s : g.states) next.push_back(Waits(s));
  Verdict v;
  for (std::vector<NodeId>& cycle : Cycles(next)) {
    std::vector<ChannelId> grants;
    for (ChannelId c = 0; c < g.channels.size(); ++c) {
      NodeId to = g.topology->channel(c).to;
      if (std::find(cycle.begin(), cycle.end(), to) == cycle.end()) continue;
      for (Amount word : g.channels[c]) {
        if (word == locks::kGrant) grants.push_back(c);
      }
    }
    if (grants.empty()) return Verdict{true, std::move(cycle), {}};
    // A grant on its way dissolves this cycle; name it unless a later one
    // is a real deadlock.
    if (v.branches.empty()) v = Verdict{false, std::move(cycle), std::move(grants)};
  }
  return v;
}

// The naive detector's graph: the edges its reads saw, each true when read.
Verdict NaiveDeadlocked(std::span<const std::optional<Amount>> reads) {
  std::vector<std::optional<NodeId>> next;
  for (const std::optional<Amount>& r : reads) {
    next.push_back(r ? Waits(*r) : std::nullopt);
  }
  std::vector<std::vector<NodeId>> cycles = Cycles(next);
  if (cycles.empty()) return {};
  return Verdict{true, std::move(cycles.front()), {}};
}

// `request FROM TO`: FROM starts waiting for TO and asks it.
Status Request(Branches& branches, std::span<const NodeId> b) {
  const NodeId from = b[0], to = b[1];
  ChannelId c;
  if (Status s = branches.CheckChannel(from, to, &c); !s.ok()) return s;
  if (std::optional<NodeId> waits = Waits(branches.state(from))) {
    return Status::Error(Code::kAlreadyWaiting, branches.name(from), branches.name(*waits));
  }
  return branches.SendMessage(from, to, locks::kRequest);
}

// FROM holds an unanswered request from TO exactly when TO waits for FROM,
// its request has arrived, and no grant is on its way back: a waiting
// branch asks no one else, so that request is the only one.
Status Grant(Branches& branches, std::span<const NodeId> b) {
  const NodeId from = b[0], to = b[1];
  ChannelId c;
  if (Status s = branches.CheckChannel(from, to, &c); !s.ok()) return s;
  if (std::optional<NodeId> waits = Waits(branches.state(from))) {
    return Status::Error(Code::kGrantWhileWaiting, branches.name(from), branches.name(*waits));
  }
  ChannelId back = sim::kNoChannel;
  const bool back_exists = branches.CheckChannel(to, from, &back).ok();
  bool holds = Waits(branches.state(to)) == from && back_exists &&
               !branches.Carries(back, locks::kRequest) && !branches.Carries(c, locks::kGrant);
  if (!holds) {
    return Status::Error(Code::kNoRequestToGrant, branches.name(from), branches.name(to));
  }
  return branches.SendMessage(from, to, locks::kGrant);
}

// A cycle still in the final states has been one since its last branch
// began its wait: a grant for an earlier wait was delivered before that
// branch could ask again, and a waiting branch asks no one else.
std::optional<std::int64_t> CycleSince(const GlobalState& final,
                                       std::span<const std::int64_t> changed_us,
                                       std::span<const NodeId> cycle) {
  if (cycle.empty()) return std::nullopt;
  std::int64_t since = 0;
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    const NodeId b = cycle[i];
    if (b >= final.states.size() || Waits(final.states[b]) != cycle[(i + 1) % cycle.size()]) {
      return std::nullopt;
    }
    since = std::max(since, changed_us[b]);
  }
  return since;
}

const AppCommand kCommands[] = {
    {"request", "request FROM TO", 2, Request},
    {"grant", "grant FROM TO", 2, Grant},
};

}  // namespace

const AppDefinition kLocksDefinition{
    .name = "locks",
    .work = Work::kMessages,
    .property = "deadlocked",
    .initial_state_settable = false,
    .state_key = "waiting_for",
    .after_send = [](Amount sender, Amount word, NodeId to) {
      return word == locks::kRequest ? locks::WaitingFor(to) : sender;
    },
    .after_deliver = [](Amount receiver, Amount word) {
      return word == locks::kGrant ? locks::kActive : receiver;
    },
    .after_local = [](Amount state) { return state; },
    .valid_state = [](Amount state, NodeId n, std::size_t branches) {
      std::optional<NodeId> waits = Waits(state);
      return !waits || (*waits < branches && *waits != n);
    },
    .message_kind = [](Amount word) -> std::string_view {
      return word == locks::kGrant ? "grant" : "request";
    },
    .evaluate = Deadlocked,
    .naive = NaiveDeadlocked,
    .commands = kCommands,
    .words = &kLocksWords,
    .json = &kLocksJson,
    .make_rank_work = MakeLocksRank,
    .true_since = CycleSince,
    .reason_is_cycle = true,
};

}  // namespace cutline::apps
