// SnapshotAgent: one process's side of Chandy-Lamport, generic over the
// application's recorded state and message payload. It wraps MarkerRules and
// keeps what the rules say to keep: the local state and the messages that
// belong to each recorded channel. Pure: the host sends the markers.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "cutline/marker_rules.h"

namespace cutline {

// Rules: MarkerRules (Chandy-Lamport) or UnalignedBarrierRules, which share
// its inputs and its way of recording channels. (Lai-Yang and aligned
// barriers record channels differently: a host uses their rules classes
// directly, see docs/design.md.)
template <class State, class Payload, class Rules = MarkerRules>
class SnapshotAgent {
 public:
  // What this process recorded for one snapshot.
  struct Recorded {
    State state{};
    // Recorded messages in arrival order, each with its incoming channel.
    std::vector<std::pair<ChannelIndex, Payload>> messages;
  };

  explicit SnapshotAgent(std::uint32_t incoming_channels)
      : rules_(incoming_channels) {}

  // Starts or joins snapshot `id`. `now` is the state to record.
  Step Start(SnapshotId id, const State& now) {
    Step step = rules_.Start(id);
    if (step.record_state) recorded_[id].state = now;
    return step;
  }

  // A marker of `id` arrived on `c`. `now` is recorded if it is the first.
  Step OnMarker(SnapshotId id, ChannelIndex c, const State& now) {
    Step step = rules_.OnMarker(id, c);
    if (step.record_state) recorded_[id].state = now;
    return step;
  }

  // An application message arrived on `c` (before the host applies it).
  // Returns how many snapshots recorded it into c's channel state.
  // REQUIRES: c < incoming_channels().
  std::size_t OnMessage(ChannelIndex c, const Payload& payload) {
    std::size_t count = 0;
    rules_.ForEachRecording(c, [&](SnapshotId id) {
      recorded_[id].messages.emplace_back(c, payload);
      ++count;
    });
    return count;
  }

  bool HasRecorded(SnapshotId id) const { return rules_.HasRecorded(id); }
  bool PartDone(SnapshotId id) const { return rules_.PartDone(id); }
  ChannelRecording Channel(SnapshotId id, ChannelIndex c) const {
    return rules_.Channel(id, c);
  }
  // nullptr if this process has not recorded `id`.
  const Recorded* Find(SnapshotId id) const {
    auto it = recorded_.find(id);
    return it == recorded_.end() ? nullptr : &it->second;
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
  void Forget(SnapshotId id) {
    rules_.Forget(id);
    recorded_.erase(id);
  }
  std::uint32_t incoming_channels() const { return rules_.incoming_channels(); }

 private:
  Rules rules_;
  std::map<SnapshotId, Recorded> recorded_;
};

}  // namespace cutline
