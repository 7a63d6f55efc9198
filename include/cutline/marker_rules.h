// One process's side of the Chandy-Lamport marker rules, for any number of
// concurrent snapshots. Pure bookkeeping: no I/O, clock, threads or payloads.
#pragma once

#include <cstdint>
#include <vector>

namespace cutline {

using SnapshotId = std::uint64_t;
// Position of a channel in the process's own list of incoming channels.
using ChannelIndex = std::uint32_t;

// The recording state of one incoming channel for one snapshot.
// kHeldBack: aligned barriers only; the receiver has a barrier on the channel
// and delivers nothing more from it until its alignment is over.
enum class ChannelRecording : std::uint8_t {
  kNotRecorded,
  kRecording,
  kClosed,
  kHeldBack,
};

enum class AgentError : std::uint8_t {
  kNone,
  kAlreadyRecorded,  // Start() for a snapshot this process has recorded
  kUnknownChannel,   // channel index out of range
  kDuplicateMarker,  // a second marker of one snapshot on one channel
};

// What one input obliges the host to do, in this order:
//  1. if record_state: record the local state now and send a marker of the
//     snapshot on every outgoing channel, before sending anything else;
//  2. if closed_channel: that incoming channel's recording is final (it was
//     recorded empty when record_state is also set);
//  3. if part_done: this process has a marker from every incoming channel.
// The variants (lai_yang_rules.h, barrier_rules.h) answer with the same Step
// and use the further fields; Chandy-Lamport leaves them false:
//  - markers_ahead (unaligned barriers): the markers go to the head of each
//    outgoing channel, ahead of what waits there, and what they overtake
//    belongs to that channel's recorded state;
//  - hold_channel (aligned barriers): deliver nothing more from the channel
//    the marker came on until release_inputs;
//  - release_inputs (aligned barriers): every incoming channel may deliver
//    again.
// Eight bytes, aligned as one word: a host builds a Step in a register and
// passes it on by reference; at seven bytes g++ stored it byte by byte and
// read it back whole, a stalled store every marker (docs/performance.md).
struct alignas(8) Step {
  AgentError error = AgentError::kNone;
  bool record_state = false;
  bool closed_channel = false;
  bool part_done = false;
  bool markers_ahead = false;
  bool hold_channel = false;
  bool release_inputs = false;

  bool ok() const { return error == AgentError::kNone; }
};

// Thread-compatible (no internal locking). Inputs are the two events of the
// algorithm; outputs are Steps. Variants (Lai-Yang, aligned barriers) are
// sibling classes with the same Step vocabulary; see docs/design.md.
class MarkerRules {
 public:
  explicit MarkerRules(std::uint32_t incoming_channels);

  // This process starts (or joins, as a further initiator) snapshot `id`.
  Step Start(SnapshotId id);
  // A marker of snapshot `id` arrived on incoming channel `c`.
  Step OnMarker(SnapshotId id, ChannelIndex c);

  // Calls fn(id) for every snapshot that is recording channel `c`, in id
  // order: an application message that arrives on `c` now belongs to the
  // recorded state of exactly those snapshots.
  template <class Fn>
  void ForEachRecording(ChannelIndex c, Fn&& fn) const {
    if (recording_channels_ == 0) return;  // the common, fast case
    for (const Local& local : locals_) {
      if (local.channels[c] == ChannelRecording::kRecording) fn(local.id);
    }
  }

  bool HasRecorded(SnapshotId id) const { return Find(id) != nullptr; }
  // kNotRecorded for a snapshot this process has not recorded yet.
  ChannelRecording Channel(SnapshotId id, ChannelIndex c) const;
  bool PartDone(SnapshotId id) const;
  // Drops what is kept for `id` (after the host has collected it).
  void Forget(SnapshotId id);

  std::uint32_t incoming_channels() const { return incoming_; }

 private:
  struct Local {
    SnapshotId id;
    std::vector<ChannelRecording> channels;  // by ChannelIndex
    std::uint32_t open;                      // channels not yet closed
  };
  const Local* Find(SnapshotId id) const;
  Local* Find(SnapshotId id);
  Local& Record(SnapshotId id);

  std::uint32_t incoming_;
  std::vector<Local> locals_;  // sorted by id; few at a time in practice
  std::uint64_t recording_channels_ = 0;  // sum of kRecording over locals_
};

}  // namespace cutline
