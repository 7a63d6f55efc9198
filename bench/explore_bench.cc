// `make bench-explore`: how far `cutline explore` gets, and how much its
// visited-state hashing, its partial-order reduction and its sleep sets
// save, on the bank of 3, 4 and 5 branches with one and with two snapshots
// (docs/performance.md, "Every schedule").
//
// Each network is a line of transfers, P1 to P2, P2 to P3, ..., with a
// snapshot started by P1 after the first (and, for two, by the last branch
// after the last). Reported per run: the schedules (every order of
// deliveries: the full count of interleavings, counted over the state
// graph, by the search without the reductions, which leave out
// reorderings), the distinct states and the steps explored, the seconds,
// the states per second, and the factor against the full count (schedules
// per state explored). The search without any walks every schedule; it
// is stopped at --max-states (and said so) where that is out of reach.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <string>

#include "check/findings.h"
#include "explore/explore.h"
#include "machine.h"

namespace {

std::string Line(int branches, int snapshots) {
  std::string s = "network";
  for (int b = 1; b <= branches; ++b) s += fmt::format(" P{}=100", b);
  s += "\n";
  for (int b = 1; b < branches; ++b) {
    s += fmt::format("transfer P{} P{} 10\n", b, b + 1);
    if (b == 1) s += "snapshot P1\n";
  }
  if (snapshots == 2) s += fmt::format("snapshot P{}\n", branches);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"cutline explore: states per second, and what the hashing saves"};
  std::uint64_t max_states = 600'000;
  int most = 5;
  app.add_option("--max-states", max_states, "Stop each search here")->capture_default_str();
  app.add_option("--most", most, "The largest network, in branches")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  fmt::print("machine: {}\n\n", cutline::bench::Machine());
  fmt::print("| branches | snapshots | search | schedules | states | steps | seconds | states/s | "
             "schedules per state |\n|---|---|---|---|---|---|---|---|---|\n");
  struct Way {
    const char* name;
    bool hashing, reduction, sleep_sets;
  };
  // The hashing alone first: its count of schedules is the full one.
  const Way ways[] = {{"hashing", true, false, false},
                      {"hashing + reduction", true, true, false},
                      {"hashing + reduction + sleep sets", true, true, true},
                      {"full", false, false, false}};
  for (int branches = 3; branches <= most; ++branches) {
    for (int snapshots = 1; snapshots <= 2; ++snapshots) {
      double schedules = 0;  // the full count, from the search without the reduction (0: unknown)
      for (const Way& way : ways) {
        cutline::explore::Options o;
        o.hashing = way.hashing;
        o.reduction = way.reduction;
        o.sleep_sets = way.sleep_sets;
        o.max_states = max_states;
        auto r = cutline::explore::Explore(Line(branches, snapshots), o);
        if (!r.ok()) {
          fmt::print(stderr, "refused: {}\n", cutline::CodeName(r.status().code()));
          return 2;
        }
        const bool stopped = r->outcome == cutline::explore::Outcome::kBounded;
        if (!way.reduction && !way.sleep_sets && !stopped) schedules = r->schedules;
        fmt::print("| {} | {} | {} | {}{} | {} | {} | {:.2f} | {:.0f} | {} |\n", branches, snapshots,
                   way.name, "", stopped ? std::string("-") : cutline::check::ExploreCount(r->schedules), r->states,
                   r->transitions, r->seconds,
                   r->seconds > 0 ? static_cast<double>(r->states) / r->seconds : 0.0,
                   stopped      ? std::string("(stopped at --max-states)")
                   : schedules == 0 ? std::string("(full count unknown: the hashing alone stopped)")
                                    : fmt::format("{:.1f}", schedules / static_cast<double>(r->states)));
        std::fflush(stdout);
        if (r->outcome == cutline::explore::Outcome::kBroken) {
          fmt::print(stderr, "a correct run was judged broken: {}\n", r->findings.front());
          return 1;
        }
      }
    }
  }
  return 0;
}
