// A branch: transfers out at the rate asked, transfers and markers in, the
// agent's rules applied to both, parts to the coordinator.
#include "runtime/branch.h"

#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "cutline/wire.h"
#include "base/overloaded.h"
#include "runtime/fault.h"

namespace cutline::runtime {

namespace {
// Transfers are of $1 to $100 (never more than the sender holds).
constexpr Amount kMostPerTransfer = 100;
}  // namespace

algorithms::RankAgent& Branch::agent(std::string_view kind) {
  // The coordinator sends no start and the ranks no marker under an
  // algorithm that stops the world: one that came is a bug.
  if (world_) throw Fault(Status::Error(Code::kRuntimeNotItsMessage, o_.algorithm.name(), kind));
  return *agent_;
}

algorithms::WorldRounds& Branch::world(std::string_view kind) {
  // Nor a round of stopping the world under an algorithm of markers.
  if (!world_) throw Fault(Status::Error(Code::kRuntimeNotItsMessage, o_.algorithm.name(), kind));
  return *world_;
}

Branch::Branch(const NodeOptions& options, int rank, int ranks, Transport& transport)
    : o_(options),
      rank_(rank),
      n_(ranks),
      transport_(transport),
      // The algorithm's rules at a rank with a channel each way to every
      // other, as the registry makes them (options refuse an algorithm
      // whose Definition names no maker).
      agent_(options.algorithm.definition().make_rank_agent(static_cast<std::uint32_t>(ranks - 1),
                                                            static_cast<std::uint32_t>(ranks - 1))),
      world_(agent_->world()),
      rng_(options.seed * 1000003u + static_cast<unsigned>(rank)),
      out_n_(static_cast<std::size_t>(ranks), 0),
      in_n_(static_cast<std::size_t>(ranks), 0) {
  if (!options.log_dir.empty()) {
    log_ = std::make_unique<EventLog>(options.log_dir, rank, ranks, options.app);
  }
  if (const auto make = options.app.definition().make_rank_work) work_ = make(options.jobs);
}

void Branch::Begin(const protocol::Init& init) {
  balance_ = init.balance;
  changed_us_ = EpochMicros();
  // Restored channels come first on their channels, before anything new.
  // The log sees the rank holding that money and sending it, so that a
  // replay of the log adds up.
  if (log_) {
    Amount held = balance_;
    for (const auto& r : init.resend) {
      for (Amount t : r.transfers) held += t;
    }
    log_->Start(held);
  }
  for (const auto& r : init.resend) {
    for (Amount t : r.transfers) SendTransfer(static_cast<int>(r.to), t);
  }
}

void Branch::Go(Clock::time_point now) {
  start_ = now;
  next_transfer_ = now;
  next_counts_ = now;
  if (work_) work_->Go(now, *this);
  sending_ = true;
}

int Branch::RandomPeer() {
  int to = static_cast<int>(rng_() % static_cast<std::uint64_t>(n_ - 1));
  return to >= rank_ ? to + 1 : to;
}

void Branch::SendTransfer(int to, Amount amount) {
  std::string bytes = wire::EncodeApplication(protocol::Encode(protocol::Transfer{amount}));
  // Every algorithm sees what leaves (stop-the-world counts it); only some
  // stamp it.
  const Result<std::uint64_t> stamp = agent_->OnOutgoing(Out(to));
  if (agent_->stamps()) bytes += Word<protocol::TransferStamp>(stamp);
  if (log_) bytes += log_->Send(to, ++out_n_[static_cast<std::size_t>(to)], amount);
  transport_.SendFrame(to, std::move(bytes), Lane::kTransfers);
}

void Branch::SendNew(int to, Amount word) {
  SendTransfer(to, word);
  ++transfers_sent_;
}

void Branch::SendMarker(int to, SnapshotId id) {
  std::string host;
  if (agent("marker").counts()) host = Word<protocol::MarkerCount>(agent_->ControlFor(id, Out(to)));
  if (log_) host += log_->SendMarker(to, ++out_n_[static_cast<std::size_t>(to)], id);
  transport_.SendFrame(to, wire::EncodeMarker(id, host), Lane::kMarkers);
}

template <class Message>
std::string Branch::Word(const Result<std::uint64_t>& word) const {
  // The rules answer an error only for a channel or snapshot they do not
  // know: this rank asked about its own, so one is a bug.
  if (!word.ok()) {
    throw Fault(Status::Error(Code::kRuntimeWordRefused, rank_, ToString(word.error)));
  }
  Bytes out;
  Message{word.value}.Put(out);
  return out.Take();
}

bool Branch::Refused(const Reply& reply) {
  switch (reply.error) {
    case AgentError::kFinished:
      // A marker of a snapshot given up (Abort): ignored.
      timing_.erase(reply.snapshot);
      return true;
    case AgentError::kSuperseded:
    case AgentError::kCountMismatch:
      // Lai-Yang: this snapshot can no longer be right here. The
      // coordinator gives it up on every rank (the library's Abort).
      transport_.SendControl(kCoordinator, protocol::GiveUp{reply.snapshot});
      return true;
    default:
      return false;
  }
}

void Branch::Die() {
  if (log_) log_->Flush();
  std::fflush(stdout);
  ::raise(SIGKILL);
  std::abort();
}

void Branch::OnFrame(int from, std::string_view bytes) {
  auto frame = wire::Decode(bytes);
  // A part goes to the coordinator, never to a peer.
  if (!frame || frame->kind == wire::FrameKind::kPart) {
    throw Fault(Status::Error(Code::kRuntimeNotAFrame, from));
  }
  if (frame->kind == wire::FrameKind::kMarker) {
    OnMarkerFrame(from, frame->snapshot, frame->payload);
    return;
  }
  Reader r(frame->payload);
  std::visit(Overloaded{
                 [&](const protocol::EndOfStream&) {
                   ++ends_received_;
                   MaybeFinal();
                 },
                 [&](const protocol::Transfer& t) {
                   // The stamp comes first, then the logged clock.
                   const std::uint64_t stamp =
                       agent_->stamps() ? protocol::TransferStamp::Get(r).stamp : 0;
                   if (log_) log_->Receive(from, ++in_n_[static_cast<std::size_t>(from)], t.amount, r);
                   // Recorded first (if a snapshot is recording this channel), then applied.
                   Watch(from, stamp, t.amount);
                   const Amount before = balance_;
                   balance_ = o_.app.AfterDeliver(balance_, t.amount);
                   if (balance_ != before) Changed();  // a request leaves a state as it was
                   if (work_) work_->Delivered(from, t.amount, Clock::now(), *this);
                   CheckDrained();
                 },
                 [&](const auto&) {
                   throw Fault(Status::Error(Code::kRuntimeDataflowFrame, from));
                 },
             },
             protocol::DecodeBank(r));
}

void Branch::OnMarkerFrame(int from, SnapshotId id, std::string_view payload) {
  const ChannelIndex c = In(from);
  // The rules' count comes first in the marker's host bytes, then the
  // logged clock.
  Reader host(payload);
  const std::uint64_t count = agent("marker").counts() ? protocol::MarkerCount::Get(host).count : 0;
  if (log_) log_->ReceiveMarker(from, ++in_n_[static_cast<std::size_t>(from)], id, host);
  // The channel closes now (and, for the first marker, the state is
  // recorded now too): the moments the critical path is made of.
  // (Lai-Yang's closes once its count of older transfers has come: Watch
  // moves the moment on if one comes later.)
  Closed(id, c);
  const Reply reply = agent_->OnMarker(id, c, count, balance_);
  if (!reply.ok()) {
    if (Refused(reply)) return;
    throw Fault(Status::Error(Code::kRuntimeMarkerRefused, id, from));
  }
  AfterStep(id, reply, false);
}

void Branch::Closed(SnapshotId id, ChannelIndex c) {
  Timing& t = timing_[id];
  if (t.marker_us.empty()) t.marker_us.assign(agent_->incoming_channels(), 0);
  const std::int64_t now_us = EpochMicros();
  t.marker_us[c] = now_us;
  // A first marker records the state too, at the same moment: one reading
  // of the clock, so that no channel closes before its rank recorded.
  if (t.recorded_us == 0) t.recorded_us = now_us;
}

void Branch::Watch(int from, std::uint64_t stamp, Amount amount) {
  const ChannelIndex c = In(from);
  const Reply reply = agent_->OnMessage(c, stamp, amount, balance_);
  if (!reply.ok() && !Refused(reply)) {
    throw Fault(Status::Error(Code::kRuntimeTransferRefused, from, ToString(reply.error)));
  }
  // Lai-Yang: a newer epoch records here before its marker comes (and
  // sends this rank's markers, as a first marker would); an older one may
  // be the last the count waited for, and finish the part.
  if (!reply.ok() || (!reply.record_state && !reply.part_done)) return;
  if (!reply.record_state) Closed(reply.snapshot, c);
  AfterStep(reply.snapshot, reply, false);
}

// Stop-the-world: once everything sent before the pause has arrived (the
// agent counts), the channels are empty and the balance alone, read after
// the last delivery was applied, is this rank's state.
void Branch::CheckDrained() {
  if (!world_) return;
  if (const std::optional<SnapshotId> id = world_->TakeDrained()) {
    transport_.SendControl(kCoordinator, protocol::Read{*id, balance_, EpochMicros()});
  }
}

void Branch::Recorded(SnapshotId id, bool started_here) {
  Timing& t = timing_[id];
  if (t.recorded_us == 0) t.recorded_us = EpochMicros();
  if (log_) log_->Record(id, balance_, started_here ? "start" : "marker");
  if (o_.kill && o_.kill->rank == static_cast<std::uint32_t>(rank_) && o_.kill->snapshot &&
      *o_.kill->snapshot == id) {
    Die();  // fault injection: right after recording, before the part is done
  }
  // Rule 1: a marker on every outgoing channel before anything else.
  for (int j = 0; j < n_; ++j) {
    if (j != rank_) SendMarker(j, id);
  }
}

void Branch::AfterStep(SnapshotId id, const Step& step, bool started_here) {
  if (step.record_state) Recorded(id, started_here);
  if (!step.part_done) return;
  const std::optional<Amount> recorded = agent_->RecordedState(id);
  Timing& timing = timing_[id];
  protocol::Part part{.id = id,
                      .rank = static_cast<std::uint32_t>(rank_),
                      .recorded = {.state = *recorded, .channels = {}},
                      .recorded_us = timing.recorded_us,
                      .marker_us = {}};
  EventLog::ByPeer by_sender;
  for (ChannelIndex c = 0; c < agent_->incoming_channels(); ++c) {
    std::vector<Amount> messages = agent_->ChannelMessages(id, c);
    by_sender.emplace_back(SenderOf(c), messages);
    part.recorded.channels.push_back(std::move(messages));
    part.marker_us.push_back(timing.marker_us.empty() ? 0 : timing.marker_us[c]);
  }
  if (log_) log_->Part(id, *recorded, by_sender);
  transport_.SendControl(kCoordinator, part);
  agent_->Forget(id);
  timing_.erase(id);
}

bool Branch::OnControl(const protocol::Control& message) {
  return std::visit(
      Overloaded{
          [&](const protocol::Start& m) {
            timing_[m.id].recorded_us = EpochMicros();
            const Reply reply = agent("start").Start(m.id, balance_);
            if (!reply.ok()) {
              if (Refused(reply)) return true;
              throw Fault(Status::Error(Code::kRuntimeStartedTwice, m.id));
            }
            AfterStep(m.id, reply, true);
            return true;
          },
          [&](const protocol::Stop&) {
            BeginFlush();
            return true;
          },
          [&](const protocol::Pause& m) {
            // The agent counts by channel, the coordinator by rank.
            const std::vector<std::uint64_t> sent = world("pause").Pause(m.id);
            protocol::Paused paused{m.id, std::vector<std::uint64_t>(static_cast<std::size_t>(n_), 0)};
            for (ChannelIndex c = 0; c < sent.size(); ++c) {
              paused.sent_to[static_cast<std::size_t>(SenderOf(c))] = sent[c];
            }
            transport_.SendControl(kCoordinator, std::move(paused));
            return true;
          },
          [&](const protocol::Drain& m) {
            if (m.expect_from.size() != static_cast<std::size_t>(n_)) {
              throw Fault(Status::Error(Code::kRuntimeDrainRanks));
            }
            std::vector<std::uint64_t> expect;
            for (int from = 0; from < n_; ++from) {
              if (from != rank_) expect.push_back(m.expect_from[static_cast<std::size_t>(from)]);
            }
            world("drain").Drain(m.id, std::move(expect));
            CheckDrained();
            return true;
          },
          [&](const protocol::Abort& m) {
            // Given up by the coordinator: what was recorded is freed, and
            // the id stays finished (its later markers are ignored). An id
            // whose part is done was forgotten already: nothing to free.
            // (Stop-the-world's agent stops draining for it.)
            agent_->Abort(m.id);
            timing_.erase(m.id);
            return true;
          },
          [&](const protocol::Query& m) {
            transport_.SendControl(kCoordinator,
                                   protocol::Answer{m.round, balance_, EpochMicros()});
            return true;
          },
          [&](const protocol::Resume&) {
            world("resume").Resume();
            next_transfer_ = Clock::now();  // what fell due while paused is lost
            return true;
          },
          [&](const auto&) { return false; },
      },
      message);
}

bool Branch::MaybeTransfer(Clock::time_point now) {
  if (!sending_ || paused() || stopped_) return false;
  int due = 1;  // --rate max: one per turn of the loop
  if (o_.rate > 0) {
    auto interval = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(1.0 / o_.rate));
    // Transfers that fell due while the loop slept go out now (a pause of
    // stop-the-world is never made up for: see Resume); after a longer
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
    int to = RandomPeer();
    Amount most = std::min<Amount>(balance_, kMostPerTransfer);
    Amount amount = 1 + static_cast<Amount>(rng_() % static_cast<std::uint64_t>(most));
    balance_ -= amount;
    SendNew(to, amount);
    sent = true;
  }
  return sent;
}

void Branch::Send(int to, Amount word) {
  const Amount before = balance_;
  balance_ = o_.app.AfterSend(balance_, word, to);
  SendNew(to, word);
  if (balance_ != before) Changed();  // a request makes its sender wait
}

void Branch::Local() {
  balance_ = o_.app.AfterLocal(balance_);
  if (log_) log_->Local(balance_);
  Changed();
}

bool Branch::Tick(Clock::time_point now) {
  bool sent = false;
  if (o_.app.conserved()) {
    sent = MaybeTransfer(now);
  } else if (work_ != nullptr && sending_ && !paused() && !stopped_) {
    sent = work_->Step(now, *this);
  }
  if (o_.kill && o_.kill->rank == static_cast<std::uint32_t>(rank_) && o_.kill->at &&
      now - start_ >= *o_.kill->at) {
    Die();
  }
  if (now >= next_counts_ && !final_sent_) {
    transport_.SendControl(kCoordinator, protocol::Counts{transfers_sent_});
    next_counts_ = now + std::chrono::milliseconds(200);
  }
  return sent;
}

void Branch::BeginFlush() {
  stopped_ = true;
  // Behind every transfer this rank sent, on each channel: the end.
  // (Under --reorder it waits at the receiver for every transfer before it.)
  std::string end = wire::EncodeApplication(protocol::Encode(protocol::EndOfStream{}));
  for (int j = 0; j < n_; ++j) {
    if (j != rank_) transport_.SendFrame(j, end, Lane::kBehind);
  }
  MaybeFinal();
}

void Branch::MaybeFinal() {
  if (!stopped_ || final_sent_ || ends_received_ < n_ - 1) return;
  // Every transfer sent to this rank has arrived: the balance is final.
  final_sent_ = true;
  transport_.SendControl(kCoordinator, protocol::Final{transfers_sent_, balance_, changed_us_});
}

void Branch::Finish() {
  if (log_) log_->Flush();
}

void Branch::LogVerdict(SnapshotId id, const apps::Verdict& verdict) {
  if (log_) log_->Verdict(id, verdict);
}

}  // namespace cutline::runtime
