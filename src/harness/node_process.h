// One node of a program under test: a child process the tester talks to
// over pipes, one JSON message a line (Maelstrom's protocol: stdin in,
// stdout out, stderr the program's own log). The tester is the child's
// network, so nothing here interprets the lines; nodes.h does.
//
// No process is left behind: a child dies with its tester (the kernel's
// parent-death signal, so Ctrl-C or a crash of the tester take it along),
// and Stop or the destructor kill and reap it.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cutline::harness {

// How a process ended, as `wait` tells it; kRunning until it has.
struct Ending {
  enum class How : std::uint8_t { kRunning, kExited, kKilled };
  How how = How::kRunning;
  int number = 0;  // kExited: its status; kKilled: the signal
};

class NodeProcess {
 public:
  // Starts `argv` (argv[0] found on PATH) with its three pipes. False, with
  // the OS's words in *why, when it cannot be started at all (a program
  // that exists but fails to exec says so on stderr and exits 127).
  static std::optional<NodeProcess> Start(const std::vector<std::string>& argv,
                                          std::string* why);
  // Why `program` cannot be run (the OS's words: not found on PATH, not
  // executable), or empty when it can: asked once before any node starts,
  // so that a mistyped program is a refusal, not every node's failure.
  static std::string Unrunnable(const std::string& program);
  NodeProcess(NodeProcess&& other) noexcept;
  NodeProcess& operator=(NodeProcess&& other) noexcept;
  NodeProcess(const NodeProcess&) = delete;
  NodeProcess& operator=(const NodeProcess&) = delete;
  ~NodeProcess();

  // Writes `text` (lines already ended). False once the child has closed
  // its stdin (it exited).
  bool Write(const std::string& text);

  enum class Read { kLine, kEnded, kTimedOut };
  // The next line of its stdout (without the newline), waiting at most
  // `limit`; what it writes to stderr meanwhile is kept (TakeStderr).
  Read ReadLine(std::string* line, std::chrono::milliseconds limit);

  // What it wrote to stderr since the last call.
  std::string TakeStderr();
  // Kills and reaps it; how it had ended by itself before, if it had.
  Ending Stop();
  // Whether it has ended, and how, without waiting.
  Ending Ended();
  // The same, waiting up to `limit` for it to end: a child that closed its
  // output is usually exiting, and its status says more than the close.
  Ending WaitEnded(std::chrono::milliseconds limit);

 private:
  NodeProcess() = default;
  void Close();
  void DrainStderr();

  pid_t pid_ = -1;
  int in_ = -1, out_ = -1, err_ = -1;
  std::string out_buffer_, err_buffer_;
  Ending ended_;  // how it ended, once reaped
};

}  // namespace cutline::harness
