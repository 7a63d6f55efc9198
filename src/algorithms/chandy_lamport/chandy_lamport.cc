// Chandy-Lamport (1985): a branch records on its first marker and sends a
// marker on every output; a channel's state is what arrives on it between
// the receiver's record and the channel's marker. FIFO channels; any
// number of snapshots at once.
#include "algorithms/agent_host.h"
#include "algorithms/algorithm.h"

namespace cutline::algorithms {
namespace chandy_lamport {

std::unique_ptr<bank::SnapshotHost> MakeHost(const sim::Topology& t, bool) {
  return std::make_unique<AgentHost<MarkerRules>>(t);
}

extern const Definition kDefinition;
const Definition kDefinition{
    .name = "chandy-lamport",
    .traits = {.concurrent_snapshots = true},
    .words = {.marker = MarkerNoun::kMarker,
              .rule = RuleNote::kNone,
              .first_marker = FirstMarkerTale::kRecordsChannelEmpty,
              .later_marker = LaterMarkerTale::kClosesChannel,
              .close = CloseTale::kWithMarker},
    .hosts = {.scenario = true, .runtime = true},
    .make_bank_host = &MakeHost,
};

}  // namespace chandy_lamport

const Algorithm Algorithm::kChandyLamport{&chandy_lamport::kDefinition};

}  // namespace cutline::algorithms
