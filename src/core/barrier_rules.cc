// Aligned barriers: a process records only once every input has delivered
// its barrier, holding back each input after its barrier meanwhile, so that
// no message sent after a record is applied before the receiver's record.
#include "cutline/barrier_rules.h"

namespace cutline {

AlignedBarrierRules::AlignedBarrierRules(std::uint32_t incoming_channels)
    : incoming_(incoming_channels) {}

const AlignedBarrierRules::Local* AlignedBarrierRules::Find(
    SnapshotId id) const {
  for (const Local& l : locals_) {
    if (l.id == id) return &l;
  }
  return nullptr;
}

bool AlignedBarrierRules::HasRecorded(SnapshotId id) const {
  const Local* l = Find(id);
  return l != nullptr && l->recorded;
}

Step AlignedBarrierRules::Start(SnapshotId id) {
  Step step;
  if (Find(id) != nullptr) {
    step.error = AgentError::kAlreadyRecorded;
    return step;
  }
  locals_.push_back(Local{id, std::vector<bool>(incoming_, false), incoming_,
                          true});
  step.record_state = true;
  step.part_done = true;
  return step;
}

Step AlignedBarrierRules::OnMarker(SnapshotId id, ChannelIndex c) {
  Step step;
  if (c >= incoming_) {
    step.error = AgentError::kUnknownChannel;
    return step;
  }
  Local* local = const_cast<Local*>(Find(id));
  if (local == nullptr) {
    locals_.push_back(Local{id, std::vector<bool>(incoming_, false),
                            incoming_, false});
    local = &locals_.back();
  }
  if (local->barrier[c] || local->recorded) {
    step.error = AgentError::kDuplicateMarker;
    return step;
  }
  local->barrier[c] = true;
  if (--local->missing > 0) {
    step.hold_channel = true;  // rule 2: wait for the other inputs
    return step;
  }
  // Rule 3: aligned. Every channel is closed with nothing recorded on it.
  local->recorded = true;
  step.record_state = true;
  step.closed_channel = true;
  step.release_inputs = true;
  step.part_done = true;
  return step;
}

ChannelRecording AlignedBarrierRules::Channel(SnapshotId id,
                                              ChannelIndex c) const {
  const Local* local = Find(id);
  if (local == nullptr || c >= incoming_) return ChannelRecording::kNotRecorded;
  if (local->recorded) return ChannelRecording::kClosed;
  return local->barrier[c] ? ChannelRecording::kHeldBack
                           : ChannelRecording::kNotRecorded;
}

std::vector<ChannelIndex> AlignedBarrierRules::Waiting(SnapshotId id) const {
  std::vector<ChannelIndex> out;
  const Local* local = Find(id);
  if (local == nullptr || local->recorded) return out;
  for (ChannelIndex c = 0; c < incoming_; ++c) {
    if (!local->barrier[c]) out.push_back(c);
  }
  return out;
}

}  // namespace cutline
