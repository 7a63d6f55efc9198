#include "server/store_watch.h"

#include <chrono>
#include <filesystem>

namespace cutline::server {

StatusOr<std::unique_ptr<StoreWatch>> StoreWatch::Open(const std::string& path) {
  std::unique_ptr<StoreWatch> watch(new StoreWatch(path));
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) {
    StatusOr<store::Store> store = store::Store::OpenReadOnly(path);
    if (!store.ok()) return store.status();
    watch->store_.emplace(std::move(store).value());
  }
  return watch;
}

StoreWatch::~StoreWatch() { StopWatching(); }

void StoreWatch::StopWatching() {
  stop_ = true;
  if (watcher_.joinable()) watcher_.join();
}

bool StoreWatch::EnsureOpen() {
  if (store_) return true;
  StatusOr<store::Store> store = store::Store::OpenReadOnly(path_);
  if (!store.ok()) return false;  // not there yet, or not whole yet: asked again later
  store_.emplace(std::move(store).value());
  return true;
}

// Before the file exists, or while it is not yet whole, its appearance is
// the change; after, SQLite's own count of other connections' commits (a
// file's size and time can stay the same across two commits made within
// one tick of the file system's clock).
std::string StoreWatch::Version() {
  if (!EnsureOpen()) {
    std::error_code ec;
    return std::filesystem::exists(path_, ec) ? "incomplete" : "missing";
  }
  return std::to_string(store_->DataVersion());
}

void StoreWatch::Watch(std::function<void()> on_change) {
  // The baseline is taken here, not on the new thread: a commit made after
  // Watch returns must count as a change even if the thread starts late.
  std::string first;
  {
    std::lock_guard<std::mutex> lock(mu_);
    first = Version();
  }
  watcher_ = std::thread([this, on_change = std::move(on_change), last = first]() mutable {
    while (!stop_) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      std::string now;
      {
        std::lock_guard<std::mutex> lock(mu_);
        now = Version();
      }
      if (now == last) continue;
      last = now;
      on_change();
    }
  });
}

store::Json StoreWatch::List(std::int64_t now_us) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!EnsureOpen()) {
    return {{"runs", store::Json::array()},
            {"snapshots", store::Json::array()},
            {"summaries", store::Json::array()},
            {"now_us", now_us}};
  }
  // Versioned before reading: a commit in between leaves a newer list under
  // an older version, which the next change replaces.
  std::string stamp = Version();
  if (stamp != list_stamp_ || list_.is_null()) {
    list_ = store::ListJson(*store_);
    runs_ = store_->Runs();
    snapshots_ = store_->Snapshots();
    list_stamp_ = std::move(stamp);
  }
  // Summaries are made afresh: a live run whose heartbeat stopped turns
  // silent without any change to the file.
  store::Json out = list_;
  out["summaries"] = store::SummariesJson(runs_, snapshots_, now_us);
  out["now_us"] = now_us;
  return out;
}

std::optional<store::Json> StoreWatch::Snapshot(std::uint64_t id) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!EnsureOpen()) return std::nullopt;
  auto s = store_->Find(id);
  if (!s) return std::nullopt;
  store::Json out = store::SnapshotJson(*store_, *s);
  out["critical_path"] = store::CriticalPathJson(*s);
  return out;
}

}  // namespace cutline::server
