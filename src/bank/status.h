// Status: an operation's outcome as a value; errors cross modules this way.
// A message exists in English and, for what a visitor of the page can
// trigger, in Japanese (the page speaks both).
#pragma once

#include <string>
#include <utility>

namespace cutline {

enum class Lang { kEn, kJa };

class [[nodiscard]] Status {
 public:
  static Status Ok() { return Status(); }
  static Status Error(std::string message, std::string message_ja = "") {
    Status s;
    s.ok_ = false;
    s.message_ = std::move(message);
    s.message_ja_ = std::move(message_ja);
    return s;
  }
  bool ok() const { return ok_; }
  // One line, without a trailing period; empty when ok().
  const std::string& message() const { return message_; }
  const std::string& message(Lang lang) const {
    return lang == Lang::kJa && !message_ja_.empty() ? message_ja_ : message_;
  }

 private:
  Status() = default;
  bool ok_ = true;
  std::string message_;
  std::string message_ja_;
};

}  // namespace cutline
