// The lecture's routes, under /api/rooms (docs/api.md, "Lecture rooms").
#pragma once

#include "server/http_message.h"
#include "server/routes.h"

namespace cutline::server {

// The answer to a request under /api/rooms; a change is published to the
// room's event stream through site.publish.
Response LectureRoute(const Request& request, const Site& site);

}  // namespace cutline::server
