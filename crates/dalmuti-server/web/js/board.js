// The board: seats round the oval (a strip on phones) with their fans and
// last moves, the pile, the set to beat above the hand, the turn line and
// the timers.

import { $, el, show, cardFaces, cardFacesCounted, cardFan, fitText, fitHeight, breakable } from './dom.js';
import { t, tn } from './i18n.js';
import { T, view, playerName, shownPlayer, shownName, lobbyEntry, asked, revolutionOffer } from './state.js';
import {
  V, gameWord, setWords, ordinal, titleWithIcon, titleKey, list, cardWord, vtn, capitalized, titleText, middleTitle,
} from './words.js';
import { renderTableState } from './suited.js';

/** Seats that passed since the set on the table. */
function passedSeats(vw) {
  const passed = new Set();
  for (const entry of vw.log || []) {
    if (entry.event === 'played' || entry.event === 'round_won') passed.clear();
    else if (entry.event === 'passed') passed.add(entry.seat);
  }
  return vw.top ? passed : new Set();
}

/** What each seat did in this trick: its last set, or a pass (seat → {set} | {pass}). */
function trickMoves(vw) {
  const moves = new Map();
  for (const entry of vw.log || []) {
    if (entry.event === 'round_won') moves.clear();
    else if (entry.event === 'played') moves.set(entry.seat, { set: entry.set });
    else if (entry.event === 'passed') moves.set(entry.seat, { pass: true });
  }
  return vw.stage === 'play' ? moves : new Map();
}

/**
 * Where seat `i` of `n` sits around the oval: me at the bottom, the
 * others in playing order round the table. Percent of the board, and the
 * direction towards the centre (for the seat's bubble).
 */
function seatPlace(i, n, mine) {
  const k = (i - (mine == null ? 0 : mine) + n) % n;
  const angle = Math.PI / 2 + (k * 2 * Math.PI) / n;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  // The bubble goes beside a seat on the sides, above or below it at the
  // top and the bottom: towards the centre, clear of the pile.
  const side = Math.abs(cos) > 0.35;
  return {
    x: 50 + 40 * cos, y: 50 + 39 * sin,
    bx: side ? -Math.sign(cos) * 128 : 0, by: side ? 0 : -Math.sign(sin) * 74,
  };
}

export function renderSeats() {
  const s = T.state;
  const vw = s.view;
  const passed = passedSeats(vw);
  const moves = trickMoves(vw);
  const toAct = new Set(vw.to_act || []);
  const n = vw.seats.length;
  $('seats').dataset.count = String(n);
  const items = vw.seats.map((seat, i) => {
    const name = playerName(i);
    const lobby = lobbyEntry(name);
    const mine = vw.seat === i;
    const classes = ['seat'];
    if (toAct.has(i)) classes.push('to-act');
    if (mine) classes.push('me');
    if (seat.out != null) classes.push('out');
    if (passed.has(i)) classes.push('passed');
    const wedged = vw.wedged === i;
    if (wedged) classes.push('wedged');
    let flag = '';
    if (seat.out != null) flag = t('web.seat.out', { place: ordinal(seat.out + 1) });
    // The Twirling Wedgie: this seat passes for the rest of the trick.
    else if (wedged) flag = t('web.seat.wedged');
    // While the hand is set up only your own choice is shown (docs/RULES.md, D25).
    else if (toAct.has(i)) {
      const d = s.decision;
      flag = vw.stage === 'play' ? t('web.seat.to-play')
        : d && d.kind === 'ready' && !vw.revolution_offer ? t('web.seat.getting-ready') : t('web.seat.choosing');
    }
    else if (passed.has(i)) flag = t('web.seat.passed');
    let conn = null;
    if (lobby) {
      if (lobby.bot) conn = el('span', { class: 'badge bot', title: t('web.conn.bot') }, el('span', { class: 'sr-only' }, t('web.conn.bot')), el('span', { 'aria-hidden': 'true' }, '\u2699\uFE0E'));
      // A leaving seat is "away" too (a bot plays it): say why.
      else if (lobby.leaving) {
        conn = el('span', { class: 'badge' + (lobby.connected ? ' on' : ' away'), title: lobby.connected ? t('web.conn.connected') : t('web.conn.not-connected') },
          lobby.connected ? '●' : '○');
      } else if (lobby.away) conn = el('span', { class: 'badge away', title: t('web.conn.away-title') }, t('web.conn.away'));
      else if (!lobby.connected) conn = el('span', { class: 'badge away', title: t('web.conn.not-connected') }, '○');
      else conn = el('span', { class: 'badge on', title: t('web.conn.connected') }, '●');
      if (lobby.leaving) {
        conn = el('span', {}, conn, ' ', el('span', { class: 'badge leaving', 'data-testid': 'leaving-badge', title: t('web.seat.leaving-title') },
          t('web.seat.leaving')));
      }
    }
    const top = vw.top && vw.top[0] === i;
    const score = vw.scores ? vw.scores[i] : null;
    const place = seatPlace(i, n, vw.seat);
    const move = moves.get(i);
    let bubble = null;
    if (move && move.pass) {
      bubble = el('div', { class: 's-bubble pass', 'data-testid': 'seat-bubble', dataset: { move: 'pass' } }, t('web.seat.pass-bubble'));
    } else if (move && move.set) {
      bubble = el('div', { class: 's-bubble set' + (top ? ' top' : ''), 'data-testid': 'seat-bubble', dataset: { move: 'set' } }, cardFacesCounted(move.set));
    }
    return el('li', {
      class: classes.join(' '), 'data-testid': 'seat', dataset: { seat: String(i), name, wedged: String(wedged) },
      style: `--x:${place.x.toFixed(2)}%;--y:${place.y.toFixed(2)}%;--bx:${place.bx.toFixed(0)}px;--by:${place.by.toFixed(0)}px`,
    },
    el('div', { class: 's-title' }, breakable(titleWithIcon(titleKey(seat)))),
    el('div', { class: 's-name' }, el('span', { class: 's-who' }, shownName(name)), mine ? ' ' + t('web.you-mark') : '', ' ', conn),
    el('div', { class: 's-meta' },
      cardFan(seat.cards),
      el('span', { class: 's-cards', dataset: { n: String(seat.cards) } }, tn('web.cards', seat.cards)),
      score != null ? el('span', { class: 's-score' }, tn('web.seat.points', score)) : null,
      top ? el('span', { class: 'sr-only' }, ' · ' + t('web.seat.on-table')) : null),
    // Always there, empty when there is nothing to say: a seat keeps its
    // height when it is its turn, passes or goes out (nothing moves).
    el('div', { class: 's-flag' + (flag ? '' : ' none'), 'aria-hidden': flag ? null : 'true' }, flag || '\u00a0'),
    bubble);
  });
  $('seats').replaceChildren(...items);
  // A title too wide for its seat (a phone's narrow seats) is made smaller, never cut.
  fitText($('seats'), '.s-title');
}

// A turned phone, or the fonts in: titles fitted again, bubbles placed again.
window.addEventListener('resize', () => { fitText($('seats'), '.s-title'); placeBubbles(); });
if (document.fonts) document.fonts.ready.then(() => { fitText($('seats'), '.s-title'); placeBubbles(); });

/**
 * Laptops: each seat's bubble (its move in this trick) goes where it
 * covers no words: towards the centre as seatPlace says, else beside the
 * seat (right, left), below or above it; never over the pile, its words,
 * the turn line, the banner, a seat or another bubble, nor out of the
 * board. On a short board (a hand of two rows) the centre is near the
 * seats, and a bubble towards it covered the pile's words.
 */
export function placeBubbles() {
  if (!T.state || !T.state.view) return;
  const board = document.querySelector('#t-game .board');
  const bubbles = [...document.querySelectorAll('#seats .s-bubble')];
  if (!board || !bubbles.length || getComputedStyle(bubbles[0]).position !== 'absolute') return;
  const rect = n => (n && !n.hidden && n.getClientRects().length ? n.getBoundingClientRect() : null);
  const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const area = rect(board);
  const words = ['.pile-cards', '.pile-empty', '.pile-text', '#turn-line', '#board-banner']
    .map(s => rect(document.querySelector('#t-game .board ' + s))).filter(r => r && r.width && r.height);
  const seats = [...document.querySelectorAll('#seats .seat')];
  const taken = seats.map(rect).filter(Boolean);
  for (const bubble of bubbles) {
    const seat = bubble.closest('.seat');
    const s = rect(seat);
    bubble.style.removeProperty('--bx');
    bubble.style.removeProperty('--by');
    const own = rect(bubble);
    if (!s || !own) continue;
    const w = own.width, h = own.height, gap = 6;
    const toward = { bx: parseFloat(seat.style.getPropertyValue('--bx')) || 0, by: parseFloat(seat.style.getPropertyValue('--by')) || 0 };
    const candidates = [toward,
      { bx: s.width / 2 + gap + w / 2, by: 0 }, { bx: -(s.width / 2 + gap + w / 2), by: 0 },
      { bx: 0, by: s.height / 2 + gap + h / 2 }, { bx: 0, by: -(s.height / 2 + gap + h / 2) }];
    const cx = s.left + s.width / 2, cy = s.top + s.height / 2;
    const boxAt = c => ({ left: cx + c.bx - w / 2, right: cx + c.bx + w / 2, top: cy + c.by - h / 2, bottom: cy + c.by + h / 2 });
    const free = c => {
      const b = boxAt(c);
      return b.left >= area.left && b.right <= area.right && b.top >= area.top && b.bottom <= area.bottom &&
        !words.some(r => meet(b, r)) && !taken.some(r => r !== s && meet(b, r) && !(r.left === s.left && r.top === s.top));
    };
    const chosen = candidates.find(free) || toward;
    bubble.style.setProperty('--bx', chosen.bx.toFixed(0) + 'px');
    bubble.style.setProperty('--by', chosen.by.toFixed(0) + 'px');
    taken.push(boxAt(chosen));
  }
}

export function renderPile() {
  const vw = view();
  const pile = $('pile');
  if (vw.top) {
    const [seat, set] = vw.top;
    const played = vw.passes
      ? tn('web.pile.played-passes', vw.passes, { name: shownPlayer(seat), set: setWords(set) })
      : t('web.pile.played', { name: shownPlayer(seat), set: setWords(set) });
    const wedged = vw.wedged != null ? ' ' + t('web.pile.wedged', { name: shownPlayer(vw.wedged) }) : '';
    pile.dataset.state = 'top';
    pile.replaceChildren(
      // A phone shows a set small (one face per card with how many), so
      // its words keep room beside it.
      el('div', { class: 'pile-cards' }, narrow.matches ? cardFacesCounted(set) : cardFaces(set)),
      el('p', { class: 'pile-text', 'data-testid': 'pile-text' }, played + wedged));
  } else {
    const words = {
      setup: () => t('web.pile.setup', { ready: vw.ready || 0, players: vw.players }),
      play: () => t('web.pile.empty'),
      over: () => t('web.pile.over'),
    };
    let extra = '';
    if (vw.revolution) {
      extra = ' ' + t(vw.revolution.greater ? 'web.pile.revolution-greater' : 'web.pile.revolution',
        { revolution: gameWord('revolution'), name: shownPlayer(vw.revolution.by) });
    }
    pile.dataset.state = vw.stage;
    pile.replaceChildren(el('div', { class: 'pile-empty', 'aria-hidden': 'true' }),
      el('p', { class: 'pile-text', 'data-testid': 'pile-text' }, (words[vw.stage] ? words[vw.stage]() : '') + extra));
  }
  fitHeight(pile.querySelector('.pile-text'));
  renderTableState();
}

/** A phone's width, where the board is a column and its words keep two lines. */
const narrow = window.matchMedia('(max-width: 899px)');
narrow.addEventListener('change', () => { if (T.state && T.state.view) { renderPile(); renderTurnLine(); } });

/** The set to beat, repeated beside the hand (phones keep it in sight there). */
export function renderDockTop() {
  const vw = view();
  const node = $('dock-top');
  if (vw && vw.top && vw.stage === 'play') {
    node.replaceChildren(el('span', { class: 'muted' }, t('web.dock.to-beat') + ' '), cardFaces(vw.top[1]),
      el('span', { class: 'muted dock-by' }, ' ' + t('web.dock.by', { name: shownPlayer(vw.top[0]) })));
  } else {
    node.replaceChildren();
  }
}

function writeTurnLine() {
  const s = T.state;
  const vw = s.view;
  const line = $('turn-line');
  // Everyone is to be ready while the hand is set up: only a real choice
  // makes the line yours.
  const mine = asked();
  const online = !!(T.ws && T.ws.readyState === WebSocket.OPEN);
  line.classList.toggle('mine', mine && online);
  line.classList.toggle('offline', !online && !s.game_over);
  if (s.game_over) { line.textContent = t('web.turn.game-over'); return; }
  // Nothing can be sent while offline: no "your turn" with buttons that do nothing.
  if (!online) { line.textContent = mine ? t('web.turn.offline-mine') : t('web.turn.offline'); return; }
  if (vw.stage === 'over') { line.textContent = t('web.turn.hand-over', { hand: s.hand }); return; }
  if (mine) { line.textContent = decisionPrompt(s.decision); return; }
  const others = (vw.to_act || []).filter(i => i !== vw.seat).map(shownPlayer);
  if (s.place) { line.textContent = t('web.place.prompt', { name: s.place.name }); return; }
  if (vw.stage === 'setup') { line.textContent = t('web.turn.setup', { ready: vw.ready || 0, players: vw.players }); return; }
  const waiting = others.length ? t('web.turn.waiting', { names: list(others) }) : '';
  if (vw.wedged != null && vw.wedged === vw.seat) {
    line.textContent = t('web.turn.wedged') + (waiting ? ' ' + waiting : '');
    return;
  }
  line.textContent = waiting;
}

/** The turn line, its words fitted to a phone's two lines. */
export function renderTurnLine() {
  writeTurnLine();
  fitHeight($('turn-line'));
}

export function renderTimers() {
  const s = T.state;
  const timer = $('timer');
  if (T.deadlineAt != null && s && s.decision) {
    const left = Math.max(0, Math.ceil((T.deadlineAt - performance.now()) / 1000));
    timer.textContent = '⏱ ' + t('web.timer.left', { seconds: left });
    timer.classList.toggle('urgent', left <= 10);
    show(timer, true);
  } else {
    show(timer, false);
  }
  const setup = $('setup-timer');
  if (setup) {
    const looking = T.setupAt != null && s && s.view && s.view.stage === 'setup';
    const left = looking ? Math.max(0, Math.ceil((T.setupAt - performance.now()) / 1000)) : 0;
    setup.textContent = left > 0 ? t('web.timer.setup', { seconds: left }) : '';
    show(setup, left > 0);
  }
  const next = $('next-deal');
  if (next) {
    const over = s && s.view && s.view.stage === 'over' && !s.game_over;
    if (T.nextDealAt != null) {
      const left = Math.max(0, Math.ceil((T.nextDealAt - performance.now()) / 1000));
      next.textContent = t('web.timer.next-deal', { seconds: left });
    } else {
      next.textContent = over ? t('web.timer.next-deal-soon') : '';
    }
  }
}

/** What a decision asks of me, in one sentence. */
export function decisionPrompt(d) {
  switch (d.kind) {
    case 'lead': return t('web.prompt.lead');
    case 'follow': return t('web.prompt.follow', { set: setWords(d.top), name: shownPlayer(d.by) });
    case 'ready': {
      const offer = revolutionOffer();
      if (!offer) return t('web.prompt.setup');
      const args = { wilds: cardWord(V().wild, 2), revolution: gameWord('revolution') };
      return t(offer.greater ? 'web.prompt.revolution-greater' : 'web.prompt.revolution', args);
    }
    case 'tax': return vtn('prompt.tax', d.count, { name: shownPlayer(d.to) });
    case 'offer_exchange':
    case 'exchange_offer':
      return t('web.prompt.offer', { exchange: capitalized(gameWord('exchange')), title: titleText(middleTitle()) });
    case 'answer_exchange':
    case 'exchange_answer': return t('web.prompt.answer', { name: shownPlayer(d.from) });
    case 'give': return tn('web.suited.give.prompt', d.left, { name: shownPlayer(d.to) });
    case 'discard': return tn('web.suited.discard.prompt', d.left);
    default: return t('web.prompt.other');
  }
}
