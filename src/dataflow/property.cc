#include "dataflow/property.h"

#include "cutline/wire.h"

namespace cutline::dataflow {

std::vector<Boundary> Conservation(const Topology& t, const std::map<std::uint32_t, Part>& parts) {
  std::vector<Boundary> out(t.stages().size() - 1);
  for (std::uint32_t s = 0; s < out.size(); ++s) out[s].stage = s;
  for (const auto& [v, part] : parts) {
    const std::uint32_t s = t.StageOf(v);
    if (s < out.size()) {
      out[s].emitted += part.state.emitted;
      for (const auto& keys : part.sent) out[s].in_flight += keys.size();
    }
    if (s > 0) {
      out[s - 1].received += part.state.received;
      for (const auto& keys : part.channels) out[s - 1].in_flight += keys.size();
    }
  }
  return out;
}

std::string EncodeState(const VertexState& s) {
  std::string out;
  wire::PutLittleEndian(&out, s.received);
  wire::PutLittleEndian(&out, s.emitted);
  wire::PutLittleEndian(&out, s.per_key.size());
  for (const auto& [key, count] : s.per_key) {
    wire::PutLittleEndian(&out, key);
    wire::PutLittleEndian(&out, count);
  }
  return out;
}

std::optional<VertexState> DecodeState(std::string_view bytes) {
  auto next = [&bytes]() -> std::optional<std::uint64_t> {
    std::optional<std::uint64_t> v = wire::ReadLittleEndian(bytes);
    if (v) bytes.remove_prefix(8);
    return v;
  };
  VertexState s;
  const std::optional<std::uint64_t> received = next(), emitted = next(), keys = next();
  if (!received || !emitted || !keys || *keys != bytes.size() / 16 || bytes.size() % 16 != 0) {
    return std::nullopt;
  }
  s.received = *received;
  s.emitted = *emitted;
  for (std::uint64_t i = 0; i < *keys; ++i) {
    const std::uint64_t key = *next(), count = *next();
    // Keys in increasing order, each once: the one spelling EncodeState writes.
    if (!s.per_key.empty() && key <= s.per_key.rbegin()->first) return std::nullopt;
    s.per_key.emplace(key, count);
  }
  return s;
}

}  // namespace cutline::dataflow
