// One process's side of Lai-Yang (non-FIFO channels), with Mattern's message
// counts deciding when a channel is closed. Pure bookkeeping like
// MarkerRules, and answering with the same Step. One snapshot runs at a
// time; the earlier ones stay queryable.
//
// The host's part: stamp every application message with Epoch() (asking
// OnSend first), send a control message of s carrying ControlCount(out) on
// every outgoing channel when a Step says record_state, and hand every
// arrival to OnMessage (application) or OnControl.
#pragma once

#include <cstdint>
#include <vector>

#include "cutline/marker_rules.h"

namespace cutline {

class LaiYangRules {
 public:
  LaiYangRules(std::uint32_t incoming_channels, std::uint32_t outgoing_channels);

  // What OnMessage says: the Step (a newer epoch records first) and whether
  // the message belongs to snapshot `snapshot`'s state of its channel.
  struct MessageStep {
    Step step;
    SnapshotId recorded = 0;  // the snapshot a record_state is for
    bool in_channel_state = false;
    SnapshotId snapshot = 0;  // the snapshot whose channel state it joins
  };

  // Starts snapshot `id` here (rule 2). kAlreadyRecorded if it has.
  Step Start(SnapshotId id);
  // An application message of `epoch` arrived on `c` (before it is applied).
  MessageStep OnMessage(ChannelIndex c, SnapshotId epoch);
  // The control message of `id` arrived on `c`, counting `count` messages
  // its sender sent on c before recording. A control of a snapshot not yet
  // recorded here records it first (rule 2).
  Step OnControl(SnapshotId id, ChannelIndex c, std::uint64_t count);
  // An application message leaves on outgoing channel `out`; returns the
  // epoch to stamp on it (rule 1).
  SnapshotId OnSend(ChannelIndex out);

  SnapshotId Epoch() const { return epoch_; }
  // The count to put in the control message of the current snapshot on
  // `out`: the messages sent on it before recording.
  std::uint64_t ControlCount(ChannelIndex out) const;

  bool HasRecorded(SnapshotId id) const { return Find(id) != nullptr; }
  ChannelRecording Channel(SnapshotId id, ChannelIndex c) const;
  bool PartDone(SnapshotId id) const;
  std::uint32_t incoming_channels() const { return incoming_; }

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
  const Local* Find(SnapshotId id) const;
  Local& Record(SnapshotId id);
  // Rule 4 on channel c of the current snapshot; fills step.
  void MaybeClose(Local& local, ChannelIndex c, Step& step);

  std::uint32_t incoming_;
  std::vector<std::uint64_t> received_;  // application messages, by incoming
  std::vector<std::uint64_t> sent_;      // application messages, by outgoing
  SnapshotId epoch_ = 0;
  std::vector<Local> locals_;  // in id order; the last is the current one
};

}  // namespace cutline
