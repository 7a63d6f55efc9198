// CheckRun is the streaming judge fed the history (JudgeHistory,
// stream_judge.h): the rules live there, once. Here: the bank's run as the
// judge's input, and the properties and naive judgement the views read.
#include "check/consistency_checker.h"
#include "base/check.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <utility>

#include "apps/bank/money.h"
#include "engine/replay.h"
#include "check/findings.h"
#include "check/stream_judge.h"

namespace cutline::check {

using cutline::Amount;
using engine::Flight;
using sim::ChannelId;
using sim::NodeId;
using sim::Seq;

bool IsMessageEvent(const history::Event& e) {
  return std::holds_alternative<history::Sent<history::Transfer>>(e) ||
         std::holds_alternative<history::Sent<history::Marker>>(e) ||
         std::holds_alternative<history::Delivered<history::Transfer>>(e) ||
         std::holds_alternative<history::Delivered<history::Marker>>(e);
}

CheckReport CheckRun(const RunRecord& run, Lang lang) {
  CUTLINE_CHECK(run.topology != nullptr);
  return JudgeHistory(run, lang).report;
}

apps::Verdict DeclaredProperty(apps::App app, const sim::Topology& topology,
                               const SnapshotClaim& claim) {
  std::vector<Amount> states;
  for (const std::optional<Amount>& b : claim.balances) states.push_back(b.value_or(0));
  std::vector<std::vector<Amount>> channels;
  for (const history::ChannelRecord& r : claim.channels) channels.push_back(r.transfers);
  return app.Evaluate({&topology, states, channels});
}

apps::Verdict PropertyNow(const engine::Engine& bank) {
  const engine::Network& net = bank.network();
  std::vector<Amount> states;
  for (NodeId n = 0; n < bank.branch_count(); ++n) states.push_back(bank.state(n));
  std::vector<std::vector<Amount>> channels(net.channel_count());
  for (ChannelId c = 0; c < net.channel_count(); ++c) {
    net.ForEachQueued(c, [&](const engine::Network::Msg& m) {
      if (const auto* t = std::get_if<history::Transfer>(&m.payload)) {
        channels[c].push_back(t->amount);
      }
    });
  }
  return bank.app().Evaluate({&net, states, channels});
}

std::vector<std::vector<Amount>> InFlightWords(const sim::Topology& topology,
                                               const engine::Replay& replay) {
  std::vector<std::vector<Amount>> channels(topology.channel_count());
  for (ChannelId c = 0; c < channels.size(); ++c) {
    for (Seq seq : replay.waiting(c)) {
      const Flight* f = replay.Find(seq);
      if (f->is_transfer()) channels[c].push_back(f->amount());
    }
  }
  return channels;
}

apps::Verdict PropertyOfReplay(const engine::Engine& bank, const engine::Replay& replay) {
  std::vector<Amount> states;
  for (NodeId n = 0; n < bank.branch_count(); ++n) states.push_back(replay.balance(n));
  return bank.app().Evaluate({&bank.network(), states, InFlightWords(bank.network(), replay)});
}

std::vector<SnapshotClaim> ClaimsOf(const engine::Engine& bank) {
  std::vector<SnapshotClaim> claims;
  const sim::Topology& net = bank.network();
  for (const engine::SnapshotInfo& s : bank.snapshots()) {
    if (!s.complete) continue;
    SnapshotClaim claim;
    claim.id = s.id;
    claim.markers_sent = s.markers_sent;
    for (NodeId n = 0; n < bank.branch_count(); ++n) {
      claim.balances.push_back(bank.RecordedBalance(n, s.id));
    }
    for (ChannelId c = 0; c < net.channel_count(); ++c) {
      claim.channels.push_back(bank.RecordedChannel(s.id, c));
    }
    claim.total = bank.SnapshotTotal(s.id);
    const algorithms::Traits& traits = bank.AlgorithmOf(s.id).traits();
    claim.markers = !traits.stops_the_world;
    claim.markers_before_record = traits.records_after_all_markers;
    claim.epochs = traits.tags_messages;
    claims.push_back(std::move(claim));
  }
  return claims;
}

RunRecord RunOf(const engine::Engine& bank) {
  RunRecord run;
  run.events = bank.history().events();
  run.topology = &bank.network();
  for (NodeId n = 0; n < bank.branch_count(); ++n) {
    run.initial_balances.push_back(bank.initial_balance(n));
    run.names.push_back(bank.name(n));
  }
  run.claims = ClaimsOf(bank);
  run.fifo = bank.network().fifo();
  run.app = bank.app();
  return run;
}

CheckReport CheckSnapshots(const engine::Engine& bank, Lang lang) {
  RunRecord run = RunOf(bank);
  if (!bank.history().enabled() && !run.claims.empty()) {
    const Findings& say = FindingsIn(lang);
    CheckReport report;
    report.problems.push_back(say.AboutHistory(say.NoHistory()));
    return report;
  }
  return CheckRun(run, lang);
}

}  // namespace cutline::check
