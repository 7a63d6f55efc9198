// One writer per store, decided by something that dies with its holder: an
// exclusive flock(2) on FILE-writer, beside the store. The kernel drops the
// lock when the holding process exits, however it exits (SIGKILL included),
// so a store whose job was killed is free at once. A heartbeat's age cannot
// tell a dead writer from a slow one; the lock can.
//
// The holder writes who it is (process, host, and its run once it has one)
// into the file, so a refusal names the live writer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "base/status.h"

namespace cutline::store {

// The holder of a store's writer lock, as it wrote itself down.
struct Writer {
  std::optional<std::int64_t> run;  // unknown until its run has begun
  long pid = 0;                     // 0 when it had not yet written itself down
  std::string host;
};

// Why a second writer is refused: kWriterBusy (run, process, host) once
// the holder has a run, else kWriterStarting.
Status WriterRefusal(const Writer& w);

// FILE-writer: the file whose lock decides the store's writer.
std::string WriterLockPath(const std::string& store_path);

class WriterLock {
 public:
  // Takes the lock of the store at `store_path`. On refusal, why:
  // WriterRefusal(the holder), or why the lock file could not be made.
  static StatusOr<WriterLock> Take(const std::string& store_path);

  // Who holds the lock now; nothing when no one does. Makes no file.
  static std::optional<Writer> Holder(const std::string& store_path);

  // Writes the run this holder writes, for the words of later refusals.
  void SetRun(std::int64_t run);

  WriterLock(WriterLock&& other) noexcept;
  WriterLock& operator=(WriterLock&& other) noexcept;
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;
  ~WriterLock();  // releases the lock (the file stays: removing it would race a taker)

 private:
  explicit WriterLock(int fd);
  void WriteDown();

  int fd_ = -1;
  Writer self_;
};

}  // namespace cutline::store
