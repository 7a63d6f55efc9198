// Narrator: turns the history events of one command into sentences, in
// English or Japanese. It reads; what the events imply (balances after each
// one, which channels are being recorded) comes from its engine::Replay, and
// why a branch recorded comes from the record's cause.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/engine.h"
#include "engine/replay.h"
#include "catalogue/messages.h"

namespace cutline::scenario {

class Narrator {
 public:
  // The sentences for events [begin, end) of bank's history.
  // REQUIRES: called for consecutive ranges, starting at 0.
  std::vector<std::string> Narrate(const engine::Engine& bank, std::size_t begin,
                                   std::size_t end, Lang lang);

 private:
  // One command's events, and what is said about them.
  struct Telling;

  void Tell(Telling& t, const history::Sent<history::Transfer>& e);
  void Tell(Telling& t, const history::Delivered<history::Transfer>& e);
  void Tell(Telling& t, const history::Delivered<history::Marker>& e);
  void Tell(Telling& t, const history::Recorded& e);
  void Tell(Telling& t, const history::Closed& e);
  void Tell(Telling& t, const history::PartDone& e);
  void Tell(Telling& t, const history::Completed& e);
  void Tell(Telling& t, const history::Read& e);
  void Tell(Telling& t, const history::Sent<history::Marker>& e);
  void Tell(Telling& t, const history::Overtaken& e);
  void Tell(Telling& t, const history::Local& e);

  std::string Recording(const Telling& t, const history::Delivered<history::Transfer>& e);

  std::optional<engine::Replay> replay_;  // of the events narrated so far
  // Of the snapshots still running: who has recorded, which channels closed.
  std::set<std::pair<SnapshotId, sim::NodeId>> recorded_;
  std::set<std::pair<SnapshotId, sim::ChannelId>> closed_;
  // The channels whose marker of the snapshot has been delivered.
  std::set<std::pair<SnapshotId, sim::ChannelId>> marked_;
  std::map<sim::NodeId, cutline::Amount> reads_;  // the naive reader's copies
};

}  // namespace cutline::scenario
