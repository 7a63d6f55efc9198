// The two barrier snapshots of stream processors (Flink), one process at a
// time, answering with the same Reply as MarkerRules. A barrier is a marker;
// what differs is what the receiver does with the channel it came on. Both
// assume FIFO channels.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

#include "cutline/closed_ids.h"
#include "cutline/marker_rules.h"
#include "cutline/running_table.h"
#include "cutline/snapshot_rules.h"
#include "cutline/step.h"

namespace cutline {

// Aligned barriers (asynchronous barrier snapshotting). Only a source (no
// incoming channel) starts; Start elsewhere is refused with kNotSource. A
// barrier holds its channel back; once a barrier has come on every input,
// the process records, sends barriers on every output and releases its
// inputs. No channel state is ever kept: nothing behind a barrier is
// delivered before the record.
//
// Several initiators: every source of the graph starts each snapshot (a
// process downstream of a source that did not start would wait for ever);
// a second Start of a recorded id joins it.
// Concurrent snapshots: supported in sequence (a pipeline of snapshots),
// when every source starts them in the same order: at most one snapshot
// aligns at a process at a time. A barrier of another snapshot while one
// aligns means two sources started them in different orders, which would
// deadlock the holds: it is refused with kOutOfOrder. The refused barrier is
// NOT taken: it is still due on its channel, and nothing behind it on that
// channel may be delivered until the host has chosen, at once, one of:
//  - abort the refused snapshot (r.snapshot) everywhere and drop its
//    barrier (examples/work_queue does this); or
//  - abort the aligning one (aligning()) everywhere, whose Abort says
//    release_inputs, and then hand the refused barrier to OnControl again:
//    dropped, it would leave r.snapshot waiting on that input for ever.
//
// Alignment timeout (Flink's aligned checkpoint timeout): a host that will
// not hold its inputs for longer than some time calls Unalign for the
// aligning snapshot. It records at once, as an unaligned barrier would: the
// inputs whose barrier came are closed empty (nothing behind a barrier was
// delivered), and the others record, Chandy-Lamport's way, until their
// barrier comes: the messages delivered on them meanwhile are joined to the
// snapshot's channel state. Nothing is held any more, so aligning() is 0 and
// the next snapshot may align while a switched one still records; FIFO
// channels bring the switched one's barrier first on every input.
//
// Thread-compatible: const members may run concurrently; every other call
// needs exclusive access.
class AlignedBarrierRules {
 public:
  using Stamp = NoStamp;
  using Control = NoControl;

  explicit AlignedBarrierRules(std::uint32_t incoming_channels)
      : AlignedBarrierRules(incoming_channels, 0) {}
  AlignedBarrierRules(std::uint32_t incoming_channels,
                      std::uint32_t outgoing_channels, const IdLimits& limits = {});

  // kNotSource at a process with inputs.
  Reply Start(SnapshotId id);
  // A barrier of `id` arrived on `c`: hold c, or (the last one) record,
  // close every channel and release them. (OnMarker: the older call, a
  // Step; OnControl names the snapshot.)
  Step OnMarker(SnapshotId id, ChannelIndex c);
  Reply OnControl(SnapshotId id, ChannelIndex c, NoControl) {
    return Reply::Of(id, OnMarker(id, c));
  }
  // The alignment timeout: snapshot `id`, aligning here, records now instead
  // of waiting for its missing barriers. The Reply says record_state with
  // markers_ahead (barriers ahead of the queued messages on every output,
  // RecordOvertaken what they jump, as UnalignedBarrierRules) and
  // release_inputs (what waits behind the barriers that came is after the
  // snapshot). The inputs without a barrier then record until it comes;
  // the last one to come answers part_done. Refused: kInvalidSnapshot (0),
  // kAlreadyRecorded (recorded here, switched or not), kUnknownSnapshot (no
  // barrier of it came yet), or ClosedIds' answer for a finished id.
  Reply Unalign(SnapshotId id);
  // A message joins the channel state of every switched snapshot still
  // recording `c` (none without a timeout: one test); kChannelHeld if `c`
  // is held back (the host delivered what it must hold).
  template <class Join>
  Reply OnMessage(ChannelIndex c, NoStamp, Join&& join) const {
    if (c >= incoming_) return Reply::Refused(AgentError::kUnknownChannel, 0);
    if (const Local* a = Aligning(); a != nullptr && a->barrier[c]) {
      return Reply::Refused(AgentError::kChannelHeld, a->id);
    }
    ForEachRecording(c, [&](SnapshotId id) { join(Reply::Of(id)); });
    return Reply{};
  }
  // Calls fn(id) for every switched snapshot recording channel `c`, in id
  // order. Nothing is called for a channel out of range.
  template <class Fn>
  void ForEachRecording(ChannelIndex c, Fn&& fn) const {
    if (recording_channels_ == 0 || c >= incoming_) return;  // the common, fast case
    locals_.ForEach([&](const Local& local) {
      if (local.switched && !local.barrier[c]) fn(local.id);
    });
  }
  Result<NoStamp> OnOutgoing(ChannelIndex out) const {
    return {out < outgoing_ ? AgentError::kNone : AgentError::kUnknownChannel, {}};
  }
  Result<NoControl> ControlFor(SnapshotId id, ChannelIndex out) const;

  bool HasRecorded(SnapshotId id) const;
  // kHeldBack while aligning; once recorded, kClosed, except kRecording for
  // the inputs of a switched snapshot whose barrier has not come.
  ChannelRecording Channel(SnapshotId id, ChannelIndex c) const;
  // Recorded, and (if switched) every barrier came.
  bool PartDone(SnapshotId id) const;
  bool IsFinished(SnapshotId id) const;
  // The snapshot aligning here (holding inputs), 0 if none: after a
  // kOutOfOrder, the other of the two. A switched snapshot aligns no more.
  SnapshotId aligning() const { return aligning_; }
  IdLimits limits() const { return closed_.limits(); }
  // The inputs still without a barrier of `id` while aligning (empty once
  // recorded, switched included, or before the first barrier).
  std::vector<ChannelIndex> Waiting(SnapshotId id) const;
  // Forget: once the part is done. Abort: also while aligning, and then the
  // Reply says release_inputs (not for a switched one: it holds nothing).
  Reply Forget(SnapshotId id);
  Reply Abort(SnapshotId id);

  std::uint32_t incoming_channels() const { return incoming_; }
  std::uint32_t outgoing_channels() const { return outgoing_; }
  std::size_t retained() const { return locals_.size() + closed_.size(); }

 private:
  struct Local {
    SnapshotId id;
    std::vector<bool> barrier;  // by incoming index
    std::uint32_t missing;      // inputs without a barrier yet
    bool recorded;
    bool switched = false;      // Unalign recorded it: the missing inputs record
  };
  const Local* Find(SnapshotId id) const { return locals_.Find(id); }
  // The snapshot aligning here (at most one), or nullptr.
  const Local* Aligning() const {
    return aligning_ == 0 ? nullptr : Find(aligning_);
  }
  void Drop(const Local* local);
  // A barrier on an input a switched snapshot records: closes it.
  Step CloseSwitched(Local* local, ChannelIndex c);

  std::uint32_t incoming_;
  std::uint32_t outgoing_;
  detail::RunningTable<Local> locals_;  // by id
  SnapshotId aligning_ = 0;  // the snapshot holding channels, 0 if none
  // Inputs recording for a switched snapshot, summed over locals_: 0 keeps
  // OnMessage to one test.
  std::uint64_t recording_channels_ = 0;
  ClosedIds closed_;
};

// Unaligned barriers (unaligned checkpoints): Chandy-Lamport's rules, except
// that a recording process puts its barriers ahead of the application
// messages waiting on its outgoing channels (Step::markers_ahead), so the
// snapshot does not wait behind the backlog; what they overtake is part of
// the channels' state, recorded by the sender (SnapshotAgent::
// RecordOvertaken). A barrier never overtakes an older barrier: it goes
// behind the last barrier queued (UnalignedBarrierPlace). Jumping older
// barriers too would be as consistent, but under a steady stream of
// snapshots each new barrier then pushes every older one back, and the
// oldest running snapshot falls ever further behind the newest (past a
// host's age bound). Concurrent snapshots and several initiators as
// MarkerRules.
//
// Thread-compatible: const members may run concurrently; every other call
// needs exclusive access.
class UnalignedBarrierRules {
 public:
  using Stamp = NoStamp;
  using Control = NoControl;

  explicit UnalignedBarrierRules(std::uint32_t incoming_channels)
      : rules_(incoming_channels) {}
  UnalignedBarrierRules(std::uint32_t incoming_channels,
                        std::uint32_t outgoing_channels, const IdLimits& limits = {})
      : rules_(incoming_channels, outgoing_channels, limits) {}

  Reply Start(SnapshotId id) { return Ahead(rules_.Start(id)); }
  Step OnMarker(SnapshotId id, ChannelIndex c) {
    // markers_ahead = record_state, on the Step's word (detail::StepWord).
    constexpr std::uint64_t kRecord = detail::kStepBit<&Step::record_state>;
    constexpr std::uint64_t kAhead = detail::kStepBit<&Step::markers_ahead>;
    static_assert(kAhead > kRecord);
    constexpr int kShift = std::countr_zero(kAhead) - std::countr_zero(kRecord);
    std::uint64_t w = detail::StepWord(rules_.OnMarker(id, c));
    w = (w & ~kAhead) | ((w & kRecord) << kShift);
    return std::bit_cast<Step>(w);
  }
  Reply OnControl(SnapshotId id, ChannelIndex c, NoControl) {
    return Reply::Of(id, OnMarker(id, c));
  }
  template <class Join>
  Reply OnMessage(ChannelIndex c, NoStamp stamp, Join&& join) const {
    return rules_.OnMessage(c, stamp, join);
  }
  Result<NoStamp> OnOutgoing(ChannelIndex out) const { return rules_.OnOutgoing(out); }
  Result<NoControl> ControlFor(SnapshotId id, ChannelIndex out) const {
    return rules_.ControlFor(id, out);
  }
  // Nothing is called for a channel out of range.
  template <class Fn>
  void ForEachRecording(ChannelIndex c, Fn&& fn) const {
    rules_.ForEachRecording(c, fn);
  }
  bool HasRecorded(SnapshotId id) const { return rules_.HasRecorded(id); }
  ChannelRecording Channel(SnapshotId id, ChannelIndex c) const {
    return rules_.Channel(id, c);
  }
  bool PartDone(SnapshotId id) const { return rules_.PartDone(id); }
  bool IsFinished(SnapshotId id) const { return rules_.IsFinished(id); }
  IdLimits limits() const { return rules_.limits(); }
  Reply Forget(SnapshotId id) { return rules_.Forget(id); }
  Reply Abort(SnapshotId id) { return rules_.Abort(id); }
  std::uint32_t incoming_channels() const { return rules_.incoming_channels(); }
  std::uint32_t outgoing_channels() const { return rules_.outgoing_channels(); }
  std::size_t retained() const { return rules_.retained(); }

 private:
  static Reply Ahead(Reply step) {
    step.markers_ahead = step.record_state;
    return step;
  }
  // The recording and closing rules are Chandy-Lamport's, so they are not
  // written twice.
  MarkerRules rules_;
};

// Where an unaligned barrier goes in an outgoing queue given oldest first,
// for a Reply with markers_ahead: behind the last barrier already queued
// (is_barrier says which entries are), ahead of every application message
// after it. The messages from the returned place to `last` are the ones it
// overtakes: RecordOvertaken each, then insert the barrier at the place.
template <class BidirectionalIt, class IsBarrier>
BidirectionalIt UnalignedBarrierPlace(BidirectionalIt first, BidirectionalIt last,
                                      IsBarrier&& is_barrier) {
  BidirectionalIt place = last;
  while (place != first) {
    BidirectionalIt before = std::prev(place);
    if (is_barrier(*before)) break;
    place = before;
  }
  return place;
}

static_assert(SnapshotRules<AlignedBarrierRules>);
static_assert(SnapshotRules<UnalignedBarrierRules>);

}  // namespace cutline
