// The English catalogue, continued: why a folder of logs in the events
// format (docs/logs.md) cannot be read, each naming the file and line.
#include <fmt/format.h>

#include "catalogue/messages.h"

namespace cutline::catalogue {
namespace {

std::string EnglishRankLogsReason(const Status& s);

// The processes and their inputs, which the lines name.
std::string EnglishNetworkOfLogs(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  switch (s.code()) {
    case Code::kLogFileTwice:
      return fmt::format("{}'s events are also in {}: one file per process", w(0), w(1));
    case Code::kLogFirstNotStart:
      return fmt::format("{}'s first event must be its start", w(0));
    case Code::kLogStartsTwice:
      return fmt::format("{} starts twice", w(0));
    case Code::kLogListsItself:
      return fmt::format("{} lists itself as an input", w(0));
    case Code::kLogInputSilent:
      return fmt::format("{} lists input {}, which logs no events", w(0), w(1));
    case Code::kLogSendNoInput:
      return fmt::format("{} sends to {}, which lists no input from {}", w(0), w(1), w(0));
    case Code::kLogReceiveNotInput:
      return fmt::format("{} receives from {}, which is not among its inputs", w(0), w(1));
    case Code::kLogSentTwice:
      return fmt::format("message {} is sent twice (first at {})", w(0), w(1));
    case Code::kLogPartChannel:
      return fmt::format("{}'s part names a channel from {}, which is not among its inputs", w(0),
                         w(1));
    case Code::kLogPartMissesInput:
      return fmt::format("{}'s part-done of snapshot {} lists no channel from {}: every input "
                         "must be listed, [] when it recorded nothing",
                         w(0), w(2), w(1));
    case Code::kLogIdMixed:
      return fmt::format("message id {} is a number in one place and a string in the other (here "
                         "and at {}): write each message's id one way",
                         w(0), w(1));
    case Code::kLogSnapshotIdMixed:
      return fmt::format("snapshot id {} is a number in one place and a string in the other (here "
                         "and at {}): write each snapshot's id one way",
                         w(0), w(1));
    case Code::kLogDropUnsent:
      return fmt::format("drops message {}, which no process sends", w(0));
    case Code::kLogDropNotOwn:
      return fmt::format("{} drops message {}, which it neither sent nor was sent: a drop is "
                         "logged by the message's sender or receiver",
                         w(0), w(1));
    case Code::kLogDropReceived:
      return fmt::format("message {} is dropped here and received at {}", w(0), w(1));
    case Code::kLogDroppedTwice:
      return fmt::format("message {} is dropped twice (first at {})", w(0), w(1));
    case Code::kLogAfterCrash:
      return fmt::format("{} logs an event after its crash: its next event must be its restart",
                         w(0));
    case Code::kLogRestartNoCrash:
      return fmt::format("{} restarts without a crash before it", w(0));
    case Code::kLogEpochMissing:
      return fmt::format("this send carries no \"epoch\", though the log's sends carry one (as "
                         "at {}): a Lai-Yang log gives every send its epoch",
                         w(0));
    case Code::kLogMarkersWithEpochs:
      return fmt::format("a marker in a log whose sends carry epochs (as at {}): Lai-Yang's "
                         "control messages are its own, not markers",
                         w(0));
    default:
      break;
  }
  return EnglishRankLogsReason(s);
}


// A cluster run's own logs (rank-N.jsonl, check --logs DIR).
std::string EnglishRankLogsReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kRankLogNotFolder:
      return fmt::format("{} is not a folder of logs", w(0));
    case Code::kRankLogNone:
      return fmt::format("{} holds no rank-N.jsonl logs (see cutline cluster --log-dir)", w(0));
    case Code::kRankLogNotLine:
      return fmt::format("{}:{} is not a line of a cutline log", w(0), n(1));
    case Code::kRankLogBadStart:
      return fmt::format("{} does not begin as rank {}'s log", w(0), n(1));
    case Code::kRankLogBadRanks:
      return fmt::format(
          "{}'s header names rank {} of a run of {} ranks, which cannot be (a run has at least "
          "1 rank, numbered from 0)",
          w(0), n(1), w(2));
    case Code::kRankLogOtherRun:
      return fmt::format("{} belongs to a run of {} ranks, not {}", w(0), n(1), n(2));
    case Code::kRankLogNoNumber:
      return fmt::format("a \"{}\" line without a whole number \"{}\"", w(0), w(1));
    case Code::kRankLogBadPeer:
      return fmt::format("a \"{}\" line with \"{}\": {}, not another of {} ranks", w(0), w(1),
                         n(2), n(3));
    case Code::kRankLogNoCause:
      return "a \"record\" line without its \"cause\"";
    case Code::kRankLogNoChannels:
      return "a \"part\" line without its \"channels\"";
    case Code::kRankLogNoVerdict:
      return "a \"verdict\" line without \"holds\", \"branches\" and \"channels\"";
    case Code::kRankLogNotClock:
      return "\"vc\" is not a vector clock";
    case Code::kRankLogClockBack:
      return fmt::format("\"vc\" goes back (its sum {} after {}): not a rank's clock", n(0), n(1));
    case Code::kRankLogWrongShape:
      return fmt::format("a \"{}\" line of the wrong shape ({})", w(0), w(1));
    case Code::kRankLogAllEmpty:
      return fmt::format("every log in {} is empty: no rank wrote its log", w(0));
    case Code::kRankLogCount:
      return fmt::format("{} holds {} logs, but the run had {} ranks", w(0), n(1), n(2));
    case Code::kRankLogUnreadable:
      return fmt::format("cannot read {}", w(0));
    case Code::kRankLogUnknownApp:
      return fmt::format("{} names an application cutline does not know: {}", w(0), w(1));
    case Code::kRankLogOtherApp:
      return fmt::format("{} is a log of {}, but rank {}'s is of {}", w(0), w(1), n(2), w(3));
    case Code::kRankLogBadTopology:
      return fmt::format("{} names a dataflow of no topology cutline reads: {}", w(0), w(1));
    case Code::kRankLogNoChannel:
      return fmt::format("a \"{}\" line on {}, which the dataflow {} has no channel for", w(0),
                         ChannelText(fmt::format("N{}", n(2)), fmt::format("N{}", n(3))), w(1));
    case Code::kRankLogOvertakenPeer:
      return "an \"overtaken\" line names its channel by \"to\" or by \"from\", one of the two";
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

}  // namespace

std::string EnglishLogsReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  switch (s.code()) {
    case Code::kLogAt:
      return fmt::format("{}:{}: {}", w(0), s.number(1), EnglishReason(s.reason(2)));
    case Code::kLogUnreadable:
      return fmt::format("{}: cannot be read", w(0));
    case Code::kLogChanged:
      return fmt::format("{}: changed while it was read; judge it again once it is written", w(0));
    case Code::kLogFolder:
      return fmt::format("{}: {}", w(0), w(1));  // the OS's words name what went wrong
    case Code::kLogNoFiles:
      return fmt::format("{} holds no .jsonl files (docs/logs.md)", w(0));
    case Code::kLogNoEvents:
      return fmt::format("{} holds no events", w(0));
    case Code::kLogNotEventsLog:
      return "not an events log: its first line must be " + w(0);
    case Code::kLogEmptyFile:
      return "the file is empty: an events log's first line must be " + w(0);
    case Code::kLogLineTooLong:
      return fmt::format("the line is longer than {} bytes, the most an events log's line may "
                         "hold",
                         s.number(0));
    case Code::kLogVersion:
      return fmt::format("version {} of {} is not one this cutline reads (it reads 1 to {})",
                         s.number(0), w(1), s.number(2));
    case Code::kLogNotObject:
      return "not a JSON object";
    case Code::kLogNoField:
      return fmt::format("no \"{}\"", w(0));
    case Code::kLogNotMessageId:
      return fmt::format("\"{}\" must be a message id (a string or a whole number)", w(0));
    case Code::kLogNotProcessName:
      return fmt::format("\"{}\" must be a process name (a non-empty string)", w(0));
    case Code::kLogNotWhole:
      return fmt::format("\"{}\" must be a whole number of at least {}", w(0), s.number(1));
    case Code::kLogNotNames:
      return fmt::format("\"{}\" must be a list of process names", w(0));
    case Code::kLogChannelsNotMap:
      return "\"channels\" must map each input to the message ids recorded on it";
    case Code::kLogChannelNotList:
      return fmt::format("channel from {} must be a list of ids", w(0));
    case Code::kLogUnknownKind:
      return fmt::format("kind {} is not one of start, send, receive, record, marker-send, "
                         "marker-receive, part-done (and in version 2 drop, abort, crash, "
                         "restart)",
                         w(0));
    case Code::kLogKindNotInVersion:
      return fmt::format("kind {} is new in version 2; this file's first line says version {}",
                         w(0), s.number(1));
    case Code::kLogNotSnapshotId:
      return fmt::format("\"{}\" must be a snapshot id (a non-empty string or a whole number of "
                         "at least 1)",
                         w(0));
    case Code::kLogNotBool:
      return fmt::format("\"{}\" must be true or false", w(0));
    case Code::kLogNotText:
      return fmt::format("\"{}\" must be a non-empty string", w(0));
    case Code::kLogExpectedNotMap:
      return "\"expected\" must map inputs to the number of messages expected on each";
    default:
      break;
  }
  return EnglishNetworkOfLogs(s);
}

}  // namespace cutline::catalogue
