// Picks the catalogue of a language; gives a refusal code its group, by which
// each catalogue is split.
#include "catalogue/messages.h"

namespace cutline::catalogue {


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
    case Code::kNoSuchFile:
    case Code::kIsDirectory:
    case Code::kCannotRead:
    case Code::kStoreEmpty:
    case Code::kNotSqlite:
    case Code::kNotCutlineStore:
    case Code::kStoreNewer:
    case Code::kNoSchemaVersion:
    case Code::kStoreCorrupt:
    case Code::kStoreTableMissing:
    case Code::kCannotOpen:
    case Code::kWalNeedsShm:
    case Code::kReadOnlyFile:
    case Code::kReadOnlyFolder:
    case Code::kReadOnlyHere:
    case Code::kCannotCreate:
    case Code::kCannotOpenForWriting:
    case Code::kNoWalMode:
    case Code::kWalRunMissing:
    case Code::kWalRunOther:
    case Code::kWalTopBehind:
    case Code::kWalTopMissing:
    case Code::kWalSnapshotOther:
    case Code::kWalCorrupt:
    case Code::kWalTableMissing:
    case Code::kWriterBusy:
    case Code::kWriterStarting:
    case Code::kCannotMake:
    case Code::kCannotLock:
    case Code::kStoreFailed:
    case Code::kNoSuchSnapshot:
      return CodeGroup::kStore;
    case Code::kRestoreNothing:
    case Code::kRestoreNotComplete:
    case Code::kRestoreDamaged:
    case Code::kRestoreNoLongerComplete:
    case Code::kRestoreWrongApp:
    case Code::kRestoreWrongRanks:
    case Code::kRestoreNeedsStore:
      return CodeGroup::kRestore;
    case Code::kNotAnApp:
    case Code::kFlagForOtherApp:
    case Code::kNotASnapshotId:
    case Code::kSnapshotIdNotNumber:
    case Code::kSnapshotIdTooLarge:
    case Code::kMaxPagesNeedsStore:
    case Code::kBadKeep:
    case Code::kStoreNeedsCommand:
    case Code::kUnknownStoreCommand:
    case Code::kUnknownStoreOption:
    case Code::kTooFewRanks:
    case Code::kKillRankOutOfRange:
      return CodeGroup::kOptions;
    case Code::kCannotListen:
      return CodeGroup::kServe;
    case Code::kNoRoom:
    case Code::kNotTeacher:
    case Code::kNotStudent:
    case Code::kTooManyRooms:
    case Code::kRoomFull:
    case Code::kBadState:
    case Code::kBadQuestion:
    case Code::kNoQuestion:
    case Code::kOtherQuestion:
    case Code::kBadChoice:
    case Code::kAnsweredAlready:
      return CodeGroup::kLecture;
    case Code::kAboutFile:
    case Code::kAboutRun:
    case Code::kAboutSnapshot:
    case Code::kVerifyFileCorrupt:
    case Code::kVerifyRunMissing:
    case Code::kVerifyRunRanks:
    case Code::kVerifySnapshotStatus:
    case Code::kVerifyInitiator:
    case Code::kVerifyNoCompletionTime:
    case Code::kVerifyPartMissing:
    case Code::kVerifyPartsMissing:
    case Code::kVerifyChannelsMissing:
    case Code::kVerifyStrayPart:
    case Code::kVerifyStrayChannel:
    case Code::kVerifyUnrecorded:
    case Code::kVerifyTransferGap:
    case Code::kVerifyNegativeBalance:
    case Code::kVerifyNegativeTransfer:
    case Code::kVerifyMore:
    case Code::kVerifyNoTotal:
    case Code::kVerifySumOverflow:
    case Code::kVerifySumNotTotal:
    case Code::kVerifyTotalNotRuns:
    case Code::kVerifyIncompleteTotal:
    case Code::kVerifyIncompleteTime:
    case Code::kVerifyIncompleteParts:
    case Code::kVerifyOrphanParts:
    case Code::kVerifyRankCount:
    case Code::kVerifyNegativeStart:
    case Code::kVerifyRunStatus:
    case Code::kVerifyRunTotal:
    case Code::kVerifyOriginMissing:
    case Code::kVerifyOriginNotComplete:
    case Code::kVerifyOriginRanks:
    case Code::kVerifyOriginTotal:
      return CodeGroup::kVerify;
    case Code::kLogAt:
    case Code::kLogUnreadable:
    case Code::kLogFolder:
    case Code::kLogNoFiles:
    case Code::kLogNoEvents:
    case Code::kLogNotEventsLog:
    case Code::kLogVersion:
    case Code::kLogNotObject:
    case Code::kLogNoField:
    case Code::kLogNotMessageId:
    case Code::kLogNotProcessName:
    case Code::kLogNotWhole:
    case Code::kLogNotNames:
    case Code::kLogChannelsNotMap:
    case Code::kLogChannelNotList:
    case Code::kLogUnknownKind:
    case Code::kLogFileTwice:
    case Code::kLogFirstNotStart:
    case Code::kLogStartsTwice:
    case Code::kLogListsItself:
    case Code::kLogInputSilent:
    case Code::kLogSendNoInput:
    case Code::kLogReceiveNotInput:
    case Code::kLogSentTwice:
    case Code::kLogPartChannel:
      return CodeGroup::kLogs;
  }
  // Not a declared code: the group's function knows none such and gives
  // CodeName's "?".
  return CodeGroup::kLimits;
}


std::string ProblemLine(const Status& about, const std::vector<Status>& problems, Lang lang) {
  // Each language joins its sentences its own way: "; " and "。".
  const char* const joiner = lang == Lang::kJa ? "。" : "; ";
  std::string line = Reason(about, lang) + ": ";
  for (std::size_t i = 0; i < problems.size(); ++i) {
    if (i > 0) line += joiner;
    line += Reason(problems[i], lang);
  }
  return line;
}

std::string Reason(const Status& s, Lang lang) {
  return lang == Lang::kJa ? JapaneseReason(s)
                           : EnglishReason(s);
}

std::string Message(const Status& s, Lang lang) {
  std::string reason = Reason(s, lang);
  if (s.line() <= 0) return reason;
  return lang == Lang::kJa ? JapaneseAtLine(s.line(), reason)
                           : EnglishAtLine(s.line(), reason);
}

std::string MarkerWord(algorithms::MarkerNoun noun, bool plural, Lang lang) {
  return lang == Lang::kJa ? JapaneseMarkerWord(noun)
                           : EnglishMarkerWord(noun, plural);
}

std::string RuleNoteText(algorithms::RuleNote note, Lang lang) {
  return lang == Lang::kJa ? JapaneseRuleNote(note)
                           : EnglishRuleNote(note);
}

std::string FirstMarkerSentence(algorithms::FirstMarkerTale tale,
                                const MarkerTale& t, Lang lang) {
  return lang == Lang::kJa ? JapaneseFirstMarker(tale, t)
                           : EnglishFirstMarker(tale, t);
}

std::string LaterMarkerSentence(algorithms::LaterMarkerTale tale,
                                const MarkerTale& t, Lang lang) {
  return lang == Lang::kJa ? JapaneseLaterMarker(tale, t)
                           : EnglishLaterMarker(tale, t);
}

std::string CloseSentence(algorithms::CloseTale tale, const MarkerTale& t,
                          Lang lang) {
  return lang == Lang::kJa ? JapaneseClose(tale, t)
                           : EnglishClose(tale, t);
}

}  // namespace cutline::catalogue
