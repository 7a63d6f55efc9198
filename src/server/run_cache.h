// The last few /api/run answers, by their request body. A lecture makes this
// the common case: when the teacher steps, every student's page asks for the
// same run in the same language at once, and a run is deterministic, so one
// of them runs it and the rest are answered from here (docs/design.md,
// "Lecture mode"). Safe from the server's worker threads.
#pragma once

#include <cstddef>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "server/http_message.h"

namespace cutline::server {

class RunCache {
 public:
  explicit RunCache(std::size_t capacity) : capacity_(capacity) {}

  std::size_t capacity() const { return capacity_; }

  // The answer kept for `body`, if any (and it becomes the newest).
  std::optional<Response> Find(const std::string& body) {
    if (capacity_ == 0) return std::nullopt;
    std::lock_guard lock(mutex_);
    auto it = index_.find(body);
    if (it == index_.end()) return std::nullopt;
    order_.splice(order_.begin(), order_, it->second);
    return it->second->second;
  }

  // Keeps `response` for `body`, forgetting the oldest past the capacity.
  void Keep(const std::string& body, const Response& response) {
    if (capacity_ == 0) return;
    std::lock_guard lock(mutex_);
    if (auto it = index_.find(body); it != index_.end()) {
      order_.splice(order_.begin(), order_, it->second);
      return;
    }
    order_.emplace_front(body, response);
    index_.emplace(order_.front().first, order_.begin());
    if (order_.size() > capacity_) {
      index_.erase(order_.back().first);
      order_.pop_back();
    }
  }

 private:
  using Entry = std::pair<std::string, Response>;
  const std::size_t capacity_;
  std::mutex mutex_;
  std::list<Entry> order_;  // newest first
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
};

}  // namespace cutline::server
