// Chandy-Lamport broken on purpose, for teaching: a branch that starts a
// snapshot keeps its markers until after its next transfer, instead of
// sending them before anything else. That transfer then travels ahead of
// the marker on its channel, reaches its receiver before the receiver
// records, and is counted twice: in the sender's recorded balance (taken
// before it was sent) and in the receiver's. The rules are Chandy-Lamport's;
// what breaks is when the bank sends the markers (the trait
// markers_after_next_transfer). Branches that record on a marker send
// theirs at once. Scenario and page only: never the library's nor the
// runtime's.
#include "algorithms/agent_host.h"
#include "algorithms/algorithm.h"
#include "cutline/marker_rules.h"

namespace cutline::algorithms {
namespace broken_late_markers {

extern const Definition kDefinition;
const Definition kDefinition{
    .name = "broken-late-markers",
    .traits = {.concurrent_snapshots = true,
               .broken_on_purpose = true,
               .markers_after_next_transfer = true},
    .words = kMarkerWords,
    .hosts = {.scenario = true},
    .make_engine_host = &MakeAgentHost<MarkerRules>,
};

}  // namespace broken_late_markers
}  // namespace cutline::algorithms
