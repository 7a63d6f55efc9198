// One vertex of a dataflow (`cluster --app dataflow`) as a rank runs it:
// the library-side logic is dataflow::Vertex (queues, credits, barriers);
// this class is its transport. Records and barriers travel on the bank
// communicator (one tag, so each channel is FIFO and a barrier stays in its
// place), credits go back on it the other way, and parts, counts and the
// final report go to the coordinator on the control communicator.
//
// The pace: a source emits --rate records a second (keys at random, routed
// by key), when its output has room; a vertex named by --slow takes at most
// --rate/FACTOR records a second; every other one as many as arrive.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <string_view>
#include <vector>

#include "dataflow/vertex.h"
#include "runtime/vertex_log.h"
#include "runtime/options.h"
#include "runtime/roles.h"
#include "runtime/transport.h"

namespace cutline::runtime {

class VertexRank final : public RankRole {
 public:
  VertexRank(const NodeOptions& options, const DataflowOptions& dataflow, int rank,
             Transport& transport);

  // A restored run's vertex starts from its recorded state and sends the
  // records that were in flight on its outputs first.
  void Begin(const protocol::Init& init) override;
  void Go(Clock::time_point now) override;
  void OnFrame(int from, std::string_view bytes) override;
  bool OnControl(const protocol::Control& message) override;
  bool Tick(Clock::time_point now) override;
  void Finish() override {}
  bool final_sent() const override { return final_sent_; }

 private:
  // Records a second this vertex makes (a source) or takes (a slow one),
  // paced like the bank's transfers; none for a vertex at full speed.
  struct Pace {
    Clock::duration interval{};
    Clock::time_point next;
    bool paced() const { return interval.count() > 0; }
    // How many fell due by `now` (at most `most`); after a stall, pacing
    // starts again from now rather than make up for it.
    int Due(Clock::time_point now, int most);
  };

  ChannelIndex InputOf(int sender) const;
  ChannelIndex OutputOf(int receiver) const;
  bool Emit(Clock::time_point now);
  bool Process(Clock::time_point now);
  // Puts on the wire what each output may send now.
  bool SendOutputs();
  // Credits for the records processed since the last call, to their senders.
  void ReturnCredits();
  void SendParts();
  // --log-dir: what the vertex did since the last call, into its log.
  void LogSteps();
  [[noreturn]] void Die();
  // Stop came: once every input ended and everything it holds has gone
  // (and its credits came back), ends its outputs and reports.
  void MaybeFinal();

  const NodeOptions& o_;
  const int rank_;
  Transport& transport_;
  std::vector<std::uint32_t> inputs_, outputs_;  // ranks, by channel index
  dataflow::Vertex vertex_;
  std::mt19937_64 rng_;
  Pace pace_;
  Clock::time_point start_;
  Clock::time_point next_counts_;
  std::vector<std::uint32_t> credits_due_;  // by input: to give back
  std::vector<std::uint64_t> unreturned_;   // by output: records sent, credit not back
  std::uint32_t ended_inputs_ = 0;
  bool going_ = false;
  bool stopped_ = false;
  bool final_sent_ = false;
  std::unique_ptr<VertexLog> log_;  // --log-dir
};

}  // namespace cutline::runtime
