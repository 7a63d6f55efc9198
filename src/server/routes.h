// The page's HTTP API (docs/api.md): which path answers what. Pure request
// in, response out; http_server.cc carries them over the network.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "scenario/runner.h"
#include "server/http_message.h"

namespace cutline::server {

// What one /api/run may cost: the work and the report grow with the n(n-1)
// channels and with the history. A page visitor stays far below these.
inline constexpr scenario::Limits kLimits{
    .max_branches = 10, .max_commands = 2000, .max_events = 50000};
// /api/compare runs the scenario once per algorithm (five times): each run
// gets a fifth of the events, so that a comparison costs about one /api/run.
inline constexpr scenario::Limits kCompareLimits{
    .max_branches = kLimits.max_branches,
    .max_commands = kLimits.max_commands,
    .max_events = kLimits.max_events / 5};

// What one /api/explore may cost: a few seconds of one worker, and the
// distinct states it keeps (about 100 to 300 bytes each, with the run it
// is expanding: demo 15's search, in full, peaks at about 11 MB). Every
// demo is searched in full inside them (api_test holds them to the bound on
// states); `cutline explore` on the visitor's own machine has no bound but
// theirs.
struct ExploreBounds {
  std::uint64_t max_states;
  double max_seconds;
};
inline constexpr ExploreBounds kExploreBounds{.max_states = 50000, .max_seconds = 3};

class StoreWatch;
class StaticFiles;
class RunCache;
}  // namespace cutline::server
namespace cutline::lecture {
class Rooms;
}  // namespace cutline::lecture
namespace cutline::server {

// Sends an event to the listeners of one topic's stream (HttpServer::Publish).
using Publisher = std::function<void(std::string_view topic, std::string_view event, std::string_view data)>;

// What the routes read besides the request.
struct Site {
  const StaticFiles* files = nullptr;  // the page's files (never null in a server)
  StoreWatch* store = nullptr;         // `serve --store`; null: none
  lecture::Rooms* rooms = nullptr;     // the lectures this server holds; null: none
  RunCache* runs = nullptr;            // the last /api/run answers; null: none kept
  Publisher publish;                   // how a route tells a room what changed
};

// The answer to `request`. Runs on a worker thread: it may take a few
// milliseconds of CPU.
Response Route(const Request& request, const Site& site);

}  // namespace cutline::server
