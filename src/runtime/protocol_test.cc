// Every message of the runtime's protocol through its encoder and back
// through its decoder, and every way a broken message is refused.
#include "runtime/protocol.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "cutline/wire.h"
#include "runtime/fault.h"

namespace cutline::runtime::protocol {
namespace {

// What the Fault that `read` throws says (ok when it throws none): a broken
// message is refused with a code and its arguments, never with anything else.
template <class Read>
Status FaultOf(Read&& read) {
  try {
    read();
  } catch (const Fault& fault) {
    return fault.status();
  }
  return Status::Ok();
}

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

// One of each, with values at the edges of their types.
std::vector<Control> Examples() {
  return {
      Init{.balance = 1000, .resend = {}, .state = {}},
      Init{.balance = 0, .resend = {{3, {7, 63}}}, .state = std::string("\0\x01state", 7)},
      Init{.balance = -5, .resend = {{2, {40, 10}}, {7, {}}, {0, {kMin}}}, .state = {}},
      Start{.id = 1},
      Start{.id = kMax},
      Part{.id = 3, .rank = 0, .recorded = {.state = 250, .channels = {}}, .recorded_us = 1'714'564'800'000'123, .marker_us = {}},
      Part{.id = 4,
           .rank = 2,
           .recorded = {.state = kMin, .channels = {{}, {1, 2, 3}}},
           .recorded_us = -1,
           .marker_us = {17, 1'714'564'800'000'999}},
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
      VertexPart{.id = 2, .rank = 0, .recorded = {}, .cost = {}},
      VertexPart{.id = 5,
                 .rank = 3,
                 .recorded = {.state = {.received = 9, .emitted = 7, .per_key = {{1, 4}, {kMax, 5}}},
                              .channels = {{}, {3, kMax}},
                              .sent = {{8}}},
                 .cost = {.alignment_us = 1200,
                          .switched = true,
                          .inputs = {{.unaligned = false, .waited_us = 1100, .persisted = 0, .held_back = 4},
                                     {.unaligned = true, .waited_us = 0, .persisted = 2, .held_back = 0}},
                          .overtaken = 1}},
      VertexFinal{.emitted = 0, .received = kMax},
      GiveUp{.id = 3},
      GiveUp{.id = kMax},
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
                               BankPayload{EndOfStream{}}, BankPayload{Record{kMax}},
                               BankPayload{Credit{7}}}) {
    std::string bytes = Encode(m) + "clock";
    Reader in(bytes);
    EXPECT_EQ(DecodeBank(in), m);
    EXPECT_EQ(in.left(), 5u);
  }
}

// A stamp and a marker's count ride behind the transfer's bytes and in the
// marker's host bytes, ahead of a logged clock: each reads back from the
// same Reader and leaves what follows; cut at any byte, each is refused.
TEST(ProtocolTest, StampsAndCountsRoundTripAndLeaveWhatFollows) {
  for (std::uint64_t v : {std::uint64_t{0}, std::uint64_t{7}, kMax}) {
    Bytes stamped;
    stamped.Char(Transfer::kCode).I64(-40);
    TransferStamp{v}.Put(stamped);
    const std::string transfer = stamped.Take();
    const std::string followed = transfer + "clock";
    Reader in(followed);
    EXPECT_EQ(DecodeBank(in), BankPayload{Transfer{-40}});
    EXPECT_EQ(TransferStamp::Get(in), TransferStamp{v});
    EXPECT_EQ(in.left(), 5u);
    for (std::size_t cut = 1; cut < transfer.size(); ++cut) {
      auto read_both = [&] {
        Reader short_one(std::string_view(transfer).substr(0, cut));
        DecodeBank(short_one);
        return TransferStamp::Get(short_one);
      };
      EXPECT_EQ(FaultOf(read_both).code(), Code::kRuntimeMessageEnded)
          << "a stamped transfer cut at " << cut;
    }

    Bytes counted;
    MarkerCount{v}.Put(counted);
    const std::string marker = wire::EncodeMarker(9, counted.str() + "clock");
    auto frame = wire::Decode(marker);
    ASSERT_TRUE(frame.has_value());
    Reader host(frame->payload);
    EXPECT_EQ(MarkerCount::Get(host), MarkerCount{v});
    EXPECT_EQ(host.left(), 5u);
    for (std::size_t cut = 0; cut < counted.str().size(); ++cut) {
      Reader short_one(std::string_view(counted.str()).substr(0, cut));
      EXPECT_EQ(FaultOf([&] { MarkerCount::Get(short_one); }).code(), Code::kRuntimeMessageEnded)
          << "a count cut at " << cut;
    }
  }
}

// The byte layout is wire.h's little-endian: a Start of id 0x0102 is 'S'
// then 02 01 00 ... .
// A dataflow barrier's start, as its marker's host bytes carry it; cut
// short, refused.
TEST(ProtocolTest, ABarriersStartRoundTrips) {
  for (std::int64_t v : {std::int64_t{0}, std::int64_t{1'714'564'800'000'123}, kMin}) {
    Bytes out;
    BarrierStart{v}.Put(out);
    Reader in(out.str());
    EXPECT_EQ(BarrierStart::Get(in), BarrierStart{v});
    EXPECT_TRUE(in.AtEnd());
    for (std::size_t cut = 0; cut < out.str().size(); ++cut) {
      Reader short_one(std::string_view(out.str()).substr(0, cut));
      EXPECT_EQ(FaultOf([&] { BarrierStart::Get(short_one); }).code(), Code::kRuntimeMessageEnded)
          << "cut at " << cut;
    }
  }
}

TEST(ProtocolTest, IntegersAreWiresLittleEndian) {
  std::string bytes = Encode(Control{Start{0x0102}});
  ASSERT_EQ(bytes.size(), 9u);
  EXPECT_EQ(bytes[0], 'S');
  EXPECT_EQ(wire::ReadLittleEndian(std::string_view(bytes).substr(1)), 0x0102u);
  EXPECT_EQ(bytes[1], '\x02');
  EXPECT_EQ(bytes[2], '\x01');
}

// A message cut short ends early, or counts more items than the bytes left
// could hold (a cut inside a list or a sized field).
TEST(ProtocolTest, EveryTruncationIsRefused) {
  for (const Control& m : Examples()) {
    std::string bytes = Encode(m);
    for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
      const Code code = FaultOf([&] { DecodeControl(bytes.substr(0, cut)); }).code();
      EXPECT_TRUE(code == Code::kRuntimeMessageEnded || code == Code::kRuntimeCountPastEnd)
          << Name(m) << " cut at " << cut << ": " << CodeName(code);
    }
  }
}

TEST(ProtocolTest, BytesLeftOverAreRefused) {
  for (const Control& m : Examples()) {
    const Status fault = FaultOf([&] { DecodeControl(Encode(m) + '\0'); });
    ASSERT_EQ(fault.code(), Code::kRuntimeBytesLeftOver) << Name(m);
    EXPECT_EQ(fault.word(0), Name(m));
    EXPECT_EQ(fault.number(1), 1);
  }
}

TEST(ProtocolTest, UnknownCodesAreRefused) {
  // Each code byte as the fault names it.
  const std::pair<char, const char*> unknown[] = {
      {'\0', "0x00"}, {'Z', "0x5a"}, {'B', "0x42"}, {'M', "0x4d"}, {'T', "0x54"}};
  for (const auto& u : unknown) {
    const std::string bytes = std::string(1, u.first) + std::string(8, '\0');
    const Status fault = FaultOf([&] { DecodeControl(bytes); });
    ASSERT_EQ(fault.code(), Code::kRuntimeUnknownMessage) << "code " << int{u.first} << " accepted";
    EXPECT_EQ(fault.word(0), u.second);
  }
  Reader in("Q");
  const Status bank = FaultOf([&] { DecodeBank(in); });
  ASSERT_EQ(bank.code(), Code::kRuntimeUnknownMessage);
  EXPECT_EQ(bank.word(0), "0x51");
}

// A Fault carries its Status as given; a debugger sees the code's stable name.
TEST(ProtocolTest, AFaultIsItsStatus) {
  const Fault fault(Status::Error(Code::kRuntimeNotAFrame, 3));
  EXPECT_EQ(fault.status().code(), Code::kRuntimeNotAFrame);
  EXPECT_EQ(fault.status().number(0), 3);
  EXPECT_STREQ(fault.what(), "runtime_not_a_frame");
}

// A credit gives back at most a channel's buffers, which a 32-bit count holds.
TEST(ProtocolTest, ACreditTooLargeIsRefused) {
  Bytes b;
  b.Char(Credit::kCode).U64(std::uint64_t{UINT32_MAX} + 1);
  Reader in(b.str());
  EXPECT_EQ(FaultOf([&] { DecodeBank(in); }).code(), Code::kRuntimeCreditTooLarge);
  Bytes most;
  most.Char(Credit::kCode).U64(UINT32_MAX);
  Reader fits(most.str());
  EXPECT_EQ(DecodeBank(fits), BankPayload{Credit{UINT32_MAX}});
}

// A count larger than the message could hold is refused before anything is
// allocated for it (a corrupt count must not become a huge allocation).
TEST(ProtocolTest, ACountPastTheMessageIsRefused) {
  Bytes b;
  b.Char(Paused::kCode).U64(9).U64(kMax);
  EXPECT_EQ(FaultOf([&] { DecodeControl(b.str()); }).code(), Code::kRuntimeCountPastEnd);
  Bytes p;
  p.Char(Part::kCode).U64(1u << 30);
  EXPECT_EQ(FaultOf([&] { DecodeControl(p.str()); }).code(), Code::kRuntimeCountPastEnd);
}

// A rank's part travels in the library's own part format (wire::EncodePart),
// the one any host of the library sends: the coordinator's bytes decode with
// the library's decoder alone, and bytes that are not a part are refused.
TEST(ProtocolTest, APartCarriesTheLibrarysWirePart) {
  const Part part{.id = 4,
                  .rank = 2,
                  .recorded = {.state = 90, .channels = {{}, {10, -3}}},
                  .recorded_us = 5,
                  .marker_us = {6, 7}};
  const std::string bytes = Encode(Control{part});
  Reader in(std::string_view(bytes).substr(1));
  const std::string_view wire_part = in.Sized();
  auto amount = [](std::string_view b) { return wire::ReadLittleEndian(b); };
  auto decoded = wire::DecodePart<std::uint64_t, std::uint64_t>(wire_part, amount, amount);
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->snapshot, 4u);
  EXPECT_EQ(decoded->from, 2u);
  EXPECT_EQ(decoded->part.state, 90u);
  EXPECT_EQ(decoded->part.channels,
            (std::vector<std::vector<std::uint64_t>>{{}, {10, static_cast<std::uint64_t>(-3)}}));
  // The rank's timings follow the wire part: one per channel.
  EXPECT_EQ(in.I64(), 5);
  EXPECT_EQ(in.I64(), 6);
  EXPECT_EQ(in.I64(), 7);
  EXPECT_TRUE(in.AtEnd());

  // Bytes that are not a wire part, in either kind of part, name the kind.
  for (const char kind : {Part::kCode, VertexPart::kCode}) {
    Bytes not_a_part;
    not_a_part.Char(kind).Sized("Qxxxxxxxxxxxx").I64(0);
    const Status fault = FaultOf([&] { DecodeControl(not_a_part.str()); });
    ASSERT_EQ(fault.code(), Code::kRuntimeNotWirePart) << kind;
    EXPECT_EQ(fault.word(0), kind == Part::kCode ? "Part" : "VertexPart");
  }
}

}  // namespace
}  // namespace cutline::runtime::protocol
