// Narrator: turns the history events of one command into sentences, in
// English or Japanese. It replays the history itself (balances, which
// channels are being recorded), so it needs each step once, in order.
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bank/bank.h"
#include "scenario/messages.h"

namespace cutline::scenario {

class Narrator {
 public:
  // The sentences for events [begin, end) of bank's history.
  // REQUIRES: called for consecutive ranges, starting at 0.
  std::vector<std::string> Narrate(const bank::Bank& bank, std::size_t begin,
                                   std::size_t end, Lang lang);

 private:
  std::vector<bank::Amount> balances_;  // replayed from the history
  // Of the snapshots still running: who has recorded, which channels closed.
  std::set<std::pair<SnapshotId, bank::NodeId>> recorded_;
  std::set<std::pair<SnapshotId, bank::ChannelId>> closed_;
  std::map<bank::NodeId, bank::Amount> reads_;  // the naive reader's copies
};

// "$30", "P2 and P3" / "P2とP3": shared by every text the project prints.
std::string Money(bank::Amount amount);
std::string JoinNames(const std::vector<std::string>& names, Lang lang);
std::string ChannelName(const bank::Bank& bank, bank::ChannelId c);
std::string AmountList(const std::vector<bank::Amount>& amounts);  // [$40, $10]

}  // namespace cutline::scenario
