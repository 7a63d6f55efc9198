// The page's demos (1-5 Chandy-Lamport on the bank, 6-10 the variants) and
// the study note's lab run, as scenario scripts with a caption per step in
// English and Japanese. One source for `cutline demo N`, `cutline lab` and
// the page (GET /api/demos).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "catalogue/messages.h"

namespace cutline::scenario {

struct Text {
  const char* en;
  const char* ja;
  const char* in(Lang lang) const {
    switch (lang) {
      case Lang::kJa:
        return ja;
      case Lang::kEn:
        break;
    }
    return en;
  }
};

struct DemoStep {
  const char* command;
  Text caption;
};

struct Demo {
  int id;
  // The page's preset the demo plays on: "bank", "lab", "dataflow", "jobs"
  // or "locks".
  const char* preset;
  Text title;
  std::vector<DemoStep> steps;
  // The demo's own network line where it is not the preset's (the bank
  // with fifo= or algorithm=, the diamond with algorithm=aligned).
  const char* network = nullptr;
};

// The page's rules: at most 2 transfers per channel, one snapshot at a time.
inline constexpr const char* kBankPreset =
    "network P1=100 P2=100 P3=100 capacity=2 snapshots=one";
inline constexpr const char* kLabPreset =
    "network A=100 B=100 capacity=2 snapshots=one";
// The variants' dataflow (demo 8): P1 feeds P2 and P3, both feed P4. Acyclic,
// so every algorithm, aligned barriers too, can run on it.
inline constexpr const char* kDataflowPreset =
    "network P1=100 P2=100 P3=100 P4=100 links=P1>P2,P1>P3,P2>P4,P3>P4 "
    "capacity=2 snapshots=one";
// The applications' demos (12-15): three branches computing jobs, or
// taking locks from each other.
inline constexpr const char* kJobsPreset = "network P1=1 P2=0 P3=0 app=jobs";
inline constexpr const char* kLocksPreset = "network P1 P2 P3 app=locks";
// The lab run is listed after the numbered demos; `cutline lab` plays it.
inline constexpr int kLabDemoId = 11;

// The applications' demos (../shared/spec/apps.md): 12-13 jobs, 14-15 locks.
inline constexpr int kFirstAppDemo = 12;
inline constexpr int kLastAppDemo = 15;

// Rules broken on purpose (16: a channel never recorded, 17: markers sent
// after the next transfer, 18: recording stopped at the first message).
// Ids 12..15 are the applications' (../shared/spec/apps.md).
inline constexpr int kFirstBrokenDemo = 16;
inline constexpr int kLastBrokenDemo = 18;

// Ids 1..5 (Chandy-Lamport on the bank), 6..10 (the variants: non-FIFO
// Chandy-Lamport, Lai-Yang, aligned and unaligned barriers, stop-the-world),
// kLabDemoId, 12..15 (the applications), then 16..18 (rules broken on
// purpose), in that order.
const std::vector<Demo>& Demos();
const Demo* FindDemo(int id);
// The group the page shows a demo in: "cl" (1..5), "beyond" (6..10),
// "apps" (12..15), "broken" (16..18) or "lab".
const char* DemoGroup(const Demo& demo);
// The network line a preset name stands for ("bank" for unknown names).
const char* PresetNetwork(std::string_view preset);
// The demo's first line: its own network, else its preset's.
const char* PresetScenario(const Demo& demo);
// The preset line followed by every step's command: a runnable scenario.
std::string DemoScenario(const Demo& demo);

}  // namespace cutline::scenario
