// Demo scripts. Each caption says what the step shows, not just what it does.
#include "scenario/demos.h"

namespace cutline::scenario {

namespace {

// The demos by family, one function each so that no function is the whole
// table; Demos() puts them together in order.

// Demos 1-2, why snapshots: a naive reader loses the money in flight, or
// counts it twice.
std::vector<Demo> NaiveReaderDemos() {
  return {
      {1, "bank",
       {"Money in flight is lost", "飛行中のお金が消える"},
       {
           {"transfer P1 P2 30",
            {"P1 sends $30 to P2. The money has left P1 and now exists only in "
             "the channel P1→P2.",
             "P1がP2へ$30を送る。お金はP1を出て、今はチャネルP1→P2の中にしかない。"}},
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
  };
}

// Demos 3-5, Chandy-Lamport on the bank: the money in flight caught, two
// initiators, nothing in flight.
std::vector<Demo> SnapshotDemos() {
  return {
      {3, "bank",
       {"A snapshot catches the money in flight",
        "スナップショットは飛行中のお金を捉える"},
       {
           {"transfer P2 P1 40",
            {"P2 sends $40 to P1; it is still travelling.",
             "P2がP1へ$40を送る。まだ移動中だ。"}},
           {"snapshot P1",
            {"P1 starts the snapshot: it records $100 and puts a marker on each "
             "outgoing channel before anything else. It now records P2→P1 and "
             "P3→P1.",
             "P1がスナップショットを開始: $100を記録し、何よりも先に各出力チャネルへ"
             "マーカーを流す。以後P2→P1とP3→P1を記録する。"}},
           {"transfer P1 P3 30",
            {"Right after, P1 sends $30 to P3. On the FIFO channel it travels "
             "behind P1's marker.",
             "直後にP1がP3へ$30を送る。FIFOチャネルなので、P1のマーカーの後ろを進む。"}},
           {"deliver P2 P1",
            {"The $40 reaches P1 while P1 records P2→P1: it goes into that "
             "channel's state.",
             "P1がP2→P1を記録している間に$40が届く。そのチャネルの状態に入る。"}},
           {"deliver P1 P2",
            {"P1's marker reaches P2, its first: P2 records $60 and sends its own "
             "markers; P1→P2 is recorded empty.",
             "P1のマーカーがP2に届く（P2にとって最初）: P2は$60を記録して自分のマーカーを"
             "送る。P1→P2は空と記録される。"}},
           {"deliver P1 P3",
            {"P1's marker reaches P3 before the $30: P3 records $100.",
             "$30より先にP1のマーカーがP3に届く: P3は$100を記録する。"}},
           {"deliver P1 P3",
            {"Now the $30 arrives at P3, after P3 recorded: it is not part of "
             "the snapshot, it belongs to the future.",
             "P3が記録した後で$30が届く。スナップショットには入らない: 未来に属する。"}},
           {"deliver P2 P1",
            {"P2's marker closes P2→P1 with state $40.",
             "P2のマーカーがP2→P1を状態$40で確定させる。"}},
           {"drain",
            {"The remaining markers close every other channel. Snapshot: P1 $100 "
             "+ P2 $60 + P3 $100 + $40 in P2→P1 = $300.",
             "残りのマーカーが他のチャネルをすべて確定させる。スナップショット: P1 $100 + "
             "P2 $60 + P3 $100 + P2→P1の$40 = $300。"}},
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
            {"The $25 reaches P3 while P3 records P2→P3: it goes into that "
             "channel's state.",
             "P3がP2→P3を記録している間に$25が届く。そのチャネルの状態に入る。"}},
           {"deliver",
            {"P1's marker reaches P2, its first: P2 records $75.",
             "P1のマーカーがP2に届く（最初）: P2は$75を記録する。"}},
           {"drain",
            {"Every other marker is a later marker for its receiver. One "
             "consistent snapshot: $100 + $75 + $100 + $25 on P2→P3 = $300.",
             "残りのマーカーは受け手にとってすべて後続のマーカー。一つの一貫した"
             "スナップショット: $100 + $75 + $100 + P2→P3の$25 = $300。"}},
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
  };
}

// Demos 6-7, channels that reorder (fifo=no): Chandy-Lamport counts twice,
// Lai-Yang does not.
std::vector<Demo> ReorderingDemos() {
  return {
      {6, "bank",
       {"Chandy-Lamport without FIFO: the $30 is counted twice",
        "FIFOでないチャネルのChandy-Lamport: $30が二重に数えられる"},
       {
           {"transfer P2 P1 40",
            {"Demo 3's start: P2 sends $40 to P1. These channels may reorder.",
             "デモ3と同じ始まり: P2がP1へ$40を送る。ここのチャネルは順序を入れ替えうる。"}},
           {"snapshot P1",
            {"P1 starts the snapshot: records $100 and sends its markers.",
             "P1がスナップショットを開始: $100を記録し、マーカーを送る。"}},
           {"transfer P1 P3 30",
            {"P1 sends $30 to P3 after recording: it belongs to the future, "
             "behind the marker.",
             "P1が記録の後でP3へ$30を送る。これは未来に属し、マーカーの後ろにある。"}},
           {"deliver P1 P3 at=2",
            {"The $30 overtakes the marker: P3 receives it before it has "
             "recorded, so P3 will record $130.",
             "$30がマーカーを追い越す。P3は記録する前に受け取るので、$130を記録することになる。"}},
           {"drain",
            {"The snapshot completes with $330 and is marked inconsistent: the "
             "$30 crossed the cut (sent after P1 recorded, received before P3 "
             "did), so it is counted twice.",
             "スナップショットは$330で完了し、一貫していないと示される。$30は切断面を"
             "逆向きに横切った（P1の記録後に送られ、P3の記録前に受け取られた）ので、"
             "二重に数えられる。"}},
       },
       "network P1=100 P2=100 P3=100 capacity=2 snapshots=one fifo=no"},
      {7, "bank",
       {"Lai-Yang: epochs instead of FIFO", "Lai-Yang: FIFOの代わりにエポック"},
       {
           {"transfer P2 P1 40",
            {"The same schedule as demo 6, under Lai-Yang: P2's $40 carries "
             "epoch 0.",
             "デモ6と同じ手順をLai-Yangで。P2の$40はエポック0を持つ。"}},
           {"snapshot P1",
            {"P1 records $100 and sends a control message on each channel, "
             "with the number of transfers it sent there before recording.",
             "P1は$100を記録し、各チャネルへ制御メッセージを送る。記録前にそのチャネルへ"
             "送った送金の数を添えて。"}},
           {"transfer P1 P3 30",
            {"P1's $30 now carries epoch 1: sent after P1 recorded snapshot 1.",
             "P1の$30はエポック1を持つ。スナップショット1の記録後に送られたからだ。"}},
           {"deliver P1 P3 at=2",
            {"The $30 overtakes the control message again, but its epoch gives "
             "it away: P3 records $100 first, then applies the $30.",
             "$30はまた制御メッセージを追い越すが、エポックで分かる。P3はまず$100を記録し、"
             "それから$30を適用する。"}},
           {"drain",
            {"P1 closes P2→P1 once the one transfer P2 counted has come: the "
             "$40. Total $300, consistent.",
             "P2が数えた1件の送金（$40）が届いた時点で、P1はP2→P1を確定する。合計$300、"
             "一貫している。"}},
       },
       "network P1=100 P2=100 P3=100 capacity=2 snapshots=one fifo=no "
       "algorithm=lai-yang"},
  };
}

// Demos 8-9, barriers: aligned on the dataflow, unaligned on the bank.
std::vector<Demo> BarrierDemos() {
  return {
      {8, "dataflow",
       {"Aligned barriers on a dataflow", "データフロー上の整列バリア"},
       {
           {"transfer P1 P3 10",
            {"A dataflow: P1 feeds P2 and P3, both feed P4. P1 sends $10 to P3.",
             "データフロー: P1がP2とP3へ流し、両方がP4へ流す。P1がP3へ$10を送る。"}},
           {"snapshot P1",
            {"Only a source starts: P1 records $90 and sends a barrier to P2 "
             "and P3. The $10 travels ahead of P3's barrier.",
             "始められるのは入力のない支店だけ。P1は$90を記録し、P2とP3へバリアを送る。"
             "$10はP3へのバリアの前を進む。"}},
           {"deliver P1 P2",
            {"P2's only input has its barrier: P2 records $100 and passes the "
             "barrier on to P4.",
             "P2の唯一の入力にバリアが来た。P2は$100を記録し、P4へバリアを渡す。"}},
           {"deliver P2 P4",
            {"P4 has P2's barrier but not P3's: it holds back P2→P4, so "
             "nothing P2 sends after recording reaches P4 before P4 records.",
             "P4にはP2のバリアが来たがP3のはまだ。P4はP2→P4を保留する。P2が記録後に"
             "送るものは、P4の記録より前には届かない。"}},
           {"transfer P2 P4 5",
            {"P2 sends $5 to P4: it waits behind the barrier on the held "
             "channel.",
             "P2がP4へ$5を送る。保留中のチャネルでバリアの後ろで待つ。"}},
           {"deliver P1 P3",
            {"P3 receives the $10 first (it was sent before P1 recorded).",
             "P3はまず$10を受け取る（P1の記録前に送られたもの）。"}},
           {"deliver P1 P3",
            {"Then P1's barrier: P3 records $110 and sends its barrier to P4.",
             "次にP1のバリア: P3は$110を記録し、P4へバリアを送る。"}},
           {"deliver P3 P4",
            {"P4 is aligned: it records $100 and releases P2→P4. Every channel "
             "state is empty, and $90 + $100 + $110 + $100 = $400 with the $10 "
             "inside P3's record.",
             "P4の整列が終わる: $100を記録し、P2→P4を解放する。チャネル状態はすべて空で、"
             "$10はP3の記録に入っているので$90 + $100 + $110 + $100 = $400。"}},
           {"drain",
            {"The $5 held back is delivered now, after P4's record: it belongs "
             "to the future.",
             "保留されていた$5が今届く。P4の記録の後なので、未来に属する。"}},
       },
       "network P1=100 P2=100 P3=100 P4=100 links=P1>P2,P1>P3,P2>P4,P3>P4 "
       "algorithm=aligned"},
      {9, "bank",
       {"Unaligned barriers overtake the backlog",
        "非整列バリアは滞留を追い越す"},
       {
           {"transfer P1 P2 20",
            {"P1 sends $20 to P2; it waits in P1→P2.",
             "P1がP2へ$20を送る。P1→P2で待つ。"}},
           {"transfer P1 P2 15",
            {"And $15: a backlog of two transfers on P1→P2.",
             "さらに$15。P1→P2に2件の送金が滞留している。"}},
           {"snapshot P1",
            {"P1 records $65 and puts its barriers at the head of its channels: "
             "on P1→P2 the barrier overtakes the $20 and the $15, which P1 "
             "records as that channel's state.",
             "P1は$65を記録し、出力チャネルの先頭にバリアを置く。P1→P2ではバリアが$20と"
             "$15を追い越し、P1はそれをそのチャネルの状態として記録する。"}},
           {"deliver P1 P2",
            {"The barrier reaches P2 at once, ahead of the backlog: P2 records "
             "$100.",
             "バリアは滞留より先にすぐP2へ届く。P2は$100を記録する。"}},
           {"deliver P1 P3", {"P3 records $100.", "P3は$100を記録する。"}},
           {"deliver P2 P1", {"P2's barrier reaches P1.", "P2のバリアがP1に届く。"}},
           {"deliver P2 P3", {"P2's barrier reaches P3.", "P2のバリアがP3に届く。"}},
           {"deliver P3 P1", {"P3's barrier reaches P1.", "P3のバリアがP1に届く。"}},
           {"deliver P3 P2",
            {"The last barrier: the snapshot is complete, $65 + $100 + $100 + "
             "$35 in P1→P2 = $300, while the $20 and the $15 are still "
             "waiting to be delivered.",
             "最後のバリア: スナップショットは完了し、$65 + $100 + $100 + P1→P2の$35 = "
             "$300。$20と$15はまだ配送を待っている。"}},
           {"drain",
            {"Now the backlog arrives; the snapshot did not wait for it.",
             "今ごろ滞留が届く。スナップショットはそれを待たなかった。"}},
       },
       "network P1=100 P2=100 P3=100 capacity=2 snapshots=one "
       "algorithm=unaligned"},
  };
}

// Demo 10, stopping the world: right, at the cost of the bank's time.
std::vector<Demo> StopTheWorldDemos() {
  return {
      {10, "bank",
       {"Stopping the world, and why not to",
        "世界を止める方法と、止めない理由"},
       {
           {"transfer P1 P2 30",
            {"P1 sends $30 to P2; it is in flight.",
             "P1がP2へ$30を送る。飛行中だ。"}},
           {"read P1", {"The naive reader copies P1: $70.",
                        "素朴な読み手がP1を写す: $70。"}},
           {"read P2", {"P2: $100 (the $30 has not arrived).",
                        "P2: $100（$30はまだ届いていない）。"}},
           {"read P3", {"P3: $100. Naive total $270: wrong.",
                        "P3: $100。素朴な合計は$270で、間違い。"}},
           {"snapshot P1",
            {"Chandy-Lamport on the same state: P1 records $70 and sends "
             "markers, and the bank keeps working.",
             "同じ状態でChandy-Lamport: P1は$70を記録してマーカーを送り、銀行は動き続ける。"}},
           {"transfer P2 P3 20",
            {"P2 sends $20 to P3 during the snapshot: nothing stops it.",
             "スナップショットの最中にP2がP3へ$20を送る。何も止めない。"}},
           {"drain",
            {"The snapshot completes with $300: the $20 P2 sent before it "
             "recorded is in channel P2→P3's state, and no branch ever had to "
             "stop.",
             "スナップショットは$300で完了。P2が記録前に送った$20はチャネルP2→P3の"
             "状態にあり、どの支店も止まる必要はなかった。"}},
           {"transfer P3 P1 10",
            {"More traffic: P3 sends $10 to P1.", "さらに通信: P3がP1へ$10を送る。"}},
           {"transfer P2 P1 5", {"And P2 sends $5 to P1.", "そしてP2がP1へ$5を送る。"}},
           {"stop-the-world",
            {"Stop the world: every branch stops sending, the 2 transfers in "
             "flight are delivered, every balance is read: $300, right, but "
             "those 2 deliveries were time in which the bank could not take a "
             "single transfer. Chandy-Lamport got the same total without "
             "stopping.",
             "世界を止める: 全支店が送金を止め、飛行中の2件が届けられ、全残高が読まれる。"
             "$300で正しいが、その2件の配送の間、銀行は1件の送金も受け付けられなかった。"
             "Chandy-Lamportは止めずに同じ合計を得た。"}},
       }},
  };
}

// The study note's lab run (kLabDemoId), listed after the numbered demos.
std::vector<Demo> LabDemos() {
  return {
      {kLabDemoId, "lab",
       {"Lab: two accounts (the study note)", "ラボ: 2口座（学習ノート）"},
       {
           {"transfer B A 40",
            {"B sends 40 to A; it is in flight on B→A.",
             "BがAへ40を送金。B→Aを飛行中。"}},
           {"snapshot A",
            {"A starts the snapshot: records 100, sends a marker to B.",
             "Aがスナップショットを開始: 100を記録し、Bへマーカーを送る。"}},
           {"deliver B A",
            {"The 40 reaches A while A records B→A.",
             "AがB→Aを記録している間に40が届く。"}},
           {"deliver A B",
            {"A's marker reaches B: B records 60; A→B is recorded empty.",
             "AのマーカーがBに届く: Bは60を記録し、A→Bは空と記録される。"}},
           {"deliver B A",
            {"B's marker closes B→A with [40]. Process states 160 + in flight "
             "40 = 200: the invariant holds.",
             "BのマーカーがB→Aを[40]で確定。プロセス状態160 + 飛行中40 = 200: "
             "不変量が保たれる。"}},
       }},
  };
}

// Demos 12-13, app=jobs: a false termination, and a snapshot that sees the
// job in flight.
std::vector<Demo> JobsDemos() {
  return {
      {12, "jobs",
       {"False termination", "偽の終了"},
       {
           {"read P3",
            {"Three branches share a computation; P1 holds the only job. The "
             "naive detector asks P3 first: no job, idle.",
             "3つの支店が一つの計算を分け合う。仕事を持つのはP1だけ。素朴な検出器がまず"
             "P3に尋ねる: 仕事なし、手が空いている。"}},
           {"job P1 P3",
            {"P1, busy, hands a new job to P3. The job travels on P1→P3; P1 "
             "keeps its own.",
             "仕事中のP1がP3へ新しい仕事を渡す。仕事はP1→P3を移動中。P1は自分の仕事を"
             "持ったまま。"}},
           {"finish P1",
            {"P1 finishes its own job and is idle.",
             "P1が自分の仕事を終え、手が空く。"}},
           {"read P1",
            {"The detector reads P1 now: idle.",
             "検出器がここでP1を読む: 手が空いている。"}},
           {"read P2",
            {"And P2: idle. Every read said idle, so the detector declares the "
             "computation terminated. It is wrong: a job is in flight on "
             "P1→P3, read neither at P1 (already sent) nor at P3 (not yet "
             "arrived).",
             "P2も手が空いている。読み取りはすべて「空き」なので、検出器は計算の終了を宣言する。"
             "誤りだ: 仕事がP1→P3を飛行中で、P1（送信済み）でもP3（未着）でも読まれていない。"}},
           {"deliver P1 P3",
            {"The job arrives: P3 is busy again. The computation never "
             "finished.",
             "仕事が届き、P3はまた仕事中になる。計算は終わっていなかった。"}},
       }},
      {13, "jobs",
       {"A snapshot sees the job in flight", "スナップショットは飛行中の仕事を捉える"},
       {
           {"job P1 P3",
            {"The same schedule: P1 hands a job to P3.",
             "同じ手順: P1がP3へ仕事を渡す。"}},
           {"finish P1",
            {"P1 finishes its own job. Every branch is idle now, but a job is "
             "in flight.",
             "P1が自分の仕事を終える。どの支店も手が空いているが、仕事が一つ飛行中だ。"}},
           {"snapshot P3",
            {"P3 starts a snapshot: it records itself idle, sends markers and "
             "records its incoming channels until their markers come.",
             "P3がスナップショットを開始: 自分を「空き」と記録し、マーカーを送り、"
             "マーカーが来るまで入力チャネルを記録する。"}},
           {"deliver P3 P1",
            {"P1 gets the marker: it records itself idle and sends its marker "
             "behind the job on P1→P3.",
             "P1がマーカーを受け取る: 自分を「空き」と記録し、P1→P3では仕事の後ろに"
             "マーカーを送る。"}},
           {"drain",
            {"The job reaches P3 before P1's marker, so it is recorded in the "
             "channel P1→P3. The snapshot says not terminated, and it is "
             "right: P3 is busy now.",
             "仕事はP1のマーカーより先にP3に届くので、チャネルP1→P3の状態として記録される。"
             "スナップショットの判定は「終了していない」。正しい: P3は今仕事中だ。"}},
           {"finish P3",
            {"P3 finishes the job. Every branch idle, nothing in flight: the "
             "computation has terminated, and stays so.",
             "P3が仕事を終える。全支店が空き、飛行中のものもない: 計算は終了し、"
             "その状態が続く。"}},
           {"snapshot P1",
            {"A second snapshot, started by P1.",
             "P1が2つ目のスナップショットを開始する。"}},
           {"drain",
            {"Every recorded branch idle, every channel state empty: it says "
             "terminated, and it is right.",
             "記録された支店はすべて空き、チャネル状態もすべて空: 判定は「終了」。"
             "正しい。"}},
       }},
  };
}

// Demos 14-15, app=locks: a phantom deadlock, and a real one.
std::vector<Demo> LocksDemos() {
  return {
      {14, "locks",
       {"A phantom deadlock", "幻のデッドロック"},
       {
           {"request P1 P2",
            {"P1 asks P2 for its lock and waits for P2.",
             "P1がP2にロックを要求し、P2を待つ。"}},
           {"read P1",
            {"The naive detector reads P1: waiting for P2.",
             "素朴な検出器がP1を読む: P2を待っている。"}},
           {"deliver P1 P2",
            {"The request reaches P2.", "要求がP2に届く。"}},
           {"grant P2 P1",
            {"P2, active, grants it.", "稼働中のP2が許可を返す。"}},
           {"deliver P2 P1",
            {"P1 gets the grant, stops waiting and goes on.",
             "P1が許可を受け取り、待つのをやめて先へ進む。"}},
           {"request P2 P1",
            {"Now P2 asks P1 and waits for P1.",
             "今度はP2がP1に要求し、P1を待つ。"}},
           {"read P2",
            {"The detector reads P2: waiting for P1. Its two reads make the "
             "cycle P1 → P2 → P1 and it declares a deadlock. A phantom: P1 had "
             "stopped waiting before P2 began; the two edges never existed at "
             "once.",
             "検出器がP2を読む: P1を待っている。2つの読み取りが循環P1 → P2 → P1を作り、"
             "検出器はデッドロックを宣言する。幻だ: P2が待ち始める前にP1は待つのをやめて"
             "いた。2本の辺は同時には存在しなかった。"}},
       }},
      {15, "locks",
       {"A real deadlock, named by a snapshot", "本物のデッドロックをスナップショットが名指す"},
       {
           {"request P1 P2",
            {"First a cycle that is about to dissolve. P1 asks P2 and waits.",
             "まず、解けかけている循環。P1がP2に要求して待つ。"}},
           {"deliver P1 P2",
            {"P2 holds P1's request.", "P2がP1の要求を受け取る。"}},
           {"grant P2 P1",
            {"P2 grants it; the grant is on its way on P2→P1.",
             "P2が許可を返す。許可はP2→P1を移動中。"}},
           {"request P2 P1",
            {"P2 now asks P1. P1 waits for P2 and P2 for P1, but the grant in "
             "flight will free P1.",
             "P2がP1に要求する。P1はP2を、P2はP1を待つが、飛行中の許可がP1を解放する。"}},
           {"snapshot P1",
            {"P1 starts a snapshot: it records itself waiting for P2.",
             "P1がスナップショットを開始: 自分を「P2待ち」と記録する。"}},
           {"drain",
            {"P2 records itself waiting for P1, and the grant is recorded in "
             "the channel P2→P1. The recorded edges form a cycle, but a grant "
             "for P1 is in a channel state: no deadlock, rightly.",
             "P2は自分を「P1待ち」と記録し、許可はチャネルP2→P1の状態として記録される。"
             "記録された辺は循環を作るが、P1への許可がチャネル状態にある: デッドロックではない。"
             "正しい判定だ。"}},
           {"grant P1 P2",
            {"P1, active again, answers P2's request.",
             "再び稼働中のP1がP2の要求に応える。"}},
           {"deliver P1 P2",
            {"Every branch is active.", "全支店が稼働中になる。"}},
           {"request P1 P2",
            {"Now a real one: P1 waits for P2...", "今度は本物: P1がP2を待ち…"}},
           {"request P2 P3",
            {"...P2 for P3...", "…P2がP3を待ち…"}},
           {"request P3 P1",
            {"...and P3 for P1. Nobody on the cycle can grant.",
             "…P3がP1を待つ。循環上の誰も許可を出せない。"}},
           {"snapshot P2",
            {"P2 starts a snapshot.", "P2がスナップショットを開始する。"}},
           {"drain",
            {"Every branch recorded waiting, the edges form P1 → P2 → P3 → P1 and "
             "no grant is in any channel state: deadlocked, with the cycle "
             "named. A deadlock is stable, so the verdict stays true.",
             "全支店が待ちとして記録され、辺はP1 → P2 → P3 → P1を作り、どのチャネル状態にも"
             "許可はない: デッドロック。循環も名指される。デッドロックは安定なので、"
             "この判定はずっと正しい。"}},
       }},
  };
}

// Demos 16-17, rules broken on purpose: a channel never recorded, markers
// sent too late.
std::vector<Demo> BrokenRuleDemos() {
  return {
      {16, "bank",
       {"Broken: a channel never recorded", "破れた規則: 記録されないチャネル"},
       {
           {"transfer P2 P1 40",
            {"Demo 3's start, with one rule broken on purpose: no branch ever "
             "records its first incoming channel (P1's is P2→P1). P2 sends "
             "$40 to P1.",
             "デモ3と同じ始まりだが、規則を一つわざと破っている: どの支店も最初の"
             "入力チャネル（P1ならP2→P1）を記録しない。P2がP1へ$40を送る。"}},
           {"snapshot P1",
            {"P1 starts the snapshot: records $100 and sends its markers. It "
             "should now record P2→P1 and P3→P1; this P1 records only "
             "P3→P1.",
             "P1がスナップショットを開始: $100を記録してマーカーを送る。本来はP2→P1と"
             "P3→P1を記録するが、このP1はP3→P1しか記録しない。"}},
           {"deliver P2 P1",
            {"The $40 reaches P1 after P1 recorded and before P2's marker: "
             "the rule puts it in P2→P1's state. Here it slips through, in "
             "no recorded balance and in no channel state.",
             "P1の記録の後、P2のマーカーより前に$40が届く。規則ではP2→P1の状態に入るが、"
             "ここではすり抜け、どの記録残高にもチャネル状態にも入らない。"}},
           {"drain",
            {"The markers close every channel and the snapshot completes: $100 "
             "+ $60 + $100 = $260. The checker names the loss: the $40 in "
             "flight on P2→P1 is missing from the snapshot.",
             "マーカーがすべてのチャネルを確定し、スナップショットが完了: $100 + $60 + "
             "$100 = $260。検査器が欠落を名指しする: P2→P1を飛行中だった$40が"
             "スナップショットから漏れている。"}},
       },
       "network P1=100 P2=100 P3=100 capacity=2 snapshots=one "
       "algorithm=broken-unrecorded-channel"},
      {17, "bank",
       {"Broken: markers sent too late", "破れた規則: 遅すぎるマーカー"},
       {
           {"snapshot P1",
            {"P1 starts the snapshot and records $100, but it breaks the rule "
             "\"markers before anything else\": it keeps its markers until "
             "after its next transfer.",
             "P1がスナップショットを開始して$100を記録するが、「何よりも先にマーカー」"
             "という規則を破り、次の送金の後までマーカーを送らない。"}},
           {"transfer P1 P3 30",
            {"P1 sends $30 to P3, and only then its markers: on P1→P3 the $30 "
             "travels ahead of the marker, though P1's recorded $100 still "
             "counts it.",
             "P1がP3へ$30を送り、その後でやっとマーカーを送る。P1→P3では$30がマーカーの"
             "前を進むが、P1の記録した$100にもその$30は入っている。"}},
           {"deliver P1 P3",
            {"The $30 reaches P3 before P1's marker: P3 has not recorded, so "
             "the $30 is in P3's balance.",
             "P1のマーカーより先に$30がP3に届く。P3はまだ記録していないので、$30は"
             "P3の残高に入る。"}},
           {"deliver P1 P3",
            {"Then the marker: P3 records $130, and the $30 is counted a "
             "second time.",
             "次にマーカー: P3は$130を記録し、$30が二度目に数えられる。"}},
           {"drain",
            {"The snapshot completes with $330 (P1 $100 + P2 $100 + P3 $130). "
             "The checker says why: the $30 was sent after P1 recorded and "
             "received before P3 recorded, so it crosses the cut backwards.",
             "スナップショットは$330で完了（P1 $100 + P2 $100 + P3 $130）。検査器が"
             "理由を示す: $30はP1の記録後に送られ、P3の記録前に受け取られたので、"
             "切断面を逆向きに横切る。"}},
       },
       "network P1=100 P2=100 P3=100 capacity=2 snapshots=one "
       "algorithm=broken-late-markers"},
  };
}

// Demo 18, a rule broken on purpose: recording stopped at the first
// message. Apart from 16-17 only to keep each function short.
std::vector<Demo> BrokenStopAtFirstDemos() {
  return {
      {18, "bank",
       {"Broken: recording stopped at the first message",
        "破れた規則: 最初のメッセージで記録を止める"},
       {
           {"transfer P2 P1 40",
            {"One rule broken on purpose: a channel's recording stops at the "
             "first message that arrives on it, not at its marker. P2 sends "
             "$40 to P1.",
             "規則を一つわざと破る: チャネルの記録をマーカーではなく、最初に届いた"
             "メッセージで止める。P2がP1へ$40を送る。"}},
           {"transfer P2 P1 20",
            {"And $20: two transfers in flight on P2→P1.",
             "さらに$20。P2→P1に2件の送金が飛行中。"}},
           {"snapshot P1",
            {"P1 starts the snapshot: records $100, sends its markers and "
             "starts recording P2→P1 and P3→P1.",
             "P1がスナップショットを開始: $100を記録してマーカーを送り、P2→P1とP3→P1の"
             "記録を始める。"}},
           {"deliver P2 P1",
            {"The $40 arrives and joins P2→P1's state, rightly. But this P1 "
             "stops recording P2→P1 here instead of at P2's marker.",
             "$40が届き、正しくP2→P1の状態に入る。しかしこのP1は、P2のマーカーを待たずに"
             "ここでP2→P1の記録を止める。"}},
           {"deliver P2 P1",
            {"The $20 arrives, still before P2's marker: the rule would record "
             "it too. Here it is left out.",
             "$20が届く。まだP2のマーカーより前なので、規則ではこれも記録される。ここでは"
             "漏れる。"}},
           {"drain",
            {"The snapshot completes: $100 + $40 + $100 + $40 in channels = "
             "$280. The checker names the $20: P2 sent it before recording, "
             "but it is neither in P1's record nor in the channel's recorded "
             "state.",
             "スナップショットが完了: $100 + $40 + $100 + チャネル内$40 = $280。"
             "検査器が$20を名指しする: P2が記録前に送ったのに、P1の記録にもチャネルの"
             "記録状態にも入っていない。"}},
       },
       "network P1=100 P2=100 P3=100 capacity=2 snapshots=one "
       "algorithm=broken-stop-at-first"},
  };
}

}  // namespace

const std::vector<Demo>& Demos() {
  static const std::vector<Demo> demos = [] {
    std::vector<Demo> all;
    for (auto family : {NaiveReaderDemos, SnapshotDemos, ReorderingDemos, BarrierDemos,
                        StopTheWorldDemos, LabDemos, JobsDemos, LocksDemos, BrokenRuleDemos,
                        BrokenStopAtFirstDemos}) {
      std::vector<Demo> some = family();
      all.insert(all.end(), some.begin(), some.end());
    }
    return all;
  }();
  return demos;
}

const Demo* FindDemo(int id) {
  for (const Demo& d : Demos()) {
    if (d.id == id) return &d;
  }
  return nullptr;
}

const char* DemoGroup(const Demo& demo) {
  if (demo.id == kLabDemoId) return "lab";
  if (demo.id >= kFirstAppDemo && demo.id <= kLastAppDemo) return "apps";
  if (demo.id <= 5) return "cl";
  if (demo.id >= kFirstBrokenDemo && demo.id <= kLastBrokenDemo) return "broken";
  return "beyond";
}

const char* PresetScenario(const Demo& demo) {
  if (demo.network != nullptr) return demo.network;
  return PresetNetwork(demo.preset);
}

const char* PresetNetwork(std::string_view preset) {
  if (preset == "lab") return kLabPreset;
  if (preset == "dataflow") return kDataflowPreset;
  if (preset == "jobs") return kJobsPreset;
  if (preset == "locks") return kLocksPreset;
  return kBankPreset;
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
