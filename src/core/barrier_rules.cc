// Aligned barriers: a process records only once every input has delivered
// its barrier, holding back each input after its barrier meanwhile, so that
// no message sent after a record is applied before the receiver's record.
// The alignment timeout (Unalign) gives up the wait: the process records at
// once and the inputs still without a barrier record as Chandy-Lamport's.
#include "cutline/barrier_rules.h"

#include <algorithm>

namespace cutline {

AlignedBarrierRules::AlignedBarrierRules(std::uint32_t incoming_channels,
                                         std::uint32_t outgoing_channels,
                                         const IdLimits& limits)
    : incoming_(incoming_channels), outgoing_(outgoing_channels), closed_(1, limits) {}

bool AlignedBarrierRules::HasRecorded(SnapshotId id) const {
  const Local* l = Find(id);
  return l != nullptr && l->recorded;
}

bool AlignedBarrierRules::PartDone(SnapshotId id) const {
  const Local* l = Find(id);
  return l != nullptr && l->recorded && l->missing == 0;
}

bool AlignedBarrierRules::IsFinished(SnapshotId id) const {
  return Find(id) == nullptr && closed_.Contains(id);
}

Reply AlignedBarrierRules::Start(SnapshotId id) {
  if (id == 0) return Reply::Refused(AgentError::kInvalidSnapshot, id);
  if (incoming_ != 0) return Reply::Refused(AgentError::kNotSource, id);
  if (Find(id) != nullptr) return Reply::Of(id);  // a further initiator joins
  if (AgentError e = closed_.Check(id); e != AgentError::kNone) return Reply::Refused(e, id);
  locals_.Insert(Local{id, {}, 0, true});
  closed_.Seen(id);  // the host's own: vouched for (a barrier is not)
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
  } else if (local->barrier[c] || (local->recorded && !local->switched)) {
    return refuse(AgentError::kDuplicateMarker);
  } else if (local->switched) {
    // Not out of order while another aligns: FIFO brought it first on c.
    return CloseSwitched(local, c);
  }
  if (aligning_ != 0 && aligning_ != id) return refuse(AgentError::kOutOfOrder);
  if (local == nullptr) {
    local = &locals_.Insert(Local{id, std::vector<bool>(incoming_, false), incoming_, false});
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

Step AlignedBarrierRules::CloseSwitched(Local* local, ChannelIndex c) {
  local->barrier[c] = true;
  --local->missing;
  --recording_channels_;
  Step step;
  step.closed_channel = true;
  step.part_done = local->missing == 0;
  return step;
}

Reply AlignedBarrierRules::Unalign(SnapshotId id) {
  if (id == 0) return Reply::Refused(AgentError::kInvalidSnapshot, id);
  Local* local = const_cast<Local*>(Find(id));
  if (local == nullptr) {
    const AgentError e = closed_.Check(id);
    return Reply::Refused(e != AgentError::kNone ? e : AgentError::kUnknownSnapshot, id);
  }
  if (local->recorded) return Reply::Refused(AgentError::kAlreadyRecorded, id);
  // Not recorded means a barrier came but not the last: it is aligning.
  aligning_ = 0;
  local->recorded = true;
  local->switched = true;
  recording_channels_ += local->missing;
  Reply step = Reply::Of(id);
  step.record_state = true;
  step.markers_ahead = true;
  step.release_inputs = true;
  step.part_done = local->missing == 0;  // never so: the last barrier records
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
  if (local->barrier[c]) {
    return local->recorded ? ChannelRecording::kClosed : ChannelRecording::kHeldBack;
  }
  // Without a barrier on c, only a switched snapshot is recorded here.
  return local->switched ? ChannelRecording::kRecording : ChannelRecording::kNotRecorded;
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
  if (local->switched) recording_channels_ -= local->missing;
  const SnapshotId id = local->id;
  closed_.Add(id);
  locals_.Erase(id);
}

Reply AlignedBarrierRules::Forget(SnapshotId id) {
  const Local* local = Find(id);
  if (local == nullptr) return ForgetRefusal(id, closed_);
  if (!PartDone(id)) return Reply::Refused(AgentError::kNotDone, id);
  closed_.Seen(id);  // a barrier came on every input: vouched for
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
