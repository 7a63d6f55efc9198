// Aligned barriers: a process records only once every input has delivered
// its barrier, holding back each input after its barrier meanwhile, so that
// no message sent after a record is applied before the receiver's record.
#include "cutline/barrier_rules.h"

namespace cutline {

AlignedBarrierRules::AlignedBarrierRules(std::uint32_t incoming_channels,
                                         std::uint32_t outgoing_channels,
                                         const IdLimits& limits)
    : incoming_(incoming_channels), outgoing_(outgoing_channels), closed_(1, limits) {}

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

bool AlignedBarrierRules::IsFinished(SnapshotId id) const {
  return Find(id) == nullptr && closed_.Contains(id);
}

Reply AlignedBarrierRules::Start(SnapshotId id) {
  if (id == 0) return Reply::Refused(AgentError::kInvalidSnapshot, id);
  if (incoming_ != 0) return Reply::Refused(AgentError::kNotSource, id);
  if (Find(id) != nullptr) return Reply::Of(id);  // a further initiator joins
  if (AgentError e = closed_.Check(id); e != AgentError::kNone) return Reply::Refused(e, id);
  locals_.push_back(Local{id, {}, 0, true});
  closed_.Seen(id);
  Reply step = Reply::Of(id);
  step.record_state = true;
  step.part_done = true;
  return step;
}

Step AlignedBarrierRules::OnMarker(SnapshotId id, ChannelIndex c) {
  Step step;
  auto refuse = [&](AgentError e) {
    step.error = e;
    return step;
  };
  if (c >= incoming_) return refuse(AgentError::kUnknownChannel);
  if (id == 0) return refuse(AgentError::kInvalidSnapshot);
  Local* local = const_cast<Local*>(Find(id));
  if (local == nullptr) {
    if (AgentError e = closed_.Check(id); e != AgentError::kNone) return refuse(e);
  } else if (local->barrier[c] || local->recorded) {
    return refuse(AgentError::kDuplicateMarker);
  }
  if (aligning_ != 0 && aligning_ != id) return refuse(AgentError::kOutOfOrder);
  if (local == nullptr) {
    locals_.push_back(Local{id, std::vector<bool>(incoming_, false),
                            incoming_, false});
    closed_.Seen(id);
    local = &locals_.back();
  }
  local->barrier[c] = true;
  if (--local->missing > 0) {
    aligning_ = id;
    step.hold_channel = true;  // rule 2: wait for the other inputs
    return step;
  }
  // Rule 3: aligned. Every channel is closed with nothing recorded on it.
  aligning_ = 0;
  local->recorded = true;
  step.record_state = true;
  step.closed_channel = true;
  step.release_inputs = true;
  step.part_done = true;
  return step;
}

Result<NoControl> AlignedBarrierRules::ControlFor(SnapshotId id,
                                                  ChannelIndex out) const {
  if (out >= outgoing_) return {AgentError::kUnknownChannel, {}};
  if (!HasRecorded(id)) return {AgentError::kUnknownSnapshot, {}};
  return {};
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

void AlignedBarrierRules::Drop(const Local* local) {
  if (local->id == aligning_) aligning_ = 0;
  closed_.Add(local->id);
  locals_.erase(locals_.begin() + (local - locals_.data()));
}

Reply AlignedBarrierRules::Forget(SnapshotId id) {
  const Local* local = Find(id);
  if (local == nullptr) return ForgetRefusal(id, closed_);
  if (!local->recorded) return Reply::Refused(AgentError::kNotDone, id);
  Drop(local);
  return Reply::Of(id);
}

Reply AlignedBarrierRules::Abort(SnapshotId id) {
  if (id == 0) return Reply::Refused(AgentError::kInvalidSnapshot, id);
  Reply step = Reply::Of(id);
  if (const Local* local = Find(id)) {
    step.release_inputs = !local->recorded;  // its holds end with it
    Drop(local);
    return step;
  }
  if (AgentError e = closed_.Check(id); e != AgentError::kNone) return Reply::Refused(e, id);
  closed_.Add(id);
  return step;
}

}  // namespace cutline
