// How the project writes its values in text: "$30", "[$40, $10]",
// "P2 and P3" / "P2とP3", "P1→P2", "P1 $70, P2 $100". Every text view (the
// narration, `show`, the naive explanation) writes them through these.
#pragma once

#include <string>
#include <vector>

#include "engine/engine.h"
#include "apps/bank/money.h"
#include "base/lang.h"
#include "catalogue/messages.h"

namespace cutline::scenario {

using apps::AmountList;  // [$40, $10]
using apps::Money;       // $30
using cutline::JoinNames;  // P2 and P3
using cutline::ChannelText;  // P1→P2
using cutline::CycleText;  // P1 → P2 → P1
std::string ChannelName(const engine::Engine& bank, sim::ChannelId c);  // P1→P2 (ChannelText)
// P1 $70, P2 $100, P3 $100 (or the application's states).
std::string Balances(const engine::Engine& bank, Lang lang = Lang::kEn);

// A branch's state in its application's words: "$70" (bank), "2 jobs",
// "no job" (jobs), "waiting for P2", "active" (locks).
std::string StateText(const engine::Engine& bank, cutline::Amount state, Lang lang);
// The same from the application and the branches' names alone (the
// runtime's store has no Engine): `names[n]` is branch n's.
std::string StateText(apps::App app, cutline::Amount state, const std::vector<std::string>& names,
                      Lang lang);
// A message's content: "$30", "job", "request", "grant".
std::string MessageText(const engine::Engine& bank, cutline::Amount word, Lang lang);
// A channel's recorded state: "[$40, $10]", "[job, job]".
std::string MessagesText(const engine::Engine& bank, const std::vector<cutline::Amount>& words,
                         Lang lang);
// A stable property's verdict with its reason: "not terminated: P3 is
// busy; a job in P1→P3", "deadlocked: P1 → P2 → P1".
std::string VerdictText(const engine::Engine& bank, const apps::Verdict& v, Lang lang);
// The same from names: the verdict's branches, and its channels as "P1→P3"
// (once per message).
std::string VerdictText(apps::App app, bool holds, const std::vector<std::string>& branches,
                        const std::vector<std::string>& channels, Lang lang);
// What a naive detector's wrong verdict is: "a false termination", "a
// phantom deadlock" ("" for the bank).
std::string NaiveWrongText(apps::App app, Lang lang);

}  // namespace cutline::scenario
