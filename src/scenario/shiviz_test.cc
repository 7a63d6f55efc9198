// The ShiViz log of a simulated run, read back the way ShiViz reads it: the
// first line is the regex, then a blank line, then the regex matched again
// and again over the rest (host, JSON clock, event line). Every event of the
// history must come back, at its branch, with the clock the consistency
// checker computed for it, and the clocks must be ones ShiViz accepts.
#include "scenario/shiviz.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "base/overloaded.h"
#include "check/consistency_checker.h"
#include "check/shiviz.h"
#include "scenario/demos.h"
#include "catalogue/messages.h"
#include "scenario/run_record.h"
#include "scenario/runner.h"

namespace cutline::scenario {
namespace {

using nlohmann::json;

struct Parsed {
  std::string host;
  json clock;
  std::string event;
};

// The log's events, by ShiViz's rule: the first line is the regex, the
// second is empty, and the regex then matches the events one after another
// with nothing but line breaks between them. std::regex has no named groups,
// so they become plain groups in the order named (host, clock, event).
std::vector<Parsed> ParseShiViz(const std::string& log) {
  std::size_t first_end = log.find('\n');
  EXPECT_NE(first_end, std::string::npos);
  const std::string header = log.substr(0, first_end);
  EXPECT_EQ(header, check::kShiVizRegex);
  EXPECT_EQ(log.substr(first_end, 2), "\n\n");
  std::string pattern = header;
  std::vector<std::string> names;
  for (std::size_t at; (at = pattern.find("(?<")) != std::string::npos;) {
    std::size_t close = pattern.find('>', at);
    names.push_back(pattern.substr(at + 3, close - at - 3));
    pattern.erase(at + 1, close - at);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"host", "clock", "event"}));
  // JavaScript reads a brace that starts no quantifier as itself; std::regex
  // wants it escaped.
  for (std::size_t at = 0; (at = pattern.find_first_of("{}", at)) != std::string::npos; at += 2) {
    pattern.insert(at, 1, '\\');
  }
  const std::regex event_re(pattern);  // ECMAScript, as ShiViz's JavaScript
  const std::string body = log.substr(first_end + 2);
  std::vector<Parsed> events;
  std::size_t covered = 0;
  for (auto it = std::sregex_iterator(body.begin(), body.end(), event_re);
       it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    std::string between = body.substr(covered, static_cast<std::size_t>(m.position(0)) - covered);
    EXPECT_EQ(between.find_first_not_of('\n'), std::string::npos)
        << "text ShiViz would skip: " << between;
    covered = static_cast<std::size_t>(m.position(0) + m.length(0));
    json clock = json::parse(m[2].str(), nullptr, /*allow_exceptions=*/false);
    EXPECT_TRUE(clock.is_object()) << m[2].str();
    events.push_back(Parsed{m[1].str(), clock, m[3].str()});
  }
  EXPECT_EQ(body.substr(covered), "\n");
  return events;
}

// Runs `text`, writes its log, parses it back and holds it to the checker's
// clocks and to ShiViz's rules. Returns the parsed events.
std::vector<Parsed> CheckRoundTrip(const std::string& text) {
  Runner runner;
  Status s = runner.RunText(text);
  EXPECT_TRUE(s.ok()) << catalogue::Message(s, Lang::kEn) << "\n" << text;
  if (!s.ok() || runner.bank() == nullptr) return {};
  const engine::Engine& bank = *runner.bank();
  const auto& history = bank.history().events();
  const std::vector<check::EventClock> clocks = check::EventClocks(RunOf(bank));
  EXPECT_EQ(clocks.size(), history.size());

  const std::vector<Parsed> events = ParseShiViz(ShiVizLog(bank));
  EXPECT_EQ(events.size(), history.size()) << text;
  if (events.size() != history.size() || clocks.size() != history.size()) return events;

  const std::size_t n = bank.branch_count();
  std::vector<std::uint64_t> own(n, 0);         // each host's events so far
  std::vector<json> last(n, json::object());     // each host's latest clock
  std::map<sim::Seq, json> sent;                 // a message's clock at its send
  for (std::size_t i = 0; i < events.size(); ++i) {
    const Parsed& e = events[i];
    SCOPED_TRACE("event " + std::to_string(i) + ": " + e.host + " " + e.clock.dump() + " " +
                 e.event);
    // The checker's clock, entry by entry; zero entries are left out.
    const sim::NodeId at = clocks[i].node;
    EXPECT_EQ(at, history::NodeOf(history[i], bank.network()));
    EXPECT_EQ(e.host, bank.name(at));
    EXPECT_FALSE(e.event.empty());
    for (sim::NodeId p = 0; p < n; ++p) {
      const std::uint64_t want = clocks[i].clock[p];
      if (want == 0) {
        EXPECT_FALSE(e.clock.contains(bank.name(p))) << bank.name(p);
      } else {
        EXPECT_EQ(e.clock.value(bank.name(p), std::uint64_t{0}), want) << bank.name(p);
      }
    }
    for (const auto& [host, value] : e.clock.items()) {
      EXPECT_TRUE(bank.FindBranch(host).has_value()) << host;
      EXPECT_TRUE(value.is_number_unsigned() && value.get<std::uint64_t>() >= 1) << host;
    }
    // ShiViz: a host's own entry counts its events 1, 2, 3, ...; no clock
    // knows more of a host than that host has done; a host's clock never
    // goes back.
    EXPECT_EQ(e.clock.value(e.host, std::uint64_t{0}), ++own[at]);
    for (sim::NodeId p = 0; p < n; ++p) {
      const std::uint64_t v = e.clock.value(bank.name(p), std::uint64_t{0});
      EXPECT_LE(v, own[p]) << bank.name(p);
      EXPECT_GE(v, last[at].value(bank.name(p), std::uint64_t{0})) << bank.name(p);
    }
    last[at] = e.clock;
    // A delivery has seen its send; a message's description names it.
    auto message = [&](sim::Seq seq, bool delivery) {
      EXPECT_NE(e.event.find("#" + std::to_string(seq)), std::string::npos);
      if (!delivery) {
        sent[seq] = e.clock;
        return;
      }
      ASSERT_TRUE(sent.count(seq));
      for (const auto& [host, value] : sent[seq].items()) {
        EXPECT_GE(e.clock.value(host, std::uint64_t{0}), value.get<std::uint64_t>()) << host;
      }
    };
    std::visit(Overloaded{
                   [&](const history::Sent<history::Transfer>& m) { message(m.seq, false); },
                   [&](const history::Sent<history::Marker>& m) { message(m.seq, false); },
                   [&](const history::Delivered<history::Transfer>& m) { message(m.seq, true); },
                   [&](const history::Delivered<history::Marker>& m) { message(m.seq, true); },
                   [](const auto&) {},
               },
               history[i]);
  }
  return events;
}

bool HasEvent(const std::vector<Parsed>& events, const std::string& host,
              const std::string& line) {
  for (const Parsed& e : events) {
    if (e.host == host && e.event == line) return true;
  }
  return false;
}

TEST(ShiVizTest, ChandyLamportOnTheBank) {
  auto events = CheckRoundTrip(
      "network P1=100 P2=100 P3=100 capacity=2 snapshots=one\n"
      "transfer P2 P1 40\n"
      "snapshot P1\n"
      "transfer P1 P3 30\n"
      "deliver P2 P1\n"
      "read P2\n"
      "drain\n");
  EXPECT_TRUE(HasEvent(events, "P2", "P2 sends $40 to P1 (#1)"));
  EXPECT_TRUE(HasEvent(events, "P1", "P1 records $100 for snapshot 1 (on its own)"));
  EXPECT_TRUE(HasEvent(events, "P1", "P1 sends a marker of snapshot 1 to P2 (#2)"));
  EXPECT_TRUE(HasEvent(events, "P1", "P1 receives $40 from P2 (#1)"));
  EXPECT_TRUE(HasEvent(events, "P1", "P1 closes P2->P1 for snapshot 1, recording [$40]"));
  EXPECT_TRUE(HasEvent(events, "P2", "the naive reader copies P2's balance: $60"));
  EXPECT_TRUE(HasEvent(events, "P3", "P3 records $100 for snapshot 1 (on receiving #3)"));
}

TEST(ShiVizTest, NonFifoChandyLamport) {
  auto events = CheckRoundTrip(
      "network P1=100 P2=100 P3=100 fifo=no\n"
      "snapshot P1\n"
      "transfer P1 P3 30\n"
      "deliver P1 P3 at=2\n"
      "drain\n");
  EXPECT_TRUE(HasEvent(events, "P1", "P1 sends $30 to P3 (#3)"));
  // The $30 overtook the marker: P3 records it in its balance.
  EXPECT_TRUE(HasEvent(events, "P3", "P3 receives $30 from P1 (#3)"));
  EXPECT_TRUE(HasEvent(events, "P3", "P3 records $130 for snapshot 1 (on receiving #2)"));
}

TEST(ShiVizTest, LaiYang) {
  auto events = CheckRoundTrip(
      "network P1=100 P2=100 P3=100 fifo=no algorithm=lai-yang\n"
      "transfer P1 P2 10\n"
      "snapshot P1\n"
      "transfer P1 P3 30\n"
      "deliver P1 P3 at=2\n"
      "drain\n");
  EXPECT_TRUE(HasEvent(events, "P1", "P1 sends $10 to P2 (#1, epoch 0)"));
  EXPECT_TRUE(HasEvent(events, "P1", "P1 sends $30 to P3 (#4, epoch 1)"));
  EXPECT_TRUE(
      HasEvent(events, "P1", "P1 sends a control message of snapshot 1 to P2 (#2, count 1)"));
  // The newer epoch makes P3 record before it applies the $30.
  EXPECT_TRUE(HasEvent(events, "P3", "P3 records $100 for snapshot 1 (on receiving #4 of epoch 1, before applying it)"));
}

TEST(ShiVizTest, AlignedDataflow) {
  auto events = CheckRoundTrip(
      "network P1=100 P2=100 P3=100 P4=100 links=P1>P2,P1>P3,P2>P4,P3>P4 algorithm=aligned\n"
      "transfer P2 P4 5\n"
      "snapshot P1\n"
      "deliver P1 P2\n"
      "transfer P2 P4 7\n"
      "drain\n");
  EXPECT_TRUE(HasEvent(events, "P1", "P1 sends a barrier of snapshot 1 to P2 (#2)"));
}

TEST(ShiVizTest, EveryDemo) {
  for (const Demo& demo : Demos()) {
    SCOPED_TRACE("demo " + std::to_string(demo.id));
    auto events = CheckRoundTrip(DemoScenario(demo));
    EXPECT_FALSE(events.empty());
  }
}

// Two snapshots at once, joined initiators, stop-the-world and unaligned
// barriers overtaking a backlog.
TEST(ShiVizTest, ManySnapshotsStopTheWorldAndUnaligned) {
  CheckRoundTrip(
      "network P1=100 P2=100 P3=100\n"
      "transfer P1 P2 10\n"
      "snapshot P1\n"
      "snapshot P3 id=1\n"
      "snapshot P2\n"
      "transfer P3 P1 5\n"
      "drain\n"
      "transfer P2 P3 1\n"
      "stop-the-world\n");
  auto events = CheckRoundTrip(
      "network P1=100 P2=100 P3=100 algorithm=unaligned\n"
      "transfer P1 P2 10\n"
      "transfer P1 P2 20\n"
      "snapshot P1\n"
      "drain\n");
  EXPECT_TRUE(HasEvent(events, "P1", "P1's barrier #3 overtakes #1 ($10) on P1->P2"));
}

// The writer alone: zero entries left out, a line break in a description
// kept on one line, names written as JSON strings.
TEST(ShiVizTest, TheWriterKeepsOneEventToTwoLines) {
  check::ShiVizWriter log;
  const std::vector<std::string> hosts = {"A", "B", "C"};
  const std::vector<std::uint32_t> clock = {2, 0, 1};
  log.Add("A", hosts, clock, "two\nlines");
  EXPECT_EQ(log.text(), std::string(check::kShiVizRegex) + "\n\nA {\"A\":2,\"C\":1}\ntwo lines\n");
}

}  // namespace
}  // namespace cutline::scenario
