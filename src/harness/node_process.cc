#include "harness/node_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace cutline::harness {

namespace {

// A child's end: what `wait` said.
Ending HowItEnded(int status) {
  if (WIFSIGNALED(status)) return {Ending::How::kKilled, WTERMSIG(status)};
  return {Ending::How::kExited, WIFEXITED(status) ? WEXITSTATUS(status) : 0};
}

void CloseFd(int* fd) {
  if (*fd >= 0) ::close(*fd);
  *fd = -1;
}

}  // namespace

std::optional<NodeProcess> NodeProcess::Start(const std::vector<std::string>& argv,
                                              std::string* why) {
  // A write to a node that has exited must be an answer (false), not the
  // tester's death by SIGPIPE.
  ::signal(SIGPIPE, SIG_IGN);
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) != 0) {
    *why = std::strerror(errno);
    return std::nullopt;
  }
  if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
    *why = std::strerror(errno);
    ::close(in[0]);
    ::close(in[1]);
    return std::nullopt;
  }
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t parent = ::getpid();
  // vfork: the child borrows the tester's memory until it execs, so a start
  // costs the same however large the search's states have grown (fork
  // copies the page tables of all of it). The child therefore only makes
  // system calls, and writes nothing the parent reads.
  const std::string cannot = "cannot run " + argv[0] + ": ";
  const pid_t pid = ::vfork();
  if (pid < 0) {
    *why = std::strerror(errno);
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) ::close(fd);
    return std::nullopt;
  }
  if (pid == 0) {
    // The child: dies with the tester, whatever kills it.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    ::signal(SIGPIPE, SIG_DFL);
    ::execvp(args[0], args.data());
    const char* why = std::strerror(errno);
    (void)!::write(2, cannot.data(), cannot.size());
    (void)!::write(2, why, std::strlen(why));
    (void)!::write(2, "\n", 1);
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  NodeProcess p;
  p.pid_ = pid;
  p.in_ = in[1];
  p.out_ = out[0];
  p.err_ = err[0];
  ::fcntl(p.out_, F_SETFL, O_NONBLOCK);
  ::fcntl(p.err_, F_SETFL, O_NONBLOCK);
  return p;
}

std::string NodeProcess::Unrunnable(const std::string& program) {
  if (program.empty()) return std::strerror(ENOENT);
  if (program.find('/') != std::string::npos) {
    return ::access(program.c_str(), X_OK) == 0 ? "" : std::strerror(errno);
  }
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  for (std::size_t start = 0; start <= dirs.size();) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const std::string dir = dirs.substr(start, end - start);
    const std::string full = (dir.empty() ? "." : dir) + "/" + program;
    if (::access(full.c_str(), X_OK) == 0) return "";
    start = end + 1;
  }
  return std::strerror(ENOENT);
}

NodeProcess::NodeProcess(NodeProcess&& other) noexcept { *this = std::move(other); }

NodeProcess& NodeProcess::operator=(NodeProcess&& other) noexcept {
  if (this != &other) {
    Stop();
    pid_ = std::exchange(other.pid_, -1);
    in_ = std::exchange(other.in_, -1);
    out_ = std::exchange(other.out_, -1);
    err_ = std::exchange(other.err_, -1);
    out_buffer_ = std::move(other.out_buffer_);
    err_buffer_ = std::move(other.err_buffer_);
    ended_ = std::move(other.ended_);
  }
  return *this;
}

NodeProcess::~NodeProcess() { Stop(); }

bool NodeProcess::Write(const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(in_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

void NodeProcess::DrainStderr() {
  if (err_ < 0) return;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(err_, buf, sizeof buf);
    if (n > 0) {
      err_buffer_.append(buf, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) CloseFd(&err_);  // its end: poll ignores a closed descriptor
    return;                      // else nothing more for now
  }
}

NodeProcess::Read NodeProcess::ReadLine(std::string* line, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  bool out_open = true;
  for (;;) {
    const std::size_t newline = out_buffer_.find('\n');
    if (newline != std::string::npos) {
      line->assign(out_buffer_, 0, newline);
      out_buffer_.erase(0, newline + 1);
      return Read::kLine;
    }
    if (!out_open) {
      DrainStderr();
      return Read::kEnded;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      DrainStderr();
      return Read::kTimedOut;
    }
    pollfd fds[2] = {{out_, POLLIN, 0}, {err_, POLLIN, 0}};  // err_ -1: ignored
    const int ready = ::poll(fds, 2, static_cast<int>(left.count()) + 1);
    if (ready < 0 && errno != EINTR) return Read::kEnded;
    if (fds[1].revents != 0) DrainStderr();
    if (fds[0].revents == 0) continue;
    char buf[65536];
    const ssize_t n = ::read(out_, buf, sizeof buf);
    if (n > 0) {
      out_buffer_.append(buf, static_cast<std::size_t>(n));
    } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
      out_open = false;  // a last line without its newline is still a line
      if (!out_buffer_.empty() && out_buffer_.back() != '\n') out_buffer_ += '\n';
    }
  }
}

std::string NodeProcess::TakeStderr() {
  DrainStderr();
  return std::exchange(err_buffer_, {});
}

Ending NodeProcess::Ended() {
  if (pid_ < 0) return ended_;
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) == pid_) {
    ended_ = HowItEnded(status);
    pid_ = -1;
  }
  return ended_;
}

Ending NodeProcess::WaitEnded(std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (Ended().how == Ending::How::kRunning && pid_ > 0 && std::chrono::steady_clock::now() < deadline) {
    ::usleep(1000);
  }
  return ended_;
}

Ending NodeProcess::Stop() {
  Ended();
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }
  Close();
  return ended_;
}

void NodeProcess::Close() {
  CloseFd(&in_);
  CloseFd(&out_);
  CloseFd(&err_);
}

}  // namespace cutline::harness
