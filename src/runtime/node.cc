// One rank of a cluster run. Two communicators:
//   bank: the channels. Transfers and markers share it AND one tag, so that
//         MPI's non-overtaking rule makes each ordered pair of ranks a FIFO
//         channel; a marker on a tag of its own could pass the transfers
//         sent before it, and the snapshot would be wrong.
//   ctl:  control and collection (start a snapshot, a part, stop, counts),
//         where order against the transfers does not matter.
// Every rank runs one loop: take what arrived (held back by --link-delay),
// act on what is due, send a transfer when the rate says so, and sleep a
// little when there was nothing to do (ranks may outnumber cores).
#include "runtime/node.h"

#include <mpi.h>
#include <signal.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <thread>

#include <nlohmann/json.hpp>

#include "cutline/collector.h"
#include "cutline/snapshot_agent.h"
#include "cutline/wire.h"
#include "runtime/bytes.h"
#include "runtime/event_log.h"

namespace cutline::runtime {

namespace {

using Clock = std::chrono::steady_clock;
using Agent = SnapshotAgent<Amount, Amount>;
using Collector = SnapshotCollector<Amount, Amount>;

constexpr int kTag = 0;
constexpr int kCoordinator = 0;
// Application payloads on the bank channels.
constexpr char kTransfer = 'T';
constexpr char kEndOfStream = 'E';  // the sender will send no more transfers
// Transfers are of $1 to $100 (never more than the sender holds).
constexpr Amount kMostPerTransfer = 100;
// Control messages: the first byte says which.
enum class Ctl : char {
  kInit = 'I',      // coordinator -> rank: where to start
  kStart = 'S',     // coordinator -> initiator: start snapshot id
  kPart = 'P',      // rank -> coordinator: its part of a snapshot
  kCounts = 'C',    // rank -> coordinator: transfers sent so far (status line)
  kStop = 'X',      // coordinator -> rank: stop sending, flush, report
  kFinal = 'F',     // rank -> coordinator: final balance
  kPause = 'W',     // stop-the-world: stop sending, say what you sent
  kPaused = 'w',    //   rank -> coordinator: sent counts per peer
  kDrain = 'D',     //   coordinator -> rank: wait for these counts, then read
  kRead = 'r',      //   rank -> coordinator: balance, channels empty
  kResume = 'R',    //   coordinator -> rank: carry on
};

std::int64_t EpochMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

struct Envelope {
  Clock::time_point ready;
  int source;
  bool control;
  std::string bytes;
};

class Node {
 public:
  Node(const NodeOptions& options, int rank, int ranks, MPI_Comm bank, MPI_Comm ctl,
       std::unique_ptr<Sink> sink)
      : o_(options),
        rank_(rank),
        n_(ranks),
        bank_(bank),
        ctl_(ctl),
        sink_(std::move(sink)),
        agent_(static_cast<std::uint32_t>(ranks - 1)),
        collector_(static_cast<ProcessIndex>(ranks)),
        rng_(options.seed * 1000003u + static_cast<unsigned>(rank)),
        sent_to_(static_cast<std::size_t>(ranks), 0),
        received_from_(static_cast<std::size_t>(ranks), 0),
        out_n_(static_cast<std::size_t>(ranks), 0),
        in_n_(static_cast<std::size_t>(ranks), 0) {
    if (!options.log_dir.empty()) log_ = std::make_unique<EventLog>(options.log_dir, rank, ranks);
  }

  int Run();

 private:
  // --- the channels -------------------------------------------------------
  ChannelIndex In(int sender) const {
    return static_cast<ChannelIndex>(sender < rank_ ? sender : sender - 1);
  }
  int SenderOf(ChannelIndex c) const {
    return static_cast<int>(c) < rank_ ? static_cast<int>(c) : static_cast<int>(c) + 1;
  }
  void Send(MPI_Comm comm, int to, std::string bytes) {
    auto buffer = std::make_unique<std::string>(std::move(bytes));
    MPI_Request request;
    MPI_Isend(buffer->data(), static_cast<int>(buffer->size()), MPI_BYTE, to, kTag, comm,
              &request);
    in_flight_.push_back({request, std::move(buffer)});
  }
  void SendControl(int to, const Bytes& message) { Send(ctl_, to, message.str()); }
  // A transfer on the channel to `to` (with the sender's clock when logging).
  void SendTransfer(int to, Amount amount) {
    Bytes payload;
    payload.Char(kTransfer).I64(amount);
    std::string bytes = wire::EncodeApplication(payload.str());
    if (log_) bytes += log_->Send(to, ++out_n_[static_cast<std::size_t>(to)], amount);
    Send(bank_, to, std::move(bytes));
    ++sent_to_[static_cast<std::size_t>(to)];
  }
  void SendMarker(int to, SnapshotId id) {
    std::string clock;
    if (log_) clock = log_->SendMarker(to, ++out_n_[static_cast<std::size_t>(to)], id);
    Send(bank_, to, wire::EncodeMarker(id, clock));
  }
  [[noreturn]] void Die() {
    if (log_) log_->Flush();
    std::fflush(stdout);
    ::raise(SIGKILL);
    std::abort();
  }
  void Reap() {
    while (!in_flight_.empty()) {
      int done = 0;
      MPI_Test(&in_flight_.front().first, &done, MPI_STATUS_IGNORE);
      if (!done) break;
      in_flight_.pop_front();
    }
  }
  bool Poll(MPI_Comm comm, bool control);
  bool DeliverDue();

  // --- the branch ---------------------------------------------------------
  void OnBank(int from, std::string_view bytes);
  void OnControl(int from, std::string_view bytes);
  void Recorded(SnapshotId id, bool started_here);
  void AfterStep(SnapshotId id, const Step& step, bool started_here);
  bool MaybeTransfer();
  void CheckDrained();
  void BeginFlush();
  void MaybeFinal();

  // --- the coordinator (rank 0) -------------------------------------------
  bool Coordinate();
  void StartSnapshot();
  void OnPart(int from, Reader& r);
  void Whole(SnapshotId id, std::vector<Collector::Part> parts);
  void PrintStatus();
  void PrintSummary();

  const NodeOptions& o_;
  const int rank_;
  const int n_;
  MPI_Comm bank_;
  MPI_Comm ctl_;
  std::unique_ptr<Sink> sink_;
  Agent agent_;
  Collector collector_;
  std::mt19937_64 rng_;

  Amount balance_ = 0;
  bool sending_ = false;     // transfers flow (not before start, not while stopped)
  bool paused_ = false;      // stop-the-world holds sending
  bool stopped_ = false;     // STOP came: flushing
  bool final_sent_ = false;
  int ends_received_ = 0;
  std::uint64_t transfers_sent_ = 0;
  std::vector<std::uint64_t> sent_to_;
  std::vector<std::uint64_t> received_from_;
  std::vector<std::uint64_t> drain_target_;  // stop-the-world: counts to wait for
  std::optional<SnapshotId> draining_;
  Clock::time_point start_;
  Clock::time_point next_transfer_;
  std::deque<std::pair<MPI_Request, std::unique_ptr<std::string>>> in_flight_;
  std::deque<Envelope> arrived_;  // held back by --link-delay, in arrival order
  std::unique_ptr<EventLog> log_;  // --log-dir
  // Logged messages (transfers and markers) per channel, for the log's "n".
  std::vector<std::uint64_t> out_n_, in_n_;
  Clock::time_point next_counts_;

  // Coordinator only.
  struct Running {
    std::uint32_t initiator;
    std::int64_t started_us;
    Clock::time_point started;
  };
  std::map<SnapshotId, Running> running_;
  SnapshotId next_id_ = 1;
  Clock::time_point next_snapshot_;
  Clock::time_point next_status_;
  bool scheduling_ = true;
  bool stop_sent_ = false;
  Clock::time_point stop_deadline_;
  std::vector<std::uint64_t> counts_;  // transfers sent, by rank
  std::uint64_t complete_ = 0, failed_ = 0, wrong_ = 0;
  std::optional<Amount> latest_total_;
  Amount bank_total_ = 0;
  std::vector<double> latencies_us_;
  std::vector<double> stops_us_;
  int finals_ = 0;
  Amount final_total_ = 0;
  // Stop-the-world bookkeeping for the one snapshot at a time it allows.
  std::vector<std::vector<std::uint64_t>> paused_counts_;
  int paused_replies_ = 0;
  bool finished_ = false;
};

bool Node::Poll(MPI_Comm comm, bool control) {
  bool any = false;
  for (;;) {
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, kTag, comm, &flag, &status);
    if (!flag) return any;
    int size = 0;
    MPI_Get_count(&status, MPI_BYTE, &size);
    std::string bytes(static_cast<std::size_t>(size), '\0');
    MPI_Recv(bytes.data(), size, MPI_BYTE, status.MPI_SOURCE, kTag, comm, MPI_STATUS_IGNORE);
    // Held back for the link delay from its arrival: all messages wait the
    // same, so each sender's order is kept.
    arrived_.push_back({Clock::now() + o_.link_delay, status.MPI_SOURCE, control, std::move(bytes)});
    any = true;
  }
}

bool Node::DeliverDue() {
  bool any = false;
  auto now = Clock::now();
  while (!arrived_.empty() && arrived_.front().ready <= now) {
    Envelope e = std::move(arrived_.front());
    arrived_.pop_front();
    if (e.control) {
      OnControl(e.source, e.bytes);
    } else {
      OnBank(e.source, e.bytes);
    }
    any = true;
  }
  return any;
}

void Node::OnBank(int from, std::string_view bytes) {
  auto frame = wire::Decode(bytes);
  if (!frame) throw std::runtime_error(fmt::format("rank {} sent bytes that are no frame", from));
  ChannelIndex c = In(from);
  if (frame->kind == wire::FrameKind::kMarker) {
    if (log_) {
      Reader clock(frame->payload);
      log_->ReceiveMarker(from, ++in_n_[static_cast<std::size_t>(from)], frame->snapshot, clock);
    }
    Step step = agent_.OnMarker(frame->snapshot, c, balance_);
    if (!step.ok()) {
      throw std::runtime_error(fmt::format("marker of snapshot {} from rank {} refused",
                                           frame->snapshot, from));
    }
    AfterStep(frame->snapshot, step, false);
    return;
  }
  Reader r(frame->payload);
  char kind = r.Char();
  if (kind == kEndOfStream) {
    ++ends_received_;
    MaybeFinal();
    return;
  }
  Amount amount = r.I64();
  if (log_) log_->Receive(from, ++in_n_[static_cast<std::size_t>(from)], amount, r);
  // Recorded first (if a snapshot is recording this channel), then applied.
  agent_.OnMessage(c, amount);
  balance_ += amount;
  ++received_from_[static_cast<std::size_t>(from)];
  CheckDrained();
}

// Stop-the-world: once everything sent before the pause has arrived, the
// channels are empty and the balance alone is this rank's state.
void Node::CheckDrained() {
  if (!draining_) return;
  for (int i = 0; i < n_; ++i) {
    auto k = static_cast<std::size_t>(i);
    if (received_from_[k] < drain_target_[k]) return;
  }
  Bytes read;
  read.Char(static_cast<char>(Ctl::kRead)).U64(*draining_).I64(balance_);
  SendControl(kCoordinator, read);
  draining_.reset();
}

void Node::Recorded(SnapshotId id, bool started_here) {
  if (log_) log_->Record(id, balance_, !started_here);
  if (o_.kill && o_.kill->rank == static_cast<std::uint32_t>(rank_) && o_.kill->snapshot &&
      *o_.kill->snapshot == id) {
    Die();  // fault injection: right after recording, before the part is done
  }
  // Rule 1: a marker on every outgoing channel before anything else.
  for (int j = 0; j < n_; ++j) {
    if (j != rank_) SendMarker(j, id);
  }
}

void Node::AfterStep(SnapshotId id, const Step& step, bool started_here) {
  if (step.record_state) Recorded(id, started_here);
  if (!step.part_done) return;
  const Agent::Recorded* recorded = agent_.Find(id);
  Bytes part;
  part.Char(static_cast<char>(Ctl::kPart)).U64(id).I64(recorded->state);
  std::vector<std::vector<Amount>> by_sender(static_cast<std::size_t>(n_));
  for (ChannelIndex c = 0; c < agent_.incoming_channels(); ++c) {
    std::vector<Amount> messages = agent_.ChannelMessages(id, c);
    part.U64(messages.size());
    for (Amount a : messages) part.I64(a);
    by_sender[static_cast<std::size_t>(SenderOf(c))] = std::move(messages);
  }
  if (log_) log_->Part(id, recorded->state, by_sender);
  SendControl(kCoordinator, part);
  agent_.Forget(id);
}

void Node::OnControl(int from, std::string_view bytes) {
  Reader r(bytes);
  auto kind = static_cast<Ctl>(r.Char());
  switch (kind) {
    case Ctl::kStart: {
      SnapshotId id = r.U64();
      Step step = agent_.Start(id, balance_);
      if (!step.ok()) throw std::runtime_error(fmt::format("snapshot {} started twice", id));
      AfterStep(id, step, true);
      return;
    }
    case Ctl::kStop:
      BeginFlush();
      return;
    case Ctl::kPause: {
      paused_ = true;
      Bytes reply;
      reply.Char(static_cast<char>(Ctl::kPaused)).U64(r.U64());
      for (std::uint64_t s : sent_to_) reply.U64(s);
      SendControl(kCoordinator, reply);
      return;
    }
    case Ctl::kDrain: {
      SnapshotId id = r.U64();
      drain_target_.assign(static_cast<std::size_t>(n_), 0);
      for (auto& t : drain_target_) t = r.U64();
      draining_ = id;
      CheckDrained();
      return;
    }
    case Ctl::kResume:
      paused_ = false;
      next_transfer_ = Clock::now();  // what fell due while paused is lost
      return;
    default:
      break;
  }
  if (rank_ != kCoordinator) {
    throw std::runtime_error(fmt::format("unexpected control message from rank {}", from));
  }
  switch (kind) {
    case Ctl::kPart:
      OnPart(from, r);
      return;
    case Ctl::kCounts:
      counts_[static_cast<std::size_t>(from)] = r.U64();
      return;
    case Ctl::kFinal:
      counts_[static_cast<std::size_t>(from)] = r.U64();
      final_total_ += r.I64();
      ++finals_;
      return;
    case Ctl::kPaused: {
      r.U64();
      auto& row = paused_counts_[static_cast<std::size_t>(from)];
      for (auto& s : row) s = r.U64();
      if (++paused_replies_ == n_) {
        // Every rank has stopped: tell each what it must still receive.
        for (int j = 0; j < n_; ++j) {
          Bytes drain;
          drain.Char(static_cast<char>(Ctl::kDrain)).U64(running_.begin()->first);
          for (int i = 0; i < n_; ++i) {
            drain.U64(paused_counts_[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)]);
          }
          SendControl(j, drain);
        }
      }
      return;
    }
    case Ctl::kRead: {
      SnapshotId id = r.U64();
      Collector::Part part;
      part.state = r.I64();
      part.channels.assign(static_cast<std::size_t>(n_ - 1), {});
      if (collector_.Add(id, static_cast<ProcessIndex>(from), std::move(part)) ==
          Collector::Added::kComplete) {
        for (int j = 0; j < n_; ++j) SendControl(j, Bytes().Char(static_cast<char>(Ctl::kResume)));
        stops_us_.push_back(
            std::chrono::duration<double, std::micro>(Clock::now() - running_[id].started).count());
        Whole(id, *collector_.Take(id));
      }
      return;
    }
    default:
      throw std::runtime_error(fmt::format("unknown control message from rank {}", from));
  }
}

bool Node::MaybeTransfer() {
  if (!sending_ || paused_ || stopped_) return false;
  auto now = Clock::now();
  int due = 1;  // --rate max: one per turn of the loop
  if (o_.rate > 0) {
    auto interval = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(1.0 / o_.rate));
    // Transfers that fell due while the loop slept go out now (a pause of
    // stop-the-world is never made up for: see kResume); after a longer
    // stall, pacing starts again from now.
    if (now - next_transfer_ > std::chrono::milliseconds(2)) next_transfer_ = now;
    due = 0;
    while (next_transfer_ <= now && due < 64) {
      next_transfer_ += interval;
      ++due;
    }
  }
  bool sent = false;
  for (; due > 0 && balance_ > 0; --due) {
    int to = static_cast<int>(rng_() % static_cast<std::uint64_t>(n_ - 1));
    if (to >= rank_) ++to;
    Amount most = std::min<Amount>(balance_, kMostPerTransfer);
    Amount amount = 1 + static_cast<Amount>(rng_() % static_cast<std::uint64_t>(most));
    balance_ -= amount;
    SendTransfer(to, amount);
    ++transfers_sent_;
    sent = true;
  }
  return sent;
}

void Node::BeginFlush() {
  stopped_ = true;
  // Behind every transfer this rank sent, on each channel: the end.
  Bytes end;
  end.Char(kEndOfStream);
  for (int j = 0; j < n_; ++j) {
    if (j != rank_) Send(bank_, j, wire::EncodeApplication(end.str()));
  }
  MaybeFinal();
}

void Node::MaybeFinal() {
  if (!stopped_ || final_sent_ || ends_received_ < n_ - 1) return;
  // Every transfer sent to this rank has arrived: the balance is final.
  final_sent_ = true;
  Bytes final_message;
  final_message.Char(static_cast<char>(Ctl::kFinal)).U64(transfers_sent_).I64(balance_);
  SendControl(kCoordinator, final_message);
}

// --- the coordinator ---------------------------------------------------------

void Node::StartSnapshot() {
  SnapshotId id = next_id_++;
  // Initiators rotate over the branches.
  auto initiator = static_cast<std::uint32_t>((id - 1) % static_cast<std::uint64_t>(n_));
  running_[id] = {initiator, EpochMicros(), Clock::now()};
  sink_->Started(id, initiator, running_[id].started_us);
  if (o_.algorithm == Algorithm::kStopTheWorld) {
    paused_replies_ = 0;
    for (int j = 0; j < n_; ++j) {
      SendControl(j, Bytes().Char(static_cast<char>(Ctl::kPause)).U64(id));
    }
    return;
  }
  SendControl(static_cast<int>(initiator), Bytes().Char(static_cast<char>(Ctl::kStart)).U64(id));
}

void Node::OnPart(int from, Reader& r) {
  SnapshotId id = r.U64();
  Collector::Part part;
  part.state = r.I64();
  part.channels.resize(static_cast<std::size_t>(n_ - 1));
  for (auto& channel : part.channels) {
    channel.resize(r.U64());
    for (Amount& a : channel) a = r.I64();
  }
  auto added = collector_.Add(id, static_cast<ProcessIndex>(from), std::move(part));
  if (added == Collector::Added::kComplete) {
    Whole(id, *collector_.Take(id));
  } else if (added != Collector::Added::kPending) {
    throw std::runtime_error(fmt::format("rank {} sent a part of snapshot {} twice", from, id));
  }
}

void Node::Whole(SnapshotId id, std::vector<Collector::Part> parts) {
  Running started = running_[id];
  running_.erase(id);
  WholeSnapshot whole;
  whole.id = id;
  whole.initiator = started.initiator;
  whole.started_us = started.started_us;
  whole.completed_us = EpochMicros();
  for (int to = 0; to < n_; ++to) {
    auto& part = parts[static_cast<std::size_t>(to)];
    whole.balances.push_back(part.state);
  }
  // Channels in a fixed order: by sender, then receiver.
  for (int from = 0; from < n_; ++from) {
    for (int to = 0; to < n_; ++to) {
      if (from == to) continue;
      auto c = static_cast<std::size_t>(from < to ? from : from - 1);
      whole.channels.push_back({static_cast<std::uint32_t>(from), static_cast<std::uint32_t>(to),
                                std::move(parts[static_cast<std::size_t>(to)].channels[c])});
    }
  }
  latencies_us_.push_back(
      std::chrono::duration<double, std::micro>(Clock::now() - started.started).count());
  Amount total = whole.total();
  latest_total_ = total;
  ++complete_;
  if (total != bank_total_) ++wrong_;
  sink_->Complete(whole);
}

bool Node::Coordinate() {
  auto now = Clock::now();
  bool any = false;
  if (now >= next_status_) {
    PrintStatus();
    next_status_ = now + std::chrono::milliseconds(250);
  }
  if (scheduling_ && now - start_ >= o_.duration) {
    scheduling_ = false;
    stop_deadline_ = now + std::chrono::seconds(5) + 20 * o_.link_delay;
  }
  bool one_at_a_time = o_.algorithm == Algorithm::kStopTheWorld;
  if (scheduling_ && o_.snapshot_every && now >= next_snapshot_ &&
      !(one_at_a_time && !running_.empty())) {
    StartSnapshot();
    next_snapshot_ += *o_.snapshot_every;
    if (next_snapshot_ < now) next_snapshot_ = now + *o_.snapshot_every;
    any = true;
  }
  if (!scheduling_ && !stop_sent_ && (running_.empty() || now >= stop_deadline_)) {
    // Snapshots that could not finish in time are failed, not left running.
    for (const auto& [id, r] : running_) {
      collector_.Abandon(id);
      sink_->Failed(id);
      ++failed_;
    }
    running_.clear();
    stop_sent_ = true;
    for (int j = 0; j < n_; ++j) SendControl(j, Bytes().Char(static_cast<char>(Ctl::kStop)));
    any = true;
  }
  if (stop_sent_ && finals_ == n_) finished_ = true;
  return any;
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  auto at = static_cast<std::size_t>(p / 100.0 * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(at, v.size() - 1)];
}

void Node::PrintStatus() {
  std::uint64_t transfers = 0;
  for (auto c : counts_) transfers += c;
  double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
  nlohmann::json status = {
      {"elapsed_ms", static_cast<std::int64_t>(elapsed * 1000)},
      {"transfers", transfers},
      {"transfers_per_s", elapsed > 0 ? static_cast<double>(transfers) / elapsed : 0.0},
      {"complete", complete_},
      {"failed", failed_},
      {"wrong_totals", wrong_},
      {"latest_total", latest_total_ ? nlohmann::json(*latest_total_) : nlohmann::json()},
      {"left_ms", std::max<std::int64_t>(
                      0, std::chrono::duration_cast<std::chrono::milliseconds>(o_.duration).count() -
                             static_cast<std::int64_t>(elapsed * 1000))},
  };
  fmt::print("cutline-status {}\n", status.dump());
  std::fflush(stdout);
}

void Node::PrintSummary() {
  std::uint64_t transfers = 0;
  for (auto c : counts_) transfers += c;
  double seconds = std::chrono::duration<double>(o_.duration).count();
  nlohmann::json summary = {
      {"run", sink_->run_id()},
      {"ranks", n_},
      {"transfers", transfers},
      {"transfers_per_s", static_cast<double>(transfers) / seconds},
      {"complete", complete_},
      {"failed", failed_},
      {"wrong_totals", wrong_},
      {"bank_total", bank_total_},
      {"final_total", final_total_},
      {"latency_p50_us", Percentile(latencies_us_, 50)},
      {"latency_p99_us", Percentile(latencies_us_, 99)},
      {"stop_p50_us", Percentile(stops_us_, 50)},
      {"stop_p99_us", Percentile(stops_us_, 99)},
  };
  fmt::print("cutline-summary {}\n", summary.dump());
  std::fflush(stdout);
}

// --- one rank, start to end ---------------------------------------------------

int Node::Run() {
  // Where every rank starts: fresh balances, or a stored snapshot. Rank 0
  // reads the store (only it needs to reach the file) and tells the others.
  std::vector<Amount> balances(static_cast<std::size_t>(n_), o_.balance);
  std::vector<RecordedChannel> replay;
  std::uint64_t first_id = 1;
  if (rank_ == kCoordinator) {
    std::optional<RestorePoint> from;
    std::string error;
    bool ok = sink_->Begin(static_cast<std::uint32_t>(n_), o_.balance, o_.restore, o_.restore_id,
                           &from, &first_id, &error);
    if (!ok) {
      fmt::print(stderr, "cutline: error: {}\n", error);
      MPI_Abort(MPI_COMM_WORLD, 2);
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
                              {"total", bank_total_},
                              {"first_snapshot", first_id},
                              {"restored_from", from ? nlohmann::json(from->snapshot) : nlohmann::json()}}
                   .dump());
    std::fflush(stdout);
    for (int j = 0; j < n_; ++j) {
      Bytes init;
      init.Char(static_cast<char>(Ctl::kInit)).I64(balances[static_cast<std::size_t>(j)]);
      // What j must re-send first: the transfers its channels held.
      std::vector<const RecordedChannel*> mine;
      for (const auto& c : replay) {
        if (static_cast<int>(c.from) == j && !c.transfers.empty()) mine.push_back(&c);
      }
      init.U64(mine.size());
      for (const RecordedChannel* c : mine) {
        init.U64(c->to).U64(c->transfers.size());
        for (Amount t : c->transfers) init.I64(t);
      }
      SendControl(j, init);
    }
    counts_.assign(static_cast<std::size_t>(n_), 0);
    paused_counts_.assign(static_cast<std::size_t>(n_),
                          std::vector<std::uint64_t>(static_cast<std::size_t>(n_), 0));
    next_id_ = first_id;
    collector_ = Collector(static_cast<ProcessIndex>(n_), first_id);
  }
  // Blocking: nothing else can have been sent to this rank yet.
  MPI_Status status;
  MPI_Probe(kCoordinator, kTag, ctl_, &status);
  int size = 0;
  MPI_Get_count(&status, MPI_BYTE, &size);
  std::string bytes(static_cast<std::size_t>(size), '\0');
  MPI_Recv(bytes.data(), size, MPI_BYTE, kCoordinator, kTag, ctl_, MPI_STATUS_IGNORE);
  Reader init(bytes);
  if (static_cast<Ctl>(init.Char()) != Ctl::kInit) throw std::runtime_error("no start message");
  balance_ = init.I64();
  // Restored channels come first on their channels, before anything new.
  // The log sees the rank holding that money and sending it, so that a
  // replay of the log adds up.
  std::vector<std::pair<int, Amount>> resend;
  for (std::uint64_t k = init.U64(); k > 0; --k) {
    int to = static_cast<int>(init.U64());
    for (std::uint64_t t = init.U64(); t > 0; --t) resend.emplace_back(to, init.I64());
  }
  if (log_) {
    Amount held = balance_;
    for (const auto& [to, amount] : resend) held += amount;
    log_->Start(held);
  }
  for (const auto& [to, amount] : resend) SendTransfer(to, amount);
  MPI_Barrier(MPI_COMM_WORLD);

  start_ = Clock::now();
  next_transfer_ = start_;
  next_snapshot_ = start_ + o_.snapshot_every.value_or(Micros(0));
  next_status_ = start_;
  next_counts_ = start_;
  sending_ = true;
  bool done = false;
  while (!done) {
    bool busy = Poll(bank_, false);
    busy |= Poll(ctl_, true);
    busy |= DeliverDue();
    if (rank_ == kCoordinator) busy |= Coordinate();
    busy |= MaybeTransfer();
    Reap();
    auto now = Clock::now();
    if (o_.kill && o_.kill->rank == static_cast<std::uint32_t>(rank_) && o_.kill->at &&
        now - start_ >= *o_.kill->at) {
      Die();
    }
    if (now >= next_counts_ && !final_sent_) {
      SendControl(kCoordinator, Bytes().Char(static_cast<char>(Ctl::kCounts)).U64(transfers_sent_));
      next_counts_ = now + std::chrono::milliseconds(200);
    }
    done = final_sent_ && (rank_ != kCoordinator || finished_);
    if (!busy && !done) {
      // Ranks may outnumber cores: give the core away while idle.
      std::this_thread::sleep_for(std::chrono::microseconds(o_.rate > 0 ? 100 : 20));
    }
  }
  for (auto& [request, buffer] : in_flight_) MPI_Wait(&request, MPI_STATUS_IGNORE);
  in_flight_.clear();
  if (log_) log_->Flush();
  if (rank_ == kCoordinator) {
    sink_->End();
    PrintStatus();
    PrintSummary();
  }
  return wrong_ > 0 || (rank_ == kCoordinator && final_total_ != bank_total_) ? 1 : 0;
}

}  // namespace

int RunNode(const NodeOptions& options, int* argc, char*** argv,
            const std::function<std::unique_ptr<Sink>(std::uint32_t)>& make_sink) {
  int provided = 0;
  // Rank 0's sink may write from a thread of its own; only this thread calls MPI.
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    if (rank == 0) fmt::print(stderr, "cutline: error: a bank needs at least 2 ranks\n");
    MPI_Finalize();
    return 2;
  }
  if (options.kill && options.kill->rank >= static_cast<std::uint32_t>(size)) {
    if (rank == 0) {
      fmt::print(stderr, "cutline: error: --kill names rank {}, but there are {} ranks\n",
                 options.kill->rank, size);
    }
    MPI_Finalize();
    return 2;
  }
  MPI_Comm bank, ctl;
  MPI_Comm_dup(MPI_COMM_WORLD, &bank);
  MPI_Comm_dup(MPI_COMM_WORLD, &ctl);
  int code = 0;
  try {
    std::unique_ptr<Sink> sink =
        rank == 0 ? make_sink(static_cast<std::uint32_t>(size)) : std::make_unique<NullSink>();
    Node node(options, rank, size, bank, ctl, std::move(sink));
    code = node.Run();
  } catch (const std::exception& e) {
    fmt::print(stderr, "cutline: error: rank {}: {}\n", rank, e.what());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Comm_free(&bank);
  MPI_Comm_free(&ctl);
  MPI_Finalize();
  return code;
}

}  // namespace cutline::runtime
