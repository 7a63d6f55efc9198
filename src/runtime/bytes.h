// The runtime's messages as bytes: fixed-width little-endian integers one
// after another. A Reader that runs past the end throws: a short message is
// a bug, never something to guess around.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cutline::runtime {

class Bytes {
 public:
  Bytes& Char(char c) {
    bytes_ += c;
    return *this;
  }
  Bytes& U64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) bytes_ += static_cast<char>((v >> (8 * i)) & 0xff);
    return *this;
  }
  Bytes& I64(std::int64_t v) { return U64(static_cast<std::uint64_t>(v)); }
  const std::string& str() const { return bytes_; }

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
    Need(8);
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) {
      v |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes_[at_++])) << (8 * i);
    }
    return v;
  }
  std::int64_t I64() { return static_cast<std::int64_t>(U64()); }

 private:
  void Need(std::size_t n) const {
    if (at_ + n > bytes_.size()) throw std::runtime_error("a message ended early");
  }
  std::string_view bytes_;
  std::size_t at_ = 0;
};

}  // namespace cutline::runtime
