// The page's files: from the copy embedded in the binary, or from a folder
// (`cutline serve --web-dir`), and never anything outside it.
#pragma once

#include <optional>
#include <string>

namespace cutline::server {

struct StaticFile {
  std::string content_type;
  std::string body;
};

// The file that `path` (decoded, starting with '/') names under `web_dir`
// (empty: the embedded copy), or nothing: a path with "..", a backslash, a
// NUL, a hidden segment or a trailing slash names no file.
std::optional<StaticFile> LoadStaticFile(const std::string& web_dir,
                                         const std::string& path);

}  // namespace cutline::server
