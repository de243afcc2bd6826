// A finished game's replay, step by step (GET /api/tables/{id}/replay):
// by hand, by autoplay at a chosen speed, or by a jump to any hand or round.

import { $, el, show, setError, cardFace, cardFaces } from './dom.js';
import { t, tn, i18n } from './i18n.js';
import { api } from './api.js';
import { isOffline, offlineRecordLink, offlineReplay } from './offline.js';
import { R, nav, shownName, learnBot } from './state.js';
import { setVariant, setWords, eventWords, parseCards, ordinal, titleWithIcon, titleKey, tableName, cardsText } from './words.js';
import { showTurnInIcon } from './fx.js';

/** Autoplay: a step a second at 1×; `speed` multiplies. */
const STEP_MS = 1000;
const SPEEDS = [0.5, 1, 2, 4];
const play = { timer: null, speed: 1 };

export async function showReplay(id) {
  document.title = t('web.page.replay');
  showTurnInIcon(false);
  show($('conn'), false);
  stopAutoplay();
  R.marks = [];
  R.marksLang = null;
  R.id = id;
  R.data = null;
  R.i = 0;
  R.name = null;
  setError($('r-error'), '');
  $('r-record').href = '/api/tables/' + encodeURIComponent(id) + '/record';
  $('r-record').setAttribute('download', 'dalmuti-' + id + '.json');
  $('r-seats').replaceChildren();
  $('r-title').textContent = t('web.replay.title');
  $('r-event').textContent = t('web.replay.loading');
  try {
    // A game played on this device: its replay comes from the offline engine.
    const offline = isOffline(id);
    if (offline) offlineRecordLink($('r-record'), id);
    const [info, data] = offline ? [null, await offlineReplay(id)] : await Promise.all([
      api('GET', '/api/tables/' + encodeURIComponent(id)).catch(() => null),
      api('GET', '/api/tables/' + encodeURIComponent(id) + '/replay'),
    ]);
    if (nav.route.view !== 'replay' || nav.route.id !== id) return;
    R.data = data;
    // The bots' names in the player's words (docs/PROTOCOL.md, replay `bots`).
    for (const b of data.bots || []) learnBot(b.name, b.bot, b.n);
    R.name = info && info.name ? tableName(info) : null;
    const frames = data.frames || [];
    $('r-slider').max = String(Math.max(0, frames.length - 1));
    R.marks = replayMarks(frames);
    renderFrame(0);
  } catch (e) {
    $('r-event').textContent = '';
    setError($('r-error'), e.status === 409 ? t('web.replay.not-over') : t('web.replay.load-failed', { reason: e.message }));
  }
}

function seatWords(players, seat) {
  return players[seat] ? shownName(players[seat]) : t('web.seat.n', { n: seat + 1 });
}

export function renderFrame(i) {
  const frames = (R.data && R.data.frames) || [];
  $('r-title').textContent = R.name ? t('web.replay.title-named', { name: R.name }) : t('web.replay.title');
  if (!frames.length) { $('r-pos').textContent = t('web.replay.no-steps'); return; }
  R.i = Math.min(Math.max(i, 0), frames.length - 1);
  const f = frames[R.i];
  const players = f.players || R.data.players || [];
  const vw = f.view || {};
  // A frame's view names its game (absent: Dalmuti).
  setVariant(vw.variant);
  $('r-pos').textContent = t('web.replay.pos', { hand: f.hand, step: R.i + 1, steps: frames.length });
  $('r-pos').dataset.step = String(R.i);
  $('r-slider').value = String(R.i);
  $('r-event').textContent = f.e ? eventWords(f.e, players, shownName) : (R.i === 0 ? t('web.replay.start') : '');
  const wedgiePlay = f.e && f.e.action && f.e.action.wedgie != null;
  if (vw.wedged != null && !wedgiePlay) {
    $('r-event').textContent += ' ' + t('web.replay.wedged', { name: seatWords(players, vw.wedged) });
  }
  renderJump();
  renderPlayButton();
  $('r-first').disabled = $('r-prev').disabled = R.i === 0;
  $('r-next').disabled = $('r-last').disabled = R.i === frames.length - 1;
  const pile = $('r-pile');
  if (vw.top) {
    pile.replaceChildren(el('div', { class: 'pile-cards' }, cardFaces(vw.top[1])),
      el('p', { class: 'pile-text' }, t('web.pile.played', { name: seatWords(players, vw.top[0]), set: setWords(vw.top[1]) })));
  } else {
    pile.replaceChildren(el('p', { class: 'pile-text' }, vw.stage === 'over' ? t('web.pile.over') : t('web.replay.empty')));
  }
  const toAct = new Set(vw.to_act || []);
  const hands = f.hands || [];
  const count = Math.max(players.length, hands.length);
  const items = [];
  for (let s = 0; s < count; s++) {
    const seat = (vw.seats && vw.seats[s]) || {};
    const flag = seat.out != null ? t('web.seat.out', { place: ordinal(seat.out + 1) }) : toAct.has(s) ? t('web.replay.to-act') : '';
    const cards = parseCards(hands[s]);
    items.push(el('li', { class: 'seat r-seat' + (toAct.has(s) ? ' to-act' : '') + (seat.out != null ? ' out' : ''), 'data-testid': 'replay-seat' },
      el('div', { class: 's-title' }, titleWithIcon(titleKey(seat))),
      el('div', { class: 's-name' }, seatWords(players, s), flag ? el('span', { class: 's-flag' }, ' · ' + flag) : null),
      el('div', { class: 's-meta' }, tn('web.cards', cards.length)),
      el('div', { class: 'r-hand', role: 'group', 'aria-label': t('web.replay.hand', { name: seatWords(players, s), cards: cardsText(hands[s]) || t('web.replay.no-cards') }) },
        cards.map(c => cardFace(c)))));
  }
  $('r-seats').replaceChildren(...items);
}

/**
 * Where hands and rounds begin: [{i, hand, round}] (round 0: the hand's
 * deal and setup). A round begins when someone leads to an empty table.
 */
export function replayMarks(frames) {
  const marks = [];
  let hand = null;
  let round = 0;
  for (let i = 0; i < frames.length; i++) {
    const f = frames[i];
    const vw = f.view || {};
    if (f.hand !== hand) {
      hand = f.hand;
      round = 0;
      marks.push({ i, hand, round });
    }
    const prev = i > 0 ? frames[i - 1].view || {} : {};
    const leads = vw.stage === 'play' && !vw.top &&
      (i === 0 || frames[i - 1].hand !== f.hand || prev.stage !== 'play' || !!prev.top);
    if (leads) {
      round++;
      // A hand's first lead follows its deal at once when there is no setup to show.
      const last = marks[marks.length - 1];
      if (last.hand === hand && last.round === 0 && last.i === i) last.round = round;
      else marks.push({ i, hand, round });
    }
  }
  return marks;
}

function markWords(m) {
  return m.round ? t('web.replay.jump-round', { hand: m.hand, round: m.round }) : t('web.replay.jump-hand', { hand: m.hand });
}

/** The jump list: every hand and round, the one shown chosen. */
function renderJump() {
  const select = $('r-jump');
  const marks = R.marks || [];
  if (R.marksLang !== i18n.lang || select.options.length !== marks.length) {
    select.replaceChildren(...marks.map((m, k) => el('option', { value: String(k) }, markWords(m))));
    R.marksLang = i18n.lang;
  }
  let at = -1;
  for (let k = 0; k < marks.length; k++) if (marks[k].i <= R.i) at = k;
  if (at >= 0) select.value = String(at);
  select.disabled = marks.length === 0;
}

let speedLang = null;

function renderPlayButton() {
  if (speedLang !== i18n.lang) {
    // 0.5× or 0,5×: the number in the language's way.
    const format = new Intl.NumberFormat(i18n.lang);
    for (const option of $('r-speed').options) option.textContent = format.format(Number(option.value)) + '×';
    speedLang = i18n.lang;
  }
  const button = $('r-play');
  const playing = play.timer != null;
  button.textContent = playing ? t('web.replay.pause') : t('web.replay.play');
  button.setAttribute('aria-pressed', String(playing));
  button.dataset.playing = String(playing);
  button.disabled = !(R.data && R.data.frames && R.data.frames.length > 1);
}

function frameCount() {
  return (R.data && R.data.frames && R.data.frames.length) || 0;
}

function scheduleStep() {
  clearTimeout(play.timer);
  const frames = R.data.frames;
  const f = frames[R.i];
  // A hand's end is worth a longer look.
  const pause = f && f.view && f.view.stage === 'over' ? 3 : 1;
  play.timer = setTimeout(() => {
    if (nav.route.view !== 'replay' || !R.data) { stopAutoplay(); return; }
    if (R.i >= frames.length - 1) { stopAutoplay(); return; }
    renderFrame(R.i + 1);
    if (R.i >= frames.length - 1) stopAutoplay();
    else scheduleStep();
  }, (STEP_MS * pause) / play.speed);
}

export function startAutoplay() {
  if (frameCount() < 2) return;
  // From the end, play starts again from the beginning.
  if (R.i >= frameCount() - 1) renderFrame(0);
  play.timer = -1;
  scheduleStep();
  renderPlayButton();
}

export function stopAutoplay() {
  clearTimeout(play.timer);
  play.timer = null;
  if ($('r-play')) renderPlayButton();
}

export function toggleAutoplay() {
  if (play.timer != null) stopAutoplay();
  else startAutoplay();
}

function setSpeed(speed) {
  play.speed = speed;
  $('r-speed').value = String(speed);
  if (play.timer != null) scheduleStep();
}

function jumpBy(delta) {
  const marks = R.marks || [];
  if (!marks.length) return;
  let at = -1;
  for (let k = 0; k < marks.length; k++) if (marks[k].i <= R.i) at = k;
  // Back: to the start of this round first, unless already there.
  if (delta < 0 && at >= 0 && marks[at].i < R.i) delta = 0;
  const k = Math.min(Math.max(at + delta, 0), marks.length - 1);
  renderFrame(marks[k].i);
}

/** Keys in a replay: ← → steps, Home End, Space (or k) play and pause, PageUp PageDown rounds, + − speed. */
export function onReplayKey(event) {
  if (!R.data) return;
  const key = event.key;
  const onControl = event.target && /^(BUTTON|A|SELECT)$/.test(event.target.tagName);
  const moves = { ArrowLeft: R.i - 1, ArrowRight: R.i + 1, Home: 0, End: frameCount() - 1 };
  if (key in moves) {
    stopAutoplay();
    renderFrame(moves[key]);
  } else if ((key === ' ' && !onControl) || key === 'k' || key === 'K') {
    toggleAutoplay();
  } else if (key === 'PageDown' || key === ']') {
    stopAutoplay();
    jumpBy(1);
  } else if (key === 'PageUp' || key === '[') {
    stopAutoplay();
    jumpBy(-1);
  } else if (key === '+' || key === '=' || key === '-' || key === '_') {
    const at = SPEEDS.indexOf(play.speed);
    const next = key === '-' || key === '_' ? Math.max(0, at - 1) : Math.min(SPEEDS.length - 1, at + 1);
    setSpeed(SPEEDS[next]);
  } else {
    return;
  }
  event.preventDefault();
}

/** Wires the replay's controls (once, at start-up). */
export function setUpReplay() {
  const manual = fn => () => { stopAutoplay(); fn(); };
  $('r-first').addEventListener('click', manual(() => renderFrame(0)));
  $('r-prev').addEventListener('click', manual(() => renderFrame(R.i - 1)));
  $('r-next').addEventListener('click', manual(() => renderFrame(R.i + 1)));
  $('r-last').addEventListener('click', manual(() => renderFrame(Infinity)));
  $('r-slider').addEventListener('input', e => { stopAutoplay(); renderFrame(Number(e.target.value)); });
  $('r-play').addEventListener('click', toggleAutoplay);
  $('r-speed').addEventListener('change', e => setSpeed(Number(e.target.value)));
  $('r-jump').addEventListener('change', e => {
    const m = (R.marks || [])[Number(e.target.value)];
    if (m) { stopAutoplay(); renderFrame(m.i); }
  });
  renderPlayButton();
}
