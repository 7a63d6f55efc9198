// The codes of the words an algorithm is told in. An algorithm names codes;
// the sentences for people are in src/scenario's catalogues (messages_en.cc,
// messages_ja.cc), and the tokens a program reads (the JSON) are below.
// A new algorithm picks from these, or adds a code here and its sentence in
// every catalogue.
#pragma once

#include <cstdint>
#include <string_view>

namespace cutline::algorithms {

// What its markers are called.
enum class MarkerNoun : std::uint8_t { kMarker, kControlMessage, kBarrier };

// How the network line names it after the other rules ("" for the classic).
enum class RuleNote : std::uint8_t { kNone, kLaiYang, kAligned, kUnaligned };

// How a marker delivery that made its receiver record is told.
enum class FirstMarkerTale : std::uint8_t {
  kRecordsChannelEmpty,  // records; the marker's channel is recorded empty
  kAlignsAndRecords,     // the last barrier: aligned, records, releases
  kRecordsWithCount,     // the first control message, with its count
};

// How a later marker delivery is told.
enum class LaterMarkerTale : std::uint8_t {
  kClosesChannel,  // closes its channel with what was recorded on it
  kHoldsChannel,   // holds its channel back until the other inputs' come
  kTellsCount,     // tells how many transfers were sent before the record
};

// How a channel's close is told on its own (most are told with a marker).
enum class CloseTale : std::uint8_t {
  kWithMarker,    // nothing more to say
  kCountReached,  // every transfer the count announced has come
};

struct Words {
  MarkerNoun marker = MarkerNoun::kMarker;
  RuleNote rule = RuleNote::kNone;
  FirstMarkerTale first_marker = FirstMarkerTale::kRecordsChannelEmpty;
  LaterMarkerTale later_marker = LaterMarkerTale::kClosesChannel;
  CloseTale close = CloseTale::kWithMarker;
};

// Chandy-Lamport's words (the defaults above): its own, and those of the
// variants that break one of its rules on purpose.
inline constexpr Words kMarkerWords{};

// The JSON's token for a marker noun: "marker", "control", "barrier" (the
// page names messages by it, web/labels.js).
constexpr std::string_view NounToken(MarkerNoun n) {
  switch (n) {
    case MarkerNoun::kMarker: return "marker";
    case MarkerNoun::kControlMessage: return "control";
    case MarkerNoun::kBarrier: return "barrier";
  }
  return "marker";
}

}  // namespace cutline::algorithms
