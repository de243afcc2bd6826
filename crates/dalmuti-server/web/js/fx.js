// What makes the table feel like one: cards sliding from a seat to the
// pile, the pile swept to the winner of a trick, banners for the moments
// worth a pause (everyone passed, a revolution, taxes, the end of a hand),
// and an optional sound or buzz when it becomes my turn. All of it is
// decoration over the state already drawn: nothing here decides anything.

import { $, el, announce } from './dom.js';
import { t } from './i18n.js';
import { T, shownPlayer } from './state.js';
import { logWords, TABLE_EVENTS, cardsText } from './words.js';

const reduced = () => window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** What the last drawing showed, to tell what is new in this one. */
const seen = { table: null, hand: 0, logLen: 0, myTax: null, stage: '' };

/** The seat's box on screen, or null. */
function seatNode(seat) {
  return document.querySelector('#seats [data-seat="' + seat + '"]');
}

/** Slides the pile's cards in from `seat` (transform only; 260 ms). */
function slideIn(seat) {
  const from = seatNode(seat);
  const cards = document.querySelector('#pile .pile-cards');
  if (!from || !cards || reduced() || !cards.animate) return;
  const a = from.getBoundingClientRect();
  const b = cards.getBoundingClientRect();
  if (!a.width || !b.width) return;
  const dx = a.left + a.width / 2 - (b.left + b.width / 2);
  const dy = a.top + a.height / 2 - (b.top + b.height / 2);
  cards.animate([
    { transform: `translate(${dx}px, ${dy}px) scale(0.45) rotate(-8deg)`, opacity: 0.4 },
    { transform: 'none', opacity: 1 },
  ], { duration: 260, easing: 'cubic-bezier(.2,.8,.25,1)' });
}

/**
 * The trick is over: the cards that were on the pile fly to the seat that
 * won it and vanish (a copy, since the pile itself is already redrawn).
 */
function sweep(oldCards, seat) {
  const to = seatNode(seat);
  const pile = $('pile');
  if (!oldCards || !to || reduced() || !oldCards.animate) return;
  const b = pile.getBoundingClientRect();
  const a = to.getBoundingClientRect();
  oldCards.classList.add('swept');
  oldCards.setAttribute('aria-hidden', 'true');
  pile.append(oldCards);
  const c = oldCards.getBoundingClientRect();
  const dx = a.left + a.width / 2 - (c.left + c.width / 2);
  const dy = a.top + a.height / 2 - (c.top + c.height / 2);
  if (!b.width) { oldCards.remove(); return; }
  const run = oldCards.animate([
    { transform: 'none', opacity: 1 },
    { transform: `translate(${dx}px, ${dy}px) scale(0.3) rotate(12deg)`, opacity: 0 },
  ], { duration: 300, easing: 'ease-in', fill: 'forwards' });
  run.onfinish = () => oldCards.remove();
}

let bannerTimer = null;

/**
 * Shows a banner on the board for a moment, in place of the empty pile.
 * The newest moment wins at once: a banner that waited its turn would
 * tell of a moment already gone.
 */
export function banner(text, kind) {
  const node = $('board-banner');
  if (!text || !node) return;
  clearTimeout(bannerTimer);
  node.replaceChildren(el('span', {}, text));
  node.dataset.kind = kind || 'info';
  node.hidden = false;
  node.closest('.board-centre').classList.add('bannered');
  node.classList.remove('show');
  void node.offsetWidth; // restart the entrance
  node.classList.add('show');
  bannerTimer = setTimeout(clearBanners, 2600);
}

export function clearBanners() {
  clearTimeout(bannerTimer);
  bannerTimer = null;
  const node = $('board-banner');
  if (!node) return;
  node.hidden = true;
  node.closest('.board-centre').classList.remove('bannered');
}

/**
 * Called before the pile is redrawn: the cards on it now, kept in case a
 * trick ends with this state (to sweep them away).
 */
export function beforePile() {
  const cards = document.querySelector('#pile .pile-cards');
  return cards ? cards.cloneNode(true) : null;
}

/** After a drawing: animations and banners for what changed since the last one. */
export function afterRender(oldPile) {
  const s = T.state;
  const vw = s && s.view;
  if (!vw) return;
  const log = vw.log || [];
  const fresh = seen.table === T.id && seen.hand === s.hand;
  const from = fresh ? Math.min(seen.logLen, log.length) : log.length;
  const added = log.slice(from);
  const who = seat => shownPlayer(seat);
  let played = null;
  let won = null;
  let moment = null;
  for (const entry of added) {
    if (entry.event === 'played') played = entry;
    else if (entry.event === 'round_won') won = entry;
    else if (entry.event === 'revolution_called') banner(logWords(entry, who), 'revolution');
    // President and Daifugō: a revolution, an 8-cut, a lock… shown as it happens.
    else if (TABLE_EVENTS.has(entry.event)) moment = entry;
  }
  // A moment that cleared the table (an 8-cut, 3♠ over the Joker, the
  // capital falling…) takes the empty pile's place; one with cards still
  // on it (a lock, 11-back, a revolution) is its mark beside the pile,
  // drawn new (js/suited.js): the set to beat stays in sight.
  if (moment && fresh) {
    if (!vw.top) banner(logWords(moment, who), 'table ' + moment.event);
    announce(logWords(moment, who));
  }
  if (won) {
    sweep(oldPile, won.seat);
    banner(logWords(won, who), 'round');
  }
  // Cards on the pile again: the moment is over.
  if (vw.top) clearBanners();
  if (played && vw.top && vw.top[0] === played.seat) slideIn(played.seat);
  // Taxes: what I gave and got, once they are settled.
  const tax = vw.my_tax;
  const taxKey = tax ? s.hand + ':' + tax.gave + ':' + tax.received : null;
  if (tax && fresh && taxKey !== seen.myTax) {
    const nothing = t('web.log.nothing');
    const text = t('web.banner.tax', { gave: cardsText(tax.gave) || nothing, got: cardsText(tax.received) || nothing });
    banner(text, 'tax');
    announce(text);
  }
  if (fresh && seen.stage !== 'over' && vw.stage === 'over' && !s.game_over) {
    banner(t('web.banner.hand-over', { hand: s.hand }), 'hand');
  }
  seen.table = T.id;
  seen.hand = s.hand;
  seen.logLen = log.length;
  seen.myTax = taxKey;
  seen.stage = vw.stage;
}

// ------------------------------------------------------------ my turn

const prefs = {
  get sound() { return read('dalmuti.sound'); },
  get vibrate() { return read('dalmuti.vibrate'); },
  get notify() { return read('dalmuti.notify'); },
};

function read(key) {
  try { return localStorage.getItem(key) === 'on'; } catch (_) { return false; }
}

export function setPref(key, on) {
  try { localStorage.setItem('dalmuti.' + key, on ? 'on' : 'off'); } catch (_) { /* private mode: for this page only */ }
}

export function pref(key) {
  return prefs[key];
}

let audio = null;

/** A short two-note chime made on the spot (no sound file). */
function beep() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const now = audio.currentTime;
    for (const [at, freq] of [[0, 660], [0.13, 880]]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = 'sine';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.18, now + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.22);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + at);
      osc.stop(now + at + 0.25);
    }
  } catch (_) { /* no audio here */ }
}

/**
 * It became my turn (a new decision): the sound and buzz the player asked
 * for, and, while the tab is hidden, the notification (`text`: whose turn
 * where, never a card).
 */
export function turnAlert(text) {
  if (prefs.sound) beep();
  if (prefs.vibrate && navigator.vibrate) {
    try { navigator.vibrate([60, 40, 60]); } catch (_) { /* not allowed */ }
  }
  if (prefs.notify && document.hidden && notificationsAllowed()) {
    try {
      const note = new Notification(text, { tag: 'dalmuti-turn', icon: iconUrl(true) });
      note.onclick = () => { window.focus(); note.close(); };
    } catch (_) { /* this browser shows none from a page */ }
  }
}

/** Whether this page may show notifications now. */
export function notificationsAllowed() {
  return 'Notification' in window && Notification.permission === 'granted';
}

// ------------------------------------------------------------ the tab's icon

/** A card as the tab's icon; with a red dot when it is my turn. */
function iconUrl(turn) {
  const dot = turn ? "<circle cx='25' cy='7' r='6.5' fill='#e03131' stroke='#fff' stroke-width='1.5'/>" : '';
  const svg = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'>" +
    "<rect x='5' y='2' width='20' height='28' rx='3' fill='#fdf6e3' stroke='#1b4332' stroke-width='2'/>" +
    "<text x='15' y='22' font-size='15' font-weight='bold' text-anchor='middle' font-family='serif' fill='#1b4332'>1</text>" +
    dot + '</svg>';
  return 'data:image/svg+xml,' + encodeURIComponent(svg);
}

/** The tab's icon says whether it is my turn (as the title's ▶ does). */
export function showTurnInIcon(turn) {
  const link = document.getElementById('favicon');
  if (!link) return;
  const want = turn ? 'turn' : 'idle';
  if (link.dataset.state === want) return;
  link.dataset.state = want;
  link.href = iconUrl(turn);
}

