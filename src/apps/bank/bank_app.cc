// The bank as an application: a branch's state is its balance, a message
// is a transfer of money. Its invariant is conservation of money
// (engine/invariants.h), not a stable property read from a snapshot.
#include "apps/app.h"

namespace cutline::apps {

namespace {
constexpr std::string_view kFlags[] = {"--balance", "--rate", "--restore"};
}  // namespace

const AppDefinition kBankDefinition{
    .name = "bank",
    .conserved = true,
    .property = "",
    .state_key = "balance",
    .after_send = [](Amount sender, Amount word, NodeId) { return sender - word; },
    .after_deliver = [](Amount receiver, Amount word) { return receiver + word; },
    .after_local = [](Amount state) { return state; },
    .message_kind = [](Amount) -> std::string_view { return "transfer"; },
    .evaluate = NoProperty,
    .naive = NoNaive,
    .commands = {},
    .words = &kBankWords,
    .json = &kBankJson,
    .cluster_flags = kFlags,
    .opening_flag = "--balance",
};

}  // namespace cutline::apps
