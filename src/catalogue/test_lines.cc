// Each line of `cutline test` in the language asked for.
#include "catalogue/test_lines.h"

namespace cutline::catalogue {

std::string Say(TestLine line, const TestSaid& s, Lang lang) {
  switch (lang) {
    case Lang::kJa:
      return Japanese(line, s);
    case Lang::kEn:
      break;
  }
  return English(line, s);
}

}  // namespace cutline::catalogue
