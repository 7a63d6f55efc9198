// The runtime's messages as typed values: what travels inside a bank frame
// (a transfer, the end of a stream) and the control protocol between a rank
// and the coordinator. Each message has exactly one encoder (`Put`) and one
// decoder (`Get`); Encode/Decode add the one-byte code in front and are the
// only place that maps codes to types. Integers are cutline/wire.h's
// little-endian. A dataflow (--app dataflow) uses the same channels and
// control for its records, credits and parts. No MPI here: the bytes are the transport's business.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/amount.h"
#include "cutline/collector.h"
#include "cutline/marker_rules.h"
#include "dataflow/vertex.h"
#include "runtime/bytes.h"

namespace cutline::runtime::protocol {

// --- inside a bank frame (wire::EncodeApplication) ----------------------

// Money on its way (or, for jobs and locks, the application's message
// word: a job, a request, a grant). When logging, the sender's vector clock follows the
// transfer's bytes (EventLog reads it from the same Reader).
struct Transfer {
  static constexpr char kCode = 'T';
  Amount amount = 0;
  void Put(Bytes& out) const;
  static Transfer Get(Reader& in);
  bool operator==(const Transfer&) const = default;
};

// The sender will send no more transfers on this channel.
struct EndOfStream {
  static constexpr char kCode = 'E';
  void Put(Bytes&) const {}
  static EndOfStream Get(Reader&) { return {}; }
  bool operator==(const EndOfStream&) const = default;
};

// A dataflow's record on its way to the next stage (--app dataflow): its
// key. It takes one of the receiver's buffers (the sender spent a credit).
struct Record {
  static constexpr char kCode = 'K';
  std::uint64_t key = 0;
  void Put(Bytes& out) const;
  static Record Get(Reader& in);
  bool operator==(const Record&) const = default;
};

// A dataflow's receiver gives its sender `n` credits back: it processed
// that many records and freed their buffers.
struct Credit {
  static constexpr char kCode = 'c';
  std::uint32_t n = 0;
  void Put(Bytes& out) const;
  static Credit Get(Reader& in);
  bool operator==(const Credit&) const = default;
};

using BankPayload = std::variant<Transfer, EndOfStream, Record, Credit>;

// --- beside a transfer or a marker, for rules that have them -------------

// The stamp of a transfer under rules that stamp one (Lai-Yang's: the
// sender's epoch, its rules' OnOutgoing), right behind the Transfer's
// bytes and ahead of a logged clock. Rules without a stamp put no bytes
// there; the receiver knows which from its own rules (every rank runs the
// same), so a Chandy-Lamport transfer is the bytes it always was.
struct TransferStamp {
  std::uint64_t stamp = 0;
  void Put(Bytes& out) const;
  static TransferStamp Get(Reader& in);
  bool operator==(const TransferStamp&) const = default;
};

// What a marker carries (in wire::EncodeMarker's host bytes) for rules whose controls hold a count (Lai-Yang's:
// the transfers its sender sent on the channel before recording), ahead of
// a logged clock. Markers of rules without one carry no bytes for it; the
// receiver knows which from its own rules (every rank runs the same).
struct MarkerCount {
  std::uint64_t count = 0;
  void Put(Bytes& out) const;
  static MarkerCount Get(Reader& in);
  bool operator==(const MarkerCount&) const = default;
};

// What a dataflow's barrier carries (in wire::EncodeMarker's host bytes):
// when its snapshot started at the sources, from which the alignment
// timeout counts (dataflow/vertex.h).
struct BarrierStart {
  std::int64_t started_us = 0;
  void Put(Bytes& out) const;
  static BarrierStart Get(Reader& in);
  bool operator==(const BarrierStart&) const = default;
};

// --- control (the ctl communicator) --------------------------------------

// Coordinator -> rank, first of all: the balance to start with, and for a
// restored run the transfers this rank must re-send first, by receiver. A
// restored dataflow's vertex: its recorded state (dataflow::EncodeState's
// bytes; empty for a fresh one) and the keys of the records in flight on
// its outputs, which it sends first.
struct Init {
  static constexpr char kCode = 'I';
  struct Resend {
    std::uint32_t to = 0;
    std::vector<Amount> transfers;
    bool operator==(const Resend&) const = default;
  };
  Amount balance = 0;
  std::vector<Resend> resend;
  std::string state;
  void Put(Bytes& out) const;
  static Init Get(Reader& in);
  bool operator==(const Init&) const = default;
};

// Coordinator -> initiator: start snapshot `id`.
struct Start {
  static constexpr char kCode = 'S';
  SnapshotId id = 0;
  void Put(Bytes& out) const;
  static Start Get(Reader& in);
  bool operator==(const Start&) const = default;
};

// Rank -> coordinator: its part of snapshot `id`. What it recorded travels
// in the library's own part format (wire::EncodePart, the one a host of the
// library sends), and the rank's timings follow it. Times are microseconds
// since the epoch on the rank's own clock (one host: one clock).
struct Part {
  static constexpr char kCode = 'P';
  SnapshotId id = 0;
  std::uint32_t rank = 0;  // the sender, as the wire part names it
  // The recorded state and, by incoming channel index, the transfers
  // recorded on each channel in arrival order.
  SnapshotPart<Amount, Amount> recorded;
  std::int64_t recorded_us = 0;        // when the rank recorded its state
  std::vector<std::int64_t> marker_us;  // by incoming channel: when its marker came (it closed)
  void Put(Bytes& out) const;
  static Part Get(Reader& in);
  bool operator==(const Part&) const = default;
};

// Rank -> coordinator: transfers sent so far (for the status line).
struct Counts {
  static constexpr char kCode = 'C';
  std::uint64_t sent = 0;
  void Put(Bytes& out) const;
  static Counts Get(Reader& in);
  bool operator==(const Counts&) const = default;
};

// Coordinator -> rank: stop sending, end every channel, report.
struct Stop {
  static constexpr char kCode = 'X';
  void Put(Bytes&) const {}
  static Stop Get(Reader&) { return {}; }
  bool operator==(const Stop&) const = default;
};

// Rank -> coordinator: every transfer sent to it has arrived. For jobs and
// locks, `balance` is the final state word and `changed_us` when it last
// changed (the rank's clock): the truth the detectors are judged by.
struct Final {
  static constexpr char kCode = 'F';
  std::uint64_t sent = 0;
  Amount balance = 0;
  std::int64_t changed_us = 0;
  void Put(Bytes& out) const;
  static Final Get(Reader& in);
  bool operator==(const Final&) const = default;
};

// Stop-the-world, coordinator -> every rank: stop sending, say what you sent.
struct Pause {
  static constexpr char kCode = 'W';
  SnapshotId id = 0;
  void Put(Bytes& out) const;
  static Pause Get(Reader& in);
  bool operator==(const Pause&) const = default;
};

// Rank -> coordinator: transfers sent so far, by receiver rank.
struct Paused {
  static constexpr char kCode = 'w';
  SnapshotId id = 0;
  std::vector<std::uint64_t> sent_to;
  void Put(Bytes& out) const;
  static Paused Get(Reader& in);
  bool operator==(const Paused&) const = default;
};

// Coordinator -> rank: once this many transfers have come from each rank,
// the channels are empty: read the balance.
struct Drain {
  static constexpr char kCode = 'D';
  SnapshotId id = 0;
  std::vector<std::uint64_t> expect_from;
  void Put(Bytes& out) const;
  static Drain Get(Reader& in);
  bool operator==(const Drain&) const = default;
};

// Rank -> coordinator: its balance with its channels empty.
struct Read {
  static constexpr char kCode = 'r';
  SnapshotId id = 0;
  Amount balance = 0;
  std::int64_t recorded_us = 0;
  void Put(Bytes& out) const;
  static Read Get(Reader& in);
  bool operator==(const Read&) const = default;
};

// Coordinator -> every rank: carry on.
struct Resume {
  static constexpr char kCode = 'R';
  void Put(Bytes&) const {}
  static Resume Get(Reader&) { return {}; }
  bool operator==(const Resume&) const = default;
};

// Coordinator -> every rank: snapshot `id` is given up (it outlived
// --snapshot-timeout). Each rank frees what it recorded for it and ignores
// its later markers.
struct Abort {
  static constexpr char kCode = 'G';  // give up
  SnapshotId id = 0;
  void Put(Bytes& out) const;
  static Abort Get(Reader& in);
  bool operator==(const Abort&) const = default;
};

// The naive detector (jobs, locks), coordinator -> one rank: what is your
// state now? Asked of one rank after another, never of all at once.
struct Query {
  static constexpr char kCode = 'Q';
  std::uint64_t round = 0;
  void Put(Bytes& out) const;
  static Query Get(Reader& in);
  bool operator==(const Query&) const = default;
};

// Rank -> coordinator: its state word when the Query came, and when.
struct Answer {
  static constexpr char kCode = 'A';
  std::uint64_t round = 0;
  Amount state = 0;
  std::int64_t at_us = 0;
  void Put(Bytes& out) const;
  static Answer Get(Reader& in);
  bool operator==(const Answer&) const = default;
};

// Rank -> coordinator: snapshot `id` cannot complete consistently (its
// rules refused it here: Lai-Yang's count proved wrong, or a newer snapshot
// superseded it). The coordinator gives it up on every rank, as at
// --snapshot-timeout but at once.
struct GiveUp {
  static constexpr char kCode = 'g';
  SnapshotId id = 0;
  void Put(Bytes& out) const;
  static GiveUp Get(Reader& in);
  bool operator==(const GiveUp&) const = default;
};

// A dataflow vertex -> coordinator: its part of snapshot `id` (its state
// and the keys it holds in flight, dataflow::EncodeState in the library's
// wire part) and what the snapshot cost it.
struct VertexPart {
  static constexpr char kCode = 'V';
  SnapshotId id = 0;
  std::uint32_t rank = 0;
  dataflow::Part recorded;
  dataflow::SnapshotCost cost;
  void Put(Bytes& out) const;
  static VertexPart Get(Reader& in);
  bool operator==(const VertexPart&) const = default;
};

// A dataflow vertex -> coordinator, at the end: every record that reached
// it was processed and every record it sent was taken (its credits came
// back). What it emitted and received in all.
struct VertexFinal {
  static constexpr char kCode = 'v';
  std::uint64_t emitted = 0;
  std::uint64_t received = 0;
  void Put(Bytes& out) const;
  static VertexFinal Get(Reader& in);
  bool operator==(const VertexFinal&) const = default;
};

using Control = std::variant<Init, Start, Part, Counts, Stop, Final, Pause, Paused, Drain, Read,
                             Resume, Abort, Query, Answer, VertexPart, VertexFinal, GiveUp>;

std::string Encode(const BankPayload& message);
std::string Encode(const Control& message);

// The message in `bytes`. Throws a Fault (runtime/fault.h) for an unknown
// code, a message that ends early or one with bytes left over: between
// ranks of one cutline, any of those is a bug.
Control DecodeControl(std::string_view bytes);
// A bank payload; what follows it (a logged clock) is left in `*rest`.
BankPayload DecodeBank(Reader& rest);

// The message's name, for errors ("Part", "Drain", ...).
const char* Name(const Control& message);

}  // namespace cutline::runtime::protocol
