// The store's one error type once a store is open: one line naming the file,
// the reason and what was being done.
#pragma once

#include <stdexcept>

namespace cutline::store {

class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace cutline::store
