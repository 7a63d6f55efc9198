// The Chandy-Lamport marker rules (FIFO channels), one process at a time.
#include "cutline/marker_rules.h"

#include <utility>

namespace cutline {

MarkerRules::MarkerRules(std::uint32_t incoming_channels,
                         std::uint32_t outgoing_channels, const IdLimits& limits)
    : incoming_(incoming_channels), outgoing_(outgoing_channels), closed_(1, limits) {}

bool MarkerRules::IsFinished(SnapshotId id) const {
  return Find(id) == nullptr && closed_.Contains(id);
}

// Rule 1, shared by Start and a first marker: every incoming channel starts
// recording; the caller then closes the channel the marker came on, if any.
MarkerRules::Local& MarkerRules::Record(SnapshotId id) {
  recording_channels_ += incoming_;
  return locals_.Insert(
      Local{id, std::vector<ChannelRecording>(incoming_, ChannelRecording::kRecording),
            incoming_});
}

Reply MarkerRules::Start(SnapshotId id) {
  if (id == 0) return Reply::Refused(AgentError::kInvalidSnapshot, id);
  Reply step = Reply::Of(id);
  if (HasRecorded(id)) return step;  // a further initiator joins
  if (AgentError e = closed_.Check(id); e != AgentError::kNone) return Reply::Refused(e, id);
  closed_.Seen(id);  // the host's own: vouched for (a marker is not)
  Local& local = Record(id);
  step.record_state = true;
  // With no incoming channel at all, the part is done at once.
  step.part_done = local.open == 0;
  return step;
}

// A Step, not a Reply: this runs once per marker, and g++ builds a returned
// Step in one register but a Reply field by field (OnControl names it).
Step MarkerRules::OnMarker(SnapshotId id, ChannelIndex c) {
  Step step;
  if (c >= incoming_) {
    step.error = AgentError::kUnknownChannel;
    return step;
  }
  if (id == 0) {
    step.error = AgentError::kInvalidSnapshot;
    return step;
  }
  Local* local = Find(id);
  if (local == nullptr) {
    // Finished, too old to know, or too far ahead to be real.
    if (AgentError e = closed_.Check(id); e != AgentError::kNone) {
      step.error = e;
      return step;
    }
    local = &Record(id);  // first marker of this id: rule 1
    step.record_state = true;
  } else if (local->channels[c] == ChannelRecording::kClosed) {
    step.error = AgentError::kDuplicateMarker;
    return step;
  }
  // Rule 2 (or the "c is recorded empty" clause of rule 1): close c.
  local->channels[c] = ChannelRecording::kClosed;
  --local->open;
  --recording_channels_;
  step.closed_channel = true;
  step.part_done = local->open == 0;  // rule 3
  return step;
}

Result<NoControl> MarkerRules::ControlFor(SnapshotId id, ChannelIndex out) const {
  if (out >= outgoing_) return {AgentError::kUnknownChannel, {}};
  if (Find(id) == nullptr) return {AgentError::kUnknownSnapshot, {}};
  return {};
}

ChannelRecording MarkerRules::Channel(SnapshotId id, ChannelIndex c) const {
  const Local* local = Find(id);
  if (local == nullptr || c >= incoming_) return ChannelRecording::kNotRecorded;
  return local->channels[c];
}

bool MarkerRules::PartDone(SnapshotId id) const {
  const Local* local = Find(id);
  return local != nullptr && local->open == 0;
}

void MarkerRules::Drop(const Local* local) {
  recording_channels_ -= local->open;
  const SnapshotId id = local->id;
  closed_.Add(id);
  locals_.Erase(id);
}

Reply MarkerRules::Forget(SnapshotId id) {
  return ForgetSnapshot(id, Find(id), closed_, [this](const Local* l) { Drop(l); });
}

Reply MarkerRules::Abort(SnapshotId id) {
  return AbortSnapshot(id, Find(id), closed_, [this](const Local* l) { Drop(l); });
}

}  // namespace cutline
