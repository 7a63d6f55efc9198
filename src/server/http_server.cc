// The transport: accepting, reading requests against their deadlines,
// handing them to the workers, writing the answers in order, event streams,
// and stopping. Everything that touches a connection runs on the one I/O
// thread, so nothing here needs a lock but the connection counter.
#include "server/http_server.h"

#include <utility>  // before Asio: its awaitable.hpp uses std::exchange

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <atomic>
#include <cctype>
#include <deque>
#include <optional>
#include <thread>
#include <unordered_map>
#include <unordered_set>

namespace cutline::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

// Headers every answer carries: the page runs only its own scripts and
// styles, and is never framed.
constexpr std::pair<const char*, const char*> kSecurityHeaders[] = {
    {"X-Content-Type-Options", "nosniff"},
    {"Content-Security-Policy",
     "default-src 'self'; img-src 'self' data:; style-src 'self'; "
     "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"},
    {"Referrer-Policy", "no-referrer"},
};

// A body past the handler's limit is still read to its end and dropped, so
// that the connection stays in step and the client reads its 413 rather than
// a reset. Past this much more, the connection is closed instead.
constexpr std::uint64_t kMaxDrainedBody = 4 * 1024 * 1024;
constexpr std::size_t kMaxHeaderBytes = 16 * 1024;
// How long a closing connection keeps reading (and dropping) what the client
// still sends, so that its last answer is not lost to a reset.
constexpr auto kLingerTime = std::chrono::seconds(1);
// Event streams get a comment this often: it keeps proxies from closing them
// and finds listeners that went away without a word.
constexpr auto kHeartbeat = std::chrono::seconds(15);
// A listener this many events behind is dropped (its browser reconnects).
constexpr std::size_t kMaxQueuedEvents = 256;
// Refusals (503 past the connection cap) being written at once; past this a
// new connection is closed without a word.
constexpr std::size_t kMaxRefusals = 1024;
constexpr auto kStopGrace = std::chrono::seconds(1);

// A string body that keeps at most `limit` bytes and notes an overflow
// instead of failing, so the rest of the body is read and dropped.
struct CappedBody {
  struct value_type {
    std::string data;
    std::size_t limit = 0;
    bool overflow = false;
  };
  class reader {
   public:
    template <bool isRequest, class Fields>
    reader(http::header<isRequest, Fields>&, value_type& body) : body_(body) {}
    void init(const boost::optional<std::uint64_t>&, beast::error_code& ec) { ec = {}; }
    template <class Buffers>
    std::size_t put(const Buffers& buffers, beast::error_code& ec) {
      ec = {};
      std::size_t n = beast::buffer_bytes(buffers);
      if (body_.overflow || body_.data.size() + n > body_.limit) {
        body_.overflow = true;
        body_.data.clear();
        return n;
      }
      for (auto b : beast::buffers_range_ref(buffers)) {
        body_.data.append(static_cast<const char*>(b.data()), b.size());
      }
      return n;
    }
    void finish(beast::error_code& ec) { ec = {}; }

   private:
    value_type& body_;
  };
};

std::string FormatEvent(std::string_view event, std::string_view data, std::uint64_t id) {
  // Only published events have an id; `ready` is the stream's own.
  std::string out = id > 0 ? "id: " + std::to_string(id) + "\n" : "";
  out += "event: ";
  out += event;
  out += '\n';
  // A line break would end the field: each line of data is a field of its own.
  std::size_t start = 0;
  for (;;) {
    std::size_t end = data.find('\n', start);
    out += "data: ";
    out += data.substr(start, end == std::string_view::npos ? end : end - start);
    out += '\n';
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return out + '\n';
}

}  // namespace

class Session;

struct HttpServer::Impl {
  HttpOptions options;
  Handler handler;
  // Declared before the io_context: sessions still queued in it when it is
  // destroyed remove themselves from these sets.
  std::unordered_set<Session*> sessions;   // counted against max_connections
  // Event streams by topic ("" is the server-wide one; a lecture's room is
  // another): a published event reaches its topic's listeners only.
  std::unordered_map<std::string, std::unordered_set<Session*>> listeners;
  std::atomic<std::size_t> open{0};
  std::size_t refusals = 0;
  std::uint64_t next_event_id = 1;
  bool stopping = false;

  asio::io_context ioc{1};
  tcp::acceptor acceptor{ioc};
  asio::steady_timer heartbeat{ioc};
  asio::steady_timer retry_accept{ioc};
  asio::steady_timer grace{ioc};
  std::optional<asio::thread_pool> workers;
  std::thread io_thread;
  bool started = false;
  bool stopped = false;
  bool finished = false;  // the threads are joined

  void Accept();
  void Beat();
  // To the listeners of `topic`, or of every topic when it is null.
  void Broadcast(const std::string* topic, std::shared_ptr<const std::string> message);
  void Forget(Session* session);
  void BeginStop();
};

// One connection, from accept to close.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(HttpServer::Impl& server, tcp::socket socket)
      : server_(server), stream_(std::move(socket)) {}
  ~Session() { server_.Forget(this); }

  void Start() {
    server_.sessions.insert(this);
    server_.open = server_.sessions.size();
    WaitForRequest();
  }

  // Past the connection cap: a 503 and goodbye, without reading a request.
  void Refuse() {
    refusal_ = true;
    ++server_.refusals;
    keep_alive_ = false;
    Write(ErrorResponse(503, "the server has too many open connections; try again soon"));
  }

  // The server is stopping: close now unless an answer is on its way.
  void Shutdown() {
    if (state_ == State::kHandling || state_ == State::kWriting) return;
    Close();
  }

  void Enqueue(std::shared_ptr<const std::string> message) {
    if (state_ != State::kStreaming) return;
    if (queue_.size() >= kMaxQueuedEvents) return Close();
    queue_.push_back(std::move(message));
    if (queue_.size() == 1) WriteNextEvent();
  }

 private:
  enum class State { kIdle, kReading, kHandling, kWriting, kStreaming, kClosing, kClosed };

  void WaitForRequest() {
    if (server_.stopping) return Close();
    state_ = State::kIdle;
    if (buffer_.size() > 0) return ReadHeader();  // the next pipelined request
    // A waiting connection holds a 1 KiB buffer at most, whatever its last
    // request took.
    buffer_.shrink_to_fit();
    stream_.expires_after(server_.options.idle_timeout);
    stream_.async_read_some(buffer_.prepare(1024),
                            [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                              if (ec) return self->Close();
                              self->buffer_.commit(n);
                              self->ReadHeader();
                            });
  }

  void ReadHeader() {
    state_ = State::kReading;
    parser_.emplace();
    parser_->header_limit(kMaxHeaderBytes);
    parser_->body_limit(kMaxDrainedBody);
    parser_->get().body().limit = server_.options.max_body;
    // One deadline for the whole request, headers and body.
    stream_.expires_after(server_.options.request_timeout);
    http::async_read_header(stream_, buffer_, *parser_,
                            [self = shared_from_this()](beast::error_code ec, std::size_t) {
                              self->OnHeader(ec);
                            });
  }

  void OnHeader(beast::error_code ec) {
    if (ec) return OnReadError(ec);
    const auto& req = parser_->get();
    method_ = std::string(req.method_string());
    target_ = std::string(req.target());
    keep_alive_ = req.keep_alive();
    head_only_ = req.method() == http::verb::head;
    if (auto length = parser_->content_length(); length && *length > kMaxDrainedBody) {
      keep_alive_ = false;
      return Answer(ErrorResponse(413, BodyTooLarge()));
    }
    if (parser_->is_done()) return OnRequest();
    if (beast::iequals(req[http::field::expect], "100-continue")) {
      // curl asks before it sends a body over 1 KiB.
      auto go = std::make_shared<http::response<http::empty_body>>(http::status::continue_,
                                                                   req.version());
      http::async_write(stream_, *go,
                        [self = shared_from_this(), go](beast::error_code ec, std::size_t) {
                          if (ec) return self->Close();
                          self->ReadBody();
                        });
      return;
    }
    ReadBody();
  }

  void ReadBody() {
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) {
                       if (ec) return self->OnReadError(ec);
                       self->OnRequest();
                     });
  }

  void OnReadError(beast::error_code ec) {
    // A client that hung up, or that did not finish in time, gets no answer.
    if (ec == http::error::end_of_stream || ec == beast::error::timeout ||
        ec == asio::error::operation_aborted || ec == asio::error::eof ||
        ec == asio::error::connection_reset || ec == http::error::partial_message) {
      return Close();
    }
    keep_alive_ = false;
    if (method_.empty() && parser_->is_header_done()) {
      method_ = std::string(parser_->get().method_string());
      target_ = std::string(parser_->get().target());
    }
    if (ec == http::error::body_limit) return Answer(ErrorResponse(413, BodyTooLarge()));
    if (ec == http::error::header_limit) {
      return Answer(ErrorResponse(431, "the request's headers are over 16 KiB"));
    }
    Answer(ErrorResponse(400, "the request is not valid HTTP/1.1: " + ec.message()));
  }

  std::string BodyTooLarge() const {
    return "the body is over " + std::to_string(server_.options.max_body) + " bytes";
  }

  void OnRequest() {
    auto& req = parser_->get();
    if (req.body().overflow) return Answer(ErrorResponse(413, BodyTooLarge()));
    // Bodies are taken as sent; inflating one would let a small request
    // expand past every limit.
    auto encoding = req[http::field::content_encoding];
    if (!encoding.empty() && !beast::iequals(encoding, "identity")) {
      return Answer(ErrorResponse(415, "a Content-Encoding is not accepted; send the body as is"));
    }
    Request request;
    request.method = method_;
    request.target = target_;
    ParseTarget(request.target, &request.path, &request.query);
    for (const auto& field : req) {
      std::string name(field.name_string());
      for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      std::string& value = request.headers[name];
      if (!value.empty()) value += ", ";
      value.append(field.value().data(), field.value().size());
    }
    request.body = std::move(req.body().data);
    parser_.reset();
    state_ = State::kHandling;
    asio::post(*server_.workers, [self = shared_from_this(), request = std::move(request)]() mutable {
      Response response;
      try {
        response = self->server_.handler(request);
      } catch (const std::exception&) {
        response = ErrorResponse(500, "the server failed to answer this request");
      }
      asio::io_context& ioc = self->server_.ioc;
      asio::post(ioc, [self = std::move(self), response = std::move(response)]() mutable {
        if (self->state_ == State::kClosed) return;
        if (response.event_stream) return self->StartStream(std::move(response.stream_topic));
        self->Answer(std::move(response));
      });
    });
  }

  void Answer(Response response) {
    if (server_.options.access_log) {
      server_.options.access_log(method_, target_, response.status);
    }
    Write(std::move(response));
  }

  void Write(Response response) {
    state_ = State::kWriting;
    res_.emplace(static_cast<http::status>(response.status), 11);
    auto& res = *res_;
    // A 304 has no body, so it names no type either.
    if (!response.content_type.empty()) res.set(http::field::content_type, response.content_type);
    for (const auto& [name, value] : kSecurityHeaders) res.set(name, value);
    for (const auto& [name, value] : response.headers) res.set(name, value);
    if (head_only_) {
      // What a GET would carry; a 304 carries no length (RFC 9110 15.4.5).
      if (response.status != 304) res.content_length(response.body.size());
    } else {
      res.body() = std::move(response.body);
      res.prepare_payload();
    }
    if (server_.stopping) keep_alive_ = false;
    res.keep_alive(keep_alive_);
    stream_.expires_after(server_.options.request_timeout);
    http::async_write(stream_, res,
                      [self = shared_from_this()](beast::error_code ec, std::size_t) {
                        self->res_.reset();
                        if (ec) return self->Close();
                        if (!self->keep_alive_) return self->LingeringClose();
                        self->method_.clear();
                        self->head_only_ = false;
                        self->WaitForRequest();
                      });
  }

  // Sends FIN, then reads and drops what the client still sends for a
  // moment: closing with unread bytes would reset the connection and could
  // destroy the answer before the client read it.
  void LingeringClose() {
    state_ = State::kClosing;
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.expires_after(kLingerTime);
    Drain();
  }

  void Drain() {
    buffer_.clear();
    stream_.async_read_some(buffer_.prepare(4096),
                            [self = shared_from_this()](beast::error_code ec, std::size_t) {
                              if (ec) return self->Close();
                              self->Drain();
                            });
  }

  void StartStream(std::string topic) {
    if (server_.stopping) return Close();
    state_ = State::kStreaming;
    topic_ = std::move(topic);
    server_.listeners[topic_].insert(this);
    std::string head =
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n"
        "Cache-Control: no-store\r\nConnection: close\r\n";
    for (const auto& [name, value] : kSecurityHeaders) {
      head += std::string(name) + ": " + value + "\r\n";
    }
    // The stream ends when the connection does: no length, no chunks. The
    // `ready` event tells the listener it is subscribed.
    head += "\r\nretry: 2000\n\n" + FormatEvent("ready", "{}", 0);
    if (server_.options.access_log) server_.options.access_log(method_, target_, 200);
    Enqueue(std::make_shared<const std::string>(std::move(head)));
    // A listener only listens; readable means it hung up (or misbehaves).
    stream_.socket().async_wait(tcp::socket::wait_read,
                                [self = shared_from_this()](beast::error_code) {
                                  self->Close();
                                });
  }

  void WriteNextEvent() {
    stream_.expires_after(server_.options.request_timeout);
    asio::async_write(stream_, asio::buffer(*queue_.front()),
                      [self = shared_from_this()](beast::error_code ec, std::size_t) {
                        if (ec || self->state_ != State::kStreaming) return self->Close();
                        self->queue_.pop_front();
                        if (!self->queue_.empty()) self->WriteNextEvent();
                      });
  }

  void Close() {
    if (state_ == State::kClosed) return;
    state_ = State::kClosed;
    queue_.clear();
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.close();
    server_.Forget(this);
  }

  HttpServer::Impl& server_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<CappedBody>> parser_;
  std::optional<http::response<http::string_body>> res_;
  std::deque<std::shared_ptr<const std::string>> queue_;
  std::string method_;
  std::string target_;
  std::string topic_;  // an event stream's
  bool keep_alive_ = true;
  bool head_only_ = false;
  bool refusal_ = false;
  State state_ = State::kIdle;

  friend struct HttpServer::Impl;
};

void HttpServer::Impl::Forget(Session* session) {
  if (session->refusal_) {
    session->refusal_ = false;
    --refusals;
  }
  auto topic = listeners.find(session->topic_);
  if (topic != listeners.end() && topic->second.erase(session) > 0 && topic->second.empty()) {
    listeners.erase(topic);  // a room nobody listens to any more costs nothing
  }
  if (sessions.erase(session) > 0) open = sessions.size();
  // Once the I/O thread is gone, sessions are only being destroyed.
  if (stopping && !finished && sessions.empty() && refusals == 0) grace.cancel();
}

void HttpServer::Impl::Accept() {
  acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || stopping) return;
    if (ec) {
      // Out of descriptors, say: try again shortly rather than spin.
      retry_accept.expires_after(std::chrono::milliseconds(50));
      retry_accept.async_wait([this](beast::error_code e) {
        if (!e) Accept();
      });
      return;
    }
    socket.set_option(tcp::no_delay(true), ec);
    auto session = std::make_shared<Session>(*this, std::move(socket));
    if (sessions.size() < options.max_connections) {
      session->Start();
    } else if (refusals < kMaxRefusals) {
      session->Refuse();
    }  // else: dropped, and closed as it goes out of scope
    Accept();
  });
}

void HttpServer::Impl::Beat() {
  heartbeat.expires_after(kHeartbeat);
  heartbeat.async_wait([this](beast::error_code ec) {
    if (ec || stopping) return;
    Broadcast(nullptr, std::make_shared<const std::string>(": heartbeat\n\n"));
    Beat();
  });
}

void HttpServer::Impl::Broadcast(const std::string* topic,
                                 std::shared_ptr<const std::string> message) {
  // Enqueue may close a listener, which leaves its set (and an emptied set
  // leaves the map): walk a copy, and ask before each, by the copy's own
  // topic, whether it still listens.
  std::vector<std::pair<std::string, Session*>> now;
  for (const auto& [name, set] : listeners) {
    if (topic && name != *topic) continue;
    for (Session* s : set) now.emplace_back(name, s);
  }
  for (const auto& [name, s] : now) {
    auto set = listeners.find(name);
    if (set != listeners.end() && set->second.count(s)) s->Enqueue(message);
  }
}

void HttpServer::Impl::BeginStop() {
  stopping = true;
  beast::error_code ignored;
  acceptor.close(ignored);
  heartbeat.cancel();
  retry_accept.cancel();
  std::vector<Session*> now(sessions.begin(), sessions.end());
  for (Session* s : now) {
    if (sessions.count(s)) s->Shutdown();
  }
  // Answers being written get a moment; then everything stops.
  grace.expires_after(kStopGrace);
  grace.async_wait([this](beast::error_code ec) {
    if (!ec) ioc.stop();
  });
  if (sessions.empty() && refusals == 0) grace.cancel();
}

HttpServer::HttpServer(HttpOptions options, Handler handler)
    : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  impl_->handler = std::move(handler);
}

HttpServer::~HttpServer() { Stop(); }

StatusOr<int> HttpServer::Start() {
  Impl& s = *impl_;
  auto fail = [&](const std::string& why) {
    return Status::Error(Code::kCannotListen, s.options.host, s.options.port, why);
  };
  beast::error_code ec;
  tcp::resolver resolver(s.ioc);
  auto endpoints = resolver.resolve(s.options.host, std::to_string(s.options.port),
                                    tcp::resolver::passive | tcp::resolver::numeric_service,
                                    ec);
  if (ec || endpoints.empty()) return fail(ec ? ec.message() : "no such address");
  tcp::endpoint endpoint = endpoints.begin()->endpoint();
  s.acceptor.open(endpoint.protocol(), ec);
  if (ec) return fail(ec.message());
  // SO_REUSEADDR (not SO_REUSEPORT): a restart may bind at once, but a second
  // server on the same port is refused instead of sharing the connections.
  s.acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  s.acceptor.bind(endpoint, ec);
  if (ec) return fail(ec.message());
  s.acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return fail(ec.message());
  int port = s.acceptor.local_endpoint().port();

  unsigned workers = s.options.workers;
  if (workers == 0) workers = std::max(1u, std::thread::hardware_concurrency());
  s.workers.emplace(workers);
  s.Accept();
  s.Beat();
  s.io_thread = std::thread([&s] { s.ioc.run(); });
  s.started = true;
  return port;
}

void HttpServer::Stop() {
  Impl& s = *impl_;
  if (!s.started || s.stopped) return;
  s.stopped = true;
  asio::post(s.ioc, [&s] { s.BeginStop(); });
  s.io_thread.join();
  s.workers->join();
  s.finished = true;
}

void HttpServer::Publish(std::string_view topic, std::string_view event, std::string_view data) {
  Impl& s = *impl_;
  asio::post(s.ioc, [&s, topic = std::string(topic), event = std::string(event),
                     data = std::string(data)] {
    if (s.stopping) return;
    s.Broadcast(&topic, std::make_shared<const std::string>(FormatEvent(event, data, s.next_event_id++)));
  });
}

std::size_t HttpServer::connections() const { return impl_->open.load(); }

}  // namespace cutline::server
