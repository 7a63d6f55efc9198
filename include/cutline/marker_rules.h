// One process's side of the Chandy-Lamport marker rules (FIFO channels), for
// any number of concurrent snapshots. Pure bookkeeping: no I/O, clock,
// threads or payloads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cutline/closed_ids.h"
#include "cutline/running_table.h"
#include "cutline/snapshot_rules.h"
#include "cutline/step.h"

namespace cutline {

// Concurrent snapshots: any number, each independent of the others (the
// rules are per id), with any number of initiators: a Start of a running
// snapshot joins it. A forgotten or aborted id stays finished (kFinished).
//
// Thread-compatible: const members may run concurrently; every other call
// needs exclusive access (a host with several threads locks around it).
class MarkerRules {
 public:
  using Stamp = NoStamp;
  using Control = NoControl;

  explicit MarkerRules(std::uint32_t incoming_channels)
      : MarkerRules(incoming_channels, 0) {}
  MarkerRules(std::uint32_t incoming_channels, std::uint32_t outgoing_channels,
              const IdLimits& limits = {});

  // This process starts (or joins, as a further initiator) snapshot `id`.
  Reply Start(SnapshotId id);
  // A marker of snapshot `id` arrived on incoming channel `c`. OnMarker is
  // the older call (a Step, cheapest per marker); OnControl names the
  // snapshot in its Reply.
  Step OnMarker(SnapshotId id, ChannelIndex c);
  Reply OnControl(SnapshotId id, ChannelIndex c, NoControl) {
    return Reply::Of(id, OnMarker(id, c));
  }
  // An application message arrived on `c`: join(Reply) for every snapshot
  // recording c, in id order (the message belongs to their channel state).
  template <class Join>
  Reply OnMessage(ChannelIndex c, NoStamp, Join&& join) const {
    if (c >= incoming_) return Reply::Refused(AgentError::kUnknownChannel, 0);
    ForEachRecording(c, [&](SnapshotId id) { join(Reply::Of(id)); });
    return Reply{};
  }
  Result<NoStamp> OnOutgoing(ChannelIndex out) const {
    return {out < outgoing_ ? AgentError::kNone : AgentError::kUnknownChannel, {}};
  }
  Result<NoControl> ControlFor(SnapshotId id, ChannelIndex out) const;

  // Calls fn(id) for every snapshot that is recording channel `c`, in id
  // order: an application message that arrives on `c` now belongs to the
  // recorded state of exactly those snapshots.
  // A channel out of range is recording for no snapshot: fn is not called
  // (OnMessage answers kUnknownChannel for it).
  template <class Fn>
  void ForEachRecording(ChannelIndex c, Fn&& fn) const {
    if (recording_channels_ == 0 || c >= incoming_) return;  // the common, fast case
    locals_.ForEach([&](const Local& local) {
      if (local.channels[c] == ChannelRecording::kRecording) fn(local.id);
    });
  }

  bool HasRecorded(SnapshotId id) const { return Find(id) != nullptr; }
  // kNotRecorded for a snapshot this process has not recorded yet.
  ChannelRecording Channel(SnapshotId id, ChannelIndex c) const;
  bool PartDone(SnapshotId id) const;
  // Forgotten, aborted, or older than the closed window, and not running.
  bool IsFinished(SnapshotId id) const;
  // The bounds this process holds its ids to (closed_ids.h).
  IdLimits limits() const { return closed_.limits(); }
  // Drops what is kept for `id` once its part is done (after the host has
  // collected it); `id` stays finished. kNotDone for a running part (use
  // Abort), kUnknownSnapshot if it is not recorded here.
  Reply Forget(SnapshotId id);
  // Gives up on `id` whether it is running here or not yet seen; it stays
  // finished. kFinished if it was already.
  Reply Abort(SnapshotId id);

  std::uint32_t incoming_channels() const { return incoming_; }
  std::uint32_t outgoing_channels() const { return outgoing_; }
  // Entries held: running or unforgotten snapshots plus closed ids kept.
  std::size_t retained() const { return locals_.size() + closed_.size(); }

 private:
  struct Local {
    SnapshotId id;
    std::vector<ChannelRecording> channels;  // by ChannelIndex
    std::uint32_t open;                      // channels not yet closed
  };
  const Local* Find(SnapshotId id) const { return locals_.Find(id); }
  Local* Find(SnapshotId id) { return locals_.Find(id); }
  Local& Record(SnapshotId id);
  void Drop(const Local* local);

  std::uint32_t incoming_;
  std::uint32_t outgoing_;
  detail::RunningTable<Local> locals_;  // by id; few at a time in practice
  std::uint64_t recording_channels_ = 0;  // sum of kRecording over locals_
  ClosedIds closed_;
};

static_assert(SnapshotRules<MarkerRules>);

}  // namespace cutline
