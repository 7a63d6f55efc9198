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

}  // namespace cutline::scenario
