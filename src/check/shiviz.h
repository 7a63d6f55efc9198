// The ShiViz log format (https://bestchai.bitbucket.io/shiviz/): what
// ShiViz's default parser reads, GoVector's. One place for both writers: a
// simulated run's history with the checker's clocks (scenario/shiviz.h) and
// a real run's logs with the clocks the ranks kept (runtime/log_check.h).
//
//   (?<host>\S*) (?<clock>{.*})\n(?<event>.*)
//   <blank line>
//   P1 {"P1":1}
//   P1 sends $30 to P2 (#1)
//   P2 {"P1":1,"P2":1}
//   P2 receives $30 from P1 (#1)
//
// ShiViz wants each host's own entry to count its events 1, 2, 3, ... and
// every entry of a clock to be at least 1, so zero entries are left out.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace cutline::check {

// The regex ShiViz parses every event with: its host, its vector clock as a
// JSON object from host to count, and the event's description line.
inline constexpr std::string_view kShiVizRegex = R"((?<host>\S*) (?<clock>{.*})\n(?<event>.*))";

// A log in the making: the regex line and a blank line, then the events.
class ShiVizWriter {
 public:
  ShiVizWriter();

  // One event at `host` (a name without white space). clock[i] is the entry
  // of hosts[i]; zero entries are left out. A line break in `description`
  // becomes a space: an event is one line.
  // REQUIRES: clock.size() <= hosts.size().
  void Add(std::string_view host, std::span<const std::string> hosts,
           std::span<const std::uint32_t> clock, std::string_view description);
  void Add(std::string_view host, std::span<const std::string> hosts,
           std::span<const std::uint64_t> clock, std::string_view description);

  const std::string& text() const { return text_; }
  std::string Take() && { return std::move(text_); }

 private:
  template <class Count>
  void AddEvent(std::string_view host, std::span<const std::string> hosts,
                std::span<const Count> clock, std::string_view description);

  std::string text_;
};

}  // namespace cutline::check
