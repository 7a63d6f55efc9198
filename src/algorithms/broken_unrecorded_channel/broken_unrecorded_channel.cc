// Chandy-Lamport broken on purpose, for teaching: one rule left out. Each
// branch never starts recording its first incoming channel (index 0), so a
// transfer in flight there when the snapshot passes is lost from the
// snapshot, and the checker says so. Scenario and page only: never the
// library's (include/cutline) nor the runtime's (hosts.runtime is false).
#include "algorithms/agent_host.h"
#include "algorithms/algorithm.h"
#include "cutline/marker_rules.h"

namespace cutline::algorithms {
namespace broken_unrecorded_channel {
namespace {

// MarkerRules, except that nothing arriving on incoming channel 0 ever joins
// a channel state: the channel's recording never starts. Its marker still
// closes it, so the snapshot completes and looks whole.
class UnrecordedChannelRules : public MarkerRules {
 public:
  using MarkerRules::MarkerRules;

  template <class Join>
  Reply OnMessage(ChannelIndex c, NoStamp stamp, Join&& join) const {
    if (c == kUnrecorded && c < incoming_channels()) return Reply{};
    return MarkerRules::OnMessage(c, stamp, std::forward<Join>(join));
  }
  // The agent's fast path asks this instead of OnMessage: the same rule.
  template <class Fn>
  void ForEachRecording(ChannelIndex c, Fn&& fn) const {
    if (c == kUnrecorded) return;
    MarkerRules::ForEachRecording(c, std::forward<Fn>(fn));
  }

 private:
  static constexpr ChannelIndex kUnrecorded = 0;
};

static_assert(SnapshotRules<UnrecordedChannelRules>);

}  // namespace

extern const Definition kDefinition;
const Definition kDefinition{
    .name = "broken-unrecorded-channel",
    .traits = {.concurrent_snapshots = true, .broken_on_purpose = true},
    .words = kMarkerWords,
    .hosts = {.scenario = true},
    .make_engine_host = &MakeAgentHost<UnrecordedChannelRules>,
};

}  // namespace broken_unrecorded_channel
}  // namespace cutline::algorithms
