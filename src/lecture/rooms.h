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
  std::chrono::seconds max_countdown = std::chrono::seconds(600);  // a vote's countdown
};

// Peer instruction (docs/design.md, "Lecture mode"): a question is voted on
// alone, discussed with a neighbour, voted on again, then revealed. Each
// vote keeps its own answers; a student answers at most once per vote.
//   vote (1) -> [closed] -> [[discuss] -> vote (2) -> [closed]] -> revealed
// The teacher may reveal from any phase, so a single vote is the short way;
// revealing a revealed question again changes nothing and is no error.
// A vote with a countdown closes itself when it runs out: an answer after
// the deadline is refused, and every view reads the phase as "closed".
enum class Phase { kVote, kClosed, kDiscuss, kRevealed };
std::string_view PhaseName(Phase phase);
std::optional<Phase> PhaseNamed(std::string_view name);

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
  // ..., "seconds": ...}) for its first vote; it replaces any question
  // before it. `detail` (any JSON, optional) is what pages need to ask it in
  // their own language; `seconds` (optional, 0 = none) the vote's countdown.
  Result<Changed> Ask(std::string_view code, std::string_view token, const Json& question);
  // The teacher's: move the question on to `phase` (the diagram above);
  // `seconds` (whole seconds, 0 = none) is the second vote's countdown.
  Result<Changed> Advance(std::string_view code, std::string_view token, Phase phase,
                          const Json& seconds = 0);
  // The teacher's: show both votes' tallies to everyone (Advance to kRevealed).
  Result<Changed> Reveal(std::string_view code, std::string_view token);
  // A student's answer in the open vote (`vote`, 1 or 2, if the page says
  // which it answers: an answer meant for a vote that has closed is not
  // counted in the next). Its event (how many have answered) comes at most
  // every `answers_every`; the teacher's page asks for the tally itself.
  Result<Changed> Answer(std::string_view code, std::string_view student,
                         std::string_view question, std::string_view choice, int vote = 0);

  std::size_t size() const;

 private:
  struct Room;
  Room* Find(std::string_view code);  // null: none (expired ones are dropped first)
  Result<Room*> Teacher(std::string_view code, std::string_view token);
  void DropExpired();
  // A countdown as a request gives it (whole seconds, 0 = none), or why not.
  Result<std::chrono::seconds> Countdown(const Json& seconds) const;
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
