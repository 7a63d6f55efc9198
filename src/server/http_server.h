// An event-driven HTTP/1.1 server (Boost.Beast on Asio): one I/O thread
// carries every connection, and a small pool of workers runs the handler.
// An idle or slow connection costs a socket and a few kilobytes, never a
// thread, so a classroom of open pages cannot starve the clicks
// (docs/design.md, "The server"). It knows nothing of cutline's routes: it
// takes a Handler.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "base/status.h"
#include "server/http_message.h"

namespace cutline::server {

struct HttpOptions {
  std::string host = "127.0.0.1";
  int port = 8080;  // 0: any free port
  // Open connections at once; past it a new one gets 503 and is closed.
  std::size_t max_connections = 10000;
  // How long a connection may wait, open and silent, for its next request.
  std::chrono::milliseconds idle_timeout = std::chrono::seconds(60);
  // How long a request may take to arrive whole (headers and body), and a
  // response to be taken by the client, once the first byte has come.
  std::chrono::milliseconds request_timeout = std::chrono::seconds(10);
  // Bodies over this are answered 413 (and never reach the handler).
  std::size_t max_body = 64 * 1024;
  // Workers running the handler; 0: one per core.
  unsigned workers = 0;
  // Called on the I/O thread once per answered request, e.g. for a log.
  std::function<void(std::string_view method, std::string_view target, int status)>
      access_log;
};

class HttpServer {
 public:
  using Handler = std::function<Response(const Request&)>;

  HttpServer(HttpOptions options, Handler handler);
  ~HttpServer();  // stops
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds, listens and starts the threads. Returns the port it listens on,
  // or kCannotListen.
  StatusOr<int> Start();
  // Stops accepting, closes idle connections and event streams, lets the
  // requests being answered finish (for at most a second), joins the threads.
  // Safe to call more than once.
  void Stop();

  // Sends `event` with `data` (one line of JSON, say) to every open event
  // stream of `topic` (Response::stream_topic). Safe from any thread.
  void Publish(std::string_view topic, std::string_view event, std::string_view data);
  // To the server-wide stream (topic "").
  void Publish(std::string_view event, std::string_view data) { Publish("", event, data); }

  // Open connections, for tests and the status line; read on any thread.
  std::size_t connections() const;

  struct Impl;  // http_server.cc: keeps Asio and Beast out of this header

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace cutline::server
