// `cutline serve`: the page's files and a stateless JSON API over HTTP
// (docs/api.md), on the event-driven transport of http_server.h. The page
// holds the run as a scenario; the server runs it.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "lecture/rooms.h"
#include "server/http_server.h"
#include "server/run_cache.h"
#include "server/routes.h"
#include "server/static_files.h"

namespace cutline::server {

struct Options {
  std::string host = "127.0.0.1";
  int port = 8080;
  std::string web_dir;  // empty: the copy of web/ embedded in the binary
  std::string store;    // `--store FILE`: a runtime's store, shown live
  lecture::Limits lecture;  // how many rooms, students, and for how long
  std::size_t run_cache = 64;  // /api/run answers kept by request (0: none)
  // The transport's limits and hooks; host and port above win over its own.
  HttpOptions http;
};

inline constexpr std::size_t kMaxBodyBytes = 64 * 1024;

// The page's server: cutline's routes on an HttpServer.
class Server {
 public:
  explicit Server(const Options& options);
  ~Server();
  // Returns the port it listens on; or why not: kCannotListen, or a store's
  // code for a --store that is not a store (the user's input, which `serve`
  // answers with status 2).
  StatusOr<int> Start();
  void Stop() { http_.Stop(); }
  // To every listener of GET /api/events.
  void Publish(std::string_view event, std::string_view data) { http_.Publish(event, data); }
  std::size_t connections() const { return http_.connections(); }

 private:
  Options options_;
  StaticFiles files_;  // prepared once, before the first request
  lecture::Rooms rooms_;
  RunCache runs_;
  Site site_;
  std::unique_ptr<StoreWatch> store_;
  HttpServer http_;
};

// Binds, prints the URL, serves until SIGINT/SIGTERM. Returns the exit code.
int Serve(const Options& options);

}  // namespace cutline::server
