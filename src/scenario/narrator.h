// Narrator: turns the history events of one command into sentences, in
// English or Japanese. It reads; what the events imply (balances after each
// one, which channels are being recorded) comes from its bank::Replay, and
// why a branch recorded comes from the record's cause.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bank/bank.h"
#include "bank/replay.h"
#include "scenario/messages.h"

namespace cutline::scenario {

class Narrator {
 public:
  // The sentences for events [begin, end) of bank's history.
  // REQUIRES: called for consecutive ranges, starting at 0.
  std::vector<std::string> Narrate(const bank::Bank& bank, std::size_t begin,
                                   std::size_t end, Lang lang);

 private:
  // One command's events, and what is said about them.
  struct Telling;

  void Tell(Telling& t, const bank::Sent<bank::Transfer>& e);
  void Tell(Telling& t, const bank::Delivered<bank::Transfer>& e);
  void Tell(Telling& t, const bank::Delivered<bank::Marker>& e);
  void Tell(Telling& t, const bank::Recorded& e);
  void Tell(Telling& t, const bank::Closed& e);
  void Tell(Telling& t, const bank::PartDone& e);
  void Tell(Telling& t, const bank::Completed& e);
  void Tell(Telling& t, const bank::Read& e);
  void Tell(Telling& t, const bank::Sent<bank::Marker>& e);
  void Tell(Telling& t, const bank::Overtaken& e);
  void Tell(Telling& t, const bank::Local& e);

  std::string Recording(const Telling& t, const bank::Delivered<bank::Transfer>& e);

  std::optional<bank::Replay> replay_;  // of the events narrated so far
  // Of the snapshots still running: who has recorded, which channels closed.
  std::set<std::pair<SnapshotId, bank::NodeId>> recorded_;
  std::set<std::pair<SnapshotId, bank::ChannelId>> closed_;
  // The channels whose marker of the snapshot has been delivered.
  std::set<std::pair<SnapshotId, bank::ChannelId>> marked_;
  std::map<bank::NodeId, bank::Amount> reads_;  // the naive reader's copies
};

}  // namespace cutline::scenario
