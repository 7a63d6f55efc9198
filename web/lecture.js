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

const TEACHER = (code) => `cutline.lecture.teacher.${code}`;
const STUDENT = (code) => `cutline.lecture.student.${code}`;
const ANSWER = (code, id) => `cutline.lecture.answer.${code}.${id}`;

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
  question: null, // the room's question: {id, choices, detail, revealed, answered, counts}
  students: 0,
  reveal: null, // the teacher's: resolves the question waiting on this page
  poll: null,
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

async function sendState() {
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
function showState(version, state) {
  if (!state || version < L.version) return null;
  L.version = version;
  L.scenario = state.scenario;
  return enqueue(async () => {
    const commands = toCommands(state.scenario);
    const result = await run(commands);
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
    if (L.question && L.question.id === data.id) L.question.answered = data.answered;
    if (L.role === 'teacher') refreshTally();
    else renderQuestion();
  });
}

function stopFollowing() {
  L.following = false;
  if (L.events) L.events.close();
  L.events = null;
  renderBar();
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
      if (view.question) L.question = view.question;
      renderBar();
      renderQuestion();
    } catch (e) {
      if (e instanceof LectureError && e.code === 'no_room') ended();
    }
  }, 250);
}

// Predict mode on the teacher's page asks the class instead (predict.js): the question opens in
// the room, the answers come in as bars, and the teacher's Reveal shows them to every page.
async function askTheClass(q, stepId) {
  const id = `${L.version}-${stepId}`;
  const open = L.question && L.question.id === id;
  if (!open) {
    const choices = classChoices(q).map((c) => c.id);
    await call('POST', `/${L.code}/question`, { id, choices, detail: q }).catch(sayRefusal);
    L.question = { id, choices, detail: q, revealed: false, answered: 0, counts: choices.map(() => 0) };
  } else if (L.question.revealed) {
    return;
  }
  L.question.detail = q;
  renderQuestion();
  const reveal = $('lecture-reveal');
  if (reveal) reveal.focus();
  notify(`${t('lectureAsked')} ${questionText(q)}`, 'predict');
  await new Promise((resolve) => { L.reveal = resolve; });
}

// The presenter's step key while the class's question waits: it reveals the answers (the next
// press then plays the step). True if it did.
export function revealIfWaiting() {
  if (L.role !== 'teacher' || !L.reveal) return false;
  reveal();
  return true;
}

async function reveal() {
  try {
    const view = await call('POST', `/${L.code}/reveal`, {});
    L.question = view.question;
    renderQuestion();
  } catch (e) {
    sayRefusal(e);
  }
  const resolve = L.reveal;
  L.reveal = null;
  if (resolve) resolve();
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
  if (!q || q.revealed) return;
  try {
    await call('POST', `/${L.code}/answer`, { student: L.student, question: q.id, choice });
    localStorage.setItem(ANSWER(L.code, q.id), choice);
  } catch (e) {
    // Answered already (another tab of this browser): what this browser answered stands.
    if (!(e instanceof LectureError && e.code === 'answered_already')) return sayRefusal(e);
  }
  renderQuestion();
  notify(t('lectureAnswerIn'), 'info');
  return null;
}

function onQuestion(q) {
  const was = L.question;
  L.question = q;
  if (L.role === 'student' && q) {
    const mine = localStorage.getItem(ANSWER(L.code, q.id));
    if (q.revealed && (!was || !was.revealed) && q.detail) {
      renderQuestion();
      // Said where the reader is looking (the notice stays in view), and kept as this browser's score.
      if (mine !== null) {
        const right = mine === rightChoice(q.detail);
        record(`lecture-${L.code}`, q.id, right);
        notify(`${t(right ? 'pqRight' : 'pqWrongShort')} ${whyText(q.detail)}`, 'predict');
      } else {
        notify(`${t('lectureRevealed')} ${whyText(q.detail)}`, 'predict');
      }
      return;
    }
    if (!q.revealed && (!was || was.id !== q.id)) {
      renderQuestion();
      const first = document.querySelector('#lecture-choices button');
      $('lecture').scrollIntoView({ block: 'nearest' });
      if (first) first.focus({ preventScroll: true });
      notify(`${t('lectureQuestionOpen')} ${$('lecture-question').textContent}`, 'predict');
      return;
    }
  }
  renderQuestion();
}

// ---- Leaving.

export function leave() {
  if (L.events) L.events.close();
  clearInterval(L.poll);
  if (L.role === 'teacher') localStorage.removeItem(TEACHER(L.code));
  const resolve = L.reveal;
  Object.assign(L, { role: null, code: null, token: null, student: null, following: false, events: null, question: null, reveal: null });
  askTheClassWith(null);
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
  if (!L.role) return;
  bar.dataset.role = L.role;
  $('lecture-code').textContent = L.code;
  let status;
  if (L.role === 'teacher') status = t(isPredicting() ? 'lectureTeaching' : 'lectureTeachingHint', { n: L.students });
  else if (L.following) status = t('lectureFollowing');
  else status = t('lecturePlayingAlone');
  $('lecture-status').textContent = status;
  $('lecture-show-code').hidden = L.role !== 'teacher';
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

function renderQuestion() {
  const box = $('lecture-ask');
  placeQuestion();
  const q = L.question;
  if (!L.role || !q || !q.detail) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  $('lecture-question').textContent = questionText(q.detail);
  const list = $('lecture-choices');
  list.textContent = '';
  const words = new Map(classChoices(q.detail).map((c) => [c.id, c.text]));
  const right = rightChoice(q.detail);
  const mine = L.role === 'student' ? localStorage.getItem(ANSWER(L.code, q.id)) : null;
  const counts = q.counts || null;
  const most = counts ? Math.max(1, ...counts) : 1;
  q.choices.forEach((id, i) => {
    const li = document.createElement('li');
    li.dataset.choice = id;
    const label = words.get(id) || id;
    if (L.role === 'student' && !q.revealed && mine === null) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'predict-choice';
      b.textContent = label;
      b.addEventListener('click', () => answer(id));
      li.append(b);
    } else {
      const name = document.createElement('span');
      name.className = 'lecture-choice';
      name.textContent = label;
      li.append(name);
      if (counts) {
        // A bar as long as the choice's share of the most-chosen one, and its count in words.
        const bar = document.createElement('span');
        bar.className = 'lecture-bar-fill';
        bar.setAttribute('aria-hidden', 'true');
        bar.style.setProperty('--share', `${(counts[i] / most) * 100}%`);
        const n = document.createElement('span');
        n.className = 'lecture-count';
        n.textContent = t('lectureCount', { n: counts[i] });
        li.append(bar, n);
      }
      if (mine === id) li.append(` ${t('lectureYours')}`);
      if (q.revealed && id === right) {
        li.classList.add('lecture-right');
        const mark = document.createElement('strong');
        mark.textContent = ` ✓ ${t('lectureRightAnswer')}`;
        li.append(mark);
      }
    }
    list.append(li);
  });
  const answered = t('lectureAnswered', { n: q.answered || 0, of: L.students });
  let after = '';
  if (q.revealed) {
    after = whyText(q.detail);
    if (mine !== null) after = `${t(mine === right ? 'pqRight' : 'pqWrongShort')} ${after}`;
  } else if (mine !== null) {
    after = t('lectureWaitReveal');
  }
  let tally = answered;
  if (L.role !== 'teacher') tally = t(q.revealed ? 'lectureAnsweredAll' : 'lectureAnsweredSoFar', { n: q.answered || 0 });
  $('lecture-tally').textContent = tally;
  $('lecture-after').textContent = after;
  $('lecture-reveal').hidden = !(L.role === 'teacher' && !q.revealed);
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
  $('lecture-reveal').addEventListener('click', reveal);
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
        L.question = view.question;
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
