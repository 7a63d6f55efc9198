// What a host needs beside the agent: the wire frame that keeps markers in
// the application's stream, and the collector that assembles parts.
#include <gtest/gtest.h>

#include <string>

#include "cutline/collector.h"
#include "cutline/wire.h"

namespace cutline {
namespace {

TEST(Wire, MarkersAndApplicationBytesRoundTrip) {
  for (SnapshotId id : {SnapshotId{1}, SnapshotId{255}, SnapshotId{256},
                        SnapshotId{0x0102030405060708ULL}, ~SnapshotId{0}}) {
    std::string bytes = wire::EncodeMarker(id);
    EXPECT_EQ(bytes.size(), wire::kMarkerFrameSize);
    auto frame = wire::Decode(bytes);
    ASSERT_TRUE(frame);
    EXPECT_EQ(frame->kind, wire::FrameKind::kMarker);
    EXPECT_EQ(frame->snapshot, id);
    EXPECT_EQ(frame->payload, "");
  }
  // What a host appends to a marker comes back as its payload.
  // (The frame's payload points into the bytes: they must outlive it.)
  std::string clocked = wire::EncodeMarker(7, std::string("\0\1vc", 4));
  auto with_clock = wire::Decode(clocked);
  ASSERT_TRUE(with_clock);
  EXPECT_EQ(with_clock->snapshot, 7u);
  EXPECT_EQ(with_clock->payload, std::string("\0\1vc", 4));
  // Little-endian whatever the host.
  EXPECT_EQ(wire::EncodeMarker(0x0102)[1], '\x02');
  EXPECT_EQ(wire::EncodeMarker(0x0102)[2], '\x01');

  for (std::string payload : {std::string(), std::string("40"), std::string("\0M\xff", 3)}) {
    std::string bytes = wire::EncodeApplication(payload);
    auto frame = wire::Decode(bytes);
    ASSERT_TRUE(frame);
    EXPECT_EQ(frame->kind, wire::FrameKind::kApplication);
    EXPECT_EQ(frame->payload, payload);
  }
}

TEST(Wire, BytesThatAreNoFrameAreRefused) {
  EXPECT_FALSE(wire::Decode(""));
  EXPECT_FALSE(wire::Decode("X12345678"));
  EXPECT_FALSE(wire::Decode("M1234567"));  // one byte short of an id
  EXPECT_FALSE(wire::Decode("M"));
}

using Collector = SnapshotCollector<int, int>;

Collector::Part PartOf(int state, std::vector<std::vector<int>> channels) {
  return Collector::Part{state, std::move(channels)};
}

TEST(Collector, ASnapshotIsWholeWithItsLastPart) {
  Collector c(3);
  EXPECT_EQ(c.Add(1, 2, PartOf(30, {{}, {5}})), Collector::Added::kPending);
  EXPECT_FALSE(c.Take(1));
  EXPECT_EQ(c.Add(1, 0, PartOf(10, {{}, {}})), Collector::Added::kPending);
  EXPECT_EQ(c.Received(1), 2u);
  EXPECT_EQ(c.Pending(), std::vector<SnapshotId>{1});
  EXPECT_EQ(c.Add(1, 1, PartOf(20, {{7, 8}, {}})), Collector::Added::kComplete);
  auto parts = c.Take(1);
  ASSERT_TRUE(parts);
  ASSERT_EQ(parts->size(), 3u);
  EXPECT_EQ((*parts)[0].state, 10);
  EXPECT_EQ((*parts)[1].channels[0], (std::vector<int>{7, 8}));
  EXPECT_EQ((*parts)[2].channels[1], std::vector<int>{5});
  EXPECT_TRUE(c.Pending().empty());
  // Taken: it is gone, and a late part is refused.
  EXPECT_FALSE(c.Take(1));
  EXPECT_EQ(c.Add(1, 0, PartOf(10, {})), Collector::Added::kClosed);
}

TEST(Collector, SnapshotsAssembleIndependentlyAndOutOfOrder) {
  Collector c(2);
  EXPECT_EQ(c.Add(2, 0, PartOf(1, {})), Collector::Added::kPending);
  EXPECT_EQ(c.Add(1, 1, PartOf(2, {})), Collector::Added::kPending);
  EXPECT_EQ(c.Add(2, 1, PartOf(3, {})), Collector::Added::kComplete);
  EXPECT_TRUE(c.Take(2));
  EXPECT_EQ(c.Pending(), std::vector<SnapshotId>{1});
  EXPECT_EQ(c.Add(1, 0, PartOf(4, {})), Collector::Added::kComplete);
  EXPECT_TRUE(c.Take(1));
  EXPECT_EQ(c.Add(2, 0, PartOf(1, {})), Collector::Added::kClosed);
  EXPECT_EQ(c.Add(1, 0, PartOf(1, {})), Collector::Added::kClosed);
  EXPECT_EQ(c.Add(3, 0, PartOf(1, {})), Collector::Added::kPending);
}

TEST(Collector, BadPartsAreRefusedAndChangeNothing) {
  Collector c(2);
  EXPECT_EQ(c.Add(1, 0, PartOf(10, {})), Collector::Added::kPending);
  EXPECT_EQ(c.Add(1, 0, PartOf(99, {})), Collector::Added::kDuplicate);
  EXPECT_EQ(c.Add(1, 2, PartOf(99, {})), Collector::Added::kUnknownProcess);
  EXPECT_EQ(c.Received(1), 1u);
  EXPECT_EQ(c.Add(1, 1, PartOf(20, {})), Collector::Added::kComplete);
  EXPECT_EQ((*c.Take(1))[0].state, 10);  // the first part, not the duplicate
}

TEST(Collector, AnAbandonedSnapshotRefusesLateParts) {
  Collector c(2, /*first_id=*/57);  // a restored run continues at 57
  EXPECT_EQ(c.Add(56, 0, PartOf(1, {})), Collector::Added::kClosed);
  EXPECT_EQ(c.Add(57, 0, PartOf(1, {})), Collector::Added::kPending);
  c.Abandon(57);
  EXPECT_TRUE(c.Pending().empty());
  EXPECT_EQ(c.Add(57, 1, PartOf(1, {})), Collector::Added::kClosed);
  EXPECT_FALSE(c.Take(57));
  EXPECT_EQ(c.Add(58, 1, PartOf(1, {})), Collector::Added::kPending);
}

}  // namespace
}  // namespace cutline
