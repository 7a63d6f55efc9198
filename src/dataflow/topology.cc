#include "dataflow/topology.h"

#include <charconv>
#include <string>

namespace cutline::dataflow {

StatusOr<Topology> Topology::Parse(std::string_view spec) {
  const std::string text(spec);
  std::vector<std::uint32_t> stages;
  std::uint64_t total = 0;
  std::size_t at = 0;
  while (true) {
    const std::size_t dash = spec.find('-', at);
    const std::string_view part = spec.substr(at, dash == std::string_view::npos ? dash : dash - at);
    std::uint32_t size = 0;
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), size);
    if (part.empty() || ec != std::errc() || end != part.data() + part.size() || size == 0) {
      return Status::Error(Code::kBadTopology, text);
    }
    stages.push_back(size);
    total += size;
    if (dash == std::string_view::npos) break;
    at = dash + 1;
  }
  if (stages.size() < 2) return Status::Error(Code::kBadTopology, text);
  if (total > kMaxVertices) return Status::Error(Code::kTopologyTooLarge, text, total, kMaxVertices);
  return Topology(std::move(stages));
}

Topology::Topology(std::vector<std::uint32_t> stages) : stages_(std::move(stages)) {
  for (std::uint32_t s = 0; s < stages_.size(); ++s) {
    first_.push_back(static_cast<std::uint32_t>(stage_of_.size()));
    stage_of_.insert(stage_of_.end(), stages_[s], s);
  }
}

std::string Topology::spec() const {
  std::string out;
  for (std::uint32_t size : stages_) {
    if (!out.empty()) out += '-';
    out += std::to_string(size);
  }
  return out;
}

Role Topology::RoleOf(std::uint32_t v) const {
  if (stage_of_[v] == 0) return Role::kSource;
  if (stage_of_[v] + 1 == stages_.size()) return Role::kSink;
  return Role::kOperator;
}

std::vector<std::uint32_t> Topology::Stage(std::uint32_t stage) const {
  std::vector<std::uint32_t> out(stages_[stage]);
  for (std::uint32_t i = 0; i < out.size(); ++i) out[i] = first_[stage] + i;
  return out;
}

std::vector<std::uint32_t> Topology::Inputs(std::uint32_t v) const {
  return stage_of_[v] == 0 ? std::vector<std::uint32_t>{} : Stage(stage_of_[v] - 1);
}

std::vector<std::uint32_t> Topology::Outputs(std::uint32_t v) const {
  return stage_of_[v] + 1 == stages_.size() ? std::vector<std::uint32_t>{} : Stage(stage_of_[v] + 1);
}

}  // namespace cutline::dataflow
