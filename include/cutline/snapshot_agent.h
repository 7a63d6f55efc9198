// SnapshotAgent: one process's side of any snapshot algorithm, generic over
// the application's recorded state and message payload. It hosts a rules
// class (SnapshotRules: MarkerRules, LaiYangRules, AlignedBarrierRules,
// UnalignedBarrierRules) and keeps what the rules say to keep: the local
// state and the messages that belong to each recorded channel, and hands a
// finished part over in SnapshotCollector's shape. Pure: the host sends the
// markers and moves the parts.
#pragma once

#include <algorithm>
#include <cassert>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "cutline/collector.h"
#include "cutline/marker_rules.h"
#include "cutline/snapshot_rules.h"
#include "cutline/step.h"

namespace cutline {

// The host's loop, whatever the algorithm (docs/library.md):
//   Reply r = agent.Start(id, state) / OnControl(id, c, control, state) /
//             OnMessage(c, stamp, payload, state)   (before applying it);
//   if (!r.ok())        a refusal; nothing changed (ToString(r.error));
//   if (r.record_state) send the snapshot's control (with ControlFor) on
//                       every outgoing channel before anything else, at the
//                       head if r.markers_ahead, then RecordOvertaken what
//                       the control overtook;
//   hold_channel / release_inputs: aligned barriers' holds (and Unalign,
//                       their timeout, when a host will wait no longer);
//   then while (auto done = agent.TakeFinished()) send done->part to the
//   collector. Stamp every application message with OnOutgoing(out).
//
// Thread-compatible: const members may run concurrently; every other call
// needs exclusive access.
template <class State, class Payload, class Rules = MarkerRules>
  requires SnapshotRules<Rules>
class SnapshotAgent {
 public:
  using Stamp = typename Rules::Stamp;
  using Control = typename Rules::Control;
  using Part = SnapshotPart<State, Payload>;

  // What this process recorded for one snapshot.
  struct Recorded {
    State state{};
    // Recorded messages in arrival order, each with its incoming channel.
    std::vector<std::pair<ChannelIndex, Payload>> messages;
    // Recorded on the sending side (RecordOvertaken), each with its
    // outgoing channel, in channel order.
    std::vector<std::pair<ChannelIndex, Payload>> overtaken;
  };

  // A finished part, taken out of the agent.
  struct FinishedPart {
    SnapshotId id = 0;
    Part part;
  };

  // Without the outgoing channels the agent has none: ControlFor(id, 0),
  // OnOutgoing(0) and RecordOvertaken answer kUnknownChannel, which the host
  // loop of docs/library.md would meet on its first record. Say how many.
  [[deprecated("give the outgoing channel count too: SnapshotAgent(incoming, outgoing)")]]
  explicit SnapshotAgent(std::uint32_t incoming_channels)
      : SnapshotAgent(incoming_channels, 0) {}
  SnapshotAgent(std::uint32_t incoming_channels, std::uint32_t outgoing_channels)
      : rules_(incoming_channels, outgoing_channels) {}
  // With the bounds on ids of closed_ids.h (how many finished ids are
  // remembered, how far ahead a new id may be, how many newer snapshots may
  // record while a part is unfinished: TakeOverdue).
  SnapshotAgent(std::uint32_t incoming_channels, std::uint32_t outgoing_channels,
                const IdLimits& limits)
    requires std::constructible_from<Rules, std::uint32_t, std::uint32_t, IdLimits>
      : rules_(incoming_channels, outgoing_channels, limits),
        running_max_(limits.running_max) {}

  // Starts or joins snapshot `id`. `now` is the state to record.
  Reply Start(SnapshotId id, const State& now) {
    return Noted(rules_.Start(id), now);
  }

  // The control message (marker, barrier) of `id` arrived on `c`. `now` is
  // recorded if it records.
  Reply OnControl(SnapshotId id, ChannelIndex c, const Control& control,
                  const State& now) {
    return NotedControl(rules_.OnControl(id, c, control), now);
  }
  // The same for the algorithms whose controls carry nothing.
  Reply OnMarker(SnapshotId id, ChannelIndex c, const State& now)
    requires std::same_as<Control, NoControl>
  {
    return OnControl(id, c, NoControl{}, now);
  }

  // Aligned barriers' alignment timeout (AlignedBarrierRules::Unalign):
  // snapshot `id` stops aligning here and records `now`. Obey the Reply as
  // an unaligned barrier's: barriers ahead on every output, RecordOvertaken
  // what they jump, then release the inputs.
  Reply Unalign(SnapshotId id, const State& now)
    requires requires(Rules& r, SnapshotId s) {
      { r.Unalign(s) } -> std::same_as<Reply>;
    }
  {
    return NotedControl(rules_.Unalign(id), now);
  }

  // An application message stamped `stamp` arrived on `c`, before the host
  // applies it; `now` is the state before it (Lai-Yang records it if the
  // stamp is of a newer epoch). part_done says that a part finished, by a
  // record or by a join (then `snapshot` names the first joined part that
  // finished if the message recorded nothing, and also_done how many more
  // it finished): TakeFinished hands them over.
  // Lai-Yang's kCountMismatch names a snapshot to abort; the message itself
  // was taken (apply it), and parts may have finished all the same.
  Reply OnMessage(ChannelIndex c, const Stamp& stamp, const Payload& payload,
                  const State& now) {
    SnapshotId joined_done = 0;
    std::uint32_t done_count = 0;
    Reply r = rules_.OnMessage(c, stamp, [&](const Reply& joined) {
      Entry& entry = recorded_[joined.snapshot];
      entry.recorded.messages.emplace_back(c, payload);
      if (joined.part_done) {
        Finish(joined.snapshot, entry);
        if (joined_done == 0) joined_done = joined.snapshot;
        ++done_count;
      }
    });
    // A message that records joins nothing (it is of the newest epoch), so
    // a join's part_done never hides behind a record's.
    if (joined_done != 0 && r.ok() && !r.record_state) [[unlikely]] {
      r.snapshot = joined_done;
      r.part_done = true;
      r.also_done = static_cast<std::uint8_t>(std::min<std::uint32_t>(done_count - 1, 255));
      return r;
    }
    return Noted(r, now);
  }
  // Older hosts (no stamp): how many snapshots recorded the message into c's
  // channel state, or kUnknownChannel.
  Result<std::size_t> OnMessage(ChannelIndex c, const Payload& payload)
    requires std::same_as<Stamp, NoStamp>
  {
    if (c >= rules_.incoming_channels()) return {AgentError::kUnknownChannel, 0};
    std::size_t count = 0;
    auto join = [&](SnapshotId id, bool done) {
      Entry& entry = recorded_[id];
      entry.recorded.messages.emplace_back(c, payload);
      if (done) Finish(id, entry);
      ++count;
    };
    if constexpr (requires { rules_.ForEachRecording(c, [](SnapshotId) {}); }) {
      // Once per delivery in the bank: the rules' own fast path (one counter
      // test when nothing records), without building a Reply.
      rules_.ForEachRecording(c, [&](SnapshotId id) { join(id, false); });
    } else {
      rules_.OnMessage(c, NoStamp{}, [&](const Reply& j) { join(j.snapshot, j.part_done); });
    }
    return {AgentError::kNone, count};
  }

  // An application message leaves on outgoing `out`: what to stamp on it.
  Result<Stamp> OnOutgoing(ChannelIndex out) { return rules_.OnOutgoing(out); }
  // What to send with the control of `id` on outgoing `out`.
  Result<Control> ControlFor(SnapshotId id, ChannelIndex out) const {
    return rules_.ControlFor(id, out);
  }

  // The control of `id` overtook `payload` on outgoing `out` (unaligned
  // barriers, or a switched aligned one: after a Reply with markers_ahead):
  // it belongs to that channel's state, recorded here by the sender. Call
  // before TakeFinished.
  Reply RecordOvertaken(SnapshotId id, ChannelIndex out, const Payload& payload) {
    if (out >= rules_.outgoing_channels()) {
      return Reply::Refused(AgentError::kUnknownChannel, id);
    }
    auto it = recorded_.find(id);
    if (it == recorded_.end()) {
      return Reply::Refused(rules_.IsFinished(id) ? AgentError::kFinished
                                                  : AgentError::kUnknownSnapshot,
                            id);
    }
    it->second.recorded.overtaken.emplace_back(out, payload);
    return Reply::Of(id);
  }

  // The next finished part, in the order the parts finished, taken out of
  // the agent: the snapshot is forgotten here and stays finished.
  std::optional<FinishedPart> TakeFinished() {
    if (unclaimed_ == 0) return std::nullopt;
    // The part that finished first (few are kept at a time: a scan).
    auto it = recorded_.end();
    for (auto at = recorded_.begin(); at != recorded_.end(); ++at) {
      if (at->second.finished != 0 &&
          (it == recorded_.end() || at->second.finished < it->second.finished)) {
        it = at;
      }
    }
    assert(it != recorded_.end());
    --unclaimed_;
    SnapshotId id = it->first;
    Recorded& recorded = it->second.recorded;
    FinishedPart out;
    out.id = id;
    out.part.state = std::move(recorded.state);
    out.part.channels.resize(rules_.incoming_channels());
    for (auto& [c, payload] : recorded.messages) {
      out.part.channels[c].push_back(std::move(payload));
    }
    out.part.sent.resize(rules_.outgoing_channels());
    for (auto& [o, payload] : recorded.overtaken) {
      out.part.sent[o].push_back(std::move(payload));
    }
    recorded_.erase(it);
    Reply forgot = rules_.Forget(id);
    assert(forgot.ok());
    (void)forgot;
    return out;
  }

  // The part of a snapshot that has stayed unfinished here while more than
  // IdLimits::running_max newer snapshots recorded, oldest first, named once
  // each as a refusal (kOverdue, r.snapshot): a Lai-Yang count too high or a
  // lost marker, which would otherwise leave it running for ever, unnamed.
  // The part is still held: Abort it here, and everywhere (the collector's
  // Abandon). A host drains it after every input, beside TakeFinished.
  std::optional<Reply> TakeOverdue() {
    if (running_.empty() || records_ - running_.front().record <= running_max_) {
      return std::nullopt;
    }
    const SnapshotId id = running_.front().id;
    running_.erase(running_.begin());
    return Reply::Refused(AgentError::kOverdue, id);
  }

  bool HasRecorded(SnapshotId id) const { return rules_.HasRecorded(id); }
  bool PartDone(SnapshotId id) const { return rules_.PartDone(id); }
  bool IsFinished(SnapshotId id) const { return rules_.IsFinished(id); }
  ChannelRecording Channel(SnapshotId id, ChannelIndex c) const {
    return rules_.Channel(id, c);
  }
  // nullptr if this process has not recorded `id` (or it was taken).
  const Recorded* Find(SnapshotId id) const {
    auto it = recorded_.find(id);
    return it == recorded_.end() ? nullptr : &it->second.recorded;
  }
  // The messages recorded so far on channel `c` for `id`, in arrival order.
  std::vector<Payload> ChannelMessages(SnapshotId id, ChannelIndex c) const {
    std::vector<Payload> out;
    if (const Recorded* r = Find(id)) {
      for (const auto& [channel, payload] : r->messages) {
        if (channel == c) out.push_back(payload);
      }
    }
    return out;
  }
  // Drops a done part without taking it (see SnapshotRules::Forget).
  Reply Forget(SnapshotId id) {
    Reply r = rules_.Forget(id);
    if (r.ok()) Drop(id);
    return r;
  }
  // Gives up on `id` (see SnapshotRules::Abort; aligned barriers answer
  // release_inputs if it was holding inputs).
  Reply Abort(SnapshotId id) {
    Reply r = rules_.Abort(id);
    if (r.ok()) Drop(id);
    return r;
  }

  std::uint32_t incoming_channels() const { return rules_.incoming_channels(); }
  std::uint32_t outgoing_channels() const { return rules_.outgoing_channels(); }
  const Rules& rules() const { return rules_; }
  // The bounds this agent holds its ids to (the rules' and running_max).
  IdLimits limits() const {
    IdLimits out;
    if constexpr (requires { rules_.limits(); }) out = rules_.limits();
    out.running_max = running_max_;
    return out;
  }
  // Entries held: the rules' plus recorded snapshots and finished parts not
  // yet taken.
  std::size_t retained() const {
    return rules_.retained() + recorded_.size() + unclaimed_;
  }

 private:
  // The flags are tested on the Step's word (StepWord). Most answers (a
  // marker that closes or holds a channel, a message) keep nothing: one
  // test. Noted keeps the rest inline: a message's path (OnMessage, once
  // per delivery for Lai-Yang) compiles smallest that way.
  Reply Noted(const Reply& r, const State& now) {
    if ((detail::StepWord(r) & kKeeps) == 0) return r;
    Store(r, now);
    return r;
  }
  // Once per marker: the rest out of line, so that a host's marker path
  // saves fewer registers for it.
  Reply NotedControl(const Reply& r, const State& now) {
    if ((detail::StepWord(r) & kKeeps) == 0) [[likely]] return r;
    return Keep(r, now);
  }
  [[gnu::noinline]] Reply Keep(Reply r, const State& now) {
    Store(r, now);
    return r;
  }
  static constexpr std::uint64_t kKeeps = detail::kStepError |
                                          detail::kStepBit<&Step::record_state> |
                                          detail::kStepBit<&Step::part_done>;
  void Store(const Reply& r, const State& now) {
    constexpr std::uint64_t kRecord = detail::kStepBit<&Step::record_state>;
    constexpr std::uint64_t kDone = detail::kStepBit<&Step::part_done>;
    const std::uint64_t w = detail::StepWord(r);
    if ((w & detail::kStepError) != 0) return;
    if ((w & kRecord) != 0) {
      Entry& entry = recorded_[r.snapshot];
      entry.recorded.state = now;
      ++records_;
      if ((w & kDone) != 0) {
        Finish(r.snapshot, entry);
      } else {
        running_.push_back({records_, r.snapshot});
      }
    } else if ((w & kDone) != 0) {
      // Done parts were recorded (a part forgotten meanwhile is not kept).
      if (auto it = recorded_.find(r.snapshot); it != recorded_.end()) {
        Finish(r.snapshot, it->second);
      }
    }
  }
  // What is kept for a snapshot: what was recorded, and whether (and when,
  // among the parts here) it finished.
  struct Entry {
    Recorded recorded;
    std::uint64_t finished = 0;  // 0 while running; else its place in finishing
  };
  void Finish(SnapshotId id, Entry& entry) {
    if (entry.finished != 0) return;
    entry.finished = ++finishes_;
    ++unclaimed_;
    NotRunning(id);
  }
  void Drop(SnapshotId id) {
    auto it = recorded_.find(id);
    if (it == recorded_.end()) return;
    if (it->second.finished != 0) --unclaimed_;
    recorded_.erase(it);
    NotRunning(id);
  }
  // Few run at a time (at most running_max + 1 once the host drains
  // TakeOverdue and aborts): a scan.
  void NotRunning(SnapshotId id) {
    for (auto it = running_.begin(); it != running_.end(); ++it) {
      if (it->id == id) {
        running_.erase(it);
        return;
      }
    }
  }

  Rules rules_;
  // The finish order lives in the entries, not in a queue of ids beside
  // them: a host that keeps its parts here and never takes them (the bank)
  // would grow that queue without end, allocating at each agent's first
  // finished part (a fixed cost per process in every first snapshot).
  std::map<SnapshotId, Entry> recorded_;
  std::uint64_t finishes_ = 0;   // parts finished so far
  std::size_t unclaimed_ = 0;    // finished parts not yet taken
  // Recorded parts not yet finished (nor named overdue), in the order they
  // recorded, each with the number of its record: a part is overdue once
  // more than running_max_ records came after its own.
  struct Running {
    std::uint64_t record;
    SnapshotId id;
  };
  std::vector<Running> running_;
  std::uint64_t records_ = 0;    // records so far
  std::size_t running_max_ = IdLimits::kDefaultRunningMax;
};

}  // namespace cutline
