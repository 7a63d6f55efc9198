// Lai-Yang with Mattern's counts, for channels that reorder: every transfer
// carries its sender's epoch (the last snapshot it recorded), a transfer of
// a newer epoch makes its receiver record first, and a control message
// carries how many transfers its sender sent on the channel before
// recording, which closes the channel once that many old ones have come.
// One snapshot at a time. Rules: cutline::LaiYangRules (its Stamp and
// Control ride beside the messages: AgentHost's MessageTags in the bank,
// one word behind a transfer or in a marker on the runtime's wire).
#include "algorithms/agent_host.h"
#include "algorithms/algorithm.h"
#include "algorithms/rank_agent.h"
#include "cutline/lai_yang_rules.h"

namespace cutline::algorithms {
namespace lai_yang {

extern const Definition kDefinition;
const Definition kDefinition{
    .name = "lai-yang",
    .traits = {.correct_without_fifo = true,
               .tags_messages = true,
               .sees_every_transfer = true},
    .words = {.marker = MarkerNoun::kControlMessage,
              .rule = RuleNote::kLaiYang,
              .first_marker = FirstMarkerTale::kRecordsWithCount,
              .later_marker = LaterMarkerTale::kTellsCount,
              .close = CloseTale::kCountReached},
    .hosts = {.scenario = true},
    .make_engine_host = &MakeAgentHost<LaiYangRules>,
    .make_rank_agent = &MakeRankAgent<LaiYangRules>,
};

}  // namespace lai_yang

const Algorithm Algorithm::kLaiYang{&lai_yang::kDefinition};

}  // namespace cutline::algorithms
