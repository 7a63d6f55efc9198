// A dataflow on an in-process network, for tests: every vertex of a
// topology (dataflow::Vertex, the code the ranks run), FIFO wires between
// them and credits going back, each step picked by a seeded random
// schedule. src/dataflow/vertex_test.cc judges its snapshots' conservation;
// src/runtime/vertex_log_test.cc logs it as ranks would and has the logs'
// judge check it (through a FlowObserver).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "dataflow/topology.h"
#include "dataflow/vertex.h"

namespace cutline::dataflow {

// What a test sees of a Flow's run, beside the vertices themselves.
class FlowObserver {
 public:
  virtual ~FlowObserver() = default;
  // Vertex v was called (its steps, if it keeps them, wait to be taken).
  virtual void Stepped(std::uint32_t v, Vertex& vertex) = 0;
  // `item` leaves v's output o: what travels beside it on the wire.
  virtual std::string Leaving(std::uint32_t v, ChannelIndex o, const Item& item) = 0;
  // It arrives at v's input c with what travelled beside it.
  virtual void Arriving(std::uint32_t v, ChannelIndex c, const std::string& beside, Item* item) = 0;
  // v finished a part (after the steps that led to it).
  virtual void Finished(std::uint32_t v, const FinishedPart& part) = 0;
};

// The two rules a dataflow's vertices run (the registry names the same
// makers for the algorithms aligned and unaligned).
inline constexpr VertexAgentMaker kAligned = &MakeVertexAgent<AlignedBarrierRules>;
inline constexpr VertexAgentMaker kUnaligned = &MakeVertexAgent<UnalignedBarrierRules>;

// A dataflow on FIFO channels in one process. Each edge has a wire (items
// in order) and a queue of credits going back. The clock advances by one
// per step, and every vertex is ticked at every step.
class Flow {
 public:
  Flow(const Topology& t, std::uint32_t buffers, VertexAgentMaker a, std::uint64_t seed,
       std::optional<std::int64_t> timeout_us = std::nullopt, FlowObserver* observer = nullptr)
      : t_(t), rng_(seed), observer_(observer) {
    for (std::uint32_t v = 0; v < t.vertices(); ++v) {
      vertices_.emplace_back(t.RoleOf(v), static_cast<std::uint32_t>(t.Inputs(v).size()),
                             static_cast<std::uint32_t>(t.Outputs(v).size()), buffers, a,
                             timeout_us);
      for (std::uint32_t o = 0; o < t.Outputs(v).size(); ++o) {
        const std::uint32_t to = t.Outputs(v)[o];
        edges_.push_back({v, o, to, InputIndex(to, v), {}, {}, {}});
      }
    }
  }

  // One random step; `slow` (if set) is picked for processing `slow_weight`
  // times less often than the others.
  void Step(bool emit, std::optional<std::uint32_t> slow = std::nullopt, int slow_weight = 1) {
    ++now_;
    for (std::uint32_t v = 0; v < vertices_.size(); ++v) {
      vertices_[v].Tick(now_);
      Stepped(v);
    }
    switch (std::uniform_int_distribution<int>(0, 4)(rng_)) {
      case 0:
        if (emit) Emit();
        break;
      case 1: {
        const std::uint32_t v = Pick(t_.vertices());
        if (slow && v == *slow && Pick(static_cast<std::uint32_t>(slow_weight)) != 0) break;
        if (auto c = vertices_[v].Process()) {
          Edge& e = EdgeInto(v, *c);
          e.credits.push_back(1);
        }
        Stepped(v);
        break;
      }
      case 2: {
        Edge& e = edges_[Pick(static_cast<std::uint32_t>(edges_.size()))];
        if (auto item = vertices_[e.from].Send(e.out)) {
          e.wire.push_back(*item);
          e.beside.push_back(observer_ ? observer_->Leaving(e.from, e.out, *item) : std::string());
        }
        break;
      }
      case 3: {
        Edge& e = edges_[Pick(static_cast<std::uint32_t>(edges_.size()))];
        if (!e.wire.empty()) {
          Item item = e.wire.front();
          if (observer_) observer_->Arriving(e.to, e.in, e.beside.front(), &item);
          vertices_[e.to].Arrive(e.in, item, now_);
          Stepped(e.to);
          e.wire.pop_front();
          e.beside.pop_front();
        }
        if (!e.credits.empty()) {
          vertices_[e.from].Credit(e.out, e.credits.front());
          e.credits.pop_front();
        }
        break;
      }
      default:
        Collect();
    }
  }

  // A restored run (REQUIRES: nothing has happened yet): every vertex from
  // its part of a whole snapshot, the records in flight on each channel
  // (its receiver's recorded ones, then those its sender's barrier jumped)
  // on the sender's output, to leave first.
  void Restore(const std::map<std::uint32_t, Part>& parts) {
    for (std::uint32_t u = 0; u < vertices_.size(); ++u) {
      const std::vector<std::uint32_t> outs = t_.Outputs(u);
      std::vector<std::vector<std::uint64_t>> in_flight(outs.size());
      for (std::uint32_t o = 0; o < outs.size(); ++o) {
        const Part& receiver = parts.at(outs[o]);
        const auto& recorded = receiver.channels[InputIndex(outs[o], u)];
        in_flight[o].assign(recorded.begin(), recorded.end());
        const Part& sender = parts.at(u);
        if (o < sender.sent.size()) {
          in_flight[o].insert(in_flight[o].end(), sender.sent[o].begin(), sender.sent[o].end());
        }
      }
      vertices_[u].Restore(parts.at(u).state, in_flight);
    }
  }

  // Every source starts the next snapshot (the coordinator's order).
  void StartSnapshot() {
    ++started_;
    for (std::uint32_t v = 0; v < t_.stages()[0]; ++v) {
      vertices_[v].Start(started_, now_);
      Stepped(v);
    }
  }

  // Parts into whole snapshots.
  void Collect() {
    for (std::uint32_t v = 0; v < vertices_.size(); ++v) {
      while (auto f = vertices_[v].TakeFinished()) {
        if (observer_) observer_->Finished(v, *f);
        if (f->cost.switched) ++switched_;
        auto& parts = pending_[f->id];
        parts.emplace(v, std::move(f->part));
        if (parts.size() == vertices_.size()) {
          complete_.push_back(std::move(parts));
          pending_.erase(f->id);
        }
      }
    }
  }

  // Records in flight on the wires and in the vertices' queues.
  std::uint64_t InFlight() const {
    std::uint64_t n = 0;
    for (const Edge& e : edges_) {
      for (const Item& i : e.wire) n += i.barrier ? 0 : 1;
    }
    for (const Vertex& v : vertices_) {
      for (ChannelIndex c = 0; c < v.inputs(); ++c) n += v.Waiting(c);
    }
    return n;
  }

  std::vector<Vertex>& vertices() { return vertices_; }
  const std::vector<std::map<std::uint32_t, Part>>& complete() const { return complete_; }
  // Parts the alignment timeout switched.
  std::size_t switched() const { return switched_; }
  std::uint64_t emitted() const {
    std::uint64_t n = 0;
    for (std::uint32_t v = 0; v < t_.stages()[0]; ++v) n += vertices_[v].state().emitted;
    return n;
  }
  std::uint64_t sunk() const {
    std::uint64_t n = 0;
    for (const Vertex& v : vertices_) n += v.role() == Role::kSink ? v.state().received : 0;
    return n;
  }

 private:
  struct Edge {
    std::uint32_t from, out, to, in;
    std::deque<Item> wire;
    std::deque<std::string> beside;  // each item's, for the observer
    std::deque<std::uint32_t> credits;
  };
  void Stepped(std::uint32_t v) {
    if (observer_) observer_->Stepped(v, vertices_[v]);
  }
  std::uint32_t Pick(std::uint32_t n) { return std::uniform_int_distribution<std::uint32_t>(0, n - 1)(rng_); }
  std::uint32_t InputIndex(std::uint32_t to, std::uint32_t from) const {
    const auto ins = t_.Inputs(to);
    return static_cast<std::uint32_t>(std::find(ins.begin(), ins.end(), from) - ins.begin());
  }
  Edge& EdgeInto(std::uint32_t to, ChannelIndex in) {
    for (Edge& e : edges_) {
      if (e.to == to && e.in == in) return e;
    }
    std::abort();
  }
  void Emit() {
    const std::uint32_t v = Pick(t_.stages()[0]);
    vertices_[v].Emit(rng_() % 16);
    Stepped(v);
  }

  const Topology& t_;
  std::mt19937_64 rng_;
  FlowObserver* observer_;
  std::vector<Vertex> vertices_;
  std::vector<Edge> edges_;
  SnapshotId started_ = 0;
  std::int64_t now_ = 0;
  std::size_t switched_ = 0;
  std::map<SnapshotId, std::map<std::uint32_t, Part>> pending_;
  std::vector<std::map<std::uint32_t, Part>> complete_;
};

}  // namespace cutline::dataflow
