// A failing schedule as `cutline test` writes it, for `--replay` (and the
// page) to play step by step: the workload, the rules, the commands left
// out, the steps, and the findings it gave.
//
//   {"format": "cutline-test-schedule", "version": 1,
//    "workload": {"nodes": [...], "balance": 100, "commands": [...]},
//    "reorder": false, "skipped": [2], "bin": ["python3", "node.py"],
//    "steps": [{"command": 0}, {"deliver": ["n1", "n2"], "index": 0},
//              {"lose": ["n2", "n3"], "index": 0}, ...],
//    "findings": ["snapshot 1: ..."],
//    "trace": {...}}
// The trace (judge.h) is what happened at each step, for the page to draw
// without running the program: the messages carried, and per step the
// message delivered or lost, what was sent in answer, the records and
// parts taken, the balances and what is in flight; then the findings in
// English and Japanese. It is optional (a file from before it replays as
// ever; the page asks for it), so the version stays 1.
//
//   "trace": {"messages": [{"from": "n1", "to": "n2", "type": "marker"},
//                          {"from": "n3", "to": "n1", "type": "transfer", "amount": 31, "id": 1}],
//             "steps": [{"sent": [0], "balances": [100, 100, 100], "in_flight": [...]},
//                       {"message": 0, "sent": [], "records": [{"node": "n2", "snapshot": 1,
//                        "balance": 100}], "parts": [{"node": "n2", "snapshot": 1,
//                        "channels": {"n1": [], "n3": [1]}}], "balances": [...],
//                        "in_flight": [{"from": "n3", "to": "n1", "messages": [1]}]}, ...],
//             "findings": {"en": [...], "ja": [...]}, "judged": 0}
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "harness/judge.h"
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
  std::optional<Trace> trace;    // one step more than `steps` (init first)
};

// Refused (kCannotRead, kTestNotSchedule) in one line when it cannot be.
StatusOr<ScheduleFile> ReadScheduleFile(const std::string& path);
// The same from the file's JSON; `name` is the file's name in a refusal.
StatusOr<ScheduleFile> ParseScheduleFile(const nlohmann::json& j, const std::string& name);
// kCannotOpenForWriting when it cannot be written.
Status WriteScheduleFile(const std::string& path, const ScheduleFile& file);

}  // namespace cutline::harness
