// Status: an operation's outcome as a value. A refusal is a stable code, the
// values it concerns and (once the runner knows it) the scenario line; the
// sentence a person reads is made from these at the edge, in their language
// (src/catalogue/messages.h). Every module below the edge speaks only codes.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "base/check.h"

namespace cutline {

// Every refusal the project can give: the code, its stable name, and the
// kinds of its arguments in order ("s" a word, "n" a number, "r" another
// Status: the reason inside a refusal, worded in the same language), which
// the comment names. Names are part of the API ("code" in an error body): add
// new codes, never rename or reuse one.
#define CUTLINE_ERROR_CODES(X)                                               \
  /* network: what a network command or Engine::Create refuses */            \
  X(kNetworkTooSmall, "network_too_small", "")                               \
  X(kTooManyBranches, "too_many_branches", "")                               \
  X(kInvalidBranchName, "invalid_branch_name", "s")  /* name */              \
  X(kBranchDeclaredTwice, "branch_declared_twice", "s")  /* name */          \
  X(kNegativeBalance, "negative_balance", "s")  /* name */                   \
  X(kTotalOverflow, "total_overflow", "")                                    \
  X(kLinkUnknownBranch, "link_unknown_branch", "s")  /* name */              \
  X(kLinkSelfLoop, "link_self_loop", "ss")  /* from, to */                   \
  X(kLinkTwice, "link_twice", "ss")  /* from, to */                          \
  X(kBadLink, "bad_link", "s")  /* text */                                   \
  X(kOptionTwice, "option_twice", "s")  /* option */                         \
  X(kCapacityOutOfRange, "capacity_out_of_range", "n")  /* max */            \
  X(kBadSnapshotsMode, "bad_snapshots_mode", "s")  /* value */               \
  X(kNotBranchOrOption, "not_branch_or_option", "s")  /* word */             \
  X(kUnknownNetworkOption, "unknown_network_option", "s")  /* key */         \
  X(kExpectedBranchOrOption, "expected_branch_or_option", "s")  /* word */   \
  /* words and numbers */                                                    \
  X(kNotAWholeNumber, "not_a_whole_number", "ss")  /* field, text */         \
  X(kNumberTooLarge, "number_too_large", "ss")  /* field, text */            \
  X(kUnknownCommand, "unknown_command", "s")  /* verb */                     \
  X(kUnknownOption, "unknown_option", "s")  /* option */                     \
  X(kWrongArity, "wrong_arity", "ss")  /* verb, usage */                     \
  X(kTakesNoArguments, "takes_no_arguments", "s")  /* verb */                \
  /* the run */                                                              \
  X(kNetworkFirst, "network_first", "")                                      \
  X(kNetworkTwice, "network_twice", "n")  /* first line */                   \
  X(kNoNetwork, "no_network", "")                                            \
  X(kUnknownBranch, "unknown_branch", "s")  /* name */                       \
  X(kNoBranchNumber, "no_branch_number", "n")  /* number */                  \
  X(kChannelToItself, "channel_to_itself", "s")  /* name */                  \
  X(kNoChannel, "no_channel", "ss")  /* from, to */                          \
  X(kAmountTooSmall, "amount_too_small", "")                                 \
  X(kInsufficientFunds, "insufficient_funds", "snn")  /* from, has, amount */\
  X(kChannelFull, "channel_full", "ssn")  /* from, to, capacity */           \
  X(kChannelEmpty, "channel_empty", "ss")  /* from, to */                    \
  X(kNothingInFlight, "nothing_in_flight", "")                               \
  X(kSnapshotNotStarted, "snapshot_not_started", "n")  /* id */              \
  X(kSnapshotComplete, "snapshot_complete", "n")  /* id */                   \
  X(kAlreadyRecorded, "already_recorded", "sn")  /* branch, id */            \
  X(kSnapshotRunning, "snapshot_running", "n")  /* id */                     \
  /* a cut drawn on the space-time diagram (POST /api/cut) */               \
  X(kCutWrongSize, "cut_wrong_size", "nn")  /* points given, branches */     \
  X(kCutPastEnd, "cut_past_end", "snn")  /* branch, point, its events */     \
  X(kCutBadPoint, "cut_bad_point", "ss")  /* branch, point as given */      \
  /* the variants (scenario language v2) */                                  \
  X(kAtOnFifo, "at_on_fifo", "ssn")  /* from, to, k */                       \
  X(kAtOutOfRange, "at_out_of_range", "ssnn")  /* from, to, k, waiting */    \
  X(kManySnapshotsNeedCl, "many_snapshots_need_chandy_lamport", "s")         \
    /* algorithm */                                                          \
  X(kBarriersNeedFifo, "barriers_need_fifo", "s")  /* algorithm */           \
  X(kAlignedCycle, "aligned_cycle", "s")  /* the cycle, P1->P2->P1 */        \
  X(kAlignedNotSource, "aligned_not_source", "s")  /* branch */              \
  X(kChannelHeldBack, "channel_held_back", "ssns")                           \
    /* from, to (the branch aligning), snapshot, barriers awaited */         \
  X(kStopWhileSnapshot, "stop_while_snapshot", "n")  /* id */                \
  X(kNothingDeliverable, "nothing_deliverable", "")                          \
  /* the applications (app=, docs/scenario-language.md) */                   \
  X(kWrongApp, "wrong_app", "sss")  /* verb, its app, the network's app */   \
  X(kLocksStartActive, "locks_start_active", "s")  /* branch */              \
  X(kIdleHandsOut, "idle_hands_out", "s")  /* from */                        \
  X(kNoJobToFinish, "no_job_to_finish", "s")  /* branch */                   \
  X(kAlreadyWaiting, "already_waiting", "ss")  /* from, whom it waits for */ \
  X(kGrantWhileWaiting, "grant_while_waiting", "ss")  /* from, whom */       \
  X(kNoRequestToGrant, "no_request_to_grant", "ss")  /* from, to */          \
  /* limits of one run (Limits) */                                           \
  X(kBranchLimit, "branch_limit", "n")  /* max */                            \
  X(kCommandLimit, "command_limit", "n")  /* max */                          \
  X(kEventLimit, "event_limit", "n")  /* max */                             \
  /* a store's file: opening and vetting it (src/store); "why" is the OS's */ \
  /* or SQLite's own words, passed on as they are */                         \
  X(kNoSuchFile, "no_such_file", "s")  /* path */                            \
  X(kIsDirectory, "is_directory", "s")  /* path */                           \
  X(kCannotRead, "cannot_read", "ss")  /* path, why */                       \
  X(kStoreEmpty, "store_empty", "s")  /* path */                             \
  X(kNotSqlite, "not_sqlite", "s")  /* path */                               \
  X(kNotCutlineStore, "not_a_cutline_store", "s")  /* path */                \
  X(kStoreNewer, "store_schema_newer", "snn")  /* path, its, ours */         \
  X(kNoSchemaVersion, "store_no_schema_version", "s")  /* path */            \
  X(kStoreCorrupt, "store_corrupt", "ss")  /* path, SQLite's verdict */      \
  X(kStoreTableMissing, "store_table_missing", "ss")  /* path, table */      \
  X(kCannotOpen, "cannot_open", "ss")  /* path, why */                       \
  X(kWalNeedsShm, "wal_needs_shm", "ss")  /* path, why */                    \
  X(kReadOnlyFile, "read_only_file", "ss")  /* path, why */                  \
  X(kReadOnlyFolder, "read_only_folder", "sss")  /* path, folder, why */     \
  X(kReadOnlyHere, "read_only_here", "s")  /* path */                        \
  X(kCannotCreate, "cannot_create", "ss")  /* path, why */                   \
  X(kCannotOpenForWriting, "cannot_open_for_writing", "ss")  /* path, why */ \
  X(kNoWalMode, "no_wal_mode", "s")  /* path */                              \
  X(kWalRunMissing, "wal_run_missing", "sn")  /* path, run */                \
  X(kWalRunOther, "wal_run_other", "sn")  /* path, run */                    \
  X(kWalTopBehind, "wal_top_behind", "snn")  /* path, file's, WAL's */       \
  X(kWalTopMissing, "wal_top_missing", "sn")  /* path, file's highest */     \
  X(kWalSnapshotOther, "wal_snapshot_other", "sn")  /* path, snapshot */     \
  X(kWalCorrupt, "wal_corrupt", "ss")  /* path, SQLite's verdict */          \
  X(kWalTableMissing, "wal_table_missing", "ss")  /* path, table */          \
  X(kWriterBusy, "writer_busy", "nns")  /* run, pid (0: unknown), host */   \
  X(kWriterStarting, "writer_starting", "ns")  /* pid (0: unknown), host */  \
  X(kRunStoppedSilently, "run_stopped_silently", "n")  /* run; a notice */ \
  X(kCannotMake, "cannot_make", "ss")  /* lock file, why */                 \
  X(kCannotLock, "cannot_lock", "ss")  /* lock file, why */                  \
  X(kStoreFailed, "store_failed", "s")  /* SQLite's words, with the file */  \
  X(kNoSuchSnapshot, "no_such_snapshot", "sn")  /* path, id */               \
  /* restoring a run (cluster --restore) */                                  \
  X(kRestoreNothing, "restore_nothing", "s")  /* path */                     \
  X(kRestoreNotComplete, "restore_not_complete", "ns")  /* id, its state */  \
  X(kRestoreDamaged, "restore_damaged", "nsr")  /* id, path, 1st problem */  \
  X(kRestoreNoLongerComplete, "restore_no_longer_complete", "ns")            \
    /* id, path */                                                           \
  X(kRestoreWrongApp, "restore_wrong_app", "ns")  /* id, its app */          \
  X(kRestoreWrongRanks, "restore_wrong_ranks", "nnn")  /* id, its, asked */  \
  X(kRestoreOtherApp, "restore_other_app", "nss")  /* id, its app, asked */  \
  X(kRestoreWrongTopology, "restore_wrong_topology", "nss")                  \
    /* id, its topology, asked */                                            \
  X(kRestoreNeedsStore, "restore_needs_store", "")                           \
  /* a command's options (cluster, store) */                                 \
  X(kNotAnApp, "not_an_app", "ss")  /* name, the applications */             \
  X(kFlagForOtherApp, "flag_for_other_app", "sss")  /* flag, its app, app */ \
  X(kNotASnapshotId, "not_a_snapshot_id", "ss")  /* option, text */         \
  X(kSnapshotIdNotNumber, "snapshot_id_not_a_number", "s")  /* text */       \
  X(kSnapshotIdTooLarge, "snapshot_id_too_large", "s")  /* text */           \
  X(kMaxPagesNeedsStore, "max_pages_needs_store", "")                        \
  X(kBadKeep, "bad_keep", "s")  /* text */                                   \
  X(kStoreNeedsCommand, "store_needs_command", "")                           \
  X(kUnknownStoreCommand, "unknown_store_command", "s")  /* word */          \
  X(kUnknownStoreOption, "unknown_store_option", "s")  /* word */            \
  X(kTooFewRanks, "too_few_ranks", "")                                       \
  X(kKillRankOutOfRange, "kill_rank_out_of_range", "nn")  /* rank, ranks */  \
  X(kBadTopology, "bad_topology", "s")  /* text */                           \
  X(kTopologyTooLarge, "topology_too_large", "snn")  /* text, ranks, max */  \
  X(kAlgorithmNotForApp, "algorithm_not_for_app", "sss")                     \
    /* algorithm, app, the algorithms it runs */                             \
  X(kNotWithDataflow, "not_with_dataflow", "s")  /* flag */                  \
  X(kSlowRankOutOfRange, "slow_rank_out_of_range", "nn")  /* rank, ranks */  \
  X(kTimeoutNeedsAligned, "timeout_needs_aligned", "s")  /* algorithm */     \
  X(kRanksNotTopology, "ranks_not_topology", "nsn")  /* ranks, spec, its */  \
  X(kReorderNeedsFifo, "reorder_needs_fifo", "s")  /* algorithm */           \
  X(kReorderMayBeWrong, "reorder_may_be_wrong", "s")  /* algorithm; a warning */ \
  X(kLogsNotWith, "logs_not_with", "s")  /* the flag that rules them out */  \
  /* (still the options' group) the command line itself (src/cli/main.cc): */ \
  /* its words, the scenario file it reads, what it prints of a run */       \
  X(kCliUnknownCommand, "cli_unknown_command", "s")  /* word */              \
  X(kCliBadArguments, "cli_bad_arguments", "s")                              \
    /* CLI11's own words (English), or "" when it gave none */               \
  X(kCheckNeedsInput, "check_needs_input", "")                               \
  X(kScenarioIsDirectory, "scenario_is_directory", "s")  /* path */          \
  X(kScenarioUnreadable, "scenario_unreadable", "s")  /* path */             \
  X(kNoCompleteSnapshot, "no_complete_snapshot", "")                         \
  X(kOutOfMemory, "out_of_memory", "")                                       \
  /* the server */                                                           \
  X(kCannotListen, "cannot_listen", "sns")  /* host, port, why */            \
  /* a lecture room (src/lecture); the names are the page's since v1 */       \
  X(kNoRoom, "no_room", "")                                                  \
  X(kNotTeacher, "not_teacher", "")                                          \
  X(kNotStudent, "not_student", "")                                          \
  X(kTooManyRooms, "too_many_rooms", "n")  /* max rooms */                   \
  X(kRoomFull, "room_full", "n")  /* max students */                         \
  X(kBadState, "bad_state", "n")  /* max bytes */                            \
  X(kBadQuestion, "bad_question", "nnn")  /* choices, text, bytes at most */ \
  X(kNoQuestion, "no_question", "")                                          \
  X(kOtherQuestion, "other_question", "")                                    \
  X(kBadChoice, "bad_choice", "")                                            \
  X(kAnsweredAlready, "answered_already", "")                                \
  X(kBadPhase, "bad_phase", "ss")  /* the question's phase, the one asked */ \
  X(kVoteClosed, "vote_closed", "")                                          \
  X(kBadCountdown, "bad_countdown", "n")  /* seconds at most */              \
  /* store verify (Verification): whom a problem is about, then each problem; */ \
  /* a list ("l") is its first names joined and a number of more */          \
  X(kAboutFile, "about_file", "")                                            \
  X(kAboutRun, "about_run", "n")  /* run */                                  \
  X(kAboutSnapshot, "about_snapshot", "n")  /* snapshot */                   \
  X(kVerifyFileCorrupt, "verify_file_corrupt", "s")  /* SQLite's verdict */  \
  X(kVerifyRunMissing, "verify_run_missing", "n")  /* run */                 \
  X(kVerifyRunRanks, "verify_run_ranks", "nn")  /* run, ranks */             \
  X(kVerifySnapshotStatus, "verify_snapshot_status", "s")  /* status */      \
  X(kVerifyInitiator, "verify_initiator", "snn")  /* rank, run, ranks */     \
  X(kVerifyNoCompletionTime, "verify_no_completion_time", "")                \
  X(kVerifyPartMissing, "verify_part_missing", "s")  /* rank */              \
  X(kVerifyPartsMissing, "verify_parts_missing", "snnn")                     \
    /* list of ranks, more, missing, ranks */                                \
  X(kVerifyChannelsMissing, "verify_channels_missing", "snnn")               \
    /* list of channels, more, missing, channels */                          \
  X(kVerifyStrayPart, "verify_stray_part", "snn")  /* list, more, run */     \
  X(kVerifyStrayChannel, "verify_stray_channel", "snn")  /* list, more, run */ \
  X(kVerifyUnrecorded, "verify_unrecorded", "sn")  /* list, more */          \
  X(kVerifyTransferGap, "verify_transfer_gap", "snn")                        \
    /* channel, position, where it belongs */                                \
  X(kVerifyNegativeBalance, "verify_negative_balance", "sn")  /* rank, $ */  \
  X(kVerifyNegativeTransfer, "verify_negative_transfer", "ns")  /* $, ch */  \
  X(kVerifyMore, "verify_more", "n")  /* more of the same */                 \
  X(kVerifyNoTotal, "verify_no_total", "")                                   \
  X(kVerifySumOverflow, "verify_sum_overflow", "")                           \
  X(kVerifySumNotTotal, "verify_sum_not_total", "nn")  /* sum, total */      \
  X(kVerifyTotalNotRuns, "verify_total_not_runs", "nnn")                     \
    /* total, run, its total */                                              \
  X(kVerifyNotConserved, "verify_not_conserved", "nnnn")                     \
    /* stage, emitted, received by the next, in flight */                    \
  X(kVerifyKeyedCounts, "verify_keyed_counts", "snn")                        \
    /* rank, keyed counts' sum (-1: unreadable), records received */         \
  X(kVerifyIncompleteTotal, "verify_incomplete_total", "s")  /* status */    \
  X(kVerifyIncompleteTime, "verify_incomplete_time", "s")  /* status */      \
  X(kVerifyIncompleteParts, "verify_incomplete_parts", "snnn")               \
    /* status, balance, channel and transfer rows */                         \
  X(kVerifyOrphanParts, "verify_orphan_parts", "n")  /* rows */              \
  X(kVerifyRankCount, "verify_rank_count", "n")  /* ranks */                 \
  X(kVerifyNegativeStart, "verify_negative_start", "n")  /* balance */       \
  X(kVerifyRunStatus, "verify_run_status", "s")  /* status */                \
  X(kVerifyRunTotal, "verify_run_total", "nnn")  /* total, ranks, balance */ \
  X(kVerifyOriginMissing, "verify_origin_missing", "n")  /* snapshot */      \
  X(kVerifyOriginNotComplete, "verify_origin_not_complete", "ns")            \
    /* snapshot, its status */                                               \
  X(kVerifyOriginRanks, "verify_origin_ranks", "nnn")                        \
    /* ranks, snapshot, its ranks */                                         \
  X(kVerifyOriginTotal, "verify_origin_total", "nnn")                        \
    /* total, its total, snapshot */                                         \
  /* reading logs in the events format (check --logs --format events) */   \
  X(kLogAt, "log_at", "snr")  /* file, line, what is wrong there */         \
  X(kLogUnreadable, "log_unreadable", "s")  /* path */                       \
  X(kLogFolder, "log_folder", "ss")  /* folder, the OS's words */            \
  X(kLogNoFiles, "log_no_files", "s")  /* folder */                          \
  X(kLogNoEvents, "log_no_events", "s")  /* folder */                        \
  X(kLogNotEventsLog, "log_not_events_log", "s")  /* the first line wanted */ \
  X(kLogVersion, "log_version", "nsn")  /* version, format, it reads */      \
  X(kLogNotObject, "log_not_object", "")                                     \
  X(kLogNoField, "log_no_field", "s")  /* key */                             \
  X(kLogNotMessageId, "log_not_message_id", "s")  /* key */                  \
  X(kLogNotProcessName, "log_not_process_name", "s")  /* key */              \
  X(kLogNotWhole, "log_not_whole", "sn")  /* key, least */                   \
  X(kLogNotNames, "log_not_names", "s")  /* key */                           \
  X(kLogChannelsNotMap, "log_channels_not_map", "")                          \
  X(kLogChannelNotList, "log_channel_not_list", "s")  /* from */             \
  X(kLogUnknownKind, "log_unknown_kind", "s")  /* kind as written */         \
  X(kLogFileTwice, "log_file_twice", "ss")  /* process, its other file */    \
  X(kLogFirstNotStart, "log_first_not_start", "s")  /* process */            \
  X(kLogStartsTwice, "log_starts_twice", "s")  /* process */                 \
  X(kLogListsItself, "log_lists_itself", "s")  /* process */                 \
  X(kLogInputSilent, "log_input_silent", "ss")  /* process, input */         \
  X(kLogSendNoInput, "log_send_no_input", "ss")  /* process, to */           \
  X(kLogReceiveNotInput, "log_receive_not_input", "ss")  /* process, from */ \
  X(kLogSentTwice, "log_sent_twice", "ss")  /* message, first file:line */   \
  X(kLogPartChannel, "log_part_channel", "ss")  /* process, from */         \
  X(kLogPartMissesInput, "log_part_misses_input", "sss")                      \
    /* process, the input left out, snapshot */                             \
  X(kLogEmptyFile, "log_empty_file", "s")  /* the first line wanted */     \
  X(kLogLineTooLong, "log_line_too_long", "n")  /* the limit, bytes */     \
  X(kLogIdMixed, "log_id_mixed", "ss")  /* id, the other file:line */       \
  X(kLogChanged, "log_changed", "s")  /* path: changed between readings */ \
  /* version 2 of the events format */                                       \
  X(kLogKindNotInVersion, "log_kind_not_in_version", "sn")  /* kind, version */ \
  X(kLogNotSnapshotId, "log_not_snapshot_id", "s")  /* key */                \
  X(kLogSnapshotIdMixed, "log_snapshot_id_mixed", "ss")  /* id, file:line */ \
  X(kLogNotBool, "log_not_bool", "s")  /* key */                             \
  X(kLogNotText, "log_not_text", "s")  /* key */                             \
  X(kLogExpectedNotMap, "log_expected_not_map", "")                          \
  X(kLogDropUnsent, "log_drop_unsent", "s")  /* message */                   \
  X(kLogDropNotOwn, "log_drop_not_own", "ss")  /* process, message */        \
  X(kLogDropReceived, "log_drop_received", "ss")  /* message, file:line */   \
  X(kLogDroppedTwice, "log_dropped_twice", "ss")  /* message, file:line */   \
  X(kLogAfterCrash, "log_after_crash", "s")  /* process */                   \
  X(kLogRestartNoCrash, "log_restart_no_crash", "s")  /* process */          \
  X(kLogEpochMissing, "log_epoch_missing", "s")  /* a send's file:line */    \
  X(kLogMarkersWithEpochs, "log_markers_with_epochs", "s")  /* file:line */  \
  /* reading a cluster run's logs (check --logs DIR, rank-N.jsonl) */         \
  X(kRankLogNotFolder, "rank_log_not_folder", "s")  /* dir */                \
  X(kRankLogNone, "rank_log_none", "s")  /* dir */                           \
  X(kRankLogNotLine, "rank_log_not_line", "sn")  /* path, line */            \
  X(kRankLogBadStart, "rank_log_bad_start", "sn")  /* path, rank */          \
  X(kRankLogBadRanks, "rank_log_bad_ranks", "sns")  /* path, rank, ranks */ \
  X(kRankLogOtherRun, "rank_log_other_run", "snn")  /* path, its, others */  \
  X(kRankLogNoNumber, "rank_log_no_number", "ss")  /* kind, field */         \
  X(kRankLogBadPeer, "rank_log_bad_peer", "ssnn")  /* kind, key, p, ranks */ \
  X(kRankLogNoCause, "rank_log_no_cause", "")                                \
  X(kRankLogNoChannels, "rank_log_no_channels", "")                          \
  X(kRankLogNoVerdict, "rank_log_no_verdict", "")                            \
  X(kRankLogNotClock, "rank_log_not_clock", "")                              \
  X(kRankLogClockBack, "rank_log_clock_back", "nn")  /* sum, after */        \
  X(kRankLogWrongShape, "rank_log_wrong_shape", "ss")  /* kind, JSON's words */ \
  X(kRankLogAllEmpty, "rank_log_all_empty", "s")  /* dir */                  \
  X(kRankLogCount, "rank_log_count", "snn")  /* dir, logs, ranks */          \
  X(kRankLogUnreadable, "rank_log_unreadable", "s")  /* path */              \
  X(kRankLogUnknownApp, "rank_log_unknown_app", "ss")  /* path, app */       \
  X(kRankLogOtherApp, "rank_log_other_app", "ssns")                           \
    /* path, app, the rank whose log names the run's, its app */             \
  X(kRankLogBadTopology, "rank_log_bad_topology", "ss")  /* path, topology */ \
  X(kRankLogNoChannel, "rank_log_no_channel", "ssnn")  /* kind, topology, from, to */ \
  X(kRankLogOvertakenPeer, "rank_log_overtaken_peer", "")                     \
  /* a rank's faults: the protocol broken, a log not written (runtime::Fault); */ \
  /* "kind" is a message's name in the protocol (Init, Part, ...) */            \
  X(kRankFault, "runtime_rank_fault", "nr")  /* rank, the fault */             \
  X(kRankFailed, "runtime_rank_failed", "ns")  /* rank, a library's words */   \
  X(kRuntimeMessageEnded, "runtime_message_ended", "")                         \
  X(kRuntimeCountPastEnd, "runtime_count_past_end", "")                        \
  X(kRuntimeUnknownMessage, "runtime_unknown_message", "s")                    \
    /* its code byte, as 0x5a */                                               \
  X(kRuntimeBytesLeftOver, "runtime_bytes_left_over", "sn")  /* kind, bytes */ \
  X(kRuntimePartTooLarge, "runtime_part_too_large", "")                        \
  X(kRuntimeNotWirePart, "runtime_not_wire_part", "s")  /* kind */             \
  X(kRuntimeCreditTooLarge, "runtime_credit_too_large", "")                    \
  X(kRuntimeNotAFrame, "runtime_not_a_frame", "n")  /* sender */               \
  X(kRuntimeFirstNotInit, "runtime_first_not_init", "s")  /* kind */           \
  X(kRuntimeNotCoordinator, "runtime_not_coordinator", "nns")                  \
    /* sender, rank, kind */                                                   \
  X(kRuntimeNotItsMessage, "runtime_not_its_message", "ss")                     \
    /* algorithm, the message's kind */                                        \
  X(kRuntimeWordRefused, "runtime_word_refused", "ns")                         \
    /* rank, the rules' error (ToString(AgentError)) */                        \
  X(kRuntimeMarkerRefused, "runtime_marker_refused", "nn")  /* id, sender */   \
  X(kRuntimeTransferRefused, "runtime_transfer_refused", "ns")                 \
    /* sender, the rules' error */                                             \
  X(kRuntimeStartedTwice, "runtime_started_twice", "n")  /* id */              \
  X(kRuntimeDrainRanks, "runtime_drain_ranks", "")                             \
  X(kRuntimeDataflowFrame, "runtime_dataflow_frame", "n")  /* sender */        \
  X(kRuntimeTransferToVertex, "runtime_transfer_to_vertex", "n")  /* sender */ \
  X(kRuntimeNotInput, "runtime_not_input", "nn")  /* sender, vertex */         \
  X(kRuntimeNotOutput, "runtime_not_output", "nn")  /* sender, vertex */       \
  X(kRuntimeNoState, "runtime_no_state", "n")  /* vertex */                    \
  X(kRuntimeBarrierTooLong, "runtime_barrier_too_long", "n")  /* sender */     \
  X(kRuntimeCreditsNeverSent, "runtime_credits_never_sent", "n")  /* sender */ \
  X(kRuntimeCannotWriteLog, "runtime_cannot_write_log", "ss")  /* path, why */ \
  X(kRuntimeNoItemClock, "runtime_no_item_clock", "n")  /* item */             \
  X(kRuntimeNoBarrierClock, "runtime_no_barrier_clock", "n")  /* barrier */    \
  /* rank 0's faults: a control message the scheduler's policy refuses */      \
  X(kRuntimeNotForCoordinator, "runtime_not_for_coordinator", "ns")            \
    /* sender, kind */                                                         \
  X(kRuntimePartNamesOther, "runtime_part_names_other", "nn")                  \
    /* sender, the rank its part names */                                      \
  X(kRuntimePartTwice, "runtime_part_twice", "nn")  /* sender, snapshot */     \
  X(kRuntimePartRefused, "runtime_part_refused", "nns")                        \
    /* sender, snapshot, what the collector said (ToString(Added)) */          \
  X(kRuntimeCountsRanks, "runtime_counts_ranks", "nn")  /* sender, counts */   \
  X(kRuntimeAnswerUnasked, "runtime_answer_unasked", "n")  /* sender */       \
  /* cutline test: a program's faults (kNode*: the node first) and the */       \
  /* tester's own refusals (kTest*); "input" is what the node was given */       \
  X(kNodeNotJson, "node_not_json", "sss")  /* node, line, input */              \
  X(kNodeNoType, "node_no_type", "sss")  /* node, line, input */                \
  X(kNodeWrongSrc, "node_wrong_src", "ss")  /* node, line */                    \
  X(kNodeNoSuchDest, "node_no_such_dest", "sss")  /* node, dest, line */        \
  X(kNodeNoInitOk, "node_no_init_ok", "s")  /* node */                          \
  X(kNodeExited, "node_exited", "sns")  /* node, exit status, input */          \
  X(kNodeKilled, "node_killed", "sns")  /* node, signal, input */               \
  X(kNodeClosedOutput, "node_closed_output", "ss")  /* node, input */           \
  X(kNodeHangs, "node_hangs", "sns")  /* node, milliseconds, input */           \
  X(kNodeBadTransfer, "node_bad_transfer", "ss")  /* node, line */              \
  X(kNodeBadReport, "node_bad_report", "sss")  /* node, type, line */           \
  X(kNodeUnknownReport, "node_unknown_report", "ss")  /* node, type */          \
  X(kNodeAnsweredError, "node_answered_error", "sss")  /* node, line, input */  \
  X(kNodeReportNoChannel, "node_report_no_channel", "ss")  /* node, key */      \
  X(kNodeUnknownSnapshot, "node_unknown_snapshot", "sn")  /* node, id */        \
  X(kNodeReportUnsent, "node_report_unsent", "snsn")                             \
    /* node, snapshot, the channel's sender, the msg_id */                      \
  X(kNodeTransferIdTwice, "node_transfer_id_twice", "sn")  /* node, msg_id */   \
  X(kNodeNondeterministic, "node_nondeterministic", "ssss")                      \
    /* node, input, its first answer, its answer now */                          \
  X(kTestCannotStart, "test_cannot_start", "ss")  /* program, the OS's words */ \
  X(kTestNotSchedule, "test_not_schedule", "ss")  /* file, the key at fault */  \
  X(kTestStepImpossible, "test_step_impossible", "sns")                          \
    /* file, step number, the step */                                            \
  X(kTestNoSnapshots, "test_no_snapshots", "")                                   \
  X(kTestBadSchedules, "test_bad_schedules", "s")  /* the value given */

// Sixteen bits: the codes outgrew a byte's 255 (a Status is no larger for it,
// its pointer aligns what follows the code).
enum class Code : std::uint16_t {
  kOk,
#define CUTLINE_CODE_ENUM(name, text, args) name,
  CUTLINE_ERROR_CODES(CUTLINE_CODE_ENUM)
#undef CUTLINE_CODE_ENUM
};

// Every refusal code, in declaration order (for tests that walk them all).
inline constexpr Code kAllErrorCodes[] = {
#define CUTLINE_CODE_LIST(name, text, args) Code::name,
    CUTLINE_ERROR_CODES(CUTLINE_CODE_LIST)
#undef CUTLINE_CODE_LIST
};

// The stable name ("insufficient_funds"); "ok" for kOk.
inline std::string_view CodeName(Code code) {
  switch (code) {
    case Code::kOk:
      return "ok";
#define CUTLINE_CODE_NAME(name, text, args) \
  case Code::name:                    \
    return text;
      CUTLINE_ERROR_CODES(CUTLINE_CODE_NAME)
#undef CUTLINE_CODE_NAME
  }
  return "?";
}

// The kinds of a code's arguments, e.g. "snn" for kInsufficientFunds.
inline std::string_view ArgKinds(Code code) {
  switch (code) {
    case Code::kOk:
      return "";
#define CUTLINE_CODE_ARGS(name, text, args) \
  case Code::name:                          \
    return args;
      CUTLINE_ERROR_CODES(CUTLINE_CODE_ARGS)
#undef CUTLINE_CODE_ARGS
  }
  return "";
}

// A word (a name, the text that was refused), a number, or a reason.
class Status;
using ErrorArg = std::variant<std::int64_t, std::string, std::shared_ptr<const Status>>;

class [[nodiscard]] Status {
 public:
  static Status Ok() { return Status(); }
  template <class... Args>
  static Status Error(Code code, Args&&... args) {
    CUTLINE_CHECK(sizeof...(Args) == ArgKinds(code).size());
    Status s;
    s.code_ = code;
    s.args_ = std::make_unique<std::vector<ErrorArg>>();
    (s.args_->push_back(Arg(std::forward<Args>(args))), ...);
    return s;
  }

  // The same from arguments gathered at run time.
  // REQUIRES: their kinds are ArgKinds(code).
  static Status Error(Code code, std::vector<ErrorArg> args) {
    CUTLINE_CHECK(args.size() == ArgKinds(code).size());
    Status s;
    s.code_ = code;
    s.args_ = std::make_unique<std::vector<ErrorArg>>(std::move(args));
    return s;
  }

  Status(const Status& other)
      : code_(other.code_),
        args_(other.args_ ? std::make_unique<std::vector<ErrorArg>>(*other.args_) : nullptr),
        line_(other.line_) {}
  Status(Status&&) noexcept = default;
  Status& operator=(const Status& other) {
    if (this != &other) *this = Status(other);
    return *this;
  }
  Status& operator=(Status&&) noexcept = default;
  ~Status() = default;

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::vector<ErrorArg>& args() const { return args_ ? *args_ : NoArgs(); }
  // REQUIRES: argument i exists and has that type (see the code's comment).
  const std::string& word(std::size_t i) const {
    return std::get<std::string>(args().at(i));
  }
  std::int64_t number(std::size_t i) const {
    return std::get<std::int64_t>(args().at(i));
  }
  const Status& reason(std::size_t i) const {
    return *std::get<std::shared_ptr<const Status>>(args().at(i));
  }
  // The scenario line at fault; 0 when no line is (or not yet known).
  int line() const { return line_; }
  Status AtLine(int line) && {
    line_ = line;
    return std::move(*this);
  }

 private:
  Status() = default;
  static ErrorArg Arg(std::string_view s) { return std::string(s); }
  static ErrorArg Arg(const std::string& s) { return s; }
  static ErrorArg Arg(std::string&& s) { return std::move(s); }
  static ErrorArg Arg(const char* s) { return std::string(s); }
  static ErrorArg Arg(const Status& s) { return std::make_shared<const Status>(s); }
  template <class N>
    requires std::is_integral_v<N>
  static ErrorArg Arg(N n) {
    return static_cast<std::int64_t>(n);
  }

  static const std::vector<ErrorArg>& NoArgs() {
    static const std::vector<ErrorArg> none;
    return none;
  }

  Code code_ = Code::kOk;
  // Only an error has arguments. Behind a pointer so that an ok Status, the
  // value of every call on the hot paths (a transfer, a delivery), is
  // destroyed with one test of a null pointer instead of a call to a
  // vector's destructor.
  std::unique_ptr<std::vector<ErrorArg>> args_;
  int line_ = 0;
};

// Words a Status in the reader's language: what the edge (the command line,
// the server) hands to a module below it that must print a refusal itself
// (a run's rank 0), since only the edge knows the catalogues.
using Say = std::function<std::string(const Status&)>;

// A value, or the Status that says why there is none: what a function that
// can be refused returns across a module boundary (the store's open, a
// log's reading, a run's restore point), in place of an out-parameter.
template <class T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : value_(std::move(value)), status_(Status::Ok()) {}  // NOLINT: implicit
  // REQUIRES: !status.ok().
  StatusOr(Status status) : status_(std::move(status)) {  // NOLINT: implicit
    CUTLINE_CHECK(!status_.ok());
  }

  bool ok() const { return value_.has_value(); }
  // Ok when there is a value.
  const Status& status() const { return status_; }
  // REQUIRES: ok().
  T& value() & {
    CUTLINE_CHECK(ok());
    return *value_;
  }
  const T& value() const& {
    CUTLINE_CHECK(ok());
    return *value_;
  }
  T&& value() && {
    CUTLINE_CHECK(ok());
    return std::move(*value_);
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace cutline
