// Lai-Yang with Mattern's counts: a message's epoch stands in for the
// marker that non-FIFO channels cannot place; counts replace the marker's
// position as the signal that a channel has nothing more of the old epoch.
#include "cutline/lai_yang_rules.h"

namespace cutline {

LaiYangRules::LaiYangRules(std::uint32_t incoming_channels,
                           std::uint32_t outgoing_channels)
    : incoming_(incoming_channels),
      received_(incoming_channels, 0),
      sent_(outgoing_channels, 0) {}

const LaiYangRules::Local* LaiYangRules::Find(SnapshotId id) const {
  for (const Local& l : locals_) {
    if (l.id == id) return &l;
  }
  return nullptr;
}

// Rule 2: record now. Everything received so far on a channel was of an
// older epoch (a newer one would have recorded first), so it counts towards
// the control message's number.
LaiYangRules::Local& LaiYangRules::Record(SnapshotId id) {
  Local local{id, std::vector<PerChannel>(incoming_), sent_, incoming_};
  for (ChannelIndex c = 0; c < incoming_; ++c) {
    local.channels[c].old_received = received_[c];
  }
  epoch_ = id;
  locals_.push_back(std::move(local));
  return locals_.back();
}

void LaiYangRules::MaybeClose(Local& local, ChannelIndex c, Step& step) {
  PerChannel& ch = local.channels[c];
  if (ch.closed || !ch.control || ch.old_received != ch.expected) return;
  ch.closed = true;
  --local.open;
  step.closed_channel = true;
  step.part_done = local.open == 0;
}

Step LaiYangRules::Start(SnapshotId id) {
  Step step;
  if (HasRecorded(id)) {
    step.error = AgentError::kAlreadyRecorded;
    return step;
  }
  Local& local = Record(id);
  step.record_state = true;
  step.part_done = local.open == 0;
  return step;
}

LaiYangRules::MessageStep LaiYangRules::OnMessage(ChannelIndex c,
                                                  SnapshotId epoch) {
  MessageStep out;
  if (c >= incoming_) {
    out.step.error = AgentError::kUnknownChannel;
    return out;
  }
  if (epoch > epoch_) {
    // A message from a sender that has recorded a snapshot this process has
    // not: it plays the marker's role and records first.
    Record(epoch);
    out.step.record_state = true;
    out.recorded = epoch;
    out.step.part_done = locals_.back().open == 0;
  }
  ++received_[c];
  if (!locals_.empty() && epoch < locals_.back().id) {
    Local& local = locals_.back();
    PerChannel& ch = local.channels[c];
    if (!ch.closed) {
      // Rule 3: an old-epoch message received after recording.
      ++ch.old_received;
      out.in_channel_state = true;
      out.snapshot = local.id;
      bool done_before = out.step.part_done;
      MaybeClose(local, c, out.step);
      out.step.part_done = out.step.part_done || done_before;
    }
  }
  return out;
}

Step LaiYangRules::OnControl(SnapshotId id, ChannelIndex c,
                             std::uint64_t count) {
  Step step;
  if (c >= incoming_) {
    step.error = AgentError::kUnknownChannel;
    return step;
  }
  if (!HasRecorded(id)) {
    Record(id);
    step.record_state = true;
  }
  Local* local = const_cast<Local*>(Find(id));
  PerChannel& ch = local->channels[c];
  if (ch.control) {
    step.error = AgentError::kDuplicateMarker;
    return step;
  }
  ch.control = true;
  ch.expected = count;
  MaybeClose(*local, c, step);
  if (local->open == 0 && step.record_state) step.part_done = true;
  return step;
}

SnapshotId LaiYangRules::OnSend(ChannelIndex out) {
  ++sent_[out];
  return epoch_;
}

std::uint64_t LaiYangRules::ControlCount(ChannelIndex out) const {
  return locals_.empty() ? 0 : locals_.back().sent_before[out];
}

ChannelRecording LaiYangRules::Channel(SnapshotId id, ChannelIndex c) const {
  const Local* local = Find(id);
  if (local == nullptr || c >= incoming_) return ChannelRecording::kNotRecorded;
  return local->channels[c].closed ? ChannelRecording::kClosed
                                   : ChannelRecording::kRecording;
}

bool LaiYangRules::PartDone(SnapshotId id) const {
  const Local* local = Find(id);
  return local != nullptr && local->open == 0;
}

}  // namespace cutline
