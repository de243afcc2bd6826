// The table view: opening a table, joining and leaving, the host's
// controls before the start, and drawing the table from the last STATE
// (seats, the pile, the turn line, the log, results).

import { $, el, show, setError, replaceKeepingFocus, cardFaces, cardFan, announce } from './dom.js';
import { beforePile, afterRender, clearBanners, pref, setPref } from './fx.js';
import { t, tn } from './i18n.js';
import { api } from './api.js';
import { store } from './storage.js';
import {
  T, nav, noSelection, view, decision, playerName, lobbyEntry, myLobby, myToken, isHost, revolutionOffer,
} from './state.js';
import {
  isCorporate, gameName, gameWord, setWords, ordinal, titleOf, titleWithIcon, middleTitle, titleText,
  botName, list, logWords, vt,
} from './words.js';
import { connect, closeSocket, reconnectNow, send, setNotice, addNews, decisionPrompt, showError } from './connection.js';
import { renderHand, renderActions } from './hand.js';
import { renderDecision } from './dialogs.js';
import { renderFair } from './fair.js';
import { resetChat, renderChat, markChatSeen } from './chat.js';
import { renderRematch } from './rematch.js';

export function resetTable(id) {
  closeSocket();
  Object.assign(T, {
    id, state: null, v: 0, pending: false, sel: noSelection(), ask: null, tax: [],
    exchange: { partner: null, card: null }, answer: null, logHand: 0, logLen: 0,
    decisionKey: '', deadlineAt: null, nextDealAt: null, setupAt: null, quietHand: 0, lastResult: null, fair: {}, news: [],
    seenState: false, retry: 0, joined: [],
  });
  setNotice('');
  resetChat();
  clearBanners();
  $('log').replaceChildren();
  setError($('t-error'), '');
}

export async function showTable(id) {
  if (T.id !== id || !T.wanted) {
    resetTable(id);
    $('t-name').textContent = t('web.table.title');
    $('t-status').textContent = t('web.table.connecting');
    show($('t-game'), false);
    show($('t-prestart'), false);
    show($('t-join'), false);
    show($('t-lost'), false);
  }
  $('invite-link').value = location.origin + '/#/t/' + encodeURIComponent(id);
  $('join-name').value = $('join-name').value || store.name();
  try {
    const info = await api('GET', '/api/tables/' + encodeURIComponent(id));
    if (nav.route.view !== 'table' || nav.route.id !== id) return;
    if (!T.state) {
      $('t-name').textContent = info.name;
      document.title = t('web.page.title', { name: info.name, game: gameName(info.variant) });
    }
  } catch (e) {
    if (e.status === 404) {
      $('t-status').textContent = '';
      setError($('t-error'), t('web.table.no-such', { id }));
      return;
    }
    setError($('t-error'), t('web.table.load-failed', { reason: e.message }));
  }
  T.wanted = true;
  connect();
}

export function leaveTableView() {
  T.wanted = false;
  document.body.style.paddingBottom = '';
  renderOffline('');
  closeSocket();
  T.id = null;
}

export async function onJoin(event) {
  event.preventDefault();
  const name = $('join-name').value.trim();
  if (!name) return setError($('t-error'), t('web.join.need-name'));
  $('join-submit').disabled = true;
  try {
    const answer = await api('POST', '/api/tables/' + encodeURIComponent(T.id) + '/seats', { name });
    store.setToken(T.id, answer.token);
    store.setName(name);
    setError($('t-error'), '');
    reconnectNow();
  } catch (e) {
    setError($('t-error'), t('web.join.failed', { reason: e.message }));
  } finally {
    $('join-submit').disabled = false;
  }
}

export async function onLeave() {
  const started = T.state && T.state.started;
  const mine = myLobby();
  // A newcomer still waiting for the next hand, like a seat before the
  // start, is freed at once; a player in the game leaves when the hand ends.
  const atOnce = !started || !!(mine && mine.waiting);
  if (mine && mine.leaving) return;
  const question = !started ? t('web.leave.confirm-seat') : atOnce ? t('web.leave.confirm-place') : t('web.leave.confirm-game');
  if (!window.confirm(question)) return;
  $('leave-btn').disabled = true;
  try {
    await api('DELETE', '/api/tables/' + encodeURIComponent(T.id) + '/seats', undefined, myToken());
    if (atOnce) {
      // The server may have closed our connection first (onclose did this then).
      if (store.token(T.id)) {
        store.dropToken(T.id);
        if (started) addNews(t('web.news.gave-up'), 'system');
        reconnectNow();
      }
    } else {
      addNews(t('web.news.leaving'), 'system');
      announce(t('web.announce.leaving'));
    }
  } catch (e) {
    setError($('t-error'), t('web.leave.failed', { reason: e.message }));
  } finally {
    $('leave-btn').disabled = false;
    if (T.state) render();
  }
}

// While a request is out its button says so with aria-disabled, not
// `disabled`: a disabled button drops the keyboard focus (to the page's
// top), and the host who adds four bots presses Enter four times.
let addingBot = false;
let starting = false;

export async function onAddBot() {
  if (addingBot) return;
  const bot = $('bot-level').value;
  addingBot = true;
  $('add-bot').setAttribute('aria-disabled', 'true');
  try {
    await api('POST', '/api/tables/' + encodeURIComponent(T.id) + '/bots', { bot }, myToken());
    setError($('t-error'), '');
  } catch (e) {
    setError($('t-error'), t('web.bots.add-failed', { reason: e.message }));
  } finally {
    addingBot = false;
    $('add-bot').removeAttribute('aria-disabled');
    renderPrestart();
  }
}

async function onRemoveBot(name) {
  try {
    await api('DELETE', '/api/tables/' + encodeURIComponent(T.id) + '/bots/' + encodeURIComponent(name), undefined, myToken());
    setError($('t-error'), '');
  } catch (e) {
    setError($('t-error'), t('web.bots.remove-failed', { name, reason: e.message }));
  }
}

export async function onStart() {
  if (starting) return;
  starting = true;
  $('start-game').setAttribute('aria-disabled', 'true');
  try {
    await api('POST', '/api/tables/' + encodeURIComponent(T.id) + '/start', undefined, myToken());
    setError($('t-error'), '');
  } catch (e) {
    setError($('t-error'), t('web.start.failed', { reason: e.message }));
  } finally {
    starting = false;
    $('start-game').removeAttribute('aria-disabled');
  }
}

/** Focus on a control about to be hidden or disabled goes on to the next thing to do. */
function keepFocus(wasOn, hidden) {
  if (!hidden()) return;
  // The table is full: Start is next. The game has started: the hand.
  if (wasOn === $('add-bot') && !$('start-game').disabled) { $('start-game').focus(); return; }
  // The hand is drawn after this (and its cards may wait for the deal):
  // look for it a little while, else the turn line says what comes.
  const since = Date.now();
  const next = () => {
    if (document.activeElement && document.activeElement !== document.body && document.activeElement !== wasOn) return;
    const card = document.querySelector('#hand button:not([disabled])');
    if (card && card.offsetParent !== null) { card.focus({ preventScroll: true }); return; }
    if (Date.now() - since < 1500) { setTimeout(next, 50); return; }
    const line = $('turn-line');
    line.tabIndex = -1;
    line.focus({ preventScroll: true });
  };
  setTimeout(next, 0);
}

export async function onCopyInvite() {
  const input = $('invite-link');
  try {
    await navigator.clipboard.writeText(input.value);
    announce(t('web.invite.copied-announce'));
    $('invite-copy').textContent = t('web.invite.copied');
  } catch (_) {
    input.select();
    try { document.execCommand('copy'); $('invite-copy').textContent = t('web.invite.copied'); } catch (_) { /* select is enough */ }
  }
  setTimeout(() => { $('invite-copy').textContent = t('web.invite.copy'); }, 2000);
}

// ====================================================================
// Rendering
// ====================================================================

export function render() {
  const s = T.state;
  if (!s) return;
  $('t-name').textContent = s.name;
  document.title = (decision() ? '▶ ' : '') + t('web.page.title', { name: s.name, game: gameWord('game') });
  renderStatus();
  renderJoin();
  renderPrestart();
  const inGame = !!(s.started && s.view);
  show($('t-game'), !!s.started);
  show($('t-invite'), !s.game_over);
  // Before the start the invite link is at the top; during the game, at the side.
  const inviteHome = s.started ? $('invite-side') : $('invite-top');
  if ($('t-invite').parentNode !== inviteHome) inviteHome.append($('t-invite'));
  if (s.started) {
    if (inGame) {
      $('game-main').classList.toggle('hand-over', s.view.stage === 'over');
      const oldPile = beforePile();
      renderSeats();
      renderPile();
      renderDockTop();
      renderTurnLine();
      renderDecision();
      renderHand();
      renderLog();
      afterRender(oldPile);
    }
    renderActions();
    renderResult();
    renderGameOver();
    renderRematch();
    renderFair();
    renderTimers();
    renderMyStatus();
    renderOthers();
    const mine = myLobby();
    $('leave-btn').hidden = !(s.you && !s.game_over);
    $('leave-btn').textContent = mine && mine.waiting ? t('web.leave.place')
      : mine && mine.leaving ? t('web.leave.leaving') : t('web.leave.table');
    $('leave-btn').disabled = !!(mine && mine.leaving);
    show($('dock'), !!(s.you && s.view && s.view.hand != null && !s.game_over));
    renderChat();
    renderSideTabs();
  }
  reserveSheet();
}

/** Where I stand when I am not simply playing: waiting to enter, leaving. */
function renderMyStatus() {
  const s = T.state;
  const mine = myLobby();
  const node = $('t-mine');
  let text = '';
  if (mine && mine.waiting && !s.game_over) {
    text = t('web.me.waiting', { title: titleText(middleTitle()) });
    node.dataset.state = 'waiting';
  } else if (mine && mine.leaving && !s.game_over) {
    text = t('web.me.leaving');
    node.dataset.state = 'leaving';
  } else {
    node.dataset.state = '';
  }
  node.textContent = text;
  show(node, !!text);
}

/** Seats of the lobby not in this hand: newcomers waiting for the next one. */
function renderOthers() {
  const s = T.state;
  const inHand = new Set(s.players || []);
  const others = (s.lobby || []).filter(x => !inHand.has(x.name));
  const items = others.map(x => el('li', { class: 'other', dataset: { name: x.name, waiting: String(!!x.waiting) } },
    x.bot ? '🤖 ' : x.connected ? '● ' : '○ ',
    el('strong', {}, x.name), x.name === s.you ? ' ' + t('web.you-mark') : '',
    x.bot ? ' ' + t('web.bot.mark', { bot: botName(x.bot) }) : '',
    x.waiting ? t('web.others.waits') : ''));
  $('t-others').replaceChildren(...(items.length ? [el('li', { class: 'muted' }, t('web.others.title'))] : []), ...items);
  show($('t-others'), items.length > 0);
}

function renderStatus() {
  const s = T.state;
  const parts = [];
  if (isCorporate()) parts.push(gameWord('game'));
  parts.push(tn('web.status.seats', s.seats));
  if (s.game_over) parts.push(t('web.status.over'));
  else if (s.started) {
    parts.push(s.rules && s.rules.hands
      ? t('web.status.hand-of', { hand: s.hand, hands: s.rules.hands })
      : t('web.status.hand', { hand: s.hand }));
  } else parts.push(t('web.status.not-started'));
  if (s.turn_seconds) parts.push(t('web.status.timer', { seconds: s.turn_seconds }));
  parts.push(s.public ? t('web.status.public') : t('web.status.private'));
  if (s.you) parts.push(t('web.status.you', { name: s.you }));
  else parts.push(t('web.status.watching'));
  $('t-status').textContent = parts.join(' · ');
  $('t-status').dataset.hand = String(s.hand || 0);
}

function rulesWords(rules) {
  if (!rules) return '';
  const words = [];
  if (rules.stripped_deck) words.push(t('web.rules.stripped'));
  if (rules.first_deal_revolution) words.push(t('web.rules.first-deal', { revolution: gameWord('revolution') }));
  if (rules.merchant_exchange) words.push(gameWord('exchange'));
  if (rules.scoring && rules.scoring !== 'none') words.push(t('web.rules.scoring', { scoring: t('web.scoring.' + rules.scoring) }));
  if (rules.join_and_leave) words.push(t('web.rules.join-and-leave'));
  const game = isCorporate() ? t('web.rules.game', { game: gameWord('game') }) + ' ' : '';
  return game + (words.length ? t('web.rules.list', { rules: list(words) }) : t('web.rules.basic'));
}

function renderJoin() {
  const s = T.state;
  const canJoin = !s.you && !myToken() && !s.game_over &&
    (!s.started || (s.rules && s.rules.join_and_leave));
  show($('t-join'), canJoin);
  if (canJoin) {
    $('join-note').textContent = s.started
      ? t('web.join.later', { title: titleText(middleTitle()) })
      : t('web.join.taken', { taken: s.lobby ? s.lobby.length : 0, seats: s.seats });
  }
}

export function renderPrestart() {
  const s = T.state;
  if (!s) return;
  const pre = !s.started;
  const focused = document.activeElement;
  show($('t-prestart'), pre);
  if (!pre) {
    if (focused === $('add-bot') || focused === $('start-game')) keepFocus(focused, () => true);
    return;
  }
  const host = isHost();
  const lobby = s.lobby || [];
  const items = lobby.map(seat => {
    const tags = [];
    if (seat.name === s.host) tags.push(t('web.prestart.host'));
    if (seat.name === s.you) tags.push(t('web.prestart.you'));
    if (seat.bot) tags.push(t('web.bot.tag', { bot: botName(seat.bot) }));
    const conn = seat.bot ? '🤖' : seat.connected ? '●' : '○';
    const connText = seat.bot ? t('web.conn.bot') : seat.connected ? t('web.conn.connected') : t('web.conn.not-connected');
    return el('li', { class: 'lobby-seat' + (seat.connected || seat.bot ? '' : ' gone'), dataset: { name: seat.name } },
      el('span', { class: 'conn-dot', 'aria-hidden': 'true' }, conn),
      el('span', { class: 'ls-name' }, seat.name),
      tags.length ? el('span', { class: 'muted' }, ' (' + list(tags) + ')') : null,
      el('span', { class: 'sr-only' }, ', ' + connText),
      host && seat.bot ? el('button', {
        type: 'button', class: 'small ghost', 'data-testid': 'remove-bot', dataset: { key: 'rm-' + seat.name },
        'aria-label': t('web.bots.remove-label', { name: seat.name }), onclick: () => onRemoveBot(seat.name),
      }, t('web.bots.remove')) : null);
  });
  const free = s.seats - lobby.length;
  for (let i = 0; i < free; i++) {
    items.push(el('li', { class: 'lobby-seat empty' }, el('span', { class: 'muted' }, t('web.prestart.free'))));
  }
  replaceKeepingFocus($('lobby-seats'), items);
  $('t-prestart').dataset.taken = String(lobby.length);
  show($('host-controls'), host);
  show($('guest-note'), !host);
  if (host) {
    $('add-bot').disabled = free <= 0;
    $('start-game').disabled = lobby.length < 3;
    if (focused === $('add-bot') || focused === $('start-game')) keepFocus(focused, () => focused.disabled);
    const state = lobby.length < 3 ? t('web.prestart.too-few')
      : free > 0 ? tn('web.prestart.can-start', lobby.length) : t('web.prestart.full');
    $('start-note').textContent = state + ' ' + rulesWords(s.rules);
  } else {
    $('guest-note').textContent = (s.host ? t('web.prestart.guest-named', { host: s.host }) : t('web.prestart.guest')) +
      ' ' + rulesWords(s.rules);
  }
  $('leave-btn').hidden = true;
  $('prestart-leave').hidden = !s.you;
}

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

function renderSeats() {
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
      bubble = el('div', { class: 's-bubble set' + (top ? ' top' : ''), 'data-testid': 'seat-bubble', dataset: { move: 'set' } }, cardFaces(move.set));
    }
    return el('li', {
      class: classes.join(' '), 'data-testid': 'seat', dataset: { seat: String(i), name, wedged: String(wedged) },
      style: `--x:${place.x.toFixed(2)}%;--y:${place.y.toFixed(2)}%;--bx:${place.bx.toFixed(0)}px;--by:${place.by.toFixed(0)}px`,
    },
    el('div', { class: 's-title' }, titleWithIcon(seat.title)),
    el('div', { class: 's-name' }, el('span', { class: 's-who' }, name), mine ? ' ' + t('web.you-mark') : '', ' ', conn),
    el('div', { class: 's-meta' },
      cardFan(seat.cards),
      el('span', { class: 's-cards' }, tn('web.cards', seat.cards)),
      score != null ? el('span', { class: 's-score' }, tn('web.seat.points', score)) : null,
      top ? el('span', { class: 'sr-only' }, ' · ' + t('web.seat.on-table')) : null),
    flag ? el('div', { class: 's-flag' }, flag) : null,
    bubble);
  });
  $('seats').replaceChildren(...items);
}

function renderPile() {
  const vw = view();
  const pile = $('pile');
  if (vw.top) {
    const [seat, set] = vw.top;
    const played = vw.passes
      ? tn('web.pile.played-passes', vw.passes, { name: playerName(seat), set: setWords(set) })
      : t('web.pile.played', { name: playerName(seat), set: setWords(set) });
    const wedged = vw.wedged != null ? ' ' + t('web.pile.wedged', { name: playerName(vw.wedged) }) : '';
    pile.dataset.state = 'top';
    pile.replaceChildren(
      el('div', { class: 'pile-cards' }, cardFaces(set)),
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
        { revolution: gameWord('revolution'), name: playerName(vw.revolution.by) });
    }
    pile.dataset.state = vw.stage;
    pile.replaceChildren(el('div', { class: 'pile-empty', 'aria-hidden': 'true' }),
      el('p', { class: 'pile-text', 'data-testid': 'pile-text' }, (words[vw.stage] ? words[vw.stage]() : '') + extra));
  }
}

/** The set to beat, repeated beside the hand (phones keep it in sight there). */
function renderDockTop() {
  const vw = view();
  const node = $('dock-top');
  if (vw && vw.top && vw.stage === 'play') {
    node.replaceChildren(el('span', { class: 'muted' }, t('web.dock.to-beat') + ' '), cardFaces(vw.top[1]),
      el('span', { class: 'muted dock-by' }, ' ' + t('web.dock.by', { name: playerName(vw.top[0]) })));
  } else {
    node.replaceChildren();
  }
}

export function renderTurnLine() {
  const s = T.state;
  const vw = s.view;
  const line = $('turn-line');
  // Everyone is to be ready while the hand is set up: only a real choice
  // makes the line yours.
  const mine = !!s.decision && (s.decision.kind !== 'ready' || !!revolutionOffer());
  const online = !!(T.ws && T.ws.readyState === WebSocket.OPEN);
  line.classList.toggle('mine', mine && online);
  line.classList.toggle('offline', !online && !s.game_over);
  if (s.game_over) { line.textContent = t('web.turn.game-over'); return; }
  // Nothing can be sent while offline: no "your turn" with buttons that do nothing.
  if (!online) { line.textContent = mine ? t('web.turn.offline-mine') : t('web.turn.offline'); return; }
  if (vw.stage === 'over') { line.textContent = t('web.turn.hand-over', { hand: s.hand }); return; }
  if (mine) { line.textContent = decisionPrompt(s.decision); return; }
  const others = (vw.to_act || []).filter(i => i !== vw.seat).map(playerName);
  if (s.place) { line.textContent = t('web.place.prompt', { name: s.place.name }); return; }
  if (vw.stage === 'setup') { line.textContent = t('web.turn.setup', { ready: vw.ready || 0, players: vw.players }); return; }
  const waiting = others.length ? t('web.turn.waiting', { names: list(others) }) : '';
  if (vw.wedged != null && vw.wedged === vw.seat) {
    line.textContent = t('web.turn.wedged') + (waiting ? ' ' + waiting : '');
    return;
  }
  line.textContent = waiting;
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

function renderLog() {
  const vw = view();
  const logList = $('log');
  const items = (vw.log || []).map(entry => el('li', { class: 'log-' + entry.event }, logWords(entry, playerName)));
  const nothing = t('web.log.nothing');
  if (vw.my_tax) {
    items.unshift(el('li', { class: 'log-mine' }, vt('log.my-tax', {
      name: playerName(vw.my_tax.with), gave: vw.my_tax.gave || nothing, got: vw.my_tax.received || nothing,
    })));
  }
  if (vw.my_trade) {
    items.unshift(el('li', { class: 'log-mine' }, t('web.log.my-trade', {
      exchange: gameWord('exchange'), name: playerName(vw.my_trade.with),
      gave: vw.my_trade.gave || nothing, got: vw.my_trade.received || nothing,
    })));
  }
  if (T.state.dealt) items.unshift(el('li', { class: 'log-mine' }, t('web.log.dealt', { cards: T.state.dealt })));
  items.unshift(el('li', { class: 'log-head' }, t('web.log.head', { hand: T.state.hand })));
  logList.replaceChildren(...items);
  logList.scrollTop = logList.scrollHeight;
}

function resultRows(s) {
  const vw = s.view;
  const n = vw.players;
  const totals = new Map((s.totals || []).map(x => [x.name, x.total]));
  return (vw.finish_order || []).map((seat, place) => ({
    place: place + 1,
    name: playerName(seat),
    title: titleOf(place, n),
    total: totals.has(playerName(seat)) ? totals.get(playerName(seat)) : (vw.scores ? vw.scores[seat] : null),
  }));
}

function renderResult() {
  const s = T.state;
  const vw = s.view;
  if (vw && vw.stage === 'over') {
    T.lastResult = { hand: s.hand, rows: resultRows(s), scored: !!(s.rules && s.rules.scoring !== 'none') };
  }
  const r = T.lastResult;
  const box = $('result');
  if (!r) { show(box, false); return; }
  show(box, true);
  box.dataset.hand = String(r.hand);
  const current = vw && vw.stage === 'over' && s.hand === r.hand;
  // During the pause after a hand its result is in the middle; later, at the side.
  const home = current ? $('game-main') : $('game-side');
  if (box.parentNode !== home) home.prepend(box);
  box.classList.toggle('result-main', !!current);
  $('result-title').textContent = current ? t('web.result.title', { hand: r.hand }) : t('web.result.last', { hand: r.hand });
  const table = el('table', { class: 'result-table' },
    el('caption', { class: 'sr-only' }, t('web.result.caption', { hand: r.hand })),
    el('thead', {}, el('tr', {},
      el('th', { scope: 'col' }, t('web.result.place')), el('th', { scope: 'col' }, t('web.result.player')),
      el('th', { scope: 'col' }, t('web.result.new-title')), r.scored ? el('th', { scope: 'col' }, t('web.result.total')) : null)),
    el('tbody', {}, r.rows.map(row => el('tr', {},
      el('td', {}, ordinal(row.place)), el('td', {}, row.name),
      el('td', {}, titleWithIcon(row.title)), r.scored ? el('td', {}, row.total == null ? '' : String(row.total)) : null))));
  $('result-body').replaceChildren(table,
    el('p', { id: 'next-deal', class: 'next-deal', 'data-testid': 'next-deal' }));
}

/**
 * The final order: by points when scored (ties by the last hand's finish),
 * else the last hand's finishing order. One order for every screen size.
 */
function finalOrder(s) {
  const results = s.results || [];
  const last = results.length ? results[results.length - 1].order.map(x => x.name)
    : s.view && s.view.finish_order ? s.view.finish_order.map(playerName) : [];
  const scored = !!(s.rules && s.rules.scoring !== 'none');
  const totals = new Map((s.totals || []).map(x => [x.name, x.total]));
  for (const r of results) {
    for (const x of r.order) if (!totals.has(x.name) && x.points != null) totals.set(x.name, 0);
  }
  const names = [...new Set([...last, ...totals.keys()])];
  const at = name => (last.includes(name) ? last.indexOf(name) : last.length);
  if (scored && totals.size) names.sort((a, b) => (totals.get(b) || 0) - (totals.get(a) || 0) || at(a) - at(b));
  return { names, totals, scored };
}

function renderGameOver() {
  const s = T.state;
  const box = $('gameover');
  show(box, !!s.game_over);
  if (!s.game_over) return;
  clearBanners();
  if (box.parentNode !== $('game-main') || box !== $('game-main').firstElementChild) $('game-main').prepend(box);
  const { names, totals, scored } = finalOrder(s);
  const results = s.results || [];
  const winner = names[0];
  const rows = names.map((name, i) => el('li', { class: i === 0 ? 'winner' : '' },
    scored && totals.has(name) ? tn('web.gameover.points', totals.get(name), { name }) : name));
  // Points per hand: a row per player (in the final order), a column per hand.
  let perHand = null;
  if (results.length) {
    const byHand = results.map(r => new Map(r.order.map((x, place) => [x.name, { place, points: x.points }])));
    perHand = el('div', { class: 'per-hand-wrap', tabindex: '0', role: 'region', 'aria-label': t('web.gameover.per-hand') },
      el('table', { class: 'result-table per-hand', 'data-testid': 'per-hand' },
        el('caption', {}, t('web.gameover.per-hand')),
        el('thead', {}, el('tr', {},
          el('th', { scope: 'col' }, t('web.result.player')),
          results.map(r => el('th', { scope: 'col' }, t('web.gameover.hand-n', { hand: r.hand }))),
          scored ? el('th', { scope: 'col' }, t('web.result.total')) : null)),
        el('tbody', {}, names.map(name => el('tr', {},
          el('th', { scope: 'row' }, name),
          byHand.map(m => {
            const x = m.get(name);
            if (!x) return el('td', {}, '–');
            return el('td', {}, scored && x.points != null ? String(x.points) : ordinal(x.place + 1));
          }),
          scored ? el('td', { class: 'total' }, totals.has(name) ? String(totals.get(name)) : '') : null)))));
  }
  const id = encodeURIComponent(T.id);
  const mine = winner && winner === s.you;
  $('gameover-body').replaceChildren(
    winner ? el('div', { class: 'winner-moment', 'data-testid': 'winner' },
      el('span', { class: 'crown', 'aria-hidden': 'true' }, '\u265B\uFE0E'),
      el('p', { class: 'winner-name' }, mine ? t('web.gameover.you-win') : t('web.gameover.wins', { name: winner })),
      el('p', { class: 'winner-sub muted' }, scored && totals.has(winner)
        ? tn('web.gameover.winner-points', totals.get(winner), { hands: results.length || s.hand })
        : tn('web.gameover.hands-played', results.length || s.hand))) : null,
    el('p', {}, t('web.gameover.standings')),
    el('ol', { class: 'standings', 'data-testid': 'standings' }, rows),
    perHand,
    el('p', { class: 'gameover-links' },
      el('a', { href: '#/replay/' + id, class: 'button', 'data-testid': 'replay-link' }, t('web.gameover.replay')), ' ',
      el('a', { href: '/api/tables/' + id + '/record', download: 'dalmuti-' + T.id + '.json', class: 'button', 'data-testid': 'record-link' },
        t('web.record.download'))));
}

// ====================================================================
// Offline, the side panels' tabs on phones, the turn alerts
// ====================================================================

/** While the socket is down: a banner that says so (and that it reconnects). */
export function renderOffline(text) {
  const node = $('offline');
  if (!node) return;
  node.textContent = text || '';
  show(node, !!text);
  $('view-table').classList.toggle('is-offline', !!text);
  if (T.state && T.state.view) renderTurnLine();
}

const sideTab = { current: 'log', unread: 0 };

// The chat's unread count shows on its tab (phones), and a click on the chat
// toast opens the tab (chat.js says both through document events).
document.addEventListener('dalmuti-unread', e => {
  if (sideTab.unread === e.detail.count) return;
  sideTab.unread = e.detail.count;
  if (T.state) renderSideTabs();
});
document.addEventListener('dalmuti-show-chat', () => openSideTab('chat'));

function openSideTab(key) {
  sideTab.current = key;
  renderSideTabs();
  if (key === 'chat') markChatSeen();
}

function sidePanels() {
  const panels = [
    ['log', $('log') && $('log').closest('section'), 'web.html.this-hand'],
    ['chat', $('chat') && $('chat').closest('section'), 'web.tabs.chat'],
    ['fair', $('fair'), 'web.html.fair'],
    ['table', $('table-panel'), 'web.tabs.table'],
  ];
  return panels.filter(([, node]) => node);
}

/** The unread count on the chat's tab: a number, and words for screen readers. */
function tabBadge(count) {
  const words = tn('web.chat.unread', count);
  return el('span', { class: 'tab-badge', 'data-testid': 'tab-unread', 'data-count': String(count), title: words },
    el('span', { 'aria-hidden': 'true' }, String(count)), el('span', { class: 'sr-only' }, words));
}

/** On phones the side panels are tabs under the table (CSS shows them all on wide screens). */
export function renderSideTabs() {
  const panels = sidePanels();
  const usable = panels.filter(([key, node]) => key !== 'fair' || !node.hidden);
  if (!usable.some(([key]) => key === sideTab.current)) sideTab.current = 'log';
  const buttons = usable.map(([key, node, label]) => {
    const on = key === sideTab.current;
    if (!node.id) node.id = 'panel-' + key;
    const badge = key === 'chat' && !on && sideTab.unread > 0 ? [tabBadge(sideTab.unread)] : [];
    return el('button', {
      type: 'button', class: 'side-tab' + (on ? ' on' : ''), 'aria-pressed': on ? 'true' : 'false',
      'aria-controls': node.id, 'data-testid': 'side-tab', dataset: { tab: key, key: 'tab-' + key },
      onclick: () => openSideTab(key),
    }, t(label), ...badge);
  });
  replaceKeepingFocus($('side-tabs'), buttons);
  for (const [key, node] of panels) {
    node.dataset.tab = key;
    node.classList.toggle('tab-off', key !== sideTab.current);
  }
}

function initAlerts() {
  for (const key of ['sound', 'vibrate']) {
    const box = $('alert-' + key);
    if (!box) continue;
    box.checked = pref(key);
    box.addEventListener('change', () => setPref(key, box.checked));
  }
  if (!('vibrate' in navigator) && $('alert-vibrate')) $('alert-vibrate').closest('label').hidden = true;
}

initAlerts();

// Phones: the hand is a sheet fixed at the bottom; the page keeps room for
// it (padding as tall as the sheet) so it never covers the table.
function reserveSheet() {
  const dock = $('dock');
  const fixed = dock && !dock.hidden && $('view-table') && !$('view-table').hidden &&
    !$('t-game').hidden && getComputedStyle(dock).position === 'fixed';
  document.body.style.paddingBottom = fixed ? Math.ceil(dock.getBoundingClientRect().height) + 'px' : '';
}

if (window.ResizeObserver) new ResizeObserver(reserveSheet).observe($('dock'));
window.addEventListener('resize', reserveSheet);
