// Status: an operation's outcome as a value. A refusal is a stable code, the
// values it concerns and (once the runner knows it) the scenario line; the
// sentence a person reads is made from these at the edge, in their language
// (src/scenario/messages.h). Every module below the edge speaks only codes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "base/check.h"

namespace cutline {

// Every refusal the project can give: the code, its stable name, and the
// kinds of its arguments in order ("s" a word, "n" a number), which the
// comment names. Names are part of the API ("code" in an error body): add
// new codes, never rename or reuse one.
#define CUTLINE_ERROR_CODES(X)                                               \
  /* network: what a network command or Engine::Create refuses */            \
  X(kNetworkTooSmall, "network_too_small", "")                               \
  X(kTooManyBranches, "too_many_branches", "")                               \
  X(kInvalidBranchName, "invalid_branch_name", "s")  /* name */              \
  X(kBranchDeclaredTwice, "branch_declared_twice", "s")  /* name */          \
  X(kNegativeBalance, "negative_balance", "s")  /* name */                   \
  X(kTotalOverflow, "total_overflow", "")                                    \
  X(kLinkUnknownBranch, "link_unknown_branch", "s")  /* name */              \
  X(kLinkSelfLoop, "link_self_loop", "ss")  /* from, to */                   \
  X(kLinkTwice, "link_twice", "ss")  /* from, to */                          \
  X(kBadLink, "bad_link", "s")  /* text */                                   \
  X(kOptionTwice, "option_twice", "s")  /* option */                         \
  X(kCapacityOutOfRange, "capacity_out_of_range", "n")  /* max */            \
  X(kBadSnapshotsMode, "bad_snapshots_mode", "s")  /* value */               \
  X(kNotBranchOrOption, "not_branch_or_option", "s")  /* word */             \
  X(kUnknownNetworkOption, "unknown_network_option", "s")  /* key */         \
  X(kExpectedBranchOrOption, "expected_branch_or_option", "s")  /* word */   \
  /* words and numbers */                                                    \
  X(kNotAWholeNumber, "not_a_whole_number", "ss")  /* field, text */         \
  X(kNumberTooLarge, "number_too_large", "ss")  /* field, text */            \
  X(kUnknownCommand, "unknown_command", "s")  /* verb */                     \
  X(kUnknownOption, "unknown_option", "s")  /* option */                     \
  X(kWrongArity, "wrong_arity", "ss")  /* verb, usage */                     \
  X(kTakesNoArguments, "takes_no_arguments", "s")  /* verb */                \
  /* the run */                                                              \
  X(kNetworkFirst, "network_first", "")                                      \
  X(kNetworkTwice, "network_twice", "n")  /* first line */                   \
  X(kNoNetwork, "no_network", "")                                            \
  X(kUnknownBranch, "unknown_branch", "s")  /* name */                       \
  X(kNoBranchNumber, "no_branch_number", "n")  /* number */                  \
  X(kChannelToItself, "channel_to_itself", "s")  /* name */                  \
  X(kNoChannel, "no_channel", "ss")  /* from, to */                          \
  X(kAmountTooSmall, "amount_too_small", "")                                 \
  X(kInsufficientFunds, "insufficient_funds", "snn")  /* from, has, amount */\
  X(kChannelFull, "channel_full", "ssn")  /* from, to, capacity */           \
  X(kChannelEmpty, "channel_empty", "ss")  /* from, to */                    \
  X(kNothingInFlight, "nothing_in_flight", "")                               \
  X(kSnapshotNotStarted, "snapshot_not_started", "n")  /* id */              \
  X(kSnapshotComplete, "snapshot_complete", "n")  /* id */                   \
  X(kAlreadyRecorded, "already_recorded", "sn")  /* branch, id */            \
  X(kSnapshotRunning, "snapshot_running", "n")  /* id */                     \
  /* a cut drawn on the space-time diagram (POST /api/cut) */               \
  X(kCutWrongSize, "cut_wrong_size", "nn")  /* points given, branches */     \
  X(kCutPastEnd, "cut_past_end", "snn")  /* branch, point, its events */     \
  X(kCutBadPoint, "cut_bad_point", "ss")  /* branch, point as given */      \
  /* the variants (scenario language v2) */                                  \
  X(kAtOnFifo, "at_on_fifo", "ssn")  /* from, to, k */                       \
  X(kAtOutOfRange, "at_out_of_range", "ssnn")  /* from, to, k, waiting */    \
  X(kManySnapshotsNeedCl, "many_snapshots_need_chandy_lamport", "s")         \
    /* algorithm */                                                          \
  X(kBarriersNeedFifo, "barriers_need_fifo", "s")  /* algorithm */           \
  X(kAlignedCycle, "aligned_cycle", "s")  /* the cycle, P1->P2->P1 */        \
  X(kAlignedNotSource, "aligned_not_source", "s")  /* branch */              \
  X(kChannelHeldBack, "channel_held_back", "ssns")                           \
    /* from, to (the branch aligning), snapshot, barriers awaited */         \
  X(kStopWhileSnapshot, "stop_while_snapshot", "n")  /* id */                \
  X(kNothingDeliverable, "nothing_deliverable", "")                          \
  /* the applications (app=, docs/scenario-language.md) */                   \
  X(kWrongApp, "wrong_app", "sss")  /* verb, its app, the network's app */   \
  X(kLocksStartActive, "locks_start_active", "s")  /* branch */              \
  X(kIdleHandsOut, "idle_hands_out", "s")  /* from */                        \
  X(kNoJobToFinish, "no_job_to_finish", "s")  /* branch */                   \
  X(kAlreadyWaiting, "already_waiting", "ss")  /* from, whom it waits for */ \
  X(kGrantWhileWaiting, "grant_while_waiting", "ss")  /* from, whom */       \
  X(kNoRequestToGrant, "no_request_to_grant", "ss")  /* from, to */          \
  /* limits of one run (Limits) */                                           \
  X(kBranchLimit, "branch_limit", "n")  /* max */                            \
  X(kCommandLimit, "command_limit", "n")  /* max */                          \
  X(kEventLimit, "event_limit", "n")  /* max */

enum class Code : std::uint8_t {
  kOk,
#define CUTLINE_CODE_ENUM(name, text, args) name,
  CUTLINE_ERROR_CODES(CUTLINE_CODE_ENUM)
#undef CUTLINE_CODE_ENUM
};

// Every refusal code, in declaration order (for tests that walk them all).
inline constexpr Code kAllErrorCodes[] = {
#define CUTLINE_CODE_LIST(name, text, args) Code::name,
    CUTLINE_ERROR_CODES(CUTLINE_CODE_LIST)
#undef CUTLINE_CODE_LIST
};

// The stable name ("insufficient_funds"); "ok" for kOk.
inline std::string_view CodeName(Code code) {
  switch (code) {
    case Code::kOk:
      return "ok";
#define CUTLINE_CODE_NAME(name, text, args) \
  case Code::name:                    \
    return text;
      CUTLINE_ERROR_CODES(CUTLINE_CODE_NAME)
#undef CUTLINE_CODE_NAME
  }
  return "?";
}

// The kinds of a code's arguments, e.g. "snn" for kInsufficientFunds.
inline std::string_view ArgKinds(Code code) {
  switch (code) {
    case Code::kOk:
      return "";
#define CUTLINE_CODE_ARGS(name, text, args) \
  case Code::name:                          \
    return args;
      CUTLINE_ERROR_CODES(CUTLINE_CODE_ARGS)
#undef CUTLINE_CODE_ARGS
  }
  return "";
}

// A word (a name, the text that was refused) or a number.
using ErrorArg = std::variant<std::int64_t, std::string>;

class [[nodiscard]] Status {
 public:
  static Status Ok() { return Status(); }
  template <class... Args>
  static Status Error(Code code, Args&&... args) {
    CUTLINE_CHECK(sizeof...(Args) == ArgKinds(code).size());
    Status s;
    s.code_ = code;
    (s.args_.push_back(Arg(std::forward<Args>(args))), ...);
    return s;
  }

  // The same from arguments gathered at run time.
  // REQUIRES: their kinds are ArgKinds(code).
  static Status Error(Code code, std::vector<ErrorArg> args) {
    CUTLINE_CHECK(args.size() == ArgKinds(code).size());
    Status s;
    s.code_ = code;
    s.args_ = std::move(args);
    return s;
  }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::vector<ErrorArg>& args() const { return args_; }
  // REQUIRES: argument i exists and has that type (see the code's comment).
  const std::string& word(std::size_t i) const {
    return std::get<std::string>(args_.at(i));
  }
  std::int64_t number(std::size_t i) const {
    return std::get<std::int64_t>(args_.at(i));
  }
  // The scenario line at fault; 0 when no line is (or not yet known).
  int line() const { return line_; }
  Status AtLine(int line) && {
    line_ = line;
    return std::move(*this);
  }

 private:
  Status() = default;
  static ErrorArg Arg(std::string_view s) { return std::string(s); }
  static ErrorArg Arg(const std::string& s) { return s; }
  static ErrorArg Arg(std::string&& s) { return std::move(s); }
  static ErrorArg Arg(const char* s) { return std::string(s); }
  template <class N>
    requires std::is_integral_v<N>
  static ErrorArg Arg(N n) {
    return static_cast<std::int64_t>(n);
  }

  Code code_ = Code::kOk;
  std::vector<ErrorArg> args_;
  int line_ = 0;
};

}  // namespace cutline
