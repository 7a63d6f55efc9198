// Picks the catalogue of a language; gives a refusal code its group, by which
// each catalogue is split.
#include "scenario/messages.h"

namespace cutline::scenario {

namespace catalogue {

// One case per code, so that a new code must be given its group here (the
// switch has no default: g++ and clang warn of a code left out).
CodeGroup GroupOf(Code code) {
  switch (code) {
    case Code::kOk:
      return CodeGroup::kOk;
    case Code::kNetworkTooSmall:
    case Code::kTooManyBranches:
    case Code::kInvalidBranchName:
    case Code::kBranchDeclaredTwice:
    case Code::kNegativeBalance:
    case Code::kTotalOverflow:
    case Code::kLinkUnknownBranch:
    case Code::kLinkSelfLoop:
    case Code::kLinkTwice:
    case Code::kBadLink:
    case Code::kOptionTwice:
    case Code::kCapacityOutOfRange:
    case Code::kBadSnapshotsMode:
    case Code::kNotBranchOrOption:
    case Code::kUnknownNetworkOption:
    case Code::kExpectedBranchOrOption:
      return CodeGroup::kNetwork;
    case Code::kNotAWholeNumber:
    case Code::kNumberTooLarge:
    case Code::kUnknownCommand:
    case Code::kUnknownOption:
    case Code::kWrongArity:
    case Code::kTakesNoArguments:
      return CodeGroup::kWords;
    case Code::kNetworkFirst:
    case Code::kNetworkTwice:
    case Code::kNoNetwork:
    case Code::kUnknownBranch:
    case Code::kNoBranchNumber:
    case Code::kChannelToItself:
    case Code::kNoChannel:
    case Code::kAmountTooSmall:
    case Code::kInsufficientFunds:
    case Code::kChannelFull:
    case Code::kChannelEmpty:
    case Code::kNothingInFlight:
    case Code::kSnapshotNotStarted:
    case Code::kSnapshotComplete:
    case Code::kAlreadyRecorded:
    case Code::kSnapshotRunning:
      return CodeGroup::kRun;
    case Code::kCutWrongSize:
    case Code::kCutPastEnd:
    case Code::kCutBadPoint:
      return CodeGroup::kCut;
    case Code::kAtOnFifo:
    case Code::kAtOutOfRange:
    case Code::kManySnapshotsNeedCl:
    case Code::kBarriersNeedFifo:
    case Code::kAlignedCycle:
    case Code::kAlignedNotSource:
    case Code::kChannelHeldBack:
    case Code::kStopWhileSnapshot:
    case Code::kNothingDeliverable:
      return CodeGroup::kVariants;
    case Code::kWrongApp:
    case Code::kLocksStartActive:
    case Code::kIdleHandsOut:
    case Code::kNoJobToFinish:
    case Code::kAlreadyWaiting:
    case Code::kGrantWhileWaiting:
    case Code::kNoRequestToGrant:
      return CodeGroup::kApps;
    case Code::kBranchLimit:
    case Code::kCommandLimit:
    case Code::kEventLimit:
      return CodeGroup::kLimits;
  }
  // Not a declared code: the group's function knows none such and gives
  // CodeName's "?".
  return CodeGroup::kLimits;
}

}  // namespace catalogue

std::string Reason(const Status& s, Lang lang) {
  return lang == Lang::kJa ? catalogue::JapaneseReason(s)
                           : catalogue::EnglishReason(s);
}

std::string Message(const Status& s, Lang lang) {
  std::string reason = Reason(s, lang);
  if (s.line() <= 0) return reason;
  return lang == Lang::kJa ? catalogue::JapaneseAtLine(s.line(), reason)
                           : catalogue::EnglishAtLine(s.line(), reason);
}

std::string MarkerWord(algorithms::MarkerNoun noun, bool plural, Lang lang) {
  return lang == Lang::kJa ? catalogue::JapaneseMarkerWord(noun)
                           : catalogue::EnglishMarkerWord(noun, plural);
}

std::string RuleNoteText(algorithms::RuleNote note, Lang lang) {
  return lang == Lang::kJa ? catalogue::JapaneseRuleNote(note)
                           : catalogue::EnglishRuleNote(note);
}

std::string FirstMarkerSentence(algorithms::FirstMarkerTale tale,
                                const MarkerTale& t, Lang lang) {
  return lang == Lang::kJa ? catalogue::JapaneseFirstMarker(tale, t)
                           : catalogue::EnglishFirstMarker(tale, t);
}

std::string LaterMarkerSentence(algorithms::LaterMarkerTale tale,
                                const MarkerTale& t, Lang lang) {
  return lang == Lang::kJa ? catalogue::JapaneseLaterMarker(tale, t)
                           : catalogue::EnglishLaterMarker(tale, t);
}

std::string CloseSentence(algorithms::CloseTale tale, const MarkerTale& t,
                          Lang lang) {
  return lang == Lang::kJa ? catalogue::JapaneseClose(tale, t)
                           : catalogue::EnglishClose(tale, t);
}

}  // namespace cutline::scenario
