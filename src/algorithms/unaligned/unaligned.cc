// Unaligned barriers (Flink's unaligned checkpoints): Chandy-Lamport's
// rules, except that a recording branch puts its barriers at the head of its
// outgoing channels, and what they overtake there is those channels' state,
// recorded by the sender. FIFO channels; one snapshot at a time. Rules:
// cutline::UnalignedBarrierRules.
#include "algorithms/agent_host.h"
#include "algorithms/algorithm.h"
#include "cutline/barrier_rules.h"
#include "dataflow/vertex_agent.h"

namespace cutline::algorithms {
namespace unaligned {

extern const Definition kDefinition;
const Definition kDefinition{
    .name = "unaligned",
    .traits = {.needs_fifo = true, .sender_records_overtaken = true},
    .words = {.marker = MarkerNoun::kBarrier,
              .rule = RuleNote::kUnaligned,
              .first_marker = FirstMarkerTale::kRecordsChannelEmpty,
              .later_marker = LaterMarkerTale::kClosesChannel,
              .close = CloseTale::kWithMarker},
    .hosts = {.scenario = true},
    .make_engine_host = &MakeAgentHost<UnalignedBarrierRules>,
    .make_vertex_agent = &dataflow::MakeVertexAgent<UnalignedBarrierRules>,
};

}  // namespace unaligned

const Algorithm Algorithm::kUnaligned{&unaligned::kDefinition};

}  // namespace cutline::algorithms
