// A dataflow (`cutline cluster --app dataflow`): sources, operators and
// sinks on a DAG (src/dataflow), its ranks the topology's vertices. As the
// logs' judge counts it (`cutline check --logs`), each record is one unit
// that a send takes out of its vertex and a receipt adds to the next, so a
// vertex's state is the records it received minus those it emitted, and a
// snapshot's states and channels add up to what the vertices started with.
// No scenario's network names it: its ranks are vertices (Ranks::kVertices).
#include <fmt/format.h>

#include "apps/app.h"
#include "apps/app_json.h"

namespace cutline::apps {

namespace {

std::string RecordsEn(Amount n, std::span<const std::string>) {
  return fmt::format("{} record{}", n, n == 1 || n == -1 ? "" : "s");
}

std::string RecordsJa(Amount n, std::span<const std::string>) {
  return fmt::format("レコード{}件", n);
}

const AppWords kDataflowWords{
    .en =
        {
            .state = RecordsEn,
            .message = [](Amount) -> std::string { return "record"; },
            .verdict = NoVerdictWords,
            .naive_wrong = "",
            .reason_none = "",
            .reason_messages = "",
            .became_true = "",
            .naive_false = "",
        },
    .ja =
        {
            .state = RecordsJa,
            .message = [](Amount) -> std::string { return "レコード"; },
            .verdict = NoVerdictWords,
            .naive_wrong = "",
            .reason_none = "",
            .reason_messages = "",
            .became_true = "",
            .naive_false = "",
        },
};

// Its flags of `cutline cluster` (the other applications refuse them, and
// it refuses theirs but --rate, its sources' pace).
constexpr std::string_view kDataflowFlags[] = {"--rate", "--topology", "--buffers", "--slow",
                                               "--alignment-timeout", "--restore"};

}  // namespace

// A vertex's state is its records: a number, as the bank's money is.
const AppJson kDataflowJson{
    .state = [](Amount state, std::span<const std::string>) { return Json(state); },
    .verdict = [](bool, const std::vector<std::string>&, const ChannelNames&) { return Json(); },
    .naive_wrong_key = "",
};

const AppDefinition kDataflowDefinition{
    .name = "dataflow",
    .ranks = Ranks::kVertices,
    .work = Work::kRecords,
    .conserved = true,
    .property = "",
    .initial_state_settable = false,
    .state_key = "records",
    .after_send = [](Amount sender, Amount word, NodeId) { return sender - word; },
    .after_deliver = [](Amount receiver, Amount word) { return receiver + word; },
    .after_local = [](Amount state) { return state; },
    .message_kind = [](Amount) -> std::string_view { return "record"; },
    .evaluate = NoProperty,
    .naive = NoNaive,
    .commands = {},
    .words = &kDataflowWords,
    .json = &kDataflowJson,
    .cluster_flags = kDataflowFlags,
};

}  // namespace cutline::apps
