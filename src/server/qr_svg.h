// A QR code as SVG, made here (Debian's libqrencode) so that the lecture's
// join link needs nothing from outside the server.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace cutline::server {

// The QR code of `text` (error correction M, a quiet zone of four modules),
// drawn as one path on a white square that scales to any size; nullopt if
// libqrencode cannot encode it (too long, out of memory).
std::optional<std::string> QrSvg(std::string_view text);

}  // namespace cutline::server
