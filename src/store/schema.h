// The store's schema: the migrations that build a file of it from nothing
// or from an older version (schema.cc), and what the store's other sources
// ask of it. Internal to src/store: store.h is the API, and this header is
// included only by src/store/*.cc (docs/store.md, "Versions").
#pragma once

#include <cstdint>

#include "store/sqlite.h"

namespace cutline::store {

// The marker that tells a cutline store from any other file: SQLite's header
// holds an application id (offset 68) and a user version (offset 60), both
// big-endian. The application id is written once, when the store is
// created; the user version is the schema, raised by each migration.
inline constexpr std::uint32_t kApplicationId = 0x4355544C;  // "CUTL"

// The schema this cutline writes and reads up to: the number of migrations
// (schema.cc's kMigrations), raised by adding one.
extern const std::uint32_t kSchemaVersion;

// The tables a store of every version has (those of schema 1): a file
// without one of them is damaged (CheckContents, open.cc).
inline constexpr const char* kTables[] = {"runs", "snapshots", "balances", "channels",
                                          "transfers"};

// Runs the migrations a file of `from` lacks, all in one transaction: a
// failing step leaves the file as it was. A second writer that migrated
// meanwhile is noticed inside the transaction (user_version is read again
// under the write lock).
void Migrate(sqlite::Connection& c, std::uint32_t from);

// The file's schema now: a writer may have migrated it since a reader
// opened it. One PRAGMA, a read of the header page SQLite has cached.
std::uint32_t CurrentVersion(sqlite::Connection& c);

}  // namespace cutline::store
