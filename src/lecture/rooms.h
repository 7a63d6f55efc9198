// Lecture rooms (docs/design.md, "Lecture mode"): the state a teacher's page
// drives and every student's page follows, and the class's answers to the
// question the teacher opens. No sockets here: the server's routes call these
// methods from their worker threads and publish what they return.
//
// What a room holds is what a page needs to draw the same run: the scenario
// text and the demo's place (the `state` object, opaque here but for its
// size), the open question and its tally. Nothing a student sends is trusted:
// the teacher is whoever holds the room's token, a student is whoever holds a
// student token this room handed out, and each student token answers a
// question at most once.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"

namespace cutline::lecture {

using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

struct Limits {
  std::size_t max_rooms = 100;       // lectures one server holds at once
  std::size_t max_students = 2000;   // student tokens one room hands out
  // A room nobody has driven, joined or answered in for this long is gone.
  std::chrono::seconds idle_lifetime = std::chrono::hours(3);
  std::size_t max_state_bytes = 64 * 1024;  // the serialized `state`
  std::size_t max_choices = 12;             // answers a question offers
  std::size_t max_text = 200;               // a question's id, a choice
  // How often a room's pages hear how many have answered. A hall answers
  // within seconds: an event per answer would be a thousand events to each
  // of a thousand pages, and a page that many events behind is dropped.
  std::chrono::milliseconds answers_every = std::chrono::milliseconds(250);
};

// A request's outcome: its value, or why it was refused (a Status whose
// code the page knows, base/status.h's "a lecture room" group; its words are
// the catalogues', in the reader's language).
template <class T>
using Result = StatusOr<T>;

// What an operation tells the room's listeners (an event stream's event and
// its one line of JSON data).
struct Event {
  std::string name;
  Json data;
};

struct Created {
  std::string code;   // short, to read aloud and type: 6 letters and digits
  std::string token;  // the teacher's: 32 hex digits, from the system's randomness
  Json view;          // the room as the teacher sees it
};

struct Changed {
  Json reply;                  // the answer to the caller
  std::optional<Event> event;  // for every page in the room, if there is news for them
};

class Rooms {
 public:
  explicit Rooms(Limits limits = {}, std::function<Clock::time_point()> now = Clock::now);
  ~Rooms();

  Result<Created> Create();
  // The room as a student sees it (no tally before the reveal), or as the
  // teacher does when `token` is the teacher's.
  Result<Json> View(std::string_view code, std::string_view token = {});
  // A student token for this room; `student` already one of its own is
  // handed back as it is (a page that reloads keeps its place and its count).
  Result<Json> Join(std::string_view code, std::string_view student);

  // The teacher's: the run every page shows now.
  Result<Changed> Drive(std::string_view code, std::string_view token, const Json& state);
  // The teacher's: open `question` ({"id": ..., "choices": [...], "detail":
  // ...}) for answers; it replaces any question before it. `detail` (any
  // JSON, optional) is what pages need to ask it in their own language.
  Result<Changed> Ask(std::string_view code, std::string_view token, const Json& question);
  // The teacher's: close the open question and show its tally to everyone.
  Result<Changed> Reveal(std::string_view code, std::string_view token);
  // A student's answer to the open question. Its event (how many have
  // answered) comes at most every `answers_every`; the teacher's page asks
  // for the tally itself while the question is open.
  Result<Changed> Answer(std::string_view code, std::string_view student,
                         std::string_view question, std::string_view choice);

  std::size_t size() const;

 private:
  struct Room;
  Room* Find(std::string_view code);  // null: none (expired ones are dropped first)
  Result<Room*> Teacher(std::string_view code, std::string_view token);
  void DropExpired();
  std::string NewCode();

  Limits limits_;
  std::function<Clock::time_point()> now_;
  mutable std::mutex mutex_;
  std::map<std::string, std::unique_ptr<Room>, std::less<>> rooms_;
};

// 32 hex digits from the system's randomness (getrandom): a token nobody can
// guess. Exposed for the tests' look at its shape.
std::string NewToken();

}  // namespace cutline::lecture
