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
    if (count_ == 0) base_ = seq;
    // Messages in between carry no tag (an algorithm that tags only some).
    while (base_ + count_ < seq) Push(kGone);
    Push(tag);
  }
  // 0 for a message never tagged, or whose tag was forgotten.
  std::uint64_t Find(sim::Seq seq) const {
    // seq - base_ wraps for seq < base_: one test for both ends.
    if (seq - base_ >= count_) return 0;
    std::uint64_t tag = ring_[seq & mask_];
    return tag == kGone ? 0 : tag;
  }
  // Message #seq is being delivered: its tag (as Find), forgotten unless
  // delivered tags are kept. One lookup: this runs at every delivery.
  std::uint64_t Take(sim::Seq seq) {
    if (seq - base_ >= count_) return 0;
    std::uint64_t& slot = ring_[seq & mask_];
    std::uint64_t tag = slot;
    if (tag == kGone) return 0;
    if (!keep_delivered_) {
      slot = kGone;
      // Messages mostly leave in send order: the front is usually this one,
      // and the next is still in flight. A message delivered out of order
      // leaves a hole that goes when the front reaches it.
      if (seq == base_) {
        do {
          ++base_;
          --count_;
        } while (count_ != 0 && ring_[base_ & mask_] == kGone);
      }
    }
    return tag;
  }
  // Tags kept (forgotten ones between kept ones included).
  std::size_t size() const { return count_; }

 private:
  // No epoch or count reaches it (both count things that happened).
  static constexpr std::uint64_t kGone = UINT64_MAX;

  void Push(std::uint64_t tag) {
    if (count_ == ring_.size()) [[unlikely]] Grow();
    ring_[(base_ + count_) & mask_] = tag;
    ++count_;
  }
  // Twice the room; every kept tag moves to its place under the new mask.
  void Grow() {
    std::vector<std::uint64_t> bigger(ring_.empty() ? kFirstRoom : 2 * ring_.size(), kGone);
    const std::uint64_t mask = bigger.size() - 1;
    for (sim::Seq s = base_; s != base_ + count_; ++s) bigger[s & mask] = ring_[s & mask_];
    ring_.swap(bigger);
    mask_ = mask;
  }

  static constexpr std::size_t kFirstRoom = 64;
  bool keep_delivered_;
  // A ring indexed by seq & mask_ (its size a power of two): message
  // #(base_ + i), i < count_, has its tag at ring_[(base_ + i) & mask_].
  // Delivering the front moves base_ on; nothing is ever moved down (a
  // vector with a moving front had to be compacted, a deque's pop_front
  // frees a block every 64 tags). The room is the widest span of messages
  // in flight (all of them, with the history), as before.
  std::vector<std::uint64_t> ring_;
  std::uint64_t mask_ = 0;
  sim::Seq base_ = 1;
  std::size_t count_ = 0;
};

}  // namespace cutline::algorithms
