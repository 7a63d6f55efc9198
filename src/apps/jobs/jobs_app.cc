// Jobs: a branch's state is how many jobs it holds; a message is one job.
// Terminated (every branch idle, no job in flight) is stable because only a
// busy branch hands out work.
#include <algorithm>

#include "apps/app.h"

namespace cutline::apps {

namespace {

Verdict Terminated(const GlobalState& g) {
  Verdict v;
  for (NodeId n = 0; n < g.states.size(); ++n) {
    if (g.states[n] > 0) v.branches.push_back(n);
  }
  for (ChannelId c = 0; c < g.channels.size(); ++c) {
    for (Amount word : g.channels[c]) {
      if (word == jobs::kJob) v.channels.push_back(c);
    }
  }
  v.holds = v.branches.empty() && v.channels.empty();
  return v;
}

// The naive detector sees no channel: every branch read idle is enough.
Verdict NaiveTerminated(std::span<const std::optional<Amount>> reads) {
  Verdict v;
  bool all_read = true;
  for (NodeId n = 0; n < reads.size(); ++n) {
    if (!reads[n]) {
      all_read = false;
    } else if (*reads[n] > 0) {
      v.branches.push_back(n);
    }
  }
  v.holds = all_read && v.branches.empty();
  return v;
}

// `job FROM TO`: busy FROM hands a new job to TO and keeps its own.
Status HandOut(Branches& branches, std::span<const NodeId> b) {
  const NodeId from = b[0], to = b[1];
  ChannelId c;
  if (Status s = branches.CheckChannel(from, to, &c); !s.ok()) return s;
  if (branches.state(from) < 1) {
    return Status::Error(Code::kIdleHandsOut, branches.name(from));
  }
  return branches.SendMessage(from, to, jobs::kJob);
}

// `finish P`: P completes one job it holds.
Status Finish(Branches& branches, std::span<const NodeId> b) {
  const NodeId n = b[0];
  if (branches.state(n) < 1) {
    return Status::Error(Code::kNoJobToFinish, branches.name(n));
  }
  return branches.LocalStep(n);
}

// Terminated at the last job's finish, if the final state is (the
// channels drained: nothing in flight).
std::optional<std::int64_t> TerminatedSince(const GlobalState& final,
                                            std::span<const std::int64_t> changed_us,
                                            std::span<const NodeId>) {
  if (!Terminated(final).holds) return std::nullopt;
  std::int64_t since = 0;
  for (std::int64_t changed : changed_us) since = std::max(since, changed);
  return since;
}

constexpr std::string_view kFlags[] = {"--jobs"};

const AppCommand kCommands[] = {
    {"job", "job FROM TO", 2, HandOut},
    {"finish", "finish P", 1, Finish},
};

}  // namespace

const AppDefinition kJobsDefinition{
    .name = "jobs",
    .work = Work::kMessages,
    .property = "terminated",
    .naive_reads_all = true,
    .state_key = "jobs",
    // The sender keeps its own job: handing out work is a new job.
    .after_send = [](Amount sender, Amount, NodeId) { return sender; },
    .after_deliver = [](Amount receiver, Amount) { return receiver + 1; },
    .after_local = [](Amount state) { return state - 1; },
    .message_kind = [](Amount) -> std::string_view { return "job"; },
    .evaluate = Terminated,
    .naive = NaiveTerminated,
    .commands = kCommands,
    .words = &kJobsWords,
    .json = &kJobsJson,
    .make_rank_work = MakeJobsRank,
    .cluster_flags = kFlags,
    .opening_flag = "--jobs",
    .true_since = TerminatedSince,
};

}  // namespace cutline::apps
