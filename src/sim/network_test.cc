// sim::Network against a model that says the rule in the plainest way (every
// message in flight, in one list; "deliver next" = the lowest sequence number
// that may leave now), over random runs of every operation: sends, sends
// ahead, holds, releases, deliveries by channel and next. The seed is
// printed; CUTLINE_NETWORK_SEED=N replays one run.
#include "sim/network.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace cutline::sim {
namespace {

// Transfers (payload >= 0) count against capacity; markers (< 0) do not,
// and only they may be sent ahead (SendAhead's REQUIRES).
struct Transfers {
  bool operator()(int payload) const { return payload >= 0; }
};
using Net = Network<int, Transfers>;

// The model: each channel's messages in queue order, and the held flags.
struct Model {
  struct M {
    Seq seq;
    int payload;
  };
  std::vector<std::vector<M>> queues;
  std::vector<bool> held;
  bool fifo;
  Seq next = 1;

  // The lowest seq that may leave now, and where it is; false if none.
  bool Next(ChannelId* c, std::size_t* pos) const {
    bool found = false;
    Seq best = 0;
    for (ChannelId ch = 0; ch < queues.size(); ++ch) {
      if (held[ch]) continue;
      std::size_t limit = fifo ? std::min<std::size_t>(1, queues[ch].size()) : queues[ch].size();
      for (std::size_t i = 0; i < limit; ++i) {
        if (!found || queues[ch][i].seq < best) {
          found = true;
          best = queues[ch][i].seq;
          *c = ch;
          *pos = i;
        }
      }
    }
    return found;
  }
};

void RandomRun(std::uint64_t seed, bool fifo) {
  SCOPED_TRACE("seed " + std::to_string(seed) + " fifo " + std::to_string(fifo) +
               " (replay: CUTLINE_NETWORK_SEED=" + std::to_string(seed) +
               " network_test)");
  std::mt19937_64 rng(seed);
  const std::uint32_t nodes = 2 + rng() % 4;
  Net net(nodes, Topology::Complete(nodes), 0, fifo);
  Model model{std::vector<std::vector<Model::M>>(net.channel_count()),
              std::vector<bool>(net.channel_count(), false), fifo};
  auto pick = [&] { return static_cast<ChannelId>(rng() % net.channel_count()); };
  for (int step = 0; step < 400; ++step) {
    ChannelId c = pick();
    int payload = step;
    switch (rng() % 8) {
      case 0:
      case 1:
      case 2: {  // send
        Net::Msg m = net.Send(c, payload);
        ASSERT_EQ(m.seq, model.next);
        model.queues[c].push_back({model.next++, payload});
        break;
      }
      case 3: {  // send ahead (FIFO only, as the bank does)
        if (!fifo) break;
        int marker = -1 - payload;
        Net::Msg m = net.SendAhead(c, marker);
        ASSERT_EQ(m.seq, model.next);
        model.queues[c].insert(model.queues[c].begin(), {model.next++, marker});
        break;
      }
      case 4:  // hold or release
        if (rng() % 2) {
          net.Hold(c);
          model.held[c] = true;
        } else {
          net.Release(c);
          model.held[c] = false;
        }
        break;
      case 5: {  // deliver from a channel, ignoring holds (as DeliverAt does)
        if (model.queues[c].empty()) break;
        std::uint32_t k = fifo ? 1 : 1 + rng() % model.queues[c].size();
        Net::Msg m = net.DeliverAt(c, k);
        ASSERT_EQ(m.seq, model.queues[c][k - 1].seq);
        model.queues[c].erase(model.queues[c].begin() + (k - 1));
        break;
      }
      default: {  // deliver next
        ChannelId mc = 0;
        std::size_t pos = 0;
        bool can = model.Next(&mc, &pos);
        ASSERT_EQ(net.CanDeliverNext(), can) << "step " << step;
        if (!can) break;
        Net::Msg m = net.DeliverNext();
        ASSERT_EQ(m.seq, model.queues[mc][pos].seq) << "step " << step;
        ASSERT_EQ(m.channel, mc);
        ASSERT_EQ(m.payload, model.queues[mc][pos].payload);
        model.queues[mc].erase(model.queues[mc].begin() + static_cast<std::ptrdiff_t>(pos));
        break;
      }
    }
    for (ChannelId ch = 0; ch < net.channel_count(); ++ch) {
      ASSERT_EQ(net.Size(ch), model.queues[ch].size());
      std::size_t i = 0;
      net.ForEachQueued(ch, [&](const Net::Msg& m) {
        ASSERT_EQ(m.seq, model.queues[ch][i++].seq);
      });
    }
  }
  // Release everything and drain: the same order to the end.
  for (ChannelId ch = 0; ch < net.channel_count(); ++ch) {
    net.Release(ch);
    model.held[ch] = false;
  }
  ChannelId mc = 0;
  std::size_t pos = 0;
  while (model.Next(&mc, &pos)) {
    ASSERT_TRUE(net.CanDeliverNext());
    ASSERT_EQ(net.DeliverNext().seq, model.queues[mc][pos].seq);
    model.queues[mc].erase(model.queues[mc].begin() + static_cast<std::ptrdiff_t>(pos));
  }
  EXPECT_FALSE(net.AnyInFlight());
}

std::vector<std::uint64_t> Seeds() {
  if (const char* s = std::getenv("CUTLINE_NETWORK_SEED")) return {std::strtoull(s, nullptr, 10)};
  std::vector<std::uint64_t> seeds;
  std::uint64_t base = std::random_device{}();
  for (std::uint64_t i = 0; i < 200; ++i) seeds.push_back(base + i);
  std::printf("network_test: seeds %llu to %llu (replay one: CUTLINE_NETWORK_SEED=N)\n",
              static_cast<unsigned long long>(base),
              static_cast<unsigned long long>(base + 199));
  return seeds;
}

TEST(NetworkTest, DeliverNextIsTheLowestSequenceThatMayLeaveFifo) {
  for (std::uint64_t seed : Seeds()) {
    RandomRun(seed, /*fifo=*/true);
    if (HasFatalFailure()) return;
  }
}

TEST(NetworkTest, DeliverNextIsTheLowestSequenceThatMayLeaveNotFifo) {
  for (std::uint64_t seed : Seeds()) {
    RandomRun(seed, /*fifo=*/false);
    if (HasFatalFailure()) return;
  }
}

// The case that was quadratic: a message stuck behind one sent ahead, while
// many others are delivered. Checked by order here; its time is in
// `make bench` (BM_StuckBehindAhead).
TEST(NetworkTest, AMessageBehindOneSentAheadWaitsForItAlone) {
  Net net(3, Topology::Complete(3), 0, true);
  const ChannelId stuck = net.Find(0, 1), other = net.Find(1, 2);
  Seq first = net.Send(stuck, 0).seq;
  for (int i = 0; i < 1000; ++i) net.Send(other, i);
  Seq ahead = net.SendAhead(stuck, -1).seq;
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(net.DeliverNext().channel, other);
  EXPECT_EQ(net.DeliverNext().seq, ahead);
  EXPECT_EQ(net.DeliverNext().seq, first);
  EXPECT_FALSE(net.AnyInFlight());
}

}  // namespace
}  // namespace cutline::sim
