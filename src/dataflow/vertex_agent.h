// VertexAgent: what a dataflow's vertex (vertex.h) asks of its snapshot
// algorithm, whatever the rules: the virtual face of one SnapshotAgent whose
// state is a vertex's and whose messages are records' keys. The registry
// makes it (algorithms/algorithm.h: a Definition's make_vertex_agent), so
// that the algorithms a dataflow can run are the ones that say how, and no
// host chooses its rules by looking at an algorithm's traits.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include "cutline/snapshot_agent.h"

namespace cutline::dataflow {

// A vertex's state, as a snapshot records it.
struct VertexState {
  std::uint64_t received = 0;  // records taken from the inputs and applied
  std::uint64_t emitted = 0;   // records put on the outputs
  // Operators and sinks: the records applied, by key.
  std::map<std::uint64_t, std::uint64_t> per_key;
  bool operator==(const VertexState&) const = default;
};

// A vertex's part of a snapshot: its state, and by channel the keys of the
// records in flight (received side in `channels`, sent side in `sent`).
using Part = SnapshotPart<VertexState, std::uint64_t>;

class VertexAgent {
 public:
  virtual ~VertexAgent() = default;
  // Barriers are taken in their place and an input whose barrier came is
  // held until every input's has (aligned); or each is taken on arrival,
  // ahead of the records waiting (unaligned).
  virtual bool aligned() const = 0;

  virtual Reply Start(SnapshotId id, const VertexState& now) = 0;
  virtual Reply OnBarrier(SnapshotId id, ChannelIndex c, const VertexState& now) = 0;
  // A record of `key` is applied from input `c`; `now` is the state before it.
  virtual Reply OnRecord(ChannelIndex c, std::uint64_t key, const VertexState& now) = 0;
  // A barrier of `id` went ahead of a record of `key` on output `out`.
  virtual Reply RecordOvertaken(SnapshotId id, ChannelIndex out, std::uint64_t key) = 0;
  // The next finished part, in the order they finished.
  virtual std::optional<std::pair<SnapshotId, Part>> TakeFinished() = 0;
  // Input c's channel state in `id` is still being recorded.
  virtual bool Recording(SnapshotId id, ChannelIndex c) const = 0;

  // The alignment timeout (aligned rules only; the others never hold):
  // the snapshot aligning here, 0 if none, and the switch that makes it
  // record at once as an unaligned barrier would.
  virtual SnapshotId aligning() const = 0;
  virtual Reply Unalign(SnapshotId id, const VertexState& now) = 0;
};

// The vertex's agent under `Rules`, whose stamps and controls are nothing
// (barriers carry only their id).
template <class Rules>
class VertexAgentOf final : public VertexAgent {
  using Agent = SnapshotAgent<VertexState, std::uint64_t, Rules>;
  static constexpr bool kAligns = requires(const Rules& r) { r.aligning(); };

 public:
  VertexAgentOf(std::uint32_t inputs, std::uint32_t outputs) : agent_(inputs, outputs) {}

  bool aligned() const override { return kAligns; }
  Reply Start(SnapshotId id, const VertexState& now) override { return agent_.Start(id, now); }
  Reply OnBarrier(SnapshotId id, ChannelIndex c, const VertexState& now) override {
    return agent_.OnMarker(id, c, now);
  }
  Reply OnRecord(ChannelIndex c, std::uint64_t key, const VertexState& now) override {
    return agent_.OnMessage(c, NoStamp{}, key, now);
  }
  Reply RecordOvertaken(SnapshotId id, ChannelIndex out, std::uint64_t key) override {
    return agent_.RecordOvertaken(id, out, key);
  }
  std::optional<std::pair<SnapshotId, Part>> TakeFinished() override {
    auto f = agent_.TakeFinished();
    if (!f) return std::nullopt;
    return std::pair<SnapshotId, Part>(f->id, std::move(f->part));
  }
  bool Recording(SnapshotId id, ChannelIndex c) const override {
    return agent_.Channel(id, c) == ChannelRecording::kRecording;
  }
  SnapshotId aligning() const override {
    if constexpr (kAligns) {
      return agent_.rules().aligning();
    } else {
      return 0;
    }
  }
  Reply Unalign(SnapshotId id, const VertexState& now) override {
    if constexpr (kAligns) {
      return agent_.Unalign(id, now);
    } else {
      // Nothing aligns under these rules, so there is nothing to switch.
      return Reply::Refused(AgentError::kUnknownSnapshot, id);
    }
  }

 private:
  Agent agent_;
};

// What the registry names for an algorithm a dataflow runs.
using VertexAgentMaker = std::unique_ptr<VertexAgent> (*)(std::uint32_t inputs,
                                                         std::uint32_t outputs);

template <class Rules>
std::unique_ptr<VertexAgent> MakeVertexAgent(std::uint32_t inputs, std::uint32_t outputs) {
  return std::make_unique<VertexAgentOf<Rules>>(inputs, outputs);
}

}  // namespace cutline::dataflow
