// Lai-Yang with Mattern's counts: a message's epoch stands in for the
// marker that non-FIFO channels cannot place; counts replace the marker's
// position as the signal that a channel has nothing more of the old epoch.
#include "cutline/lai_yang_rules.h"

#include <algorithm>
#include <utility>

namespace cutline {

LaiYangRules::LaiYangRules(std::uint32_t incoming_channels,
                           std::uint32_t outgoing_channels,
                           const IdLimits& limits)
    : incoming_(incoming_channels),
      received_(incoming_channels, 0),
      sent_(outgoing_channels, 0),
      closed_by_count_(incoming_channels, 0),
      newest_count_(incoming_channels),
      closed_(1, limits) {}

bool LaiYangRules::IsFinished(SnapshotId id) const {
  return Find(id) == nullptr && closed_.Contains(id);
}

AgentError LaiYangRules::CannotRecord(SnapshotId id) const {
  // 0, finished, too old to know, or too far ahead to be real.
  if (AgentError e = closed_.Check(id); e != AgentError::kNone) return e;
  // Recording it now would move the epoch backwards: messages of a newer
  // epoch have been applied, so they would count as sent before a cut they
  // were sent after.
  if (id <= epoch_) return AgentError::kSuperseded;
  return AgentError::kNone;
}

// Rule 2: record now. Everything received so far on a channel was of an
// older epoch (a newer one would have recorded first), so it counts towards
// the control message's number. REQUIRES: id > epoch_, so locals_ stays in
// id order.
LaiYangRules::Local& LaiYangRules::Record(SnapshotId id) {
  Local local{id, std::vector<PerChannel>(incoming_), sent_, incoming_};
  for (ChannelIndex c = 0; c < incoming_; ++c) {
    local.channels[c].old_received = received_[c];
  }
  epoch_ = id;
  return locals_.Insert(std::move(local));
}

bool LaiYangRules::Dishonest(SnapshotId id, ChannelIndex c, std::uint64_t count) const {
  const Counted& newest = newest_count_[c];
  if (newest.id == 0) return false;
  return id > newest.id ? count < newest.count : count > newest.count;
}

void LaiYangRules::MaybeClose(Local& local, ChannelIndex c, Step& step) {
  PerChannel& ch = local.channels[c];
  if (ch.closed || !ch.control || ch.old_received != ch.expected) return;
  ch.closed = true;
  closed_by_count_[c] = std::max(closed_by_count_[c], local.id);
  --local.open;
  step.closed_channel = true;
  step.part_done = local.open == 0;
}

Reply LaiYangRules::Start(SnapshotId id) {
  if (id != 0 && HasRecorded(id)) return Reply::Of(id);  // a further initiator joins
  if (AgentError e = CannotRecord(id); e != AgentError::kNone) {
    return Reply::Refused(e, id);
  }
  closed_.Seen(id);  // the host's own: vouched for (a control or stamp is not)
  Local& local = Record(id);
  Reply step = Reply::Of(id);
  step.record_state = true;
  step.part_done = local.open == 0;
  return step;
}

LaiYangRules::MessageStep LaiYangRules::OnMessage(ChannelIndex c,
                                                  SnapshotId epoch) {
  MessageStep out;
  Reply r = OnMessage(c, epoch, [&](const Reply& joined) {
    out.in_channel_state = true;
    out.snapshot = joined.snapshot;  // the newest, reported last
    out.step.closed_channel = out.step.closed_channel || joined.closed_channel;
    out.step.part_done = out.step.part_done || joined.part_done;
  });
  out.step.error = r.error;
  if (r.record_state) {
    out.step.record_state = true;
    out.step.part_done = out.step.part_done || r.part_done;
    out.recorded = r.snapshot;
  }
  return out;
}

Step LaiYangRules::ControlStep(SnapshotId id, ChannelIndex c, std::uint64_t count) {
  Step step;
  if (c >= incoming_) {
    step.error = AgentError::kUnknownChannel;
    return step;
  }
  Local* local = Find(id);
  if (local == nullptr) {
    if (AgentError e = CannotRecord(id); e != AgentError::kNone) {
      step.error = e;
      return step;
    }
  } else if (local->channels[c].control) {
    step.error = AgentError::kDuplicateMarker;
    return step;
  }
  // More older messages have arrived than the sender says it sent before
  // its record: the count is wrong, and closing on it would be too.
  const std::uint64_t old = local ? local->channels[c].old_received : received_[c];
  if (count < old || Dishonest(id, c, count)) {
    step.error = AgentError::kCountMismatch;
    return step;
  }
  if (id > newest_count_[c].id) newest_count_[c] = {id, count};
  if (local == nullptr) {
    local = &Record(id);
    step.record_state = true;
  }
  PerChannel& ch = local->channels[c];
  ch.control = true;
  ch.expected = count;
  MaybeClose(*local, c, step);
  if (local->open == 0 && step.record_state) step.part_done = true;
  return step;
}

Result<SnapshotId> LaiYangRules::OnOutgoing(ChannelIndex out) {
  if (out >= sent_.size()) return {AgentError::kUnknownChannel, epoch_};
  ++sent_[out];
  return {AgentError::kNone, epoch_};
}

SnapshotId LaiYangRules::OnSend(ChannelIndex out) {
  if (out >= sent_.size()) detail::ContractViolated("LaiYangRules::OnSend: no such outgoing channel");
  return OnOutgoing(out).value;
}

Result<std::uint64_t> LaiYangRules::ControlFor(SnapshotId id,
                                               ChannelIndex out) const {
  if (out >= sent_.size()) return {AgentError::kUnknownChannel, 0};
  const Local* local = Find(id);
  if (local == nullptr) return {AgentError::kUnknownSnapshot, 0};
  return {AgentError::kNone, local->sent_before[out]};
}

std::uint64_t LaiYangRules::ControlCount(ChannelIndex out) const {
  if (out >= sent_.size()) {
    detail::ContractViolated("LaiYangRules::ControlCount: no such outgoing channel");
  }
  if (locals_.empty()) return 0;
  return locals_.back().sent_before[out];
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

void LaiYangRules::Drop(const Local* local) {
  const SnapshotId id = local->id;
  closed_.Add(id);
  locals_.Erase(id);
}

Reply LaiYangRules::Forget(SnapshotId id) {
  return ForgetSnapshot(id, Find(id), closed_, [this](const Local* l) { Drop(l); });
}

Reply LaiYangRules::Abort(SnapshotId id) {
  return AbortSnapshot(id, Find(id), closed_, [this](const Local* l) { Drop(l); });
}

}  // namespace cutline
