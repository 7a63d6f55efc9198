// What a dataflow's snapshot must show, and the bytes its parts travel in.
//
// Conservation, at every boundary between two stages: the records the
// first stage emitted equal the records the second received plus the
// records the snapshot holds in flight on the channels between them (the
// receivers' recorded channels and the senders' overtaken records). A
// snapshot that loses a record or counts one twice breaks it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "dataflow/topology.h"
#include "dataflow/vertex.h"

namespace cutline::dataflow {

// The figures of one stage boundary (between stage `stage` and the next).
struct Boundary {
  std::uint32_t stage = 0;
  std::uint64_t emitted = 0;    // by the stage's vertices
  std::uint64_t received = 0;   // by the next stage's vertices
  std::uint64_t in_flight = 0;  // recorded on the channels between them
  bool holds() const { return emitted == received + in_flight; }
  bool operator==(const Boundary&) const = default;
};

// Every boundary's figures for a whole snapshot (a part per vertex, by
// vertex), in stage order.
std::vector<Boundary> Conservation(const Topology& t, const std::map<std::uint32_t, Part>& parts);

// A vertex's state as bytes (wire::EncodePart's encode_state) and back:
// received, emitted, the number of keys, then each key and its count, all
// 8 bytes little-endian. Nothing for bytes that are not one.
std::string EncodeState(const VertexState& s);
std::optional<VertexState> DecodeState(std::string_view bytes);

}  // namespace cutline::dataflow
