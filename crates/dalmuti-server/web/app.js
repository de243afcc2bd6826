// The browser client of `dalmuti serve`: plain JavaScript, no build step.
// The contract with the server is docs/PROTOCOL.md.
//
// Sections: card words · small DOM helpers · storage · HTTP · routing ·
// lobby · table (connection, state, rendering, decisions, selection) ·
// replay · keyboard · timers · start-up.
'use strict';

(function () {

// ====================================================================
// Cards and words
// ====================================================================

const RANK_NAMES = {
  1: 'Dalmuti', 2: 'Archbishop', 3: 'Earl Marshal', 4: 'Baroness', 5: 'Abbess',
  6: 'Knight', 7: 'Seamstress', 8: 'Mason', 9: 'Cook', 10: 'Shepherdess',
  11: 'Stonecutter', 12: 'Peasant', J: 'Jester',
};
const RANK_PLURALS = {
  1: 'Dalmutis', 2: 'Archbishops', 3: 'Earl Marshals', 4: 'Baronesses', 5: 'Abbesses',
  6: 'Knights', 7: 'Seamstresses', 8: 'Masons', 9: 'Cooks', 10: 'Shepherdesses',
  11: 'Stonecutters', 12: 'Peasants', J: 'Jesters',
};
const COUNT_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven',
  'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen'];
const TITLE_ICONS = {
  'Greater Dalmuti': '👑', 'Lesser Dalmuti': '🎩', 'Merchant': '⚖️',
  'Lesser Peon': '🧺', 'Greater Peon': '👒',
};
const BOT_LEVELS = ['random', 'greedy', 'heuristic', 'search'];

/** Card tokens of a card string ("1 3 3 J" → ["1","3","3","J"]). */
function parseCards(text) {
  if (!text) return [];
  return String(text).trim().split(/\s+/).filter(Boolean);
}

/** A card's rank as a number: 1 best … 12, and 13 for a Jester. */
function rankValue(token) {
  return token === 'J' ? 13 : Number(token);
}

function cardName(token) {
  return RANK_NAMES[token] || ('card ' + token);
}

function countWord(n) {
  return COUNT_WORDS[n] || String(n);
}

function plural(n, one, many) {
  return n === 1 ? one : many;
}

/** Words for a set: "three Knights (6 6 J)". */
function setWords(set) {
  const cards = parseCards(set);
  if (cards.length === 0) return 'nothing';
  const numbered = cards.filter(c => c !== 'J');
  const rank = numbered.length ? numbered[0] : 'J';
  const n = cards.length;
  return countWord(n) + ' ' + (n === 1 ? RANK_NAMES[rank] : RANK_PLURALS[rank]) +
    ' (' + cards.join(' ') + ')';
}

/** A hand grouped by rank, best first, Jesters last: [{rank, count}]. */
function groupHand(hand) {
  const counts = new Map();
  for (const c of parseCards(hand)) counts.set(c, (counts.get(c) || 0) + 1);
  return [...counts.entries()]
    .map(([rank, count]) => ({ rank, count }))
    .sort((a, b) => rankValue(a.rank) - rankValue(b.rank));
}

function ordinal(n) {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] || 'th');
  return n + s;
}

/** The title of a seat of play, as the rules engine names it. */
function titleOf(seat, players) {
  if (seat === 0) return 'Greater Dalmuti';
  if (seat + 1 === players) return 'Greater Peon';
  if (players >= 4 && seat === 1) return 'Lesser Dalmuti';
  if (players >= 4 && seat + 2 === players) return 'Lesser Peon';
  return 'Merchant';
}

function titleWithIcon(title) {
  return (TITLE_ICONS[title] ? TITLE_ICONS[title] + ' ' : '') + title;
}

/** Words for a player's action. */
function actionWords(action, players) {
  if (action === 'pass') return 'passed';
  if (action === 'call_revolution') return 'called a revolution';
  if (action === 'ready') return 'is ready';
  if (action === 'decline_exchange') return 'let the merchant exchange go';
  if (action && typeof action === 'object') {
    if ('play' in action) return 'played ' + setWords(action.play);
    if ('give_tax' in action) return action.give_tax ? 'gave ' + action.give_tax + ' in tax' : 'paid the tax';
    if ('offer_exchange' in action) {
      const o = action.offer_exchange || {};
      const who = players && o.partner != null ? players[o.partner] || ('seat ' + o.partner) : 'another Merchant';
      return 'offered ' + (o.card ? 'a ' + cardName(o.card) : 'a card') + ' to ' + who;
    }
    if ('answer_exchange' in action) return action.answer_exchange ? 'gave back a ' + cardName(action.answer_exchange) : 'gave a card back';
  }
  return 'acted';
}

/** Words for a table event (`e` of an `event` message, or a replay frame). */
function eventWords(e, players) {
  if (!e) return '';
  switch (e.kind) {
    case 'seat': return e.name + (e.bot ? ' (' + e.bot + ' bot)' : '') + ' took a seat.';
    case 'unseat': return e.name + ' left their seat.';
    case 'start': return 'The game starts. Seating drawn: ' + (e.seating || []).join(', ') + '.';
    case 'deal': return 'Hand ' + e.hand + ' is dealt.';
    case 'act': return e.name + ' ' + actionWords(e.action, players) + (e.auto ? ' (played automatically)' : '') + '.';
    case 'place': return e.name + ' is placed at seat ' + (e.seat + 1) + '.';
    case 'join': return e.name + ' joins the game at seat ' + (e.seat + 1) + '.';
    case 'leaving': return e.name + ' will leave when this hand ends.';
    case 'leave': return e.name + ' left the game.';
    case 'waiting': return e.name + (e.bot ? ' (' + e.bot + ' bot)' : '') + ' waits to join at the next hand.';
    default: return 'Something happened (' + e.kind + ').';
  }
}

/** Words for one entry of a view's log; `who(seat)` names a seat. */
function logWords(entry, who) {
  switch (entry.event) {
    case 'revolution_called':
      return who(entry.seat) + ' called a ' + (entry.greater ? 'greater ' : '') +
        'revolution: no taxes this hand' + (entry.greater ? ', and the seating is reversed.' : '.');
    case 'revolution_declined':
      // Only the holder ever sees this entry.
      return who(entry.seat) + ' held both Jesters and kept quiet: nobody else knows.';
    case 'tax_paid': {
      let s = who(entry.dalmuti) + ' and ' + who(entry.peon) + ' exchanged ' + entry.cards +
        ' ' + plural(entry.cards, 'card', 'cards') + ' in tax';
      if (entry.gift || entry.tribute) {
        s += ' (the gift: ' + (entry.gift || '?') + '; the best cards: ' + (entry.tribute || '?') + ')';
      }
      return s + '.';
    }
    case 'merchant_exchange': {
      let s = who(entry.offerer) + ' traded a card with ' + who(entry.partner);
      if (entry.offered || entry.returned) {
        s += ' (' + (entry.offered || '?') + ' for ' + (entry.returned || '?') + ')';
      }
      return s + '.';
    }
    case 'exchange_declined': return who(entry.seat) + ' let the merchant exchange go.';
    case 'played': return who(entry.seat) + ' played ' + setWords(entry.set) + '.';
    case 'passed': return who(entry.seat) + ' passed.';
    case 'went_out': return who(entry.seat) + ' is out, ' + ordinal(entry.place + 1) + '.';
    case 'round_won':
      return 'Everyone passed on ' + who(entry.seat) + '\u2019s set; ' + who(entry.leader) + ' leads.';
    case 'hand_over': return 'The hand is over.';
    default: return entry.event;
  }
}

// ====================================================================
// DOM helpers
// ====================================================================

const $ = id => document.getElementById(id);

/** Makes an element: el('button', {class: 'x', onclick: f}, 'text', child). */
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value == null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child == null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function show(node, visible) {
  node.hidden = !visible;
}

function setError(node, message) {
  node.textContent = message || '';
  node.hidden = !message;
}

/** Re-renders `parent` with `children`, keeping focus on an element with the same data-key. */
function replaceKeepingFocus(parent, children) {
  const active = document.activeElement;
  const key = active && parent.contains(active) ? active.dataset.key : null;
  parent.replaceChildren(...children);
  if (key) {
    const again = parent.querySelector('[data-key="' + CSS.escape(key) + '"]');
    if (again) again.focus();
  }
}

/** A small card face (not interactive). */
function cardFace(token, extraClass) {
  return el('span', { class: 'card mini r' + token + (extraClass ? ' ' + extraClass : ''), title: cardName(token) },
    el('span', { class: 'card-rank', 'aria-hidden': 'true' }, token),
    el('span', { class: 'sr-only' }, cardName(token) + ' (' + token + ')'));
}

function cardFaces(set) {
  return el('span', { class: 'cards' }, parseCards(set).map(t => cardFace(t)));
}

// ====================================================================
// Storage: seat tokens, last event numbers, names, dealt hands
// ====================================================================

const store = {
  get(key) {
    try { return localStorage.getItem(key); } catch (_) { return null; }
  },
  set(key, value) {
    try { localStorage.setItem(key, value); } catch (_) { /* private mode: keep going */ }
  },
  drop(key) {
    try { localStorage.removeItem(key); } catch (_) { /* ignore */ }
  },
  token: id => store.get('dalmuti.token.' + id),
  setToken: (id, token) => store.set('dalmuti.token.' + id, token),
  dropToken: id => { store.drop('dalmuti.token.' + id); store.drop('dalmuti.v.' + id); },
  lastV: id => Number(store.get('dalmuti.v.' + id)) || 0,
  setLastV: (id, v) => store.set('dalmuti.v.' + id, String(v)),
  name: () => store.get('dalmuti.name') || '',
  setName: name => store.set('dalmuti.name', name),
  dealt(id) {
    try { return JSON.parse(store.get('dalmuti.dealt.' + id)) || {}; } catch (_) { return {}; }
  },
  setDealt: (id, all) => store.set('dalmuti.dealt.' + id, JSON.stringify(all)),
};

// ====================================================================
// HTTP
// ====================================================================

/** Calls the lobby API; resolves to the JSON answer (or null), throws Error(reason). */
async function api(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = 'Bearer ' + token;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new Error('cannot reach the server (' + e.message + ')');
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch (_) { data = null; }
  }
  if (!response.ok) {
    const reason = data && data.error ? data.error : (text || response.statusText);
    const err = new Error(reason + ' (' + response.status + ')');
    err.status = response.status;
    throw err;
  }
  return data;
}

// ====================================================================
// Routing: #/ lobby, #/t/ID table, #/replay/ID replay
// ====================================================================

function parseRoute() {
  const hash = location.hash.replace(/^#/, '') || '/';
  let m = hash.match(/^\/t\/([^/?]+)/);
  if (m) return { view: 'table', id: decodeURIComponent(m[1]) };
  m = hash.match(/^\/replay\/([^/?]+)/);
  if (m) return { view: 'replay', id: decodeURIComponent(m[1]) };
  return { view: 'lobby' };
}

let route = { view: null };

function onRoute() {
  const next = parseRoute();
  if (route.view === 'table' && (next.view !== 'table' || next.id !== route.id)) leaveTableView();
  route = next;
  for (const view of ['lobby', 'table', 'replay']) show($('view-' + view), view === route.view);
  if (route.view === 'lobby') showLobby();
  else if (route.view === 'table') showTable(route.id);
  else if (route.view === 'replay') showReplay(route.id);
}

// ====================================================================
// Lobby
// ====================================================================

function showLobby() {
  document.title = 'Lobby · The Great Dalmuti';
  show($('conn'), false);
  if (!$('c-player').value) $('c-player').value = store.name();
  loadLobby();
}

async function loadLobby() {
  setError($('lobby-error'), '');
  try {
    const [open, finished] = await Promise.all([
      api('GET', '/api/tables'),
      api('GET', '/api/tables?finished=true'),
    ]);
    renderTableList($('open-tables'), $('open-empty'), (open && open.tables) || [], false);
    renderTableList($('finished-tables'), $('finished-empty'), (finished && finished.tables) || [], true);
  } catch (e) {
    setError($('lobby-error'), 'Could not load the tables: ' + e.message);
  }
}

function renderTableList(list, empty, tables, finished) {
  list.replaceChildren(...tables.map(info => tableItem(info, finished)));
  show(empty, tables.length === 0);
}

function tableItem(info, finished) {
  const taken = info.taken || [];
  const mine = store.token(info.id);
  const status = finished ? 'finished' : info.started ? 'playing, hand ' + (info.hand || 1) : 'waiting for players';
  const link = finished
    ? el('a', { href: '#/replay/' + encodeURIComponent(info.id), class: 'button small', 'data-testid': 'replay-link' }, 'Replay')
    : el('a', { href: '#/t/' + encodeURIComponent(info.id), class: 'button small' + (mine ? ' primary' : '') },
      mine ? 'Back to my seat' : info.started ? 'Watch or join' : 'Join');
  return el('li', { class: 'table-item', dataset: { table: info.id } },
    el('div', { class: 'ti-main' },
      el('strong', {}, info.name),
      el('span', { class: 'muted' }, ' · ' + taken.length + ' of ' + info.seats + ' seats taken · ' + status),
      taken.length ? el('div', { class: 'ti-names muted' }, taken.join(', ')) : null),
    link);
}

async function onCreate(event) {
  event.preventDefault();
  const errorNode = $('create-error');
  setError(errorNode, '');
  const name = $('c-name').value.trim();
  const player = $('c-player').value.trim();
  const seats = Number($('c-seats').value);
  if (!name) return setError(errorNode, 'Give the table a name.');
  if (!player) return setError(errorNode, 'Give your name.');
  if (!(seats >= 3 && seats <= 16)) return setError(errorNode, 'A table has 3 to 16 seats.');
  const body = {
    name, player, seats,
    rules: {
      stripped_deck: $('c-stripped').checked,
      first_deal_revolution: $('c-fdr').checked,
      merchant_exchange: $('c-merchant').checked,
      scoring: $('c-scoring').value,
      join_and_leave: $('c-join').checked,
    },
    public: $('c-public').checked,
  };
  const hands = $('c-hands').value.trim();
  if (hands) body.hands = Number(hands);
  const timer = $('c-timer').value;
  if (timer) body.turn_seconds = Number(timer);
  $('create-submit').disabled = true;
  try {
    const answer = await api('POST', '/api/tables', body);
    store.setToken(answer.id, answer.token);
    store.setName(player);
    location.hash = '#/t/' + encodeURIComponent(answer.id);
  } catch (e) {
    setError(errorNode, 'Could not create the table: ' + e.message);
  } finally {
    $('create-submit').disabled = false;
  }
}

// ====================================================================
// Table: client state
// ====================================================================

const T = {
  id: null,
  ws: null,
  wanted: false,        // keep a connection open
  retry: 0,             // reconnection attempts since the last good answer
  retryTimer: null,
  state: null,          // the last STATE
  v: 0,                 // the table's event number we have seen
  pending: false,       // an act was sent, waiting for its answer
  sel: { rank: null, n: 0, j: 0 },
  tax: [],              // indices into the hand chosen for a tax gift
  exchange: { partner: null, card: null },
  answer: null,         // the card chosen to give back in an exchange
  logHand: 0, logLen: 0,
  decisionKey: '',
  deadlineAt: null, nextDealAt: null, setupAt: null,
  quietHand: 0,         // the hand in which we chose to keep quiet about both Jesters
  lastResult: null,     // the last hand's result, kept after the next deal
  fair: {},             // hand → {status, text}
  news: [],             // chat and table news lines
  seenState: false,
  joined: [],           // newcomers seated since the last deal: [{name, seat}]
  noticeTimer: null,
};

function resetTable(id) {
  closeSocket();
  Object.assign(T, {
    id, state: null, v: 0, pending: false, sel: { rank: null, n: 0, j: 0 }, tax: [],
    exchange: { partner: null, card: null }, answer: null, logHand: 0, logLen: 0,
    decisionKey: '', deadlineAt: null, nextDealAt: null, setupAt: null, quietHand: 0, lastResult: null, fair: {}, news: [],
    seenState: false, retry: 0, joined: [],
  });
  setNotice('');
  $('chat').replaceChildren();
  $('log').replaceChildren();
  setError($('t-error'), '');
}

function me() {
  return T.state && T.state.you;
}

function myToken() {
  return T.id ? store.token(T.id) : null;
}

function view() {
  return T.state && T.state.view;
}

function decision() {
  return T.state && T.state.decision;
}

function playerName(seat) {
  const s = T.state;
  if (s && s.players && s.players[seat] != null) return s.players[seat];
  return 'seat ' + (seat + 1);
}

function lobbyEntry(name) {
  const s = T.state;
  return s && s.lobby ? s.lobby.find(x => x.name === name) : null;
}

/** My lobby seat ({name, waiting, leaving, …}), or null when watching. */
function myLobby() {
  return me() ? lobbyEntry(me()) : null;
}

function isHost() {
  return !!(T.state && T.state.you && T.state.host === T.state.you);
}

// ====================================================================
// Table: showing the view, joining, leaving
// ====================================================================

async function showTable(id) {
  if (T.id !== id || !T.wanted) {
    resetTable(id);
    $('t-name').textContent = 'Table';
    $('t-status').textContent = 'Connecting…';
    show($('t-game'), false);
    show($('t-prestart'), false);
    show($('t-join'), false);
    show($('t-lost'), false);
  }
  $('invite-link').value = location.origin + '/#/t/' + encodeURIComponent(id);
  $('join-name').value = $('join-name').value || store.name();
  try {
    const info = await api('GET', '/api/tables/' + encodeURIComponent(id));
    if (route.view !== 'table' || route.id !== id) return;
    if (!T.state) {
      $('t-name').textContent = info.name;
      document.title = info.name + ' · The Great Dalmuti';
    }
  } catch (e) {
    if (e.status === 404) {
      $('t-status').textContent = '';
      setError($('t-error'), 'There is no such table (' + id + '). It may have been closed.');
      return;
    }
    setError($('t-error'), 'Could not load the table: ' + e.message);
  }
  T.wanted = true;
  connect();
}

function leaveTableView() {
  T.wanted = false;
  closeSocket();
  T.id = null;
}

async function onJoin(event) {
  event.preventDefault();
  const name = $('join-name').value.trim();
  if (!name) return setError($('t-error'), 'Give your name to take a seat.');
  $('join-submit').disabled = true;
  try {
    const answer = await api('POST', '/api/tables/' + encodeURIComponent(T.id) + '/seats', { name });
    store.setToken(T.id, answer.token);
    store.setName(name);
    setError($('t-error'), '');
    reconnectNow();
  } catch (e) {
    setError($('t-error'), 'Could not join: ' + e.message);
  } finally {
    $('join-submit').disabled = false;
  }
}

async function onLeave() {
  const started = T.state && T.state.started;
  const mine = myLobby();
  // A newcomer still waiting for the next hand, like a seat before the
  // start, is freed at once; a player in the game leaves when the hand ends.
  const atOnce = !started || !!(mine && mine.waiting);
  if (mine && mine.leaving) return;
  const question = !started
    ? 'Give up your seat at this table?'
    : atOnce
      ? 'Give up your place in this game? You have not been dealt in yet.'
      : 'Leave this game? A bot plays your seat until this hand ends, then you leave.';
  if (!window.confirm(question)) return;
  $('leave-btn').disabled = true;
  try {
    await api('DELETE', '/api/tables/' + encodeURIComponent(T.id) + '/seats', undefined, myToken());
    if (atOnce) {
      // The server may have closed our connection first (onclose did this then).
      if (store.token(T.id)) {
        store.dropToken(T.id);
        if (started) addNews('You gave up your place. You are watching now.', 'system');
        reconnectNow();
      }
    } else {
      addNews('You will leave when this hand ends. A bot plays your seat until then.', 'system');
      announce('You will leave when this hand ends.');
    }
  } catch (e) {
    setError($('t-error'), 'Could not leave: ' + e.message);
  } finally {
    $('leave-btn').disabled = false;
    if (T.state) render();
  }
}

async function onAddBot() {
  const bot = $('bot-level').value;
  $('add-bot').disabled = true;
  try {
    await api('POST', '/api/tables/' + encodeURIComponent(T.id) + '/bots', { bot }, myToken());
    setError($('t-error'), '');
  } catch (e) {
    setError($('t-error'), 'Could not add a bot: ' + e.message);
  } finally {
    $('add-bot').disabled = false;
    renderPrestart();
  }
}

async function onRemoveBot(name) {
  try {
    await api('DELETE', '/api/tables/' + encodeURIComponent(T.id) + '/bots/' + encodeURIComponent(name), undefined, myToken());
    setError($('t-error'), '');
  } catch (e) {
    setError($('t-error'), 'Could not remove ' + name + ': ' + e.message);
  }
}

async function onStart() {
  $('start-game').disabled = true;
  try {
    await api('POST', '/api/tables/' + encodeURIComponent(T.id) + '/start', undefined, myToken());
    setError($('t-error'), '');
  } catch (e) {
    setError($('t-error'), 'Could not start: ' + e.message);
    $('start-game').disabled = false;
  }
}

async function onCopyInvite() {
  const input = $('invite-link');
  try {
    await navigator.clipboard.writeText(input.value);
    announce('Invite link copied.');
    $('invite-copy').textContent = 'Copied';
  } catch (_) {
    input.select();
    try { document.execCommand('copy'); $('invite-copy').textContent = 'Copied'; } catch (_) { /* select is enough */ }
  }
  setTimeout(() => { $('invite-copy').textContent = 'Copy'; }, 2000);
}

// ====================================================================
// Table: the WebSocket
// ====================================================================

function socketUrl(id) {
  return (location.protocol === 'https:' ? 'wss:' : 'ws:') + '//' + location.host + '/ws/' + encodeURIComponent(id);
}

function setConn(text, kind) {
  const node = $('conn');
  node.textContent = text;
  node.className = 'conn ' + (kind || '');
  node.dataset.state = kind || '';
  show(node, true);
}

function connect() {
  if (!T.wanted || !T.id) return;
  closeSocket();
  const id = T.id;
  let ws;
  try {
    ws = new WebSocket(socketUrl(id));
  } catch (e) {
    scheduleReconnect();
    return;
  }
  T.ws = ws;
  setConn(T.retry ? 'reconnecting…' : 'connecting…', 'wait');
  ws.onopen = () => {
    const token = store.token(id);
    send({ t: 'hello', v: token ? store.lastV(id) : 0, d: token ? { token } : {} });
  };
  ws.onmessage = event => {
    if (ws !== T.ws) return;
    let msg;
    try { msg = JSON.parse(event.data); } catch (_) { return; }
    onMessage(msg);
  };
  ws.onclose = event => {
    if (ws !== T.ws) return;
    T.ws = null;
    T.pending = false;
    const token = store.token(id);
    const mine = myLobby();
    const unknown = event.code === 1008 && event.reason !== 'too many messages';
    if (token && mine && (mine.leaving || mine.waiting) &&
        ((event.code === 1000 && /left/.test(event.reason || '')) || unknown)) {
      // We asked to leave and the server has let us go (the hand ended):
      // the token is spent; watch from now on.
      store.dropToken(id);
      addNews('You have left the table. You are watching now.', 'system');
      announce('You have left the table.');
      setNotice('');
      reconnectNow();
      return;
    }
    if (unknown && token && (!T.seenState || event.reason === 'no such seat')) {
      // The server does not know our token (policy violation): do not
      // knock again with it; offer to forget it.
      show($('t-lost'), true);
      setConn('seat not recognised', 'down');
      return;
    }
    if (T.wanted) scheduleReconnect();
  };
  ws.onerror = () => { /* onclose follows */ };
}

function closeSocket() {
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
  setConn('offline: reconnecting in ' + Math.ceil(delay / 1000) + ' s', 'down');
  clearTimeout(T.retryTimer);
  T.retryTimer = setTimeout(connect, delay);
  renderActions();
}

function reconnectNow() {
  T.retry = 0;
  T.seenState = false;
  connect();
}

function send(msg) {
  if (!T.ws || T.ws.readyState !== WebSocket.OPEN) return false;
  T.ws.send(JSON.stringify(msg));
  return true;
}

function onMessage(msg) {
  const d = msg.d;
  switch (msg.t) {
    case 'snapshot':
    case 'catchup':
    case 'event':
    case 'presence':
    case 'resync':
      T.retry = 0;
      setConn('live', 'up');
      if (msg.t === 'resync' && d && d.error) showError(d.error);
      if (msg.t === 'event' && d && d.e) onEvent(d.e, d);
      if (msg.t === 'catchup' && d && Array.isArray(d.missed) && T.seenState) {
        for (const m of d.missed) if (m && m.e) onEvent(m.e, d);
      }
      onState(d, msg.v);
      break;
    case 'error':
      T.pending = false;
      showError(d && d.reason ? d.reason : 'refused');
      if (!T.state && myToken() && d && /token/i.test(d.reason || '')) show($('t-lost'), true);
      renderActions();
      break;
    case 'chat':
      if (d) {
        addNews(d.from + ': ' + d.text, 'chat');
        if (d.from !== me()) announce(d.from + ' says: ' + d.text);
      }
      break;
    default:
      break;
  }
}

function showError(reason) {
  setError($('t-error'), reason);
  announce('Refused: ' + reason);
}

function onEvent(e, state) {
  const players = (state && state.players) || (T.state && T.state.players);
  const you = (state && state.you) || me();
  // Everyone is made ready when the look-at-your-cards pause ends: the
  // count on the table says it; the news would only repeat it.
  if (e.kind === 'ready' || (e.kind === 'act' && e.action === 'ready')) {
    // nothing to tell
  } else if (e.kind === 'act' && e.auto && you && e.name === you) {
    // A move made for us: say so plainly, in the news and on the table.
    const leaving = state && state.lobby && state.lobby.some(x => x.name === you && x.leaving);
    const what = 'you ' + actionWords(e.action, players);
    const text = leaving
      ? 'A bot played for you (you leave when this hand ends): ' + what + '.'
      : state && state.turn_seconds
        ? 'Time ran out: ' + what + ' automatically.'
        : 'Played for you while you were away: ' + what + '.';
    addNews(text, 'auto');
    if (!leaving) {
      setNotice(text);
      announce(text);
    }
  } else if (e.kind !== 'act' || e.auto) {
    // Plays are in the hand's log already; the news gets the rest, and
    // the moves made for someone.
    addNews(eventWords(e, players), 'system');
  }
  if (e.kind === 'deal') {
    T.sel = { rank: null, n: 0, j: 0 };
    T.tax = [];
    T.exchange = { partner: null, card: null };
    T.answer = null;
    T.joined = [];
  }
  if (e.kind === 'join') T.joined.push({ name: e.name, seat: e.seat });
}

/** A line on the table about a move made for us; '' hides it. */
function setNotice(text) {
  const node = $('t-notice');
  if (!node) return;
  clearTimeout(T.noticeTimer);
  node.textContent = text || '';
  show(node, !!text);
  if (text) T.noticeTimer = setTimeout(() => setNotice(''), 20000);
}

function addNews(text, kind) {
  const list = $('chat');
  list.append(el('li', { class: 'news-' + kind }, text));
  while (list.children.length > 200) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
}

// ====================================================================
// Table: a new STATE
// ====================================================================

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
  if (myToken() && state.you == null) show($('t-lost'), true);
  else show($('t-lost'), false);

  const now = performance.now();
  T.deadlineAt = state.deadline_ms != null ? now + state.deadline_ms : null;
  T.nextDealAt = state.next_deal_ms != null ? now + state.next_deal_ms : null;
  T.setupAt = state.setup_ms != null ? now + state.setup_ms : null;

  rememberDealt(state);
  keepSelectionSane();
  if (!decisionOf('tax')) T.tax = [];
  render();
  announceChanges(before, state, first);
  verifyDeals(state);
}

function decisionOf(kind) {
  const d = decision();
  return d && d.kind === kind ? d : null;
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
    for (const entry of log.slice(from).slice(-4)) lines.push(logWords(entry, playerName));
  }
  const d = state.decision;
  const key = d ? state.hand + ':' + JSON.stringify(d) + ':' + (vw ? (vw.log || []).length : 0) : '';
  if (d && key !== T.decisionKey) lines.push(decisionPrompt(d));
  if (state.place && (!before || !before.place)) lines.push('Choose where ' + state.place.name + ' sits.');
  T.decisionKey = key;
  T.logHand = state.hand;
  T.logLen = vw ? (vw.log || []).length : 0;
  if (lines.length) announce(lines.join(' '));
}

function decisionPrompt(d) {
  switch (d.kind) {
    case 'lead': return 'Your turn: lead a round.';
    case 'follow': return 'Your turn: top ' + setWords(d.top) + ' played by ' + playerName(d.by) + ', or pass.';
    case 'ready': {
      const offer = view() && view().revolution_offer;
      return offer
        ? 'You hold both Jesters: call a ' + (offer.greater ? 'greater ' : '') + 'revolution before the hand starts, or keep quiet.'
        : 'Look at your cards: the hand is being set up.';
    }
    case 'tax': return 'Choose ' + d.count + ' ' + plural(d.count, 'card', 'cards') + ' to give ' + playerName(d.to) + ' in tax.';
    case 'offer_exchange':
    case 'exchange_offer': return 'Merchant exchange: offer a card to another Merchant, or decline.';
    case 'answer_exchange':
    case 'exchange_answer': return playerName(d.from) + ' offered you a card: choose a card to give back.';
    default: return 'Your turn.';
  }
}

let announceTimer = null;
function announce(text) {
  const region = $('announce');
  // A fresh node each time, so the same words are read again.
  region.append(el('p', {}, text));
  while (region.children.length > 5) region.firstChild.remove();
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => region.replaceChildren(), 15000);
}

// ====================================================================
// Table: rendering
// ====================================================================

function render() {
  const s = T.state;
  if (!s) return;
  $('t-name').textContent = s.name;
  document.title = (decision() ? '▶ ' : '') + s.name + ' · The Great Dalmuti';
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
      renderSeats();
      renderPile();
      renderDockTop();
      renderTurnLine();
      renderDecision();
      renderHand();
      renderLog();
    }
    renderActions();
    renderResult();
    renderGameOver();
    renderFair();
    renderTimers();
    renderMyStatus();
    renderOthers();
    const mine = myLobby();
    $('leave-btn').hidden = !(s.you && !s.game_over);
    $('leave-btn').textContent = mine && mine.waiting ? 'Give up my place'
      : mine && mine.leaving ? 'Leaving when this hand ends' : 'Leave the table';
    $('leave-btn').disabled = !!(mine && mine.leaving);
    show($('dock'), !!(s.you && s.view && s.view.hand != null && !s.game_over));
    $('chat-input').disabled = !s.you;
    $('chat-send').disabled = !s.you;
  }
}

/** Where I stand when I am not simply playing: waiting to enter, leaving. */
function renderMyStatus() {
  const s = T.state;
  const mine = myLobby();
  const node = $('t-mine');
  let text = '';
  if (mine && mine.waiting && !s.game_over) {
    text = 'You are waiting for the next hand: you enter when this hand ends, as a Merchant halfway down. Until then you watch.';
    node.dataset.state = 'waiting';
  } else if (mine && mine.leaving && !s.game_over) {
    text = 'You leave the table when this hand ends. A bot plays your seat until then.';
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
    el('strong', {}, x.name), x.name === s.you ? ' (you)' : '',
    x.bot ? ' (' + x.bot + ' bot)' : '',
    x.waiting ? ': waits to join at the next hand' : ''));
  $('t-others').replaceChildren(...(items.length ? [el('li', { class: 'muted' }, 'Also at the table:'), ...items] : []));
  show($('t-others'), items.length > 0);
}

function renderStatus() {
  const s = T.state;
  const parts = [];
  parts.push(s.seats + ' seats');
  if (s.game_over) parts.push('game over');
  else if (s.started) parts.push('hand ' + s.hand + (s.rules && s.rules.hands ? ' of ' + s.rules.hands : ''));
  else parts.push('not started');
  if (s.turn_seconds) parts.push(s.turn_seconds + ' s per turn');
  parts.push(s.public ? 'public' : 'private');
  if (s.you) parts.push('you are ' + s.you);
  else parts.push('watching');
  $('t-status').textContent = parts.join(' · ');
  $('t-status').dataset.hand = String(s.hand || 0);
}

function rulesWords(rules) {
  if (!rules) return '';
  const words = [];
  if (rules.stripped_deck) words.push('stripped deck');
  if (rules.first_deal_revolution) words.push('first-deal revolution');
  if (rules.merchant_exchange) words.push('merchant exchange');
  if (rules.scoring && rules.scoring !== 'none') words.push(rules.scoring + ' scoring');
  if (rules.join_and_leave) words.push('join and leave between hands');
  return words.length ? 'Rules: ' + words.join(', ') + '.' : 'Rules: the basic game.';
}

function renderJoin() {
  const s = T.state;
  const canJoin = !s.you && !myToken() && !s.game_over &&
    (!s.started || (s.rules && s.rules.join_and_leave));
  show($('t-join'), canJoin);
  if (canJoin) {
    $('join-note').textContent = s.started
      ? 'The game is on: you enter when this hand ends, as a Merchant halfway down. Until then you watch.'
      : (s.lobby ? s.lobby.length : 0) + ' of ' + s.seats + ' seats taken.';
  }
}

function renderPrestart() {
  const s = T.state;
  if (!s) return;
  const pre = !s.started;
  show($('t-prestart'), pre);
  if (!pre) return;
  const host = isHost();
  const lobby = s.lobby || [];
  const items = lobby.map(seat => {
    const tags = [];
    if (seat.name === s.host) tags.push('host');
    if (seat.name === s.you) tags.push('you');
    if (seat.bot) tags.push(seat.bot + ' bot');
    const conn = seat.bot ? '🤖' : seat.connected ? '●' : '○';
    const connText = seat.bot ? 'a bot' : seat.connected ? 'connected' : 'not connected';
    return el('li', { class: 'lobby-seat' + (seat.connected || seat.bot ? '' : ' gone'), dataset: { name: seat.name } },
      el('span', { class: 'conn-dot', 'aria-hidden': 'true' }, conn),
      el('span', { class: 'ls-name' }, seat.name),
      tags.length ? el('span', { class: 'muted' }, ' (' + tags.join(', ') + ')') : null,
      el('span', { class: 'sr-only' }, ', ' + connText),
      host && seat.bot ? el('button', {
        type: 'button', class: 'small ghost', 'data-testid': 'remove-bot', dataset: { key: 'rm-' + seat.name },
        'aria-label': 'Remove ' + seat.name, onclick: () => onRemoveBot(seat.name),
      }, 'Remove') : null);
  });
  const free = s.seats - lobby.length;
  for (let i = 0; i < free; i++) {
    items.push(el('li', { class: 'lobby-seat empty' }, el('span', { class: 'muted' }, 'free seat')));
  }
  replaceKeepingFocus($('lobby-seats'), items);
  $('t-prestart').dataset.taken = String(lobby.length);
  show($('host-controls'), host);
  show($('guest-note'), !host);
  if (host) {
    $('add-bot').disabled = free <= 0;
    $('start-game').disabled = lobby.length < 3;
    $('start-note').textContent = (lobby.length < 3
      ? 'At least 3 seats must be taken to start. '
      : free > 0 ? 'You can start now with ' + lobby.length + ' players, or wait for more. ' : 'The table is full. ') +
      rulesWords(s.rules);
  } else {
    $('guest-note').textContent = 'The host' + (s.host ? ', ' + s.host + ',' : '') +
      ' adds bots and starts the game. ' + rulesWords(s.rules);
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

function renderSeats() {
  const s = T.state;
  const vw = s.view;
  const passed = passedSeats(vw);
  const toAct = new Set(vw.to_act || []);
  const items = vw.seats.map((seat, i) => {
    const name = playerName(i);
    const lobby = lobbyEntry(name);
    const mine = vw.seat === i;
    const classes = ['seat'];
    if (toAct.has(i)) classes.push('to-act');
    if (mine) classes.push('me');
    if (seat.out != null) classes.push('out');
    if (passed.has(i)) classes.push('passed');
    let flag = '';
    if (seat.out != null) flag = 'out ' + ordinal(seat.out + 1);
    // While the hand is set up only your own choice is shown (docs/RULES.md, D25).
    else if (toAct.has(i)) {
      const d = s.decision;
      flag = vw.stage === 'play' ? 'to play'
        : d && d.kind === 'ready' && !vw.revolution_offer ? 'getting ready' : 'choosing';
    }
    else if (passed.has(i)) flag = 'passed';
    let conn = null;
    if (lobby) {
      if (lobby.bot) conn = el('span', { class: 'badge', title: 'a bot' }, '🤖');
      // A leaving seat is "away" too (a bot plays it): say why.
      else if (lobby.leaving) conn = el('span', { class: 'badge' + (lobby.connected ? ' on' : ' away'), title: lobby.connected ? 'connected' : 'not connected' }, lobby.connected ? '●' : '○');
      else if (lobby.away) conn = el('span', { class: 'badge away', title: 'away: a bot plays for them' }, '○ away');
      else if (!lobby.connected) conn = el('span', { class: 'badge away', title: 'not connected' }, '○');
      else conn = el('span', { class: 'badge on', title: 'connected' }, '●');
      if (lobby.leaving) conn = el('span', {}, conn, ' ', el('span', { class: 'badge leaving', 'data-testid': 'leaving-badge', title: 'a bot plays for them until the hand ends' }, 'leaving after this hand'));
    }
    const top = vw.top && vw.top[0] === i;
    const score = vw.scores ? vw.scores[i] : null;
    return el('li', { class: classes.join(' '), 'data-testid': 'seat', dataset: { seat: String(i), name } },
      el('div', { class: 's-title' }, titleWithIcon(seat.title)),
      el('div', { class: 's-name' }, name, mine ? ' (you)' : '', ' ', conn),
      el('div', { class: 's-meta' },
        el('span', { class: 's-cards' }, seat.cards + ' ' + plural(seat.cards, 'card', 'cards')),
        score != null ? el('span', { class: 's-score' }, ' · ' + score + ' pts') : null,
        top ? el('span', { class: 's-top' }, ' · on the table') : null),
      flag ? el('div', { class: 's-flag' }, flag) : null);
  });
  $('seats').replaceChildren(...items);
}

function renderPile() {
  const vw = view();
  const pile = $('pile');
  if (vw.top) {
    const [seat, set] = vw.top;
    pile.replaceChildren(
      el('div', { class: 'pile-cards' }, cardFaces(set)),
      el('p', { class: 'pile-text', 'data-testid': 'pile-text' }, playerName(seat) + ' played ' + setWords(set) +
        (vw.passes ? '; ' + vw.passes + ' ' + plural(vw.passes, 'pass', 'passes') + ' since' : '') + '.'));
  } else {
    const words = {
      setup: 'The hand is being set up: ' + (vw.ready || 0) + ' of ' + vw.players + ' ready.',
      play: 'The table is empty: a new round is to be led.',
      over: 'The hand is over.',
    };
    let extra = '';
    if (vw.revolution) extra = ' A ' + (vw.revolution.greater ? 'greater ' : '') + 'revolution was called by ' + playerName(vw.revolution.by) + '.';
    pile.replaceChildren(el('p', { class: 'pile-text', 'data-testid': 'pile-text' }, (words[vw.stage] || '') + extra));
  }
}

/** The set to beat, repeated beside the hand (phones keep it in sight there). */
function renderDockTop() {
  const vw = view();
  const node = $('dock-top');
  if (vw && vw.top && vw.stage === 'play') {
    node.replaceChildren(el('span', { class: 'muted' }, 'To beat: '), cardFaces(vw.top[1]),
      el('span', { class: 'muted dock-by' }, ' by ' + playerName(vw.top[0])));
  } else {
    node.replaceChildren();
  }
}

function renderTurnLine() {
  const s = T.state;
  const vw = s.view;
  const line = $('turn-line');
  // Everyone is to be ready while the hand is set up: only a real choice
  // makes the line yours.
  const mine = !!s.decision && (s.decision.kind !== 'ready' || !!revolutionOffer());
  line.classList.toggle('mine', mine);
  if (s.game_over) { line.textContent = 'The game is over.'; return; }
  if (vw.stage === 'over') { line.textContent = 'Hand ' + s.hand + ' is over.'; return; }
  if (mine) { line.textContent = decisionPrompt(s.decision); return; }
  const others = (vw.to_act || []).filter(i => i !== vw.seat).map(playerName);
  if (s.place) { line.textContent = 'Choose where ' + s.place.name + ' sits.'; return; }
  if (vw.stage === 'setup') { line.textContent = 'The others are getting ready (' + (vw.ready || 0) + ' of ' + vw.players + ').'; return; }
  line.textContent = others.length ? 'Waiting for ' + others.join(', ') + '.' : '';
}

function renderTimers() {
  const s = T.state;
  const timer = $('timer');
  if (T.deadlineAt != null && s && s.decision) {
    const left = Math.max(0, Math.ceil((T.deadlineAt - performance.now()) / 1000));
    timer.textContent = '⏱ ' + left + ' s left';
    timer.classList.toggle('urgent', left <= 10);
    show(timer, true);
  } else {
    show(timer, false);
  }
  const setup = $('setup-timer');
  if (setup) {
    const looking = T.setupAt != null && s && s.view && s.view.stage === 'setup';
    const left = looking ? Math.max(0, Math.ceil((T.setupAt - performance.now()) / 1000)) : 0;
    setup.textContent = left > 0 ? 'Look at your cards: everyone is ready in ' + left + ' s.' : '';
    show(setup, left > 0);
  }
  const next = $('next-deal');
  if (next) {
    const over = s && s.view && s.view.stage === 'over' && !s.game_over;
    if (T.nextDealAt != null) {
      const left = Math.max(0, Math.ceil((T.nextDealAt - performance.now()) / 1000));
      next.textContent = 'Next deal in ' + left + ' s.';
    } else {
      next.textContent = over ? 'The next hand is dealt in a moment.' : '';
    }
  }
}

function renderLog() {
  const vw = view();
  const list = $('log');
  const items = (vw.log || []).map(entry => el('li', { class: 'log-' + entry.event }, logWords(entry, playerName)));
  if (vw.my_tax) {
    items.unshift(el('li', { class: 'log-mine' }, 'Your tax with ' + playerName(vw.my_tax.with) + ': you gave ' +
      (vw.my_tax.gave || 'nothing') + ', you got ' + (vw.my_tax.received || 'nothing') + '.'));
  }
  if (vw.my_trade) {
    items.unshift(el('li', { class: 'log-mine' }, 'Your merchant exchange with ' + playerName(vw.my_trade.with) +
      ': you gave ' + (vw.my_trade.gave || 'nothing') + ', you got ' + (vw.my_trade.received || 'nothing') + '.'));
  }
  if (T.state.dealt) items.unshift(el('li', { class: 'log-mine' }, 'You were dealt ' + T.state.dealt + '.'));
  items.unshift(el('li', { class: 'log-head' }, 'Hand ' + T.state.hand));
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
}

function resultRows(s) {
  const vw = s.view;
  const n = vw.players;
  const totals = new Map((s.totals || []).map(t => [t.name, t.total]));
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
  $('result-title').textContent = current ? 'End of hand ' + r.hand : 'Last hand (' + r.hand + ')';
  const table = el('table', { class: 'result-table' },
    el('caption', { class: 'sr-only' }, 'Finishing order of hand ' + r.hand),
    el('thead', {}, el('tr', {},
      el('th', { scope: 'col' }, 'Place'), el('th', { scope: 'col' }, 'Player'),
      el('th', { scope: 'col' }, 'New title'), r.scored ? el('th', { scope: 'col' }, 'Total points') : null)),
    el('tbody', {}, r.rows.map(row => el('tr', {},
      el('td', {}, ordinal(row.place)), el('td', {}, row.name),
      el('td', {}, titleWithIcon(row.title)), r.scored ? el('td', {}, row.total == null ? '' : String(row.total)) : null))));
  $('result-body').replaceChildren(table,
    el('p', { id: 'next-deal', class: 'next-deal', 'data-testid': 'next-deal' }));
}

function renderGameOver() {
  const s = T.state;
  const box = $('gameover');
  show(box, !!s.game_over);
  if (!s.game_over) return;
  if (box.parentNode !== $('game-main') || box !== $('game-main').firstElementChild) $('game-main').prepend(box);
  let rows;
  if (s.totals && s.totals.length && s.rules && s.rules.scoring !== 'none') {
    rows = [...s.totals].sort((a, b) => b.total - a.total)
      .map(t => el('li', {}, t.name + ': ' + t.total + ' ' + plural(t.total, 'point', 'points')));
  } else if (s.view && s.view.finish_order) {
    rows = s.view.finish_order.map(seat => el('li', {}, playerName(seat)));
  } else {
    rows = [];
  }
  const id = encodeURIComponent(T.id);
  $('gameover-body').replaceChildren(
    el('p', {}, 'Final standings:'),
    el('ol', { class: 'standings', 'data-testid': 'standings' }, rows),
    el('p', {},
      el('a', { href: '#/replay/' + id, class: 'button', 'data-testid': 'replay-link' }, 'Watch the replay'), ' ',
      el('a', { href: '/api/tables/' + id + '/record', download: 'dalmuti-' + T.id + '.json', class: 'button', 'data-testid': 'record-link' }, 'Download the record')));
}

// ====================================================================
// Table: fairness (the seed of each hand, revealed when it is over)
// ====================================================================

function verifyDeals(state) {
  const hands = state.fairness && state.fairness.hands;
  if (!hands || !hands.length) return;
  const dealt = store.dealt(T.id);
  for (const fair of hands) {
    if (!fair.seed || T.fair[fair.hand]) continue;
    const mine = dealt[fair.hand];
    if (!window.DalmutiFairness || typeof window.DalmutiFairness.verifyHand !== 'function') {
      T.fair[fair.hand] = { ok: null, text: 'seed revealed; no verifier loaded' };
      continue;
    }
    T.fair[fair.hand] = { ok: null, text: 'checking…' };
    const tableId = T.id;
    const F = window.DalmutiFairness;
    if (!mine && typeof F.commitmentOf === 'function') {
      // Not dealt here (watching, or seated later): the seed and its commitment only.
      Promise.resolve()
        .then(() => F.commitmentOf(fair.seed))
        .then(hash => {
          if (T.id !== tableId) return;
          const ok = String(hash).toLowerCase() === String(fair.commitment).toLowerCase();
          T.fair[fair.hand] = ok
            ? { ok: true, text: 'the seed matches its commitment (this browser did not see your dealt cards)' }
            : { ok: false, text: 'verification failed: the seed does not match its commitment' };
          renderFair();
        })
        .catch(e => {
          if (T.id !== tableId) return;
          T.fair[fair.hand] = { ok: false, text: 'verification failed: ' + e.message };
          renderFair();
        });
      continue;
    }
    Promise.resolve()
      .then(() => window.DalmutiFairness.verifyHand({
        seed: fair.seed,
        commitment: fair.commitment,
        players: fair.players,
        strippedDeck: !!(state.rules && state.rules.stripped_deck),
        seat: mine ? mine.seat : (state.view ? state.view.seat : null),
        dealt: mine ? mine.dealt : null,
      }))
      .then(result => {
        if (T.id !== tableId) return;
        T.fair[fair.hand] = result && result.ok
          ? { ok: true, text: 'deal verified' }
          : { ok: false, text: 'verification failed: ' + ((result && result.reason) || 'no reason given') };
        if (result && !result.ok) announce('Hand ' + fair.hand + ': the deal could not be verified.');
        renderFair();
      })
      .catch(e => {
        if (T.id !== tableId) return;
        T.fair[fair.hand] = { ok: false, text: 'verification failed: ' + e.message };
        renderFair();
      });
  }
  renderFair();
}

function renderFair() {
  const s = T.state;
  const hands = (s && s.fairness && s.fairness.hands) || [];
  show($('fair'), hands.length > 0);
  const items = hands.slice().reverse().slice(0, 20).map(fair => {
    const result = T.fair[fair.hand];
    let text;
    let cls = '';
    if (!fair.seed) text = 'sealed (commitment ' + String(fair.commitment || '').slice(0, 12) + '…); the seed is shown when the hand ends';
    else if (result) { text = result.text; cls = result.ok === true ? 'ok' : result.ok === false ? 'bad' : ''; }
    else text = 'seed revealed';
    return el('li', { class: 'fair-' + (cls || 'wait'), 'data-testid': 'fair-hand', dataset: { hand: String(fair.hand) } },
      'Hand ' + fair.hand + ': ' + (cls === 'ok' ? '✓ ' : cls === 'bad' ? '✗ ' : '') + text);
  });
  $('fair-list').replaceChildren(...items);
}

// ====================================================================
// Table: your hand and the set you choose
// ====================================================================

function handGroups() {
  const vw = view();
  return vw && vw.hand != null ? groupHand(vw.hand) : [];
}

function countOf(rank) {
  const g = handGroups().find(x => x.rank === rank);
  return g ? g.count : 0;
}

/** How many cards a set must have now (follow), or null (lead, or not your turn). */
function neededCount() {
  const d = decisionOf('follow');
  return d ? parseCards(d.top).length : null;
}

function keepSelectionSane() {
  const sel = T.sel;
  if (sel.rank != null) {
    const c = countOf(sel.rank);
    if (c === 0) { sel.rank = null; sel.n = 0; } else sel.n = Math.min(Math.max(sel.n, 1), c);
  }
  sel.j = Math.min(sel.j, countOf('J'));
}

function selectionCards() {
  const sel = T.sel;
  const cards = [];
  for (let i = 0; i < sel.n; i++) cards.push(sel.rank);
  for (let i = 0; i < sel.j; i++) cards.push('J');
  return cards;
}

/** Why the chosen set cannot be played now, or '' if it can. */
function selectionProblem() {
  const d = decision();
  const cards = selectionCards();
  if (!d || (d.kind !== 'lead' && d.kind !== 'follow')) return 'not your turn to play';
  if (cards.length === 0) return 'choose a rank';
  if (d.kind === 'lead') return '';
  const top = parseCards(d.top);
  if (cards.length !== top.length) return 'you need ' + top.length + ' ' + plural(top.length, 'card', 'cards');
  const topNumbered = top.filter(c => c !== 'J');
  const topRank = topNumbered.length ? rankValue(topNumbered[0]) : 13;
  const myRank = T.sel.n > 0 ? rankValue(T.sel.rank) : 13;
  if (myRank >= topRank) return 'a better (lower) rank than ' + (topNumbered[0] || 'J') + ' is needed';
  return '';
}

function selectionText() {
  const sel = T.sel;
  const parts = [];
  if (sel.n > 0) parts.push(countWord(sel.n) + ' ' + (sel.n === 1 ? RANK_NAMES[sel.rank] : RANK_PLURALS[sel.rank]));
  if (sel.j > 0) parts.push(countWord(sel.j) + ' ' + plural(sel.j, 'Jester', 'Jesters'));
  return parts.join(' + ');
}

function clickGroup(rank) {
  const sel = T.sel;
  const count = countOf(rank);
  if (!count) return;
  if (rank === 'J') {
    sel.j = (sel.j + 1) % (count + 1);
    const need = neededCount();
    if (need != null && sel.n + sel.j > need && sel.j > 0 && sel.n > 0) sel.n = Math.max(1, need - sel.j);
  } else if (sel.rank === rank) {
    sel.rank = null;
    sel.n = 0;
  } else {
    const need = neededCount();
    sel.rank = rank;
    sel.n = need != null ? Math.max(1, Math.min(count, need - sel.j)) : count;
    if (need != null && sel.n + sel.j > need) sel.j = Math.max(0, need - sel.n);
  }
  renderHand();
  renderActions();
}

function adjustSelection(delta) {
  const sel = T.sel;
  if (sel.rank != null) {
    sel.n = Math.min(Math.max(sel.n + delta, 1), countOf(sel.rank));
  } else if (sel.j > 0 || delta > 0) {
    sel.j = Math.min(Math.max(sel.j + delta, 0), countOf('J'));
  }
  renderHand();
  renderActions();
}

function clearSelection() {
  T.sel = { rank: null, n: 0, j: 0 };
  renderHand();
  renderActions();
}

let handKey = '';

function renderHand() {
  const groups = handGroups();
  const sel = T.sel;
  // Unchanged hand and choice: keep the DOM, so a key press or a screen
  // reader is not interrupted by a message that changed nothing here.
  const key = JSON.stringify([T.id, view() && view().hand, sel]);
  if (key === handKey && $('hand').childElementCount) return;
  handKey = key;
  const buttons = groups.map(g => {
    const chosen = g.rank === 'J' ? sel.j : (sel.rank === g.rank ? sel.n : 0);
    const label = cardName(g.rank) + ' (' + g.rank + '), ' + g.count + ' ' + plural(g.count, 'card', 'cards') +
      (chosen ? ', ' + chosen + ' chosen' : '');
    const stack = [];
    for (let i = 0; i < Math.min(g.count, 4); i++) stack.push(el('span', { class: 'stack-edge', 'aria-hidden': 'true' }));
    return el('button', {
      type: 'button',
      class: 'card group r' + g.rank + (chosen ? ' chosen' : ''),
      'aria-pressed': chosen ? 'true' : 'false',
      'aria-label': label,
      'data-testid': 'card-group',
      dataset: { key: 'g-' + g.rank, rank: g.rank, count: String(g.count) },
      onclick: () => clickGroup(g.rank),
    },
    el('span', { class: 'card-rank', 'aria-hidden': 'true' }, g.rank),
    el('span', { class: 'card-name', 'aria-hidden': 'true' }, RANK_NAMES[g.rank]),
    el('span', { class: 'card-count', 'aria-hidden': 'true' }, chosen ? chosen + '/' + g.count : '×' + g.count),
    el('span', { class: 'stack', 'aria-hidden': 'true' }, stack));
  });
  if (!groups.length) buttons.push(el('p', { class: 'muted' }, view() && view().hand != null ? 'No cards left.' : ''));
  const hand = $('hand');
  replaceKeepingFocus(hand, buttons);
  // Roving order: the chosen group (or the first) is where Tab lands.
  const focusable = hand.querySelectorAll('button.group');
  focusable.forEach((b, i) => { b.tabIndex = (b.getAttribute('aria-pressed') === 'true' || (i === 0 && !hand.querySelector('[aria-pressed="true"]'))) ? 0 : -1; });
  if (document.activeElement && hand.contains(document.activeElement)) document.activeElement.tabIndex = 0;
}

function renderActions() {
  const s = T.state;
  const d = s && s.decision;
  const playing = d && (d.kind === 'lead' || d.kind === 'follow');
  const online = !!(T.ws && T.ws.readyState === WebSocket.OPEN);
  const problem = selectionProblem();
  const cards = selectionCards();
  const play = $('play-btn');
  const pass = $('pass-btn');
  play.disabled = !(playing && !problem && online && !T.pending);
  play.textContent = cards.length && !problem ? 'Play ' + cards.join(' ') : 'Play';
  play.setAttribute('aria-label', cards.length && !problem ? 'Play ' + selectionText() : 'Play');
  pass.disabled = !(d && d.kind === 'follow' && online && !T.pending);
  const desc = $('sel-desc');
  if (!s || !s.view) { desc.textContent = ''; return; }
  if (cards.length) desc.textContent = 'Chosen: ' + selectionText() + (problem && playing ? ' (' + problem + ')' : '') + '.';
  else if (d && d.kind === 'follow') desc.textContent = 'Choose ' + parseCards(d.top).length + ' ' + plural(parseCards(d.top).length, 'card', 'cards') + ' better than ' + setWords(d.top) + ', or pass.';
  else if (d && d.kind === 'lead') desc.textContent = 'Lead: choose any rank.';
  else desc.textContent = 'Choose a rank.';
  const sel = T.sel;
  $('sel-less').disabled = !(sel.rank != null ? sel.n > 1 : sel.j > 0);
  $('sel-more').disabled = !(sel.rank != null ? sel.n < countOf(sel.rank) : sel.j > 0 && sel.j < countOf('J'));
  $('dock').classList.toggle('my-turn', !!playing);
  $('dock').dataset.pending = String(T.pending);
}

function sendAct(action) {
  if (T.pending) return;
  if (!send({ t: 'act', v: T.v, d: action })) {
    showError('Not connected: reconnecting, try again in a moment.');
    return;
  }
  T.pending = true;
  setError($('t-error'), '');
  setNotice('');
  renderActions();
  renderDecision();
}

function onPlay() {
  if ($('play-btn').disabled) return;
  const cards = selectionCards();
  T.sel = { rank: null, n: 0, j: 0 };
  sendAct({ play: cards.join(' ') });
}

function onPass() {
  if ($('pass-btn').disabled) return;
  T.sel = { rank: null, n: 0, j: 0 };
  sendAct('pass');
}

// ====================================================================
// Table: dialogs (revolution, tax, merchant exchange, placing a newcomer)
// ====================================================================

let decisionDomKey = '';

function renderDecision() {
  const s = T.state;
  const d = s && s.decision;
  const box = $('decision');
  let title = '';
  let body = null;
  if (s && s.place) {
    [title, body] = placeDialog(s.place);
  } else if (d) {
    if (d.kind === 'ready') [title, body] = revolutionDialog();
    else if (d.kind === 'tax') [title, body] = taxDialog(d);
    else if (d.kind === 'offer_exchange' || d.kind === 'exchange_offer') [title, body] = offerDialog(d);
    else if (d.kind === 'answer_exchange' || d.kind === 'exchange_answer') [title, body] = answerDialog(d);
  }
  const wasHidden = box.hidden;
  show(box, !!body);
  $('game-main').classList.toggle('dialog-open', !!body);
  if (!body) { box.dataset.kind = ''; return; }
  box.dataset.kind = s.place ? 'place' : d.kind;
  box.dataset.count = d && d.count != null ? String(d.count) : '';
  box.dataset.pending = String(T.pending);
  $('decision-title').textContent = title;
  const key = JSON.stringify([T.id, s.hand, d, s.place, view() && view().hand, T.tax, T.exchange, T.answer, T.pending]);
  if (key !== decisionDomKey || wasHidden) {
    decisionDomKey = key;
    replaceKeepingFocus($('decision-body'), [body]);
  }
  if (wasHidden) {
    const active = document.activeElement;
    const busy = active && (active.tagName === 'INPUT' || active.tagName === 'TEXTAREA' || active.tagName === 'SELECT');
    if (!busy) {
      const first = box.querySelector('button:not([disabled])');
      if (first) first.focus({ preventScroll: false });
    }
  }
}

function buttonRow(...buttons) {
  return el('div', { class: 'button-row' }, buttons);
}

/** The revolution a player dealt both Jesters may call, if this is them. */
function revolutionOffer() {
  const vw = view();
  return vw && vw.revolution_offer;
}

function callRevolutionButton(offer, label) {
  return el('button', { type: 'button', 'data-testid': 'call-revolution', dataset: { key: 'rev-call' }, disabled: T.pending, onclick: () => sendAct('call_revolution') },
    label || (offer.greater ? 'Call a greater revolution' : 'Call a revolution'));
}

/**
 * Saying ready is the table's to do (docs/PROTOCOL.md): when the setup
 * pause ends, everyone is. Only a player dealt both Jesters has a dialog, to
 * call a revolution first; keeping quiet is saying nothing, so "Keep quiet"
 * only closes the dialog here and sends nothing.
 */
function revolutionDialog() {
  const offer = revolutionOffer();
  if (!offer || T.quietHand === T.state.hand) return ['', null];
  const text = offer.greater
    ? 'You are the Greater Peon and hold both Jesters. A greater revolution cancels the taxes and reverses the seating for this hand: you become the Greater Dalmuti.'
    : 'You hold both Jesters. A revolution cancels the taxes for this hand.';
  return ['Revolution?', el('div', {},
    el('p', {}, text),
    el('p', { class: 'muted' }, 'Call it before the hand starts, or keep quiet: nobody will know you hold them.'),
    buttonRow(
      callRevolutionButton(offer),
      el('button', { type: 'button', 'data-testid': 'keep-quiet', dataset: { key: 'rev-no' }, onclick: () => { T.quietHand = T.state.hand; render(); } }, 'Keep quiet')))];
}

/** Under a tax or exchange dialog: the revolution its holder may call instead. */
function revolutionInstead() {
  const offer = revolutionOffer();
  return offer
    ? el('p', { class: 'muted' }, 'You hold both Jesters: ',
      callRevolutionButton(offer, offer.greater ? 'call a greater revolution instead' : 'call a revolution instead'), '.')
    : null;
}

function taxDialog(d) {
  const cards = parseCards(view().hand);
  const chosen = new Set(T.tax.filter(i => i < cards.length));
  const buttons = cards.map((token, i) => el('button', {
    type: 'button', class: 'card pick r' + token + (chosen.has(i) ? ' chosen' : ''),
    'aria-pressed': chosen.has(i) ? 'true' : 'false',
    'aria-label': cardName(token) + ' (' + token + ')',
    'data-testid': 'tax-card', dataset: { key: 'tax-' + i, rank: token },
    onclick: () => {
      const at = T.tax.indexOf(i);
      if (at >= 0) T.tax.splice(at, 1);
      else {
        T.tax.push(i);
        while (T.tax.length > d.count) T.tax.shift();
      }
      renderDecision();
    },
  }, el('span', { class: 'card-rank', 'aria-hidden': 'true' }, token), el('span', { class: 'card-name', 'aria-hidden': 'true' }, RANK_NAMES[token])));
  const gift = T.tax.map(i => cards[i]).sort((a, b) => rankValue(a) - rankValue(b));
  const ready = gift.length === d.count;
  return ['Pay your tax', el('div', {},
    el('p', {}, 'Choose ' + countWord(d.count) + ' ' + plural(d.count, 'card', 'cards') + ' to give ' + playerName(d.to) +
      '. They give you their ' + plural(d.count, 'best card', countWord(d.count) + ' best cards') + '.'),
    el('div', { class: 'pick-row', role: 'group', 'aria-label': 'Your cards' }, buttons),
    buttonRow(el('button', {
      type: 'button', class: 'primary', 'data-testid': 'give-tax', dataset: { key: 'tax-give' },
      disabled: !ready || T.pending, onclick: () => sendAct({ give_tax: gift.join(' ') }),
    }, ready ? 'Give ' + gift.join(' ') : 'Give (' + gift.length + ' of ' + d.count + ' chosen)')),
    revolutionInstead())];
}

function distinctRankButtons(selected, onPick, testid) {
  return groupHand(view().hand).map(g => el('button', {
    type: 'button', class: 'card pick r' + g.rank + (selected === g.rank ? ' chosen' : ''),
    'aria-pressed': selected === g.rank ? 'true' : 'false',
    'aria-label': cardName(g.rank) + ' (' + g.rank + '), ' + g.count + ' ' + plural(g.count, 'card', 'cards'),
    'data-testid': testid, dataset: { key: testid + '-' + g.rank, rank: g.rank },
    onclick: () => onPick(g.rank),
  }, el('span', { class: 'card-rank', 'aria-hidden': 'true' }, g.rank), el('span', { class: 'card-name', 'aria-hidden': 'true' }, RANK_NAMES[g.rank])));
}

function offerDialog() {
  const vw = view();
  // Any other Merchant (docs/RULES.md, Merchant exchange).
  const partners = vw.seats.map((seat, i) => ({ seat, i }))
    .filter(x => x.i !== vw.seat && x.seat.title === 'Merchant');
  const ex = T.exchange;
  if (ex.partner != null && !partners.some(x => x.i === ex.partner)) ex.partner = null;
  if (ex.card != null && !countOf(ex.card)) ex.card = null;
  if (ex.partner == null && partners.length === 1) ex.partner = partners[0].i;
  const partnerButtons = partners.map(x => el('button', {
    type: 'button', class: 'choice' + (ex.partner === x.i ? ' chosen' : ''),
    'aria-pressed': ex.partner === x.i ? 'true' : 'false', 'data-testid': 'exchange-partner',
    dataset: { key: 'partner-' + x.i }, onclick: () => { ex.partner = x.i; renderDecision(); },
  }, playerName(x.i)));
  const ready = ex.partner != null && ex.card != null;
  return ['Merchant exchange', el('div', {},
    el('p', {}, 'As the highest Merchant you may trade one card, face down, with another Merchant: each of you gives the other one card at the same time. Or let the exchange go.'),
    el('p', { class: 'label' }, 'To whom:'),
    el('div', { class: 'pick-row', role: 'group', 'aria-label': 'Partner' }, partnerButtons),
    el('p', { class: 'label' }, 'Which card:'),
    el('div', { class: 'pick-row', role: 'group', 'aria-label': 'Card to offer' },
      distinctRankButtons(ex.card, rank => { ex.card = rank; renderDecision(); }, 'exchange-card')),
    buttonRow(
      el('button', {
        type: 'button', class: 'primary', 'data-testid': 'offer-exchange', dataset: { key: 'offer' },
        disabled: !ready || T.pending,
        onclick: () => {
          sendAct({ offer_exchange: { partner: ex.partner, card: ex.card } });
          if (T.pending) T.exchange = { partner: null, card: null };
        },
      }, ready ? 'Offer a ' + cardName(ex.card) + ' to ' + playerName(ex.partner) : 'Offer'),
      el('button', { type: 'button', 'data-testid': 'decline-exchange', dataset: { key: 'decline' }, disabled: T.pending, onclick: () => sendAct('decline_exchange') }, 'No exchange')),
    revolutionInstead())];
}

function answerDialog(d) {
  // Both cards are given face down at the same time (docs/RULES.md,
  // Merchant exchange): what the partner offers is not known until the
  // exchange settles, and then it shows in the log (my_trade).
  return ['Merchant exchange', el('div', {},
    el('p', {}, playerName(d.from) + ' chose you for the merchant exchange and gives you one card, face down. ' +
      'Choose one of yours to give ' + playerName(d.from) + ' in return: you both see what you got once the exchange is made.'),
    el('div', { class: 'pick-row', role: 'group', 'aria-label': 'Card to give back' },
      distinctRankButtons(T.answer, rank => { T.answer = rank; renderDecision(); }, 'answer-card')),
    buttonRow(el('button', {
      type: 'button', class: 'primary', 'data-testid': 'answer-exchange', dataset: { key: 'answer' },
      disabled: T.answer == null || T.pending || !countOf(T.answer),
      onclick: () => { const card = T.answer; T.answer = null; sendAct({ answer_exchange: card }); },
    }, T.answer != null ? 'Give ' + playerName(d.from) + ' a ' + cardName(T.answer) : 'Give a card')))];
}

/**
 * The seating of the coming hand before the newcomer sits (by finishing
 * order, without those who left, with the newcomers seated so far), or
 * null when it cannot be told.
 */
function nextSeating() {
  const s = T.state;
  const vw = s.view;
  if (!vw || vw.stage !== 'over' || !vw.finish_order) return null;
  const names = vw.finish_order.map(playerName).filter(name => {
    const x = lobbyEntry(name);
    return x && !x.waiting;
  });
  for (const j of T.joined) {
    if (names.includes(j.name) || j.seat > names.length) return null;
    names.splice(j.seat, 0, j.name);
  }
  const seated = (s.lobby || []).filter(x => !x.waiting).length;
  return names.length === seated ? names : null;
}

function placeDialog(place) {
  const players = nextSeating() || [];
  const buttons = (place.seats || []).map(k => el('button', {
    type: 'button', class: 'choice', 'data-testid': 'place-seat', dataset: { key: 'place-' + k },
    disabled: T.pending,
    onclick: () => {
      if (T.pending) return;
      if (send({ t: 'place', v: T.v, d: { name: place.name, seat: k } })) { T.pending = true; renderDecision(); }
    },
  }, 'Seat ' + (k + 1) + (players[k - 1] ? ', after ' + players[k - 1] : '') + (players[k] ? ', before ' + players[k] : '')));
  return ['Place ' + place.name, el('div', {},
    el('p', {}, place.name + ' joins the game as a Merchant halfway down. As the Greater Dalmuti of the coming hand you choose where' +
      (players.length ? ' (seat 1 is yours; the order is this hand\u2019s finishing order)' : '') + '.'),
    buttonRow(...buttons))];
}

// ====================================================================
// Chat
// ====================================================================

function onChat(event) {
  event.preventDefault();
  const input = $('chat-input');
  const text = input.value.trim();
  if (!text) return;
  if (send({ t: 'chat', d: text.slice(0, 500) })) input.value = '';
  else showError('Not connected: the message was not sent.');
}

// ====================================================================
// Replay
// ====================================================================

const R = { id: null, data: null, i: 0 };

async function showReplay(id) {
  document.title = 'Replay · The Great Dalmuti';
  show($('conn'), false);
  R.id = id;
  R.data = null;
  R.i = 0;
  setError($('r-error'), '');
  $('r-record').href = '/api/tables/' + encodeURIComponent(id) + '/record';
  $('r-record').setAttribute('download', 'dalmuti-' + id + '.json');
  $('r-seats').replaceChildren();
  $('r-event').textContent = 'Loading…';
  try {
    const [info, data] = await Promise.all([
      api('GET', '/api/tables/' + encodeURIComponent(id)).catch(() => null),
      api('GET', '/api/tables/' + encodeURIComponent(id) + '/replay'),
    ]);
    if (route.view !== 'replay' || route.id !== id) return;
    R.data = data;
    $('r-title').textContent = 'Replay' + (info && info.name ? ': ' + info.name : '');
    const frames = data.frames || [];
    $('r-slider').max = String(Math.max(0, frames.length - 1));
    renderFrame(0);
  } catch (e) {
    $('r-event').textContent = '';
    setError($('r-error'), e.status === 409 ? 'This game is not over yet: its replay comes when it ends.' : 'Could not load the replay: ' + e.message);
  }
}

function renderFrame(i) {
  const frames = (R.data && R.data.frames) || [];
  if (!frames.length) { $('r-pos').textContent = 'No steps.'; return; }
  R.i = Math.min(Math.max(i, 0), frames.length - 1);
  const f = frames[R.i];
  const players = f.players || R.data.players || [];
  const vw = f.view || {};
  $('r-pos').textContent = 'Hand ' + f.hand + ' · step ' + (R.i + 1) + ' of ' + frames.length;
  $('r-pos').dataset.step = String(R.i);
  $('r-slider').value = String(R.i);
  $('r-event').textContent = f.e ? eventWords(f.e, players) : (R.i === 0 ? 'The start.' : '');
  $('r-first').disabled = $('r-prev').disabled = R.i === 0;
  $('r-next').disabled = $('r-last').disabled = R.i === frames.length - 1;
  const pile = $('r-pile');
  if (vw.top) {
    pile.replaceChildren(el('div', { class: 'pile-cards' }, cardFaces(vw.top[1])),
      el('p', { class: 'pile-text' }, (players[vw.top[0]] || 'seat ' + (vw.top[0] + 1)) + ' played ' + setWords(vw.top[1]) + '.'));
  } else {
    pile.replaceChildren(el('p', { class: 'pile-text' }, vw.stage === 'over' ? 'The hand is over.' : 'Nothing on the table.'));
  }
  const toAct = new Set(vw.to_act || []);
  const hands = f.hands || [];
  const count = Math.max(players.length, hands.length);
  const items = [];
  for (let s = 0; s < count; s++) {
    const seat = (vw.seats && vw.seats[s]) || {};
    const flag = seat.out != null ? 'out ' + ordinal(seat.out + 1) : toAct.has(s) ? 'to act' : '';
    items.push(el('li', { class: 'seat r-seat' + (toAct.has(s) ? ' to-act' : '') + (seat.out != null ? ' out' : '') },
      el('div', { class: 's-title' }, seat.title ? titleWithIcon(seat.title) : ''),
      el('div', { class: 's-name' }, players[s] || 'seat ' + (s + 1), flag ? el('span', { class: 's-flag' }, ' · ' + flag) : null),
      el('div', { class: 's-meta' }, parseCards(hands[s]).length + ' ' + plural(parseCards(hands[s]).length, 'card', 'cards')),
      el('div', { class: 'r-hand', 'aria-label': (players[s] || 'seat') + '\u2019s cards: ' + (hands[s] || 'none') },
        parseCards(hands[s]).map(t => cardFace(t)))));
  }
  $('r-seats').replaceChildren(...items);
}

// ====================================================================
// Keyboard
// ====================================================================

function typingIn(target) {
  return target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT' || target.isContentEditable);
}

function onKeydown(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (typingIn(event.target)) return;
  const key = event.key;
  if (key === '?') { toggleHelp(); event.preventDefault(); return; }
  if (key === 'Escape') {
    if (!$('help').hidden) { toggleHelp(false); event.preventDefault(); return; }
    if (route.view === 'table') clearSelection();
    return;
  }
  if (route.view === 'replay') {
    const moves = { ArrowLeft: R.i - 1, ArrowRight: R.i + 1, Home: 0, End: Infinity };
    if (key in moves && R.data) {
      renderFrame(moves[key] === Infinity ? R.data.frames.length - 1 : moves[key]);
      event.preventDefault();
    }
    return;
  }
  if (route.view !== 'table' || !T.state || !T.state.view) return;
  const inHand = $('hand').contains(event.target);
  if (inHand && ['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(key)) {
    const buttons = [...$('hand').querySelectorAll('button.group')];
    const at = buttons.indexOf(event.target);
    let next = at;
    if (key === 'ArrowLeft') next = Math.max(0, at - 1);
    if (key === 'ArrowRight') next = Math.min(buttons.length - 1, at + 1);
    if (key === 'Home') next = 0;
    if (key === 'End') next = buttons.length - 1;
    if (buttons[next]) {
      buttons.forEach(b => { b.tabIndex = -1; });
      buttons[next].tabIndex = 0;
      buttons[next].focus();
    }
    event.preventDefault();
    return;
  }
  if (inHand && (key === 'ArrowUp' || key === 'ArrowDown')) {
    const rank = event.target.dataset.rank;
    if (rank === 'J') adjustJesters(key === 'ArrowUp' ? 1 : -1);
    else if (rank && T.sel.rank !== rank) clickGroup(rank);
    else adjustSelection(key === 'ArrowUp' ? 1 : -1);
    event.preventDefault();
    return;
  }
  if (key === 'p' || key === 'P') { onPlay(); event.preventDefault(); }
  else if (key === 'x' || key === 'X') { onPass(); event.preventDefault(); }
  else if (key === 'j' || key === 'J') { clickGroup('J'); event.preventDefault(); }
}

function adjustJesters(delta) {
  T.sel.j = Math.min(Math.max(T.sel.j + delta, 0), countOf('J'));
  renderHand();
  renderActions();
}

function toggleHelp(force) {
  const help = $('help');
  const open = force === undefined ? help.hidden : force;
  help.hidden = !open;
  $('help-toggle').setAttribute('aria-expanded', String(open));
  if (open) $('help-close').focus();
  else $('help-toggle').focus();
}

// ====================================================================
// Timers and start-up
// ====================================================================

function tick() {
  if (route.view === 'table' && T.state) renderTimers();
}

function init() {
  $('create-form').addEventListener('submit', onCreate);
  $('lobby-refresh').addEventListener('click', loadLobby);
  $('join-form').addEventListener('submit', onJoin);
  $('add-bot').addEventListener('click', onAddBot);
  $('start-game').addEventListener('click', onStart);
  $('leave-btn').addEventListener('click', onLeave);
  $('prestart-leave').addEventListener('click', onLeave);
  $('invite-copy').addEventListener('click', onCopyInvite);
  $('forget-seat').addEventListener('click', () => { store.dropToken(T.id); show($('t-lost'), false); reconnectNow(); });
  $('play-btn').addEventListener('click', onPlay);
  $('pass-btn').addEventListener('click', onPass);
  $('sel-less').addEventListener('click', () => adjustSelection(-1));
  $('sel-more').addEventListener('click', () => adjustSelection(1));
  $('chat-form').addEventListener('submit', onChat);
  $('help-toggle').addEventListener('click', () => toggleHelp());
  $('help-close').addEventListener('click', () => toggleHelp(false));
  $('r-first').addEventListener('click', () => renderFrame(0));
  $('r-prev').addEventListener('click', () => renderFrame(R.i - 1));
  $('r-next').addEventListener('click', () => renderFrame(R.i + 1));
  $('r-last').addEventListener('click', () => renderFrame(Infinity));
  $('r-slider').addEventListener('input', e => renderFrame(Number(e.target.value)));
  document.addEventListener('keydown', onKeydown);
  window.addEventListener('hashchange', onRoute);
  document.addEventListener('visibilitychange', () => {
    // Back on the page: reconnect at once rather than waiting out the backoff.
    if (!document.hidden && route.view === 'table' && T.wanted && !T.ws) reconnectNow();
  });
  setInterval(tick, 250);
  // For tests and curious people: the client's state, read only.
  window.dalmutiClient = { table: T, replay: R, BOT_LEVELS };
  onRoute();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
else init();

})();
