#include "server/static_files.h"

#include <filesystem>
#include <fstream>
#include <sstream>

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

std::optional<std::string> ReadEmbedded(const std::string& path) {
  for (const WebAsset& asset : WebAssets()) {
    if (path == asset.path) return std::string(asset.bytes());
  }
  return std::nullopt;
}

}  // namespace

std::optional<StaticFile> LoadStaticFile(const std::string& web_dir,
                                         const std::string& path) {
  if (!SafePath(path)) return std::nullopt;
  std::optional<std::string> body =
      web_dir.empty() ? ReadEmbedded(path) : ReadFromFolder(web_dir, path);
  if (!body) return std::nullopt;
  return StaticFile{ContentType(path), std::move(*body)};
}

}  // namespace cutline::server
