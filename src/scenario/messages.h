// The words of a refusal: a Status (code, arguments, line) becomes one line
// of English or Japanese here, and nowhere else. Each language's sentences
// live in one catalogue (messages_en.cc, messages_ja.cc).
#pragma once

#include <string>

#include "base/status.h"

namespace cutline::scenario {

// The languages the project speaks (the page, the CLI's --lang, the API).
enum class Lang { kEn, kJa };

// The reason alone, e.g. "P1 has only $70, cannot send $100".
// REQUIRES: !s.ok().
std::string Reason(const Status& s, Lang lang);
// With the line when there is one: "line 3: P1 has only ...", "3行目: ...".
std::string Message(const Status& s, Lang lang);

namespace catalogue {
// One per language; Reason and Message choose between them.
std::string EnglishReason(const Status& s);
std::string EnglishAtLine(int line, const std::string& reason);
std::string JapaneseReason(const Status& s);
std::string JapaneseAtLine(int line, const std::string& reason);
}  // namespace catalogue

}  // namespace cutline::scenario
