// The languages the project speaks (the page, the CLI's --lang, the API),
// the one way a list of names is joined in each, and the one way a channel
// and a cycle are written for a reader. Here, at the bottom, so that every
// floor that words something for a reader (an application's words, the
// scenario's catalogues, the checker's findings, the commands' output)
// speaks the same two and writes the same arrow.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace cutline {

enum class Lang { kEn, kJa };

// The language's code, as --lang and the API spell it: "en", "ja".
inline std::string_view LangCode(Lang lang) {
  switch (lang) {
    case Lang::kJa:
      return "ja";
    case Lang::kEn:
      break;
  }
  return "en";
}

// What ends a sentence ("." and "。"), and what stands between two: a space
// in English, nothing in Japanese.
inline std::string_view FullStop(Lang lang) {
  switch (lang) {
    case Lang::kJa:
      return "。";
    case Lang::kEn:
      break;
  }
  return ".";
}
inline std::string_view SentenceGap(Lang lang) {
  switch (lang) {
    case Lang::kJa:
      return "";
    case Lang::kEn:
      break;
  }
  return " ";
}

// "P2 and P3", "P1, P2 and P3"; "P2とP3", "P1、P2とP3".
inline std::string JoinNames(std::span<const std::string> names, Lang lang) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) {
      const bool last = i + 1 == names.size();
      if (lang == Lang::kJa) {
        out += last ? "と" : "、";
      } else {
        out += last ? " and " : ", ";
      }
    }
    out += names[i];
  }
  return out;
}

// English's "s" after a count other than 1 ("1 snapshot", "2 snapshots").
inline const char* EnglishPlural(std::uint64_t n) { return n == 1 ? "" : "s"; }

// A channel (or a wait-for edge) as a reader reads it, in both languages and
// as the page writes it (web/cut.js, web/i18n.js): "P1→P2". Formats that a
// program reads keep their own spelling: the scenario language's
// links=P1>P2, the page's data-channel ids "P1->P2", the ShiViz log.
inline std::string ChannelText(std::string_view from, std::string_view to) {
  std::string out(from);
  out += "→";
  out += to;
  return out;
}

// A cycle as a reader reads it, back to where it starts, as the page writes
// it (web/appwords.js): "P1 → P2 → P1"; "" for no names.
inline std::string CycleText(std::span<const std::string> names) {
  std::string out;
  for (const std::string& n : names) out += n + " → ";
  if (!names.empty()) out += names.front();
  return out;
}

}  // namespace cutline
