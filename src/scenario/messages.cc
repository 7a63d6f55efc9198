// Picks the catalogue of a language.
#include "scenario/messages.h"

namespace cutline::scenario {

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
