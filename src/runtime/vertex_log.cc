#include "runtime/vertex_log.h"

#include "runtime/fault.h"

namespace cutline::runtime {

VertexLog::VertexLog(const std::string& dir, std::uint32_t vertex, const dataflow::Topology& topology)
    : inputs_(topology.Inputs(vertex)),
      outputs_(topology.Outputs(vertex)),
      log_(dir, static_cast<int>(vertex), static_cast<int>(topology.vertices()), apps::App::kDataflow,
           topology.spec()),
      sent_(outputs_.size()),
      arrived_(inputs_.size()) {}

std::string VertexLog::Take(std::map<std::uint64_t, std::string>& clocks, std::uint64_t n) {
  auto it = clocks.find(n);
  if (it == clocks.end()) throw Fault(Status::Error(Code::kRuntimeNoItemClock, n));
  std::string clock = std::move(it->second);
  clocks.erase(it);
  return clock;
}

std::string VertexLog::Trailer(ChannelIndex o, const dataflow::Item& item) {
  Bytes n;
  n.U64(item.n);
  return n.str() + Take(sent_[o], item.n);
}

void VertexLog::Arrived(ChannelIndex c, Reader& trailer, dataflow::Item* item) {
  item->n = trailer.U64();
  arrived_[c][item->n] = std::string(trailer.Rest());
}

void VertexLog::Steps(const std::vector<dataflow::Step>& steps) {
  using Kind = dataflow::Step::Kind;
  for (const dataflow::Step& s : steps) {
    const ChannelIndex c = s.channel;
    switch (s.kind) {
      case Kind::kPut:
        sent_[c][s.n] = log_.Send(static_cast<int>(outputs_[c]), s.n, 1);
        break;
      case Kind::kBarrierOut:
        sent_[c][s.n] = log_.SendMarker(static_cast<int>(outputs_[c]), s.n, s.snapshot);
        break;
      case Kind::kJumpOut:
        log_.Overtaken(static_cast<int>(outputs_[c]), s.n, s.by);
        break;
      case Kind::kApply: {
        const std::string clock = Take(arrived_[c], s.n);
        Reader r(clock);
        log_.Receive(static_cast<int>(inputs_[c]), s.n, 1, r);
        break;
      }
      case Kind::kJumpIn: {
        // The jumping barrier has arrived; its receipt is logged next and
        // takes its clock then.
        auto it = arrived_[c].find(s.by);
        if (it == arrived_[c].end()) {
          throw Fault(Status::Error(Code::kRuntimeNoBarrierClock, s.by));
        }
        Reader r(it->second);
        log_.OvertakenOnArrival(static_cast<int>(inputs_[c]), s.n, s.by, r);
        break;
      }
      case Kind::kBarrierIn: {
        const std::string clock = Take(arrived_[c], s.n);
        Reader r(clock);
        log_.ReceiveMarker(static_cast<int>(inputs_[c]), s.n, s.snapshot, r);
        break;
      }
      case Kind::kRecord:
        log_.Record(s.snapshot, s.state,
                    s.cause == dataflow::RecordCause::kStart     ? "start"
                    : s.cause == dataflow::RecordCause::kBarrier ? "marker"
                                                                 : "timeout",
                    s.aligned);
        break;
    }
  }
}

void VertexLog::Part(const dataflow::FinishedPart& f) {
  // A channel's state is a 1 per record.
  auto ones = [](const std::vector<std::uint64_t>& keys) { return std::vector<Amount>(keys.size(), 1); };
  EventLog::ByPeer channels, sent;
  for (ChannelIndex c = 0; c < inputs_.size(); ++c) {
    channels.emplace_back(static_cast<int>(inputs_[c]),
                          c < f.part.channels.size() ? ones(f.part.channels[c]) : std::vector<Amount>{});
  }
  for (ChannelIndex o = 0; o < f.part.sent.size() && o < outputs_.size(); ++o) {
    if (!f.part.sent[o].empty()) sent.emplace_back(static_cast<int>(outputs_[o]), ones(f.part.sent[o]));
  }
  const dataflow::VertexState& state = f.part.state;
  log_.Part(f.id, static_cast<Amount>(state.received) - static_cast<Amount>(state.emitted), channels,
            sent);
}

}  // namespace cutline::runtime
