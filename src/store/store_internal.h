// What the store's own sources share, and nothing else includes. Store
// (store.h) is written in one file per job: schema.cc, open.cc, write.cc,
// read.cc, verify.cc and prune.cc (docs/design.md, "Layers"). This header
// exists for what more than one of them needs: the connection a Store is
// (Store::Impl), the short names of the SQLite layer's types, and a
// snapshot id as SQL's integer. A helper only one job needs stays in that
// job's file. Not part of the API: only src/store/*.cc include it.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <utility>

#include "dataflow/topology.h"
#include "store/schema.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace cutline::store {

using sqlite::Connection;
using sqlite::Query;
using sqlite::Transaction;

// A Store is one connection and the schema its file had when last read.
struct Store::Impl : Connection {
  std::uint32_t version = kSchemaVersion;
};

// `id` as SQLite's (signed) integer; refused past what that holds.
inline std::int64_t SqlId(const Connection& c, std::uint64_t id) {
  if (id > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    c.Refuse(fmt::format("snapshot id {} is too large", id));
  }
  return static_cast<std::int64_t>(id);
}

// The topology of a dataflow run (schema 5): nullopt for the other
// applications' runs, and for a run whose stored SPEC no longer parses (a
// damaged row; Verify says so).
// Files before it have none.
std::optional<dataflow::Topology> RunTopology(Connection& c, std::uint32_t version,
                                              std::int64_t run);

// A dataflow's channels, as (from, to): the edges of its topology. (A
// bank's are every ordered pair of its ranks, which no one lists: a
// damaged row may claim a million ranks.)
inline std::set<std::pair<std::int64_t, std::int64_t>> TopologyChannels(const dataflow::Topology& t) {
  std::set<std::pair<std::int64_t, std::int64_t>> out;
  for (std::uint32_t v = 0; v < t.vertices(); ++v) {
    for (std::uint32_t to : t.Outputs(v)) out.insert({v, to});
  }
  return out;
}

}  // namespace cutline::store
