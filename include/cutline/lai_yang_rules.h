// One process's side of Lai-Yang (non-FIFO channels), with Mattern's message
// counts deciding when a channel is closed. Pure bookkeeping like
// MarkerRules, answering with the same Reply.
//
// The host's part: stamp every application message with what OnOutgoing
// says (the sender's epoch), send a control message of s carrying
// ControlFor(s, out) on every outgoing channel when a Reply says
// record_state, and hand every arrival to OnMessage (application) or
// OnControl.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "cutline/closed_ids.h"
#include "cutline/running_table.h"
#include "cutline/snapshot_rules.h"
#include "cutline/step.h"

namespace cutline {

// Concurrent snapshots: supported, in id order. A process's epoch (the
// newest snapshot it has recorded) never goes backwards, and each process
// records snapshots in increasing id order; several may be recording at
// once, and an old-epoch message joins the channel state of every recording
// snapshot newer than its epoch. A snapshot that reaches a process after a
// newer one has been recorded there (a Start or control of an id below the
// epoch) cannot be recorded consistently any more: it is refused with
// kSuperseded, and the host must Abort it everywhere (it never completes).
// With a single snapshot at a time nothing is ever refused. Ids must grow:
// the next snapshot's id is above every earlier one.
//
// Several initiators: a Start of a snapshot recorded here joins it.
//
// Thread-compatible: const members may run concurrently; every other call
// needs exclusive access.
class LaiYangRules {
 public:
  using Stamp = SnapshotId;        // the sender's epoch
  using Control = std::uint64_t;   // messages sent on the channel before recording

  LaiYangRules(std::uint32_t incoming_channels, std::uint32_t outgoing_channels,
               const IdLimits& limits = {});

  // What the two-argument OnMessage says: the Step (a newer epoch records
  // first) and whether the message belongs to snapshot `snapshot`'s state of
  // its channel (the newest such snapshot, if several).
  struct MessageStep {
    Step step;
    SnapshotId recorded = 0;  // the snapshot a record_state is for
    bool in_channel_state = false;
    SnapshotId snapshot = 0;  // the snapshot whose channel state it joins
  };

  // Starts (or joins) snapshot `id` here (rule 2).
  Reply Start(SnapshotId id);
  // An application message of `epoch` arrived on `c` (before it is applied):
  // the Reply records a newer epoch first; join(reply) once per recording
  // snapshot (id order) whose channel state the message belongs to.
  template <class Join>
  Reply OnMessage(ChannelIndex c, SnapshotId epoch, Join&& join);
  // The same, in one value (older hosts).
  MessageStep OnMessage(ChannelIndex c, SnapshotId epoch);
  // The control message of `id` arrived on `c`, counting `count` messages
  // its sender sent on c before recording. A control of a snapshot not yet
  // recorded here records it first (rule 2). A count below the older
  // messages already received on c is refused with kCountMismatch (it could
  // only close the channel too early); if an older message arrives on a
  // channel already closed, OnMessage answers kCountMismatch for that
  // snapshot. A count too high cannot be told from messages still in
  // flight: the host's age bound ends such a snapshot.
  Reply OnControl(SnapshotId id, ChannelIndex c, std::uint64_t count) {
    return Reply::Of(id, ControlStep(id, c, count));
  }
  // An application message leaves on outgoing channel `out`: counts it and
  // gives the epoch to stamp on it (rule 1).
  Result<SnapshotId> OnOutgoing(ChannelIndex out);
  // Older hosts: the same, without the error. Called with out >=
  // outgoing_channels() it stops the program in every build
  // (detail::ContractViolated). Deprecated in 0.3: OnOutgoing answers an
  // error instead.
  [[deprecated("use OnOutgoing, which answers a bad channel with an error")]]
  SnapshotId OnSend(ChannelIndex out);

  SnapshotId Epoch() const { return epoch_; }
  // The count to put in the control message of snapshot `id` on `out`.
  Result<std::uint64_t> ControlFor(SnapshotId id, ChannelIndex out) const;
  // Older hosts: the count for the newest recorded snapshot (0 if none).
  // Called with out >= outgoing_channels() it stops the program in every
  // build. Deprecated in 0.3: ControlFor answers an error instead.
  [[deprecated("use ControlFor, which answers a bad channel or snapshot with an error")]]
  std::uint64_t ControlCount(ChannelIndex out) const;

  bool HasRecorded(SnapshotId id) const { return Find(id) != nullptr; }
  ChannelRecording Channel(SnapshotId id, ChannelIndex c) const;
  bool PartDone(SnapshotId id) const;
  bool IsFinished(SnapshotId id) const;
  IdLimits limits() const { return closed_.limits(); }
  // See SnapshotRules: Forget once the part is done and collected, Abort to
  // give up; either way the id stays finished and the epoch stays.
  Reply Forget(SnapshotId id);
  Reply Abort(SnapshotId id);

  std::uint32_t incoming_channels() const { return incoming_; }
  std::uint32_t outgoing_channels() const {
    return static_cast<std::uint32_t>(sent_.size());
  }
  std::size_t retained() const { return locals_.size() + closed_.size(); }

 private:
  struct PerChannel {
    bool control = false;           // the control message has come
    std::uint64_t expected = 0;     // its count
    std::uint64_t old_received = 0;  // messages of an older epoch received
    bool closed = false;
  };
  struct Local {
    SnapshotId id;
    std::vector<PerChannel> channels;  // by incoming index
    std::vector<std::uint64_t> sent_before;  // by outgoing index
    std::uint32_t open;
  };
  const Local* Find(SnapshotId id) const { return locals_.Find(id); }
  Local* Find(SnapshotId id) { return locals_.Find(id); }
  Local& Record(SnapshotId id);
  // A count for `id` on `c` that cannot be honest next to the newest count
  // taken on c (see OnControl).
  bool Dishonest(SnapshotId id, ChannelIndex c, std::uint64_t count) const;
  // OnMessage for a message of another epoch than epoch_ (records, joins).
  template <class Join>
  Reply OnOtherEpoch(ChannelIndex c, SnapshotId epoch, Join& join);
  // OnControl's work, as a Step (g++ builds a returned Step in a register).
  Step ControlStep(SnapshotId id, ChannelIndex c, std::uint64_t count);
  // Why `id`, not recorded here, cannot be recorded now (kNone if it can).
  AgentError CannotRecord(SnapshotId id) const;
  // Rule 4 on channel c of `local`; fills step.
  void MaybeClose(Local& local, ChannelIndex c, Step& step);
  void Drop(const Local* local);

  std::uint32_t incoming_;
  std::vector<std::uint64_t> received_;  // application messages, by incoming
  std::vector<std::uint64_t> sent_;      // application messages, by outgoing
  // By incoming channel: the newest snapshot whose count closed it. Every
  // message older than that snapshot was counted, so one arriving now
  // proves the count wrong, even after the part was taken.
  std::vector<SnapshotId> closed_by_count_;
  // By incoming channel: the newest snapshot whose control came on it, and
  // its count (0, 0 before any).
  struct Counted {
    SnapshotId id = 0;
    std::uint64_t count = 0;
  };
  std::vector<Counted> newest_count_;
  SnapshotId epoch_ = 0;
  detail::RunningTable<Local> locals_;  // in id order (ids only grow), the newest last
  ClosedIds closed_;
};

template <class Join>
inline Reply LaiYangRules::OnMessage(ChannelIndex c, SnapshotId epoch, Join&& join) {
  if (c >= incoming_) return Reply::Refused(AgentError::kUnknownChannel, epoch);
  // The common case, kept small enough to inline into the host: a message
  // of this process's own epoch records nothing and joins no channel state
  // (every snapshot recorded here is at most epoch_, none newer than it).
  if (epoch == epoch_) [[likely]] {
    ++received_[c];
    return Reply::Of(0);
  }
  return OnOtherEpoch(c, epoch, join);
}

template <class Join>
Reply LaiYangRules::OnOtherEpoch(ChannelIndex c, SnapshotId epoch, Join& join) {
  // Built as a Step and an id, then joined (Reply::Of): filling a Reply
  // field by field stalls every delivery on a store-to-load forward.
  Step step;
  SnapshotId recorded = 0;
  if (epoch > epoch_) {
    // A message from a sender that has recorded a snapshot this process has
    // not: it plays the marker's role and records first. (A finished id
    // records nothing, but the epoch still moves on: it never goes back.)
    // A stamp far beyond any id seen is no epoch any process started: it
    // would supersede every later snapshot here, so it is refused whole.
    AgentError e = closed_.Check(epoch);
    if (e == AgentError::kTooFarAhead) return Reply::Refused(e, epoch);
    if (e != AgentError::kNone) {
      epoch_ = epoch;
      closed_.Seen(epoch);
    } else {
      Local& local = Record(epoch);
      recorded = epoch;
      step.record_state = true;
      step.part_done = local.open == 0;
    }
  }
  ++received_[c];
  // Older than a snapshot whose count closed this channel before this
  // message came (its part may be taken and forgotten by now): that count
  // left this message out. (A message that records is of the newest epoch:
  // it never miscounts.)
  const SnapshotId miscounted = epoch < closed_by_count_[c] ? closed_by_count_[c] : 0;
  // Rule 3: an old-epoch message received after recording belongs to the
  // channel state of every snapshot newer than its epoch whose channel is
  // open. Newest first from the back, so that a current-epoch message (the
  // common case) looks at nothing; the joins are then reported in id order.
  locals_.ForEachAbove(epoch, [&](Local& local) {
    PerChannel& ch = local.channels[c];
    if (ch.closed) return;
    ++ch.old_received;
    Reply joined = Reply::Of(local.id);
    MaybeClose(local, c, joined);
    join(std::as_const(joined));
  });
  if (miscounted != 0) return Reply::Refused(AgentError::kCountMismatch, miscounted);
  return Reply::Of(recorded, step);
}

static_assert(SnapshotRules<LaiYangRules>);

}  // namespace cutline
