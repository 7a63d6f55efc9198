// The runtime's messages as bytes: fixed-width little-endian integers one
// after another, in cutline/wire.h's one byte order. A Reader that runs past
// the end throws a Fault: a short message is a bug, never something to guess
// around.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cutline/wire.h"
#include "runtime/fault.h"

namespace cutline::runtime {

class Bytes {
 public:
  Bytes& Char(char c) {
    bytes_ += c;
    return *this;
  }
  Bytes& U64(std::uint64_t v) {
    wire::PutLittleEndian(&bytes_, v);
    return *this;
  }
  Bytes& I64(std::int64_t v) { return U64(static_cast<std::uint64_t>(v)); }
  // Bytes of another format, behind their length.
  Bytes& Sized(std::string_view bytes) {
    U64(bytes.size());
    bytes_ += bytes;
    return *this;
  }
  const std::string& str() const { return bytes_; }
  std::string Take() { return std::move(bytes_); }

 private:
  std::string bytes_;
};

class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  char Char() {
    Need(1);
    return bytes_[at_++];
  }
  std::uint64_t U64() {
    std::optional<std::uint64_t> v = wire::ReadLittleEndian(bytes_.substr(at_));
    if (!v) throw Fault(Status::Error(Code::kRuntimeMessageEnded));
    at_ += 8;
    return *v;
  }
  std::int64_t I64() { return static_cast<std::int64_t>(U64()); }
  // A count of items of at least `min_bytes` each: more than the rest of the
  // message could hold is refused before anything is allocated for them.
  std::uint64_t Count(std::size_t min_bytes) {
    std::uint64_t n = U64();
    if (min_bytes > 0 && n > (bytes_.size() - at_) / min_bytes) {
      throw Fault(Status::Error(Code::kRuntimeCountPastEnd));
    }
    return n;
  }
  // What Bytes::Sized wrote: a length, and that many bytes.
  std::string_view Sized() {
    const std::uint64_t n = Count(1);
    std::string_view out = bytes_.substr(at_, static_cast<std::size_t>(n));
    at_ += out.size();
    return out;
  }
  bool AtEnd() const { return at_ == bytes_.size(); }
  // Whatever is left, taken.
  std::string_view Rest() {
    std::string_view out = bytes_.substr(at_);
    at_ = bytes_.size();
    return out;
  }
  std::size_t left() const { return bytes_.size() - at_; }

 private:
  void Need(std::size_t n) const {
    if (at_ + n > bytes_.size()) throw Fault(Status::Error(Code::kRuntimeMessageEnded));
  }
  std::string_view bytes_;
  std::size_t at_ = 0;
};

}  // namespace cutline::runtime
