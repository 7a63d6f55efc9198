// The one exception a rank throws for a fault of its own: a code and its
// arguments (base/status.h), worded only where it is printed, in the run's
// language. Nothing below RunNode catches it.
#pragma once

#include <exception>
#include <utility>

#include "base/check.h"
#include "base/status.h"

namespace cutline::runtime {

// A fault that ends a rank: a broken protocol, a log that cannot be written. The run cannot go
// on, so it is thrown (from deep in a rank's loop) as a code with its arguments; RunNode prints it
// once, in the run's language, and aborts the job.
class Fault final : public std::exception {
 public:
  // REQUIRES: !status.ok().
  explicit Fault(Status status) : status_(std::move(status)) { CUTLINE_CHECK(!status_.ok()); }
  const Status& status() const noexcept { return status_; }
  // The code's stable name (for a debugger). CodeName's names are literals,
  // so the pointer outlives the Fault.
  const char* what() const noexcept override { return CodeName(status_.code()).data(); }

 private:
  Status status_;
};

}  // namespace cutline::runtime
