#include "check/shiviz.h"
#include "base/check.h"

#include <fmt/format.h>

#include <iterator>

namespace cutline::check {

namespace {

// A host name as a JSON string (names are plain words, but a log is no
// place to trust that).
void AppendJsonString(std::string* out, std::string_view s) {
  out->push_back('"');
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out->push_back('\\');
      out->push_back(c);
    } else if (static_cast<unsigned char>(c) < 0x20) {
      fmt::format_to(std::back_inserter(*out), "\\u{:04x}", static_cast<unsigned>(c));
    } else {
      out->push_back(c);
    }
  }
  out->push_back('"');
}

}  // namespace

ShiVizWriter::ShiVizWriter() : text_(kShiVizRegex) { text_ += "\n\n"; }

template <class Count>
void ShiVizWriter::AddEvent(std::string_view host, std::span<const std::string> hosts,
                         std::span<const Count> clock, std::string_view description) {
  CUTLINE_CHECK(clock.size() <= hosts.size());
  text_ += host;
  text_ += " {";
  bool first = true;
  for (std::size_t i = 0; i < clock.size(); ++i) {
    if (clock[i] == 0) continue;
    if (!first) text_ += ',';
    first = false;
    AppendJsonString(&text_, hosts[i]);
    fmt::format_to(std::back_inserter(text_), ":{}", clock[i]);
  }
  text_ += "}\n";
  for (char c : description) text_ += (c == '\n' || c == '\r') ? ' ' : c;
  text_ += '\n';
}

void ShiVizWriter::Add(std::string_view host, std::span<const std::string> hosts,
                    std::span<const std::uint32_t> clock, std::string_view description) {
  AddEvent(host, hosts, clock, description);
}

void ShiVizWriter::Add(std::string_view host, std::span<const std::string> hosts,
                    std::span<const std::uint64_t> clock, std::string_view description) {
  AddEvent(host, hosts, clock, description);
}

}  // namespace cutline::check
