// What a snapshot recorded of one channel, in the words every layer above
// shares: the engine's hosts fill it, the checker compares it, both JSONs
// (the scenario's and the store's) write its state by name.
#pragma once

#include <vector>

#include "base/amount.h"
#include "cutline/step.h"

namespace cutline::history {

// One channel of one snapshot, as recorded.
struct ChannelRecord {
  ChannelRecording state = ChannelRecording::kNotRecorded;
  std::vector<Amount> transfers;  // in the order received
  // Unaligned barriers: the transfers the barrier overtook (the tail of
  // `transfers`, which they also belong to).
  std::vector<Amount> overtaken;
};

// A recorded channel's state as a snapshot's channel "state" word
// (docs/scenario-language.md): "closed", "recording", ...
inline const char* ChannelRecordingName(ChannelRecording r) {
  switch (r) {
    case ChannelRecording::kNotRecorded:
      return "not recorded";
    case ChannelRecording::kRecording:
      return "recording";
    case ChannelRecording::kClosed:
      return "closed";
    case ChannelRecording::kHeldBack:
      return "held back";
  }
  return "?";
}

}  // namespace cutline::history
