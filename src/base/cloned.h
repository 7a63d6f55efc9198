// Cloned<T>: an owned polymorphic object that copies as a value, through
// T's `std::unique_ptr<T> Clone() const`. A class holding one keeps its
// default copy constructor, so a member added later is copied too.
#pragma once

#include <memory>
#include <utility>

namespace cutline {

template <class T>
class Cloned {
 public:
  Cloned() = default;
  Cloned(std::unique_ptr<T> p) : p_(std::move(p)) {}  // NOLINT: implicit, as unique_ptr's
  Cloned(const Cloned& o) : p_(o.p_ ? o.p_->Clone() : nullptr) {}
  Cloned& operator=(const Cloned& o) {
    if (this != &o) p_ = o.p_ ? o.p_->Clone() : nullptr;
    return *this;
  }
  Cloned(Cloned&&) noexcept = default;
  Cloned& operator=(Cloned&&) noexcept = default;

  T* operator->() const { return p_.get(); }
  T& operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }

 private:
  std::unique_ptr<T> p_;
};

}  // namespace cutline
