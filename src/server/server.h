// `cutline serve`: the page's files and a stateless JSON API over HTTP
// (docs/api.md). The page holds the run as a scenario; the server runs it.
#pragma once

#include <memory>
#include <string>

namespace httplib {
class Server;
}

namespace cutline::server {

struct Options {
  std::string host = "127.0.0.1";
  int port = 8080;
  std::string web_dir;  // empty: the copy of web/ embedded in the binary
};

inline constexpr std::size_t kMaxBodyBytes = 64 * 1024;
inline constexpr std::size_t kMaxScenarioCommands = 2000;
inline constexpr std::size_t kMaxBranches = 10;

// Registers every route on `server` (used by Serve and by the API tests).
void Install(httplib::Server& server, const Options& options);

// Binds, prints the URL, serves until SIGINT/SIGTERM. Returns the exit code.
int Serve(const Options& options);

}  // namespace cutline::server
