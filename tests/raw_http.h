// Raw HTTP/1.1 over a loopback socket, for tests that must control the exact
// bytes sent (request lines, bodies, half-sent headers, pipelining) or hold
// many connections open. Shared by the API and server tests.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <string>
#include <utility>

// A socket connected to 127.0.0.1:port whose sends and receives give up
// after `timeout_seconds` (so that a test fails instead of hanging), or -1.
inline int ConnectLoopback(int port, int timeout_seconds = 10) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  timeval tv{timeout_seconds, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// An answer: its status (0 if none came), head and body.
struct RawResponse {
  int status = 0;
  std::string head;  // status line and headers
  std::string body;
  std::string Header(const std::string& name) const {
    std::string lower_head = head;
    for (char& c : lower_head) c = static_cast<char>(std::tolower(c));
    std::string key = "\r\n" + name + ":";
    for (char& c : key) c = static_cast<char>(std::tolower(c));
    auto at = lower_head.find(key);
    if (at == std::string::npos) return "";
    auto start = head.find_first_not_of(' ', at + key.size());
    auto end = head.find("\r\n", start);
    return head.substr(start, end - start);
  }
};

// One connection, one request at a time: each answer is read by its
// Content-Length, so the connection can carry the next request.
class RawConnection {
 public:
  explicit RawConnection(int port, int timeout_seconds = 10)
      : fd_(ConnectLoopback(port, timeout_seconds)) {}
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;
  RawConnection(RawConnection&& other) noexcept
      : fd_(std::exchange(other.fd_, -1)), buffer_(std::move(other.buffer_)) {}
  ~RawConnection() {
    if (fd_ >= 0) ::close(fd_);
  }
  bool connected() const { return fd_ >= 0; }
  // Sends `bytes` (a whole request, part of one, or several).
  bool Send(const std::string& bytes) {
    if (fd_ < 0) return false;
    std::size_t sent = 0;
    while (sent < bytes.size()) {
      ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return false;
      sent += static_cast<std::size_t>(n);
    }
    return true;
  }
  RawResponse Exchange(const std::string& request) {
    if (!Send(request)) return RawResponse{};
    return Read();
  }
  // The next answer on the connection, read by its Content-Length.
  RawResponse Read() {
    RawResponse out;
    if (fd_ < 0) return out;
    std::size_t end_of_head;
    while ((end_of_head = buffer_.find("\r\n\r\n")) == std::string::npos) {
      if (!Fill()) return out;
    }
    out.head = buffer_.substr(0, end_of_head);
    if (out.head.rfind("HTTP/1.1 ", 0) == 0) out.status = std::atoi(out.head.c_str() + 9);
    std::size_t length = std::strtoul(out.Header("Content-Length").c_str(), nullptr, 10);
    while (buffer_.size() < end_of_head + 4 + length) {
      if (!Fill()) break;
    }
    out.body = buffer_.substr(end_of_head + 4, length);
    buffer_.erase(0, std::min(buffer_.size(), end_of_head + 4 + length));
    return out;
  }
  // Reads until `text` has arrived (true), or the connection ends, the
  // receive timeout passes or `within` is over (false). The overall limit
  // matters on event streams, whose heartbeats would otherwise keep a wait
  // for an event that never comes alive forever. What came is in received().
  bool ReadUntil(const std::string& text,
                 std::chrono::seconds within = std::chrono::seconds(30)) {
    const auto deadline = std::chrono::steady_clock::now() + within;
    while (buffer_.find(text) == std::string::npos) {
      if (std::chrono::steady_clock::now() > deadline || !Fill()) return false;
    }
    return true;
  }
  // True once the server has closed the connection (recv gives 0 or a reset)
  // before the receive timeout; bytes that came first are kept.
  bool ClosedByPeer() {
    char buf[4096];
    for (;;) {
      ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n > 0) {
        buffer_.append(buf, static_cast<std::size_t>(n));
        continue;
      }
      return n == 0 || errno == ECONNRESET;
    }
  }
  const std::string& received() const { return buffer_; }

 private:
  bool Fill() {
    char buf[65536];
    ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
    if (n <= 0) return false;
    buffer_.append(buf, static_cast<std::size_t>(n));
    return true;
  }
  int fd_ = -1;
  std::string buffer_;
};

// A raw HTTP/1.1 exchange: the bytes sent are exactly `request`; the answer
// is read to the end of the connection (the request says Connection: close).
inline RawResponse RawExchange(int port, const std::string& request) {
  RawConnection conn(port);
  RawResponse out;
  if (!conn.Send(request)) return out;
  conn.ClosedByPeer();
  const std::string& raw = conn.received();
  auto end_of_head = raw.find("\r\n\r\n");
  if (raw.rfind("HTTP/1.1 ", 0) != 0 || end_of_head == std::string::npos) {
    out.head = raw;
    return out;
  }
  out.status = std::atoi(raw.c_str() + 9);
  out.head = raw.substr(0, end_of_head);
  out.body = raw.substr(end_of_head + 4);
  return out;
}

inline std::string RawGet(const std::string& target, const std::string& method = "GET") {
  return method + " " + target +
         " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
}
