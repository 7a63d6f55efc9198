#include "store/writer_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <sstream>
#include <thread>
#include <utility>

namespace cutline::store {

namespace {

// The file's text: "run 3\npid 812\nhost node1\n" (run only once known).
std::string Describe(const Writer& w) {
  std::string text;
  if (w.run) text += fmt::format("run {}\n", *w.run);
  return text + fmt::format("pid {}\nhost {}\n", w.pid, w.host);
}

Writer ReadDown(int fd) {
  std::string text;
  char buffer[512];
  for (off_t at = 0;;) {
    const ssize_t n = ::pread(fd, buffer, sizeof buffer, at);
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
    at += n;
  }
  Writer w;
  std::istringstream lines(text);
  std::string key;
  while (lines >> key) {
    if (key == "run") {
      std::int64_t run = 0;
      if (lines >> run) w.run = run;
    } else if (key == "pid") {
      lines >> w.pid;
    } else if (key == "host") {
      lines >> w.host;
    }
  }
  return w;
}

std::string HostName() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

}  // namespace

Status WriterRefusal(const Writer& w) {
  const long pid = w.pid > 0 ? w.pid : 0;
  if (w.run) return Status::Error(Code::kWriterBusy, *w.run, pid, w.host);
  return Status::Error(Code::kWriterStarting, pid, w.host);
}

std::string WriterLockPath(const std::string& store_path) { return store_path + "-writer"; }

StatusOr<WriterLock> WriterLock::Take(const std::string& store_path) {
  const std::string path = WriterLockPath(store_path);
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return Status::Error(Code::kCannotMake, path, std::strerror(errno));
  // A reader asking Holder() holds a shared lock for an instant: a few
  // tries ride over it, while a writer's lock stays and refuses.
  for (int attempt = 0;; ++attempt) {
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) break;
    if (errno != EWOULDBLOCK || attempt == 20) {
      Status why = errno == EWOULDBLOCK
                       ? WriterRefusal(ReadDown(fd))
                       : Status::Error(Code::kCannotLock, path, std::strerror(errno));
      ::close(fd);
      return why;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  WriterLock lock(fd);
  lock.self_.pid = static_cast<long>(::getpid());
  lock.self_.host = HostName();
  lock.WriteDown();
  return lock;
}

std::optional<Writer> WriterLock::Holder(const std::string& store_path) {
  const int fd = ::open(WriterLockPath(store_path).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;  // never written: no writer
  std::optional<Writer> holder;
  if (::flock(fd, LOCK_SH | LOCK_NB) == 0) {
    ::flock(fd, LOCK_UN);
  } else if (errno == EWOULDBLOCK) {
    holder = ReadDown(fd);
  }
  ::close(fd);
  return holder;
}

void WriterLock::SetRun(std::int64_t run) {
  self_.run = run;
  WriteDown();
}

void WriterLock::WriteDown() {
  // Best effort: the lock, not the words, decides; a reader that finds the
  // file half written names "a process starting".
  const std::string text = Describe(self_);
  if (::ftruncate(fd_, 0) == 0) {
    [[maybe_unused]] ssize_t n = ::pwrite(fd_, text.data(), text.size(), 0);
  }
}

WriterLock::WriterLock(int fd) : fd_(fd) {}

WriterLock::WriterLock(WriterLock&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), self_(std::move(other.self_)) {}

WriterLock& WriterLock::operator=(WriterLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    self_ = std::move(other.self_);
  }
  return *this;
}

WriterLock::~WriterLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor drops the lock
}

}  // namespace cutline::store
