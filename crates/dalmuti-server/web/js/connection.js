// The table's WebSocket (docs/PROTOCOL.md): connecting and reconnecting,
// the messages coming in (news, announcements), the moves going out.

import { $, el, show, setError, announce } from './dom.js';
import { t, tn } from './i18n.js';
import { store } from './storage.js';
import { T, me, myToken, myLobby, decisionOf, shownPlayer, shownName, noSelection } from './state.js';
import { setVariant, actionWords, eventWords, logWords, isSpecial, list, tableName } from './words.js';
import { turnAlert } from './fx.js';
import { verifyDeals } from './fair.js';
import { decisionPrompt } from './board.js';
import { views } from './views.js';
import { isOffline, OfflineSocket } from './offline.js';

/** The table's socket at the address the page came from (a load balancer's, in a cluster). */
function socketUrl(id) {
  return (location.protocol === 'https:' ? 'wss:' : 'ws:') + '//' + location.host + '/ws/' + encodeURIComponent(id);
}

/** The close code after `taken` (docs/PROTOCOL.md): the seat plays on another device. */
const CLOSE_TAKEN = 4409;
/** Whether the connection open now learnt that its seat is played elsewhere. */
let elsewhereNow = false;

/** `moved` messages followed at once in a row; past this, reconnect with the usual backoff. */
const MAX_MOVES = 3;

/** The WebSocket address a `moved` message names, or null (none, or not a ws:/wss: URL). */
function movedUrl(d) {
  if (!d || typeof d.url !== 'string') return null;
  try {
    const url = new URL(d.url, location.href);
    return url.protocol === 'ws:' || url.protocol === 'wss:' ? url.href : null;
  } catch (_) {
    return null;
  }
}

/** The connection's state in the header: kind is up, wait or down. */
function setConn(text, kind) {
  const node = $('conn');
  node.textContent = text;
  node.className = 'conn ' + (kind || '');
  node.dataset.state = kind || '';
  show(node, true);
  // Said on the table too, plainly, once the table was seen: a moment of
  // "connecting" at the start is not news.
  const lost = kind === 'down' || (kind === 'wait' && T.retry > 0);
  views.renderOffline(lost && T.seenState ? t('web.offline.banner', { status: text }) : '');
}

export function connect() {
  if (!T.wanted || !T.id) return;
  closeSocket();
  const id = T.id;
  // Another server node serves the table (docs/PROTOCOL.md, moved): the
  // address it named, for this one connection; every other connection,
  // and this one's successor if it fails, goes to the page's own address.
  const url = T.movedTo || socketUrl(id);
  T.movedTo = null;
  // Set while this connection learns that the seat is played elsewhere.
  elsewhereNow = false;
  let ws;
  try {
    // A game played on this device: the offline engine's socket.
    ws = isOffline(id) ? new OfflineSocket(id) : new WebSocket(url);
  } catch (e) {
    scheduleReconnect();
    return;
  }
  T.ws = ws;
  setConn(T.retry || (T.moves && T.seenState) ? t('web.conn.reconnecting') : t('web.conn.connecting'), 'wait');
  // The `moved` message this connection got, if any: the close follows.
  let moved = null;
  ws.onopen = () => {
    const token = store.token(id);
    send({ t: 'hello', v: token ? store.lastV(id) : 0, d: token ? { token } : views.spectatorHello() });
  };
  ws.onmessage = event => {
    if (ws !== T.ws) return;
    let msg;
    try { msg = JSON.parse(event.data); } catch (_) { return; }
    if (msg && msg.t === 'moved') {
      moved = msg.d || {};
      try { ws.close(1000); } catch (_) { /* closing already */ }
      return;
    }
    if (msg && msg.t === 'taken') {
      // The seat was taken back on another device (docs/PROTOCOL.md): the
      // close follows; this page watches and offers to take it back.
      elsewhereNow = true;
      T.pending = false;
      views.seatElsewhere('taken');
      if (T.state) views.render();
      return;
    }
    onMessage(msg);
  };
  ws.onclose = event => {
    if (ws !== T.ws) return;
    T.ws = null;
    T.pending = false;
    if (moved && T.wanted) {
      // Sent on: to the node named, or (url null: the table is changing
      // nodes) back through the page's own address, where whichever node
      // serves it now answers. At once, unless moves keep coming without
      // a table seen (then as any reconnection, with backoff).
      T.movedTo = movedUrl(moved);
      T.moves++;
      if (T.moves <= MAX_MOVES) connect();
      else scheduleReconnect();
      return;
    }
    // A failed connection backs off by itself: moves are counted anew.
    T.moves = 0;
    if (event.code === CLOSE_TAKEN || (elsewhereNow && !store.token(id))) {
      // The seat plays on another device (told by `taken`, or this
      // browser's old token refused): watch from now on, at once.
      reconnectNow();
      return;
    }
    const token = store.token(id);
    const mine = myLobby();
    const unknown = event.code === 1008 && event.reason !== 'too many messages';
    if (token && mine && (mine.leaving || mine.waiting) &&
        ((event.code === 1000 && /left/.test(event.reason || '')) || unknown)) {
      // We asked to leave and the server has let us go (the hand ended):
      // the token is spent; watch from now on.
      store.dropToken(id);
      addNews(t('web.news.left'), 'system');
      announce(t('web.announce.left'));
      setNotice('');
      reconnectNow();
      return;
    }
    if (unknown && token && (!T.seenState || event.reason === 'no such seat')) {
      // The server does not know our token (policy violation): do not
      // knock again with it; watch, and say why.
      views.seatElsewhere('lost');
      reconnectNow();
      return;
    }
    if (T.wanted) scheduleReconnect();
  };
  ws.onerror = () => { /* onclose follows */ };
}

export function closeSocket() {
  clearTimeout(T.retryTimer);
  T.retryTimer = null;
  const ws = T.ws;
  T.ws = null;
  if (ws) {
    ws.onclose = null;
    try { ws.close(); } catch (_) { /* already closed */ }
  }
}

function scheduleReconnect() {
  const delays = [500, 1000, 2000, 4000, 8000, 15000];
  const delay = delays[Math.min(T.retry, delays.length - 1)];
  T.retry++;
  setConn(tn('web.conn.offline', Math.ceil(delay / 1000)), 'down');
  clearTimeout(T.retryTimer);
  T.retryTimer = setTimeout(connect, delay);
  views.renderActions();
}

// The browser knows when the network goes and comes back: say so at once,
// and reconnect the moment it is back instead of waiting out a backoff.
window.addEventListener('offline', () => {
  if (!T.wanted || !T.id || isOffline(T.id)) return;
  closeSocket();
  T.pending = false;
  setConn(t('web.conn.no-network'), 'down');
  // In case the browser never says the network is back.
  T.retryTimer = setTimeout(connect, 15000);
  views.renderActions();
  if (T.state) views.render();
});
window.addEventListener('online', () => {
  if (T.wanted && T.id && !isOffline(T.id)) reconnectNow();
});

export function reconnectNow() {
  T.retry = 0;
  T.moves = 0;
  T.seenState = false;
  connect();
}

export function send(msg) {
  if (!T.ws || T.ws.readyState !== WebSocket.OPEN) return false;
  T.ws.send(JSON.stringify(msg));
  return true;
}

/** Sends a move (docs/PROTOCOL.md, act); nothing while one waits for its answer. */
export function sendAct(action) {
  if (T.pending) return;
  if (!send({ t: 'act', v: T.v, d: action })) {
    showError(t('web.error.not-connected-act'));
    return;
  }
  T.pending = true;
  setError($('t-error'), '');
  setNotice('');
  views.renderActions();
  views.renderDecision();
}

function onMessage(msg) {
  const d = msg.d;
  // Every STATE names the table's game: its words are needed from here on.
  if (d && d.rules) setVariant(d.rules.variant);
  switch (msg.t) {
    case 'snapshot':
    case 'catchup':
    case 'event':
    case 'presence':
    case 'resync':
      T.retry = 0;
      T.moves = 0;
      setConn(t('web.conn.live'), 'up');
      if (msg.t === 'resync' && d && d.error) showError(refusalWords({ reason: d.error, kind: d.error_kind }));
      if (msg.t === 'event' && d && d.e) onEvent(d.e, d);
      if (msg.t === 'catchup' && d && Array.isArray(d.missed)) {
        const missed = d.missed.map(m => m && m.e).filter(Boolean);
        if (T.seenState) for (const e of missed) onEvent(e, d, true);
        tellMovesMadeForMe(missed, d);
      }
      onState(d, msg.v);
      // The answer to hello carries the chat and news the table kept.
      if ((msg.t === 'snapshot' || msg.t === 'catchup') && d) views.loadTalk(d.chat, d.news);
      break;
    case 'error':
      T.pending = false;
      if (d && d.kind === 'bad_token' && myToken()) {
        // This browser's token holds no seat here any more (taken back
        // on another device, or given up): watch, and say why.
        elsewhereNow = true;
        views.seatElsewhere('lost');
        closeSocket();
        reconnectNow();
        break;
      }
      // Refusals are told apart by their kind (docs/PROTOCOL.md), not their words.
      showError(refusalWords(d));
      views.renderActions();
      break;
    case 'chat':
      views.onChatLine(d);
      break;
    case 'news':
      views.onNewsLine(d);
      break;
    default:
      break;
  }
}

/**
 * A refusal in the player's words where its kind has them
 * (docs/PROTOCOL.md, `error`); the server's own reason otherwise.
 */
function refusalWords(d) {
  if (!d || !d.reason) return t('web.error.refused');
  const worded = { stale: 'web.error.stale', bad_token: 'web.error.bad-token', too_many: 'web.error.too-many',
    closed: 'web.error.closed' }[d.kind];
  return worded ? t(worded) : d.reason;
}

/** A refusal from the server (its reason, in its words), shown and said. */
export function showError(reason) {
  setError($('t-error'), reason);
  announce(t('web.announce.refused', { reason }));
}

/** Events the server's kept news lines tell already. */
const SERVER_NEWS = new Set(['seat', 'unseat', 'waiting', 'start', 'deal', 'join', 'leaving', 'leave']);

/** A player back from an absence is told, in one line, what the stand-in bot played for them. */
function tellMovesMadeForMe(events, state) {
  const you = state.you || me();
  if (!you || (state.lobby || []).some(x => x.name === you && x.leaving)) return;
  // Being made ready at the end of the setup pause is no move worth telling.
  const moves = events.filter(e => e.kind === 'act' && e.auto && e.name === you && e.action !== 'ready')
    .map(e => actionWords(e.action, (state.players || []).map(shownName), null));
  if (!moves.length) return;
  const text = t('web.auto.away', { action: list(moves) });
  if (!T.seenState) addNews(text, 'auto');
  setNotice(text);
  announce(text);
}

function onEvent(e, state, caughtUp = false) {
  const players = (state && state.players) || (T.state && T.state.players);
  const you = (state && state.you) || me();
  // Everyone is made ready when the look-at-your-cards pause ends: the
  // count on the table says it; the news would only repeat it.
  if (e.kind === 'ready' || (e.kind === 'act' && e.action === 'ready')) {
    // nothing to tell
  } else if (e.kind === 'act' && e.auto && you && e.name === you) {
    // A move made for us: say so plainly, in the news and on the table.
    const leaving = state && state.lobby && state.lobby.some(x => x.name === you && x.leaving);
    const action = actionWords(e.action, players && players.map(shownName), null);
    const text = leaving
      ? t('web.auto.leaving', { action })
      : state && state.turn_seconds
        ? t('web.auto.timeout', { action })
        : t('web.auto.away', { action });
    addNews(text, 'auto');
    // Caught up after an absence: told once for all of them (tellMovesMadeForMe).
    if (!leaving && !caughtUp) {
      setNotice(text);
      announce(text);
    }
  } else if (SERVER_NEWS.has(e.kind)) {
    // The server's news says these (and keeps them): see chat.js.
  } else if (e.kind !== 'act' || e.auto) {
    // Plays are in the hand's log already; the news gets the rest, and
    // the moves made for someone.
    addNews(eventWords(e, players, shownName), 'system');
  }
  if (e.kind === 'deal') {
    T.sel = noSelection();
    T.ask = null;
    T.tax = [];
    T.exchange = { partner: null, card: null };
    T.answer = null;
    T.joined = [];
  }
  if (e.kind === 'join') T.joined.push({ name: e.name, seat: e.seat });
}

/** A line on the table about a move made for us; '' hides it. */
export function setNotice(text) {
  const node = $('t-notice');
  if (!node) return;
  clearTimeout(T.noticeTimer);
  node.textContent = text || '';
  show(node, !!text);
  if (text) T.noticeTimer = setTimeout(() => setNotice(''), 20000);
}

/** A line of our own in the chat and news (chat.js). */
export function addNews(text, kind) {
  views.addNews(text, kind);
}

function onState(state, v) {
  if (!state) return;
  const mine = state.you && state.lobby ? state.lobby.find(x => x.name === state.you) : null;
  if (mine && mine.leaving && state.decision) {
    // Leaving: a bot plays this seat until the hand ends (docs/PROTOCOL.md,
    // DELETE seats); its decisions are not ours to make any more.
    state = Object.assign({}, state, { decision: null, deadline_ms: null });
  }
  const first = !T.seenState;
  const before = T.state;
  T.state = state;
  T.v = typeof v === 'number' ? v : T.v;
  T.pending = false;
  T.seenState = true;
  if (state.you) store.setLastV(T.id, T.v);

  const now = performance.now();
  T.deadlineAt = state.deadline_ms != null ? now + state.deadline_ms : null;
  T.nextDealAt = state.next_deal_ms != null ? now + state.next_deal_ms : null;
  T.setupAt = state.setup_ms != null ? now + state.setup_ms : null;

  rememberDealt(state);
  // A new turn starts with nothing chosen.
  const playing = x => !!(x && x.decision && (x.decision.kind === 'lead' || x.decision.kind === 'follow'));
  if (playing(state) && !(before && playing(before) && before.hand === state.hand && !first)) T.sel = noSelection();
  markReceived(before, state);
  views.keepSelectionSane();
  // A play asked about is for this turn only.
  if (T.ask && !(decisionOf('lead') || decisionOf('follow'))) T.ask = null;
  if (!decisionOf('tax')) T.tax = [];
  views.render();
  announceChanges(before, state, first);
  verifyDeals(state);
}

/** Cards that came into my hand within a hand (taxes, an exchange): marked for a moment. */
function markReceived(before, state) {
  const a = before && before.view;
  const b = state.view;
  if (!a || !b || before.hand !== state.hand || a.hand == null || b.hand == null || a.hand === b.hand) return;
  const left = new Map();
  for (const c of String(a.hand).split(/\s+/).filter(Boolean)) left.set(c, (left.get(c) || 0) + 1);
  const got = [];
  for (const c of String(b.hand).split(/\s+/).filter(Boolean)) {
    if (left.get(c)) left.set(c, left.get(c) - 1);
    else got.push(c);
  }
  views.markFresh(got);
}

function rememberDealt(state) {
  const vw = state.view;
  if (!state.dealt || !state.hand || !vw || vw.seat == null) return;
  const all = store.dealt(T.id);
  if (all[state.hand]) return;
  let seat = vw.seat;
  if (vw.revolution && vw.revolution.greater) seat = vw.players - 1 - seat;
  if (Number.isInteger(state.dealt_seat)) seat = state.dealt_seat;
  all[state.hand] = { dealt: state.dealt, seat };
  const keys = Object.keys(all).map(Number).sort((a, b) => a - b);
  while (keys.length > 50) delete all[keys.shift()];
  store.setDealt(T.id, all);
}

function announceChanges(before, state, first) {
  const vw = state.view;
  const lines = [];
  if (vw && !first) {
    const log = vw.log || [];
    const sameHand = before && before.hand === state.hand;
    const from = sameHand ? Math.min(T.logLen, log.length) : 0;
    for (const entry of log.slice(from).slice(-4)) lines.push(logWords(entry, shownPlayer));
    // Corporate Shuffle's specials at work are news as well.
    for (const entry of log.slice(from)) if (isSpecial(entry)) addNews(logWords(entry, shownPlayer), 'special');
  }
  const d = state.decision;
  const key = d ? state.hand + ':' + JSON.stringify(d) + ':' + (vw ? (vw.log || []).length : 0) : '';
  if (d && key !== T.decisionKey) {
    lines.push(decisionPrompt(d));
    // A sound or buzz (if asked for) when a real choice becomes mine.
    if (!first && (d.kind !== 'ready' || state.view && state.view.revolution_offer)) {
      turnAlert(t('web.alerts.your-turn', { name: tableName(state) }));
    }
  }
  if (state.place && (!before || !before.place)) lines.push(t('web.place.prompt', { name: shownName(state.place.name) }));
  T.decisionKey = key;
  T.logHand = state.hand;
  T.logLen = vw ? (vw.log || []).length : 0;
  if (lines.length) announce(lines.join(' '));
}
