// Plain-text views of a run: `show`, the network summary, and the study
// note's "lab" block for the latest complete snapshot.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "check/consistency_checker.h"
#include "scenario/analysis.h"
#include "catalogue/messages.h"

namespace cutline::scenario {

// An application with a stable property: for each snapshot the checker
// judged, what it declares and what held at its cut; then the naive
// detector's declaration and whether the history shows it wrong (`lang`:
// `cutline check --lang`).
std::vector<std::string> PropertyCheckLines(const Analysis& analysis, Lang lang = Lang::kEn);

std::string NetworkSummary(const engine::Engine& bank, Lang lang);
std::vector<std::string> ShowLines(const Analysis& analysis, Lang lang);
// Why the naive total is wrong: each transfer lost in flight or counted
// twice, and whether the read cut is inconsistent. Empty when all is well.
std::vector<std::string> NaiveExplanation(const Analysis& analysis, Lang lang);
// The latest complete snapshot in the study note's format (Python-like
// dicts), or nullopt when no snapshot is complete. The bank's form
// analyses it first.
std::optional<std::string> LabBlock(const Analysis& analysis, Lang lang);
std::optional<std::string> LabBlock(const engine::Engine& bank, Lang lang);

}  // namespace cutline::scenario
