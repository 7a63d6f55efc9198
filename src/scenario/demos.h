// The page's five demos and the study note's lab run, as scenario scripts
// with a caption per step in English and Japanese. One source for
// `cutline demo N`, `cutline lab` and the page (GET /api/demos).
#pragma once

#include <string>
#include <vector>

#include "scenario/messages.h"

namespace cutline::scenario {

struct Text {
  const char* en;
  const char* ja;
  const char* in(Lang lang) const { return lang == Lang::kJa ? ja : en; }
};

struct DemoStep {
  const char* command;
  Text caption;
};

struct Demo {
  int id;
  const char* preset;  // "bank", "lab" or "variant" (its own network)
  Text title;
  std::vector<DemoStep> steps;
  // A "variant" demo's network line (the bank with fifo= or algorithm=, or
  // the dataflow diamond).
  const char* network = nullptr;
};

// The page's rules: at most 2 transfers per channel, one snapshot at a time.
inline constexpr const char* kBankPreset =
    "network P1=100 P2=100 P3=100 capacity=2 snapshots=one";
inline constexpr const char* kLabPreset =
    "network A=100 B=100 capacity=2 snapshots=one";
inline constexpr int kLabDemoId = 6;

const std::vector<Demo>& Demos();  // ids 1..5 (bank) and 6 (lab)
// Demos 6..10 of the variants (docs/scenario-language.md): non-FIFO
// Chandy-Lamport, Lai-Yang, aligned and unaligned barriers, stop-the-world.
// Kept apart from Demos() until the page can play them: GET /api/demos
// lists Demos(), whose id 6 is still the lab run.
const std::vector<Demo>& VariantDemos();
const Demo* FindDemo(int id);
const Demo* FindVariantDemo(int id);
const char* PresetScenario(const Demo& demo);
// The preset line followed by every step's command: a runnable scenario.
std::string DemoScenario(const Demo& demo);

}  // namespace cutline::scenario
