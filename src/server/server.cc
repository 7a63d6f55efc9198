// Wiring for `cutline serve`: the routes on the transport, the file limit,
// and a clean stop on Ctrl-C.
#include "server/server.h"

#include <fmt/format.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>

#include "base/error_line.h"
#include "base/lang.h"
#include "catalogue/messages.h"
#include "server/store_watch.h"

namespace cutline::server {

namespace {

HttpOptions Transport(const Options& options) {
  HttpOptions http = options.http;
  http.host = options.host;
  http.port = options.port;
  http.max_body = kMaxBodyBytes;
  return http;
}

// Each connection is a descriptor: take the whole allowance the system
// gives, and keep the connection cap below it, so that a full room is
// refused with a 503 rather than with failed accepts.
void FitConnectionsToDescriptors(HttpOptions* http) {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
  if (limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
    getrlimit(RLIMIT_NOFILE, &limit);
  }
  if (limit.rlim_cur == RLIM_INFINITY) return;
  // Room for the listener, files of --web-dir and the process's own.
  std::size_t usable = limit.rlim_cur > 64 ? limit.rlim_cur - 64 : 1;
  if (http->max_connections > usable) http->max_connections = usable;
}

}  // namespace

Server::Server(const Options& options)
    : options_(options),
      files_(options.web_dir),
      rooms_(options.lecture),
      runs_(options.run_cache),
      site_{&files_, nullptr, &rooms_, &runs_,
            [this](std::string_view topic, std::string_view event, std::string_view data) {
              http_.Publish(topic, event, data);
            }},
      http_(Transport(options), [this](const Request& request) { return Route(request, site_); }) {}

Server::~Server() {
  // The watcher publishes through the transport, and the transport's
  // workers read the store: stop them in that order before either goes.
  if (store_) store_->StopWatching();
  http_.Stop();
}

StatusOr<int> Server::Start() {
  if (!options_.store.empty()) {
    StatusOr<std::unique_ptr<StoreWatch>> watch = StoreWatch::Open(options_.store);
    if (!watch.ok()) return watch.status();
    store_ = std::move(watch).value();
    site_.store = store_.get();
  }
  StatusOr<int> port = http_.Start();
  if (port.ok() && store_) {
    // Open pages hear of every commit to the store and fetch what changed.
    store_->Watch([this] { http_.Publish("store", R"({"changed":true})"); });
  }
  return port;
}

int Serve(const Options& options) {
  // Block the stop signals in every thread; this one waits for them and
  // stops the server, so Ctrl-C ends the process cleanly, not mid-write.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  Options fitted = options;
  FitConnectionsToDescriptors(&fitted.http);
  Server server(fitted);
  StatusOr<int> started = server.Start();
  if (!started.ok()) {
    PrintErrorLine(catalogue::Message(started.status(), Lang::kEn));
    // A --store that is not a store is bad input (status 2); a port that
    // cannot be had is not (status 1).
    return started.status().code() == Code::kCannotListen ? 1 : 2;
  }
  const int port = *started;
  std::string host = options.host.find(':') != std::string::npos
                         ? "[" + options.host + "]"
                         : options.host;
  fmt::print("cutline serving http://{}:{}/ (Ctrl-C to stop)\n", host, port);
  std::fflush(stdout);
  int signal = 0;
  sigwait(&stop_signals, &signal);
  server.Stop();
  fmt::print("cutline: stopped\n");
  return 0;
}

}  // namespace cutline::server
