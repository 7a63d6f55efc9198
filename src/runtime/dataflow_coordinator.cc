// The dataflow's coordinator: scheduling at the sources, collecting and
// judging, the costs, and the end of the stream.
#include "runtime/dataflow_coordinator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "base/overloaded.h"
#include "base/percentile.h"

namespace cutline::runtime {

namespace {

// Each vertex's channels: its inputs and outputs in the topology. A part of
// another shape is refused by the collector (kWrongShape).
std::vector<PartShape> Shapes(const dataflow::Topology& t) {
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

// --- the coordinator ----------------------------------------------------------

DataflowCoordinator::DataflowCoordinator(const NodeOptions& options, const DataflowOptions& dataflow,
                                         Transport& transport, std::unique_ptr<Sink> sink)
    : o_(options),
      d_(dataflow),
      n_(static_cast<int>(dataflow.topology.vertices())),
      transport_(transport),
      sink_(std::move(sink)),
      collector_(Shapes(dataflow.topology)) {
  stats_.counts.assign(static_cast<std::size_t>(n_), 0);
  stats_.finals.assign(static_cast<std::size_t>(n_), std::nullopt);
}

Status DataflowCoordinator::Begin() {
  std::uint64_t first_id = 1;
  std::optional<RestorePoint> from;
  if (Status s = sink_->Begin(RunShapeOf(o_, static_cast<std::uint32_t>(n_)), o_.restore,
                              o_.restore_id, &from, &first_id);
      !s.ok()) {
    return s;
  }
  fmt::print("cutline-run {}\n",
             nlohmann::json{{"run", sink_->run_id()},
                            {"ranks", n_},
                            {"app", "dataflow"},
                            {"topology", d_.topology.spec()},
                            {"algorithm", o_.algorithm.name()},
                            {"first_snapshot", first_id},
                            {"restored_from", from ? nlohmann::json(from->snapshot) : nlohmann::json()}}
                 .dump());
  std::fflush(stdout);
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
    transport_.SendControl(j, init);
  }
  sunk_before_ = stats_.Sunk(d_.topology);
  if (from) restored_from_ = from->snapshot;
  next_id_ = first_id;
  collector_ = Collector(Shapes(d_.topology), first_id);
  return Status::Ok();
}

void DataflowCoordinator::Started(Clock::time_point now) {
  start_ = now;
  next_snapshot_ = now + o_.snapshot_every.value_or(Micros(0));
  next_status_ = now;
  next_progress_ = now;
}

void DataflowCoordinator::StartSnapshot() {
  const SnapshotId id = next_id_++;
  running_[id] = {Clock::now(), EpochMicros(),
                  std::vector<dataflow::SnapshotCost>(static_cast<std::size_t>(n_))};
  sink_->Started(id, /*initiator=*/0, running_[id].started_us);
  // Every source starts it (aligned barriers wait for a barrier from every
  // input, so a source left out would stall its whole downstream).
  for (std::uint32_t v = 0; v < d_.topology.stages()[0]; ++v) {
    transport_.SendControl(static_cast<int>(v), protocol::Start{id});
  }
}

void DataflowCoordinator::OnControl(int from, const protocol::Control& message, std::size_t) {
  const auto rank = static_cast<std::size_t>(from);
  std::visit(Overloaded{
                 [&](const protocol::VertexPart& m) { OnPart(from, m); },
                 [&](const protocol::Counts& m) { stats_.counts[rank] = m.sent; },
                 [&](const protocol::VertexFinal& m) {
                   stats_.finals[rank] = m;
                   const bool source = d_.topology.RoleOf(static_cast<std::uint32_t>(from)) ==
                                       dataflow::Role::kSource;
                   stats_.counts[rank] = source ? m.emitted : m.received;
                 },
                 [&](const auto& m) {
                   throw std::runtime_error(fmt::format(
                       "rank {} sent the coordinator a {} message", from, protocol::Name(m)));
                 },
             },
             message);
}

void DataflowCoordinator::OnPart(int from, protocol::VertexPart part) {
  if (part.rank != static_cast<std::uint32_t>(from)) {
    throw std::runtime_error(fmt::format("rank {} sent a part naming rank {}", from, part.rank));
  }
  auto running = running_.find(part.id);
  if (running != running_.end()) running->second.costs[part.rank] = std::move(part.cost);
  const auto added = collector_.Add(part.id, part.rank, std::move(part.recorded));
  if (added == Collector::Added::kComplete) {
    Whole(part.id, *collector_.Take(part.id));
  } else if (added != Collector::Added::kPending && added != Collector::Added::kClosed) {
    // kClosed: a part of a snapshot given up while it travelled. Anything
    // else (twice, too old, the wrong shape) breaks the protocol.
    throw std::runtime_error(fmt::format("rank {} sent a part of snapshot {} the collector refused: {}",
                                         from, part.id, cutline::ToString(added)));
  }
}

void DataflowCoordinator::Whole(SnapshotId id, std::vector<Collector::Part> parts) {
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
  sink_->Complete(ForSink(id, r, by_vertex));
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
  ++stats_.complete;
  if (switched) ++stats_.switched;
  stats_.latencies_us.push_back(
      std::chrono::duration<double, std::micro>(Clock::now() - r.started).count());
  stats_.alignment_us.push_back(alignment);
  stats_.persisted.push_back(persisted);
  stats_.held_back.push_back(held_back);
}

WholeSnapshot DataflowCoordinator::ForSink(SnapshotId id, const Running& r,
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

void DataflowCoordinator::Fail(SnapshotId id, bool timed_out) {
  std::vector<std::uint32_t> missing = collector_.Missing(id);
  sink_->Failed(id, timed_out, missing);
  collector_.Abandon(id);
  running_.erase(id);
  ++stats_.failed;
  if (timed_out) ++stats_.timed_out;
}

void DataflowCoordinator::EndEarly(Clock::time_point now) {
  if (!scheduling_) return;
  stats_.ended_early = true;
  StopScheduling(now);
}

void DataflowCoordinator::StopScheduling(Clock::time_point now) {
  scheduling_ = false;
  stopped_scheduling_ = now;
  // The snapshots running get this long to finish; then they fail.
  stop_deadline_ = now + std::chrono::seconds(5) + 20 * o_.link_delay;
}

bool DataflowCoordinator::Tick(Clock::time_point now) {
  bool any = false;
  std::vector<SnapshotId> late;
  for (const auto& [id, r] : running_) {
    if (now - r.started >= o_.snapshot_timeout) late.push_back(id);
  }
  for (SnapshotId id : late) Fail(id, /*timed_out=*/true);
  any = !late.empty();
  if (now >= next_status_) {
    PrintStatus(now);
    next_status_ = now + std::chrono::milliseconds(250);
  }
  if (now >= next_progress_) {
    sink_->Progress(stats_.Sunk(d_.topology));  // the store's heartbeat
    next_progress_ = now + std::chrono::seconds(1);
  }
  if (scheduling_ && now - start_ >= o_.duration) StopScheduling(now);
  // Snapshots overlap, a few at a time (the sources start them in one
  // order, so barriers never cross).
  constexpr std::size_t kMaxRunning = 8;
  if (scheduling_ && o_.snapshot_every && now >= next_snapshot_ && running_.size() < kMaxRunning) {
    StartSnapshot();
    next_snapshot_ += *o_.snapshot_every;
    if (next_snapshot_ < now) next_snapshot_ = now + *o_.snapshot_every;
    any = true;
  }
  if (!scheduling_ && !stop_sent_ && (running_.empty() || now >= stop_deadline_)) {
    std::vector<SnapshotId> unfinished;
    for (const auto& [id, r] : running_) unfinished.push_back(id);
    for (SnapshotId id : unfinished) Fail(id, /*timed_out=*/false);
    // The sources stop; the stream drains to the sinks.
    for (int j = 0; j < n_; ++j) transport_.SendControl(j, protocol::Stop{});
    stop_sent_ = true;
    any = true;
  }
  if (stop_sent_ && std::all_of(stats_.finals.begin(), stats_.finals.end(),
                                [](const auto& f) { return f.has_value(); })) {
    finished_ = true;
  }
  return any;
}

void DataflowCoordinator::PrintStatus(Clock::time_point now) {
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double left = std::chrono::duration<double>(o_.duration).count() - elapsed;
  const std::uint64_t sunk = stats_.Sunk(d_.topology);
  fmt::print("cutline-status {}\n",
             nlohmann::json{{"elapsed_ms", static_cast<std::int64_t>(elapsed * 1000)},
                            {"transfers", sunk},
                            {"transfers_per_s", elapsed > 0 ? static_cast<double>(sunk - sunk_before_) / elapsed : 0.0},
                            {"complete", stats_.complete},
                            {"failed", stats_.failed},
                            {"wrong_totals", stats_.broken},
                            {"latest_total", nullptr},
                            {"left_ms", std::max<std::int64_t>(0, static_cast<std::int64_t>(left * 1000))}}
                 .dump());
  std::fflush(stdout);
}

nlohmann::json DataflowCoordinator::Summary(double seconds) const {
  const DataflowStatistics& s = stats_;
  const std::uint64_t sunk = s.Sunk(d_.topology);
  return {
      {"run", sink_->run_id()},
      {"app", "dataflow"},
      {"ranks", n_},
      {"topology", d_.topology.spec()},
      {"algorithm", o_.algorithm.name()},
      {"restored_from", restored_from_ ? nlohmann::json(*restored_from_) : nlohmann::json()},
      {"buffers", d_.buffers},
      {"alignment_timeout_us",
       d_.alignment_timeout ? nlohmann::json(d_.alignment_timeout->count()) : nlohmann::json()},
      {"slow", d_.slow ? nlohmann::json{{"rank", d_.slow->rank}, {"factor", d_.slow->factor}}
                       : nlohmann::json()},
      {"emitted", s.Emitted(d_.topology)},
      {"transfers", sunk},  // records counted at the sinks
      {"transfers_per_s", static_cast<double>(sunk - sunk_before_) / seconds},
      {"exactly_once", s.Exact(d_.topology)},
      {"complete", s.complete},
      {"failed", s.failed},
      {"timed_out", s.timed_out},
      {"wrong_totals", s.broken},
      {"first_broken", s.first_broken ? nlohmann::json(*s.first_broken) : nlohmann::json()},
      {"gave_up", nlohmann::json::array()},
      {"ended_early", s.ended_early},
      {"latency_p50_us", Percentile(s.latencies_us, 50)},
      {"latency_p99_us", Percentile(s.latencies_us, 99)},
      {"latency_max_us", Percentile(s.latencies_us, 100)},
      {"alignment_p50_us", Percentile(s.alignment_us, 50)},
      {"alignment_p99_us", Percentile(s.alignment_us, 99)},
      {"persisted_records_per_snapshot", Mean(s.persisted)},
      {"persisted_bytes_per_snapshot", Mean(s.persisted) * kRecordBytes},
      {"held_back_per_snapshot", Mean(s.held_back)},
      {"switched_snapshots", s.switched},
      {"unaligned_channels", s.unaligned_channels},
      {"channels", s.channels},
  };
}

void DataflowCoordinator::End() {
  sink_->End(stats_.Sunk(d_.topology));
  PrintStatus(Clock::now());
  const double seconds = std::chrono::duration<double>(stopped_scheduling_ - start_).count();
  fmt::print("cutline-summary {}\n", Summary(seconds).dump());
  std::fflush(stdout);
}

int DataflowCoordinator::exit_code() const {
  return stats_.broken == 0 && stats_.Exact(d_.topology) ? 0 : 1;
}

}  // namespace cutline::runtime
