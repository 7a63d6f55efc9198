// MessageTags: what rides beside each message of an algorithm that stamps
// them (Lai-Yang: a transfer's epoch, a control message's count), by send
// sequence number. A tag is needed until its message is delivered; after that
// only the history's readers (narration, JSON, ShiViz) ask, so without a
// history a tag is forgotten at its delivery, and the tags kept are those from
// the oldest message in flight on (8 bytes a message, no node each).
#pragma once

#include <cstdint>
#include <cstddef>
#include <vector>

#include "sim/network.h"

namespace cutline::algorithms {

class MessageTags {
 public:
  explicit MessageTags(bool keep_delivered) : keep_delivered_(keep_delivered) {}

  // REQUIRES: seq is above every seq added before.
  void Add(sim::Seq seq, std::uint64_t tag) {
    if (size() == 0) {
      tags_.clear();
      front_ = 0;
      base_ = seq;
    }
    while (base_ + size() < seq) tags_.push_back(kGone);
    tags_.push_back(tag);
  }
  // 0 for a message never tagged, or whose tag was forgotten.
  std::uint64_t Find(sim::Seq seq) const {
    if (seq < base_ || seq - base_ >= size()) return 0;
    std::uint64_t tag = tags_[front_ + (seq - base_)];
    return tag == kGone ? 0 : tag;
  }
  // Message #seq is being delivered: its tag (as Find), forgotten unless
  // delivered tags are kept. One lookup: this runs at every delivery.
  std::uint64_t Take(sim::Seq seq) {
    if (seq < base_ || seq - base_ >= size()) return 0;
    std::uint64_t& slot = tags_[front_ + (seq - base_)];
    std::uint64_t tag = slot;
    if (tag == kGone) return 0;
    if (!keep_delivered_) {
      slot = kGone;
      // Messages mostly leave in send order: the front is usually this one.
      while (front_ < tags_.size() && tags_[front_] == kGone) {
        ++front_;
        ++base_;
      }
      // The forgotten front is given back once it is half the vector, so
      // each tag is moved at most once on average.
      if (front_ >= kCompactAt && front_ * 2 >= tags_.size()) {
        tags_.erase(tags_.begin(), tags_.begin() + static_cast<std::ptrdiff_t>(front_));
        front_ = 0;
      }
    }
    return tag;
  }
  // Tags kept (forgotten ones between kept ones included).
  std::size_t size() const { return tags_.size() - front_; }

 private:
  // No epoch or count reaches it (both count things that happened).
  static constexpr std::uint64_t kGone = UINT64_MAX;
  static constexpr std::size_t kCompactAt = 4096;
  bool keep_delivered_;
  sim::Seq base_ = 1;  // tags_[front_ + i] is message #(base_ + i)'s
  // A vector with a moving front rather than a deque: a deque's pop_front
  // checks block bounds and frees a block every 64 tags, on every delivery.
  std::vector<std::uint64_t> tags_;
  std::size_t front_ = 0;
};

}  // namespace cutline::algorithms
