#include "server/qr_svg.h"

#include <qrencode.h>

#include <memory>

#include <fmt/format.h>

namespace cutline::server {

std::optional<std::string> QrSvg(std::string_view text) {
  const std::string copy(text);  // libqrencode wants a C string
  std::unique_ptr<QRcode, decltype(&QRcode_free)> code(
      QRcode_encodeString(copy.c_str(), 0, QR_ECLEVEL_M, QR_MODE_8, 1), &QRcode_free);
  if (!code) return std::nullopt;
  // Scanners need light space around the symbol: four modules (ISO/IEC 18004).
  constexpr int kQuiet = 4;
  const int width = code->width;
  const int side = width + 2 * kQuiet;
  std::string path;
  for (int y = 0; y < width; ++y) {
    for (int x = 0; x < width; ++x) {
      // Bit 0 of each byte is the module's colour (1: dark).
      if (code->data[y * width + x] & 1) path += fmt::format("M{} {}h1v1h-1z", x + kQuiet, y + kQuiet);
    }
  }
  // crispEdges: no grey seams between modules at any scale.
  return fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {0} {0}" shape-rendering="crispEdges">)"
      R"(<rect width="{0}" height="{0}" fill="#fff"/><path d="{1}" fill="#000"/></svg>)",
      side, path);
}

}  // namespace cutline::server
