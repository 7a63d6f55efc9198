// The branches' policy: starting, collecting, stop-the-world's rounds, the
// naive detector, and the figures the status line and the summary add.
#include "runtime/branches_policy.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/overloaded.h"
#include "base/percentile.h"
#include "runtime/fault.h"
#include "store/store.h"

namespace cutline::runtime {

// --- statistics ---------------------------------------------------------------

std::uint64_t Statistics::transfers() const {
  std::uint64_t sum = 0;
  for (std::uint64_t c : sent) sum += c;
  return sum;
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

// --- the policy -------------------------------------------------------------------

namespace {
// Every rank has a channel from and to every other: a part of another shape
// is refused by the collector (kWrongShape).
std::vector<PartShape> BranchShapes(int ranks) {
  const auto others = static_cast<std::uint32_t>(ranks - 1);
  return std::vector<PartShape>(static_cast<std::size_t>(ranks), PartShape{others, others});
}
}  // namespace

BranchesPolicy::BranchesPolicy(const NodeOptions& options, int ranks)
    : o_(options),
      n_(ranks),
      collector_(BranchShapes(ranks)),
      topology_(static_cast<std::uint32_t>(ranks),
                sim::Topology::Complete(static_cast<std::uint32_t>(ranks))) {
  stats_.sent.assign(static_cast<std::size_t>(n_), 0);
  paused_counts_.assign(static_cast<std::size_t>(n_),
                        std::vector<std::uint64_t>(static_cast<std::size_t>(n_), 0));
}

bool BranchesPolicy::stops_the_world() const { return o_.algorithm.traits().stops_the_world; }

std::size_t BranchesPolicy::may_run() const {
  return o_.algorithm.traits().concurrent_snapshots ? SIZE_MAX : 1;
}

std::uint32_t BranchesPolicy::Initiator(SnapshotId id) const {
  // Initiators rotate over the branches.
  return static_cast<std::uint32_t>((id - 1) % static_cast<std::uint64_t>(n_));
}

Ready BranchesPolicy::Begin(const std::optional<RestorePoint>& from, SnapshotId first_id,
                            nlohmann::json& run_line) {
  // Every rank opens at what the application's opening flag set (the
  // bank's --balance, jobs' --jobs), or at 0 (locks: active).
  std::vector<Amount> balances(static_cast<std::size_t>(n_), OpeningState(o_));
  std::vector<RecordedChannel> replay;
  if (from) {
    balances = from->balances;
    replay = from->channels;
  }
  for (Amount b : balances) bank_total_ += b;
  for (const auto& c : replay) {
    for (Amount t : c.transfers) bank_total_ += t;
  }
  run_line["total"] = bank_total_;
  Ready ready;
  for (int j = 0; j < n_; ++j) {
    protocol::Init init{.balance = balances[static_cast<std::size_t>(j)], .resend = {}, .state = {}};
    // What j must re-send first: the transfers its channels held.
    for (const auto& c : replay) {
      if (static_cast<int>(c.from) == j && !c.transfers.empty()) {
        init.resend.push_back({c.to, c.transfers});
      }
    }
    ready.Send(j, std::move(init));
  }
  collector_ = Collector(BranchShapes(n_), first_id);
  return ready;
}

Ready BranchesPolicy::Start(SnapshotId id, std::uint32_t initiator, Clock::time_point now) {
  running_[id] = {initiator, EpochMicros(), now};
  Ready ready;
  if (stops_the_world()) {
    paused_replies_ = 0;
    ready.Send(kEveryRank, protocol::Pause{id});
  } else {
    ready.Send(static_cast<int>(initiator), protocol::Start{id});
  }
  return ready;
}

Ready BranchesPolicy::OnControl(int from, const protocol::Control& message, std::size_t bytes,
                                Clock::time_point now) {
  const auto rank = static_cast<std::size_t>(from);
  return std::visit(
      Overloaded{
          [&](const protocol::Part& m) { return OnPart(from, m, bytes); },
          [&](const protocol::Counts& m) {
            stats_.sent[rank] = m.sent;
            return Ready{};
          },
          [&](const protocol::Final& m) {
            stats_.sent[rank] = m.sent;
            stats_.final_total += m.balance;
            stats_.final_states.resize(static_cast<std::size_t>(n_), 0);
            stats_.changed_us.resize(static_cast<std::size_t>(n_), 0);
            stats_.final_states[rank] = m.balance;
            stats_.changed_us[rank] = m.changed_us;
            ++stats_.finals;
            return Ready{};
          },
          [&](const protocol::Answer& m) {
            OnAnswer(from, m, now);
            return Ready{};
          },
          [&](const protocol::Paused& m) { return OnPaused(from, m); },
          [&](const protocol::Read& m) { return OnRead(from, m, bytes, now); },
          [&](const protocol::GiveUp& m) {
            Ready ready;
            ready.give_up.push_back(m.id);
            return ready;
          },
          [&](const auto& m) -> Ready {
            throw Fault(Status::Error(Code::kRuntimeNotForCoordinator, from, protocol::Name(m)));
          },
      },
      message);
}

Ready BranchesPolicy::OnPart(int from, protocol::Part part, std::size_t bytes) {
  if (part.rank != static_cast<std::uint32_t>(from)) {
    throw Fault(Status::Error(Code::kRuntimePartNamesOther, from, part.rank));
  }
  PartTiming timing{part.recorded_us, std::move(part.marker_us), bytes};
  auto added = collector_.Add(part.id, part.rank, std::move(part.recorded));
  if (added == Collector::Added::kComplete || added == Collector::Added::kPending) {
    auto& by_rank = timing_[part.id];
    by_rank.resize(static_cast<std::size_t>(n_));
    by_rank[static_cast<std::size_t>(from)] = std::move(timing);
  }
  if (added == Collector::Added::kComplete) return Whole(part.id, *collector_.Take(part.id));
  if (added == Collector::Added::kDuplicate) {
    throw Fault(Status::Error(Code::kRuntimePartTwice, from, part.id));
  }
  if (added != Collector::Added::kPending && added != Collector::Added::kClosed) {
    // kClosed: a part of a snapshot given up (timed out) while it
    // travelled. Anything else (too old, too far ahead, the wrong shape):
    // a rank that sends such a part breaks the protocol.
    throw Fault(Status::Error(Code::kRuntimePartRefused, from, part.id,
                              std::string(cutline::ToString(added))));
  }
  return {};
}

Ready BranchesPolicy::OnPaused(int from, const protocol::Paused& m) {
  if (m.sent_to.size() != static_cast<std::size_t>(n_)) {
    throw Fault(Status::Error(Code::kRuntimeCountsRanks, from, m.sent_to.size()));
  }
  paused_counts_[static_cast<std::size_t>(from)] = m.sent_to;
  if (++paused_replies_ < n_) return {};
  // Every rank has stopped: tell each what it must still receive.
  Ready ready;
  for (int j = 0; j < n_; ++j) {
    protocol::Drain drain{m.id, {}};
    for (int i = 0; i < n_; ++i) {
      drain.expect_from.push_back(
          paused_counts_[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)]);
    }
    ready.Send(j, std::move(drain));
  }
  return ready;
}

Ready BranchesPolicy::OnRead(int from, const protocol::Read& m, std::size_t bytes,
                             Clock::time_point now) {
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
  if (collector_.Add(m.id, static_cast<ProcessIndex>(from), std::move(part)) !=
      Collector::Added::kComplete) {
    return {};
  }
  Ready ready;
  ready.Send(kEveryRank, protocol::Resume{});
  stats_.stops_us.push_back(
      std::chrono::duration<double, std::micro>(now - running_[m.id].started).count());
  ready.Append(Whole(m.id, *collector_.Take(m.id)));
  return ready;
}

Ready BranchesPolicy::Whole(SnapshotId id, std::vector<Collector::Part> parts) {
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
  stats_.collect_us.push_back(
      static_cast<double>(std::max<std::int64_t>(0, whole.completed_us - last_closed)));
  stats_.collected_bytes += bytes;
  const Amount total = whole.total();
  stats_.latest_total = total;
  if (o_.app.conserved() && total != bank_total_) ++stats_.wrong;
  Ready ready;
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
      ready.found = true;
    }
  }
  ready.whole.push_back(std::move(whole));
  return ready;
}

Ready BranchesPolicy::Abandon(SnapshotId id, std::vector<std::uint32_t>* missing) {
  *missing = collector_.Missing(id);
  collector_.Abandon(id);
  timing_.erase(id);
  running_.erase(id);
  Ready ready;
  // Stopping the world: the branches it paused go on.
  if (stops_the_world()) ready.Send(kEveryRank, protocol::Resume{});
  return ready;
}

Ready BranchesPolicy::Tick(Clock::time_point now, bool scheduling) {
  // The naive detector: asks the next rank, or starts a round when due.
  if (!o_.app.has_property() || !scheduling || naive_asked_ ||
      (next_naive_ && now < *next_naive_)) {
    return {};
  }
  if (naive_reads_.empty()) naive_reads_.assign(static_cast<std::size_t>(n_), std::nullopt);
  // One rank after another, as a reader walking the branches would.
  int next = 0;
  while (naive_reads_[static_cast<std::size_t>(next)]) ++next;
  naive_asked_ = next;
  Ready ready;
  ready.Send(next, protocol::Query{stats_.naive_rounds});
  return ready;
}

void BranchesPolicy::OnAnswer(int from, const protocol::Answer& m, Clock::time_point now) {
  if (naive_asked_ != from || m.round != stats_.naive_rounds) {
    throw Fault(Status::Error(Code::kRuntimeAnswerUnasked, from));
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
  next_naive_ = now + std::chrono::milliseconds(1);
}

void BranchesPolicy::Status(nlohmann::json& line) const {
  line["wrong_totals"] = stats_.wrong;
  line["latest_total"] = stats_.latest_total ? nlohmann::json(*stats_.latest_total) : nlohmann::json();
}

void BranchesPolicy::Summary(nlohmann::json& s) const {
  // One collect time per complete snapshot.
  const std::size_t complete = stats_.collect_us.size();
  s["wrong_totals"] = stats_.wrong;
  s["bank_total"] = bank_total_;
  s["final_total"] = stats_.final_total;
  s["stop_p50_us"] = Percentile(stats_.stops_us, 50);
  s["stop_p99_us"] = Percentile(stats_.stops_us, 99);
  s["collect_p50_us"] = Percentile(stats_.collect_us, 50);
  s["collect_p99_us"] = Percentile(stats_.collect_us, 99);
  s["collected_bytes"] = stats_.collected_bytes;
  s["collected_bytes_per_snapshot"] =
      complete > 0 ? static_cast<double>(stats_.collected_bytes) / static_cast<double>(complete) : 0.0;
  if (o_.app.has_property()) s["property"] = stats_.Property(o_.app, topology_);
}

int BranchesPolicy::exit_code() const {
  if (o_.app.has_property()) {
    return stats_.wrong > 0 || stats_.Property(o_.app, topology_)["early"].get<bool>() ? 1 : 0;
  }
  return stats_.wrong > 0 || stats_.final_total != bank_total_ ? 1 : 0;
}

}  // namespace cutline::runtime
