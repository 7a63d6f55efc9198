// What a host puts on a channel between processes. Chandy-Lamport needs a
// marker to stay behind the messages sent before it, so markers and the
// application's messages must travel in ONE ordered stream (for MPI: one
// communicator and one tag; a marker on a tag of its own can overtake). A
// frame is that stream's unit: one byte saying which it is, then either the
// marker's snapshot id or the application's own bytes, untouched. A host may
// append bytes of its own to a marker (a vector clock, say): they come back
// as the marker frame's payload.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "cutline/marker_rules.h"

namespace cutline::wire {

enum class FrameKind : std::uint8_t { kApplication = 'A', kMarker = 'M' };

struct Frame {
  FrameKind kind = FrameKind::kApplication;
  SnapshotId snapshot = 0;    // kMarker only
  // The application's bytes, or what the host appended to a marker; points
  // into the decoded bytes.
  std::string_view payload;
};

inline constexpr std::size_t kMarkerFrameSize = 1 + sizeof(SnapshotId);

// Integers travel little-endian whatever the host, so hosts of either byte
// order can share a run. These two are the one place that says how; hosts
// may use them for their own bytes (the runtime's control messages do).
// Appends the low `bytes` bytes of `v` (at most 8), least significant first.
inline void PutLittleEndian(std::string* out, std::uint64_t v, std::size_t bytes = 8) {
  for (std::size_t i = 0; i < bytes; ++i) *out += static_cast<char>((v >> (8 * i)) & 0xff);
}
// The integer in the first `bytes` bytes of `in` (at most 8). REQUIRES:
// in.size() >= bytes.
inline std::uint64_t GetLittleEndian(std::string_view in, std::size_t bytes = 8) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < bytes; ++i) {
    v |= static_cast<std::uint64_t>(static_cast<unsigned char>(in[i])) << (8 * i);
  }
  return v;
}

inline std::string EncodeMarker(SnapshotId id, std::string_view host_bytes = {}) {
  std::string out;
  out.reserve(kMarkerFrameSize + host_bytes.size());
  out += static_cast<char>(FrameKind::kMarker);
  PutLittleEndian(&out, id, sizeof id);
  out += host_bytes;
  return out;
}

inline std::string EncodeApplication(std::string_view payload) {
  std::string out;
  out.reserve(1 + payload.size());
  out += static_cast<char>(FrameKind::kApplication);
  out += payload;
  return out;
}

// The frame in `bytes`, or nothing if they are not one (unknown kind, or a
// marker too short to hold its id).
inline std::optional<Frame> Decode(std::string_view bytes) {
  if (bytes.empty()) return std::nullopt;
  Frame frame;
  switch (static_cast<FrameKind>(bytes[0])) {
    case FrameKind::kApplication:
      frame.kind = FrameKind::kApplication;
      frame.payload = bytes.substr(1);
      return frame;
    case FrameKind::kMarker:
      if (bytes.size() < kMarkerFrameSize) return std::nullopt;
      frame.kind = FrameKind::kMarker;
      frame.payload = bytes.substr(kMarkerFrameSize);
      frame.snapshot = GetLittleEndian(bytes.substr(1), sizeof(SnapshotId));
      return frame;
  }
  return std::nullopt;
}

}  // namespace cutline::wire
