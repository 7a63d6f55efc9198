// The application's property of one moment of a run (an application with a
// stable property, apps/app.h): of the live state, or of the state a replay
// has reached. What an observer who sees everything at once would say: the
// truth the page, the naive judgement and the tests set the snapshots'
// declarations beside.
#pragma once

#include <vector>

#include "apps/app.h"
#include "engine/engine.h"
#include "engine/replay.h"

namespace cutline::engine {

// Of the live state: every branch's state now and every message in flight now.
apps::Verdict PropertyNow(const Engine& bank);

// The application's messages a replay has in flight, by channel, oldest
// first (markers left out): a global state's channels at that moment.
std::vector<std::vector<Amount>> InFlightWords(const sim::Topology& topology,
                                               const Replay& replay);

// Of the state a replay of bank's history has reached: its branches' states
// and the messages it has in flight (the truth at a moment of the history).
apps::Verdict PropertyOfReplay(const Engine& bank, const Replay& replay);

}  // namespace cutline::engine
