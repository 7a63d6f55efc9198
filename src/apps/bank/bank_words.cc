// The bank's values as a reader reads them: money ("$70"), and no property.
#include "apps/app.h"
#include "apps/app_json.h"
#include "apps/bank/money.h"

namespace cutline::apps {

const AppWords kBankWords{
    .state = [](Amount state, std::span<const std::string>, Lang) { return Money(state); },
    .message = [](Amount word, Lang) { return Money(word); },
    .verdict = NoVerdictWords,
    .naive_wrong_en = "",
    .naive_wrong_ja = "",
    .reason_none_en = "",
    .reason_messages_en = "",
    .became_true_en = "",
    .naive_false_en = "",
};

const AppJson kBankJson{
    .state = [](Amount state, std::span<const std::string>) { return Json(state); },
    .verdict = [](bool, const std::vector<std::string>&, const ChannelNames&) { return Json(); },
    .naive_wrong_key = "",
};

}  // namespace cutline::apps
