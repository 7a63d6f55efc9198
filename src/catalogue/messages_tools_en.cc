// The English catalogue, continued: the tools' refusals (a store's file, a
// restore, a command's options, the server). The OS's and SQLite's own words
// come as arguments ("why") and are passed on as they are.
#include <fmt/format.h>

#include "catalogue/messages.h"

namespace cutline::catalogue {
namespace {

// "process 41 on host h1", or who a half-written lock file cannot name.
std::string Who(std::int64_t pid, const std::string& host) {
  return pid > 0 ? fmt::format("process {} on host {}", pid, host) : "a process starting";
}

// A store's WAL that another store wrote: what differs, then the same tail.
std::string ForeignWal(const std::string& path, const std::string& what) {
  return fmt::format("{}-wal does not belong to {}: {} (another store's write-ahead log?); "
                     "nothing was changed",
                     path, path, what);
}

std::string EnglishStoreWalReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kWalRunMissing:
      return ForeignWal(w(0), fmt::format("the file's run {} is missing through it", n(1)));
    case Code::kWalRunOther:
      return ForeignWal(w(0), fmt::format("the file's run {} is another run through it", n(1)));
    case Code::kWalTopBehind:
      return ForeignWal(w(0), fmt::format("the file's highest snapshot is {}, through it {}",
                                          n(1), n(2)));
    case Code::kWalTopMissing:
      return ForeignWal(w(0),
                        fmt::format("the file's highest snapshot is {}, through it none", n(1)));
    case Code::kWalSnapshotOther:
      return ForeignWal(
          w(0), fmt::format("the file's snapshot {} is another snapshot through it", n(1)));
    case Code::kWalCorrupt:
      return fmt::format("{}-wal does not belong to {}: the file alone is sound, read through "
                         "it corrupt ({}); nothing was changed",
                         w(0), w(0), w(1));
    case Code::kWalTableMissing:
      return fmt::format("{}-wal does not belong to {}: the file alone is sound, read through "
                         "it corrupt (its table {} is missing); nothing was changed",
                         w(0), w(0), w(1));
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

// The command line itself (src/cli/main.cc): its words, the scenario file
// it reads, what it prints of a run. CLI11's refusals come in its own
// (English) words.
std::string EnglishCommandLineReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  switch (s.code()) {
    case Code::kCliUnknownCommand:
      return fmt::format("unknown command '{}' (see cutline --help)", w(0));
    case Code::kCliBadArguments:
      return fmt::format("{} (see cutline --help)", w(0).empty() ? "bad arguments" : w(0));
    case Code::kCheckNeedsInput:
      return "check needs a scenario FILE or --logs DIR";
    case Code::kScenarioIsDirectory:
      return fmt::format("cannot read {}: it is a directory", w(0));
    case Code::kScenarioUnreadable:
      return fmt::format("cannot read {}", w(0));
    case Code::kNoCompleteSnapshot:
      return "no snapshot is complete";
    case Code::kOutOfMemory:
      return "out of memory: the scenario is too large";
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

}  // namespace

std::string EnglishStoreReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kNoSuchFile:
      return fmt::format("{}: no such file", w(0));
    case Code::kIsDirectory:
      return fmt::format("{} is a directory, not a cutline store", w(0));
    case Code::kCannotRead:
      return fmt::format("cannot read {}: {}", w(0), w(1));
    case Code::kStoreEmpty:
      return fmt::format("{} is empty, not a cutline store", w(0));
    case Code::kNotSqlite:
      return fmt::format("{} is not a cutline store (not an SQLite database)", w(0));
    case Code::kNotCutlineStore:
      return fmt::format("{} is not a cutline store (an SQLite database of another kind)", w(0));
    case Code::kStoreNewer:
      return fmt::format("{} was written by a newer cutline (store schema {}; this one reads {})",
                         w(0), n(1), n(2));
    case Code::kNoSchemaVersion:
      return fmt::format("{} is corrupt: it has no schema version", w(0));
    case Code::kStoreCorrupt:
      return fmt::format("{} is corrupt: {}", w(0), w(1));
    case Code::kStoreTableMissing:
      return fmt::format("{} is corrupt: its table {} is missing", w(0), w(1));
    case Code::kCannotOpen:
      return fmt::format("cannot open {}: {}", w(0), w(1));
    case Code::kWalNeedsShm:
      return fmt::format("cannot read {}: its {}-wal holds writes not yet in it, and reading "
                         "them needs {}-shm, which cannot be made here ({})",
                         w(0), w(0), w(0), w(1));
    case Code::kReadOnlyFile:
      return fmt::format("{} is read-only here ({}): it cannot be written", w(0), w(1));
    case Code::kReadOnlyFolder:
      return fmt::format("{} is in a read-only folder ({}: {}): it cannot be written", w(0),
                         w(1), w(2));
    case Code::kReadOnlyHere:
      return fmt::format("{} is read-only here: it cannot be written", w(0));
    case Code::kCannotCreate:
      return fmt::format("cannot create {}: {}", w(0), w(1));
    case Code::kCannotOpenForWriting:
      return fmt::format("cannot open {} for writing: {}", w(0), w(1));
    case Code::kNoWalMode:
      return fmt::format("cannot open {}: it cannot use WAL mode here", w(0));
    case Code::kWriterBusy:
      return fmt::format("run {} is writing this store ({}): one writer at a time per store",
                         n(0), Who(n(1), w(2)));
    case Code::kWriterStarting:
      return fmt::format("a run is starting on this store ({}): one writer at a time per store",
                         Who(n(0), w(1)));
    case Code::kRunStoppedSilently:
      return fmt::format("run {} had stopped without a word (its job was ended from outside): "
                         "marked died, its running snapshots failed",
                         n(0));
    case Code::kCannotMake:
      return fmt::format("cannot make {}: {}", w(0), w(1));
    case Code::kCannotLock:
      return fmt::format("cannot lock {}: {}", w(0), w(1));
    case Code::kStoreFailed:
      return w(0);
    case Code::kNoSuchSnapshot:
      return fmt::format("{} has no snapshot {}", w(0), n(1));
    default:
      break;
  }
  return EnglishStoreWalReason(s);
}

std::string EnglishRestoreReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kRestoreNothing:
      return fmt::format("{} holds no complete snapshot to restore", w(0));
    case Code::kRestoreNotComplete:
      return fmt::format("snapshot {} is {}, not complete: it cannot be restored", n(0), w(1));
    case Code::kRestoreDamaged:
      return fmt::format("snapshot {} in {} is damaged, so it is not restored: {} (see cutline "
                         "store verify)",
                         n(0), w(1), EnglishReason(s.reason(2)));
    case Code::kRestoreNoLongerComplete:
      return fmt::format("snapshot {} is no longer complete in {}", n(0), w(1));
    case Code::kRestoreWrongApp:
      return fmt::format(
          "snapshot {} is of a {} run: only a bank's or a dataflow's snapshot can be restored",
          n(0), w(1));
    case Code::kRestoreOtherApp:
      return fmt::format("snapshot {} is of a {} run, not --app {}: run with --app {}", n(0), w(1),
                         w(2), w(1));
    case Code::kRestoreWrongTopology:
      return fmt::format("snapshot {} is of topology {}, not {}: run with --topology {}", n(0),
                         w(1), w(2), w(1));
    case Code::kRestoreWrongRanks:
      return fmt::format("snapshot {} has {} ranks, not {}: run with --ranks {}", n(0), n(1),
                         n(2), n(1));
    case Code::kRestoreNeedsStore:
      return "--restore needs --store FILE";
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

std::string EnglishOptionsReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  switch (s.code()) {
    case Code::kNotAnApp:
      return fmt::format("--app: '{}' is not an application ({})", w(0), w(1));
    case Code::kFlagForOtherApp:
      return fmt::format("{} is for --app {}, not --app {}", w(0), w(1), w(2));
    case Code::kNotASnapshotId:
      return fmt::format("{}: '{}' is not a snapshot id", w(0), w(1));
    case Code::kSnapshotIdNotNumber:
      return fmt::format("snapshot id '{}' is not a number", w(0));
    case Code::kSnapshotIdTooLarge:
      return fmt::format("snapshot id '{}' is too large", w(0));
    case Code::kMaxPagesNeedsStore:
      return "--store-max-pages needs --store FILE";
    case Code::kBadKeep:
      return fmt::format("--keep '{}' is not a number of snapshots of at least 1 (each run "
                         "keeps its latest complete snapshot)",
                         w(0));
    case Code::kStoreNeedsCommand:
      return "store needs a command: list, show, verify or prune (see cutline store --help)";
    case Code::kUnknownStoreCommand:
      return fmt::format("unknown store command '{}' (see cutline store --help)", w(0));
    case Code::kUnknownStoreOption:
      return fmt::format("unknown store option '{}' (see cutline store --help)", w(0));
    case Code::kTooFewRanks:
      return "a run needs at least 2 ranks";
    case Code::kKillRankOutOfRange:
      return fmt::format("--kill names rank {}, but there are {} ranks", s.number(0), s.number(1));
    case Code::kBadTopology:
      return fmt::format("--topology '{}' is not stages joined by '-', each a number of ranks "
                         "from 1 up, at least two stages (such as 2-3-1: two sources, three "
                         "operators, one sink)",
                         w(0));
    case Code::kTopologyTooLarge:
      return fmt::format("--topology '{}' has {} ranks; at most {}", w(0), s.number(1),
                         s.number(2));
    case Code::kAlgorithmNotForApp:
      return fmt::format("--algorithm {} does not run with --app {}: it runs {}", w(0), w(1),
                         w(2));
    case Code::kNotWithDataflow:
      return fmt::format("{} is not available with --app dataflow", w(0));
    case Code::kSlowRankOutOfRange:
      return fmt::format("--slow names rank {}, but the topology has {} ranks", s.number(0),
                         s.number(1));
    case Code::kTimeoutNeedsAligned:
      return fmt::format("--alignment-timeout switches aligned barriers to unaligned: it needs "
                         "--algorithm aligned, not {}",
                         w(0));
    case Code::kRanksNotTopology:
      return fmt::format("--ranks {} does not match --topology {}, which has {} ranks (leave "
                         "--ranks out)",
                         s.number(0), w(1), s.number(2));
    case Code::kReorderNeedsFifo:
      return fmt::format("--algorithm {} refuses channels that reorder: leave out --reorder", w(0));
    case Code::kReorderMayBeWrong:
      return fmt::format("{} assumes FIFO channels: under --reorder its snapshots can be wrong, "
                         "and the summary counts them (wrong_totals)",
                         w(0));
    case Code::kLogsNotWith:
      return fmt::format("--log-dir is not available with {}: cutline check --logs reads back "
                         "FIFO channels on which only a start or a marker makes a rank record",
                         w(0));
    default:
      break;
  }
  return EnglishCommandLineReason(s);
}

std::string EnglishServeReason(const Status& s) {
  if (s.code() == Code::kCannotListen) {
    return fmt::format("cannot listen on {}:{}: {}", s.word(0), s.number(1), s.word(2));
  }
  return std::string(CodeName(s.code()));
}

// A lecture room's refusals (src/lecture): what the teacher's and the
// students' pages are told.
std::string EnglishLectureReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kNoRoom:
      return "no lecture has this code (it may have ended)";
    case Code::kNotTeacher:
      return "only the lecture's teacher can do this";
    case Code::kNotStudent:
      return "join the lecture first: this student token is not one of this room's";
    case Code::kTooManyRooms:
      return fmt::format("this server holds {} lectures already; try again when one ends", n(0));
    case Code::kRoomFull:
      return fmt::format("this lecture is full: {} students have joined", n(0));
    case Code::kBadState:
      return fmt::format(
          "the state must be a JSON object with a string \"scenario\", at most {} bytes", n(0));
    case Code::kBadQuestion:
      return fmt::format("a question needs a string \"id\" and 1 to {} distinct string "
                         "\"choices\", each at most {} bytes, and at most {} bytes in all",
                         n(0), n(1), n(2));
    case Code::kNoQuestion:
      return "no question is open for answers";
    case Code::kOtherQuestion:
      return "this answer is to a question that is not the open one";
    case Code::kBadChoice:
      return "this answer is not one of the question's choices";
    case Code::kAnsweredAlready:
      return "this student has answered in this vote already";
    case Code::kBadPhase:
      return fmt::format("the question cannot go from \"{}\" to \"{}\": a question goes "
                         "vote, (closed), (discuss, vote), revealed",
                         w(0), w(1));
    case Code::kVoteClosed:
      return "the vote is closed: wait for the next one";
    case Code::kBadCountdown:
      return fmt::format("a countdown is a whole number of seconds from 0 (none) to {}", n(0));
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

}  // namespace cutline::catalogue
