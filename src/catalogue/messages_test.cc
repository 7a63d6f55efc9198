// Walks every refusal code through both catalogues: each gives one line that
// says every argument, the Japanese one reads as Japanese (no English word
// left but the scenario language's own), and the English one as English.
#include "catalogue/messages.h"

#include <gtest/gtest.h>

#include "apps/app.h"
#include "catalogue/cluster_lines.h"
#include "catalogue/sentences.h"

#include <set>
#include <string>
#include <vector>

namespace cutline::catalogue {
namespace {

// Argument values that cannot be mistaken for a word of either language.
const char* const kWords[] = {"Qx1", "Qy2", "Qz3", "Qw4"};
const std::int64_t kNumbers[] = {7301, 7302, 7303, 7304};
// A reason inside a refusal ("r"): said in the same language as the refusal.
const Status kSampleReason = Status::Error(Code::kUnknownBranch, "Qv5");

Status Sample(Code code) {
  std::vector<ErrorArg> args;
  std::string_view kinds = ArgKinds(code);
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    if (kinds[i] == 's') {
      args.emplace_back(std::string(kWords[i]));
    } else if (kinds[i] == 'r') {
      args.emplace_back(std::make_shared<const Status>(kSampleReason));
    } else {
      args.emplace_back(kNumbers[i]);
    }
  }
  return Status::Error(code, std::move(args));
}

std::string Without(std::string text, const std::string& part) {
  for (std::size_t at; (at = text.find(part)) != std::string::npos;) {
    text.replace(at, part.size(), " ");
  }
  return text;
}

// Runs of ASCII letters left in `text`.
std::vector<std::string> AsciiWords(const std::string& text) {
  std::vector<std::string> words;
  std::string current;
  for (char c : text + " ") {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      current += c;
    } else if (!current.empty()) {
      words.push_back(current);
      current.clear();
    }
  }
  return words;
}

// What the reader types: keywords, options and the usage placeholders;
// and what is named, not translated.
const std::set<std::string> kLanguageWords = {
    "network", "transfer", "deliver", "drain", "read", "snapshot", "show",
    "links", "capacity", "snapshots", "one", "many", "id", "FROM", "TO",
    "NAME", "BALANCE", "fifo", "algorithm", "aligned", "chandy", "lamport",
    "at", "stop", "the", "world", "FIFO", "yes", "no", "app", "bank", "jobs", "locks",
    // the tools' commands and options, and the names of programs and files
    "cutline", "store", "list", "show", "verify", "prune", "help", "keep", "restore", "ranks",
    "kill", "max", "pages", "FILE", "SQLite", "WAL", "wal", "shm", "topology",
    "dataflow", "alignment", "timeout", "slow", "unaligned",
    // a lecture's JSON fields
    "JSON", "scenario", "choices",
    // the statuses a store keeps, as it keeps them
    "live", "ended", "died", "running", "complete", "failed",
    // the events format's words (docs/logs.md), and its file names
    "kind", "start", "send", "receive", "record", "marker", "part", "done", "channels", "events",
    "jsonl", "docs", "logs", "md",
    // its version 2's kinds and fields, JSON's booleans, and the algorithm they name
    "drop", "abort", "crash", "restart", "epoch", "expected", "true", "false", "Lai", "Yang",
    // a cluster run's logs: their fields, file names and option
    "vc", "cause", "holds", "branches", "verdict", "rank", "N", "cluster", "log", "dir",
    "overtaken", "to", "from",
    // channels that reorder (cluster --reorder) and the summary's field it fills
    "reorder", "check", "wrong", "totals",
    // the command line's placeholder for a folder (check --logs DIR)
    "DIR",
    // the runtime's messages between ranks, by their names in the protocol
    "Init", "Drain", "Credit",
    // cutline test's protocol (docs/harness.md): its fields, the types of its
    // bodies, the tester's id and the program's name
    "body", "type", "src", "msg", "init", "ok", "sync", "amount", "c", "harness", "test",
    "every", "random", "K", "schedules"};

TEST(MessagesTest, EveryCodeHasOneLineInEachLanguage) {
  std::set<std::string_view> names;
  for (Code code : kAllErrorCodes) {
    SCOPED_TRACE(std::string(CodeName(code)));
    EXPECT_TRUE(names.insert(CodeName(code)).second) << "name used twice";
    Status s = Sample(code);
    std::string en, ja;
    ASSERT_NO_THROW(en = Reason(s, Lang::kEn)) << "arguments of the wrong kind";
    ASSERT_NO_THROW(ja = Reason(s, Lang::kJa)) << "arguments of the wrong kind";
    for (const std::string& text : {en, ja}) {
      EXPECT_FALSE(text.empty());
      EXPECT_EQ(text.find('\n'), std::string::npos) << text;
      EXPECT_NE(text, CodeName(code)) << "no sentence for this code";
    }
    EXPECT_NE(en, ja);

    std::string en_rest = en, ja_rest = ja;
    std::string_view kinds = ArgKinds(code);
    for (std::size_t i = 0; i < kinds.size(); ++i) {
      std::string arg = kinds[i] == 's' ? kWords[i] : std::to_string(kNumbers[i]);
      std::string arg_en = arg, arg_ja = arg;
      if (kinds[i] == 'r') {
        arg_en = Reason(kSampleReason, Lang::kEn);
        arg_ja = Reason(kSampleReason, Lang::kJa);
      }
      EXPECT_NE(en.find(arg_en), std::string::npos) << en << " omits " << arg_en;
      EXPECT_NE(ja.find(arg_ja), std::string::npos) << ja << " omits " << arg_ja;
      en_rest = Without(en_rest, arg_en);
      ja_rest = Without(ja_rest, arg_ja);
    }
    // A channel's two names are arguments; the arrow ChannelText writes
    // between them ("P1→P2") is the one mark outside ASCII that English
    // may hold, and no Japanese.
    en_rest = Without(en_rest, ChannelText("", ""));
    ja_rest = Without(ja_rest, ChannelText("", ""));
    for (unsigned char c : en_rest) {
      EXPECT_LT(c, 0x80) << "English with non-ASCII text: " << en;
    }
    bool has_japanese = false;
    for (unsigned char c : ja_rest) has_japanese |= c >= 0x80;
    EXPECT_TRUE(has_japanese) << "no Japanese in: " << ja;
    for (const std::string& word : AsciiWords(ja_rest)) {
      EXPECT_TRUE(kLanguageWords.count(word))
          << "English word '" << word << "' in: " << ja;
    }
  }
}

// The parser passes the name of the number it refused; Japanese names it
// in Japanese.
TEST(MessagesTest, FieldNamesAreTranslated) {
  Status s = Status::Error(Code::kNotAWholeNumber, "amount", "3.5");
  EXPECT_EQ(Reason(s, Lang::kEn), "amount '3.5' is not a whole number (digits only)");
  EXPECT_EQ(Reason(s, Lang::kJa), "金額 '3.5' は整数（数字のみ）ではありません");
  s = Status::Error(Code::kNumberTooLarge, "balance", "99999999999999999999");
  EXPECT_EQ(AsciiWords(Reason(s, Lang::kJa)), std::vector<std::string>{});
}

TEST(MessagesTest, TheLineComesFirstInEitherLanguage) {
  Status s = Status::Error(Code::kInsufficientFunds, "P1", 70, 100).AtLine(3);
  EXPECT_EQ(Message(s, Lang::kEn), "line 3: P1 has only $70, cannot send $100");
  EXPECT_EQ(Message(s, Lang::kJa), "3行目: P1の残高は$70しかなく、$100は送れません");
  EXPECT_EQ(Reason(s, Lang::kEn), "P1 has only $70, cannot send $100");
  Status lineless = Status::Error(Code::kNoNetwork);
  EXPECT_EQ(Message(lineless, Lang::kEn), "the scenario has no network command");
}

// A rank's fault is printed as "rank N: " and the fault (logs and scripts
// grep these words); in Japanese the fault inside is Japanese too.
TEST(MessagesTest, ARanksFaultNamesTheRankThenTheFault) {
  const Status fault = Status::Error(Code::kRankFault, 3, Status::Error(Code::kRuntimeNotAFrame, 2));
  EXPECT_EQ(Message(fault, Lang::kEn), "rank 3: rank 2 sent bytes that are no frame");
  EXPECT_EQ(Message(fault, Lang::kJa), "ランク 3: ランク 2 がフレームでないバイト列を送りました");
  const Status unknown = Status::Error(Code::kRuntimeUnknownMessage, "0x5a");
  EXPECT_EQ(Message(unknown, Lang::kEn), "a message with the unknown code 0x5a");
  const Status library = Status::Error(Code::kRankFailed, 0, "std::bad_alloc");
  EXPECT_EQ(Message(library, Lang::kEn), "rank 0: std::bad_alloc");
}

// The words the algorithms choose (algorithms/words.h): every code has its
// sentence in both catalogues, and each sentence names the branches and the
// snapshot it is about.
TEST(MessagesTest, EveryAlgorithmWordCodeHasItsSentences) {
  using namespace algorithms;
  MarkerTale t;
  t.to = "Qx1";
  t.from = "Qy2";
  t.channel = "Qy2→Qx1";
  t.id = 7301;
  t.balance = "$7302";
  t.markers = "Qz3";
  t.count = 7303;
  t.contents = {7304};
  for (Lang lang : {Lang::kEn, Lang::kJa}) {
    for (MarkerNoun n : {MarkerNoun::kMarker, MarkerNoun::kControlMessage, MarkerNoun::kBarrier}) {
      EXPECT_FALSE(MarkerWord(n, false, lang).empty());
      EXPECT_FALSE(MarkerWord(n, true, lang).empty());
    }
    EXPECT_TRUE(RuleNoteText(RuleNote::kNone, lang).empty());
    for (RuleNote r : {RuleNote::kLaiYang, RuleNote::kAligned, RuleNote::kUnaligned}) {
      EXPECT_FALSE(RuleNoteText(r, lang).empty());
    }
    t.marker = MarkerWord(MarkerNoun::kMarker, false, lang);
    std::vector<std::string> said;
    for (FirstMarkerTale f : {FirstMarkerTale::kRecordsChannelEmpty,
                              FirstMarkerTale::kAlignsAndRecords,
                              FirstMarkerTale::kRecordsWithCount}) {
      std::string s = FirstMarkerSentence(f, t, lang);
      for (const char* part : {"Qx1", "Qy2", "7301", "$7302", "Qz3"}) {
        EXPECT_NE(s.find(part), std::string::npos) << s;
      }
      said.push_back(s);
    }
    for (LaterMarkerTale l : {LaterMarkerTale::kClosesChannel, LaterMarkerTale::kHoldsChannel,
                              LaterMarkerTale::kTellsCount}) {
      std::string s = LaterMarkerSentence(l, t, lang);
      for (const char* part : {"Qx1", "Qy2", "7301"}) {
        EXPECT_NE(s.find(part), std::string::npos) << s;
      }
      said.push_back(s);
    }
    EXPECT_TRUE(CloseSentence(CloseTale::kWithMarker, t, lang).empty());
    std::string close = CloseSentence(CloseTale::kCountReached, t, lang);
    EXPECT_NE(close.find("Qy2→Qx1"), std::string::npos) << close;
    EXPECT_NE(close.find("$7304"), std::string::npos) << close;
    // Each code says something of its own.
    EXPECT_EQ(std::set<std::string>(said.begin(), said.end()).size(), said.size());
  }
}

// The views' sentences (sentences.h): facts that cannot be mistaken for a
// word of either language, and what remains of a sentence without them.
Said SampleFacts() {
  Said s;
  s.who = "Qa1";
  s.from = "Qb2";
  s.to = "Qc3";
  s.channel = "Qb2→Qc3";
  s.what = "$7301";
  s.state = "$7302";
  s.list = "Qd4";
  s.more = "Qe5";
  s.marker = "Qf6";
  s.markers = "Qg7";
  s.seq = 7303;
  s.seq2 = 7304;
  s.id = 7305;
  s.count = 7306;
  s.count2 = 7307;
  return s;
}

std::string WithoutFacts(std::string text) {
  for (const char* fact : {"Qb2→Qc3", "Qa1", "Qb2", "Qc3", "$7301", "$7302", "Qd4", "Qe5", "Qf6",
                           "Qg7", "7303", "7304", "7305", "7306", "7307"}) {
    text = Without(text, fact);
  }
  return text;
}

// Every sentence of one group, in both languages: said, on one line, not
// the same in both, English in ASCII, Japanese with no English word left
// but the scenario language's own; and no two English sentences alike.
template <typename Group>
void WalkSentences(int count, const char* group) {
  const Said facts = SampleFacts();
  std::set<std::string> english;
  for (int i = 0; i < count; ++i) {
    SCOPED_TRACE(std::string(group) + " " + std::to_string(i));
    const std::string en = Say(static_cast<Group>(i), facts, Lang::kEn);
    const std::string ja = Say(static_cast<Group>(i), facts, Lang::kJa);
    EXPECT_FALSE(en.empty());
    EXPECT_FALSE(ja.empty());
    EXPECT_NE(en, ja);
    EXPECT_EQ(en.find('\n'), std::string::npos) << en;
    EXPECT_EQ(ja.find('\n'), std::string::npos) << ja;
    EXPECT_TRUE(english.insert(en).second) << "said twice: " << en;
    for (unsigned char c : WithoutFacts(en)) {
      EXPECT_LT(c, 0x80) << "English with non-ASCII text: " << en;
    }
    const std::string ja_rest = WithoutFacts(ja);
    bool has_japanese = false;
    for (unsigned char c : ja_rest) has_japanese |= c >= 0x80;
    EXPECT_TRUE(has_japanese) << "no Japanese in: " << ja;
    for (const std::string& word : AsciiWords(ja_rest)) {
      EXPECT_TRUE(kLanguageWords.count(word)) << "English word '" << word << "' in: " << ja;
    }
  }
}

TEST(SentencesTest, EverySentenceIsSaidInEachLanguage) {
  WalkSentences<MessageLine>(kMessageLines, "MessageLine");
  WalkSentences<DeliveryClause>(kDeliveryClauses, "DeliveryClause");
  WalkSentences<MarkersClause>(kMarkersClauses, "MarkersClause");
  WalkSentences<SnapshotLine>(kSnapshotLines, "SnapshotLine");
  WalkSentences<NaiveLine>(kNaiveLines, "NaiveLine");
  WalkSentences<ShowLine>(kShowLines, "ShowLine");
  WalkSentences<CheckLine>(kCheckLines, "CheckLine");
  WalkSentences<DemoLine>(kDemoLines, "DemoLine");
}

// Every line of `store list` and `store show`, in both languages: said, on
// one line, and in Japanese not the English again (but a dash for nothing,
// and a latency, which read the same in both).
TEST(SentencesTest, EveryStoreLineIsSaidInEachLanguage) {
  StoreSaid facts{.run = 7301, .snapshot = 7302, .count = 7303, .count2 = 7304, .count3 = 7305,
                  .ms = 1.5, .switched = true, .restored_from = 7306, .who = "Qa1",
                  .what = "failed", .how = "aligned", .state = "$7301", .list = "Qb2",
                  .more = "Qc3", .when = "2024-05-01 12:00:00 UTC",
                  .where = "Qd4.db"};
  for (int i = 0; i < kStoreLines; ++i) {
    const auto line = static_cast<StoreLine>(i);
    SCOPED_TRACE("StoreLine " + std::to_string(i));
    const std::string en = Say(line, facts, Lang::kEn);
    const std::string ja = Say(line, facts, Lang::kJa);
    EXPECT_FALSE(en.empty());
    EXPECT_FALSE(ja.empty());
    EXPECT_EQ(en.find('\n'), std::string::npos) << en;
    EXPECT_EQ(ja.find('\n'), std::string::npos) << ja;
    if (line == StoreLine::kNone || line == StoreLine::kLatency) continue;
    EXPECT_NE(en, ja);
    for (unsigned char c : en) EXPECT_LT(c, 0x80) << "English with non-ASCII text: " << en;
  }
}

// Each application's words in both languages, chosen by AppWords::in: an
// application with a property has every phrase in each, and not the same.
TEST(SentencesTest, EveryApplicationsWordsAreInEachLanguage) {
  for (const apps::App& app : apps::App::All()) {
    if (!app.has_property()) continue;
    SCOPED_TRACE(std::string(app.name()));
    const apps::AppWordsIn& en = app.words().in(Lang::kEn);
    const apps::AppWordsIn& ja = app.words().in(Lang::kJa);
    for (auto phrase : {&apps::AppWordsIn::naive_wrong, &apps::AppWordsIn::reason_none,
                        &apps::AppWordsIn::reason_messages, &apps::AppWordsIn::became_true,
                        &apps::AppWordsIn::naive_false}) {
      EXPECT_FALSE((en.*phrase).empty());
      EXPECT_FALSE((ja.*phrase).empty());
      EXPECT_NE(en.*phrase, ja.*phrase);
    }
    EXPECT_NE(app.words().state(1, {}, Lang::kEn), app.words().state(1, {}, Lang::kJa));
    EXPECT_NE(app.words().message(1, Lang::kEn), app.words().message(1, Lang::kJa));
  }
}

// English says one channel, two channels; Japanese counts without a plural.
TEST(SentencesTest, EnglishPluralsFollowTheCount) {
  Said s = SampleFacts();
  s.count = 1;
  EXPECT_EQ(Say(ShowLine::kCapacityRule, s, Lang::kEn), ", at most 1 transfer per channel");
  s.count = 2;
  EXPECT_EQ(Say(ShowLine::kCapacityRule, s, Lang::kEn), ", at most 2 transfers per channel");
  EXPECT_EQ(Say(ShowLine::kCapacityRule, s, Lang::kJa), "、各チャネル送金2件まで");
}

TEST(SentencesTest, TheLabBlockIsWrittenInEachLanguage) {
  LabFacts lab;
  lab.states = "'A': 60";
  lab.channels = "('A', 'B'): [40]";
  lab.state_sum = 60;
  lab.in_flight = 40;
  lab.total = 100;
  lab.bank_total = 100;
  lab.conserved = true;
  const std::string en = LabText(lab, Lang::kEn), ja = LabText(lab, Lang::kJa);
  EXPECT_NE(en, ja);
  for (const std::string& text : {en, ja}) {
    EXPECT_NE(text.find("{'A': 60}"), std::string::npos) << text;
    EXPECT_NE(text.find("= 60 + 40 = 100"), std::string::npos) << text;
    EXPECT_NE(text.find("True"), std::string::npos) << text;
  }
}

// Every line `cutline cluster` prints is said in both languages, the
// figures in each, and a run's work in its application's words.
TEST(ClusterLinesTest, EveryLineIsSaidInBothLanguagesWithItsFigures) {
  RunFigures f;
  f.run = 41;
  f.ranks = 3;
  f.complete = 17;
  f.work_done = 12345;
  f.final_total = "$2997";
  f.bank_total = "$3000";
  f.conserved = false;
  f.detected_by = 9;
  f.delay_ms = 1.5;
  f.topology = "2-3-1";
  for (int i = 0; i <= static_cast<int>(ClusterLine::kDataflowCost); ++i) {
    const auto line = static_cast<ClusterLine>(i);
    const std::string en = ClusterText(line, f, Lang::kEn), ja = ClusterText(line, f, Lang::kJa);
    EXPECT_FALSE(en.empty()) << i;
    EXPECT_NE(en, ja) << i;
  }
  EXPECT_EQ(ClusterText(ClusterLine::kTotal, f, Lang::kEn),
            "total at the end: $2997 of $3000 (NOT conserved)");
  EXPECT_EQ(ClusterText(ClusterLine::kTotal, f, Lang::kJa),
            "終了時の合計: $2997（元は$3000）（保存されていない）");
  EXPECT_NE(ClusterText(ClusterLine::kRun, f, Lang::kJa).find("12345"), std::string::npos);
  Ending e;
  e.latest = "#5";
  e.who = "2";
  e.by_signal = 9;
  for (int i = 0; i <= static_cast<int>(EndingLine::kNoMpirun); ++i) {
    const auto line = static_cast<EndingLine>(i);
    EXPECT_NE(EndingText(line, e, Lang::kEn), EndingText(line, e, Lang::kJa)) << i;
  }
  EXPECT_EQ(EndingText(EndingLine::kRankDied, e, Lang::kEn),
            "rank 2 (signal 9) died; the job ended; last complete snapshot: #5");
}

TEST(ClusterLinesTest, TheStatusLineCountsEachApplicationsWork) {
  RunFigures f;
  f.per_s = 250;
  f.latest_total = "$300";
  f.work = apps::Work::kTransfers;
  EXPECT_EQ(ClusterText(ClusterLine::kStatus, f, Lang::kEn),
            "250 transfers/s | snapshots: 0 complete, 0 failed | latest total $300 | 0.0 s left");
  f.work = apps::Work::kMessages;
  EXPECT_EQ(ClusterText(ClusterLine::kStatus, f, Lang::kEn),
            "250 messages/s | snapshots: 0 complete, 0 failed | 0.0 s left");
  f.work = apps::Work::kRecords;
  EXPECT_EQ(ClusterText(ClusterLine::kStatus, f, Lang::kJa),
            "シンクで毎秒250レコード | スナップショット: 完了0件、失敗0件 | 残り0.0秒");
}

}  // namespace
}  // namespace cutline::catalogue
