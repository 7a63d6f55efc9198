// The page's files, embedded into the binary at build time (see
// cmake/embed_web.cmake), looked up by their path under web/.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace cutline::server {

struct WebAsset {
  const char* path;  // "/index.html"
  const unsigned char* data;
  std::size_t size;
  std::string_view bytes() const {
    return {reinterpret_cast<const char*>(data), size};
  }
};

const std::vector<WebAsset>& WebAssets();

}  // namespace cutline::server
