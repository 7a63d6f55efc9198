// The bank's values as a reader reads them: money ("$70") in either
// language, and no property.
#include "apps/app.h"
#include "apps/app_json.h"
#include "apps/bank/money.h"

namespace cutline::apps {

namespace {

// Money reads the same in English and Japanese.
const AppWordsIn kMoney{
    .state = [](Amount state, std::span<const std::string>) { return Money(state); },
    .message = [](Amount word) { return Money(word); },
    .verdict = NoVerdictWords,
    .naive_wrong = "",
    .reason_none = "",
    .reason_messages = "",
    .became_true = "",
    .naive_false = "",
};

}  // namespace

const AppWords kBankWords{.en = kMoney, .ja = kMoney};

const AppJson kBankJson{
    .state = [](Amount state, std::span<const std::string>) { return Json(state); },
    .verdict = [](bool, const std::vector<std::string>&, const ChannelNames&) { return Json(); },
    .naive_wrong_key = "",
};

}  // namespace cutline::apps
