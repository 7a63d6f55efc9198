// The vocabulary every snapshot algorithm answers in: ids, the errors, and
// the Step / Reply a host acts on. Included by every rules class.
//
// Thread-safety: plain values; no shared state.
#pragma once

#include <bit>
#include <cstdint>
#include <string_view>

namespace cutline {

// A snapshot's id. 0 names no snapshot (Lai-Yang's epoch before the first
// one); every input given id 0 is refused with kInvalidSnapshot.
using SnapshotId = std::uint64_t;
// Position of a channel in the process's own list of incoming channels (or,
// where a function says "outgoing", of its outgoing channels).
using ChannelIndex = std::uint32_t;

// The recording state of one incoming channel for one snapshot.
// kHeldBack: aligned barriers only; the receiver has a barrier on the channel
// and delivers nothing more from it until its alignment is over.
enum class ChannelRecording : std::uint8_t {
  kNotRecorded,
  kRecording,
  kClosed,
  kHeldBack,
};

// Every refusal of every rules class, agent included. A refused input changes
// nothing, so a host may log it and carry on. New values are only appended:
// the numbers are stable.
enum class AgentError : std::uint8_t {
  kNone,
  // The one-argument legacy Start of old releases answered this (the rules
  // now treat a Start of a running snapshot as joining it); now only aligned
  // barriers' Unalign does, for a snapshot this process has recorded.
  kAlreadyRecorded,
  kUnknownChannel,    // channel index out of range (incoming or outgoing)
  kDuplicateMarker,   // a second marker (control, barrier) of one snapshot on one channel
  kFinished,          // the snapshot was forgotten or aborted here: it stays finished
                      // (an id this process can no longer tell about is kTooOld)
  kSuperseded,        // Lai-Yang: a newer snapshot was recorded here first, so this
                      // one cannot be recorded consistently; abort it everywhere
  kNotSource,         // aligned barriers: Start at a process that has inputs
  kOutOfOrder,        // aligned barriers: a barrier of another snapshot while one is
                      // aligning (initiators started them in different orders); the
                      // barrier is not taken: abort it everywhere and drop it, or
                      // abort the aligning one and deliver it again (barrier_rules.h)
  kChannelHeld,       // aligned barriers: a message delivered from a held-back channel
  kInvalidSnapshot,   // snapshot id 0
  kUnknownSnapshot,   // Forget / ControlFor / RecordOvertaken: not recorded here
  kNotDone,           // Forget of a snapshot whose part is not done (Abort it instead)
  // Added in 0.3: the answers that used to be silence.
  kTooOld,            // older than the finished ids this process remembers (IdLimits::
                      // closed_window): it may have finished here or never have been
                      // seen, so it cannot be recorded; if this process's part of it
                      // was never collected, the snapshot can never complete: abort it
  kTooFarAhead,       // an id or stamp more than IdLimits::ahead_max above the newest id
                      // this process has seen: garbage, or a host bug; drop the input
  kCountMismatch,     // Lai-Yang: a control's count disagrees with the messages that
                      // arrived (fewer counted than arrived), or with another count on
                      // its channel: the snapshot r.snapshot cannot be right; abort it
                      // everywhere
  // Added in 0.4.
  kOverdue,           // SnapshotAgent::TakeOverdue: the part of r.snapshot is still
                      // unfinished here after more than IdLimits::running_max newer
                      // snapshots recorded (a Lai-Yang count too high, a lost marker):
                      // abort it everywhere
};

// A stable name for logs and tests ("unknown_channel"). Words for people
// belong to the host's message catalogue, keyed by the enum.
constexpr std::string_view ToString(AgentError e) {
  switch (e) {
    case AgentError::kNone: return "none";
    case AgentError::kAlreadyRecorded: return "already_recorded";
    case AgentError::kUnknownChannel: return "unknown_channel";
    case AgentError::kDuplicateMarker: return "duplicate_marker";
    case AgentError::kFinished: return "finished";
    case AgentError::kSuperseded: return "superseded";
    case AgentError::kNotSource: return "not_source";
    case AgentError::kOutOfOrder: return "out_of_order";
    case AgentError::kChannelHeld: return "channel_held";
    case AgentError::kInvalidSnapshot: return "invalid_snapshot";
    case AgentError::kUnknownSnapshot: return "unknown_snapshot";
    case AgentError::kNotDone: return "not_done";
    case AgentError::kTooOld: return "too_old";
    case AgentError::kTooFarAhead: return "too_far_ahead";
    case AgentError::kCountMismatch: return "count_mismatch";
    case AgentError::kOverdue: return "overdue";
  }
  return "unknown_error";
}

constexpr std::string_view ToString(ChannelRecording r) {
  switch (r) {
    case ChannelRecording::kNotRecorded: return "not_recorded";
    case ChannelRecording::kRecording: return "recording";
    case ChannelRecording::kClosed: return "closed";
    case ChannelRecording::kHeldBack: return "held_back";
  }
  return "unknown_recording";
}

// What one input obliges the host to do, in this order:
//  1. if record_state: record the local state now and send a marker of the
//     snapshot on every outgoing channel, before sending anything else;
//  2. if closed_channel: that incoming channel's recording is final (it was
//     recorded empty when record_state is also set);
//  3. if part_done: this process has a marker from every incoming channel
//     (also_done: and so many more parts finished with it).
// The variants (lai_yang_rules.h, barrier_rules.h) answer with the same Step
// and use the further fields; Chandy-Lamport leaves them false:
//  - markers_ahead (unaligned barriers): the markers go ahead of the
//    application messages waiting on each outgoing channel, behind any
//    marker queued there already (UnalignedBarrierPlace), and what they
//    overtake belongs to that channel's recorded state;
//  - hold_channel (aligned barriers): deliver nothing more from the channel
//    the marker came on until release_inputs;
//  - release_inputs (aligned barriers): every incoming channel may deliver
//    again (also after Abort of an aligning snapshot).
// Eight bytes, aligned as one word: a host builds a Step in a register and
// passes it on by reference; at seven bytes g++ stored it byte by byte and
// read it back whole, a stalled store every marker (docs/performance.md).
struct alignas(8) Step {
  AgentError error = AgentError::kNone;
  bool record_state = false;
  bool closed_channel = false;
  bool part_done = false;
  bool markers_ahead = false;
  bool hold_channel = false;
  bool release_inputs = false;
  // How many parts this input finished besides the one `snapshot` names
  // (a Reply's): a Lai-Yang message may close the channel of several
  // snapshots at once (SnapshotAgent::OnMessage; 255 means 255 or more).
  // TakeFinished hands them all over. Also fills the word, so that a Step is
  // exactly one 64-bit value with no padding (Reply::Of builds a Reply from
  // two words).
  std::uint8_t also_done = 0;

  bool ok() const { return error == AgentError::kNone; }
};

namespace detail {
// The few older calls that cannot answer with an error value (they return a
// bare number) stop the program when called wrong, in every build: prints
// "cutline: <what>" to stderr and aborts. A silent wrong answer would be
// worse. Defined in src/core/contract.cc.
[[noreturn]] void ContractViolated(const char* what);

// A Step as its one 64-bit word, and each flag's bit in it. Code on a hot
// path tests and sets flags on the word: a field read or written makes g++
// split a Step it holds in a register into its eight bytes and join them
// again to pass it on, some 40 instructions every marker
// (docs/performance.md). Not part of the API.
constexpr std::uint64_t StepWord(const Step& s) { return std::bit_cast<std::uint64_t>(s); }
template <bool Step::*kFlag>
inline constexpr std::uint64_t kStepBit = [] {
  Step s;
  s.*kFlag = true;
  return std::bit_cast<std::uint64_t>(s);
}();
// Nonzero in the word iff error != kNone.
inline constexpr std::uint64_t kStepError = [] {
  Step s;
  s.error = static_cast<AgentError>(0xff);
  return std::bit_cast<std::uint64_t>(s);
}();
}  // namespace detail

// A Step that names the snapshot it is about: the answer of every input of
// every rules class (SnapshotRules). Sixteen bytes, returned in two
// registers. A Reply is a Step, so code written against Step keeps working.
// On an error, `snapshot` is the id the input named (0 if none).
struct Reply : Step {
  SnapshotId snapshot = 0;

  // Built from two whole words rather than field by field: g++ otherwise
  // stores the Step byte by byte on the stack and reloads it as one word to
  // return it, a stalled store on every marker (2.5 times slower).
  static Reply Of(SnapshotId id, const Step& step = Step{}) {
    struct Words {
      std::uint64_t step, id;
    };
    return std::bit_cast<Reply>(Words{std::bit_cast<std::uint64_t>(step), id});
  }
  static Reply Refused(AgentError e, SnapshotId id) {
    Step step;
    step.error = e;
    return Of(id, step);
  }
};

// A value or the error that stands in for it (what to stamp on a message,
// what to put in a control message).
template <class T>
struct Result {
  AgentError error = AgentError::kNone;
  T value{};

  bool ok() const { return error == AgentError::kNone; }
};

// What rides on an application message or a control message for the
// algorithms that need nothing there (all but Lai-Yang).
struct NoStamp {
  friend bool operator==(NoStamp, NoStamp) { return true; }
};
struct NoControl {
  friend bool operator==(NoControl, NoControl) { return true; }
};

}  // namespace cutline
