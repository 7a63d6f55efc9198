// The last few /api/run answers, by their request body. A lecture makes this
// the common case: when the teacher steps, every student's page asks for the
// same run in the same language at once, and a run is deterministic, so one
// request runs it and the rest get its answer: those that come after it from
// the cache, and those that come while it runs by waiting for it (without
// that, a hall's requests arriving together would all miss and all run).
// Safe from the server's worker threads (docs/design.md, "Lecture mode").
#pragma once

#include <cstddef>
#include <functional>
#include <future>
#include <list>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

#include "server/http_message.h"

namespace cutline::server {

class RunCache {
 public:
  explicit RunCache(std::size_t capacity) : capacity_(capacity) {}

  std::size_t capacity() const { return capacity_; }

  // The answer to `body`: kept, being made by another request, or made now
  // by `make` (and kept if it is a 200). Capacity 0: always made now.
  Response Answer(const std::string& body, const std::function<Response()>& make) {
    if (capacity_ == 0) return make();
    std::promise<Response> mine;
    {
      std::unique_lock lock(mutex_);
      if (auto it = index_.find(body); it != index_.end()) {
        order_.splice(order_.begin(), order_, it->second);
        return it->second->second;
      }
      if (auto it = making_.find(body); it != making_.end()) {
        std::shared_future<Response> theirs = it->second;
        lock.unlock();
        return theirs.get();
      }
      making_.emplace(body, mine.get_future().share());
    }
    Response made;
    try {
      made = make();
    } catch (...) {
      std::lock_guard lock(mutex_);
      making_.erase(body);
      mine.set_exception(std::current_exception());
      throw;
    }
    std::lock_guard lock(mutex_);
    if (made.status == 200) Keep(body, made);
    making_.erase(body);
    mine.set_value(made);
    return made;
  }

  // How many answers it keeps now (for the tests).
  std::size_t size() const {
    std::lock_guard lock(mutex_);
    return order_.size();
  }

 private:
  using Entry = std::pair<std::string, Response>;
  // Under the lock: keeps `response` as the newest, forgetting the oldest past the capacity.
  void Keep(const std::string& body, const Response& response) {
    order_.emplace_front(body, response);
    index_.emplace(order_.front().first, order_.begin());
    if (order_.size() > capacity_) {
      index_.erase(order_.back().first);
      order_.pop_back();
    }
  }

  const std::size_t capacity_;
  mutable std::mutex mutex_;
  std::list<Entry> order_;  // newest first
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
  std::unordered_map<std::string, std::shared_future<Response>> making_;
};

}  // namespace cutline::server
