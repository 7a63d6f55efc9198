// A dataflow's shape (`cutline cluster --app dataflow --topology SPEC`):
// stages of ranks, each stage joined to the next all-to-all. SPEC is the
// stages' sizes joined by '-': "2-3-1" is two sources, three operators and
// one sink. The first stage is sources, the last sinks, the ones between
// operators; vertices are numbered stage by stage from 0 (rank = vertex).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace cutline::dataflow {

enum class Role : std::uint8_t { kSource, kOperator, kSink };

class Topology {
 public:
  // Ranks beyond this are refused: each rank is a process on this machine
  // or another, and the all-to-all stages grow as the product of two sizes.
  static constexpr std::uint32_t kMaxVertices = 256;

  // kBadTopology for anything but two or more positive sizes joined by '-';
  // kTopologyTooLarge past kMaxVertices.
  static StatusOr<Topology> Parse(std::string_view spec);

  // The SPEC it was parsed from, as Parse reads it ("2-3-1").
  std::string spec() const;
  std::uint32_t vertices() const { return static_cast<std::uint32_t>(stage_of_.size()); }
  const std::vector<std::uint32_t>& stages() const { return stages_; }
  std::uint32_t StageOf(std::uint32_t v) const { return stage_of_[v]; }
  Role RoleOf(std::uint32_t v) const;
  // The vertices v receives from and sends to, in vertex order; a vertex's
  // input (output) channel index is the position in these.
  std::vector<std::uint32_t> Inputs(std::uint32_t v) const;
  std::vector<std::uint32_t> Outputs(std::uint32_t v) const;

 private:
  explicit Topology(std::vector<std::uint32_t> stages);
  std::vector<std::uint32_t> Stage(std::uint32_t stage) const;

  std::vector<std::uint32_t> stages_;    // sizes
  std::vector<std::uint32_t> first_;     // each stage's first vertex
  std::vector<std::uint32_t> stage_of_;  // by vertex
};

}  // namespace cutline::dataflow
