// Every message of the runtime's protocol through its encoder and back
// through its decoder, and every way a broken message is refused.
#include "runtime/protocol.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "cutline/wire.h"

namespace cutline::runtime::protocol {
namespace {

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

// One of each, with values at the edges of their types.
std::vector<Control> Examples() {
  return {
      Init{.balance = 1000, .resend = {}},
      Init{.balance = -5, .resend = {{2, {40, 10}}, {7, {}}, {0, {kMin}}}},
      Start{.id = 1},
      Start{.id = kMax},
      Part{.id = 3, .balance = 250, .recorded_us = 1'714'564'800'000'123, .channels = {}},
      Part{.id = 4,
           .balance = kMin,
           .recorded_us = -1,
           .channels = {{{}, 17}, {{1, 2, 3}, 1'714'564'800'000'999}}},
      Counts{.sent = 0},
      Counts{.sent = kMax},
      Stop{},
      Final{.sent = 12, .balance = -3, .changed_us = 1700000000000000},
      Query{.round = 4},
      Answer{.round = 4, .state = 3, .at_us = 1700000000000001},
      Pause{.id = 9},
      Paused{.id = 9, .sent_to = {0, 5, kMax}},
      Drain{.id = 9, .expect_from = {3, 0, 1}},
      Drain{.id = 10, .expect_from = {}},
      Read{.id = 9, .balance = 77, .recorded_us = 42},
      Resume{},
      Abort{.id = 7},
      Abort{.id = kMax},
  };
}

TEST(ProtocolTest, EveryControlMessageRoundTrips) {
  std::vector<bool> seen(std::variant_size_v<Control>, false);
  for (const Control& m : Examples()) {
    std::string bytes = Encode(m);
    Control back = DecodeControl(bytes);
    EXPECT_EQ(back, m) << Name(m);
    EXPECT_EQ(Encode(back), bytes) << Name(m);
    seen[m.index()] = true;
  }
  for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_TRUE(seen[i]) << "no example of type " << i;
}

TEST(ProtocolTest, BankPayloadsRoundTripAndLeaveWhatFollows) {
  for (const BankPayload& m : {BankPayload{Transfer{1}}, BankPayload{Transfer{kMin}},
                               BankPayload{EndOfStream{}}}) {
    std::string bytes = Encode(m) + "clock";
    Reader in(bytes);
    EXPECT_EQ(DecodeBank(in), m);
    EXPECT_EQ(in.left(), 5u);
  }
}

// The byte layout is wire.h's little-endian: a Start of id 0x0102 is 'S'
// then 02 01 00 ... .
TEST(ProtocolTest, IntegersAreWiresLittleEndian) {
  std::string bytes = Encode(Control{Start{0x0102}});
  ASSERT_EQ(bytes.size(), 9u);
  EXPECT_EQ(bytes[0], 'S');
  EXPECT_EQ(wire::GetLittleEndian(std::string_view(bytes).substr(1)), 0x0102u);
  EXPECT_EQ(bytes[1], '\x02');
  EXPECT_EQ(bytes[2], '\x01');
}

TEST(ProtocolTest, EveryTruncationIsRefused) {
  for (const Control& m : Examples()) {
    std::string bytes = Encode(m);
    for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
      EXPECT_THROW(DecodeControl(bytes.substr(0, cut)), std::runtime_error)
          << Name(m) << " cut at " << cut;
    }
  }
}

TEST(ProtocolTest, BytesLeftOverAreRefused) {
  for (const Control& m : Examples()) {
    EXPECT_THROW(DecodeControl(Encode(m) + '\0'), std::runtime_error) << Name(m);
  }
}

TEST(ProtocolTest, UnknownCodesAreRefused) {
  for (char code : {'\0', 'Z', 'B', 'M', 'T'}) {
    try {
      DecodeControl(std::string(1, code) + std::string(8, '\0'));
      ADD_FAILURE() << "code " << int{code} << " was accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("unknown code"), std::string::npos) << e.what();
    }
  }
  Reader in("Q");
  EXPECT_THROW(DecodeBank(in), std::runtime_error);
}

// A count larger than the message could hold is refused before anything is
// allocated for it (a corrupt count must not become a huge allocation).
TEST(ProtocolTest, ACountPastTheMessageIsRefused) {
  Bytes b;
  b.Char(Paused::kCode).U64(9).U64(kMax);
  EXPECT_THROW(DecodeControl(b.str()), std::runtime_error);
  Bytes p;
  p.Char(Part::kCode).U64(1).I64(0).I64(0).U64(1u << 30);
  EXPECT_THROW(DecodeControl(p.str()), std::runtime_error);
}

}  // namespace
}  // namespace cutline::runtime::protocol
