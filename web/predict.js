// Predict mode (the header's switch, or ?predict=1): before a step whose effect can be foreseen,
// the page asks the server's questions about it (the run's "questions", docs/api.md), waits for
// the answer, then lets the step play and says whether the answer was right and why. The scores
// stay in the browser (localStorage), per demo and overall. Nothing here knows an answer: every
// one comes with the run.
import { t, money } from './i18n.js';
import { notify } from './notice.js';
import { byId as $ } from './svg.js';
import { propertyText } from './appwords.js';
import { waitFor } from './waits.js';

const STORE = 'cutline.predict.v1';
let pending = null; // the question waiting for its answer
let classAsk = null; // lecture.js, on a teacher's page: puts a question to the class instead

// Lecture mode (lecture.js): `fn(q, id)` asks question q of the class and resolves once the
// teacher has revealed the answers; null gives the questions back to the page's own panel.
export function askTheClassWith(fn) {
  classAsk = fn;
}

export function isPredicting() {
  return document.body.classList.contains('predict');
}
export function questionPending() {
  return pending !== null;
}
// A step key pressed while a question waits: back to the question, which nothing skips.
export function focusQuestion() {
  if (classAsk) {
    // A lecture's question waits for the teacher's reveal, not for an answer on this page.
    const next = $('lecture-next');
    if (next) next.focus();
    notify(`${t('lectureRevealFirst')} ${$('lecture-question').textContent}`, 'info');
    return;
  }
  const el = document.querySelector('#predict-answers input, #predict-answers button');
  if (el) el.focus();
  notify(`${t('pqAnswerFirst')} ${$('predict-question').textContent}`, 'info');
}

// ---- Scores: {demoKey: {questionKey: true|false}}; a demo's score is its last pass.
function loadScores() {
  try {
    return JSON.parse(localStorage.getItem(STORE)) || {};
  } catch {
    return {};
  }
}
function saveScores(s) {
  try {
    localStorage.setItem(STORE, JSON.stringify(s));
  } catch {
    // Storage refused (private mode, full): the score lives only as long as the page.
  }
}
function tally(answers) {
  const v = Object.values(answers || {});
  return { right: v.filter(Boolean).length, asked: v.length };
}
export function scoreOf(key) {
  return tally(loadScores()[key]);
}
export function overallScore() {
  const all = loadScores();
  return Object.values(all).reduce((acc, a) => {
    const s = tally(a);
    return { right: acc.right + s.right, asked: acc.asked + s.asked };
  }, { right: 0, asked: 0 });
}
// A demo started afresh starts its pass afresh.
export function clearDemoScore(key) {
  const all = loadScores();
  delete all[key];
  saveScores(all);
}
export function record(key, qkey, right) {
  const all = loadScores();
  all[key] = { ...(all[key] || {}), [qkey]: right };
  saveScores(all);
}

// ---- Words: each question, its choices and its explanation, from i18n.js.
const msgLabel = (m) => t('pqMsg', { amount: money(m.amount), from: m.from, to: m.to, seq: m.seq });
const msgList = (ms) => ms.map(msgLabel).join(t('pqAnd'));

export function questionText(q) {
  switch (q.kind) {
    case 'naive_total': return t('pqNaiveTotal', { b: q.branch });
    case 'balance_includes': return t('pqBalance', { b: q.branch, msg: msgLabel(q.transfer) });
    case 'channel_state': return t('pqChannel', { from: q.from, to: q.to });
    case 'cut_consistent': return t('pqCut', { b: q.branch, list: q.read.join(', ') });
    case 'delivery_recorded':
      return t('pqDelivery', { s: q.snapshot, amount: money(q.transfer.amount), seq: q.transfer.seq, from: q.from, to: q.to });
    case 'every_schedule': return t('pqEverySchedule');
    case 'property_declared':
      return t(`${q.by === 'naive' ? 'pqPropNaive' : 'pqPropSnap'}_${q.property}`, { b: q.branch, s: q.snapshot });
    default: return q.kind;
  }
}

function choiceText(c) {
  return c.transfers.length ? msgList(c.transfers) : t('pqEmpty');
}

function answerText(q) {
  if (q.kind === 'naive_total') return money(q.answer);
  if (q.kind === 'channel_state') return choiceText(q.choices.find((c) => c.id === q.answer));
  if (q.kind === 'cut_consistent' && !q.answer) return t('pqNoBecause', { msg: msgList(q.backward) });
  return q.answer ? t('pqYes') : t('pqNo');
}

// A question as a class answers it together (lecture.js): a list of choices, each an id the
// room tallies and its words here. A number to type becomes the totals the reading could come to
// (the bank's, and the bank's less what was in flight or plus what was counted twice); the
// follow-up "which message" of an inconsistent cut is left to the reveal's explanation.
export function classChoices(q) {
  const yesNo = [{ id: 'yes', text: t('pqYes') }, { id: 'no', text: t('pqNo') }];
  switch (q.kind) {
    case 'channel_state':
      return q.choices.map((c) => ({ id: String(c.id), text: choiceText(c) }));
    case 'naive_total': {
      const w = q.why || {};
      const sum = (ms) => (ms || []).reduce((a, m) => a + m.amount, 0);
      const totals = new Set([q.answer, w.bank_total, w.bank_total - sum(w.lost), w.bank_total + sum(w.twice)]);
      return [...totals].filter((v) => Number.isFinite(v)).sort((a, b) => a - b)
        .map((v) => ({ id: String(v), text: money(v) }));
    }
    default:
      return yesNo;
  }
}

// The id of the class's right choice (classChoices).
export function rightChoice(q) {
  if (q.kind === 'channel_state' || q.kind === 'naive_total') return String(q.answer);
  return q.answer === true ? 'yes' : 'no';
}

export function whyText(q) {
  const w = q.why;
  const p = {
    total: money(w.total), bank: money(w.bank_total), b: q.branch, balance: money(w.balance),
    from: q.from, to: q.to,
    lost: w.lost ? msgList(w.lost) : '', twice: w.twice ? msgList(w.twice) : '',
    list: w.transfers ? msgList(w.transfers) : '',
    msg: w.message ? msgLabel(w.message) : q.transfer ? msgLabel(q.transfer) : '',
    mfrom: w.message ? w.message.from : '', mto: w.message ? w.message.to : '',
    s: q.snapshot, amount: q.transfer ? money(q.transfer.amount) : '', epoch: w.epoch,
    missing: w.missing ? msgList(w.missing) : '', extra: w.extra ? msgList(w.extra) : '',
    verdict: w.verdict ? propertyText(w.verdict) : '', truth: w.truth ? propertyText(w.truth) : '',
    schedules: w.schedules, n: w.steps,
  };
  return t(`why_${w.code}`, p);
}

// ---- The panel.
function panel() {
  return $('predict-box');
}

function button(parent, label, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'predict-choice';
  b.textContent = label;
  b.addEventListener('click', onClick);
  parent.append(b);
  return b;
}

// Shows question q and resolves with whether the answer was right.
function ask(q) {
  return new Promise((resolve) => {
    const box = panel();
    box.hidden = false;
    // The last question's mark and feedback go: they are not this question's.
    $('predict-feedback').textContent = '';
    const qp = $('predict-question');
    qp.textContent = questionText(q);
    const area = $('predict-answers');
    area.textContent = '';
    const done = (right) => resolve(right);
    let first = null;
    if (q.kind === 'naive_total') {
      const form = document.createElement('form');
      form.className = 'predict-form';
      const input = document.createElement('input');
      input.id = 'predict-number';
      input.type = 'text';
      input.inputMode = 'numeric';
      input.autocomplete = 'off';
      input.setAttribute('aria-labelledby', 'predict-question');
      const go = document.createElement('button');
      go.type = 'submit';
      go.textContent = t('pqAnswer');
      form.append(t('pqDollar'), input, go);
      form.addEventListener('submit', (e) => {
        e.preventDefault();
        const v = input.value.trim().replace(/^\$/, '');
        if (!/^[0-9]+$/.test(v)) {
          notify(t('pqNumberNeeded', { v: input.value }), 'refusal');
          return;
        }
        done(Number(v) === q.answer);
      });
      area.append(form);
      first = input;
    } else if (q.kind === 'channel_state') {
      for (const c of q.choices) {
        const b = button(area, choiceText(c), () => done(c.id === q.answer));
        first = first || b;
      }
    } else if (q.kind === 'cut_consistent') {
      first = button(area, t('pqYes'), () => done(q.answer === true));
      button(area, t('pqNo'), () => {
        if (q.answer === true) {
          done(false);
          return;
        }
        // Right so far: which message crosses it backwards?
        qp.textContent = t('pqWhich');
        area.textContent = '';
        const seqs = new Set(q.backward.map((m) => m.seq));
        let b0 = null;
        for (const m of q.choices) {
          const b = button(area, msgLabel(m), () => done(seqs.has(m.seq)));
          b0 = b0 || b;
        }
        b0.focus();
        notify(t('pqWhich'), 'predict');
      });
    } else {
      first = button(area, t('pqYes'), () => done(q.answer === true));
      button(area, t('pqNo'), () => done(q.answer === false));
    }
    area.setAttribute('aria-labelledby', 'predict-question');
    notify(`${t('pqAsk')} ${qp.textContent}`, 'predict');
    first.focus();
  });
}

// Kinds asked in free play only: a demo keeps its curated questions (docs/page.md's table), and
// one before every recorded delivery would crowd them.
const FREE_PLAY_ONLY = new Set(['delivery_recorded']);

// Asks the questions of step `step` in `result` (the run with that step applied, not shown yet);
// resolves once all are answered, with the feedback lines to show after the step has played.
// `key` names the demo ("demo-3") or free play ("free"), whose score the answers go to; `inDemo`:
// a demo is loaded, so the free-play-only kinds are left out.
export async function askBefore(result, step, key, { inDemo = false } = {}) {
  if (!isPredicting() || !result || !result.questions) return null;
  const qs = result.questions.filter((q) => q.step === step && !(inDemo && FREE_PLAY_ONLY.has(q.kind)));
  if (!qs.length) return null;
  // A lecture's teacher: each question goes to the class, and the reveal is the feedback.
  const lines = [];
  for (const [i, q] of qs.entries()) {
    lines.push(...((await askQuestion(q, key, `${step}:${i}`, `${step}-${i}`)) || []));
  }
  return classAsk ? null : lines;
}

// One question (askBefore's, or explore.js's "will it survive every schedule?"): asked on the
// page, or of the class in a lecture (then null: the reveal is the feedback); resolves with its
// feedback line. `qkey` names it in the score of `key`, `classId` among the lecture's questions.
export async function askQuestion(q, key, qkey, classId = qkey) {
  pending = q;
  waitFor(q);
  let right;
  try {
    if (classAsk) {
      await classAsk(q, classId);
      return null;
    }
    right = await ask(q);
  } finally {
    pending = null;
    waitFor(null);
  }
  record(key, qkey, right);
  $('predict-answers').textContent = '';
  $('predict-question').textContent = '';
  return [{ right, text: `${right ? t('pqRight') : t('pqWrong', { a: answerText(q) })} ${whyText(q)}` }];
}

// After the step played: the feedback, announced, and the focus back where the visitor steps.
export function showFeedback(lines, backTo) {
  const fb = $('predict-feedback');
  fb.textContent = '';
  if (!lines) {
    if ($('predict-score').hidden && !pending) panel().hidden = true;
    return;
  }
  for (const l of lines) {
    const p = document.createElement('p');
    p.className = l.right ? 'pq-right' : 'pq-wrong';
    p.textContent = l.text;
    fb.append(p);
  }
  panel().hidden = false;
  notify(lines.map((l) => l.text).join(' '), 'predict');
  if (backTo) backTo.focus({ preventScroll: true });
}

// The score line, shown at the end of a demo (and kept until the next question).
export function showScore(key) {
  if (!isPredicting()) return;
  const s = scoreOf(key);
  const o = overallScore();
  $('predict-score').textContent = t('pqScore', { r: s.right, n: s.asked, R: o.right, N: o.asked });
  $('predict-score').hidden = false;
  $('predict-reset').hidden = false;
  panel().hidden = false;
}

export function clearPanel() {
  const box = panel();
  if (!box) return;
  for (const id of ['predict-question', 'predict-answers', 'predict-feedback', 'predict-score']) $(id).textContent = '';
  $('predict-score').hidden = true;
  $('predict-reset').hidden = true;
  box.hidden = true;
}

function setPredict(on) {
  document.body.classList.toggle('predict', on);
  $('predict-switch').setAttribute('aria-pressed', String(on));
  const url = new URL(location.href);
  if (on) url.searchParams.set('predict', '1');
  else url.searchParams.delete('predict');
  history.replaceState(null, '', url);
  if (!on && !pending) clearPanel();
}

export function initPredict() {
  $('predict-switch').addEventListener('click', () => setPredict(!isPredicting()));
  $('predict-reset').addEventListener('click', () => {
    saveScores({});
    $('predict-score').textContent = t('pqScoresReset');
    notify(t('pqScoresReset'), 'predict');
  });
  const on = new URLSearchParams(location.search).get('predict') === '1';
  document.body.classList.toggle('predict', on);
  $('predict-switch').setAttribute('aria-pressed', String(on));
}
