// The dataflow's policy: starting at the sources, collecting and judging,
// the costs, and the end of the stream.
#include "runtime/dataflow_policy.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/overloaded.h"
#include "base/percentile.h"
#include "runtime/fault.h"

namespace cutline::runtime {

namespace {

// Each vertex's channels: its inputs and outputs in the topology. A part of
// another shape is refused by the collector (kWrongShape).
std::vector<PartShape> VertexShapes(const dataflow::Topology& t) {
  std::vector<PartShape> shapes;
  for (std::uint32_t v = 0; v < t.vertices(); ++v) {
    shapes.push_back({static_cast<std::uint32_t>(t.Inputs(v).size()),
                      static_cast<std::uint32_t>(t.Outputs(v).size())});
  }
  return shapes;
}

double Mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return v.empty() ? 0 : sum / static_cast<double>(v.size());
}

// A record's bytes as a snapshot persists it: its 8-byte key (the wire
// part's value).
constexpr double kRecordBytes = 8;

}  // namespace

// --- statistics -----------------------------------------------------------------

std::uint64_t DataflowStatistics::Emitted(const dataflow::Topology& t) const {
  std::uint64_t sum = 0;
  for (std::uint32_t v = 0; v < t.vertices(); ++v) {
    if (t.RoleOf(v) == dataflow::Role::kSource) sum += counts[v];
  }
  return sum;
}

std::uint64_t DataflowStatistics::Sunk(const dataflow::Topology& t) const {
  std::uint64_t sum = 0;
  for (std::uint32_t v = 0; v < t.vertices(); ++v) {
    if (t.RoleOf(v) == dataflow::Role::kSink) sum += counts[v];
  }
  return sum;
}

bool DataflowStatistics::Exact(const dataflow::Topology& t) const {
  // The drained stream holds nothing in flight: conservation's own rule
  // (dataflow/property.h) on the final counts.
  std::map<std::uint32_t, dataflow::Part> ended;
  for (std::uint32_t v = 0; v < t.vertices(); ++v) {
    if (v >= finals.size() || !finals[v]) return false;
    ended[v].state.emitted = finals[v]->emitted;
    ended[v].state.received = finals[v]->received;
  }
  const std::vector<dataflow::Boundary> boundaries = dataflow::Conservation(t, ended);
  return std::all_of(boundaries.begin(), boundaries.end(),
                     [](const dataflow::Boundary& b) { return b.holds(); });
}

// --- the policy ----------------------------------------------------------------

DataflowPolicy::DataflowPolicy(const NodeOptions& options, const DataflowOptions& dataflow)
    : o_(options),
      d_(dataflow),
      n_(static_cast<int>(dataflow.topology.vertices())),
      collector_(VertexShapes(dataflow.topology)) {
  stats_.counts.assign(static_cast<std::size_t>(n_), 0);
  stats_.finals.assign(static_cast<std::size_t>(n_), std::nullopt);
}

Ready DataflowPolicy::Begin(const std::optional<RestorePoint>& from, SnapshotId first_id,
                            nlohmann::json& run_line) {
  run_line["topology"] = d_.topology.spec();
  run_line["algorithm"] = o_.algorithm.name();
  Ready ready;
  for (int j = 0; j < n_; ++j) {
    protocol::Init init;
    if (from) {
      // Where vertex j starts: its recorded state, and the records in
      // flight on its outputs, which it sends first.
      const store::StoredVertex& v = from->vertices[static_cast<std::size_t>(j)];
      init.state = dataflow::EncodeState({v.received, v.emitted, v.per_key});
      for (const RecordedChannel& c : from->channels) {
        if (static_cast<int>(c.from) == j && !c.transfers.empty()) {
          init.resend.push_back({c.to, c.transfers});
        }
      }
      const bool source = d_.topology.RoleOf(static_cast<std::uint32_t>(j)) == dataflow::Role::kSource;
      stats_.counts[static_cast<std::size_t>(j)] = source ? v.emitted : v.received;
    }
    ready.Send(j, std::move(init));
  }
  collector_ = Collector(VertexShapes(d_.topology), first_id);
  return ready;
}

Ready DataflowPolicy::Start(SnapshotId id, std::uint32_t, Clock::time_point) {
  running_[id] = {EpochMicros(), std::vector<dataflow::SnapshotCost>(static_cast<std::size_t>(n_))};
  // Every source starts it (aligned barriers wait for a barrier from every
  // input, so a source left out would stall its whole downstream).
  Ready ready;
  for (std::uint32_t v = 0; v < d_.topology.stages()[0]; ++v) {
    ready.Send(static_cast<int>(v), protocol::Start{id});
  }
  return ready;
}

Ready DataflowPolicy::OnControl(int from, const protocol::Control& message, std::size_t,
                                Clock::time_point) {
  const auto rank = static_cast<std::size_t>(from);
  return std::visit(
      Overloaded{
          [&](const protocol::VertexPart& m) { return OnPart(from, m); },
          [&](const protocol::Counts& m) {
            stats_.counts[rank] = m.sent;
            return Ready{};
          },
          [&](const protocol::VertexFinal& m) {
            stats_.finals[rank] = m;
            const bool source = d_.topology.RoleOf(static_cast<std::uint32_t>(from)) ==
                                dataflow::Role::kSource;
            stats_.counts[rank] = source ? m.emitted : m.received;
            return Ready{};
          },
          [&](const auto& m) -> Ready {
            throw Fault(Status::Error(Code::kRuntimeNotForCoordinator, from, protocol::Name(m)));
          },
      },
      message);
}

Ready DataflowPolicy::OnPart(int from, protocol::VertexPart part) {
  if (part.rank != static_cast<std::uint32_t>(from)) {
    throw Fault(Status::Error(Code::kRuntimePartNamesOther, from, part.rank));
  }
  auto running = running_.find(part.id);
  if (running != running_.end()) running->second.costs[part.rank] = std::move(part.cost);
  const auto added = collector_.Add(part.id, part.rank, std::move(part.recorded));
  if (added == Collector::Added::kComplete) return Whole(part.id, *collector_.Take(part.id));
  if (added != Collector::Added::kPending && added != Collector::Added::kClosed) {
    // kClosed: a part of a snapshot given up while it travelled. Anything
    // else (twice, too old, the wrong shape) breaks the protocol.
    throw Fault(Status::Error(Code::kRuntimePartRefused, from, part.id,
                              std::string(cutline::ToString(added))));
  }
  return {};
}

Ready DataflowPolicy::Whole(SnapshotId id, std::vector<Collector::Part> parts) {
  Running r = std::move(running_[id]);
  running_.erase(id);
  std::map<std::uint32_t, dataflow::Part> by_vertex;
  double persisted = 0;
  for (std::uint32_t v = 0; v < parts.size(); ++v) {
    for (const auto& keys : parts[v].channels) persisted += static_cast<double>(keys.size());
    for (const auto& keys : parts[v].sent) persisted += static_cast<double>(keys.size());
    by_vertex.emplace(v, std::move(parts[v]));
  }
  bool holds = true;
  for (const dataflow::Boundary& b : dataflow::Conservation(d_.topology, by_vertex)) {
    holds &= b.holds();
  }
  if (!holds) {
    ++stats_.broken;
    if (!stats_.first_broken) stats_.first_broken = id;
  }
  Ready ready;
  ready.whole.push_back(ForSink(id, r, by_vertex));
  double alignment = 0, held_back = 0;
  bool switched = false;
  for (const dataflow::SnapshotCost& cost : r.costs) {
    alignment = std::max(alignment, static_cast<double>(cost.alignment_us));
    switched |= cost.switched;
    for (const dataflow::ChannelCost& c : cost.inputs) {
      held_back += static_cast<double>(c.held_back);
      ++stats_.channels;
      if (c.unaligned) ++stats_.unaligned_channels;
    }
  }
  if (switched) ++stats_.switched;
  stats_.alignment_us.push_back(alignment);
  stats_.persisted.push_back(persisted);
  stats_.held_back.push_back(held_back);
  return ready;
}

WholeSnapshot DataflowPolicy::ForSink(SnapshotId id, const Running& r,
                                      const std::map<std::uint32_t, dataflow::Part>& parts) const {
  const dataflow::Topology& t = d_.topology;
  WholeSnapshot w;
  w.id = id;
  w.initiator = 0;
  w.started_us = r.started_us;
  w.completed_us = EpochMicros();
  for (std::uint32_t v = 0; v < t.vertices(); ++v) {
    const dataflow::Part& part = parts.at(v);
    const dataflow::SnapshotCost& cost = r.costs[v];
    w.vertices.push_back({part.state.received, part.state.emitted, part.state.per_key,
                          cost.alignment_us, cost.switched, cost.overtaken});
    const std::vector<std::uint32_t> inputs = t.Inputs(v);
    for (std::size_t c = 0; c < inputs.size(); ++c) {
      const std::uint32_t u = inputs[c];
      RecordedChannel ch{u, v, {}, std::nullopt, std::nullopt};
      for (std::uint64_t key : part.channels[c]) ch.transfers.push_back(static_cast<Amount>(key));
      // What u's barrier jumped on its output to v, sent after those.
      const dataflow::Part& sender = parts.at(u);
      const std::vector<std::uint32_t> outputs = t.Outputs(u);
      const auto o = static_cast<std::size_t>(std::find(outputs.begin(), outputs.end(), v) -
                                              outputs.begin());
      if (o < sender.sent.size()) {
        for (std::uint64_t key : sender.sent[o]) ch.transfers.push_back(static_cast<Amount>(key));
      }
      if (c < cost.inputs.size()) {
        const dataflow::ChannelCost& cc = cost.inputs[c];
        ch.cost = store::StoredChannel::Cost{cc.unaligned, cc.waited_us, cc.held_back};
      }
      w.channels.push_back(std::move(ch));
    }
  }
  // The store keeps channels by sender, then receiver.
  std::sort(w.channels.begin(), w.channels.end(), [](const auto& a, const auto& b) {
    return std::pair(a.from, a.to) < std::pair(b.from, b.to);
  });
  return w;
}

Ready DataflowPolicy::Abandon(SnapshotId id, std::vector<std::uint32_t>* missing) {
  *missing = collector_.Missing(id);
  collector_.Abandon(id);
  running_.erase(id);
  return {};
}

bool DataflowPolicy::all_final() const {
  return std::all_of(stats_.finals.begin(), stats_.finals.end(),
                     [](const auto& f) { return f.has_value(); });
}

void DataflowPolicy::Status(nlohmann::json& line) const {
  line["wrong_totals"] = stats_.broken;
  line["latest_total"] = nullptr;  // records have no total worth showing
}

void DataflowPolicy::Summary(nlohmann::json& s) const {
  s["topology"] = d_.topology.spec();
  s["algorithm"] = o_.algorithm.name();
  s["buffers"] = d_.buffers;
  s["alignment_timeout_us"] =
      d_.alignment_timeout ? nlohmann::json(d_.alignment_timeout->count()) : nlohmann::json();
  s["slow"] = d_.slow ? nlohmann::json{{"rank", d_.slow->rank}, {"factor", d_.slow->factor}}
                      : nlohmann::json();
  s["emitted"] = stats_.Emitted(d_.topology);
  s["exactly_once"] = stats_.Exact(d_.topology);
  s["wrong_totals"] = stats_.broken;
  s["first_broken"] = stats_.first_broken ? nlohmann::json(*stats_.first_broken) : nlohmann::json();
  s["alignment_p50_us"] = Percentile(stats_.alignment_us, 50);
  s["alignment_p99_us"] = Percentile(stats_.alignment_us, 99);
  s["persisted_records_per_snapshot"] = Mean(stats_.persisted);
  s["persisted_bytes_per_snapshot"] = Mean(stats_.persisted) * kRecordBytes;
  s["held_back_per_snapshot"] = Mean(stats_.held_back);
  s["switched_snapshots"] = stats_.switched;
  s["unaligned_channels"] = stats_.unaligned_channels;
  s["channels"] = stats_.channels;
}

int DataflowPolicy::exit_code() const {
  return stats_.broken == 0 && stats_.Exact(d_.topology) ? 0 : 1;
}

}  // namespace cutline::runtime
