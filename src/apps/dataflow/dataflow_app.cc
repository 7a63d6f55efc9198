// A dataflow's records as the logs' judge counts them (`cutline check
// --logs` on a `cluster --app dataflow --log-dir` run): each record is one
// unit that a send takes out of its vertex and a receipt adds to the next,
// so a vertex's state is the records it received minus those it emitted,
// and a snapshot's states and channels add up to what the vertices started
// with. The dataflow is no scenario's application: App::All() does not list
// it, and only a log that names it (and its topology) reads as one.
#include <fmt/format.h>

#include "apps/app.h"

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

}  // namespace

const AppDefinition kDataflowDefinition{
    .name = "dataflow",
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
    .json = nullptr,
};

}  // namespace cutline::apps
