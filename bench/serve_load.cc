// `make bench-serve`: a classroom against the real `cutline serve`, in one
// run. It starts the binary it is given, then plays, each for a while:
//   - N visitors (10, 100, 1,000), each a keep-alive connection that clicks
//     every 1.5-2.5 s, as a browser would: a click is a POST /api/run of the
//     scenario the page holds (demo 3 played to its end); a click that meets
//     a closed connection is retried once on a fresh one;
//   - the largest of them again while thousands of other connections sit
//     open and idle (open pages whose visitors are reading);
//   - plain requests while hundreds of connections have sent half a header;
//   - requests per second at full load: connections sending back to back.
// It prints a Markdown table (docs/performance.md keeps one) with the
// machine it ran on. One event-driven client thread plays every connection,
// on the same cores as the server: the figures include that competition.
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <utility>  // before Asio: its awaitable.hpp uses std::exchange

#include <CLI/CLI.hpp>
#include <boost/asio.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "scenario/demos.h"

#include "machine.h"
#include "server_process.h"

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using asio::awaitable;
using asio::use_awaitable;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr auto kClickTimeout = 10s;

struct Latencies {
  std::vector<double> ms;
  int failures = 0;
  double Percentile(double p) const {
    if (ms.empty()) return 0;
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    auto at = static_cast<std::size_t>(p / 100.0 * static_cast<double>(sorted.size() - 1) + 0.5);
    return sorted[std::min(at, sorted.size() - 1)];
  }
  double Max() const { return ms.empty() ? 0 : *std::max_element(ms.begin(), ms.end()); }
};

struct Target {
  tcp::endpoint endpoint;
  http::request<http::string_body> click;   // POST /api/run
  http::request<http::string_body> health;  // GET /api/health
};

// One keep-alive connection of the client.
struct Conn {
  explicit Conn(asio::any_io_executor ex) : stream(ex) {}
  beast::tcp_stream stream;
  beast::flat_buffer buffer;
  bool open = false;
};

awaitable<bool> Connect(Conn& c, const tcp::endpoint& endpoint) {
  beast::error_code ec;
  c.stream.close();
  c.buffer.clear();
  c.stream.expires_after(kClickTimeout);
  co_await c.stream.async_connect(endpoint, asio::redirect_error(use_awaitable, ec));
  c.open = !ec;
  co_return c.open;
}

// One request and its answer; false if the connection failed on the way or
// the answer was not 200.
awaitable<bool> Exchange(Conn& c, const http::request<http::string_body>& req) {
  beast::error_code ec;
  c.stream.expires_after(kClickTimeout);
  co_await http::async_write(c.stream, req, asio::redirect_error(use_awaitable, ec));
  if (ec) {
    c.open = false;
    co_return false;
  }
  http::response<http::string_body> res;
  co_await http::async_read(c.stream, c.buffer, res, asio::redirect_error(use_awaitable, ec));
  if (ec) {
    c.open = false;
    co_return false;
  }
  if (!res.keep_alive()) c.open = false;
  co_return res.result_int() == 200;
}

// A click as a browser makes it: on the open connection, and once more on a
// fresh one if that connection turns out to be closed.
awaitable<std::optional<double>> Click(Conn& c, const Target& t,
                                       const http::request<http::string_body>& req) {
  auto start = Clock::now();
  bool ok = c.open && co_await Exchange(c, req);
  if (!ok && co_await Connect(c, t.endpoint)) ok = co_await Exchange(c, req);
  if (!ok) co_return std::nullopt;
  co_return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

awaitable<void> Sleep(std::chrono::milliseconds d) {
  asio::steady_timer timer(co_await asio::this_coro::executor, d);
  co_await timer.async_wait(use_awaitable);
}

awaitable<void> Visitor(const Target& t, Clock::time_point end, unsigned seed, Latencies& out) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> think(1500, 2500);
  Conn c(co_await asio::this_coro::executor);
  co_await Sleep(std::chrono::milliseconds(rng() % 2000));  // arrivals spread out
  while (Clock::now() < end) {
    auto ms = co_await Click(c, t, t.click);
    if (ms) {
      out.ms.push_back(*ms);
    } else {
      ++out.failures;
    }
    co_await Sleep(std::chrono::milliseconds(think(rng)));
  }
}

// Connections that made one request and then stay open, saying nothing.
awaitable<void> OpenIdle(const Target& t, int count, std::vector<std::unique_ptr<Conn>>& out,
                         int& failed) {
  auto ex = co_await asio::this_coro::executor;
  for (int i = 0; i < count; ++i) {
    auto c = std::make_unique<Conn>(ex);
    if (!co_await Connect(*c, t.endpoint) || !co_await Exchange(*c, t.health)) {
      ++failed;
      continue;
    }
    c->stream.expires_never();
    out.push_back(std::move(c));
  }
}

// Connections that sent half a request header and then nothing.
awaitable<void> OpenSlow(const Target& t, int count, std::vector<std::unique_ptr<Conn>>& out) {
  auto ex = co_await asio::this_coro::executor;
  for (int i = 0; i < count; ++i) {
    auto c = std::make_unique<Conn>(ex);
    if (!co_await Connect(*c, t.endpoint)) continue;
    beast::error_code ec;
    co_await asio::async_write(c->stream, asio::buffer(std::string_view("POST /api/run HTTP/1.1\r\nHost: x\r\nContent-Le")),
                               asio::redirect_error(use_awaitable, ec));
    c->stream.expires_never();
    out.push_back(std::move(c));
  }
}

awaitable<void> Hammer(const Target& t, http::request<http::string_body> req, Clock::time_point end,
                       Latencies& out) {
  Conn c(co_await asio::this_coro::executor);
  while (Clock::now() < end) {
    auto ms = co_await Click(c, t, req);
    if (ms) {
      out.ms.push_back(*ms);
    } else {
      ++out.failures;
    }
  }
}

// Still open: the server has not closed it (a peek finds no end of stream).
int CountOpen(const std::vector<std::unique_ptr<Conn>>& conns) {
  int open = 0;
  for (const auto& c : conns) {
    char byte;
    ssize_t n = ::recv(c->stream.socket().native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) ++open;
  }
  return open;
}


void Row(const std::string& what, const Latencies& l, double seconds) {
  fmt::print("| {} | {} | {:.1f} | {:.1f} | {:.1f} | {} | {:.0f} |\n", what, l.ms.size(),
             l.Percentile(50), l.Percentile(99), l.Max(), l.failures,
             static_cast<double>(l.ms.size()) / seconds);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"A classroom of keep-alive visitors against `cutline serve`"};
  std::string binary = "build-release/cutline";
  std::vector<int> visitors = {10, 100, 1000};
  int idle = 5000;
  int slow = 300;
  int seconds = 20;
  int full_load_connections = 32;
  app.add_option("--server", binary, "The cutline binary to start")->capture_default_str();
  app.add_option("--visitors", visitors, "Visitor counts to play, one phase each")
      ->delimiter(',');
  app.add_option("--idle", idle, "Idle connections held open in the idle phase")
      ->capture_default_str();
  app.add_option("--slow", slow, "Half-sent requests held open in the slow phase")
      ->capture_default_str();
  app.add_option("--seconds", seconds, "Length of each phase")->capture_default_str();
  app.add_option("--full-load", full_load_connections,
                 "Connections sending back to back at full load")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  rlimit limit{};
  getrlimit(RLIMIT_NOFILE, &limit);
  limit.rlim_cur = limit.rlim_max;
  setrlimit(RLIMIT_NOFILE, &limit);

  cutline::bench::ServerProcess server;
  try {
    cutline::bench::StartServer(binary, &server);
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench-serve: {}\n", e.what());
    return 1;
  }

  Target t;
  t.endpoint = tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(server.port));
  std::string scenario = cutline::scenario::DemoScenario(*cutline::scenario::FindDemo(3));
  t.click = {http::verb::post, "/api/run", 11};
  t.click.set(http::field::host, "127.0.0.1");
  t.click.set(http::field::content_type, "application/json");
  t.click.body() = nlohmann::json{{"scenario", scenario}, {"error_status", 200}}.dump();
  t.click.prepare_payload();
  t.health = {http::verb::get, "/api/health", 11};
  t.health.set(http::field::host, "127.0.0.1");

  fmt::print("Machine: {}; server: {} (pid {}), client: one thread, same machine.\n", cutline::bench::Machine(),
             binary, server.pid);
  fmt::print("A click: POST /api/run of demo 3 played to its end ({} bytes); think time 1.5-2.5 s.\n\n",
             t.click.body().size());
  fmt::print("| load | answers | p50 ms | p99 ms | max ms | failures | answers/s |\n");
  fmt::print("|---|---|---|---|---|---|---|\n");
  std::fflush(stdout);

  const auto phase = std::chrono::seconds(seconds);
  unsigned seed = 1;
  for (int n : visitors) {
    asio::io_context ioc(1);
    Latencies l;
    auto end = Clock::now() + phase;
    for (int i = 0; i < n; ++i) asio::co_spawn(ioc, Visitor(t, end, seed++, l), asio::detached);
    ioc.run();
    Row(fmt::format("{} visitors", n), l, seconds);
  }

  if (idle > 0 && !visitors.empty()) {
    asio::io_context ioc(1);
    std::vector<std::unique_ptr<Conn>> idle_conns;
    int failed = 0;
    const int openers = 50;
    for (int i = 0; i < openers; ++i) {
      asio::co_spawn(ioc, OpenIdle(t, idle / openers, idle_conns, failed), asio::detached);
    }
    ioc.run();
    ioc.restart();
    int n = visitors.back();
    Latencies l;
    auto end = Clock::now() + phase;
    for (int i = 0; i < n; ++i) asio::co_spawn(ioc, Visitor(t, end, seed++, l), asio::detached);
    ioc.run();
    Row(fmt::format("{} visitors + {} idle connections ({} failed to open, {} still open "
                    "at the end)",
                    n, idle_conns.size(), failed, CountOpen(idle_conns)),
        l, seconds);
  }

  if (slow > 0) {
    asio::io_context ioc(1);
    std::vector<std::unique_ptr<Conn>> slow_conns;
    for (int i = 0; i < 10; ++i) {
      asio::co_spawn(ioc, OpenSlow(t, slow / 10, slow_conns), asio::detached);
    }
    ioc.run();
    ioc.restart();
    Latencies l;
    auto start = Clock::now();
    asio::co_spawn(ioc, [&]() -> awaitable<void> {
      for (int i = 0; i < 50; ++i) {
        Conn c(co_await asio::this_coro::executor);  // a new visitor each time
        auto ms = co_await Click(c, t, t.click);
        if (ms) {
          l.ms.push_back(*ms);
        } else {
          ++l.failures;
        }
      }
    }, asio::detached);
    ioc.run();
    Row(fmt::format("{} half-sent requests held open; clicks on new connections", slow_conns.size()),
        l, std::chrono::duration<double>(Clock::now() - start).count());
  }

  for (const auto& [what, req] : {std::pair{"POST /api/run", t.click}, std::pair{"GET /api/health", t.health}}) {
    asio::io_context ioc(1);
    Latencies l;
    auto end = Clock::now() + std::chrono::seconds(std::max(5, seconds / 2));
    for (int i = 0; i < full_load_connections; ++i) {
      asio::co_spawn(ioc, Hammer(t, req, end, l), asio::detached);
    }
    ioc.run();
    Row(fmt::format("full load, {} connections back to back: {}", full_load_connections, what), l,
        std::max(5, seconds / 2));
  }
  return 0;
}
