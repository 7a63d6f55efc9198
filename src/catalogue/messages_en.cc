// The English catalogue: one sentence per refusal code, and the words the
// algorithms choose by code.
#include <fmt/format.h>

#include "apps/bank/money.h"
#include "catalogue/messages.h"

namespace cutline::catalogue {

std::string EnglishAtLine(int line, const std::string& reason) {
  return fmt::format("line {}: {}", line, reason);
}

// One function per group of status.h's codes (CodeGroup), so that no switch
// holds them all; EnglishReason dispatches.
namespace {

// The network line's refusals (and Engine::Create's): branches, links= and options.
std::string EnglishNetworkReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kNetworkTooSmall:
      return "a network needs at least 2 branches";
    case Code::kTooManyBranches:
      return "too many branches";
    case Code::kInvalidBranchName:
      return fmt::format("'{}' is not a valid branch name", w(0));
    case Code::kBranchDeclaredTwice:
      return fmt::format("branch {} is declared twice", w(0));
    case Code::kNegativeBalance:
      return fmt::format("branch {} has a negative balance", w(0));
    case Code::kTotalOverflow:
      return "the bank's total does not fit in 64 bits";
    case Code::kLinkUnknownBranch:
      return fmt::format("links= names unknown branch {}", w(0));
    case Code::kLinkSelfLoop:
      return fmt::format("links= has a self-loop {}>{}", w(0), w(1));
    case Code::kLinkTwice:
      return fmt::format("links= lists {}>{} twice", w(0), w(1));
    case Code::kBadLink:
      return fmt::format("links= expects FROM>TO pairs, got '{}'", w(0));
    case Code::kOptionTwice:
      return fmt::format("{}= is given twice", w(0));
    case Code::kCapacityOutOfRange:
      return fmt::format("capacity must be between 1 and {}", n(0));
    case Code::kBadSnapshotsMode:
      return fmt::format("snapshots= must be one or many, not '{}'", w(0));
    case Code::kNotBranchOrOption:
      return fmt::format("'{}' is neither a branch name nor an option", w(0));
    case Code::kUnknownNetworkOption:
      return fmt::format(
          "unknown option '{}' (a balance must be a whole number)", w(0));
    case Code::kExpectedBranchOrOption:
      return fmt::format("expected NAME=BALANCE or an option, got '{}'", w(0));
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

// Words and numbers the parser cannot read: commands, options, usage, amounts.
std::string EnglishWordsReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  switch (s.code()) {
    case Code::kNotAWholeNumber:
      return fmt::format("{} '{}' is not a whole number (digits only)", w(0),
                         w(1));
    case Code::kNumberTooLarge:
      return fmt::format("{} '{}' does not fit in a signed 64-bit integer",
                         w(0), w(1));
    case Code::kUnknownCommand:
      return fmt::format("unknown command '{}'", w(0));
    case Code::kUnknownOption:
      return fmt::format("unknown option '{}'", w(0));
    case Code::kWrongArity:
      return fmt::format("{} expects: {}", w(0), w(1));
    case Code::kTakesNoArguments:
      return fmt::format("{} expects: {} (no arguments)", w(0), w(0));
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

// The run's refusals: a command naming what is not there, or not possible now.
std::string EnglishRunReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kNetworkFirst:
      return "the first command must be network";
    case Code::kNetworkTwice:
      return fmt::format("network is given twice (first on line {})", n(0));
    case Code::kNoNetwork:
      return "the scenario has no network command";
    case Code::kUnknownBranch:
      return fmt::format("unknown branch {}", w(0));
    case Code::kNoBranchNumber:
      return fmt::format("there is no branch number {}", n(0));
    case Code::kChannelToItself:
      return fmt::format("there is no channel from {} to itself", w(0));
    case Code::kNoChannel:
      return fmt::format("there is no channel {}", ChannelText(w(0), w(1)));
    case Code::kAmountTooSmall:
      return "a transfer must be at least " + apps::Money(1);
    case Code::kInsufficientFunds:
      return fmt::format("{} has only {}, cannot send {}", w(0),
                         apps::Money(n(1)), apps::Money(n(2)));
    case Code::kChannelFull:
      return fmt::format("channel {} is full: it already holds {} transfer{}",
                         ChannelText(w(0), w(1)), n(2), n(2) == 1 ? "" : "s");
    case Code::kChannelEmpty:
      return fmt::format("channel {} is empty, nothing to deliver", ChannelText(w(0), w(1)));
    case Code::kNothingInFlight:
      return "nothing is in flight, nothing to deliver";
    case Code::kSnapshotNotStarted:
      return fmt::format("snapshot {} was never started", n(0));
    case Code::kSnapshotComplete:
      return fmt::format("snapshot {} is already complete", n(0));
    case Code::kAlreadyRecorded:
      return fmt::format("{} has already recorded for snapshot {}", w(0), n(1));
    case Code::kSnapshotRunning:
      return fmt::format(
          "snapshot {} is still running (snapshots=one); join it with id={}",
          n(0), n(0));
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

// A cut drawn on the space-time diagram (POST /api/cut) that is no cut.
std::string EnglishCutReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kCutWrongSize:
      return fmt::format("a cut needs one point per branch: {} given for {} branches",
                         n(0), n(1));
    case Code::kCutPastEnd:
      return fmt::format("the cut's point {} on {} is past its last event (at most {})",
                         n(1), w(0), n(2));
    case Code::kCutBadPoint:
      return fmt::format("the cut's point {} on {} is not a whole number of events (0 or more)",
                         w(1), w(0));
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

// The variants' refusals (scenario language v2): fifo=, at= and the algorithms' rules.
std::string EnglishVariantReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kAtOnFifo:
      return fmt::format(
          "channel {} is FIFO: only its oldest message can be delivered, "
          "not at={} (fifo=no lets channels reorder)",
          ChannelText(w(0), w(1)), n(2));
    case Code::kAtOutOfRange:
      return fmt::format(
          "at={} on {}: the channel holds {} message{}, counted from "
          "at=1 (the oldest)",
          n(2), ChannelText(w(0), w(1)), n(3), n(3) == 1 ? "" : "s");
    case Code::kManySnapshotsNeedCl:
      return fmt::format(
          "snapshots=many needs algorithm=chandy-lamport: {} runs one "
          "snapshot at a time",
          w(0));
    case Code::kBarriersNeedFifo:
      return fmt::format(
          "algorithm={} needs FIFO channels: barriers cannot work with "
          "fifo=no",
          w(0));
    case Code::kAlignedCycle:
      return fmt::format(
          "algorithm=aligned needs a network without cycles, but {} is one: "
          "aligned barriers would wait on each other forever there",
          w(0));
    case Code::kAlignedNotSource:
      return fmt::format(
          "under algorithm=aligned only a branch with no incoming channel "
          "starts a snapshot, and {} has some (sources join one with id=)",
          w(0));
    case Code::kChannelHeldBack:
      return fmt::format(
          "channel {} is held back: {} is aligning snapshot {} and still "
          "waits for barriers on {}",
          ChannelText(w(0), w(1)), w(1), n(2), w(3));
    case Code::kStopWhileSnapshot:
      return fmt::format(
          "stop-the-world cannot run while snapshot {} is running", n(0));
    case Code::kNothingDeliverable:
      return "nothing can be delivered now: every message in flight waits "
             "behind a barrier";
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

// The applications' refusals (app=): a command of another app, or out of turn.
std::string EnglishAppReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  switch (s.code()) {
    case Code::kWrongApp:
      return fmt::format("'{}' is a command of app={}, and this network runs app={}",
                         w(0), w(1), w(2));
    case Code::kLocksStartActive:
      return fmt::format("under app=locks every branch starts active: write {} or {}=0",
                         w(0), w(0));
    case Code::kIdleHandsOut:
      return fmt::format("{} is idle: only a busy branch hands out work", w(0));
    case Code::kNoJobToFinish:
      return fmt::format("{} holds no job to finish", w(0));
    case Code::kAlreadyWaiting:
      return fmt::format("{} is already waiting for {}", w(0), w(1));
    case Code::kGrantWhileWaiting:
      return fmt::format("{} is waiting for {}, and a waiting branch grants nothing",
                         w(0), w(1));
    case Code::kNoRequestToGrant:
      return fmt::format("{} holds no unanswered request from {}", w(0), w(1));
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

// The limits of one run (Limits): branches, commands and events.
std::string EnglishLimitReason(const Status& s) {
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kBranchLimit:
      return fmt::format("at most {} branches are allowed here", n(0));
    case Code::kCommandLimit:
      return fmt::format("at most {} commands are allowed here", n(0));
    case Code::kEventLimit:
      return fmt::format("the run is over {} events, more than allowed here",
                         n(0));
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

}  // namespace

std::string EnglishReason(const Status& s) {
  switch (GroupOf(s.code())) {
    case CodeGroup::kOk:
      return "ok";
    case CodeGroup::kNetwork:
      return EnglishNetworkReason(s);
    case CodeGroup::kWords:
      return EnglishWordsReason(s);
    case CodeGroup::kRun:
      return EnglishRunReason(s);
    case CodeGroup::kCut:
      return EnglishCutReason(s);
    case CodeGroup::kVariants:
      return EnglishVariantReason(s);
    case CodeGroup::kApps:
      return EnglishAppReason(s);
    case CodeGroup::kLimits:
      return EnglishLimitReason(s);
    case CodeGroup::kStore:
      return EnglishStoreReason(s);
    case CodeGroup::kRestore:
      return EnglishRestoreReason(s);
    case CodeGroup::kOptions:
      return EnglishOptionsReason(s);
    case CodeGroup::kServe:
      return EnglishServeReason(s);
    case CodeGroup::kLecture:
      return EnglishLectureReason(s);
    case CodeGroup::kVerify:
      return EnglishVerifyReason(s);
    case CodeGroup::kLogs:
      return EnglishLogsReason(s);
    case CodeGroup::kRuntime:
      return EnglishRuntimeReason(s);
    case CodeGroup::kTest:
      return EnglishTestReason(s);
  }
  return std::string(CodeName(s.code()));
}

// The words the algorithms choose (algorithms/words.h).

std::string EnglishMarkerWord(algorithms::MarkerNoun noun, bool plural) {
  using algorithms::MarkerNoun;
  switch (noun) {
    case MarkerNoun::kMarker: return plural ? "markers" : "marker";
    case MarkerNoun::kControlMessage:
      return plural ? "control messages" : "control message";
    case MarkerNoun::kBarrier: return plural ? "barriers" : "barrier";
  }
  return "marker";
}

std::string EnglishRuleNote(algorithms::RuleNote note) {
  using algorithms::RuleNote;
  switch (note) {
    case RuleNote::kNone: return "";
    case RuleNote::kLaiYang: return ", Lai-Yang snapshots";
    case RuleNote::kAligned: return ", aligned barriers";
    case RuleNote::kUnaligned: return ", unaligned barriers";
  }
  return "";
}

std::string EnglishFirstMarker(algorithms::FirstMarkerTale tale, const MarkerTale& t) {
  using algorithms::FirstMarkerTale;
  switch (tale) {
    case FirstMarkerTale::kAlignsAndRecords:
      return fmt::format(
          "{} receives {}'s barrier of snapshot {}, its last: aligned, it records {}, {}; "
          "every input is closed empty and released",
          t.to, t.from, t.id, t.balance, t.markers);
    case FirstMarkerTale::kRecordsWithCount:
      // Whether the channel closes is the count's to say (told at the close).
      return fmt::format(
          "{} receives {}'s control message of snapshot {}, its first (count {}): "
          "records {}, {}",
          t.to, t.from, t.id, t.count, t.balance, t.markers);
    case FirstMarkerTale::kRecordsChannelEmpty:
      break;
  }
  return fmt::format("{} receives {}'s {} of snapshot {}, its first: records {}, {}; "
                     "{} is recorded as empty",
                     t.to, t.from, t.marker, t.id, t.balance, t.markers, t.channel);
}

std::string EnglishLaterMarker(algorithms::LaterMarkerTale tale, const MarkerTale& t) {
  using algorithms::LaterMarkerTale;
  switch (tale) {
    case LaterMarkerTale::kHoldsChannel:
      // Rule 2: nothing behind this barrier until the other inputs' come.
      return fmt::format(
          "{} receives {}'s barrier of snapshot {}: it holds back {} until barriers come "
          "on its other inputs",
          t.to, t.from, t.id, t.channel);
    case LaterMarkerTale::kTellsCount:
      // The count, not the position, closes the channel (told at the close).
      return fmt::format(
          "{} receives {}'s control message of snapshot {}: {} sent {} transfer{} on {} "
          "before recording",
          t.to, t.from, t.id, t.from, t.count, t.count == 1 ? "" : "s", t.channel);
    case LaterMarkerTale::kClosesChannel:
      break;
  }
  std::string how = t.contents.empty()
                        ? fmt::format("{} closed, empty", t.channel)
                        : fmt::format("{} closed with {}", t.channel,
                                      (t.listed.empty() ? apps::AmountList(t.contents) : t.listed));
  return fmt::format("{} receives {}'s {} of snapshot {}: {}", t.to, t.from, t.marker,
                     t.id, how);
}

std::string EnglishClose(algorithms::CloseTale tale, const MarkerTale& t) {
  using algorithms::CloseTale;
  switch (tale) {
    case CloseTale::kCountReached:
      return fmt::format(
          "every transfer sent on {} before its sender recorded has come: {} closed for "
          "snapshot {} with {}",
          t.channel, t.channel, t.id, (t.listed.empty() ? apps::AmountList(t.contents) : t.listed));
    case CloseTale::kWithMarker:
      break;
  }
  return "";
}

}  // namespace cutline::catalogue
