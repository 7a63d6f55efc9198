// The store's one error type once a store is open: a Status (base/status.h)
// whose words the catalogues give. A failed statement (a full disk, an I/O
// error) or a call that breaks the store's rules is kStoreFailed with one
// line naming the file, the reason and what was being done; a refusal the
// catalogues word on their own (another writer holds the store) keeps its
// own code.
#pragma once

#include <stdexcept>
#include <string>

#include "base/status.h"

namespace cutline::store {

class StoreError : public std::runtime_error {
 public:
  explicit StoreError(const std::string& line)
      : std::runtime_error(line), status_(Status::Error(Code::kStoreFailed, line)) {}
  // REQUIRES: !status.ok().
  explicit StoreError(Status status)
      : std::runtime_error(std::string(CodeName(status.code()))), status_(std::move(status)) {}

  // What to say, in the reader's language (scenario::Message).
  const Status& status() const { return status_; }

 private:
  Status status_;
};

}  // namespace cutline::store
