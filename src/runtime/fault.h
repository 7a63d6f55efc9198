// A fault that ends a rank: a broken protocol, a log that cannot be written.
#pragma once

#include <exception>
#include <utility>

#include "base/status.h"

namespace cutline::runtime {

// The run cannot go on, so it is thrown (from deep in a rank's loop) as a
// code with its arguments; RunNode prints it once, in the run's language,
// and aborts the job.
class Fault final : public std::exception {
 public:
  explicit Fault(Status status) : status_(std::move(status)) {}
  const Status& status() const noexcept { return status_; }
  const char* what() const noexcept override { return CodeName(status_.code()).data(); }

 private:
  Status status_;
};

}  // namespace cutline::runtime
