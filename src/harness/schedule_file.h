// A failing schedule as `cutline test` writes it, for `--replay` (and the
// page) to play step by step: the workload, the rules, the commands left
// out, the steps, and the findings it gave.
//
//   {"format": "cutline-test-schedule", "version": 1,
//    "workload": {"nodes": [...], "balance": 100, "commands": [...]},
//    "reorder": false, "skipped": [2], "bin": ["python3", "node.py"],
//    "steps": [{"command": 0}, {"deliver": ["n1", "n2"], "index": 0},
//              {"lose": ["n2", "n3"], "index": 0}, ...],
//    "findings": ["snapshot 1: ..."]}
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "harness/world.h"
#include "harness/workload.h"

namespace cutline::harness {

inline constexpr const char* kScheduleFormat = "cutline-test-schedule";

struct ScheduleFile {
  Workload workload;
  Rules rules;
  std::vector<Step> steps;
  std::vector<std::string> findings;
  std::vector<std::string> bin;  // the program it failed, as given
};

// Refused (kCannotRead, kTestNotSchedule) in one line when it cannot be.
StatusOr<ScheduleFile> ReadScheduleFile(const std::string& path);
// kCannotOpenForWriting when it cannot be written.
Status WriteScheduleFile(const std::string& path, const ScheduleFile& file);

}  // namespace cutline::harness
