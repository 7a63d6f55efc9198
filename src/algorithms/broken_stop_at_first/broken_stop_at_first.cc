// Chandy-Lamport broken on purpose, for teaching: a channel's recording
// stops at the first message that arrives on it, instead of at the
// channel's marker. One transfer in flight is recorded rightly; a second
// one behind it on the same channel is missing from the snapshot, and the
// checker says so. Scenario and page only: never the library's
// (include/cutline) nor the runtime's (hosts.runtime is false).
#include <algorithm>
#include <utility>
#include <vector>

#include "algorithms/agent_host.h"
#include "algorithms/algorithm.h"
#include "cutline/marker_rules.h"

namespace cutline::algorithms {
namespace broken_stop_at_first {
namespace {

// MarkerRules, except that a channel stops recording once one message has
// joined its state: the channel reads as closed from then on, and its
// marker, when it comes, only counts towards the part (it closes nothing
// more). The stopped channels are kept here, per snapshot, until the
// snapshot is forgotten or aborted.
class StopAtFirstRules : public MarkerRules {
 public:
  using MarkerRules::MarkerRules;

  template <class Join>
  Reply OnMessage(ChannelIndex c, NoStamp, Join&& join) {
    if (c >= incoming_channels()) return Reply::Refused(AgentError::kUnknownChannel, 0);
    MarkerRules::ForEachRecording(c, [&](SnapshotId id) {
      if (Stopped(id, c)) return;
      stopped_.emplace_back(id, c);
      Reply joined = Reply::Of(id);
      joined.closed_channel = true;
      join(joined);
    });
    return Reply{};
  }
  // The agent's older fast path would skip OnMessage: not offered.
  template <class Fn>
  void ForEachRecording(ChannelIndex, Fn&&) const = delete;

  Reply OnControl(SnapshotId id, ChannelIndex c, NoControl) {
    Reply r = Reply::Of(id, MarkerRules::OnMarker(id, c));
    if (r.ok() && Stopped(id, c)) r.closed_channel = false;  // closed already
    return r;
  }
  ChannelRecording Channel(SnapshotId id, ChannelIndex c) const {
    ChannelRecording r = MarkerRules::Channel(id, c);
    return r == ChannelRecording::kRecording && Stopped(id, c) ? ChannelRecording::kClosed : r;
  }
  Reply Forget(SnapshotId id) {
    Reply r = MarkerRules::Forget(id);
    if (r.ok()) Drop(id);
    return r;
  }
  Reply Abort(SnapshotId id) {
    Reply r = MarkerRules::Abort(id);
    if (r.ok()) Drop(id);
    return r;
  }

 private:
  bool Stopped(SnapshotId id, ChannelIndex c) const {
    return std::find(stopped_.begin(), stopped_.end(), std::pair{id, c}) != stopped_.end();
  }
  void Drop(SnapshotId id) {
    std::erase_if(stopped_, [&](const auto& s) { return s.first == id; });
  }

  std::vector<std::pair<SnapshotId, ChannelIndex>> stopped_;
};

static_assert(SnapshotRules<StopAtFirstRules>);

}  // namespace

extern const Definition kDefinition;
const Definition kDefinition{
    .name = "broken-stop-at-first",
    .traits = {.concurrent_snapshots = true, .broken_on_purpose = true},
    .words = kMarkerWords,
    .hosts = {.scenario = true},
    .make_engine_host = &MakeAgentHost<StopAtFirstRules>,
};

}  // namespace broken_stop_at_first
}  // namespace cutline::algorithms
