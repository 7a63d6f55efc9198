#include "server/static_files.h"

#include <fmt/format.h>
#include <zlib.h>

#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

#include "web_assets.h"

namespace cutline::server {

namespace {

std::string ContentType(const std::string& path) {
  auto dot = path.rfind('.');
  std::string ext = dot == std::string::npos ? "" : path.substr(dot + 1);
  if (ext == "html") return "text/html; charset=utf-8";
  if (ext == "js" || ext == "mjs") return "text/javascript; charset=utf-8";
  if (ext == "css") return "text/css; charset=utf-8";
  if (ext == "svg") return "image/svg+xml";
  if (ext == "png") return "image/png";
  if (ext == "json") return "application/json; charset=utf-8";
  if (ext == "txt") return "text/plain; charset=utf-8";
  if (ext == "ico") return "image/x-icon";
  return "application/octet-stream";
}

// The path is already percent-decoded, so "%2e%2e" arrives here as "..".
bool SafePath(const std::string& path) {
  if (path.empty() || path[0] != '/') return false;
  if (path.find('\\') != std::string::npos || path.find('\0') != std::string::npos) {
    return false;
  }
  std::stringstream ss(path.substr(1));
  std::string segment;
  while (std::getline(ss, segment, '/')) {
    if (segment.empty() || segment[0] == '.') return false;
  }
  return path.back() != '/';
}

std::optional<std::string> ReadFromFolder(const std::string& web_dir,
                                          const std::string& path) {
  const std::string file = web_dir + path;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) return std::nullopt;  // a folder
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return ss.str();
}

// A validator for `body`: FNV-1a over the bytes, with the length. Not a
// defence against anyone (the files are ours); it only has to change when
// the file does.
std::string EntityTag(std::string_view body) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : body) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return fmt::format("{:x}-{:016x}", body.size(), h);
}

// gzip (RFC 1952) at the best level: done once per file at start-up, so
// the time it takes is never a request's. Empty if zlib fails.
std::string Gzip(std::string_view data) {
  z_stream z{};
  // 15 + 16: a gzip header and trailer around the deflate stream.
  if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) !=
      Z_OK) {
    return "";
  }
  std::string out(deflateBound(&z, static_cast<uLong>(data.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return rc == Z_STREAM_END ? out : "";
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The items of a comma-separated header value, trimmed.
std::vector<std::string_view> Items(std::string_view value) {
  std::vector<std::string_view> items;
  while (!value.empty()) {
    auto comma = value.find(',');
    std::string_view item = Trim(value.substr(0, comma));
    if (!item.empty()) items.push_back(item);
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return items;
}

// Files are not renamed when they change, so a browser must ask again each
// time: it does so with If-None-Match, and gets a 304 of a few hundred
// bytes while the binary is the same. A max-age would serve last version's
// scripts after an upgrade.
constexpr const char* kCacheControl = "no-cache";

}  // namespace

bool AcceptsGzip(const std::string& accept_encoding) {
  std::optional<bool> gzip, any;
  for (std::string_view item : Items(accept_encoding)) {
    auto semi = item.find(';');
    std::string coding = Lower(Trim(item.substr(0, semi)));
    bool wanted = true;
    if (semi != std::string_view::npos) {
      std::string params = Lower(item.substr(semi + 1));
      auto q = params.find("q=");
      if (q != std::string::npos) {
        // "q=0", "q=0.0", "q=0.000": refused; anything else is some weight.
        std::string_view v = Trim(std::string_view(params).substr(q + 2));
        v = v.substr(0, v.find(';'));
        wanted = v.find_first_not_of("0.") != std::string_view::npos;
      }
    }
    if (coding == "gzip" || coding == "x-gzip") gzip = wanted;
    if (coding == "*") any = wanted;
  }
  if (gzip) return *gzip;
  return any.value_or(false);
}

bool NoneMatchHolds(const std::string& if_none_match, const std::string& etag) {
  for (std::string_view tag : Items(if_none_match)) {
    if (tag == "*") return true;
    if (tag.substr(0, 2) == "W/") tag.remove_prefix(2);
    if (tag == etag) return true;
  }
  return false;
}

StaticFiles::StaticFiles(std::string web_dir) : web_dir_(std::move(web_dir)) {
  if (!web_dir_.empty()) return;
  for (const WebAsset& asset : WebAssets()) {
    Prepared p;
    p.content_type = ContentType(asset.path);
    p.body = std::string(asset.bytes());
    p.etag = "\"" + EntityTag(p.body) + "\"";
    std::string gz = Gzip(p.body);
    if (!gz.empty() && gz.size() < p.body.size()) p.gzip = std::move(gz);
    embedded_.emplace(asset.path, std::move(p));
  }
}

std::optional<Response> StaticFiles::Answer(const Request& request) const {
  const std::string path = request.path == "/" ? "/index.html" : request.path;
  if (!SafePath(path)) return std::nullopt;
  Prepared from_folder;
  const Prepared* file = nullptr;
  if (web_dir_.empty()) {
    auto it = embedded_.find(path);
    if (it == embedded_.end()) return std::nullopt;
    file = &it->second;
  } else {
    std::optional<std::string> body = ReadFromFolder(web_dir_, path);
    if (!body) return std::nullopt;
    from_folder.content_type = ContentType(path);
    from_folder.etag = "\"" + EntityTag(*body) + "\"";
    from_folder.body = std::move(*body);
    file = &from_folder;
  }
  const bool gzip = !file->gzip.empty() && AcceptsGzip(request.Header("accept-encoding"));
  // Each encoding is its own representation, with a tag of its own (RFC
  // 9110 8.8.3): a cache must never answer a gzip tag with plain bytes.
  std::string etag = gzip ? file->etag.substr(0, file->etag.size() - 1) + "-gz\"" : file->etag;
  Response response;
  response.headers = {{"ETag", etag}, {"Cache-Control", kCacheControl}};
  // The answer depends on Accept-Encoding wherever a gzip body exists.
  if (!file->gzip.empty()) response.headers.emplace_back("Vary", "Accept-Encoding");
  if (NoneMatchHolds(request.Header("if-none-match"), etag)) {
    response.status = 304;
    return response;
  }
  response.status = 200;
  response.content_type = file->content_type;
  if (gzip) {
    response.headers.emplace_back("Content-Encoding", "gzip");
    response.body = file->gzip;
  } else {
    response.body = file->body;
  }
  return response;
}

}  // namespace cutline::server
