// Runs the real `cutline` binary (CUTLINE_BINARY) as a child process and
// gives back its standard output, standard error and exit status. Shared by
// the CLI and cluster tests.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <cstdlib>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

struct Outcome {
  bool exited = false;  // ended by exit(), not by a signal or the time limit
  int status = -1;      // its exit status
  std::string out, err;
};

inline std::ostream& operator<<(std::ostream& os, const Outcome& o) {
  return os << "exited=" << o.exited << " status=" << o.status << "\n--- stdout\n"
            << o.out << "--- stderr\n" << o.err;
}

inline std::string ReadFd(int fd) {
  std::string text;
  ::lseek(fd, 0, SEEK_SET);
  char buf[8192];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(n));
  return text;
}

inline int TempFd(const std::string& content = "") {
  char name[] = "/tmp/cutline_cli_test_XXXXXX";
  int fd = ::mkstemp(name);
  if (fd < 0) return -1;
  ::unlink(name);
  if (!content.empty() &&
      ::write(fd, content.data(), content.size()) != static_cast<ssize_t>(content.size())) {
    ::close(fd);
    return -1;
  }
  ::lseek(fd, 0, SEEK_SET);
  return fd;
}

// The child: standard streams redirected, signals as a shell would leave them.
[[noreturn]] inline void ExecCutline(const std::vector<std::string>& args, int in, int out,
                              int err) {
  ::dup2(in, 0);
  ::dup2(out, 1);
  ::dup2(err, 2);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::signal(SIGINT, SIG_DFL);
  ::signal(SIGTERM, SIG_DFL);
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(CUTLINE_BINARY));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ::execv(CUTLINE_BINARY, argv.data());
  ::_exit(127);
}

// Waits up to `limit` for the child; kills it if it is still running.
inline bool WaitFor(pid_t pid, std::chrono::milliseconds limit, int* wstatus) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    pid_t r = ::waitpid(pid, wstatus, WNOHANG);
    if (r == pid) return true;
    if (r < 0) return false;
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, wstatus, 0);
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

// Runs `cutline args...` with `input` on standard input, for at most
// `limit` (then it is killed, and `exited` is false). `in_child`, if given,
// runs in the child before the exec (a mount namespace of its own, say); its
// false ends the child with status 126.
inline Outcome Cutline(const std::vector<std::string>& args, const std::string& input = "",
                       std::chrono::seconds limit = std::chrono::seconds(60),
                       const std::function<bool()>& in_child = {}) {
  Outcome o;
  int in = TempFd(input), out = TempFd(), err = TempFd();
  if (in < 0 || out < 0 || err < 0) {
    ADD_FAILURE() << "cannot make temporary files";
    return o;
  }
  pid_t pid = ::fork();
  if (pid == 0) {
    if (in_child && !in_child()) ::_exit(126);
    ExecCutline(args, in, out, err);
  }
  int wstatus = 0;
  bool done = pid > 0 && WaitFor(pid, limit, &wstatus);
  o.out = ReadFd(out);
  o.err = ReadFd(err);
  ::close(in);
  ::close(out);
  ::close(err);
  if (done && WIFEXITED(wstatus)) {
    o.exited = true;
    o.status = WEXITSTATUS(wstatus);
  }
  return o;
}

inline std::size_t Lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

inline bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A command the tool refuses: status 2, one line on standard error that
// says `says`, nothing on standard output.
inline void ExpectRefusedInOneLine(const std::vector<std::string>& args, const std::string& says) {
  std::string command = "cutline";
  for (const std::string& a : args) command += " " + a;
  SCOPED_TRACE(command);
  Outcome o = Cutline(args);
  EXPECT_EQ(o.status, 2) << o;
  EXPECT_TRUE(Contains(o.err, says)) << o;
  EXPECT_EQ(Lines(o.err), 1u) << o;
  EXPECT_TRUE(o.out.empty()) << o;
}
