// The two barrier snapshots of stream processors (Flink), one process at a
// time, answering with MarkerRules' Step. A barrier is a marker; what
// differs is what the receiver does with the channel it came on. Both
// assume FIFO channels.
#pragma once

#include <cstdint>
#include <vector>

#include "cutline/marker_rules.h"

namespace cutline {

// Aligned barriers (asynchronous barrier snapshotting). Only a source (no
// incoming channel) starts. A barrier holds its channel back; once a
// barrier has come on every input, the process records, sends barriers on
// every output and releases its inputs. No channel state is ever kept:
// nothing behind a barrier is delivered before the record.
class AlignedBarrierRules {
 public:
  explicit AlignedBarrierRules(std::uint32_t incoming_channels);

  // REQUIRES: no incoming channel (the host refuses the others first).
  Step Start(SnapshotId id);
  // A barrier of `id` arrived on `c`: hold c, or (the last one) record,
  // close every channel and release them.
  Step OnMarker(SnapshotId id, ChannelIndex c);

  bool HasRecorded(SnapshotId id) const;
  ChannelRecording Channel(SnapshotId id, ChannelIndex c) const;
  bool PartDone(SnapshotId id) const { return HasRecorded(id); }
  // The inputs still without a barrier of `id` while aligning (empty once
  // recorded or before the first barrier).
  std::vector<ChannelIndex> Waiting(SnapshotId id) const;
  std::uint32_t incoming_channels() const { return incoming_; }

 private:
  struct Local {
    SnapshotId id;
    std::vector<bool> barrier;  // by incoming index
    std::uint32_t missing;
    bool recorded;
  };
  const Local* Find(SnapshotId id) const;

  std::uint32_t incoming_;
  std::vector<Local> locals_;
};

// Unaligned barriers (unaligned checkpoints): Chandy-Lamport's rules, except
// that a recording process puts its barriers at the head of its outgoing
// channels (Step::markers_ahead), so the snapshot does not wait behind the
// backlog; what they overtake is part of the channels' state.
class UnalignedBarrierRules {
 public:
  explicit UnalignedBarrierRules(std::uint32_t incoming_channels)
      : rules_(incoming_channels) {}

  Step Start(SnapshotId id) { return Ahead(rules_.Start(id)); }
  Step OnMarker(SnapshotId id, ChannelIndex c) {
    return Ahead(rules_.OnMarker(id, c));
  }
  template <class Fn>
  void ForEachRecording(ChannelIndex c, Fn&& fn) const {
    rules_.ForEachRecording(c, fn);
  }
  bool HasRecorded(SnapshotId id) const { return rules_.HasRecorded(id); }
  ChannelRecording Channel(SnapshotId id, ChannelIndex c) const {
    return rules_.Channel(id, c);
  }
  bool PartDone(SnapshotId id) const { return rules_.PartDone(id); }
  std::uint32_t incoming_channels() const { return rules_.incoming_channels(); }

 private:
  static Step Ahead(Step step) {
    step.markers_ahead = step.record_state;
    return step;
  }
  // The recording and closing rules are Chandy-Lamport's, so they are not
  // written twice.
  MarkerRules rules_;
};

}  // namespace cutline
