// How the project writes its values in text: "$30", "[$40, $10]",
// "P2 and P3" / "P2とP3", "P1->P2", "P1 $70, P2 $100". Every text view (the
// narration, `show`, the naive explanation) writes them through these.
#pragma once

#include <string>
#include <vector>

#include "bank/bank.h"
#include "bank/money.h"
#include "scenario/messages.h"

namespace cutline::scenario {

using bank::AmountList;  // [$40, $10]
using bank::Money;       // $30
std::string JoinNames(const std::vector<std::string>& names, Lang lang);
std::string ChannelName(const bank::Bank& bank, bank::ChannelId c);  // P1->P2
std::string Balances(const bank::Bank& bank);  // P1 $70, P2 $100, P3 $100

}  // namespace cutline::scenario
