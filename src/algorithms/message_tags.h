// MessageTags: what rides beside each message of an algorithm that stamps
// them (Lai-Yang: a transfer's epoch, a control message's count), by send
// sequence number. A tag is needed until its message is delivered; after that
// only the history's readers (narration, JSON, ShiViz) ask, so without a
// history a tag is forgotten at its delivery, and the tags kept are those from
// the oldest message in flight on (a deque, 8 bytes a message, no node each).
#pragma once

#include <cstdint>
#include <deque>

#include "sim/network.h"

namespace cutline::algorithms {

class MessageTags {
 public:
  explicit MessageTags(bool keep_delivered) : keep_delivered_(keep_delivered) {}

  // REQUIRES: seq is above every seq added before.
  void Add(sim::Seq seq, std::uint64_t tag) {
    if (tags_.empty()) base_ = seq;
    while (base_ + tags_.size() < seq) tags_.push_back(kGone);
    tags_.push_back(tag);
  }
  // 0 for a message never tagged, or whose tag was forgotten.
  std::uint64_t Find(sim::Seq seq) const {
    if (seq < base_ || seq - base_ >= tags_.size()) return 0;
    std::uint64_t tag = tags_[seq - base_];
    return tag == kGone ? 0 : tag;
  }
  // Message #seq was delivered: forgotten unless delivered tags are kept.
  void Delivered(sim::Seq seq) {
    if (keep_delivered_ || seq < base_ || seq - base_ >= tags_.size()) return;
    tags_[seq - base_] = kGone;
    while (!tags_.empty() && tags_.front() == kGone) {
      tags_.pop_front();
      ++base_;
    }
  }
  std::size_t size() const { return tags_.size(); }

 private:
  // No epoch or count reaches it (both count things that happened).
  static constexpr std::uint64_t kGone = UINT64_MAX;
  bool keep_delivered_;
  sim::Seq base_ = 1;  // tags_[i] is message #(base_ + i)'s
  std::deque<std::uint64_t> tags_;
};

}  // namespace cutline::algorithms
