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

#include <cstddef>
#include <utility>
#include <vector>

#include "cutline/collector.h"
#include "cutline/marker_rules.h"

namespace cutline::wire {

// kPart (added in 0.4): a finished part on its way to the collector
// (EncodePart below), which a host may send down the same stream.
enum class FrameKind : std::uint8_t { kApplication = 'A', kMarker = 'M', kPart = 'P' };

struct Frame {
  FrameKind kind = FrameKind::kApplication;
  SnapshotId snapshot = 0;    // kMarker and kPart
  // The application's bytes, or what the host appended to a marker; for a
  // part, the whole frame, for DecodePart. Points into the decoded bytes.
  std::string_view payload;
};

inline constexpr std::size_t kMarkerFrameSize = 1 + sizeof(SnapshotId);

// Integers travel little-endian whatever the host, so hosts of either byte
// order can share a run. These are the one place that says how; hosts may
// use them for their own bytes (the runtime's control messages do).
// Appends the low `bytes` bytes of `v`, least significant first (bytes past
// the eighth are zeros).
inline void PutLittleEndian(std::string* out, std::uint64_t v, std::size_t bytes = 8) {
  for (std::size_t i = 0; i < bytes; ++i) {
    *out += static_cast<char>(i < 8 ? (v >> (8 * i)) & 0xff : 0);
  }
}
// The integer in the first `bytes` bytes of `in`, or nothing if `in` is
// shorter than that (or bytes past the eighth are not zero): a short buffer
// is an answer, never a read past its end.
inline std::optional<std::uint64_t> ReadLittleEndian(std::string_view in,
                                                     std::size_t bytes = 8) {
  if (in.size() < bytes) return std::nullopt;
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < bytes; ++i) {
    const auto byte = static_cast<std::uint64_t>(static_cast<unsigned char>(in[i]));
    if (i >= 8) {
      if (byte != 0) return std::nullopt;
    } else {
      v |= byte << (8 * i);
    }
  }
  return v;
}
// The older call, for a buffer the caller has measured. Given fewer than
// `bytes` bytes it stops the program in every build (ContractViolated).
// Deprecated in 0.3: ReadLittleEndian answers a short buffer instead.
[[deprecated("use ReadLittleEndian, which answers a short buffer with nothing")]]
inline std::uint64_t GetLittleEndian(std::string_view in, std::size_t bytes = 8) {
  std::optional<std::uint64_t> v = ReadLittleEndian(in, bytes);
  if (!v) cutline::detail::ContractViolated("wire::GetLittleEndian: buffer shorter than the integer");
  return *v;
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
// marker or part too short to hold its id). A part frame is answered as one
// (kPart, its snapshot id), not checked further: DecodePart reads it whole.
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
      frame.snapshot = *ReadLittleEndian(bytes.substr(1), sizeof(SnapshotId));
      return frame;
    case FrameKind::kPart:
      if (bytes.size() < kMarkerFrameSize) return std::nullopt;
      frame.kind = FrameKind::kPart;
      frame.payload = bytes;
      frame.snapshot = *ReadLittleEndian(bytes.substr(1), sizeof(SnapshotId));
      return frame;
  }
  return std::nullopt;
}

// Byte streams (a pipe, TCP) do not keep a frame's ends: each frame goes on
// the stream after its length, 4 bytes little-endian. A reader takes frames
// off the front of what it has read with NextFrame.
inline constexpr std::size_t kLengthSize = 4;
// A frame longer than this is refused by NextFrame unless the host gives its
// own bound: a corrupt length must not make a reader wait for (or allocate)
// 4 GiB.
inline constexpr std::size_t kDefaultFrameMax = std::size_t{1} << 24;

// Appends `frame` to `stream` behind its length. False (and nothing
// appended) if the frame is longer than a length can say (2^32 - 1 bytes).
inline bool AppendLengthPrefixed(std::string* stream, std::string_view frame) {
  if (frame.size() > 0xffffffffu) return false;
  PutLittleEndian(stream, frame.size(), kLengthSize);
  *stream += frame;
  return true;
}

// What NextFrame found at the front of a stream's bytes.
enum class StreamStatus : std::uint8_t {
  kFrame,       // `frame` is whole; drop `consumed` bytes from the front
  kIncomplete,  // read more bytes first
  kTooLong,     // the length exceeds frame_max: the stream is corrupt; close it
};

struct StreamFrame {
  StreamStatus status = StreamStatus::kIncomplete;
  std::string_view frame;    // kFrame: points into the stream's bytes
  std::size_t consumed = 0;  // kFrame: the length and the frame
};

inline StreamFrame NextFrame(std::string_view stream,
                             std::size_t frame_max = kDefaultFrameMax) {
  StreamFrame out;
  std::optional<std::uint64_t> length = ReadLittleEndian(stream, kLengthSize);
  if (!length) return out;
  if (*length > frame_max) {
    out.status = StreamStatus::kTooLong;
    return out;
  }
  if (stream.size() - kLengthSize < *length) return out;
  out.status = StreamStatus::kFrame;
  out.frame = stream.substr(kLengthSize, static_cast<std::size_t>(*length));
  out.consumed = kLengthSize + out.frame.size();
  return out;
}

// A finished part (SnapshotAgent::TakeFinished) on its way to the collector,
// as bytes: the kind byte 'P', the snapshot id (8 bytes), the sending
// process (4), then the state and every message, each as a 4-byte length
// and the bytes the host's own encoders gave; channels and sent are each a
// 4-byte count of channels, and per channel a count of messages. Send it as
// one frame (AppendLengthPrefixed on a byte stream).
inline constexpr char kPartKind = static_cast<char>(FrameKind::kPart);

template <class State, class Payload>
struct DecodedPart {
  SnapshotId snapshot = 0;
  ProcessIndex from = 0;
  SnapshotPart<State, Payload> part;
};

namespace detail {
inline bool PutSized(std::string* out, std::string_view bytes) {
  return AppendLengthPrefixed(out, bytes);
}
template <class Payload, class Encode>
bool PutChannels(std::string* out, const std::vector<std::vector<Payload>>& channels,
                 Encode& encode) {
  if (channels.size() > 0xffffffffu) return false;
  PutLittleEndian(out, channels.size(), 4);
  for (const std::vector<Payload>& messages : channels) {
    if (messages.size() > 0xffffffffu) return false;
    PutLittleEndian(out, messages.size(), 4);
    for (const Payload& p : messages) {
      if (!PutSized(out, encode(p))) return false;
    }
  }
  return true;
}
// Reads from the front of `in`, moving past what it read; every read is
// checked against what is left, so no count can make it read or allocate
// past the bytes it was given.
class PartReader {
 public:
  explicit PartReader(std::string_view in) : in_(in) {}
  std::optional<std::uint64_t> Integer(std::size_t bytes) {
    std::optional<std::uint64_t> v = ReadLittleEndian(in_, bytes);
    if (v) in_.remove_prefix(bytes);
    return v;
  }
  std::optional<std::string_view> Sized() {
    std::optional<std::uint64_t> n = Integer(4);
    if (!n || *n > in_.size()) return std::nullopt;
    std::string_view out = in_.substr(0, static_cast<std::size_t>(*n));
    in_.remove_prefix(out.size());
    return out;
  }
  // A count of items of at least `min_bytes` each that the rest can hold.
  std::optional<std::size_t> Count(std::size_t min_bytes) {
    std::optional<std::uint64_t> n = Integer(4);
    if (!n || *n > in_.size() / min_bytes) return std::nullopt;
    return static_cast<std::size_t>(*n);
  }
  bool empty() const { return in_.empty(); }

 private:
  std::string_view in_;
};
template <class Payload, class Decode>
bool ReadChannels(PartReader& in, std::vector<std::vector<Payload>>* channels,
                  Decode& decode) {
  std::optional<std::size_t> n = in.Count(4);
  if (!n) return false;
  channels->resize(*n);
  for (std::vector<Payload>& messages : *channels) {
    std::optional<std::size_t> m = in.Count(4);
    if (!m) return false;
    messages.reserve(*m);
    for (std::size_t i = 0; i < *m; ++i) {
      std::optional<std::string_view> bytes = in.Sized();
      if (!bytes) return false;
      std::optional<Payload> p = decode(*bytes);
      if (!p) return false;
      messages.push_back(std::move(*p));
    }
  }
  return true;
}
}  // namespace detail

// The bytes of `part`: encode_state(const State&) and encode_payload(const
// Payload&) give each value's bytes (std::string). Nothing if a count or a
// value is longer than 4 bytes can say.
template <class State, class Payload, class EncodeState, class EncodePayload>
std::optional<std::string> EncodePart(SnapshotId id, ProcessIndex from,
                                      const SnapshotPart<State, Payload>& part,
                                      EncodeState&& encode_state,
                                      EncodePayload&& encode_payload) {
  std::string out(1, kPartKind);
  PutLittleEndian(&out, id, 8);
  PutLittleEndian(&out, from, 4);
  if (!detail::PutSized(&out, encode_state(part.state)) ||
      !detail::PutChannels(&out, part.channels, encode_payload) ||
      !detail::PutChannels(&out, part.sent, encode_payload)) {
    return std::nullopt;
  }
  return out;
}

// The part in `bytes`, or nothing if they are not one (wrong kind, short,
// a count beyond the bytes, trailing bytes, or a value the host's decoder
// refuses). decode_state(std::string_view) -> std::optional<State>, and
// decode_payload likewise for a Payload.
template <class State, class Payload, class DecodeState, class DecodePayload>
std::optional<DecodedPart<State, Payload>> DecodePart(std::string_view bytes,
                                                      DecodeState&& decode_state,
                                                      DecodePayload&& decode_payload) {
  if (bytes.empty() || bytes[0] != kPartKind) return std::nullopt;
  detail::PartReader in(bytes.substr(1));
  DecodedPart<State, Payload> out;
  std::optional<std::uint64_t> id = in.Integer(8);
  std::optional<std::uint64_t> from = in.Integer(4);
  if (!id || !from) return std::nullopt;
  out.snapshot = *id;
  out.from = static_cast<ProcessIndex>(*from);
  std::optional<std::string_view> state_bytes = in.Sized();
  if (!state_bytes) return std::nullopt;
  std::optional<State> state = decode_state(*state_bytes);
  if (!state) return std::nullopt;
  out.part.state = std::move(*state);
  if (!detail::ReadChannels(in, &out.part.channels, decode_payload) ||
      !detail::ReadChannels(in, &out.part.sent, decode_payload) || !in.empty()) {
    return std::nullopt;
  }
  return out;
}

}  // namespace cutline::wire
