// POST /api/trace: a schedule file `cutline test` wrote, as the page's
// player draws it (docs/api.md). The server never runs the program: the
// file's trace says what happened, and this turns it into frames with
// captions in the page's language.
#pragma once

#include "server/http_message.h"

namespace cutline::server {

// What a schedule file may weigh is the server's cap on any body
// (kMaxBodyBytes, 64 KiB: a shrunk schedule of 30 steps on 5 nodes is about
// a fifth of it); past it the transport answers 413.
Response HandleTraceRequest(const Request& request);

}  // namespace cutline::server
