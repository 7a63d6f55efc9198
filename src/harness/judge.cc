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
  Builder(World& world, Lang lang)
      : world_(world), nodes_(world.nodes()), w_(nodes_.workload()),
        n_(static_cast<std::uint32_t>(w_.nodes.size())),
        topology_(n_, sim::Topology::Complete(n_)) {
    names_.push_back("");  // message numbers start at 1
    lang_ = lang;
  }

  StatusOr<Verdict> Run(const std::vector<Step>& path) {
    StatusOr<State> s = world_.Start();
    if (!s.ok()) return s.status();
    for (std::uint32_t n = 0; n < n_; ++n) {
      if (Status st = Answer(s->local[n]); !st.ok()) return st;
    }
    for (const Step& step : path) {
      std::optional<std::uint32_t> delivered;
      if (step.kind == Step::Kind::kDeliver) {
        delivered = s->channels[world_.ChannelOf(step.from, step.to)][step.index];
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
    }
    return Verdicts();
  }

 private:
  void Deliver(std::uint32_t m) {
    const Carried& c = nodes_.message(m);
    if (!c.transfer) return;
    delivered_.insert(m);
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
          if (!c.transfer) break;
          if (!ids_.emplace(std::make_pair(c.from, c.id), o.message).second) {
            return Status::Error(Code::kNodeTransferIdTwice, w_.nodes[c.from],
                                 static_cast<std::uint64_t>(c.id));
          }
          const Seq seq = static_cast<Seq>(names_.size());
          names_.push_back(fmt::format("{}-{}", w_.nodes[c.from], c.id));
          seq_[o.message] = seq;
          events_.push_back(history::Sent<history::Transfer>{
              seq, topology_.Find(c.from, c.to), {c.amount}});
          break;
        }
        case Output::Kind::kRecord: {
          Reports& r = Of(o.snapshot);
          if (!r.recorded[node]) r.recorded[node] = o.balance;
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

  StatusOr<Verdict> Verdicts() {
    Verdict v;
    std::vector<check::SnapshotClaim> claims;
    for (const Command& c : w_.commands) {
      if (c.kind != Command::Kind::kSnapshot) continue;
      if (world_.rules().skipped[static_cast<std::size_t>(&c - w_.commands.data())]) continue;
      const Reports& r = Of(c.snapshot);
      if (r.parts < n_) {
        v.findings.push_back(Incomplete(c.snapshot, r));
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
    const check::CheckReport report = check::CheckRun(run, lang_);
    v.findings.insert(v.findings.begin(), report.problems.begin(), report.problems.end());
    v.judged = static_cast<std::uint32_t>(report.snapshots_checked);
    return v;
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

  std::string Incomplete(SnapshotId id, const Reports& r) const {
    std::vector<std::string> unfinished, unrecorded;
    for (NodeId n = 0; n < n_; ++n) {
      if (r.part.empty() || !r.part[n]) unfinished.push_back(w_.nodes[n]);
      if (r.recorded.empty() || !r.recorded[n]) unrecorded.push_back(w_.nodes[n]);
    }
    catalogue::TestSaid said;
    said.id = id;
    said.nodes = unfinished;
    said.others = unrecorded;
    return check::FindingsIn(lang_).AboutSnapshot(
        id, catalogue::Say(catalogue::TestLine::kNeverCompleted, said, lang_));
  }

  World& world_;
  Nodes& nodes_;
  const Workload& w_;
  const std::uint32_t n_;
  sim::Topology topology_;
  Lang lang_ = Lang::kEn;
  std::vector<history::Event> events_;
  std::vector<std::string> names_;
  std::map<std::uint32_t, Seq> seq_;  // by Carried: a transfer's number in the history
  std::map<std::pair<std::uint32_t, std::int64_t>, std::uint32_t> ids_;  // (sender, msg_id) -> Carried
  std::map<SnapshotId, Reports> reports_;
  std::set<std::uint32_t> delivered_;  // the transfers delivered so far, by Carried
};

}  // namespace

StatusOr<Verdict> Judge(World& world, const std::vector<Step>& path, Lang lang) {
  return Builder(world, lang).Run(path);
}

}  // namespace cutline::harness
