// Overloaded{lambdas...}: one visitor for a std::variant, a lambda per
// alternative (the usual helper, written once for the project).
#pragma once

namespace cutline {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace cutline
