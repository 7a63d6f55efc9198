// Demo scripts. Each caption says what the step shows, not just what it does.
#include "scenario/demos.h"

namespace cutline::scenario {

const std::vector<Demo>& Demos() {
  static const std::vector<Demo> demos = {
      {1, "bank",
       {"Money in flight is lost", "飛行中のお金が消える"},
       {
           {"transfer P1 P2 30",
            {"P1 sends $30 to P2. The money has left P1 and now exists only in "
             "the channel P1->P2.",
             "P1がP2へ$30を送る。お金はP1を出て、今はチャネルP1->P2の中にしかない。"}},
           {"read P1",
            {"The naive reader asks P1 first: $70, correct at this moment.",
             "素朴な読み手がまずP1に尋ねる: $70。この瞬間としては正しい。"}},
           {"read P2",
            {"Then P2: $100. The $30 has not arrived yet, so it is in neither "
             "answer.",
             "次にP2: $100。$30はまだ届いていないので、どちらの答えにも入っていない。"}},
           {"read P3",
            {"Then P3: $100. Naive total $270: the $30 in flight was lost.",
             "最後にP3: $100。素朴な合計は$270。飛行中の$30が消えた。"}},
           {"deliver",
            {"The $30 reaches P2 now, too late: the reader already copied P2. "
             "The bank still holds $300.",
             "今ごろ$30がP2に届くが遅すぎる。読み手はすでにP2を写した。銀行には今も$300ある。"}},
       }},
      {2, "bank",
       {"Money counted twice", "お金が二重に数えられる"},
       {
           {"read P1",
            {"The naive reader copies P1 before it sends anything: $100.",
             "素朴な読み手は、P1が何も送らないうちにP1を写す: $100。"}},
           {"transfer P1 P2 30",
            {"Now P1 sends $30 to P2: after its read.",
             "その後でP1がP2へ$30を送る。読み取りの後だ。"}},
           {"deliver P1 P2",
            {"The $30 reaches P2.", "$30がP2に届く。"}},
           {"read P2",
            {"The reader copies P2 after the money arrived: $130.",
             "読み手はお金が届いた後のP2を写す: $130。"}},
           {"read P3",
            {"P3: $100. Naive total $330: the same $30 is in P1's answer and in "
             "P2's. The cut holds the receipt of the $30 but not its sending: "
             "it is inconsistent.",
             "P3: $100。素朴な合計は$330。同じ$30がP1の答えにもP2の答えにも入っている。"
             "この切断面は$30の受信を含むが送信を含まない: 一貫していない。"}},
       }},
      {3, "bank",
       {"A snapshot catches the money in flight",
        "スナップショットは飛行中のお金を捉える"},
       {
           {"transfer P2 P1 40",
            {"P2 sends $40 to P1; it is still travelling.",
             "P2がP1へ$40を送る。まだ移動中だ。"}},
           {"snapshot P1",
            {"P1 starts the snapshot: it records $100 and puts a marker on each "
             "outgoing channel before anything else. It now records P2->P1 and "
             "P3->P1.",
             "P1がスナップショットを開始: $100を記録し、何よりも先に各出力チャネルへ"
             "マーカーを流す。以後P2->P1とP3->P1を記録する。"}},
           {"transfer P1 P3 30",
            {"Right after, P1 sends $30 to P3. On the FIFO channel it travels "
             "behind P1's marker.",
             "直後にP1がP3へ$30を送る。FIFOチャネルなので、P1のマーカーの後ろを進む。"}},
           {"deliver P2 P1",
            {"The $40 reaches P1 while P1 records P2->P1: it goes into that "
             "channel's state.",
             "P1がP2->P1を記録している間に$40が届く。そのチャネルの状態に入る。"}},
           {"deliver P1 P2",
            {"P1's marker reaches P2, its first: P2 records $60 and sends its own "
             "markers; P1->P2 is recorded empty.",
             "P1のマーカーがP2に届く（P2にとって最初）: P2は$60を記録して自分のマーカーを"
             "送る。P1->P2は空と記録される。"}},
           {"deliver P1 P3",
            {"P1's marker reaches P3 before the $30: P3 records $100.",
             "$30より先にP1のマーカーがP3に届く: P3は$100を記録する。"}},
           {"deliver P1 P3",
            {"Now the $30 arrives at P3, after P3 recorded: it is not part of "
             "the snapshot, it belongs to the future.",
             "P3が記録した後で$30が届く。スナップショットには入らない: 未来に属する。"}},
           {"deliver P2 P1",
            {"P2's marker closes P2->P1 with state $40.",
             "P2のマーカーがP2->P1を状態$40で確定させる。"}},
           {"drain",
            {"The remaining markers close every other channel. Snapshot: P1 $100 "
             "+ P2 $60 + P3 $100 + $40 in P2->P1 = $300.",
             "残りのマーカーが他のチャネルをすべて確定させる。スナップショット: P1 $100 + "
             "P2 $60 + P3 $100 + P2->P1の$40 = $300。"}},
       }},
      {4, "bank",
       {"Two initiators at once", "二つの開始者が同時に"},
       {
           {"transfer P2 P3 25",
            {"P2 sends $25 to P3.", "P2がP3へ$25を送る。"}},
           {"snapshot P1",
            {"P1 starts a snapshot: records $100, sends markers.",
             "P1がスナップショットを開始: $100を記録し、マーカーを送る。"}},
           {"snapshot P3 id=1",
            {"P3 starts too, not knowing of P1's: it records $100 and sends "
             "markers. Both start the same snapshot.",
             "P1のことを知らずにP3も開始: $100を記録し、マーカーを送る。"
             "二つは同じスナップショットを始めたことになる。"}},
           {"deliver",
            {"The $25 reaches P3 while P3 records P2->P3: it goes into that "
             "channel's state.",
             "P3がP2->P3を記録している間に$25が届く。そのチャネルの状態に入る。"}},
           {"deliver",
            {"P1's marker reaches P2, its first: P2 records $75.",
             "P1のマーカーがP2に届く（最初）: P2は$75を記録する。"}},
           {"drain",
            {"Every other marker is a later marker for its receiver. One "
             "consistent snapshot: $100 + $75 + $100 + $25 on P2->P3 = $300.",
             "残りのマーカーは受け手にとってすべて後続のマーカー。一つの一貫した"
             "スナップショット: $100 + $75 + $100 + P2->P3の$25 = $300。"}},
       }},
      {5, "bank",
       {"Nothing in flight", "飛行中のものがない"},
       {
           {"snapshot P1",
            {"With nothing in flight, P1 starts a snapshot.",
             "飛行中のものがない状態で、P1がスナップショットを開始する。"}},
           {"drain",
            {"Every channel is recorded empty: the snapshot is just the "
             "balances, $300.",
             "すべてのチャネルが空と記録される。スナップショットは残高だけ、$300。"}},
           {"read P1",
            {"The naive reader copies P1: $100.", "素朴な読み手がP1を写す: $100。"}},
           {"read P2",
            {"P2: $100.", "P2: $100。"}},
           {"read P3",
            {"P3: $100. Naive total $300: right this time, but the reader cannot "
             "know that it is.",
             "P3: $100。素朴な合計は$300。今回は正しいが、読み手にはそれが分からない。"}},
       }},
      {kLabDemoId, "lab",
       {"Lab: two accounts (the study note)", "ラボ: 2口座（学習ノート）"},
       {
           {"transfer B A 40",
            {"B sends 40 to A; it is in flight on B->A.",
             "BがAへ40を送金。B->Aを飛行中。"}},
           {"snapshot A",
            {"A starts the snapshot: records 100, sends a marker to B.",
             "Aがスナップショットを開始: 100を記録し、Bへマーカーを送る。"}},
           {"deliver B A",
            {"The 40 reaches A while A records B->A.",
             "AがB->Aを記録している間に40が届く。"}},
           {"deliver A B",
            {"A's marker reaches B: B records 60; A->B is recorded empty.",
             "AのマーカーがBに届く: Bは60を記録し、A->Bは空と記録される。"}},
           {"deliver B A",
            {"B's marker closes B->A with [40]. Process states 160 + in flight "
             "40 = 200: the invariant holds.",
             "BのマーカーがB->Aを[40]で確定。プロセス状態160 + 飛行中40 = 200: "
             "不変量が保たれる。"}},
       }},
  };
  return demos;
}

const Demo* FindDemo(int id) {
  for (const Demo& d : Demos()) {
    if (d.id == id) return &d;
  }
  return nullptr;
}

const char* PresetScenario(const Demo& demo) {
  return std::string_view(demo.preset) == "lab" ? kLabPreset : kBankPreset;
}

std::string DemoScenario(const Demo& demo) {
  std::string text = PresetScenario(demo);
  text += '\n';
  for (const DemoStep& step : demo.steps) {
    text += step.command;
    text += '\n';
  }
  return text;
}

}  // namespace cutline::scenario
