// Aligned barriers (asynchronous barrier snapshotting, Flink): only a source
// starts; a barrier holds its channel back; once one has come on every
// input, the branch records, sends barriers on and releases its inputs. No
// channel state is ever kept. FIFO channels, no directed cycle, one
// snapshot at a time. Rules: cutline::AlignedBarrierRules.
#include "algorithms/agent_host.h"
#include "algorithms/algorithm.h"
#include "cutline/barrier_rules.h"
#include "dataflow/vertex_agent.h"

namespace cutline::algorithms {
namespace aligned {

extern const Definition kDefinition;
const Definition kDefinition{
    .name = "aligned",
    .traits = {.needs_fifo = true,
               .needs_acyclic = true,
               .only_sources_start = true,
               .records_after_all_markers = true},
    .words = {.marker = MarkerNoun::kBarrier,
              .rule = RuleNote::kAligned,
              .first_marker = FirstMarkerTale::kAlignsAndRecords,
              .later_marker = LaterMarkerTale::kHoldsChannel,
              .close = CloseTale::kWithMarker},
    .hosts = {.scenario = true},
    .make_engine_host = &MakeAgentHost<AlignedBarrierRules>,
    .make_vertex_agent = &dataflow::MakeVertexAgent<AlignedBarrierRules>,
};

}  // namespace aligned

const Algorithm Algorithm::kAligned{&aligned::kDefinition};

}  // namespace cutline::algorithms
