// Each message's encoder and decoder, and the one table from codes to types.
#include "runtime/protocol.h"

#include "base/check.h"
#include "dataflow/property.h"

#include <fmt/format.h>

#include <optional>
#include <type_traits>

namespace cutline::runtime::protocol {

namespace {

// Every count is followed by items of at least 8 bytes: a count that the
// rest of the message could not hold is refused before anything is
// allocated for it.
constexpr std::size_t kItem = 8;

void PutAmounts(Bytes& out, const std::vector<Amount>& v) {
  out.U64(v.size());
  for (Amount a : v) out.I64(a);
}
std::vector<Amount> GetAmounts(Reader& in) {
  std::vector<Amount> v(in.Count(kItem));
  for (Amount& a : v) a = in.I64();
  return v;
}
void PutCounts(Bytes& out, const std::vector<std::uint64_t>& v) {
  out.U64(v.size());
  for (std::uint64_t c : v) out.U64(c);
}
std::vector<std::uint64_t> GetCounts(Reader& in) {
  std::vector<std::uint64_t> v(in.Count(kItem));
  for (std::uint64_t& c : v) c = in.U64();
  return v;
}

template <typename Variant, std::size_t I = 0>
Variant ByCode(char code, Reader& in) {
  if constexpr (I == std::variant_size_v<Variant>) {
    throw Fault(Status::Error(Code::kRuntimeUnknownMessage,
                              fmt::format("{:#04x}", static_cast<unsigned char>(code))));
  } else {
    using T = std::variant_alternative_t<I, Variant>;
    if (code == T::kCode) return T::Get(in);
    return ByCode<Variant, I + 1>(code, in);
  }
}

// Codes must tell the types apart, or ByCode would read one as another.
template <typename Variant, std::size_t... I>
constexpr bool DistinctCodes(std::index_sequence<I...>) {
  constexpr char codes[] = {std::variant_alternative_t<I, Variant>::kCode...};
  for (std::size_t a = 0; a < sizeof...(I); ++a) {
    for (std::size_t b = a + 1; b < sizeof...(I); ++b) {
      if (codes[a] == codes[b]) return false;
    }
  }
  return true;
}
static_assert(DistinctCodes<Control>(std::make_index_sequence<std::variant_size_v<Control>>()));
static_assert(
    DistinctCodes<BankPayload>(std::make_index_sequence<std::variant_size_v<BankPayload>>()));

template <typename Variant>
std::string EncodeAny(const Variant& message) {
  Bytes out;
  std::visit(
      [&](const auto& m) {
        out.Char(std::decay_t<decltype(m)>::kCode);
        m.Put(out);
      },
      message);
  return out.Take();
}

}  // namespace

void Transfer::Put(Bytes& out) const { out.I64(amount); }
Transfer Transfer::Get(Reader& in) { return {in.I64()}; }

void TransferStamp::Put(Bytes& out) const { out.U64(stamp); }
TransferStamp TransferStamp::Get(Reader& in) { return {in.U64()}; }

void MarkerCount::Put(Bytes& out) const { out.U64(count); }
MarkerCount MarkerCount::Get(Reader& in) { return {in.U64()}; }

void BarrierStart::Put(Bytes& out) const { out.I64(started_us); }
BarrierStart BarrierStart::Get(Reader& in) { return {in.I64()}; }

void GiveUp::Put(Bytes& out) const { out.U64(id); }
GiveUp GiveUp::Get(Reader& in) { return {in.U64()}; }

void Init::Put(Bytes& out) const {
  out.I64(balance).U64(resend.size());
  for (const Resend& r : resend) {
    out.U64(r.to);
    PutAmounts(out, r.transfers);
  }
  out.Sized(state);
}
Init Init::Get(Reader& in) {
  Init m;
  m.balance = in.I64();
  m.resend.resize(in.Count(2 * kItem));
  for (Resend& r : m.resend) {
    r.to = static_cast<std::uint32_t>(in.U64());
    r.transfers = GetAmounts(in);
  }
  m.state = std::string(in.Sized());
  return m;
}

void Start::Put(Bytes& out) const { out.U64(id); }
Start Start::Get(Reader& in) { return {in.U64()}; }

void Abort::Put(Bytes& out) const { out.U64(id); }
Abort Abort::Get(Reader& in) { return {in.U64()}; }

namespace {
// One 8-byte word as the wire part's value: a bank part's state and every
// recorded transfer (an amount), a dataflow part's keys.
template <class T>
std::string WordBytes(T v) {
  std::string out;
  wire::PutLittleEndian(&out, static_cast<std::uint64_t>(v));
  return out;
}
template <class T>
std::optional<T> WordOf(std::string_view bytes) {
  if (bytes.size() != 8) return std::nullopt;
  return static_cast<T>(*wire::ReadLittleEndian(bytes));
}
constexpr auto AmountBytes = WordBytes<Amount>;
constexpr auto AmountOf = WordOf<Amount>;
}  // namespace

void Part::Put(Bytes& out) const {
  // Get reads one time per recorded channel: the two go together.
  CUTLINE_CHECK(marker_us.size() == recorded.channels.size());
  std::optional<std::string> wire_part = wire::EncodePart(id, rank, recorded, AmountBytes, AmountBytes);
  if (!wire_part) throw Fault(Status::Error(Code::kRuntimePartTooLarge));
  out.Sized(*wire_part).I64(recorded_us);
  for (std::int64_t at : marker_us) out.I64(at);
}
Part Part::Get(Reader& in) {
  auto wire_part = wire::DecodePart<Amount, Amount>(in.Sized(), AmountOf, AmountOf);
  if (!wire_part) throw Fault(Status::Error(Code::kRuntimeNotWirePart, "Part"));
  Part m{.id = wire_part->snapshot,
         .rank = wire_part->from,
         .recorded = std::move(wire_part->part),
         .recorded_us = in.I64(),
         .marker_us = {}};
  // One time per incoming channel the part records.
  m.marker_us.resize(m.recorded.channels.size());
  for (std::int64_t& at : m.marker_us) at = in.I64();
  return m;
}

void Record::Put(Bytes& out) const { out.U64(key); }
Record Record::Get(Reader& in) { return {in.U64()}; }

void Credit::Put(Bytes& out) const { out.U64(n); }
Credit Credit::Get(Reader& in) {
  const std::uint64_t n = in.U64();
  if (n > UINT32_MAX) throw Fault(Status::Error(Code::kRuntimeCreditTooLarge));
  return {static_cast<std::uint32_t>(n)};
}

namespace {
// Each input's cost: four 8-byte fields.
constexpr std::size_t kChannelCostBytes = 4 * kItem;
}  // namespace

void VertexPart::Put(Bytes& out) const {
  std::optional<std::string> wire_part =
      wire::EncodePart(id, rank, recorded, dataflow::EncodeState, WordBytes<std::uint64_t>);
  if (!wire_part) throw Fault(Status::Error(Code::kRuntimePartTooLarge));
  out.Sized(*wire_part).I64(cost.alignment_us).U64(cost.switched ? 1 : 0).U64(cost.overtaken);
  out.U64(cost.inputs.size());
  for (const dataflow::ChannelCost& c : cost.inputs) {
    out.U64(c.unaligned ? 1 : 0).I64(c.waited_us).U64(c.persisted).U64(c.held_back);
  }
}
VertexPart VertexPart::Get(Reader& in) {
  auto wire_part = wire::DecodePart<dataflow::VertexState, std::uint64_t>(
      in.Sized(), dataflow::DecodeState, WordOf<std::uint64_t>);
  if (!wire_part) throw Fault(Status::Error(Code::kRuntimeNotWirePart, "VertexPart"));
  VertexPart m{.id = wire_part->snapshot,
               .rank = wire_part->from,
               .recorded = std::move(wire_part->part),
               .cost = {}};
  m.cost.alignment_us = in.I64();
  m.cost.switched = in.U64() != 0;
  m.cost.overtaken = in.U64();
  m.cost.inputs.resize(in.Count(kChannelCostBytes));
  for (dataflow::ChannelCost& c : m.cost.inputs) {
    c.unaligned = in.U64() != 0;
    c.waited_us = in.I64();
    c.persisted = in.U64();
    c.held_back = in.U64();
  }
  return m;
}

void VertexFinal::Put(Bytes& out) const { out.U64(emitted).U64(received); }
VertexFinal VertexFinal::Get(Reader& in) {
  VertexFinal m;
  m.emitted = in.U64();
  m.received = in.U64();
  return m;
}

void Counts::Put(Bytes& out) const { out.U64(sent); }
Counts Counts::Get(Reader& in) { return {in.U64()}; }

void Final::Put(Bytes& out) const { out.U64(sent).I64(balance).I64(changed_us); }
Final Final::Get(Reader& in) {
  Final m;
  m.sent = in.U64();
  m.balance = in.I64();
  m.changed_us = in.I64();
  return m;
}

void Query::Put(Bytes& out) const { out.U64(round); }
Query Query::Get(Reader& in) { return {in.U64()}; }

void Answer::Put(Bytes& out) const { out.U64(round).I64(state).I64(at_us); }
Answer Answer::Get(Reader& in) {
  Answer m;
  m.round = in.U64();
  m.state = in.I64();
  m.at_us = in.I64();
  return m;
}

void Pause::Put(Bytes& out) const { out.U64(id); }
Pause Pause::Get(Reader& in) { return {in.U64()}; }

void Paused::Put(Bytes& out) const {
  out.U64(id);
  PutCounts(out, sent_to);
}
Paused Paused::Get(Reader& in) {
  Paused m;
  m.id = in.U64();
  m.sent_to = GetCounts(in);
  return m;
}

void Drain::Put(Bytes& out) const {
  out.U64(id);
  PutCounts(out, expect_from);
}
Drain Drain::Get(Reader& in) {
  Drain m;
  m.id = in.U64();
  m.expect_from = GetCounts(in);
  return m;
}

void Read::Put(Bytes& out) const { out.U64(id).I64(balance).I64(recorded_us); }
Read Read::Get(Reader& in) {
  Read m;
  m.id = in.U64();
  m.balance = in.I64();
  m.recorded_us = in.I64();
  return m;
}

std::string Encode(const BankPayload& message) { return EncodeAny(message); }
std::string Encode(const Control& message) { return EncodeAny(message); }

Control DecodeControl(std::string_view bytes) {
  Reader in(bytes);
  Control m = ByCode<Control>(in.Char(), in);
  if (!in.AtEnd()) {
    throw Fault(Status::Error(Code::kRuntimeBytesLeftOver, Name(m), in.left()));
  }
  return m;
}

BankPayload DecodeBank(Reader& rest) {
  char code = rest.Char();
  return ByCode<BankPayload>(code, rest);
}

const char* Name(const Control& message) {
  constexpr const char* kNames[] = {"Init",  "Start",  "Part",  "Counts", "Stop",   "Final",
                                    "Pause", "Paused", "Drain", "Read",   "Resume", "Abort",
                                    "Query", "Answer", "VertexPart", "VertexFinal", "GiveUp"};
  static_assert(std::size(kNames) == std::variant_size_v<Control>);
  return kNames[message.index()];
}

}  // namespace cutline::runtime::protocol
