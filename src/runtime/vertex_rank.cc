// A dataflow vertex on a rank: frames in, the vertex's steps, frames and
// credits out, parts to the coordinator, and the end of the stream.
#include "runtime/vertex_rank.h"

#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "base/overloaded.h"
#include "cutline/wire.h"
#include "dataflow/property.h"
#include "runtime/fault.h"

namespace cutline::runtime {

namespace {

// Keys a source draws from: few enough that every operator's state stays
// small, enough that every operator gets some.
constexpr std::uint64_t kKeys = 64;
// At most this many records a turn of the loop, so that a busy vertex
// still reads its frames (credits, barriers) often.
constexpr int kMostPerTurn = 64;

std::optional<std::int64_t> TimeoutUs(const DataflowOptions& d) {
  if (!d.alignment_timeout) return std::nullopt;
  return d.alignment_timeout->count();
}

// The pace a vertex keeps: a source --rate records a second; a slow one
// --rate/FACTOR; else none (as fast as records come).
Clock::duration IntervalOf(const NodeOptions& o, const DataflowOptions& d, int rank,
                           dataflow::Role role) {
  double per_second = 0;
  if (role == dataflow::Role::kSource) per_second = o.rate;
  if (d.slow && d.slow->rank == static_cast<std::uint32_t>(rank)) {
    per_second = (o.rate > 0 ? o.rate : 1e6) / d.slow->factor;
  }
  if (per_second <= 0) return Clock::duration::zero();
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1 / per_second));
}

}  // namespace

int VertexRank::Pace::Due(Clock::time_point now, int most) {
  if (!paced()) return most;
  if (now - next > std::chrono::milliseconds(2)) next = now;
  int due = 0;
  while (next <= now && due < most) {
    next += interval;
    ++due;
  }
  return due;
}

VertexRank::VertexRank(const NodeOptions& options, const DataflowOptions& d, int rank,
                       Transport& transport)
    : o_(options),
      rank_(rank),
      transport_(transport),
      inputs_(d.topology.Inputs(static_cast<std::uint32_t>(rank))),
      outputs_(d.topology.Outputs(static_cast<std::uint32_t>(rank))),
      vertex_(d.topology.RoleOf(static_cast<std::uint32_t>(rank)),
              static_cast<std::uint32_t>(inputs_.size()),
              static_cast<std::uint32_t>(outputs_.size()), d.buffers,
              options.algorithm.definition().make_vertex_agent,
              TimeoutUs(d)),
      rng_(options.seed * 1000003u + static_cast<unsigned>(rank)),
      credits_due_(inputs_.size(), 0),
      unreturned_(outputs_.size(), 0) {
  pace_.interval = IntervalOf(options, d, rank, vertex_.role());
  if (!options.log_dir.empty()) {
    log_ = std::make_unique<VertexLog>(options.log_dir, static_cast<std::uint32_t>(rank), d.topology);
    vertex_.KeepSteps();
  }
}

ChannelIndex VertexRank::InputOf(int sender) const {
  auto it = std::find(inputs_.begin(), inputs_.end(), static_cast<std::uint32_t>(sender));
  if (it == inputs_.end()) {
    throw Fault(Status::Error(Code::kRuntimeNotInput, sender, rank_));
  }
  return static_cast<ChannelIndex>(it - inputs_.begin());
}

ChannelIndex VertexRank::OutputOf(int receiver) const {
  auto it = std::find(outputs_.begin(), outputs_.end(), static_cast<std::uint32_t>(receiver));
  if (it == outputs_.end()) {
    throw Fault(Status::Error(Code::kRuntimeNotOutput, receiver, rank_));
  }
  return static_cast<ChannelIndex>(it - outputs_.begin());
}

void VertexRank::Begin(const protocol::Init& init) {
  if (init.state.empty()) {  // a fresh run
    if (log_) log_->Start(0);
    return;
  }
  std::optional<dataflow::VertexState> state = dataflow::DecodeState(init.state);
  if (!state) throw Fault(Status::Error(Code::kRuntimeNoState, rank_));
  std::vector<std::vector<std::uint64_t>> in_flight(outputs_.size());
  for (const protocol::Init::Resend& r : init.resend) {
    std::vector<std::uint64_t>& keys = in_flight[OutputOf(static_cast<int>(r.to))];
    for (Amount key : r.transfers) keys.push_back(static_cast<std::uint64_t>(key));
  }
  if (log_) {
    // The state counts each record once: the ones it re-sends are still
    // its own until they leave (as the bank's log counts its re-sent
    // transfers in its opening balance).
    Amount start = static_cast<Amount>(state->received) - static_cast<Amount>(state->emitted);
    for (const auto& keys : in_flight) start += static_cast<Amount>(keys.size());
    log_->Start(start);
  }
  vertex_.Restore(*std::move(state), in_flight);
  LogSteps();
}

void VertexRank::Go(Clock::time_point now) {
  start_ = now;
  pace_.next = now;
  next_counts_ = now;
  going_ = true;
}

void VertexRank::OnFrame(int from, std::string_view bytes) {
  auto frame = wire::Decode(bytes);
  // A part goes to the coordinator, never to a peer.
  if (!frame || frame->kind == wire::FrameKind::kPart) {
    throw Fault(Status::Error(Code::kRuntimeNotAFrame, from));
  }
  if (frame->kind == wire::FrameKind::kMarker) {
    // A barrier's frame carries when its snapshot started (the alignment
    // timeout counts from it), and nothing after it.
    Reader host(frame->payload);
    const protocol::BarrierStart start = protocol::BarrierStart::Get(host);
    dataflow::Item barrier{true, frame->snapshot, start.started_us};
    const ChannelIndex c = InputOf(from);
    if (log_) log_->Arrived(c, host, &barrier);
    if (!host.AtEnd()) throw Fault(Status::Error(Code::kRuntimeBarrierTooLong, from));
    vertex_.Arrive(c, barrier, EpochMicros());
    LogSteps();
    return;
  }
  Reader r(frame->payload);
  std::visit(Overloaded{
                 [&](const protocol::Record& m) {
                   dataflow::Item record{false, m.key};
                   const ChannelIndex c = InputOf(from);
                   if (log_) log_->Arrived(c, r, &record);
                   vertex_.Arrive(c, record, EpochMicros());
                 },
                 [&](const protocol::Credit& m) {
                   const ChannelIndex o = OutputOf(from);
                   if (m.n > unreturned_[o]) {
                     throw Fault(Status::Error(Code::kRuntimeCreditsNeverSent, from));
                   }
                   unreturned_[o] -= m.n;
                   vertex_.Credit(o, m.n);
                 },
                 [&](const protocol::EndOfStream&) {
                   InputOf(from);  // only an input ends
                   ++ended_inputs_;
                 },
                 [&](const protocol::Transfer&) {
                   throw Fault(Status::Error(Code::kRuntimeTransferToVertex, from));
                 },
             },
             protocol::DecodeBank(r));
}

bool VertexRank::OnControl(const protocol::Control& message) {
  return std::visit(Overloaded{
                        [&](const protocol::Start& m) {
                          vertex_.Start(m.id, EpochMicros());
                          LogSteps();
                          return true;
                        },
                        [&](const protocol::Stop&) {
                          stopped_ = true;
                          return true;
                        },
                        // A dataflow's snapshot is not given up at its
                        // vertices: as long as every rank lives, each
                        // barrier arrives. The coordinator counts it failed.
                        [&](const protocol::Abort&) { return true; },
                        [&](const auto&) { return false; },
                    },
                    message);
}

bool VertexRank::Emit(Clock::time_point now) {
  if (vertex_.role() != dataflow::Role::kSource || !going_ || stopped_) return false;
  bool any = false;
  for (int due = pace_.Due(now, kMostPerTurn); due > 0; --due) {
    // A full output: the record due now is not made (backpressure lowers
    // the rate; it is not made up for later).
    if (!vertex_.Emit(rng_() % kKeys)) break;
    any = true;
  }
  return any;
}

bool VertexRank::Process(Clock::time_point now) {
  if (vertex_.role() == dataflow::Role::kSource) return false;
  bool any = false;
  // A slow vertex's turn: what its pace allows, if a record waits.
  for (int due = pace_.Due(now, kMostPerTurn); due > 0; --due) {
    std::optional<ChannelIndex> from = vertex_.Process();
    if (!from) {
      if (pace_.paced()) pace_.next = now;  // idle time is not saved up
      break;
    }
    ++credits_due_[*from];
    any = true;
  }
  return any;
}

bool VertexRank::SendOutputs() {
  bool any = false;
  for (ChannelIndex o = 0; o < outputs_.size(); ++o) {
    const int to = static_cast<int>(outputs_[o]);
    while (std::optional<dataflow::Item> item = vertex_.Send(o)) {
      // The logs' trailer: the item's number on its channel and its send's clock.
      const std::string trailer = log_ ? log_->Trailer(o, *item) : std::string();
      if (item->barrier) {
        Bytes start;
        protocol::BarrierStart{item->started_us}.Put(start);
        transport_.SendFrame(to, wire::EncodeMarker(item->value, start.str() + trailer));
      } else {
        transport_.SendFrame(to, wire::EncodeApplication(protocol::Encode(protocol::Record{item->value})) +
                                     trailer);
        ++unreturned_[o];
      }
      any = true;
    }
  }
  return any;
}

void VertexRank::ReturnCredits() {
  for (ChannelIndex c = 0; c < inputs_.size(); ++c) {
    if (credits_due_[c] == 0) continue;
    transport_.SendFrame(static_cast<int>(inputs_[c]),
                         wire::EncodeApplication(protocol::Encode(protocol::Credit{credits_due_[c]})));
    credits_due_[c] = 0;
  }
}

void VertexRank::SendParts() {
  while (std::optional<dataflow::FinishedPart> f = vertex_.TakeFinished()) {
    LogSteps();  // the last jumps of its barriers come before the part
    if (log_) log_->Part(*f);
    if (o_.kill && o_.kill->rank == static_cast<std::uint32_t>(rank_) && o_.kill->snapshot &&
        *o_.kill->snapshot == f->id) {
      Die();  // fault injection: its part done, not yet sent
    }
    transport_.SendControl(kCoordinator,
                           protocol::VertexPart{.id = f->id,
                                                .rank = static_cast<std::uint32_t>(rank_),
                                                .recorded = std::move(f->part),
                                                .cost = std::move(f->cost)});
  }
}

void VertexRank::LogSteps() {
  if (log_) log_->Steps(vertex_.TakeSteps());
}

void VertexRank::Die() {
  if (log_) log_->Flush();
  std::fflush(stdout);
  ::raise(SIGKILL);
  std::abort();
}

bool VertexRank::Tick(Clock::time_point now) {
  vertex_.Tick(EpochMicros());  // the alignment timeout
  bool busy = Emit(now);
  busy |= Process(now);
  LogSteps();  // before the items leave: their sends' clocks go with them
  busy |= SendOutputs();
  ReturnCredits();
  SendParts();
  if (o_.kill && o_.kill->rank == static_cast<std::uint32_t>(rank_) && o_.kill->at &&
      now - start_ >= *o_.kill->at) {
    Die();
  }
  if (now >= next_counts_ && !final_sent_) {
    const dataflow::VertexState& s = vertex_.state();
    transport_.SendControl(kCoordinator, protocol::Counts{
        vertex_.role() == dataflow::Role::kSource ? s.emitted : s.received});
    next_counts_ = now + std::chrono::milliseconds(200);
  }
  MaybeFinal();
  return busy;
}

void VertexRank::MaybeFinal() {
  if (!stopped_ || final_sent_ || ended_inputs_ < inputs_.size()) return;
  for (ChannelIndex c = 0; c < inputs_.size(); ++c) {
    if (vertex_.Waiting(c) > 0) return;
  }
  for (ChannelIndex o = 0; o < outputs_.size(); ++o) {
    if (vertex_.Queued(o) > 0 || unreturned_[o] > 0) return;
  }
  // Everything this vertex was sent is processed and everything it sent
  // was taken: the end of each output's stream, then the report.
  const std::string end = wire::EncodeApplication(protocol::Encode(protocol::EndOfStream{}));
  for (std::uint32_t to : outputs_) transport_.SendFrame(static_cast<int>(to), end);
  final_sent_ = true;
  transport_.SendControl(kCoordinator,
                         protocol::VertexFinal{vertex_.state().emitted, vertex_.state().received});
}

}  // namespace cutline::runtime
