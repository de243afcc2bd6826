// The client's shared state: the table shown (T), the replay shown (R), the
// route. Objects, so every module changes the same one (an ES module's
// `let` cannot be assigned from outside it).

import { store } from './storage.js';
import { groupHand, botWords } from './words.js';
import { t } from './i18n.js';

/** The view on screen: {view: 'lobby'|'table'|'replay', id}. */
export const nav = { route: { view: null } };

/**
 * The set being chosen: `n` cards of `rank` (a number, or the World Ruler
 * `0` or Ratbert `R`, each played alone), the Twirling Wedgie if `t` (a 6),
 * and `j` wild cards (Jesters or Dogberts). In President and Daifugō
 * (js/suited.js) `pick` the keys of the cards chosen one by one and `play`
 * the legal play chosen among those holding them.
 */
export function noSelection() {
  return { rank: null, n: 0, j: 0, t: 0, pick: [], play: null };
}

/** The table on screen. */
export const T = {
  id: null,
  ws: null,
  wanted: false,        // keep a connection open
  retry: 0,             // reconnection attempts since the last good answer
  retryTimer: null,
  movedTo: null,        // the WebSocket address a `moved` message named, for the next connection only
  moves: 0,             // `moved` messages followed since the last good answer
  state: null,          // the last STATE
  v: 0,                 // the table's event number we have seen
  pending: false,       // an act was sent, waiting for its answer
  sel: noSelection(),
  ask: null,            // a play waiting for its Wedgie target or Dogberts' value: {kind, cards}
  tax: [],              // the ranks chosen for a tax gift, one per card
  exchange: { partner: null, card: null },
  answer: null,         // the card chosen to give back in an exchange
  logHand: 0, logLen: 0,
  decisionKey: '',
  deadlineAt: null, nextDealAt: null, setupAt: null,
  quietHand: 0,         // the hand in which we chose to keep quiet about both Jesters
  lastResult: null,     // the last hand's result, kept after the next deal
  fair: {},             // hand → {ok, text}
  news: [],             // chat and table news lines
  seenState: false,
  joined: [],           // newcomers seated since the last deal: [{name, seat}]
  noticeTimer: null,
};

/** The replay on screen. */
export const R = { id: null, data: null, i: 0 };

export function me() {
  return T.state && T.state.you;
}

export function myToken() {
  return T.id ? store.token(T.id) : null;
}

export function view() {
  return T.state && T.state.view;
}

export function decision() {
  return T.state && T.state.decision;
}

/**
 * Every action the server accepts from me now (STATE's `legal`, worst
 * first), or those of one kind (`give_tax`, `offer_exchange`, …: the key
 * of an action written as an object, or the action itself when a word).
 * What I may do is chosen among these, never worked out here.
 */
export function legal(kind) {
  const all = (T.state && T.state.legal) || [];
  if (kind == null) return all;
  return all.filter(a => (typeof a === 'object' && a !== null ? kind in a : a === kind));
}

export function decisionOf(kind) {
  const d = decision();
  return d && d.kind === kind ? d : null;
}

export function playerName(seat) {
  const s = T.state;
  if (s && s.players && s.players[seat] != null) return s.players[seat];
  return t('web.seat.n', { n: seat + 1 });
}

/**
 * The bots' names the page met with their parts, beyond the lobby of
 * the table on screen (a bot's `seat` news line, a lobby list): name →
 * {bot, n}. A name the server gave a bot means that bot wherever it shows.
 */
const botParts = new Map();

/** Remembers that `name` is the server's name of bot `n` of level `bot` ("normal bot 3"). */
export function learnBot(name, bot, n) {
  if (typeof name === 'string' && bot && Number.isInteger(n)) botParts.set(name, { bot, n });
}

/**
 * A name as the page shows it: a bot the server named by its level and
 * number ("normal bot 3", docs/PROTOCOL.md, lobby `bot_n`, news `bot_n`,
 * INFO `bots`) in the player's words; any other name as its owner wrote it.
 */
export function shownName(name) {
  const e = lobbyEntry(name);
  if (e && e.bot && e.bot_n) return botWords(e.bot, e.bot_n);
  const known = botParts.get(name);
  return known ? botWords(known.bot, known.n) : name;
}

/** Seat `seat`'s name as the page shows it ([`shownName`]). */
export function shownPlayer(seat) {
  return shownName(playerName(seat));
}

export function lobbyEntry(name) {
  const s = T.state;
  return s && s.lobby ? s.lobby.find(x => x.name === name) : null;
}

/** My lobby seat ({name, waiting, leaving, …}), or null when watching. */
export function myLobby() {
  return me() ? lobbyEntry(me()) : null;
}

export function isHost() {
  return !!(T.state && T.state.you && T.state.host === T.state.you);
}

export function handGroups() {
  const vw = view();
  return vw && vw.hand != null ? groupHand(vw.hand) : [];
}

export function countOf(rank) {
  const g = handGroups().find(x => x.rank === rank);
  return g ? g.count : 0;
}

/** The revolution a player dealt both Jesters (or Dogberts) may call, if this is them. */
export function revolutionOffer() {
  const vw = view();
  return vw && vw.revolution_offer;
}

/**
 * Whether the table asks me a real choice now. Every seat is "ready" while
 * a hand is set up (a pause to look at the cards), which asks nothing
 * unless a revolution is offered.
 */
export function asked() {
  const d = decision();
  return !!d && (d.kind !== 'ready' || !!revolutionOffer());
}
