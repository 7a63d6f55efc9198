// libFuzzer target: any bytes as what a host reads off a channel or a byte
// stream, through every decoder of cutline/wire.h. No input may make a
// decoder read past its bytes (ASan stops the run), and what a decoder
// accepts must say the same thing when encoded again:
// - NextFrame takes frames off the stream's front, never more bytes than
//   there are, and a frame it returns re-encodes to the bytes it consumed;
// - Decode of each frame: a marker's id and its host bytes give the frame
//   back through EncodeMarker, an application frame through
//   EncodeApplication;
// - DecodePart: a part it accepts encodes (EncodePart) to the same bytes, so
//   the format has one spelling per part and a refused part is never half
//   read into a wrong one.
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "cutline/wire.h"

namespace {

namespace wire = cutline::wire;

void Require(bool holds) {
  if (!holds) std::abort();
}

// The host's own values: bytes as they are (any length), and a decoder that
// refuses some, as a host's may.
std::optional<std::string> AnyBytes(std::string_view b) { return std::string(b); }
std::string Same(const std::string& s) { return s; }
std::optional<std::string> NoEmpty(std::string_view b) {
  if (b.empty()) return std::nullopt;
  return std::string(b);
}

void CheckFrame(std::string_view frame) {
  std::optional<wire::Frame> f = wire::Decode(frame);
  if (!f) {
    // Refused only when empty, of an unknown kind, or a marker or part too
    // short for its id.
    const bool marker = !frame.empty() && (frame[0] == static_cast<char>(wire::FrameKind::kMarker) ||
                                           frame[0] == static_cast<char>(wire::FrameKind::kPart));
    const bool application =
        !frame.empty() && frame[0] == static_cast<char>(wire::FrameKind::kApplication);
    Require(!application && (!marker || frame.size() < wire::kMarkerFrameSize));
    return;
  }
  if (f->kind == wire::FrameKind::kPart) {
    // The whole frame, for DecodePart, and the id it begins with.
    Require(f->payload == frame && wire::ReadLittleEndian(frame.substr(1)) == f->snapshot);
    return;
  }
  const std::string again = f->kind == wire::FrameKind::kMarker
                                ? wire::EncodeMarker(f->snapshot, f->payload)
                                : wire::EncodeApplication(f->payload);
  Require(again == frame);
}

void CheckPart(std::string_view bytes) {
  auto part = wire::DecodePart<std::string, std::string>(bytes, AnyBytes, AnyBytes);
  if (part) {
    std::optional<std::string> again =
        wire::EncodePart(part->snapshot, part->from, part->part, Same, Same);
    Require(again.has_value() && *again == bytes);
  }
  // A stricter decoder accepts no more than the lenient one.
  auto strict = wire::DecodePart<std::string, std::string>(bytes, NoEmpty, NoEmpty);
  Require(!strict || part);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  // The whole input as one message from a channel that keeps a message's
  // ends (MPI), as a frame and as a part.
  CheckFrame(input);
  CheckPart(input);
  for (std::size_t bytes = 0; bytes <= 9; ++bytes) {
    std::optional<std::uint64_t> v = wire::ReadLittleEndian(input, bytes);
    // Nothing exactly when the input is short (or a ninth byte is not zero).
    Require(v.has_value() == (input.size() >= bytes && (bytes <= 8 || input[8] == 0)));
  }
  // The input as a byte stream: frames off its front until it runs out. A
  // small bound makes the too-long answer reachable.
  std::string_view stream = input;
  const std::size_t frame_max = size % 2 == 0 ? wire::kDefaultFrameMax : 64;
  while (true) {
    wire::StreamFrame next = wire::NextFrame(stream, frame_max);
    if (next.status != wire::StreamStatus::kFrame) {
      // Not a frame: too short to say its length, a length past the bound,
      // or a frame not all there yet; nothing else.
      std::optional<std::uint64_t> length = wire::ReadLittleEndian(stream, wire::kLengthSize);
      if (next.status == wire::StreamStatus::kTooLong) {
        Require(length.has_value() && *length > frame_max);
      } else {
        Require(!length || (*length <= frame_max && stream.size() - wire::kLengthSize < *length));
      }
      break;
    }
    Require(next.consumed == wire::kLengthSize + next.frame.size());
    Require(next.consumed <= stream.size() && next.frame.size() <= frame_max);
    std::string again;
    Require(wire::AppendLengthPrefixed(&again, next.frame));
    Require(again == stream.substr(0, next.consumed));
    CheckFrame(next.frame);
    CheckPart(next.frame);
    stream.remove_prefix(next.consumed);
  }
  return 0;
}
