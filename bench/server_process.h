// The real `cutline serve` as a child process, for the load benchmarks: it
// is started on a free port and stopped (SIGINT, as Ctrl-C) when this goes.
#pragma once

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace cutline::bench {

struct ServerProcess {
  pid_t pid = -1;
  int port = -1;
  ServerProcess() = default;
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;
  ~ServerProcess() {
    if (pid > 0) {
      ::kill(pid, SIGINT);
      int status;
      ::waitpid(pid, &status, 0);
    }
  }
};

// Starts `binary serve --port 0 <extra...>` and reads the port from its
// first line; throws with that line if it did not start.
inline void StartServer(const std::string& binary, ServerProcess* server,
                        const std::vector<std::string>& extra = {}) {
  int out[2];
  if (::pipe(out) != 0) throw std::runtime_error("pipe failed");
  std::vector<std::string> args = {binary, "serve", "--port", "0"};
  args.insert(args.end(), extra.begin(), extra.end());
  server->pid = ::fork();
  if (server->pid == 0) {
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::dup2(out[1], 1);
    ::close(out[0]);
    ::close(out[1]);
    ::execv(binary.c_str(), argv.data());
    _exit(127);
  }
  ::close(out[1]);
  std::string line;
  char c;
  while (::read(out[0], &c, 1) == 1 && c != '\n') line += c;
  ::close(out[0]);
  auto colon = line.rfind(':');
  if (line.rfind("cutline serving", 0) != 0 || colon == std::string::npos) {
    throw std::runtime_error("the server did not start: " + line);
  }
  server->port = std::atoi(line.c_str() + colon + 1);
}

}  // namespace cutline::bench
