// Picks the catalogue of a language; gives a refusal code its group, by which
// each catalogue is split.
#include "catalogue/messages.h"

namespace cutline::catalogue {

// status.h declares the codes group by group, so a group is the codes from
// its first to the next group's first: a new code joins the group it is
// declared in. (A code declared in the wrong place has no sentence in its
// group's function, which messages_test finds.)
CodeGroup GroupOf(Code code) {
  struct GroupStart {
    Code first;
    CodeGroup group;
  };
  static constexpr GroupStart kStarts[] = {
    {Code::kNetworkTooSmall, CodeGroup::kNetwork},
    {Code::kNotAWholeNumber, CodeGroup::kWords},
    {Code::kNetworkFirst, CodeGroup::kRun},
    {Code::kCutWrongSize, CodeGroup::kCut},
    {Code::kAtOnFifo, CodeGroup::kVariants},
    {Code::kWrongApp, CodeGroup::kApps},
    {Code::kBranchLimit, CodeGroup::kLimits},
    {Code::kNoSuchFile, CodeGroup::kStore},
    {Code::kRestoreNothing, CodeGroup::kRestore},
    {Code::kNotAnApp, CodeGroup::kOptions},
    {Code::kCannotListen, CodeGroup::kServe},
    {Code::kNoRoom, CodeGroup::kLecture},
    {Code::kAboutFile, CodeGroup::kVerify},
    {Code::kLogAt, CodeGroup::kLogs},
    {Code::kRankFault, CodeGroup::kRuntime},
    {Code::kNodeNotJson, CodeGroup::kTest},
  };
  if (code == Code::kOk) return CodeGroup::kOk;
  CodeGroup group = CodeGroup::kOk;
  for (const GroupStart& start : kStarts) {
    if (static_cast<int>(code) < static_cast<int>(start.first)) break;
    group = start.group;
  }
  return group;
}

std::string ProblemLine(const Status& about, const std::vector<Status>& problems, Lang lang) {
  return Reason(about, lang) + ": " +
         (lang == Lang::kJa ? JapaneseProblems(problems) : EnglishProblems(problems));
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
