// The one coordinator loop: scheduling, timeouts, the failure budget, the
// end of a run, and the lines rank 0 prints (policy.h says what an
// application adds to each).
#include "runtime/scheduler.h"

#include <algorithm>

#include "base/percentile.h"
#include "runtime/usage.h"

namespace cutline::runtime {

namespace {
// How often the status line is printed and the store's heartbeat given.
constexpr auto kStatusEvery = std::chrono::milliseconds(250);
constexpr auto kProgressEvery = std::chrono::seconds(1);
// Snapshots overlap, but not without bound: a healthy one finishes in
// milliseconds, so many running at once means they are stuck (a rank died
// and Open MPI has not ended the job yet, a channel that does not drain).
// Starting more would only add failed ones.
constexpr std::size_t kMaxRunning = 8;

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }
}  // namespace

Scheduler::Scheduler(const NodeOptions& options, int ranks, std::unique_ptr<Policy> policy,
                     std::unique_ptr<Sink> sink, Outbox& out)
    : o_(options), n_(ranks), policy_(std::move(policy)), sink_(std::move(sink)), out_(out) {}

Status Scheduler::Begin() {
  // Where every rank starts: fresh, or a stored snapshot. Rank 0 reads the
  // store (only it needs to reach the file) and tells the others.
  std::uint64_t first_id = 1;
  std::optional<RestorePoint> from;
  if (Status s = sink_->Begin(RunShapeOf(o_, static_cast<std::uint32_t>(n_)), o_.restore,
                              o_.restore_id, &from, &first_id);
      !s.ok()) {
    return s;
  }
  if (from) restored_from_ = from->snapshot;
  nlohmann::json run = {{"run", sink_->run_id()},
                        {"ranks", n_},
                        {"app", o_.app.name()},
                        {"first_snapshot", first_id},
                        {"restored_from", from ? nlohmann::json(from->snapshot) : nlohmann::json()}};
  Ready inits = policy_->Begin(from, first_id, run);
  out_.Line("cutline-run", run);
  next_id_ = first_id;
  work_before_ = policy_->work();
  for (const auto& [to, message] : inits.send) Send(to, message);
  return Status::Ok();
}

void Scheduler::Started(Clock::time_point now) {
  start_ = now;
  next_snapshot_ = now + o_.snapshot_every.value_or(Micros(0));
  next_status_ = now;
  next_progress_ = now;
}

void Scheduler::Send(int to, const protocol::Control& message) {
  if (to != kEveryRank) {
    out_.Send(to, message);
    return;
  }
  for (int j = 0; j < n_; ++j) out_.Send(j, message);
}

void Scheduler::StartSnapshot(Clock::time_point now) {
  const SnapshotId id = next_id_++;
  const std::uint32_t initiator = policy_->Initiator(id);
  running_[id] = {now};
  sink_->Started(id, initiator, EpochMicros());
  Apply(policy_->Start(id, initiator, now), now);
}

void Scheduler::OnControl(int from, const protocol::Control& message, std::size_t bytes,
                          Clock::time_point now) {
  Apply(policy_->OnControl(from, message, bytes, now), now);
}

void Scheduler::Apply(Ready ready, Clock::time_point now) {
  for (const auto& [to, message] : ready.send) Send(to, message);
  for (WholeSnapshot& whole : ready.whole) {
    auto running = running_.find(whole.id);
    if (running != running_.end()) {
      latencies_us_.push_back(
          std::chrono::duration<double, std::micro>(now - running->second.started).count());
      running_.erase(running);
    }
    ++complete_;
    failed_in_a_row_.clear();
    sink_->Complete(whole);
  }
  for (SnapshotId id : ready.give_up) {
    // Given up already (or complete) if no longer running.
    if (running_.contains(id)) GiveUp(id, now, /*timed_out=*/false);
  }
  if (ready.found && scheduling_) StopScheduling(now);
}

void Scheduler::GiveUp(SnapshotId id, Clock::time_point now, bool timed_out) {
  std::vector<std::uint32_t> missing;
  Ready also = policy_->Abandon(id, &missing);
  sink_->Failed(id, timed_out, missing);
  running_.erase(id);
  ++failed_;
  if (timed_out) ++timed_out_;
  Send(kEveryRank, protocol::Abort{id});
  for (const auto& [to, message] : also.send) Send(to, message);
  // Too many in a row: something keeps snapshots from finishing (a stuck
  // rank, a channel that never drains). The run stops rather than go on
  // without a checkpoint.
  failed_in_a_row_.push_back(id);
  if (failed_in_a_row_.size() >= o_.tolerable_failures && gave_up_.empty()) {
    gave_up_ = failed_in_a_row_;
    if (scheduling_) StopScheduling(now);
  }
}

void Scheduler::EndEarly(Clock::time_point now) {
  if (!scheduling_) return;
  ended_early_ = true;
  StopScheduling(now);
}

void Scheduler::StopScheduling(Clock::time_point now) {
  scheduling_ = false;
  stopped_scheduling_ = now;
  // The snapshots running get this long to finish; then they fail and
  // every rank is told to stop.
  stop_deadline_ = now + std::chrono::seconds(5) + 20 * o_.link_delay;
}

bool Scheduler::Tick(Clock::time_point now) {
  // Snapshots running for longer than --snapshot-timeout are given up.
  std::vector<SnapshotId> late;
  for (const auto& [id, r] : running_) {
    if (now - r.started >= o_.snapshot_timeout) late.push_back(id);
  }
  for (SnapshotId id : late) GiveUp(id, now, /*timed_out=*/true);
  bool any = !late.empty();
  if (now >= next_status_) {
    out_.Line("cutline-status", StatusBody(now));
    next_status_ = now + kStatusEvery;
  }
  Ready due = policy_->Tick(now, scheduling_);
  any |= !due.send.empty();
  Apply(std::move(due), now);
  if (now >= next_progress_) {
    // The store's heartbeat: what a reader of the file calls live.
    sink_->Progress(policy_->work());
    next_progress_ = now + kProgressEvery;
  }
  if (scheduling_ && now - start_ >= o_.duration) StopScheduling(now);
  const std::size_t may_run = std::min(kMaxRunning, policy_->may_run());
  if (scheduling_ && o_.snapshot_every && now >= next_snapshot_ && running_.size() < may_run) {
    StartSnapshot(now);
    next_snapshot_ += *o_.snapshot_every;
    if (next_snapshot_ < now) next_snapshot_ = now + *o_.snapshot_every;
    any = true;
  }
  if (!scheduling_ && !stop_sent_ && (running_.empty() || now >= stop_deadline_)) {
    // Snapshots that could not finish in time are failed, not left running.
    for (const auto& [id, r] : running_) {
      std::vector<std::uint32_t> missing;
      policy_->Abandon(id, &missing);
      sink_->Failed(id, /*timed_out=*/false, missing);
      ++failed_;
    }
    running_.clear();
    // Stop: the ranks end their channels (a dataflow drains to its sinks)
    // and report.
    Send(kEveryRank, protocol::Stop{});
    stop_sent_ = true;
    any = true;
  }
  if (stop_sent_ && policy_->all_final()) finished_ = true;
  return any;
}

nlohmann::json Scheduler::StatusBody(Clock::time_point now) const {
  const double elapsed = Seconds(now - start_);
  const double left = Seconds(o_.duration) - elapsed;
  const std::uint64_t work = policy_->work();
  nlohmann::json line = {
      {"elapsed_ms", static_cast<std::int64_t>(elapsed * 1000)},
      {"transfers", work},
      {"transfers_per_s", elapsed > 0 ? static_cast<double>(work - work_before_) / elapsed : 0.0},
      {"complete", complete_},
      {"failed", failed_},
      {"left_ms", std::max<std::int64_t>(0, static_cast<std::int64_t>(left * 1000))},
  };
  policy_->Status(line);
  return line;
}

void Scheduler::End() {
  const std::uint64_t work = policy_->work();
  sink_->End(work);
  // After the sink's last write: the peak covers everything the run held.
  const Usage rank0 = OwnUsage();
  const auto now = Clock::now();
  out_.Line("cutline-status", StatusBody(now));
  const double seconds = Seconds(stopped_scheduling_ - start_);
  nlohmann::json summary = {
      {"run", sink_->run_id()},
      {"app", o_.app.name()},
      {"ranks", n_},
      {"restored_from", restored_from_ ? nlohmann::json(*restored_from_) : nlohmann::json()},
      {"transfers", work},
      {"transfers_per_s", static_cast<double>(work - work_before_) / seconds},
      {"complete", complete_},
      {"failed", failed_},
      {"timed_out", timed_out_},
      {"gave_up", gave_up_},
      {"ended_early", ended_early_},
      {"latency_p50_us", Percentile(latencies_us_, 50)},
      {"latency_p99_us", Percentile(latencies_us_, 99)},
      {"latency_max_us", Percentile(latencies_us_, 100)},
      {"rank0_peak_rss_bytes", rank0.peak_rss_bytes},
      {"rank0_cpu_s", rank0.cpu_s},
  };
  policy_->Summary(summary);
  // Rank 0's verdict on the run, which `cluster` exits with.
  summary["exit_code"] = policy_->exit_code();
  out_.Line("cutline-summary", summary);
}

}  // namespace cutline::runtime
