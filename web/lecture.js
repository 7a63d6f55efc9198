// Lecture mode (docs/page.md, "Teaching a lecture"): the teacher's page drives a room on the
// server; every student's page follows it over the room's event stream, in the student's own
// language, and answers the questions the teacher puts to the class. The room holds the run as
// scenario text and the demo's id, nothing the page could not rebuild: a student's page replays
// it with /api/run exactly as it replays a share link.
//
// The teacher's token lives in this browser's localStorage (a reload keeps the lecture) and
// travels only in a header; a student's token in localStorage too (a reload keeps the student's
// place and does not count twice). Scores stay in the student's browser; the teacher sees counts.
import { t } from './i18n.js';
import { app, hooks, enqueue, run, commit } from './run.js';
import { toCommands, toText } from './scenario.js';
import { notify, clearNotice, showFailure } from './notice.js';
import { askTheClassWith, questionText, classChoices, rightChoice, whyText, record, isPredicting } from './predict.js';
import { byId as $ } from './svg.js';
import { ensureExploreDemo } from './explore.js';
import { waitFor } from './waits.js';

const TEACHER = (code) => `cutline.lecture.teacher.${code}`;
const STUDENT = (code) => `cutline.lecture.student.${code}`;
// A student's answer, per question and per vote (1 or 2).
const ANSWER = (code, id, vote) => `cutline.lecture.answer.${code}.${id}.${vote}`;
// The teacher's countdown per vote, kept for the next lecture.
const SECONDS = 'cutline.lecture.seconds';

const L = {
  role: null, // 'teacher' | 'student' | null
  code: null,
  token: null, // the teacher's
  student: null, // the student's
  join: '', // the join link
  following: false, // a student's page that shows the room's run
  version: 0, // the room's run last shown here
  scenario: null, // ...and its text: a commit with other commands is the reader's own
  sent: '', // the teacher's last state sent, to send each change once
  events: null, // the room's EventSource
  // The room's question (docs/api.md): {id, choices, detail, phase, vote, revealed, answered,
  // ms_left, votes: [{answered, seconds, counts?}]}; phase is vote, closed, discuss or revealed.
  question: null,
  deadline: 0, // this page's clock when the open vote's countdown ends (0: none)
  peek: false, // the teacher's: the tallies shown during the votes
  students: 0,
  reveal: null, // the teacher's: resolves the question waiting on this page
  poll: null,
  ticker: null,
};

// A refusal the server words in English; the page says it in the reader's language by its code.
class LectureError extends Error {
  constructor(code, words) {
    super(words);
    this.code = code;
  }
}

async function call(method, path, body) {
  const headers = { 'Content-Type': 'application/json' };
  if (L.role === 'teacher' && L.token) headers['X-Cutline-Teacher'] = L.token;
  const res = await fetch(`api/rooms${path}`, {
    method, headers, body: method === 'POST' ? JSON.stringify(body || {}) : undefined,
  });
  const data = await res.json().catch(() => null);
  if (res.ok && data) return data;
  throw new LectureError(data && data.code, data && data.error ? data.error : `HTTP ${res.status}`);
}

function sayRefusal(e) {
  if (!(e instanceof LectureError)) return showFailure(e);
  const key = `lectureErr_${e.code}`;
  const words = t(key);
  notify(words === key ? t('lectureRefused', { reason: e.message }) : words, 'refusal');
  return null;
}

function setParam(name, value) {
  const url = new URL(location.href);
  for (const p of ['room', 'teach']) url.searchParams.delete(p);
  if (name) url.searchParams.set(name, value);
  history.replaceState(null, '', url);
}

// ---- The run: the teacher's page sends it, a student's page shows it.

// Keys in the order the server writes them (it sorts them), so that a state read back from the
// room compares equal to the page's own.
// A schedule found by Every schedule travels as the scenario it was found in (explore.js).
function stateOf() {
  const demo = app.demo ? { id: app.demo.id, network: app.demo.network } : null;
  if (demo && demo.id === 'explore' && app.exploreDemo) demo.source = app.exploreDemo.source;
  return { demo, scenario: toText(app.commands) };
}

// One send at a time, each of the page's state as it is when its turn comes: two posts in flight
// at once (a presenter's remote pressed twice, a slow network) could reach the server in either
// order and leave the room one step behind its teacher.
let sending = Promise.resolve();
function sendState() {
  // After a send that failed too (sendNow says why itself): one failure never stops the next.
  sending = sending.then(sendNow, sendNow);
  return sending;
}

async function sendNow() {
  if (L.role !== 'teacher') return;
  const state = stateOf();
  const text = JSON.stringify(state);
  if (text === L.sent) return;
  L.sent = text;
  try {
    const r = await call('POST', `/${L.code}/state`, state);
    L.version = r.version;
  } catch (e) {
    L.sent = '';
    sayRefusal(e);
  }
}

// Shows the room's run on this page (a student's, or the teacher's after a reload).
// States that come quickly are queued; one overtaken by a newer state while it waited is skipped,
// and L.scenario names the run being committed only when it is committed, so that the page's own
// commit of the room's older state never reads as the student playing alone.
function showState(version, state) {
  if (!state || version < L.version) return null;
  L.version = version;
  return enqueue(async () => {
    if (version < L.version) return;
    const commands = toCommands(state.scenario);
    const result = await run(commands);
    if (version < L.version) return;
    L.scenario = state.scenario;
    // The room's found schedule: this page finds it again (the server answers the class once).
    const found = !state.demo || state.demo.id !== 'explore' || (await ensureExploreDemo(state.demo.source || ''));
    app.demo = state.demo && found ? { id: state.demo.id, network: state.demo.network, pos: 0, off: false } : null;
    if (!app.demo) app.caption = '';
    commit(commands, result);
    hooks.renderDemoUi();
  });
}

// Every commit on this page: the teacher's goes to the room; a student's own action (a commit
// whose commands are not the room's) means the student plays alone now.
function onCommit() {
  if (L.role) placeQuestion();
  if (L.role === 'teacher') {
    sendState();
  } else if (L.role === 'student' && L.following && toText(app.commands) !== L.scenario) {
    stopFollowing();
    notify(t('lectureLeftByPlaying'), 'info');
  }
}

// ---- Following the room's event stream.

function listen() {
  if (L.events) L.events.close();
  const events = new EventSource(`api/rooms/${L.code}/events`);
  L.events = events;
  // Subscribed: read the room as it is now (a late joiner, a reconnect), then hear each change.
  events.addEventListener('ready', async () => {
    try {
      const view = await call('GET', `/${L.code}`);
      L.students = view.students;
      if (L.role === 'student' && L.following) await showState(view.version, view.state);
      onQuestion(view.question);
    } catch (e) {
      if (e instanceof LectureError && e.code === 'no_room') return ended();
      sayRefusal(e);
    }
  });
  events.addEventListener('state', (e) => {
    if (L.role === 'student' && L.following) {
      const data = JSON.parse(e.data);
      showState(data.version, data.state);
    }
  });
  events.addEventListener('question', (e) => onQuestion(JSON.parse(e.data)));
  events.addEventListener('answers', (e) => {
    const data = JSON.parse(e.data);
    if (L.question && L.question.id === data.id && L.question.vote === data.vote) L.question.answered = data.answered;
    if (L.role === 'teacher') refreshTally();
    else renderQuestion();
  });
}

function stopFollowing() {
  L.following = false;
  if (L.events) L.events.close();
  L.events = null;
  waitFor(null);
  renderBar();
}

// Stepping alone is a choice a student makes, not a tap that slips: while this page follows the
// lecture, a step of its own (a step button, a step key, Explore on my own) first asks "leave the
// lecture to explore?". True if it asked (then `then` runs once the student has chosen to leave).
let afterLeaving = null;
export function confirmLeaving(then) {
  if (!(L.role === 'student' && L.following)) return false;
  afterLeaving = then;
  const d = $('lecture-leave-confirm');
  if (!d.open) d.showModal();
  $('lecture-confirm-stay').focus();
  return true;
}

function ended() {
  const code = L.code;
  leave();
  notify(t('lectureErr_no_room', { code }), 'refusal');
}

// ---- The teacher's side.

export function startLecture() {
  enqueue(async () => {
    try {
      const r = await call('POST', '', {});
      beTeacher(r.code, r.token, r.join);
      localStorage.setItem(TEACHER(r.code), r.token);
      setParam('teach', r.code);
      await sendState();
      openJoinScreen();
    } catch (e) {
      sayRefusal(e);
    }
  });
}

function beTeacher(code, token, join) {
  Object.assign(L, { role: 'teacher', code, token, join, following: false, sent: '', question: null });
  askTheClassWith(askTheClass);
  listen();
  clearInterval(L.poll);
  // Joining publishes nothing (a thousand joins would be a million events), and answers are told
  // a few times a second at most: the teacher's page asks for the counts, every second while a
  // question is open, every five otherwise.
  let ticks = 0;
  L.poll = setInterval(() => {
    ticks += 1;
    if ((L.question && !L.question.revealed) || ticks % 5 === 0) refreshTally();
  }, 1000);
  renderBar();
}

let tallyTimer = null;
// The counts, asked for at most every quarter second while answers pour in.
function refreshTally() {
  if (tallyTimer) return;
  tallyTimer = setTimeout(async () => {
    tallyTimer = null;
    if (L.role !== 'teacher') return;
    try {
      const view = await call('GET', `/${L.code}`);
      L.students = view.students;
      if (view.question) setQuestion(view.question);
      renderBar();
    } catch (e) {
      if (e instanceof LectureError && e.code === 'no_room') ended();
    }
  }, 250);
}

// Predict mode on the teacher's page asks the class instead (predict.js): the question opens in
// the room for its first vote, and this page waits while the teacher takes the class through
// peer instruction (vote, discuss, vote again) to the reveal, which every page shows.
async function askTheClass(q, stepId) {
  const id = `${L.version}-${stepId}`;
  const open = L.question && L.question.id === id;
  if (!open) {
    const choices = classChoices(q).map((c) => c.id);
    L.peek = false;
    try {
      const view = await call('POST', `/${L.code}/question`, { id, choices, detail: q, seconds: countdown() });
      setQuestion(view.question);
    } catch (e) {
      sayRefusal(e);
      return;
    }
  } else if (L.question.revealed) {
    return;
  }
  L.question.detail = q;
  renderQuestion();
  const next = $('lecture-next');
  if (next) next.focus();
  notify(`${t('lectureAsked')} ${questionText(q)}`, 'predict');
  await new Promise((resolve) => { L.reveal = resolve; });
}

// The countdown the teacher chose for each vote, in seconds (0: none).
function countdown() {
  return Number($('lecture-seconds').value) || 0;
}

// The teacher's next move for the question as it stands: vote 1 -> discussion -> vote 2 ->
// reveal (a closed vote moves on the same way).
function nextPhase(q) {
  if (!q || q.revealed) return null;
  if (q.vote === 1 && (q.phase === 'vote' || q.phase === 'closed')) return 'discuss';
  if (q.phase === 'discuss') return 'vote';
  return 'revealed';
}

// The presenter's step key while the class's question waits: it moves the question on to its
// next phase; with the reveal, the step plays. True if it did.
export function advanceIfWaiting() {
  if (L.role !== 'teacher' || !L.reveal) return false;
  advance(nextPhase(L.question));
  return true;
}

async function advance(phase) {
  if (!phase) return;
  try {
    const view = await call('POST', `/${L.code}/phase`, { phase, seconds: phase === 'vote' ? countdown() : 0 });
    setQuestion(view.question);
    notify(phaseText(L.question), 'info');
  } catch (e) {
    sayRefusal(e);
  }
  renderQuestion();
  if (!L.question || !L.question.revealed) return;
  const resolve = L.reveal;
  L.reveal = null;
  if (resolve) resolve();
}

// The room's question as the server sent it; a running countdown is kept on this page's clock.
function setQuestion(q) {
  L.question = q;
  L.deadline = q && q.phase === 'vote' && typeof q.ms_left === 'number' ? performance.now() + q.ms_left : 0;
  clearInterval(L.ticker);
  L.ticker = L.deadline ? setInterval(tick, 500) : null;
}

function secondsLeft() {
  return L.deadline ? Math.max(0, Math.ceil((L.deadline - performance.now()) / 1000)) : null;
}

// The countdown's figure, or nothing when no countdown runs; `left` as secondsLeft() says.
function renderCountdown(left) {
  $('lecture-countdown').hidden = left === null;
  $('lecture-countdown').textContent = left === null ? '' : t('lectureSecondsLeft', { s: left });
}

// Each half second of a countdown: its figure; at zero the vote is closed here too (the server
// refuses a late answer, and the teacher's page hears the phase at its next look).
function tick() {
  const left = secondsLeft();
  if (left === null) return;
  if (left > 0) {
    renderCountdown(left);
    return;
  }
  clearInterval(L.ticker);
  L.ticker = null;
  L.deadline = 0;
  if (L.question && L.question.phase === 'vote') L.question.phase = 'closed';
  renderQuestion();
  notify(t('lectureTimeUp'), 'info');
}

// ---- A student's side.

export function joinLecture(code) {
  const clean = String(code || '').trim().toUpperCase();
  if (!/^[A-Z0-9]{6}$/.test(clean)) {
    notify(t('lectureBadCode', { code: String(code || '').slice(0, 12) }), 'refusal');
    return;
  }
  enqueue(async () => {
    try {
      const saved = localStorage.getItem(STUDENT(clean)) || '';
      const r = await call('POST', `/${clean}/join`, { student: saved });
      localStorage.setItem(STUDENT(clean), r.student);
      Object.assign(L, { role: 'student', code: clean, student: r.student, following: true, version: 0, question: null });
      askTheClassWith(null);
      setParam('room', clean);
      clearNotice();
      listen();
      renderBar();
      notify(t('lectureJoined', { code: clean }), 'info');
    } catch (e) {
      sayRefusal(e);
    }
  });
}

function rejoin() {
  L.following = true;
  L.version = 0;
  listen();
  renderBar();
}

async function answer(choice) {
  const q = L.question;
  if (!q || q.phase !== 'vote') return null;
  try {
    await call('POST', `/${L.code}/answer`, { student: L.student, question: q.id, choice, vote: q.vote });
    localStorage.setItem(ANSWER(L.code, q.id, q.vote), choice);
  } catch (e) {
    // Answered already (another tab of this browser): what this browser answered stands.
    if (!(e instanceof LectureError && e.code === 'answered_already')) return sayRefusal(e);
  }
  renderQuestion();
  notify(t('lectureAnswerIn'), 'info');
  return null;
}

// This browser's answer in vote `vote` of question q (null: none).
function mine(q, vote) {
  return L.role === 'student' ? localStorage.getItem(ANSWER(L.code, q.id, vote)) : null;
}
// The answer a student is scored on: the last vote's they gave.
function finalAnswer(q) {
  for (let v = q.vote; v >= 1; v -= 1) {
    const a = mine(q, v);
    if (a !== null) return a;
  }
  return null;
}

function onQuestion(q) {
  const was = L.question;
  setQuestion(q);
  if (L.role === 'student') {
    // The panels keep the answer back while the class votes on the run this page shows.
    waitFor(q && !q.revealed && L.following ? q.detail : null);
  }
  renderQuestion();
  if (L.role !== 'student' || !q || !q.detail) return;
  const changed = !was || was.id !== q.id || was.phase !== q.phase || was.vote !== q.vote;
  if (!changed) return;
  if (q.revealed) {
    // Said where the reader is looking (the notice stays in view), and kept as this browser's score.
    const a = finalAnswer(q);
    if (a !== null) {
      const right = a === rightChoice(q.detail);
      record(`lecture-${L.code}`, q.id, right);
      notify(`${t(right ? 'pqRight' : 'pqWrongShort')} ${whyText(q.detail)}`, 'predict');
    } else {
      notify(`${t('lectureRevealed')} ${whyText(q.detail)}`, 'predict');
    }
    return;
  }
  if (q.phase === 'vote') {
    const first = document.querySelector('#lecture-choices button');
    $('lecture-ask').scrollIntoView({ block: 'nearest' });
    if (first) first.focus({ preventScroll: true });
  }
  notify(`${phaseText(q)} ${questionText(q.detail)}`, 'predict');
}

// ---- Leaving.

export function leave() {
  if (L.events) L.events.close();
  clearInterval(L.poll);
  if (L.role === 'teacher') localStorage.removeItem(TEACHER(L.code));
  const resolve = L.reveal;
  setQuestion(null);
  Object.assign(L, { role: null, code: null, token: null, student: null, following: false, events: null, reveal: null });
  askTheClassWith(null);
  waitFor(null);
  if (resolve) resolve();
  setParam(null);
  closeJoinScreen();
  renderBar();
}

// ---- Drawing: the bar under the header, the class's question, the join screen.

function renderBar() {
  const bar = $('lecture');
  bar.hidden = !L.role;
  document.body.classList.toggle('in-lecture', !!L.role);
  // A following student's step bar offers "Explore on my own" instead of the step buttons.
  document.body.classList.toggle('lecture-following', L.role === 'student' && L.following);
  $('lecture-explore').hidden = !(L.role === 'student' && L.following);
  if (!L.role) return;
  bar.dataset.role = L.role;
  $('lecture-code').textContent = L.code;
  let status;
  if (L.role === 'teacher') status = t(isPredicting() ? 'lectureTeaching' : 'lectureTeachingHint', { n: L.students });
  else if (L.following) status = t('lectureFollowing');
  else status = t('lecturePlayingAlone');
  $('lecture-status').textContent = status;
  $('lecture-show-code').hidden = L.role !== 'teacher';
  $('lecture-countdown-choice').hidden = L.role !== 'teacher';
  for (const o of $('lecture-seconds').options) o.textContent = o.value === '0' ? t('lectureNoCountdown') : t('lectureSecondsOption', { s: o.value });
  $('lecture-rejoin').hidden = !(L.role === 'student' && !L.following);
  $('lecture-leave').textContent = t(L.role === 'teacher' ? 'lectureEnd' : 'lectureLeave');
  renderQuestion();
}

// Where the class's question shows: in a demo, in the step bar fixed to the bottom of the screen
// (beside predict mode's own panel), so that the question and the network are in view together;
// otherwise in the lecture's bar.
function placeQuestion() {
  const box = $('lecture-ask');
  const home = document.body.classList.contains('demo-on') ? document.querySelector('#demo-stepbar .stepbar-inner') : $('lecture');
  if (home && box.parentElement !== home) home.append(box);
}

// What the question's phase is, in words: the line above the question on every page.
function phaseText(q) {
  if (q.revealed) return t(q.votes.length > 1 ? 'lecturePhaseRevealedBoth' : 'lecturePhaseRevealed');
  if (q.phase === 'discuss') return t('lecturePhaseDiscuss');
  if (q.phase === 'closed') return t('lecturePhaseClosed', { v: q.vote });
  return t(q.vote === 1 ? 'lecturePhaseVote1' : 'lecturePhaseVote2');
}

function renderQuestion() {
  const box = $('lecture-ask');
  placeQuestion();
  const q = L.question;
  if (!L.role || !q || !q.detail) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.dataset.phase = q.phase;
  const teacher = L.role === 'teacher';
  $('lecture-phase').textContent = phaseText(q);
  renderCountdown(secondsLeft());
  $('lecture-question').textContent = questionText(q.detail);

  const words = new Map(classChoices(q.detail).map((c) => [c.id, c.text]));
  const label = (id) => words.get(id) || id;
  // A student votes with buttons while the vote is open and this browser has not voted in it.
  const list = $('lecture-choices');
  list.textContent = '';
  const voting = !teacher && q.phase === 'vote' && mine(q, q.vote) === null;
  list.hidden = !voting;
  if (voting) {
    for (const id of q.choices) {
      const li = document.createElement('li');
      li.dataset.choice = id;
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'predict-choice';
      b.textContent = label(id);
      b.addEventListener('click', () => answer(id));
      li.append(b);
      list.append(li);
    }
  }
  renderTable(q, label, teacher && !q.revealed && !L.peek);

  let tally;
  if (teacher) tally = t('lectureAnsweredVote', { n: q.answered || 0, of: L.students, v: q.vote });
  else tally = t('lectureAnsweredSoFar', { n: q.answered || 0 });
  $('lecture-tally').textContent = q.revealed ? '' : tally;

  let after = '';
  if (q.revealed) {
    after = whyText(q.detail);
    const a = finalAnswer(q);
    if (a !== null) after = `${t(a === rightChoice(q.detail) ? 'pqRight' : 'pqWrongShort')} ${after}`;
  } else if (!teacher) {
    const first = mine(q, 1);
    const now = mine(q, q.vote);
    if (q.phase === 'discuss') after = first === null ? t('lectureDiscussNoVote') : t('lectureYouSaid', { a: label(first) });
    else if (now !== null) after = t('lectureYourVote', { v: q.vote, a: label(now) });
    else if (q.phase === 'closed') after = t('lectureMissedVote');
    else if (first !== null) after = t('lectureYouSaid', { a: label(first) });
  }
  $('lecture-after').textContent = after;

  // The teacher's moves: on to the next phase, close the vote, reveal at once, peek.
  $('lecture-actions').hidden = !teacher || q.revealed;
  if (teacher && !q.revealed) {
    const next = nextPhase(q);
    $('lecture-next').textContent = t({ discuss: 'lectureToDiscuss', vote: 'lectureToVote2', revealed: 'lectureReveal' }[next]);
    $('lecture-close').hidden = q.phase !== 'vote';
    $('lecture-reveal-now').hidden = next === 'revealed';
    $('lecture-peek').setAttribute('aria-pressed', String(L.peek));
  }
}

// The tallies: one column per vote, side by side, each choice's bar as long as its share of the
// vote's most-chosen one, its count in figures, the right choice marked once revealed. Shown on
// the teacher's page when peeking, and on every page after the reveal; the server sends students
// no counts before it. `hidden`: the teacher has not asked to see them.
function renderTable(q, label, hidden) {
  const table = $('lecture-table');
  table.textContent = '';
  const votes = (q.votes || []).filter((v) => v.counts);
  table.hidden = hidden || !votes.length;
  if (table.hidden) return;
  const right = q.revealed ? rightChoice(q.detail) : null;
  const head = table.createTHead().insertRow();
  const th = (row, text, scope) => {
    const c = document.createElement('th');
    c.scope = scope;
    c.textContent = text;
    row.append(c);
    return c;
  };
  th(head, t('lectureColChoice'), 'col');
  votes.forEach((v, i) => th(head, t('lectureColVote', { v: i + 1 }), 'col'));
  const body = table.createTBody();
  q.choices.forEach((id, k) => {
    const row = body.insertRow();
    row.dataset.choice = id;
    const name = th(row, label(id), 'row');
    if (id === right) {
      row.classList.add('lecture-right');
      const mark = document.createElement('strong');
      mark.className = 'lecture-right-mark';
      mark.textContent = ` ✓ ${t('lectureRightAnswer')}`;
      name.append(mark);
    }
    votes.forEach((v, i) => {
      const cell = document.createElement('div');
      cell.className = 'lecture-vote-cell';
      row.insertCell().append(cell);
      const most = Math.max(1, ...v.counts);
      const bar = document.createElement('span');
      bar.className = 'lecture-bar-fill';
      bar.setAttribute('aria-hidden', 'true');
      bar.style.setProperty('--share', `${(v.counts[k] / most) * 100}%`);
      const n = document.createElement('span');
      n.className = 'lecture-count';
      n.textContent = t('lectureCount', { n: v.counts[k] });
      cell.append(bar, n);
      if (mine(q, i + 1) === id) {
        const yours = document.createElement('span');
        yours.className = 'lecture-yours';
        yours.textContent = t('lectureYours');
        cell.append(yours);
      }
    });
  });
}

function openJoinScreen() {
  const d = $('lecture-join');
  $('lecture-join-code').textContent = L.code;
  $('lecture-join-link').textContent = L.join;
  $('lecture-join-link').href = L.join;
  $('lecture-qr').src = `api/rooms/${L.code}/qr.svg`;
  $('lecture-qr').alt = t('lectureQrAlt', { link: L.join });
  const local = ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(location.hostname);
  $('lecture-join-local').hidden = !local;
  if (!d.open) d.showModal();
}

function closeJoinScreen() {
  const d = $('lecture-join');
  if (d.open) d.close();
}

// The language changed: the bar and the question in the new words (the run is re-run by app.js).
export function renderLecture() {
  renderBar();
}

// ---- Start: wiring, and a lecture named in the address (?teach=CODE after a reload, ?room=CODE
// from a join link or its QR code).
export function initLecture() {
  hooks.lecture = onCommit;
  // Ending a demo changes the page without a commit: the room hears of it too.
  const drawDemoUi = hooks.renderDemoUi;
  hooks.renderDemoUi = () => {
    drawDemoUi();
    if (L.role === 'teacher') sendState();
  };
  $('lecture-start').addEventListener('click', startLecture);
  $('lecture-join-form').addEventListener('submit', (e) => {
    e.preventDefault();
    joinLecture($('lecture-join-input').value);
  });
  $('lecture-leave').addEventListener('click', leave);
  $('lecture-rejoin').addEventListener('click', rejoin);
  $('lecture-next').addEventListener('click', () => advance(nextPhase(L.question)));
  $('lecture-close').addEventListener('click', () => advance('closed'));
  $('lecture-reveal-now').addEventListener('click', () => advance('revealed'));
  $('lecture-peek').addEventListener('click', () => {
    L.peek = !L.peek;
    renderQuestion();
  });
  $('lecture-explore').addEventListener('click', () => confirmLeaving(() => {}));
  $('lecture-confirm-stay').addEventListener('click', () => $('lecture-leave-confirm').close());
  $('lecture-confirm-leave').addEventListener('click', () => {
    $('lecture-leave-confirm').close();
    stopFollowing();
    notify(t('lectureLeftToExplore'), 'info');
    const then = afterLeaving;
    afterLeaving = null;
    if (then) then();
  });
  const seconds = $('lecture-seconds');
  seconds.value = localStorage.getItem(SECONDS) || '0';
  if (!seconds.value) seconds.value = '0';
  seconds.addEventListener('change', () => localStorage.setItem(SECONDS, seconds.value));
  $('lecture-show-code').addEventListener('click', openJoinScreen);
  $('lecture-join-close').addEventListener('click', closeJoinScreen);
  // The teacher's hint about Predict follows the switch (predict.js's listener runs first).
  $('predict-switch').addEventListener('click', renderBar);
  const params = new URLSearchParams(location.search);
  const teach = params.get('teach');
  const room = params.get('room');
  if (teach) {
    const code = teach.toUpperCase();
    const token = localStorage.getItem(TEACHER(code));
    if (!token) {
      setParam(null);
      notify(t('lectureNotYours', { code: code.slice(0, 12) }), 'refusal');
      return;
    }
    // Not in the queue: showState queues the run itself (awaiting it from inside would wait forever).
    (async () => {
      L.role = 'teacher';
      L.token = token;
      try {
        const view = await call('GET', `/${code}`);
        if (!view.teacher) throw new LectureError('not_teacher', '');
        beTeacher(code, token, view.join);
        L.students = view.students;
        setQuestion(view.question);
        // Back to where the room was, and the room is told nothing new.
        L.sent = JSON.stringify(view.state);
        await showState(view.version, view.state);
        renderBar();
      } catch (e) {
        L.role = null;
        localStorage.removeItem(TEACHER(code));
        setParam(null);
        sayRefusal(e);
      }
    })();
  } else if (room) {
    joinLecture(room);
  }
}
