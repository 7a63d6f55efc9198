// Status: an operation's outcome as a value; errors cross modules this way.
#pragma once

#include <string>
#include <utility>

namespace cutline {

class [[nodiscard]] Status {
 public:
  static Status Ok() { return Status(); }
  static Status Error(std::string message) {
    Status s;
    s.message_ = std::move(message);
    s.ok_ = false;
    return s;
  }
  bool ok() const { return ok_; }
  // One line, without a trailing period; empty when ok().
  const std::string& message() const { return message_; }

 private:
  Status() = default;
  bool ok_ = true;
  std::string message_;
};

}  // namespace cutline
