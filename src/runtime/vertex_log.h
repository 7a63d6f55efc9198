// A dataflow vertex's log (`cluster --app dataflow --log-dir`): the
// vertex's own steps (dataflow::Step) written as a rank's events
// (event_log.h), so that `cutline check --logs` judges the run with the
// bank's judge. Each record is one unit: a vertex's state is the records it
// received minus those it emitted.
//
// An item carries, beside itself, a trailer for the log: its number on its
// channel and its send's vector clock. The receiver keeps them until the
// step that takes the item (its receipt is when it is applied, or taken as
// a barrier, not when it arrives), and merges the clock then.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "dataflow/topology.h"
#include "dataflow/vertex.h"
#include "runtime/bytes.h"
#include "runtime/event_log.h"

namespace cutline::runtime {

class VertexLog {
 public:
  // Opens DIR/rank-<vertex>.jsonl; throws a Fault when it cannot.
  VertexLog(const std::string& dir, std::uint32_t vertex, const dataflow::Topology& topology);

  // The opening state: 0, or a restored vertex's recorded one with the
  // records it re-sends.
  void Start(Amount state) { log_.Start(state); }
  // The vertex's steps since the last call (Vertex::TakeSteps), in order.
  void Steps(const std::vector<dataflow::Step>& steps);
  // What `item`, leaving output o, carries for the log. REQUIRES: its put
  // was logged.
  std::string Trailer(ChannelIndex o, const dataflow::Item& item);
  // An item arrived on input c with `trailer`: its number into *item, its
  // clock kept for its receipt.
  void Arrived(ChannelIndex c, Reader& trailer, dataflow::Item* item);
  // A finished part, after the steps that led to it.
  void Part(const dataflow::FinishedPart& f);
  void Flush() { log_.Flush(); }

 private:
  static std::string Take(std::map<std::uint64_t, std::string>& clocks, std::uint64_t n);

  const std::vector<std::uint32_t> inputs_, outputs_;  // vertices, by channel index
  EventLog log_;
  std::vector<std::map<std::uint64_t, std::string>> sent_;     // by output: n -> its send's clock
  std::vector<std::map<std::uint64_t, std::string>> arrived_;  // by input: n -> its sender's clock
};

}  // namespace cutline::runtime
