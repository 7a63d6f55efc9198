// The English catalogue, continued: why a rank of a cluster run stopped (a
// runtime::Fault: the protocol between ranks broken, a log not written).
// Between ranks of one cutline each is a bug, so the sentences name the
// protocol's own messages and numbers, for whoever debugs it.
#include <fmt/format.h>

#include "catalogue/messages.h"

namespace cutline::catalogue {
namespace {

// A message between ranks that cannot be read as one.
std::string EnglishBrokenMessage(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  switch (s.code()) {
    case Code::kRuntimeMessageEnded:
      return "a message ended early";
    case Code::kRuntimeCountPastEnd:
      return "a message counts more items than it holds";
    case Code::kRuntimeUnknownMessage:
      return fmt::format("a message with the unknown code {}", w(0));
    case Code::kRuntimeBytesLeftOver:
      return fmt::format("a {} message with {} bytes too many", w(0), s.number(1));
    case Code::kRuntimePartTooLarge:
      return "a part too large for the wire format";
    case Code::kRuntimeNotWirePart:
      return fmt::format("a {} whose recorded bytes are not a wire part", w(0));
    case Code::kRuntimeCreditTooLarge:
      return "a Credit of more buffers than a channel has";
    case Code::kRuntimeNotAFrame:
      return fmt::format("rank {} sent bytes that are no frame", s.number(0));
    case Code::kRuntimeFirstNotInit:
      return fmt::format("the first message was {}, not Init", w(0));
    case Code::kRuntimeNotCoordinator:
      return fmt::format("rank {} sent rank {} the coordinator's {} message", s.number(0),
                         s.number(1), w(2));
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

// A message that reads, sent where it has no business (a branch's, a
// vertex's), or that its rules refuse.
std::string EnglishMisplacedMessage(const Status& s) {
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kRuntimeNotItsMessage:
      return fmt::format("{} sends no {} message, yet one came", s.word(0), s.word(1));
    case Code::kRuntimeWordRefused:
      return fmt::format("the rules refused rank {} a stamp or count: {}", n(0), s.word(1));
    case Code::kRuntimeMarkerRefused:
      return fmt::format("marker of snapshot {} from rank {} refused", n(0), n(1));
    case Code::kRuntimeTransferRefused:
      return fmt::format("a transfer from rank {} refused: {}", n(0), s.word(1));
    case Code::kRuntimeStartedTwice:
      return fmt::format("snapshot {} started twice", n(0));
    case Code::kRuntimeDrainRanks:
      return "a Drain message for another number of ranks";
    case Code::kRuntimeDataflowFrame:
      return fmt::format("rank {} sent a branch a dataflow's frame", n(0));
    case Code::kRuntimeTransferToVertex:
      return fmt::format("rank {} sent a dataflow a transfer", n(0));
    case Code::kRuntimeNotInput:
      return fmt::format("rank {} sent vertex {}, not its input, a frame", n(0), n(1));
    case Code::kRuntimeNotOutput:
      return fmt::format("rank {} sent vertex {}, not its output, a credit", n(0), n(1));
    case Code::kRuntimeNoState:
      return fmt::format("vertex {} was sent a state that is none", n(0));
    case Code::kRuntimeBarrierTooLong:
      return fmt::format("rank {} sent a barrier too long", n(0));
    case Code::kRuntimeCreditsNeverSent:
      return fmt::format("rank {} gave back credits for records never sent", n(0));
    default:
      break;
  }
  return EnglishBrokenMessage(s);
}

}  // namespace

std::string EnglishRuntimeReason(const Status& s) {
  switch (s.code()) {
    case Code::kRankFault:
      return fmt::format("rank {}: {}", s.number(0), EnglishReason(s.reason(1)));
    case Code::kRankFailed:
      return fmt::format("rank {}: {}", s.number(0), s.word(1));  // the library's own words
    case Code::kRuntimeCannotWriteLog:
      return fmt::format("cannot write {}: {}", s.word(0), s.word(1));
    case Code::kRuntimeNoItemClock:
      return fmt::format("no clock was logged for item {}", s.number(0));
    case Code::kRuntimeNoBarrierClock:
      return fmt::format("no clock was logged for barrier {}", s.number(0));
    case Code::kRuntimeNotForCoordinator:
      return fmt::format("rank {} sent the coordinator a {} message", s.number(0), s.word(1));
    case Code::kRuntimePartNamesOther:
      return fmt::format("rank {} sent a part naming rank {}", s.number(0), s.number(1));
    case Code::kRuntimePartTwice:
      return fmt::format("rank {} sent a part of snapshot {} twice", s.number(0), s.number(1));
    case Code::kRuntimePartRefused:
      return fmt::format("rank {} sent a part of snapshot {} the collector refused: {}",
                         s.number(0), s.number(1), s.word(2));
    case Code::kRuntimeCountsRanks:
      return fmt::format("rank {} sent counts for {} ranks", s.number(0), s.number(1));
    case Code::kRuntimeAnswerUnasked:
      return fmt::format("rank {} answered a query it was not asked", s.number(0));
    default:
      break;
  }
  return EnglishMisplacedMessage(s);
}

}  // namespace cutline::catalogue
