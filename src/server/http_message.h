// What the transport (http_server) hands to the routes and takes back: plain
// values, so that routes.cc knows nothing of sockets, Asio or Beast, and the
// transport knows nothing of scenarios.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/lang.h"

namespace cutline::server {

struct Request {
  std::string method;  // "GET", "POST", ... as sent
  std::string target;  // as sent: path and query, not decoded
  std::string path;    // the target's path, percent-decoded
  std::map<std::string, std::string> query;  // decoded; the first of repeats
  // Header fields by lower-case name; repeats joined with ", " (RFC 9110 5.3).
  std::map<std::string, std::string> headers;
  std::string body;    // at most HttpLimits::max_body bytes
  // The value of header `name` (lower case), or "" if absent.
  std::string Header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
  }
};

struct Response {
  int status = 200;
  std::string content_type;
  std::string body;
  // More header fields (ETag, Cache-Control, Content-Encoding, Vary, ...).
  std::vector<std::pair<std::string, std::string>> headers;
  // An event stream (docs/api.md, "/api/events"): the connection stays open
  // and receives every published event; status and body are not used.
  bool event_stream = false;
  // Which events it receives: HttpServer::Publish's topic ("" is the
  // server-wide stream, /api/events; a lecture room has its own).
  std::string stream_topic;
};

// Every error the server answers, from the routes or from the transport
// itself, has this one shape: {"error": "<one line>"}.
Response ErrorResponse(int status, std::string_view message);
// A request's ?lang= into *lang: en (also when absent) or ja; any other
// value is refused, and the refusal is returned.
std::optional<Response> QueryLang(const Request& req, Lang* lang);
Response JsonResponse(int status, std::string body);

// Percent-decodes `text`; '+' stays '+' in paths and is a space in queries.
std::string PercentDecode(std::string_view text, bool plus_is_space);
// Splits a request target into its decoded path and query parameters.
void ParseTarget(std::string_view target, std::string* path,
                 std::map<std::string, std::string>* query);

}  // namespace cutline::server
