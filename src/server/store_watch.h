// `cutline serve --store FILE`: the page's window on a runtime's store. It
// keeps one read-only connection (opening checks the whole file, so once is
// enough), answers the store routes from it, and watches the file: when a
// run commits to it, `on_change` is called (the server publishes a `store`
// event to every open page). A file that does not exist yet is waited for:
// the page may be opened before the run starts.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "store/store.h"
#include "store/store_json.h"

namespace cutline::server {

class StoreWatch {
 public:
  // Fails, saying why, if `path` exists and is not a readable store.
  static StatusOr<std::unique_ptr<StoreWatch>> Open(const std::string& path);
  ~StoreWatch();

  // Starts watching; `on_change` runs on the watcher's thread.
  void Watch(std::function<void()> on_change);
  // Joins the watcher: `on_change` is not called after this returns.
  void StopWatching();

  // `cutline store list --json`'s object, with "summaries" (each run's, as
  // seen at `now_us`) and "now_us".
  store::Json List(std::int64_t now_us);
  // `cutline store show --json`'s object with its "critical_path"; nothing
  // if there is no snapshot `id`.
  std::optional<store::Json> Snapshot(std::uint64_t id);
  const std::string& path() const { return path_; }

 private:
  explicit StoreWatch(std::string path) : path_(std::move(path)) {}
  bool EnsureOpen();  // REQUIRES mu_ held
  std::string Version();  // what changes when the file does; REQUIRES mu_ held

  std::string path_;
  std::mutex mu_;
  std::optional<store::Store> store_;
  // Every open page asks for the list after each commit: it is read from
  // the file once per change of the file, and served from here otherwise.
  std::string list_stamp_;
  store::Json list_;
  std::vector<store::StoredRun> runs_;
  std::vector<store::SnapshotRecord> snapshots_;
  std::thread watcher_;
  std::atomic<bool> stop_{false};
};

}  // namespace cutline::server
