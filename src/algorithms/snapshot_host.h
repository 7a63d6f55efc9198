// SnapshotHost: one snapshot algorithm's side of the engine, at every branch.
// The engine asks it what a start, a transfer and a marker mean and does what
// the answer (a Reply: a Step naming its snapshot) says: send markers (at the
// head of the channels if markers_ahead), hold or release channels, close,
// finish a part. The host keeps what its algorithm records (balances, channel
// states) and the tags its messages carry. Every algorithm of the branches
// is hosted by algorithms::AgentHost<Rules> (one cutline::SnapshotAgent per
// branch); stopping the world by its own. Each is made by its folder under
// src/algorithms/, through the registry (algorithms/algorithm.h).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "cutline/step.h"
#include "history/history.h"
#include "history/records.h"
#include "sim/network.h"

namespace cutline::algorithms {

using history::ChannelRecord;
using sim::ChannelId;
using sim::NodeId;
using sim::Seq;

// Not thread-safe: it belongs to one Engine. Every input comes from the engine,
// which checks what a person can get wrong first; a host asserts the rest.
class SnapshotHost {
 public:
  virtual ~SnapshotHost() = default;
  // A copy of everything it keeps, for a copy of its engine (`cutline
  // explore` branches a run at every choice).
  virtual std::unique_ptr<SnapshotHost> Clone() const = 0;

  // Branch `n`, holding `now`, starts or joins snapshot `id`.
  // REQUIRES: n has not recorded id.
  virtual Step Start(NodeId n, SnapshotId id, Amount now) = 0;

  // Transfer #seq of `amount` arrived on channel c, `ch` (not applied yet:
  // the receiver holds `now`). Appends to `out` what it obliges, one Reply
  // per snapshot it is about: a record it causes (Lai-Yang's newer epoch),
  // then the channels it closes; and to `joined` the snapshots whose
  // recorded state of the channel the transfer joined (the host knows; the
  // narration and the questions must not guess it from the channel's
  // state, which a rule broken on purpose makes lie). Asked for every
  // transfer if the algorithm's traits say sees_every_transfer, else only
  // while a snapshot runs.
  virtual void OnTransfer(ChannelId c, const sim::ChannelInfo& ch, Seq seq,
                          Amount amount, Amount now, std::vector<Reply>* out,
                          std::vector<SnapshotId>* joined) = 0;
  // Marker #seq of snapshot `id` arrived on `ch`; the receiver holds `now`.
  virtual Step OnMarker(ChannelId c, const sim::ChannelInfo& ch, Seq seq,
                        SnapshotId id, Amount now) = 0;

  // Tags (traits().tags_messages): message #seq, about to leave on `ch`,
  // is a transfer, or the marker of snapshot `id`.
  virtual void OnSendTransfer(const sim::ChannelInfo&, Seq) {}
  virtual void OnSendMarker(const sim::ChannelInfo&, Seq, SnapshotId) {}
  // The tag message #seq carries (0 if none, or forgotten).
  virtual std::uint64_t Tag(Seq) const { return 0; }

  // Markers ahead: the marker of `id` just put at the head of channel `ch`
  // overtook a transfer of `amount`, which joins its recorded state (kept
  // by the sender).
  virtual void OnOvertaken(SnapshotId, const sim::ChannelInfo&, Amount) {}

  virtual bool HasRecorded(NodeId n, SnapshotId id) const = 0;
  virtual bool PartDone(NodeId n, SnapshotId id) const = 0;
  virtual std::optional<Amount> RecordedBalance(NodeId n,
                                                SnapshotId id) const = 0;
  virtual ChannelRecord RecordedChannel(SnapshotId id, ChannelId c,
                                        const sim::ChannelInfo& ch) const = 0;
  // The sum of every channel state recorded for `id`.
  virtual Amount ChannelsTotal(SnapshotId id) const = 0;
  // While `n` aligns for `id`: the inputs (by index) it still waits on.
  virtual std::vector<ChannelIndex> Waiting(NodeId, SnapshotId) const {
    return {};
  }
};

}  // namespace cutline::algorithms
