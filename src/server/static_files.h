// The page's files: from the copy embedded in the binary, or from a folder
// (`cutline serve --web-dir`), and never anything outside it; with their
// validators (ETag), caching rule and, for the embedded copy, gzip.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "server/http_message.h"

namespace cutline::server {

class StaticFiles {
 public:
  // `web_dir` empty: the embedded copy, prepared here once (content type,
  // ETag, and a gzip body for every file that shrinks), so that no request
  // ever compresses or hashes. A folder is read on each request instead (it
  // is for editing the page: a change shows on reload), uncompressed.
  explicit StaticFiles(std::string web_dir);

  // The answer for `request` when its path (decoded, starting with '/';
  // "/" is "/index.html") names a file: 200 with the body, gzip if the
  // client accepts it; 304 when its If-None-Match holds the file's ETag.
  // Nothing for a path that names no file: one with "..", a backslash, a
  // NUL, a hidden segment or a trailing slash names none.
  std::optional<Response> Answer(const Request& request) const;

 private:
  struct Prepared {
    std::string content_type;
    std::string body;
    std::string gzip;  // empty: sent as is (it would not shrink)
    std::string etag;  // of `body`; the gzip body's is etag + "-gz"
  };
  std::string web_dir_;
  std::map<std::string, Prepared> embedded_;
};

// Whether an Accept-Encoding value admits gzip: "gzip" or "*" with a
// q-value above 0 and gzip not refused by name (RFC 9110 12.5.3).
bool AcceptsGzip(const std::string& accept_encoding);
// Whether an If-None-Match value matches `etag` by the weak comparison
// (RFC 9110 13.1.2): "*", or one of its entity tags, W/ or not.
bool NoneMatchHolds(const std::string& if_none_match, const std::string& etag);

}  // namespace cutline::server
