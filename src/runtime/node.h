// `cutline node`: what every MPI rank of a cluster run executes. Rank r is
// branch N<r> (or, with --app dataflow, vertex r); rank 0 is also the
// coordinator (it schedules snapshots, collects their parts and hands whole
// ones to the sink). docs/runtime.md.
#pragma once

#include <functional>
#include <memory>

#include "runtime/options.h"
#include "runtime/sink.h"

namespace cutline::runtime {

// Runs one rank from MPI_Init to MPI_Finalize. `sink` is used on rank 0
// only (it may be null elsewhere). `say` words a refusal rank 0 prints
// (the store's, a restore's). Returns the process's exit code.
int RunNode(const NodeOptions& options, int* argc, char*** argv,
            const std::function<std::unique_ptr<Sink>(std::uint32_t ranks)>& make_sink,
            const Say& say);

}  // namespace cutline::runtime
