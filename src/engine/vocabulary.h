// The history's words and the network's names, spoken throughout the engine
// unqualified (they live below it: src/history, src/sim, src/algorithms).
#pragma once

#include "algorithms/snapshot_host.h"
#include "history/history.h"
#include "history/records.h"
#include "sim/network.h"

namespace cutline::engine {

using algorithms::SnapshotHost;
using history::Cause;
using history::ChannelRecord;
using history::Closed;
using history::Completed;
using history::Delivered;
using history::Event;
using history::History;
using history::IsTransfer;
using history::Local;
using history::Marker;
using history::NodeOf;
using history::Overtaken;
using history::PartDone;
using history::Payload;
using history::Read;
using history::Recorded;
using history::Sent;
using history::Transfer;
using sim::ChannelId;
using sim::NodeId;
using sim::Seq;

}  // namespace cutline::engine
