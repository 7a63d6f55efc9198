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

// The id travels little-endian whatever the host, so hosts of either byte
// order can share a run.
inline std::string EncodeMarker(SnapshotId id, std::string_view host_bytes = {}) {
  std::string out(kMarkerFrameSize, '\0');
  out[0] = static_cast<char>(FrameKind::kMarker);
  for (std::size_t i = 0; i < sizeof id; ++i) {
    out[1 + i] = static_cast<char>((id >> (8 * i)) & 0xff);
  }
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
      for (std::size_t i = 0; i < sizeof(SnapshotId); ++i) {
        frame.snapshot |= static_cast<SnapshotId>(static_cast<unsigned char>(bytes[1 + i]))
                          << (8 * i);
      }
      return frame;
  }
  return std::nullopt;
}

}  // namespace cutline::wire
