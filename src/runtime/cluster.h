// `cutline cluster`: starts `mpirun` with one `cutline node` rank per
// branch, shows a live status line while they run, and a summary at the end.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "runtime/options.h"

namespace cutline::runtime {

struct ClusterOptions {
  std::uint32_t ranks = 4;
  NodeOptions node;
  std::vector<std::string> mpirun_args{};  // passed to mpirun as they are
  bool json = false;                     // the summary as one JSON object
};

// Called once the run has ended, if a rank died: marks the run's unfinished
// snapshots failed, and says which complete snapshot is the latest ("none"
// if there is none). Empty function: no store.
using AfterCrash = std::function<std::string(std::int64_t run)>;

// Runs the cluster; returns the exit code (0 done, 1 a rank died or a total
// was wrong, 2 mpirun could not start). `self` is the cutline binary.
int RunCluster(const ClusterOptions& options, const std::string& self,
               const AfterCrash& after_crash);

}  // namespace cutline::runtime
