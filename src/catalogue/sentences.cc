// Say: picks the catalogue of a language (sentences_en.cc, sentences_ja.cc).
#include "catalogue/sentences.h"

namespace cutline::catalogue {

namespace {

template <typename Group, typename Facts>
std::string In(Group group, const Facts& s, Lang lang) {
  return lang == Lang::kJa ? Japanese(group, s) : English(group, s);
}

}  // namespace

std::string Say(MessageLine line, const Said& s, Lang lang) { return In(line, s, lang); }
std::string Say(DeliveryClause clause, const Said& s, Lang lang) { return In(clause, s, lang); }
std::string Say(MarkersClause clause, const Said& s, Lang lang) { return In(clause, s, lang); }
std::string Say(SnapshotLine line, const Said& s, Lang lang) { return In(line, s, lang); }
std::string Say(NaiveLine line, const Said& s, Lang lang) { return In(line, s, lang); }
std::string Say(ShowLine line, const Said& s, Lang lang) { return In(line, s, lang); }
std::string Say(CheckLine line, const Said& s, Lang lang) { return In(line, s, lang); }
std::string Say(DemoLine line, const Said& s, Lang lang) { return In(line, s, lang); }
std::string Say(StoreLine line, const StoreSaid& s, Lang lang) { return In(line, s, lang); }

std::string LabText(const LabFacts& lab, Lang lang) {
  return lang == Lang::kJa ? JapaneseLab(lab) : EnglishLab(lab);
}

}  // namespace cutline::catalogue
