#include "harness/judge.h"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <set>

#include "catalogue/test_lines.h"
#include "check/consistency_checker.h"
#include "check/findings.h"
#include "history/history.h"
#include "sim/network.h"

namespace cutline::harness {

namespace {

using history::ChannelRecord;
using sim::NodeId;
using sim::Seq;

// What one snapshot's reports say so far.
struct Reports {
  std::vector<std::optional<cutline::Amount>> recorded;  // by node, its first record
  std::vector<std::optional<std::vector<std::pair<std::uint32_t, std::vector<std::int64_t>>>>>
      part;  // by node, the channels its first part_done lists
  std::uint32_t parts = 0;
};

class Builder {
 public:
  // `trace`, when given, is filled as the walk goes (TraceOf).
  Builder(World& world, Trace* trace = nullptr)
      : world_(world), nodes_(world.nodes()), w_(nodes_.workload()),
        n_(static_cast<std::uint32_t>(w_.nodes.size())),
        topology_(n_, sim::Topology::Complete(n_)), trace_(trace),
        balances_(n_, w_.balance) {
    names_.push_back("");  // message numbers start at 1
  }

  // The walk; then Verdicts(lang), once per language wanted.
  Status Run(const std::vector<Step>& path) {
    StatusOr<State> s = world_.Start();
    if (!s.ok()) return s.status();
    if (trace_) trace_->steps.emplace_back();
    for (std::uint32_t n = 0; n < n_; ++n) {
      if (Status st = Answer(s->local[n]); !st.ok()) return st;
    }
    Traced(*s);
    for (const Step& step : path) {
      std::optional<std::uint32_t> delivered;
      if (step.kind == Step::Kind::kDeliver) {
        delivered = s->channels[world_.ChannelOf(step.from, step.to)][step.index];
      }
      if (trace_) {
        trace_->steps.emplace_back();
        if (step.kind != Step::Kind::kCommand) {
          trace_->steps.back().message =
              Numbered(s->channels[world_.ChannelOf(step.from, step.to)][step.index]);
        }
      }
      StatusOr<State> next = world_.Apply(*s, step);
      if (!next.ok()) return next.status();
      s = std::move(next);
      if (step.kind == Step::Kind::kCommand) {
        const std::uint32_t node = w_.commands[step.index].node;
        if (Status st = Answer(s->local[node]); !st.ok()) return st;
      } else if (delivered) {
        // The records it made before the delivery took effect come first:
        // the delivered transfer is outside their cut.
        if (Status st = Answer(s->local[step.to], /*before_input=*/true); !st.ok()) return st;
        Deliver(*delivered);
        if (Status st = Answer(s->local[step.to], false); !st.ok()) return st;
      }
      Traced(*s);
    }
    return Status::Ok();
  }

  StatusOr<Verdict> Verdicts(Lang lang) {
    Verdict v;
    std::vector<check::SnapshotClaim> claims;
    for (const Command& c : w_.commands) {
      if (c.kind != Command::Kind::kSnapshot) continue;
      if (world_.rules().skipped[static_cast<std::size_t>(&c - w_.commands.data())]) continue;
      const Reports& r = Of(c.snapshot);
      if (r.parts < n_) {
        v.findings.push_back(Incomplete(c.snapshot, r, lang));
        continue;
      }
      claims.push_back(Claim(c.snapshot, r));
    }
    check::RunRecord run{.app = apps::App::kBank};
    run.events = events_;
    run.topology = &topology_;
    run.initial_balances.assign(n_, w_.balance);
    run.names = w_.nodes;
    run.message_names = names_;
    run.claims = claims;
    run.fifo = !world_.rules().reorder;
    const check::CheckReport report = check::CheckRun(run, lang);
    v.findings.insert(v.findings.begin(), report.problems.begin(), report.problems.end());
    v.judged = static_cast<std::uint32_t>(report.snapshots_checked);
    return v;
  }

 private:
  // A carried message's number in the trace, given at its first sight.
  std::uint32_t Numbered(std::uint32_t carried) {
    auto [it, fresh] =
        traced_.try_emplace(carried, static_cast<std::uint32_t>(trace_->messages.size()));
    if (fresh) {
      const Carried& c = nodes_.message(carried);
      const nlohmann::json& type = c.body.contains("type") ? c.body["type"] : nlohmann::json();
      trace_->messages.push_back(TraceMessage{c.from, c.to,
                                              type.is_string() ? type.get<std::string>() : "",
                                              c.transfer, c.amount, c.id});
    }
    return it->second;
  }

  // The state after a step, as the trace keeps it.
  void Traced(const State& s) {
    if (!trace_) return;
    TraceStep& t = trace_->steps.back();
    t.balances = balances_;
    t.in_flight.resize(s.channels.size());
    for (std::size_t c = 0; c < s.channels.size(); ++c) {
      for (std::uint32_t m : s.channels[c]) t.in_flight[c].push_back(Numbered(m));
    }
  }

  void Deliver(std::uint32_t m) {
    const Carried& c = nodes_.message(m);
    if (!c.transfer) return;
    delivered_.insert(m);
    balances_[c.to] += c.amount;
    const Seq seq = seq_.at(m);
    events_.push_back(history::Delivered<history::Transfer>{
        seq, topology_.Find(c.from, c.to), {c.amount}});
  }

  // A node's answer to its last input, as history: every output, or (for a
  // delivery, in two passes) the records made before the input took effect,
  // then the rest.
  Status Answer(std::uint32_t local, std::optional<bool> before_input = std::nullopt) {
    const Local& l = nodes_.local(local);
    const NodeId node = l.node;
    for (const Output& o : l.outputs) {
      const bool early = o.kind == Output::Kind::kRecord && o.before_input;
      if (before_input && *before_input != early) continue;
      switch (o.kind) {
        case Output::Kind::kSend: {
          const Carried& c = nodes_.message(o.message);
          if (trace_) trace_->steps.back().sent.push_back(Numbered(o.message));
          if (!c.transfer) break;
          if (!ids_.emplace(std::make_pair(c.from, c.id), o.message).second) {
            return Status::Error(Code::kNodeTransferIdTwice, w_.nodes[c.from],
                                 static_cast<std::uint64_t>(c.id));
          }
          balances_[c.from] -= c.amount;
          const Seq seq = static_cast<Seq>(names_.size());
          names_.push_back(TransferName(w_.nodes[c.from], c.id));
          seq_[o.message] = seq;
          events_.push_back(history::Sent<history::Transfer>{
              seq, topology_.Find(c.from, c.to), {c.amount}});
          break;
        }
        case Output::Kind::kRecord: {
          Reports& r = Of(o.snapshot);
          if (!r.recorded[node]) {
            r.recorded[node] = o.balance;
            if (trace_) trace_->steps.back().records.push_back({node, o.snapshot, o.balance});
          }
          events_.push_back(history::Recorded{o.snapshot, history::Cause::Start(), node});
          break;
        }
        case Output::Kind::kPartDone: {
          Reports& r = Of(o.snapshot);
          if (r.part[node]) break;  // its first part counts
          // A transfer it lists must have reached it already.
          for (const auto& [from, ids] : o.channels) {
            for (std::int64_t id : ids) {
              auto it = ids_.find({from, id});
              if (it == ids_.end() || nodes_.message(it->second).to != node ||
                  !delivered_.contains(it->second)) {
                return Status::Error(Code::kNodeReportUnsent, w_.nodes[node], o.snapshot,
                                     w_.nodes[from], static_cast<std::uint64_t>(id));
              }
            }
          }
          r.part[node] = o.channels;
          if (trace_) trace_->steps.back().parts.push_back({node, o.snapshot, o.channels});
          events_.push_back(history::PartDone{o.snapshot, node});
          if (++r.parts == n_) events_.push_back(history::Completed{o.snapshot, node});
          break;
        }
      }
    }
    return Status::Ok();
  }

  Reports& Of(SnapshotId id) {
    auto [it, fresh] = reports_.try_emplace(id);
    if (fresh) {
      it->second.recorded.assign(n_, std::nullopt);
      it->second.part.assign(n_, std::nullopt);
    }
    return it->second;
  }

  // The claim the nodes' reports make: the states they recorded, and the
  // transfers they list per channel as amounts.
  check::SnapshotClaim Claim(SnapshotId id, const Reports& r) {
    check::SnapshotClaim claim;
    claim.id = id;
    // The algorithm's messages are opaque to the tester: no marker rule
    // applies, and no marker closes a channel. The cut alone says what a
    // channel's state must be: the transfers sent before their sender
    // recorded and delivered after their receiver recorded (as Lai-Yang's
    // epochs say it).
    claim.markers = false;
    claim.epochs = true;
    claim.balances = r.recorded;
    claim.channels.assign(topology_.channel_count(), ChannelRecord{});
    for (NodeId n = 0; n < n_; ++n) {
      for (const auto& [from, ids] : *r.part[n]) {
        ChannelRecord& record = claim.channels[topology_.Find(from, n)];
        record.state = ChannelRecording::kClosed;
        for (std::int64_t id_sent : ids) {  // each checked when its part came (Answer)
          record.transfers.push_back(nodes_.message(ids_.at({from, id_sent})).amount);
        }
      }
    }
    return claim;
  }

  std::string Incomplete(SnapshotId id, const Reports& r, Lang lang) const {
    std::vector<std::string> unfinished, unrecorded;
    for (NodeId n = 0; n < n_; ++n) {
      if (r.part.empty() || !r.part[n]) unfinished.push_back(w_.nodes[n]);
      if (r.recorded.empty() || !r.recorded[n]) unrecorded.push_back(w_.nodes[n]);
    }
    catalogue::TestSaid said;
    said.id = id;
    said.nodes = unfinished;
    said.others = unrecorded;
    return check::FindingsIn(lang).AboutSnapshot(
        id, catalogue::Say(catalogue::TestLine::kNeverCompleted, said, lang));
  }

  World& world_;
  Nodes& nodes_;
  const Workload& w_;
  const std::uint32_t n_;
  sim::Topology topology_;
  Trace* trace_;
  std::map<std::uint32_t, std::uint32_t> traced_;  // Carried -> its number in the trace
  std::vector<cutline::Amount> balances_;  // by node, as the tester knows them
  std::vector<history::Event> events_;
  std::vector<std::string> names_;
  std::map<std::uint32_t, Seq> seq_;  // by Carried: a transfer's number in the history
  std::map<std::pair<std::uint32_t, std::int64_t>, std::uint32_t> ids_;  // (sender, msg_id) -> Carried
  std::map<SnapshotId, Reports> reports_;
  std::set<std::uint32_t> delivered_;  // the transfers delivered so far, by Carried
};

}  // namespace

std::string TransferName(const std::string& sender, std::int64_t id) {
  return fmt::format("{}-{}", sender, id);
}

StatusOr<Verdict> Judge(World& world, const std::vector<Step>& path, Lang lang) {
  Builder b(world);
  if (Status s = b.Run(path); !s.ok()) return s;
  return b.Verdicts(lang);
}

StatusOr<Trace> TraceOf(World& world, const std::vector<Step>& path) {
  Trace trace;
  Builder b(world, &trace);
  if (Status s = b.Run(path); !s.ok()) return s;
  StatusOr<Verdict> en = b.Verdicts(Lang::kEn);
  StatusOr<Verdict> ja = b.Verdicts(Lang::kJa);
  if (!en.ok()) return en.status();
  if (!ja.ok()) return ja.status();
  trace.findings_en = std::move(en->findings);
  trace.findings_ja = std::move(ja->findings);
  trace.judged = en->judged;
  return trace;
}

}  // namespace cutline::harness
