#include "runtime/store_sink.h"

#include <fmt/format.h>

#include <condition_variable>
#include <deque>
#include <filesystem>
#include <functional>
#include <chrono>
#include <mutex>
#include <optional>
#include <thread>

#include <nlohmann/json.hpp>

#include "base/error_line.h"
#include "runtime/epoch.h"
#include "store/writer_lock.h"

namespace cutline::runtime {

namespace {

// The snapshot to restore: `id`, or the latest complete one. It must pass
// `cutline store verify` (Store::Verify) first: a run restored from a
// damaged snapshot would start with money missing or made up, and would take
// every later snapshot from that wrong start. The latest one being damaged
// is refused too, not skipped for an older one: which snapshot to restore
// from is the operator's choice (`--restore ID`), once they know.
StatusOr<store::SnapshotRecord> RestoreTarget(const store::Store& s, const RunShape& shape,
                                              std::optional<std::uint64_t> id) {
  std::optional<std::uint64_t> target = id;
  if (!target) {
    // The latest complete one, found from the rows alone: reading its parts
    // comes after they are verified.
    for (const store::SnapshotRecord& listed : s.Snapshots()) {
      if (listed.status == "complete") target = listed.id;
    }
    if (!target) return Status::Error(Code::kRestoreNothing, s.path());
  }
  std::optional<store::Verification> verified = s.Verify(*target);
  if (!verified) return Status::Error(Code::kNoSuchSnapshot, s.path(), *target);
  if (verified->complete == 0) {
    std::optional<store::SnapshotRecord> row = s.Find(*target);
    return Status::Error(Code::kRestoreNotComplete, *target, row ? row->status : "gone");
  }
  if (!verified->ok()) {
    return Status::Error(Code::kRestoreDamaged, *target, s.path(),
                         verified->problems.front().what.front());
  }
  std::optional<store::SnapshotRecord> snapshot = s.Find(*target);
  if (!snapshot || snapshot->status != "complete") {  // pruned or changed meanwhile
    return Status::Error(Code::kRestoreNoLongerComplete, *target, s.path());
  }
  for (const store::StoredRun& r : s.Runs()) {
    if (r.id != snapshot->run) continue;
    if (!r.dataflow && !apps::App::NamedOrBank(r.app).conserved()) {
      // Its words are jobs or waits, not money: a bank would start with
      // balances of 0 and 1.
      return Status::Error(Code::kRestoreWrongApp, snapshot->id, r.app);
    }
    if (r.dataflow.has_value() != shape.dataflow.has_value()) {
      return Status::Error(Code::kRestoreOtherApp, snapshot->id, r.app, shape.app);
    }
    if (r.dataflow && r.dataflow->topology != shape.dataflow->topology) {
      return Status::Error(Code::kRestoreWrongTopology, snapshot->id, r.dataflow->topology,
                           shape.dataflow->topology);
    }
  }
  if (!shape.dataflow && snapshot->balances.size() != shape.ranks) {
    return Status::Error(Code::kRestoreWrongRanks, snapshot->id, snapshot->balances.size(),
                         shape.ranks);
  }
  return *std::move(snapshot);
}

class StoreSink : public Sink {
 public:
  StoreSink(std::string path, std::uint32_t max_pages, Say say)
      : path_(std::move(path)), max_pages_(max_pages), say_(std::move(say)) {}
  ~StoreSink() override { Stop(); }

  Status Begin(const RunShape& shape, bool restore, std::optional<std::uint64_t> restore_id,
               std::optional<RestorePoint>* from, std::uint64_t* first_snapshot) override {
    if (auto a = apps::App::Find(shape.app)) property_ = a->definition().property;
    // The lock first: nothing is opened for writing while another holds it.
    StatusOr<store::WriterLock> lock = store::WriterLock::Take(path_);
    if (!lock.ok()) return lock.status();
    lock_.emplace(std::move(lock).value());
    StatusOr<store::Store> opened = store::Store::Open(path_, /*create=*/!restore);
    if (!opened.ok()) return opened.status();
    store_.emplace(std::move(opened).value());
    try {
      if (max_pages_ > 0) store_->SetMaxPages(max_pages_);
      const std::int64_t now = EpochMicros();
      for (const store::StoredRun& r : store_->Runs()) {
        // Still "live", yet its writer's lock was free: its job was ended
        // from outside and nothing marked it died. It is now, and its
        // running snapshots fail, before this run begins.
        if (r.status == "live") {
          store_->EndRun(r.id, /*died=*/true, std::nullopt, now);
          // A notice, not output: `cluster` shows it on standard error,
          // where it does not break `--json`'s one object on standard output.
          fmt::print("cutline-notice {}\n",
                     nlohmann::json(say_(Status::Error(Code::kRunStoppedSilently, r.id))).dump());
        }
      }
    } catch (const store::StoreError& e) {
      return e.status();
    }
    Amount total = shape.balance * static_cast<Amount>(shape.ranks);
    std::optional<std::uint64_t> restored_from;
    if (restore) {
      StatusOr<store::SnapshotRecord> snapshot = RestoreTarget(*store_, shape, restore_id);
      if (!snapshot.ok()) return snapshot.status();
      RestorePoint point{snapshot->id, snapshot->balances, snapshot->channels, snapshot->vertices};
      total = *snapshot->total;
      restored_from = snapshot->id;
      *from = std::move(point);
    }
    try {
      *first_snapshot = store_->NextSnapshotId();
      run_ = store_->BeginRun(shape.ranks, shape.balance, total, restored_from, shape.app,
                              shape.dataflow);
    } catch (const store::StoreError& e) {
      return e.status();
    }
    lock_->SetRun(run_);
    topology_.emplace(shape.ranks, sim::Topology::Complete(shape.ranks));
    writer_ = std::thread([this] { Write(); });
    return Status::Ok();
  }

  void Started(std::uint64_t id, std::uint32_t initiator, std::int64_t started_us) override {
    Post([=, this](store::Store& s) { s.SnapshotStarted(run_, id, initiator, started_us); });
  }
  void Complete(const WholeSnapshot& w) override {
    store::SnapshotRecord record;
    record.id = w.id;
    record.run = run_;
    record.initiator = w.initiator;
    record.started_us = w.started_us;
    record.completed_us = w.completed_us;
    record.status = "complete";
    record.balances = w.balances;
    record.recorded_us = w.recorded_us;
    record.channels = w.channels;
    record.vertices = w.vertices;
    if (w.verdict) {
      // The store names channels by their ends, not by the topology's ids.
      store::StoredVerdict v;
      v.property = property_;
      v.holds = w.verdict->holds;
      v.branches.assign(w.verdict->branches.begin(), w.verdict->branches.end());
      for (sim::ChannelId c : w.verdict->channels) {
        v.channels.emplace_back(topology_->channel(c).from, topology_->channel(c).to);
      }
      record.verdict = std::move(v);
    }
    Post([record = std::move(record)](store::Store& s) { s.SnapshotComplete(record); });
  }
  void Failed(std::uint64_t id, bool timed_out, const std::vector<std::uint32_t>& missing) override {
    const auto why = timed_out ? store::Store::Failure::kTimeout : store::Store::Failure::kRunEnded;
    Post([=, this](store::Store& s) { s.SnapshotFailed(run_, id, why, missing); });
  }
  void Progress(std::uint64_t transfers) override {
    Post([=, this](store::Store& s) { s.RunProgress(run_, transfers, EpochMicros()); });
  }
  void End(std::uint64_t transfers) override {
    // Snapshots still running become failed with the run's end, in one
    // transaction.
    Post([=, this](store::Store& s) { s.EndRun(run_, false, transfers, EpochMicros()); });
    Stop();
  }
  std::int64_t run_id() const override { return run_; }

 private:
  using Job = std::function<void(store::Store&)>;
  void Post(Job job) {
    std::lock_guard<std::mutex> lock(mu_);
    jobs_.push_back(std::move(job));
    ready_.notify_one();
  }
  void Write() {
    for (;;) {
      Job job;
      {
        std::unique_lock<std::mutex> lock(mu_);
        ready_.wait(lock, [this] { return !jobs_.empty() || closing_; });
        if (jobs_.empty()) return;
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
      try {
        job(*store_);
      } catch (const store::StoreError& e) {
        // A store that cannot be written (a full disk) ends the run: going
        // on would take snapshots that are never kept.
        PrintErrorLine(say_(e.status()));
        std::fflush(stderr);
        std::_Exit(1);
      }
    }
  }
  void Stop() {
    if (!writer_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mu_);
      closing_ = true;
      ready_.notify_one();
    }
    writer_.join();
  }

  std::string path_;
  std::uint32_t max_pages_ = 0;
  Say say_;
  std::optional<store::WriterLock> lock_;  // declared first: released after the store closes
  std::optional<store::Store> store_;
  std::optional<sim::Topology> topology_;
  std::string property_;  // the application's, for its verdicts
  std::int64_t run_ = 0;
  std::thread writer_;
  std::mutex mu_;
  std::condition_variable ready_;
  std::deque<Job> jobs_;
  bool closing_ = false;
};

}  // namespace

std::unique_ptr<Sink> MakeStoreSink(const std::string& path, std::uint32_t max_pages, Say say) {
  return std::make_unique<StoreSink>(path, max_pages, std::move(say));
}

Status CheckStoreBeforeRun(const std::string& path, const RunShape& shape, bool restore,
                           std::optional<std::uint64_t> restore_id) {
  std::error_code ec;
  if (!restore && !std::filesystem::exists(path, ec)) {  // created at start, if it can be
    return store::CannotWrite(path);
  }
  StatusOr<store::Store> s = store::Store::OpenReadOnly(path, /*brief=*/true);
  if (!s.ok()) return s.status();
  // Readable is not enough: rank 0 must write it.
  if (Status why = store::CannotWrite(path); !why.ok()) return why;
  try {
    if (auto writer = store::WriterLock::Holder(path)) return store::WriterRefusal(*writer);
    if (restore) {
      if (auto target = RestoreTarget(*s, shape, restore_id); !target.ok()) return target.status();
    }
  } catch (const store::StoreError& e) {
    return e.status();  // an unreadable file: one line, nothing started
  }
  return Status::Ok();
}

std::string FailUnfinished(const std::string& path, std::int64_t run, const Say& say) {
  // Marking the run died is a write, and the store may not take it (the
  // full disk that ended the run, another writer); naming the last complete
  // snapshot is a read, which needs none of that. So the write is tried, and
  // the answer read back all the same: from the writer's connection, or else
  // from a reader's. A run left "live" is marked died by the next run.
  std::optional<store::WriterLock> lock;
  std::optional<store::Store> writer;
  if (StatusOr<store::WriterLock> taken = store::WriterLock::Take(path); taken.ok()) {
    lock.emplace(std::move(taken).value());
    if (StatusOr<store::Store> opened = store::Store::Open(path, false); opened.ok()) {
      writer.emplace(std::move(opened).value());
    }
  }
  if (writer) {
    try {
      // The run died: it says so, and its unfinished snapshots fail with it.
      bool live = false;
      for (const auto& r : writer->Runs()) {
        if (r.id == run) live = r.status == "live";
      }
      if (live) {
        writer->EndRun(run, /*died=*/true, std::nullopt, EpochMicros());
      } else {
        writer->FailRunning(run);
      }
    } catch (const store::StoreError&) {
      // Not marked; what the store holds is read below.
    }
  }
  std::optional<store::Store> reader;
  if (!writer) {
    StatusOr<store::Store> opened = store::Store::OpenReadOnly(path, /*brief=*/true);
    if (!opened.ok()) return "unknown (" + say(opened.status()) + ")";
    reader.emplace(std::move(opened).value());
  }
  std::optional<store::SnapshotRecord> latest;
  try {
    latest = (writer ? *writer : *reader).LatestComplete();
  } catch (const store::StoreError& e) {
    return "unknown (" + say(e.status()) + ")";
  }
  if (!latest) return "none";
  // A dataflow's total is records, not money.
  if (!latest->vertices.empty()) {
    return fmt::format("#{} ({} records emitted)", latest->id, latest->total.value_or(0));
  }
  return fmt::format("#{} (total ${})", latest->id, latest->total.value_or(0));
}

}  // namespace cutline::runtime
