// Chandy-Lamport (1985): a branch records on its first marker and sends a
// marker on every output; a channel's state is what arrives on it between
// the receiver's record and the channel's marker. FIFO channels; any
// number of snapshots at once. Rules: cutline::MarkerRules.
#include "algorithms/agent_host.h"
#include "algorithms/algorithm.h"
#include "algorithms/rank_agent.h"
#include "cutline/marker_rules.h"

namespace cutline::algorithms {
namespace chandy_lamport {

extern const Definition kDefinition;
const Definition kDefinition{
    .name = "chandy-lamport",
    .traits = {.concurrent_snapshots = true},
    .words = kMarkerWords,
    .hosts = {.scenario = true},
    .make_engine_host = &MakeAgentHost<MarkerRules>,
    .make_rank_agent = &MakeRankAgent<MarkerRules>,
};

}  // namespace chandy_lamport

const Algorithm Algorithm::kChandyLamport{&chandy_lamport::kDefinition};

}  // namespace cutline::algorithms
