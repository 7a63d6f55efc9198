// `cutline serve`: the page's files and a stateless JSON API over HTTP
// (docs/api.md). The page holds the run as a scenario; the server runs it.
#pragma once

#include <memory>
#include <string>

#include "scenario/runner.h"

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
// What one /api/run may cost: the work and the report grow with the n(n-1)
// channels and with the history. A page visitor stays far below these.
inline constexpr scenario::Limits kLimits{
    .max_branches = 10, .max_commands = 2000, .max_events = 50000};

// Registers every route on `server` (used by Serve and by the API tests).
void Install(httplib::Server& server, const Options& options);

// Binds, prints the URL, serves until SIGINT/SIGTERM. Returns the exit code.
int Serve(const Options& options);

}  // namespace cutline::server
