// The coordinator: scheduling, collecting, stop-the-world's rounds, the end
// of a run, and the figures the status line and the summary print.
#include "runtime/coordinator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "base/overloaded.h"
#include "base/percentile.h"
#include "runtime/branch.h"
#include "store/store.h"

namespace cutline::runtime {

// --- statistics ---------------------------------------------------------------

std::uint64_t Statistics::transfers() const {
  std::uint64_t sum = 0;
  for (std::uint64_t c : sent) sum += c;
  return sum;
}

nlohmann::json Statistics::Status(double elapsed_s, double left_s) const {
  return {
      {"elapsed_ms", static_cast<std::int64_t>(elapsed_s * 1000)},
      {"transfers", transfers()},
      {"transfers_per_s", elapsed_s > 0 ? static_cast<double>(transfers()) / elapsed_s : 0.0},
      {"complete", complete},
      {"failed", failed},
      {"wrong_totals", wrong},
      {"latest_total", latest_total ? nlohmann::json(*latest_total) : nlohmann::json()},
      {"left_ms", std::max<std::int64_t>(0, static_cast<std::int64_t>(left_s * 1000))},
  };
}

nlohmann::json Statistics::Summary(std::int64_t run, int ranks, Amount bank_total,
                                   double seconds) const {
  return {
      {"run", run},
      {"ranks", ranks},
      {"transfers", transfers()},
      {"transfers_per_s", static_cast<double>(transfers()) / seconds},
      {"complete", complete},
      {"failed", failed},
      {"wrong_totals", wrong},
      {"timed_out", timed_out},
      {"gave_up", gave_up},
      {"ended_early", ended_early},
      {"bank_total", bank_total},
      {"final_total", final_total},
      {"latency_p50_us", Percentile(latencies_us, 50)},
      {"latency_p99_us", Percentile(latencies_us, 99)},
      {"stop_p50_us", Percentile(stops_us, 50)},
      {"stop_p99_us", Percentile(stops_us, 99)},
      {"collect_p50_us", Percentile(collect_us, 50)},
      {"collect_p99_us", Percentile(collect_us, 99)},
      {"collected_bytes", collected_bytes},
      {"collected_bytes_per_snapshot",
       complete > 0 ? static_cast<double>(collected_bytes) / static_cast<double>(complete) : 0.0},
      {"rank0_peak_rss_bytes", rank0.peak_rss_bytes},
      {"rank0_cpu_s", rank0.cpu_s},
  };
}

std::optional<std::int64_t> Statistics::TrueSince(apps::App app, const sim::Topology& topology,
                                                  const std::vector<sim::NodeId>& cycle) const {
  if (final_states.empty() || app.definition().true_since == nullptr) return std::nullopt;
  // After Stop every channel was drained: none in flight.
  const std::vector<std::vector<Amount>> drained(topology.channel_count());
  return app.definition().true_since({&topology, final_states, drained}, changed_us, cycle);
}

nlohmann::json Statistics::Property(apps::App app, const sim::Topology& topology) const {
  auto names = [](const std::vector<sim::NodeId>& branches) {
    std::vector<std::string> out;
    for (sim::NodeId b : branches) out.push_back(store::BranchName(b));
    return out;
  };
  nlohmann::json p = {{"app", app.name()}, {"property", app.definition().property}};
  p["detected_by"] = detected_by ? nlohmann::json(*detected_by) : nlohmann::json();
  std::optional<std::int64_t> truth;
  if (detected_by) {
    p["detected_us"] = detected_us;
    p["cycle"] = app.definition().reason_is_cycle ? nlohmann::json(names(detected.branches))
                                                  : nlohmann::json();
    truth = TrueSince(app, topology, detected.branches);
  } else {
    truth = TrueSince(app, topology, {});  // a property that holds without a cycle named
  }
  p["true_us"] = truth ? nlohmann::json(*truth) : nlohmann::json();
  p["delay_us"] = detected_by && truth ? nlohmann::json(detected_us - *truth) : nlohmann::json();
  // A snapshot's declaration the truth does not bear out: early (before
  // the property held) or wrong (it never did). Never expected.
  p["early"] = detected_by.has_value() && (!truth || detected_us < *truth);
  std::uint64_t wrong = 0;
  // Each declaration against the truth of what it names (a cycle, or the
  // whole state when its reason is not one).
  for (const Declaration& d : naive) {
    std::optional<std::int64_t> since = TrueSince(app, topology, d.verdict.branches);
    if (!since || d.at_us < *since) ++wrong;
  }
  p["naive_rounds"] = naive_rounds;
  p["naive_declared"] = naive.size();
  p["naive_false"] = wrong;
  return p;
}

// --- the coordinator ------------------------------------------------------------

namespace {
// Every rank has a channel from and to every other: a part of another shape
// is refused by the collector (kWrongShape).
std::vector<PartShape> Shapes(int ranks) {
  const auto others = static_cast<std::uint32_t>(ranks - 1);
  return std::vector<PartShape>(static_cast<std::size_t>(ranks), PartShape{others, others});
}
}  // namespace

Coordinator::Coordinator(const NodeOptions& options, int ranks, Transport& transport,
                         std::unique_ptr<Sink> sink)
    : o_(options),
      n_(ranks),
      transport_(transport),
      sink_(std::move(sink)),
      collector_(Shapes(ranks)),
      topology_(static_cast<std::uint32_t>(ranks),
                sim::Topology::Complete(static_cast<std::uint32_t>(ranks))) {
  stats_.sent.assign(static_cast<std::size_t>(n_), 0);
  paused_counts_.assign(static_cast<std::size_t>(n_),
                        std::vector<std::uint64_t>(static_cast<std::size_t>(n_), 0));
}

Status Coordinator::Begin() {
  // Where every rank starts: fresh balances, or a stored snapshot. Rank 0
  // reads the store (only it needs to reach the file) and tells the others.
  // Every rank opens at what the application's opening flag set (the
  // bank's --balance, jobs' --jobs), or at 0 (locks: active).
  const Amount opening = OpeningState(o_);
  std::vector<Amount> balances(static_cast<std::size_t>(n_), opening);
  std::vector<RecordedChannel> replay;
  std::uint64_t first_id = 1;
  std::optional<RestorePoint> from;
  if (Status s = sink_->Begin(RunShapeOf(o_, static_cast<std::uint32_t>(n_)), o_.restore,
                              o_.restore_id, &from, &first_id);
      !s.ok()) {
    return s;
  }
  if (from) {
    balances = from->balances;
    replay = from->channels;
  }
  for (Amount b : balances) bank_total_ += b;
  for (const auto& c : replay) {
    for (Amount t : c.transfers) bank_total_ += t;
  }
  fmt::print("cutline-run {}\n",
             nlohmann::json{{"run", sink_->run_id()},
                            {"ranks", n_},
                            {"app", o_.app.name()},
                            {"total", bank_total_},
                            {"first_snapshot", first_id},
                            {"restored_from", from ? nlohmann::json(from->snapshot) : nlohmann::json()}}
                 .dump());
  std::fflush(stdout);
  for (int j = 0; j < n_; ++j) {
    protocol::Init init{.balance = balances[static_cast<std::size_t>(j)], .resend = {}, .state = {}};
    // What j must re-send first: the transfers its channels held.
    for (const auto& c : replay) {
      if (static_cast<int>(c.from) == j && !c.transfers.empty()) {
        init.resend.push_back({c.to, c.transfers});
      }
    }
    transport_.SendControl(j, init);
  }
  next_id_ = first_id;
  collector_ = Collector(Shapes(n_), first_id);
  return Status::Ok();
}

void Coordinator::Started(Clock::time_point now) {
  start_ = now;
  next_snapshot_ = now + o_.snapshot_every.value_or(Micros(0));
  next_status_ = now;
  next_progress_ = now;
  next_naive_ = now;
}

void Coordinator::StartSnapshot() {
  SnapshotId id = next_id_++;
  // Initiators rotate over the branches.
  auto initiator = static_cast<std::uint32_t>((id - 1) % static_cast<std::uint64_t>(n_));
  running_[id] = {initiator, EpochMicros(), Clock::now()};
  sink_->Started(id, initiator, running_[id].started_us);
  if (o_.algorithm.traits().stops_the_world) {
    paused_replies_ = 0;
    for (int j = 0; j < n_; ++j) transport_.SendControl(j, protocol::Pause{id});
    return;
  }
  transport_.SendControl(static_cast<int>(initiator), protocol::Start{id});
}

void Coordinator::OnControl(int from, const protocol::Control& message, std::size_t bytes) {
  const auto rank = static_cast<std::size_t>(from);
  std::visit(Overloaded{
                 [&](const protocol::Part& m) { OnPart(from, m, bytes); },
                 [&](const protocol::Counts& m) { stats_.sent[rank] = m.sent; },
                 [&](const protocol::Final& m) {
                   stats_.sent[rank] = m.sent;
                   stats_.final_total += m.balance;
                   stats_.final_states.resize(static_cast<std::size_t>(n_), 0);
                   stats_.changed_us.resize(static_cast<std::size_t>(n_), 0);
                   stats_.final_states[rank] = m.balance;
                   stats_.changed_us[rank] = m.changed_us;
                   ++stats_.finals;
                 },
                 [&](const protocol::Answer& m) { OnAnswer(from, m); },
                 [&](const protocol::Paused& m) { OnPaused(from, m); },
                 [&](const protocol::Read& m) { OnRead(from, m, bytes); },
                 [&](const protocol::GiveUp& m) {
                   // Given up already (or complete) if no longer running.
                   if (running_.contains(m.id)) GiveUp(m.id, Clock::now(), /*timed_out=*/false);
                 },
                 [&](const auto& m) {
                   throw std::runtime_error(fmt::format(
                       "rank {} sent the coordinator a {} message", from, protocol::Name(m)));
                 },
             },
             message);
}

void Coordinator::OnPart(int from, protocol::Part part, std::size_t bytes) {
  if (part.rank != static_cast<std::uint32_t>(from)) {
    throw std::runtime_error(fmt::format("rank {} sent a part naming rank {}", from, part.rank));
  }
  PartTiming timing{part.recorded_us, std::move(part.marker_us), bytes};
  auto added = collector_.Add(part.id, part.rank, std::move(part.recorded));
  if (added == Collector::Added::kComplete || added == Collector::Added::kPending) {
    auto& by_rank = timing_[part.id];
    by_rank.resize(static_cast<std::size_t>(n_));
    by_rank[static_cast<std::size_t>(from)] = std::move(timing);
  }
  if (added == Collector::Added::kComplete) {
    Whole(part.id, *collector_.Take(part.id));
  } else if (added == Collector::Added::kClosed) {
    // A part of a snapshot given up (timed out) while it travelled.
  } else if (added == Collector::Added::kDuplicate) {
    throw std::runtime_error(fmt::format("rank {} sent a part of snapshot {} twice", from, part.id));
  } else if (added != Collector::Added::kPending) {
    // The collector names what is wrong (too old, too far ahead, the wrong
    // shape): a rank that sends such a part breaks the protocol.
    throw std::runtime_error(fmt::format("rank {} sent a part of snapshot {} the collector refused: {}",
                                         from, part.id, cutline::ToString(added)));
  }
}

void Coordinator::OnPaused(int from, const protocol::Paused& m) {
  if (m.sent_to.size() != static_cast<std::size_t>(n_)) {
    throw std::runtime_error(fmt::format("rank {} sent counts for {} ranks", from, m.sent_to.size()));
  }
  paused_counts_[static_cast<std::size_t>(from)] = m.sent_to;
  if (++paused_replies_ < n_) return;
  // Every rank has stopped: tell each what it must still receive.
  for (int j = 0; j < n_; ++j) {
    protocol::Drain drain{m.id, {}};
    for (int i = 0; i < n_; ++i) {
      drain.expect_from.push_back(
          paused_counts_[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)]);
    }
    transport_.SendControl(j, drain);
  }
}

void Coordinator::OnRead(int from, const protocol::Read& m, std::size_t bytes) {
  Collector::Part part;
  part.state = m.balance;
  part.channels.assign(static_cast<std::size_t>(n_ - 1), {});
  auto& by_rank = timing_[m.id];
  by_rank.resize(static_cast<std::size_t>(n_));
  // The channels were drained, not closed by markers: each closed when its
  // receiver read its balance.
  by_rank[static_cast<std::size_t>(from)] = {
      m.recorded_us, std::vector<std::int64_t>(static_cast<std::size_t>(n_ - 1), m.recorded_us),
      bytes};
  if (collector_.Add(m.id, static_cast<ProcessIndex>(from), std::move(part)) ==
      Collector::Added::kComplete) {
    for (int j = 0; j < n_; ++j) transport_.SendControl(j, protocol::Resume{});
    stats_.stops_us.push_back(
        std::chrono::duration<double, std::micro>(Clock::now() - running_[m.id].started).count());
    Whole(m.id, *collector_.Take(m.id));
  }
}

void Coordinator::Whole(SnapshotId id, std::vector<Collector::Part> parts) {
  Running started = running_[id];
  running_.erase(id);
  std::vector<PartTiming> timing = std::move(timing_[id]);
  timing_.erase(id);
  timing.resize(static_cast<std::size_t>(n_));
  WholeSnapshot whole;
  whole.id = id;
  whole.initiator = started.initiator;
  whole.started_us = started.started_us;
  whole.completed_us = EpochMicros();
  std::uint64_t bytes = 0;
  for (int r = 0; r < n_; ++r) {
    whole.balances.push_back(parts[static_cast<std::size_t>(r)].state);
    whole.recorded_us.push_back(timing[static_cast<std::size_t>(r)].recorded_us);
    bytes += timing[static_cast<std::size_t>(r)].bytes;
  }
  // The last part became due when the last channel closed (a rank sends
  // its part at its last marker): what comes after is the collector's.
  std::int64_t last_closed = 0;
  for (const PartTiming& t : timing) {
    last_closed = std::max(last_closed, t.recorded_us);
    for (std::int64_t at : t.marker_us) last_closed = std::max(last_closed, at);
  }
  // Channels in a fixed order: by sender, then receiver. Rank `to` numbers
  // its incoming channels by sender, skipping itself.
  for (int from = 0; from < n_; ++from) {
    for (int to = 0; to < n_; ++to) {
      if (from == to) continue;
      auto c = static_cast<std::size_t>(from < to ? from : from - 1);
      const auto& markers = timing[static_cast<std::size_t>(to)].marker_us;
      std::optional<std::int64_t> marker_us;
      if (c < markers.size() && markers[c] != 0) marker_us = markers[c];
      whole.channels.push_back({static_cast<std::uint32_t>(from), static_cast<std::uint32_t>(to),
                                std::move(parts[static_cast<std::size_t>(to)].channels[c]),
                                marker_us});
    }
  }
  stats_.latencies_us.push_back(
      std::chrono::duration<double, std::micro>(Clock::now() - started.started).count());
  stats_.collect_us.push_back(
      static_cast<double>(std::max<std::int64_t>(0, whole.completed_us - last_closed)));
  stats_.collected_bytes += bytes;
  Amount total = whole.total();
  stats_.latest_total = total;
  ++stats_.complete;
  failed_in_a_row_.clear();
  if (o_.app.conserved() && total != bank_total_) ++stats_.wrong;
  if (o_.app.has_property()) {
    // The property on the recorded states and channel states: the
    // application's own rule (src/apps), as the simulator applies it.
    std::vector<std::vector<Amount>> channels;
    for (const RecordedChannel& c : whole.channels) channels.push_back(c.transfers);
    apps::GlobalState g{&topology_, whole.balances, channels};
    whole.verdict = o_.app.Evaluate(g);
    if (log_verdict_) log_verdict_(id, *whole.verdict);
    if (whole.verdict->holds && !stats_.detected_by) {
      // Stable: it holds from here on. The run has found what it ran for.
      stats_.detected_by = id;
      stats_.detected_us = whole.completed_us;
      stats_.detected = *whole.verdict;
      if (scheduling_) StopScheduling(Clock::now());
    }
  }
  sink_->Complete(whole);
}

bool Coordinator::TickNaive(Clock::time_point now) {
  if (!o_.app.has_property() || !scheduling_ || naive_asked_ || now < next_naive_) return false;
  if (naive_reads_.empty()) naive_reads_.assign(static_cast<std::size_t>(n_), std::nullopt);
  // One rank after another, as a reader walking the branches would.
  int next = 0;
  while (naive_reads_[static_cast<std::size_t>(next)]) ++next;
  naive_asked_ = next;
  transport_.SendControl(next, protocol::Query{stats_.naive_rounds});
  return true;
}

void Coordinator::OnAnswer(int from, const protocol::Answer& m) {
  if (naive_asked_ != from || m.round != stats_.naive_rounds) {
    throw std::runtime_error(fmt::format("rank {} answered a query it was not asked", from));
  }
  naive_asked_.reset();
  naive_reads_[static_cast<std::size_t>(from)] = m.state;
  if (from + 1 < n_) return;
  apps::Verdict v = o_.app.Naive(naive_reads_);
  if (v.holds) stats_.naive.push_back({m.at_us, std::move(v)});
  ++stats_.naive_rounds;
  naive_reads_.clear();
  // Rounds a millisecond apart: often enough to be fooled, rarely enough
  // to leave the ranks their work.
  next_naive_ = Clock::now() + std::chrono::milliseconds(1);
}

void Coordinator::EndEarly(Clock::time_point now) {
  if (!scheduling_) return;
  stats_.ended_early = true;
  StopScheduling(now);
}

void Coordinator::StopScheduling(Clock::time_point now) {
  scheduling_ = false;
  stopped_scheduling_ = now;
  // The snapshots running get this long to finish; then they fail and
  // every rank is told to stop.
  stop_deadline_ = now + std::chrono::seconds(5) + 20 * o_.link_delay;
}

void Coordinator::GiveUp(SnapshotId id, Clock::time_point now, bool timed_out) {
  sink_->Failed(id, timed_out, collector_.Missing(id));
  collector_.Abandon(id);
  timing_.erase(id);
  running_.erase(id);
  ++stats_.failed;
  if (timed_out) ++stats_.timed_out;
  for (int j = 0; j < n_; ++j) transport_.SendControl(j, protocol::Abort{id});
  // Stopping the world: the branches it paused go on.
  if (o_.algorithm.traits().stops_the_world) {
    for (int j = 0; j < n_; ++j) transport_.SendControl(j, protocol::Resume{});
  }
  Failure(id, now);
}

void Coordinator::Failure(SnapshotId id, Clock::time_point now) {
  failed_in_a_row_.push_back(id);
  if (failed_in_a_row_.size() < o_.tolerable_failures || !stats_.gave_up.empty()) return;
  // Too many in a row: something keeps snapshots from finishing (a stuck
  // rank, a channel that never drains). The run stops rather than go on
  // without a checkpoint.
  stats_.gave_up = failed_in_a_row_;
  if (scheduling_) StopScheduling(now);
}

bool Coordinator::Tick(Clock::time_point now) {
  bool any = false;
  // Snapshots running for longer than --snapshot-timeout are given up.
  std::vector<SnapshotId> late;
  for (const auto& [id, r] : running_) {
    if (now - r.started >= o_.snapshot_timeout) late.push_back(id);
  }
  for (SnapshotId id : late) GiveUp(id, now, /*timed_out=*/true);
  any = !late.empty();
  if (now >= next_status_) {
    PrintStatus(now);
    next_status_ = now + std::chrono::milliseconds(250);
  }
  any |= TickNaive(now);
  if (now >= next_progress_) {
    // The store's heartbeat: what a reader of the file calls live.
    sink_->Progress(stats_.transfers());
    next_progress_ = now + std::chrono::seconds(1);
  }
  if (scheduling_ && now - start_ >= o_.duration) StopScheduling(now);
  // Snapshots overlap, but not without bound: a healthy one finishes in
  // milliseconds, so many running at once means they are stuck (a rank
  // died and Open MPI has not ended the job yet, a channel that does not
  // drain). Starting more would only add failed ones.
  constexpr std::size_t kMaxRunning = 8;
  const std::size_t may_run = o_.algorithm.traits().concurrent_snapshots ? kMaxRunning : 1;
  if (scheduling_ && o_.snapshot_every && now >= next_snapshot_ && running_.size() < may_run) {
    StartSnapshot();
    next_snapshot_ += *o_.snapshot_every;
    if (next_snapshot_ < now) next_snapshot_ = now + *o_.snapshot_every;
    any = true;
  }
  if (!scheduling_ && !stop_sent_ && (running_.empty() || now >= stop_deadline_)) {
    // Snapshots that could not finish in time are failed, not left running.
    for (const auto& [id, r] : running_) {
      sink_->Failed(id, /*timed_out=*/false, collector_.Missing(id));
      collector_.Abandon(id);
      timing_.erase(id);
      ++stats_.failed;
    }
    running_.clear();
    stop_sent_ = true;
    for (int j = 0; j < n_; ++j) transport_.SendControl(j, protocol::Stop{});
    any = true;
  }
  if (stop_sent_ && stats_.finals == n_) finished_ = true;
  return any;
}

void Coordinator::PrintStatus(Clock::time_point now) {
  double elapsed = std::chrono::duration<double>(now - start_).count();
  double left = std::chrono::duration<double>(o_.duration).count() - elapsed;
  fmt::print("cutline-status {}\n", stats_.Status(elapsed, left).dump());
  std::fflush(stdout);
}

void Coordinator::End() {
  sink_->End(stats_.transfers());
  // After the sink's last write: the peak covers everything the run held.
  stats_.rank0 = OwnUsage();
  PrintStatus(Clock::now());
  nlohmann::json summary =
      stats_.Summary(sink_->run_id(), n_, bank_total_,
                     std::chrono::duration<double>(stopped_scheduling_ - start_).count());
  summary["app"] = o_.app.name();
  if (o_.app.has_property()) summary["property"] = stats_.Property(o_.app, topology_);
  fmt::print("cutline-summary {}\n", summary.dump());
  std::fflush(stdout);
}

int Coordinator::exit_code() const {
  if (o_.app.has_property()) {
    return stats_.wrong > 0 || stats_.Property(o_.app, topology_)["early"].get<bool>() ? 1 : 0;
  }
  return stats_.wrong > 0 || stats_.final_total != bank_total_ ? 1 : 0;
}

}  // namespace cutline::runtime
