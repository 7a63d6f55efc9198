// A reader of a simulated history beside the judge: it is shown each event
// the judge's feed (history_feed.h) has vetted, in order and once, so that
// what else is read of a history (the costs, the clocks) rides on the
// judge's one walk, or on the feed alone, rather than walking it again.
#pragma once

#include <cstddef>
#include <initializer_list>

#include "check/consistency_checker.h"
#include "history/history.h"

namespace cutline::check {

class HistoryObserver {
 public:
  virtual ~HistoryObserver() = default;
  // History event i, vetted: every event before it was shown, and nothing
  // it names is unknown or contradicts them. A malformed history is shown
  // up to the event before its first fault; one whose initial states do not
  // fit the network, not at all.
  virtual void Saw(std::size_t i, const history::Event& e) = 0;
};

// run's history read through the judge's feed with no judge: each vetted
// event shown to every observer. REQUIRES: run.topology set.
void ObserveHistory(const RunRecord& run, std::initializer_list<HistoryObserver*> observers);

}  // namespace cutline::check
