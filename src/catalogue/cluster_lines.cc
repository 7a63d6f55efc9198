// Each line of `cutline cluster` in the language asked for.
#include "catalogue/cluster_lines.h"

namespace cutline::catalogue {

std::string ClusterText(ClusterLine line, const RunFigures& f, Lang lang) {
  switch (lang) {
    case Lang::kJa:
      return JapaneseCluster(line, f);
    case Lang::kEn:
      break;
  }
  return EnglishCluster(line, f);
}

std::string EndingText(EndingLine line, const Ending& e, Lang lang) {
  switch (lang) {
    case Lang::kJa:
      return JapaneseEnding(line, e);
    case Lang::kEn:
      break;
  }
  return EnglishEnding(line, e);
}

}  // namespace cutline::catalogue
