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

// The two games this client plays: the rules' `variant` chooses the words
// (card names, titles, taxes) and a few cards of its own. Tokens are the
// records' (docs/PROTOCOL.md, Corporate Shuffle).
const VARIANTS = {
  dalmuti: {
    game: 'The Great Dalmuti',
    wild: 'J',
    names: {
      1: 'Dalmuti', 2: 'Archbishop', 3: 'Earl Marshal', 4: 'Baroness', 5: 'Abbess',
      6: 'Knight', 7: 'Seamstress', 8: 'Mason', 9: 'Cook', 10: 'Shepherdess',
      11: 'Stonecutter', 12: 'Peasant', J: 'Jester',
    },
    plurals: {
      1: 'Dalmutis', 2: 'Archbishops', 3: 'Earl Marshals', 4: 'Baronesses', 5: 'Abbesses',
      6: 'Knights', 7: 'Seamstresses', 8: 'Masons', 9: 'Cooks', 10: 'Shepherdesses',
      11: 'Stonecutters', 12: 'Peasants', J: 'Jesters',
    },
    // By place: first, second, the middle, second last, last.
    titles: ['Greater Dalmuti', 'Lesser Dalmuti', 'Merchant', 'Lesser Peon', 'Greater Peon'],
    taxes: 'taxes',
    inTax: 'in tax',
    payTax: 'Pay your tax',
    revolution: 'revolution',
    exchange: 'merchant exchange',
  },
  'corporate-shuffle': {
    game: 'Corporate Shuffle',
    wild: 'D',
    names: {
      0: 'Dogbert, World Ruler', 1: 'CEO', 2: 'Vice President', 3: 'Consultant', 4: 'Lawyer',
      5: 'Human Resources', 6: 'Accounting', 7: 'Manager', 8: 'Sales', 9: 'Marketing',
      10: 'Engineer', T: 'Twirling Wedgie', R: 'Ratbert', D: 'Dogbert',
    },
    plurals: {
      0: 'Dogberts, World Rulers', 1: 'CEOs', 2: 'Vice Presidents', 3: 'Consultants', 4: 'Lawyers',
      5: 'Human Resources', 6: 'Accounting', 7: 'Managers', 8: 'Sales', 9: 'Marketing',
      10: 'Engineers', T: 'Twirling Wedgies', R: 'Ratberts', D: 'Dogberts',
    },
    titles: ['Big Boss', 'Little Boss', 'Worker', 'Senior Intern', 'Junior Intern'],
    taxes: 'executive bonuses',
    inTax: 'as an executive bonus',
    payTax: 'Executive bonus',
    revolution: 'corporate takeover',
    exchange: 'Worker exchange',
  },
};
const COUNT_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven',
  'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen'];
const TITLE_ICONS = {
  'Greater Dalmuti': '👑', 'Lesser Dalmuti': '🎩', 'Merchant': '⚖️',
  'Lesser Peon': '🧺', 'Greater Peon': '👒',
  'Big Boss': '💼', 'Little Boss': '👔', 'Worker': '🖥️',
  'Senior Intern': '☕', 'Junior Intern': '📎',
};
const BOT_LEVELS = ['random', 'greedy', 'heuristic', 'search'];

/** The game on screen (a table's, a replay's): its word, as rules.variant. */
let variant = 'dalmuti';

function setVariant(word) {
  variant = word && VARIANTS[word] ? word : 'dalmuti';
}

/** The words of the game on screen. */
function V() {
  return VARIANTS[variant];
}

function isCorporate() {
  return variant === 'corporate-shuffle';
}

/** Card tokens of a card string ("1 3 3 J" → ["1","3","3","J"]); a set's `as V` is not a card. */
function parseCards(text) {
  if (!text) return [];
  return String(text).split(' as ')[0].trim().split(/\s+/).filter(Boolean);
}

/** The value declared for Dogberts alone ("D D as 3" → 3), or null. */
function declaredValue(set) {
  const parts = String(set || '').split(' as ');
  return parts.length > 1 ? Number(parts[1]) : null;
}

function isWild(token) {
  return token === 'J' || token === 'D';
}

/**
 * A card's value as a number, lower is better: the number, 6 for the
 * Twirling Wedgie, 11 for Ratbert, 13 for a Jester or Dogbert (wild: no
 * value of its own).
 */
function rankValue(token) {
  if (token === 'T') return 6;
  if (token === 'R') return 11;
  if (isWild(token)) return 13;
  return Number(token);
}

/** Where a card sits in a hand: by value, the Wedgie after the 6s, wild cards last. */
function sortKey(token) {
  return rankValue(token) + (token === 'T' || token === 'R' ? 0.5 : 0);
}

/** The value a played set is compared by: `as V`, its numbered cards', or 13 for Jesters alone. */
function setValue(set) {
  const declared = declaredValue(set);
  if (declared != null) return declared;
  const plain = parseCards(set).filter(t => !isWild(t));
  return plain.length ? rankValue(plain[0]) : 13;
}

function cardName(token) {
  return V().names[token] || VARIANTS.dalmuti.names[token] || ('card ' + token);
}

function cardPlural(token) {
  return V().plurals[token] || VARIANTS.dalmuti.plurals[token] || ('cards ' + token);
}

function countWord(n) {
  return COUNT_WORDS[n] || String(n);
}

function plural(n, one, many) {
  return n === 1 ? one : many;
}

/**
 * Words for a set: "three Knights (6 6 J)", "two Dogberts as Lawyers
 * (D D as 4)", "one Twirling Wedgie (T)".
 */
function setWords(set) {
  const cards = parseCards(set);
  if (cards.length === 0) return 'nothing';
  const n = cards.length;
  const shown = ' (' + String(set).trim() + ')';
  const declared = declaredValue(set);
  if (declared != null) {
    return countWord(n) + ' ' + plural(n, cardName(cards[0]), cardPlural(cards[0])) + ' as ' +
      plural(n, cardName(String(declared)), cardPlural(String(declared))) + shown;
  }
  const plain = cards.filter(c => !isWild(c) && c !== 'T');
  // The Wedgie is a 6: with other cards the set is named as 6s.
  let rank = plain.length ? plain[0] : cards.includes('T') ? (n === 1 ? 'T' : '6') : cards[0];
  return countWord(n) + ' ' + (n === 1 ? cardName(rank) : cardPlural(rank)) + shown;
}

/** A hand grouped by card, best first, wild cards last: [{rank, count}]. */
function groupHand(hand) {
  const counts = new Map();
  for (const c of parseCards(hand)) counts.set(c, (counts.get(c) || 0) + 1);
  return [...counts.entries()]
    .map(([rank, count]) => ({ rank, count }))
    .sort((a, b) => sortKey(a.rank) - sortKey(b.rank));
}

function ordinal(n) {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] || 'th');
  return n + s;
}

/** The title of a seat of play, as the rules engine names it in this game. */
function titleOf(seat, players) {
  const t = V().titles;
  if (seat === 0) return t[0];
  if (seat + 1 === players) return t[4];
  if (players >= 4 && seat === 1) return t[1];
  if (players >= 4 && seat + 2 === players) return t[3];
  return t[2];
}

/** The middle title: Merchant, or Worker. */
function middleTitle() {
  return V().titles[2];
}

function titleWithIcon(title) {
  return (TITLE_ICONS[title] ? TITLE_ICONS[title] + ' ' : '') + title;
}

/** A seat's name in the words of a message, from the players by seat. */
function seatName(players, seat) {
  return players && seat != null ? players[seat] || ('seat ' + (seat + 1)) : 'someone';
}

/** Words for a player's action. */
function actionWords(action, players) {
  if (action === 'pass') return 'passed';
  if (action === 'call_revolution') return 'called a ' + V().revolution;
  if (action === 'ready') return 'is ready';
  if (action === 'decline_exchange') return 'let the ' + V().exchange + ' go';
  if (action && typeof action === 'object') {
    if ('play' in action) {
      return 'played ' + setWords(action.play) +
        (action.wedgie != null ? ', making ' + seatName(players, action.wedgie) + ' pass for the rest of the trick' : '');
    }
    if ('give_tax' in action) {
      if (action.give_tax) return 'gave ' + action.give_tax + ' ' + V().inTax;
      return isCorporate() ? 'gave an executive bonus' : 'paid the tax';
    }
    if ('offer_exchange' in action) {
      const o = action.offer_exchange || {};
      const who = players && o.partner != null ? players[o.partner] || ('seat ' + o.partner) : 'another ' + middleTitle();
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

/** Whether a log entry is one of Corporate Shuffle's specials at work: news worth a line of its own. */
function isSpecial(entry) {
  if (entry.event === 'ratbert_taken') return true;
  if (entry.event !== 'played') return false;
  return entry.wedgie != null || parseCards(entry.set).includes('0');
}

/** Words for one entry of a view's log; `who(seat)` names a seat. */
function logWords(entry, who) {
  const words = V();
  switch (entry.event) {
    case 'revolution_called':
      return who(entry.seat) + ' called a ' + (entry.greater ? 'greater ' : '') + words.revolution +
        ': no ' + words.taxes + ' this hand' + (entry.greater ? ', and the seating is reversed.' : '.');
    case 'revolution_declined':
      // Only the holder ever sees this entry.
      return who(entry.seat) + ' held both ' + cardPlural(words.wild) + ' and kept quiet: nobody else knows.';
    case 'tax_paid': {
      let s = who(entry.dalmuti) + ' and ' + who(entry.peon) + ' exchanged ' + entry.cards +
        ' ' + plural(entry.cards, 'card', 'cards') + ' ' + (isCorporate() ? 'in executive bonuses' : 'in tax');
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
    case 'exchange_declined': return who(entry.seat) + ' let the ' + words.exchange + ' go.';
    case 'played':
      if (entry.wedgie != null) {
        const set = String(entry.set);
        return who(entry.seat) + ' plays the Twirling Wedgie' + (set === 'T' ? '' : ' in ' + setWords(set)) +
          ': ' + who(entry.wedgie) + ' must pass for the rest of the trick.';
      }
      if (parseCards(entry.set).includes('0')) {
        return who(entry.seat) + ' plays Dogbert, World Ruler: the trick is won at once.';
      }
      return who(entry.seat) + ' played ' + setWords(entry.set) + '.';
    case 'passed': return who(entry.seat) + ' passed.';
    case 'went_out': return who(entry.seat) + ' is out, ' + ordinal(entry.place + 1) + '.';
    case 'round_won':
      // In Corporate Shuffle a trick also ends at the World Ruler, or when
      // everyone left is wedged: not always "everyone passed".
      return isCorporate()
        ? who(entry.seat) + ' wins the trick; ' + who(entry.leader) + ' leads.'
        : 'Everyone passed on ' + who(entry.seat) + '\u2019s set; ' + who(entry.leader) + ' leads.';
    case 'ratbert_taken': return 'Ratbert goes back to ' + who(entry.seat) + '.';
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
  const game = info.variant && VARIANTS[info.variant] && info.variant !== 'dalmuti' ? ' · ' + VARIANTS[info.variant].game : '';
  const link = finished
    ? el('a', { href: '#/replay/' + encodeURIComponent(info.id), class: 'button small', 'data-testid': 'replay-link' }, 'Replay')
    : el('a', { href: '#/t/' + encodeURIComponent(info.id), class: 'button small' + (mine ? ' primary' : '') },
      mine ? 'Back to my seat' : info.started ? 'Watch or join' : 'Join');
  return el('li', { class: 'table-item', dataset: { table: info.id } },
    el('div', { class: 'ti-main' },
      el('strong', {}, info.name),
      el('span', { class: 'muted', 'data-testid': 'table-summary' }, game + ' · ' + taken.length + ' of ' + info.seats + ' seats taken · ' + status),
      taken.length ? el('div', { class: 'ti-names muted' }, taken.join(', ')) : null),
    link);
}

/** The lobby form follows the game chosen: its table sizes, its optional rules. */
function onVariantChange() {
  const corporate = $('c-variant').value === 'corporate-shuffle';
  const most = corporate ? 8 : 16;
  $('c-seats').max = String(most);
  $('c-seats-label').textContent = 'Seats (3 to ' + most + ')';
  if (Number($('c-seats').value) > most) $('c-seats').value = String(most);
  $('c-stripped').disabled = corporate;
  if (corporate) $('c-stripped').checked = false;
  $('c-fdr-label').lastChild.textContent = corporate ? ' First-deal corporate takeover' : ' First-deal revolution';
  $('c-merchant-label').lastChild.textContent = corporate ? ' Worker exchange' : ' Merchant exchange';
}

async function onCreate(event) {
  event.preventDefault();
  const errorNode = $('create-error');
  setError(errorNode, '');
  const name = $('c-name').value.trim();
  const player = $('c-player').value.trim();
  const seats = Number($('c-seats').value);
  const game = $('c-variant').value;
  const most = game === 'corporate-shuffle' ? 8 : 16;
  if (!name) return setError(errorNode, 'Give the table a name.');
  if (!player) return setError(errorNode, 'Give your name.');
  if (!(seats >= 3 && seats <= most)) {
    return setError(errorNode, (VARIANTS[game] || VARIANTS.dalmuti).game + ' seats 3 to ' + most + ' players.');
  }
  const body = {
    name, player, seats,
    rules: {
      variant: game,
      // Corporate Shuffle's deck is never stripped.
      stripped_deck: game !== 'corporate-shuffle' && $('c-stripped').checked,
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
  sel: noSelection(),
  ask: null,            // a play waiting for its Wedgie target or Dogberts' value: {kind, cards}
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
    id, state: null, v: 0, pending: false, sel: noSelection(), ask: null, tax: [],
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
      document.title = info.name + ' · ' + ((VARIANTS[info.variant] || VARIANTS.dalmuti).game);
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
  // Every STATE names the table's game: its words are needed from here on.
  if (d && d.rules) setVariant(d.rules.variant);
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
  // A play asked about is for this turn only.
  if (T.ask && !(decisionOf('lead') || decisionOf('follow'))) T.ask = null;
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
    // Corporate Shuffle's specials at work are news as well.
    for (const entry of log.slice(from)) if (isSpecial(entry)) addNews(logWords(entry, playerName), 'special');
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
        ? 'You hold both ' + cardPlural(V().wild) + ': call a ' + (offer.greater ? 'greater ' : '') + V().revolution + ' before the hand starts, or keep quiet.'
        : 'Look at your cards: the hand is being set up.';
    }
    case 'tax': return 'Choose ' + d.count + ' ' + plural(d.count, 'card', 'cards') + ' to give ' + playerName(d.to) + ' ' + V().inTax + '.';
    case 'offer_exchange':
    case 'exchange_offer': return capitalized(V().exchange) + ': offer a card to another ' + middleTitle() + ', or decline.';
    case 'answer_exchange':
    case 'exchange_answer': return playerName(d.from) + ' offered you a card: choose a card to give back.';
    default: return 'Your turn.';
  }
}

function capitalized(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
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
  document.title = (decision() ? '▶ ' : '') + s.name + ' · ' + V().game;
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
    text = 'You are waiting for the next hand: you enter when this hand ends, as a ' + middleTitle() + ' halfway down. Until then you watch.';
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
  if (isCorporate()) parts.push(V().game);
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
  if (rules.first_deal_revolution) words.push('first-deal ' + V().revolution);
  if (rules.merchant_exchange) words.push(V().exchange);
  if (rules.scoring && rules.scoring !== 'none') words.push(rules.scoring + ' scoring');
  if (rules.join_and_leave) words.push('join and leave between hands');
  const game = isCorporate() ? 'Game: ' + V().game + '. ' : '';
  return game + (words.length ? 'Rules: ' + words.join(', ') + '.' : 'Rules: the basic game.');
}

function renderJoin() {
  const s = T.state;
  const canJoin = !s.you && !myToken() && !s.game_over &&
    (!s.started || (s.rules && s.rules.join_and_leave));
  show($('t-join'), canJoin);
  if (canJoin) {
    $('join-note').textContent = s.started
      ? 'The game is on: you enter when this hand ends, as a ' + middleTitle() + ' halfway down. Until then you watch.'
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
    const wedged = vw.wedged === i;
    if (wedged) classes.push('wedged');
    let flag = '';
    if (seat.out != null) flag = 'out ' + ordinal(seat.out + 1);
    // The Twirling Wedgie: this seat passes for the rest of the trick.
    else if (wedged) flag = 'wedged: passes this trick';
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
    return el('li', { class: classes.join(' '), 'data-testid': 'seat', dataset: { seat: String(i), name, wedged: String(wedged) } },
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
        (vw.passes ? '; ' + vw.passes + ' ' + plural(vw.passes, 'pass', 'passes') + ' since' : '') + '.' +
        (vw.wedged != null ? ' ' + playerName(vw.wedged) + ' must pass for the rest of the trick (the Twirling Wedgie).' : '')));
  } else {
    const words = {
      setup: 'The hand is being set up: ' + (vw.ready || 0) + ' of ' + vw.players + ' ready.',
      play: 'The table is empty: a new round is to be led.',
      over: 'The hand is over.',
    };
    let extra = '';
    if (vw.revolution) extra = ' A ' + (vw.revolution.greater ? 'greater ' : '') + V().revolution + ' was called by ' + playerName(vw.revolution.by) + '.';
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
  if (vw.wedged != null && vw.wedged === vw.seat) {
    line.textContent = 'You are wedged: you pass for the rest of this trick.' + (others.length ? ' Waiting for ' + others.join(', ') + '.' : '');
    return;
  }
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
    items.unshift(el('li', { class: 'log-mine' }, (isCorporate() ? 'Your executive bonus with ' : 'Your tax with ') + playerName(vw.my_tax.with) + ': you gave ' +
      (vw.my_tax.gave || 'nothing') + ', you got ' + (vw.my_tax.received || 'nothing') + '.'));
  }
  if (vw.my_trade) {
    items.unshift(el('li', { class: 'log-mine' }, 'Your ' + V().exchange + ' with ' + playerName(vw.my_trade.with) +
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
        variant: (state.rules && state.rules.variant) || 'dalmuti',
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

/**
 * The set being chosen: `n` cards of `rank` (a number, or the World Ruler
 * `0` or Ratbert `R`, each played alone), the Twirling Wedgie if `t` (a 6),
 * and `j` wild cards (Jesters or Dogberts).
 */
function noSelection() {
  return { rank: null, n: 0, j: 0, t: 0 };
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

/** Cards played only alone: the World Ruler and Ratbert. */
function aloneOnly(rank) {
  return rank === '0' || rank === 'R';
}

function keepSelectionSane() {
  const sel = T.sel;
  if (sel.rank != null) {
    const c = countOf(sel.rank);
    if (c === 0) { sel.rank = null; sel.n = 0; } else sel.n = Math.min(Math.max(sel.n, 1), c);
  }
  sel.j = Math.min(sel.j, countOf(V().wild));
  sel.t = sel.t && countOf('T') ? 1 : 0;
}

function selectionCards() {
  const sel = T.sel;
  const cards = [];
  for (let i = 0; i < sel.n; i++) cards.push(sel.rank);
  if (sel.t) cards.push('T');
  for (let i = 0; i < sel.j; i++) cards.push(V().wild);
  return cards;
}

/** Wild cards alone (Dogberts alone are played as a value their player names). */
function wildsAlone() {
  return T.sel.n === 0 && !T.sel.t && T.sel.j > 0;
}

/** The values a set of Dogberts alone may be played as now: 1 to 10, better than the set on the table. */
function declarableValues() {
  const d = decisionOf('follow');
  const most = d ? Math.min(10, setValue(d.top) - 1) : 10;
  const values = [];
  for (let v = 1; v <= most; v++) values.push(v);
  return values;
}

/** Why the chosen set cannot be played now, or '' if it can. */
function selectionProblem() {
  const d = decision();
  const sel = T.sel;
  const cards = selectionCards();
  if (!d || (d.kind !== 'lead' && d.kind !== 'follow')) return 'not your turn to play';
  if (cards.length === 0) return 'choose a rank';
  if (sel.n > 0 && aloneOnly(sel.rank) && cards.length > 1) return cardName(sel.rank) + ' is played alone';
  if (sel.t && sel.n > 0 && sel.rank !== '6') return 'the Twirling Wedgie is a 6: it goes only with 6s';
  if (d.kind === 'lead') return '';
  const top = parseCards(d.top);
  if (cards.length !== top.length) return 'you need ' + top.length + ' ' + plural(top.length, 'card', 'cards');
  const topValue = setValue(d.top);
  if (isCorporate() && wildsAlone()) {
    return declarableValues().length ? '' : 'Dogberts alone cannot top ' + setWords(d.top);
  }
  const mine = sel.n > 0 ? rankValue(sel.rank) : sel.t ? 6 : 13;
  if (mine >= topValue) return 'a better (lower) value than ' + setWords(d.top) + ' is needed';
  return '';
}

function selectionText() {
  const sel = T.sel;
  const parts = [];
  if (sel.n > 0) parts.push(countWord(sel.n) + ' ' + (sel.n === 1 ? cardName(sel.rank) : cardPlural(sel.rank)));
  if (sel.t) parts.push('the Twirling Wedgie');
  if (sel.j > 0) parts.push(countWord(sel.j) + ' ' + plural(sel.j, cardName(V().wild), cardPlural(V().wild)));
  return parts.join(' + ');
}

/** Fewer wild cards, then fewer of the rank, until the set has at most `need` cards. */
function fitTo(need) {
  const sel = T.sel;
  if (need == null) return;
  while (sel.n + sel.t + sel.j > need && sel.j > 0 && sel.n + sel.t > 0) sel.j--;
  while (sel.n + sel.t + sel.j > need && sel.n > 1) sel.n--;
}

function clickGroup(rank) {
  const sel = T.sel;
  const count = countOf(rank);
  if (!count) return;
  const need = neededCount();
  if (rank === V().wild) {
    sel.j = (sel.j + 1) % (count + 1);
    if (sel.n > 0 && aloneOnly(sel.rank)) { sel.rank = null; sel.n = 0; }
    if (need != null && sel.n + sel.t + sel.j > need && sel.j > 0 && sel.n > 0) sel.n = Math.max(1, need - sel.j - sel.t);
  } else if (rank === 'T') {
    sel.t = sel.t ? 0 : 1;
    // The Wedgie is a 6: other cards than 6s (and wild cards) make way.
    if (sel.t && sel.rank != null && sel.rank !== '6') { sel.rank = null; sel.n = 0; }
    if (sel.t) fitTo(need);
  } else if (sel.rank === rank) {
    sel.rank = null;
    sel.n = 0;
  } else if (aloneOnly(rank)) {
    T.sel = { rank, n: 1, j: 0, t: 0 };
  } else {
    sel.rank = rank;
    if (rank !== '6') sel.t = 0;
    sel.n = need != null ? Math.max(1, Math.min(count, need - sel.j - sel.t)) : count;
    fitTo(need);
  }
  renderHand();
  renderActions();
}

function adjustSelection(delta) {
  const sel = T.sel;
  if (sel.rank != null) {
    sel.n = Math.min(Math.max(sel.n + delta, 1), countOf(sel.rank));
  } else if (sel.j > 0 || delta > 0) {
    sel.j = Math.min(Math.max(sel.j + delta, 0), countOf(V().wild));
  }
  renderHand();
  renderActions();
}

function clearSelection() {
  T.sel = noSelection();
  T.ask = null;
  renderHand();
  renderActions();
  renderDecision();
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
    const chosen = g.rank === V().wild ? sel.j : g.rank === 'T' ? sel.t : (sel.rank === g.rank ? sel.n : 0);
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
    el('span', { class: 'card-name', 'aria-hidden': 'true' }, cardName(g.rank)),
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
  $('sel-more').disabled = !(sel.rank != null ? sel.n < countOf(sel.rank) : sel.j > 0 && sel.j < countOf(V().wild));
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

/**
 * Whether a set of `size` cards holding the Twirling Wedgie must name whom
 * it makes pass: unless this play ends the hand (it is my last card and
 * only one other player still holds cards).
 */
function wedgieNeedsTarget(size) {
  const vw = view();
  const mine = parseCards(vw.hand).length;
  const others = wedgieTargets();
  return !(mine === size && others.length === 1);
}

/** The seats the Wedgie may name: every other player who still holds cards. */
function wedgieTargets() {
  const vw = view();
  return vw.seats.map((seat, i) => ({ seat, i }))
    .filter(x => x.i !== vw.seat && x.seat.out == null && x.seat.cards > 0)
    .map(x => x.i);
}

function onPlay() {
  if ($('play-btn').disabled) return;
  const cards = selectionCards();
  // Two plays say more than their cards (docs/PROTOCOL.md, Corporate
  // Shuffle): a dialog asks what, then sends the play.
  if (isCorporate() && wildsAlone()) {
    T.ask = { kind: 'declare', cards };
    renderDecision();
    return;
  }
  if (T.sel.t && wedgieNeedsTarget(cards.length)) {
    T.ask = { kind: 'wedgie', cards };
    renderDecision();
    return;
  }
  T.sel = noSelection();
  sendAct({ play: cards.join(' ') });
}

/** Sends the play the dialog asked about, with its value or target. */
function playAsked(extra) {
  const ask = T.ask;
  if (!ask || T.pending) return;
  T.ask = null;
  T.sel = noSelection();
  if (extra.as != null) sendAct({ play: ask.cards.join(' ') + ' as ' + extra.as });
  else sendAct({ play: ask.cards.join(' '), wedgie: extra.wedgie });
}

function onPass() {
  if ($('pass-btn').disabled) return;
  T.sel = noSelection();
  T.ask = null;
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
  } else if (T.ask) {
    [title, body] = askDialog(T.ask);
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
  box.dataset.kind = s.place ? 'place' : T.ask ? T.ask.kind : d.kind;
  box.dataset.count = d && d.count != null ? String(d.count) : '';
  box.dataset.pending = String(T.pending);
  $('decision-title').textContent = title;
  const key = JSON.stringify([T.id, s.hand, d, s.place, view() && view().hand, T.tax, T.exchange, T.answer, T.pending, T.ask, view() && view().seats]);
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

/**
 * The question a Corporate Shuffle play asks before it is sent: whom the
 * Twirling Wedgie makes pass, or what Dogberts alone are played as. Each
 * choice sends the play at once; Cancel goes back to choosing cards.
 */
function askDialog(ask) {
  const cancel = el('button', {
    type: 'button', 'data-testid': 'ask-cancel', dataset: { key: 'ask-cancel' },
    onclick: () => { T.ask = null; renderDecision(); renderActions(); },
  }, 'Cancel');
  const set = ask.cards.join(' ');
  if (ask.kind === 'wedgie') {
    const buttons = wedgieTargets().map(i => el('button', {
      type: 'button', class: 'choice', 'data-testid': 'wedgie-target', dataset: { key: 'wedgie-' + i, seat: String(i) },
      disabled: T.pending, onclick: () => playAsked({ wedgie: i }),
    }, playerName(i) + ' (' + view().seats[i].cards + ' ' + plural(view().seats[i].cards, 'card', 'cards') + ')'));
    return ['Twirling Wedgie', el('div', {},
      el('p', {}, 'You play ' + setWords(set) + '. Whom does the Twirling Wedgie make pass for the rest of the trick?'),
      buttonRow(...buttons, cancel))];
  }
  const n = ask.cards.length;
  const buttons = declarableValues().map(v => el('button', {
    type: 'button', class: 'choice', 'data-testid': 'declare-value', dataset: { key: 'declare-' + v, value: String(v) },
    disabled: T.pending, onclick: () => playAsked({ as: v }),
  }, 'as ' + plural(n, cardName(String(v)), cardPlural(String(v))) + ' (' + v + ')'));
  return ['Dogbert' + (n === 1 ? '' : 's') + ' alone', el('div', {},
    el('p', {}, 'Your ' + plural(n, 'Dogbert is', countWord(n) + ' Dogberts are') + ' played as the value you name' +
      (decisionOf('follow') ? ', better than ' + setWords(decisionOf('follow').top) : '') + ':'),
    el('div', { class: 'button-row', role: 'group', 'aria-label': 'Value' }, buttons),
    buttonRow(cancel))];
}

/** The revolution a player dealt both Jesters (or Dogberts) may call, if this is them. */
function revolutionOffer() {
  const vw = view();
  return vw && vw.revolution_offer;
}

function callRevolutionButton(offer, label) {
  return el('button', { type: 'button', 'data-testid': 'call-revolution', dataset: { key: 'rev-call' }, disabled: T.pending, onclick: () => sendAct('call_revolution') },
    label || (offer.greater ? 'Call a greater ' + V().revolution : 'Call a ' + V().revolution));
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
  const w = V();
  const wilds = cardPlural(w.wild);
  const text = offer.greater
    ? 'You are the ' + w.titles[4] + ' and hold both ' + wilds + '. A greater ' + w.revolution + ' cancels the ' + w.taxes +
      ' and reverses the seating for this hand: you become the ' + w.titles[0] + '.'
    : 'You hold both ' + wilds + '. A ' + w.revolution + ' cancels the ' + w.taxes + ' for this hand.';
  return [capitalized(w.revolution) + '?', el('div', {},
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
    ? el('p', { class: 'muted' }, 'You hold both ' + cardPlural(V().wild) + ': ',
      callRevolutionButton(offer, 'call a ' + (offer.greater ? 'greater ' : '') + V().revolution + ' instead'), '.')
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
  }, el('span', { class: 'card-rank', 'aria-hidden': 'true' }, token), el('span', { class: 'card-name', 'aria-hidden': 'true' }, cardName(token))));
  // In the engine's order (by card index): numbers, then J, T, R, D.
  const order = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', 'J', 'T', 'R', 'D'];
  const gift = T.tax.map(i => cards[i]).sort((a, b) => order.indexOf(a) - order.indexOf(b));
  const ready = gift.length === d.count;
  return [V().payTax, el('div', {},
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
  }, el('span', { class: 'card-rank', 'aria-hidden': 'true' }, g.rank), el('span', { class: 'card-name', 'aria-hidden': 'true' }, cardName(g.rank))));
}

function offerDialog() {
  const vw = view();
  // Any other Merchant, or Worker (docs/RULES.md, Merchant exchange).
  const partners = vw.seats.map((seat, i) => ({ seat, i }))
    .filter(x => x.i !== vw.seat && x.seat.title === middleTitle());
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
  return [capitalized(V().exchange), el('div', {},
    el('p', {}, 'As the highest ' + middleTitle() + ' you may trade one card, face down, with another ' + middleTitle() +
      ': each of you gives the other one card at the same time. Or let the exchange go.'),
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
  return [capitalized(V().exchange), el('div', {},
    el('p', {}, playerName(d.from) + ' chose you for the ' + V().exchange + ' and gives you one card, face down. ' +
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
    el('p', {}, place.name + ' joins the game as a ' + middleTitle() + ' halfway down. As the ' + V().titles[0] + ' of the coming hand you choose where' +
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
  // A frame's view names its game (absent: Dalmuti).
  setVariant(vw.variant);
  $('r-pos').textContent = 'Hand ' + f.hand + ' · step ' + (R.i + 1) + ' of ' + frames.length;
  $('r-pos').dataset.step = String(R.i);
  $('r-slider').value = String(R.i);
  $('r-event').textContent = f.e ? eventWords(f.e, players) : (R.i === 0 ? 'The start.' : '');
  const wedgiePlay = f.e && f.e.action && f.e.action.wedgie != null;
  if (vw.wedged != null && !wedgiePlay) {
    $('r-event').textContent += ' ' + (players[vw.wedged] || 'seat ' + (vw.wedged + 1)) + ' is wedged: passes for the rest of the trick.';
  }
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
    if (rank === V().wild) adjustJesters(key === 'ArrowUp' ? 1 : -1);
    else if (rank && T.sel.rank !== rank) clickGroup(rank);
    else adjustSelection(key === 'ArrowUp' ? 1 : -1);
    event.preventDefault();
    return;
  }
  if (key === 'p' || key === 'P') { onPlay(); event.preventDefault(); }
  else if (key === 'x' || key === 'X') { onPass(); event.preventDefault(); }
  else if (key === 'j' || key === 'J' || (isCorporate() && (key === 'd' || key === 'D'))) { clickGroup(V().wild); event.preventDefault(); }
}

function adjustJesters(delta) {
  T.sel.j = Math.min(Math.max(T.sel.j + delta, 0), countOf(V().wild));
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
  $('c-variant').addEventListener('change', onVariantChange);
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
