// Cards and the words about them: tokens, values, names, titles, and the
// sentences of the news, the log and the replay, in the language on screen.

import { t, tn, ordinal } from './i18n.js';

// The two games this client plays: the rules' `variant` chooses the words
// (card names, titles, taxes: the catalogue's `<variant>.` keys) and a few
// cards of its own. Tokens are the records' (docs/PROTOCOL.md, Corporate
// Shuffle). `titles` are the engine's names of the titles, best first, as
// older states carry them without their keys.
export const VARIANTS = {
  dalmuti: {
    wild: 'J',
    titles: ['Greater Dalmuti', 'Lesser Dalmuti', 'Merchant', 'Lesser Peon', 'Greater Peon'],
  },
  'corporate-shuffle': {
    wild: 'D',
    titles: ['Big Boss', 'Little Boss', 'Worker', 'Senior Intern', 'Junior Intern'],
  },
  // The games of the 52-card pack (docs/PROTOCOL.md, President and
  // Daifugō): cards are a rank and a suit letter (`10H`), `JK` a Joker.
  daifugo: {
    wild: 'JK',
    suited: true,
    titles: ['Daifugō', 'Fugō', 'Heimin', 'Hinmin', 'Daihinmin'],
  },
  president: {
    wild: 'JK',
    suited: true,
    titles: ['President', 'Vice-President', 'Neutral', 'Vice-Scum', 'Scum'],
  },
};
// The titles' keys, best first (the engine's, VIEW seats' `title_key`, and
// the catalogue's `<variant>.title.<key>`).
const TITLE_KEYS = ['greater-dalmuti', 'lesser-dalmuti', 'merchant', 'lesser-peon', 'greater-peon'];
const TITLE_ICONS = {
  dalmuti: { 'greater-dalmuti': '👑', 'lesser-dalmuti': '🎩', merchant: '⚖️', 'lesser-peon': '🧺', 'greater-peon': '👒' },
  'corporate-shuffle': { 'greater-dalmuti': '💼', 'lesser-dalmuti': '👔', merchant: '🖥️', 'lesser-peon': '☕', 'greater-peon': '📎' },
  daifugo: { 'greater-dalmuti': '👑', 'lesser-dalmuti': '💰', merchant: '🏠', 'lesser-peon': '🍂', 'greater-peon': '🥀' },
  president: { 'greater-dalmuti': '🏛️', 'lesser-dalmuti': '🎖️', merchant: '⚖️', 'lesser-peon': '🧹', 'greater-peon': '🗑️' },
};
/** The bot levels a host may seat, weakest first (the server's LEVELS). */
export const BOT_LEVELS = ['easy', 'normal', 'hard', 'expert'];
// Bot names from before the levels, still in recorded games and replays: shown in their own words.
const OLD_BOT_NAMES = ['random', 'greedy', 'heuristic', 'search'];

/** The game on screen (a table's, a replay's): its word, as rules.variant. */
export const game = { variant: 'dalmuti' };

export function setVariant(word) {
  game.variant = word && VARIANTS[word] ? word : 'dalmuti';
}

/** The rules-level words of the game on screen: its wild card, its titles as the engine names them. */
export function V() {
  return VARIANTS[game.variant];
}

export function isCorporate() {
  return game.variant === 'corporate-shuffle';
}

/** Whether the game on screen is played with the 52-card pack (President, Daifugō). */
export function isSuited(variant) {
  const own = VARIANTS[variant || game.variant];
  return !!(own && own.suited);
}

// ------------------------------------------------------ the 52-card pack

/** The suits by their letter in a token: the shape drawn, and the class that colours it (four-colour pack). */
export const SUITS = { S: '\u2660', H: '\u2665', D: '\u2666', C: '\u2663' };

/** A card of the pack as its parts: {rank: '10', suit: 'H'}, or {joker: true} for `JK`; null if not one. */
export function suitedParts(token) {
  if (token === 'JK') return { joker: true, rank: 'JK', suit: null };
  const m = /^(10|[2-9JQKA])([SHDC])$/.exec(String(token));
  return m ? { rank: m[1], suit: m[2] } : null;
}

/** A rank of the pack in words ("Queen", "10"). */
export function rankWord(rank) {
  return /^[JQKA]$/.test(rank) ? t('web.suited.rank.' + rank) : rank;
}

/** A card of the pack in words: "Queen of hearts", "Joker". */
export function suitedName(token) {
  const p = suitedParts(token);
  if (!p) return t('web.card.unknown', { token });
  if (p.joker) return tn((isSuited() ? game.variant : 'daifugo') + '.card.JK', 1);
  return t('web.suited.card', { rank: rankWord(p.rank), suit: t('web.suited.suit.' + p.suit) });
}

/** A card of the pack short, as on its corner: "Q♥", "10♦"; a Joker by its word. */
export function suitedShort(token) {
  const p = suitedParts(token);
  if (!p) return String(token);
  return p.joker ? suitedName(token) : p.rank + SUITS[p.suit];
}

/** Cards as the page writes them: the pack's short ("3♦ 5♥"), the other games' tokens as they are ("1 3 3"). */
export function cardsText(cards) {
  return isSuited() && cards ? parseCards(cards).map(suitedShort).join(' ') : cards;
}

/**
 * A play of the pack short: "9♥ 9♠", "9♥ Joker (as 9♠)", a sequence from
 * its lowest place "5♥ Joker 7♥" (docs/PROTOCOL.md: the engine writes
 * what a Joker stands for after ` as `).
 */
export function suitedSetShort(set) {
  const [cards, as] = String(set).split(' as ');
  const shown = parseCards(cards).map(suitedShort).join(' ');
  if (as == null || !as.trim()) return shown;
  return t('web.suited.joker-as', { cards: shown, as: parseCards(as).map(suitedShort).join(' ') });
}

/** A word of the game on screen from the catalogue's game part: gameWord('revolution'). */
export function gameWord(word, variant) {
  return t((variant || game.variant) + '.' + word);
}

/** A message of the web part worded for the game on screen: vt('pay-tax') is web.<variant>.pay-tax. */
export function vt(key, args) {
  return t('web.' + game.variant + '.' + key, args);
}

/** The same, by count. */
export function vtn(key, n, args) {
  return tn('web.' + game.variant + '.' + key, n, args);
}

/**
 * A table's name as the page shows it: a name the server made
 * ("Ada's table 2", docs/PROTOCOL.md, `default_name`) in the player's
 * words; a name a person gave as they wrote it.
 */
export function tableName(info) {
  const d = info && info.default_name;
  if (!d) return info ? info.name : '';
  return d.n > 1 ? t('web.table.default-name-n', { player: d.player, n: d.n }) : t('web.table.default-name', { player: d.player });
}

/** The name of a game (a rules.variant word). */
export function gameName(variant) {
  return gameWord('game', VARIANTS[variant] ? variant : 'dalmuti');
}

/** A bot level's word ("hard"), or an older bot name's ("heuristic"). */
export function botName(level) {
  // A contest program's seat ("program") is said as the contest's name.
  return BOT_LEVELS.includes(level) || OLD_BOT_NAMES.includes(level) || level === 'program'
    ? t('web.bot.' + level) : String(level);
}

/** The name the server gives bot `n` of `level` ("normal bot 3"), in the language on screen. */
export function botWords(level, n) {
  return t('web.bot.name', { bot: botName(level), n });
}

/** Items in a list: "Ada, Bo, Cy". */
export function list(items) {
  return items.join(t('web.list-separator'));
}

/** Card tokens of a card string ("1 3 3 J" → ["1","3","3","J"]); a set's `as V` is not a card. */
export function parseCards(text) {
  if (!text) return [];
  return String(text).split(' as ')[0].trim().split(/\s+/).filter(Boolean);
}

/** The value declared for Dogberts alone ("D D as 3" → 3), or null. */
export function declaredValue(set) {
  const parts = String(set || '').split(' as ');
  return parts.length > 1 ? Number(parts[1]) : null;
}

/** Cards in one order ("J 6 6" → "6 6 J"), to compare sets however they were written. */
export function sameCards(cards) {
  return [...(typeof cards === 'string' ? parseCards(cards) : cards)].sort().join(' ');
}

export function isWild(token) {
  return token === 'J' || token === 'D';
}

/**
 * A card's value as a number, lower is better: the number, 6 for the
 * Twirling Wedgie, 11 for Ratbert, 13 for a Jester or Dogbert (wild: no
 * value of its own).
 */
export function rankValue(token) {
  if (token === 'T') return 6;
  if (token === 'R') return 11;
  if (isWild(token)) return 13;
  return Number(token);
}

/** Where a card sits in a hand: by value, the Wedgie after the 6s, wild cards last. */
function sortKey(token) {
  return rankValue(token) + (token === 'T' || token === 'R' ? 0.5 : 0);
}

function cardKey(token) {
  if (isSuited() && token !== 'JK') return null;
  const own = game.variant + '.card.' + token;
  if (t(own) !== own) return own;
  const dalmuti = 'dalmuti.card.' + token;
  return t(dalmuti) !== dalmuti ? dalmuti : null;
}

/** A card's name, for `n` of them (1 by default): "Knight", "Knights". */
export function cardWord(token, n) {
  if (isSuited() && suitedParts(token) && token !== 'JK') return suitedName(token);
  const key = cardKey(token);
  return key ? tn(key, n == null ? 1 : n) : t('web.card.unknown', { token });
}

export function cardName(token) {
  return cardWord(token, 1);
}

/**
 * Words for a set: "3 Knights (6 6 J)", "2 Dogberts as Lawyers (D D as 4)",
 * "one Twirling Wedgie (T)".
 */
export function setWords(set) {
  const cards = parseCards(set);
  if (cards.length === 0) return t('web.set.nothing');
  const n = cards.length;
  if (isSuited()) return suitedSetShort(set);
  // The cards in brackets keep together on a line: "(4 4)", never "(4 / 4)".
  const shown = String(set).trim().replace(/ /g, '\u00a0');
  const declared = declaredValue(set);
  if (declared != null) {
    return tn('web.set.declared', n, { card: cardWord(cards[0], n), as: cardWord(String(declared), n), set: shown });
  }
  const plain = cards.filter(c => !isWild(c) && c !== 'T');
  // The Wedgie is a 6: with other cards the set is named as 6s.
  const rank = plain.length ? plain[0] : cards.includes('T') ? (n === 1 ? 'T' : '6') : cards[0];
  return tn('web.set', n, { card: cardWord(rank, n), set: shown });
}

/** A hand grouped by card, best first, wild cards last: [{rank, count}]. */
export function groupHand(hand) {
  const counts = new Map();
  for (const c of parseCards(hand)) counts.set(c, (counts.get(c) || 0) + 1);
  return [...counts.entries()]
    .map(([rank, count]) => ({ rank, count }))
    .sort((a, b) => sortKey(a.rank) - sortKey(b.rank));
}

export { ordinal };

/**
 * A seat's title as a key, as the server says it (VIEW seats' `title_key`,
 * or `next_title_key` with `next`); a state of an older server has only
 * the engine's name, found among the variant's.
 */
export function titleKey(seat, next = false) {
  if (!seat) return null;
  if (next) return seat.next_title_key || null;
  if (seat.title_key) return seat.title_key;
  for (const words of Object.values(VARIANTS)) {
    const at = words.titles.indexOf(seat.title);
    if (at >= 0) return TITLE_KEYS[at];
  }
  return null;
}

/** The middle title's key (a newcomer enters as a Merchant, a Worker). */
export function middleTitle() {
  return 'merchant';
}

/** A title (its key) in the language on screen, in the words of the game on screen. */
export function titleText(key) {
  return key ? t(game.variant + '.title.' + key) : '';
}

/** The title of a place (0 first … 4 last) of the game on screen, in the language on screen. */
export function placeTitle(place) {
  return titleText(TITLE_KEYS[place]);
}

/** A title (its key) with its icon. */
export function titleWithIcon(key) {
  const icon = key && TITLE_ICONS[game.variant][key];
  return (icon ? icon + ' ' : '') + titleText(key);
}

/** A seat's name in the words of a message, from the players by seat. */
export function seatName(players, seat) {
  if (!players || seat == null) return t('web.someone');
  return players[seat] || t('web.seat.n', { n: seat + 1 });
}

/**
 * A player's action as a clause: "Ada passed", or with `name` null "you
 * passed" (a move made for you).
 */
export function actionWords(action, players, name) {
  const you = name == null;
  const k = key => (you ? 'web.act-you.' : 'web.act.') + key;
  const vk = key => 'web.' + game.variant + (you ? '.act-you.' : '.act.') + key;
  const args = { name };
  if (action === 'pass') return t(k('pass'), args);
  if (action === 'call_revolution') return t(k('revolution'), Object.assign(args, { revolution: gameWord('revolution') }));
  if (action === 'ready') return t(k('ready'), args);
  if (action === 'decline_exchange') return t(k('decline'), Object.assign(args, { exchange: gameWord('exchange') }));
  if (action && typeof action === 'object') {
    if ('play' in action) {
      if (action.wedgie != null) {
        return t(k('play-wedgie'), Object.assign(args, { set: setWords(action.play), target: seatName(players, action.wedgie) }));
      }
      return t(k('play'), Object.assign(args, { set: setWords(action.play) }));
    }
    if ('give_tax' in action) {
      if (action.give_tax) return t(vk('tax-cards'), Object.assign(args, { cards: cardsText(action.give_tax) }));
      return t(vk('tax'), args);
    }
    if ('offer_exchange' in action) {
      const o = action.offer_exchange || {};
      const partner = players && o.partner != null
        ? players[o.partner] || t('web.seat.n', { n: o.partner })
        : t('web.another', { title: titleText(middleTitle()) });
      return o.card
        ? t(k('offer-card'), Object.assign(args, { card: cardName(o.card), partner }))
        : t(k('offer'), Object.assign(args, { partner }));
    }
    // 7-pass and 10-discard: the card only for who may see it (null for the others).
    if ('give' in action) {
      return action.give ? t(k('give-card'), Object.assign(args, { card: suitedShort(action.give) })) : t(k('give'), args);
    }
    if ('discard' in action) {
      return action.discard ? t(k('discard-card'), Object.assign(args, { card: suitedShort(action.discard) })) : t(k('discard'), args);
    }
    if ('answer_exchange' in action) {
      return action.answer_exchange
        ? t(k('answer-card'), Object.assign(args, { card: cardName(action.answer_exchange) }))
        : t(k('answer'), args);
    }
  }
  return t(k('other'), args);
}

/**
 * Words for a table event (`e` of an `event` message, or a replay frame);
 * `shown(name)` says a name as the page shows it (a bot's in the
 * player's words).
 */
export function eventWords(e, players, shown = name => name) {
  if (!e) return '';
  const bot = e.bot ? botName(e.bot) : null;
  const name = e.name != null ? shown(e.name) : e.name;
  const seen = players ? players.map(shown) : players;
  switch (e.kind) {
    case 'seat': return bot ? t('web.event.seat-bot', { name, bot }) : t('web.event.seat', { name });
    case 'unseat': return t('web.event.unseat', { name });
    case 'start': return t('web.event.start', { seating: list((e.seating || []).map(shown)) });
    case 'deal': return t('web.event.deal', { hand: e.hand });
    case 'act': {
      const action = actionWords(e.action, seen, name);
      return e.auto ? t('web.event.act-auto', { action }) : t('web.event.act', { action });
    }
    case 'place': return t('web.event.place', { name, seat: e.seat + 1 });
    case 'join': return t('web.event.join', { name, seat: e.seat + 1 });
    case 'leaving': return t('web.event.leaving', { name });
    case 'leave': return t('web.event.leave', { name });
    case 'waiting': return bot ? t('web.event.waiting-bot', { name, bot }) : t('web.event.waiting', { name });
    default: return t('web.event.other', { kind: e.kind });
  }
}

/**
 * What President and Daifugō's plays do to the table, as the log tells it
 * (docs/PROTOCOL.md): each a moment shown on the board and a news line.
 */
export const TABLE_EVENTS = new Set(['revolution', 'eight_cut', 'two_clears', 'spade_three', 'eleven_back', 'locked',
  'skipped', 'reversed', 'fell', 'fouled', 'stalemate', 'given', 'discarded']);

/** Whether a log entry is a special at work (Corporate Shuffle's cards, a table event of the pack's games): news worth a line of its own. */
export function isSpecial(entry) {
  if (entry.event === 'ratbert_taken') return true;
  if (TABLE_EVENTS.has(entry.event) && entry.event !== 'given' && entry.event !== 'discarded') return true;
  if (entry.event !== 'played') return false;
  return entry.wedgie != null || parseCards(entry.set).includes('0');
}

/** Words for one entry of a view's log; `who(seat)` names a seat. */
export function logWords(entry, who) {
  switch (entry.event) {
    case 'revolution_called':
      return t(entry.greater ? 'web.log.revolution-greater' : 'web.log.revolution',
        { name: who(entry.seat), revolution: gameWord('revolution'), taxes: gameWord('taxes') });
    case 'revolution_declined':
      // Only the holder ever sees this entry.
      return t('web.log.revolution-declined', { name: who(entry.seat), wilds: cardWord(V().wild, 2) });
    case 'tax_paid': {
      const args = { dalmuti: who(entry.dalmuti), peon: who(entry.peon), gift: cardsText(entry.gift) || '?', tribute: cardsText(entry.tribute) || '?' };
      return vtn(entry.gift || entry.tribute ? 'log.tax-detail' : 'log.tax', entry.cards, args);
    }
    case 'merchant_exchange': {
      const args = { name: who(entry.offerer), partner: who(entry.partner), offered: entry.offered || '?', returned: entry.returned || '?' };
      return t(entry.offered || entry.returned ? 'web.log.trade-detail' : 'web.log.trade', args);
    }
    case 'exchange_declined': return t('web.log.exchange-declined', { name: who(entry.seat), exchange: gameWord('exchange') });
    case 'played':
      if (entry.wedgie != null) {
        const set = String(entry.set);
        const args = { name: who(entry.seat), target: who(entry.wedgie), card: cardName('T'), set: setWords(set) };
        return t(set === 'T' ? 'web.log.wedgie' : 'web.log.wedgie-set', args);
      }
      if (parseCards(entry.set).includes('0')) {
        return t('web.log.world-ruler', { name: who(entry.seat), card: cardName('0') });
      }
      return t('web.log.played', { name: who(entry.seat), set: setWords(entry.set) });
    case 'passed': return t('web.log.passed', { name: who(entry.seat) });
    case 'went_out': return t('web.log.out', { name: who(entry.seat), place: ordinal(entry.place + 1) });
    case 'round_won':
      // In Corporate Shuffle a trick also ends at the World Ruler, or when
      // everyone left is wedged: not always "everyone passed".
      return vt('log.round-won', { name: who(entry.seat), leader: who(entry.leader) });
    case 'ratbert_taken': return t('web.log.ratbert', { name: who(entry.seat), card: cardName('R') });
    case 'hand_over': return t('web.log.hand-over');
    // President and Daifugō: what a play did to the table, in the words its players use.
    case 'revolution':
      return t(entry.reversed ? 'web.suited.log.revolution' : 'web.suited.log.revolution-back',
        { name: who(entry.seat), word: gameWord('word.revolution') });
    case 'eight_cut': return t('web.suited.log.eight-cut', { name: who(entry.seat), word: gameWord('word.eight-cut') });
    case 'two_clears': return t('web.suited.log.two-clears', { name: who(entry.seat) });
    case 'spade_three': return t('web.suited.log.spade-three', { name: who(entry.seat), word: gameWord('word.spade-three') });
    case 'eleven_back':
      return t(entry.on ? 'web.suited.log.eleven-back' : 'web.suited.log.eleven-back-off',
        { name: who(entry.seat), word: gameWord('word.eleven-back') });
    case 'locked': return lockWords(entry.suits, entry.number);
    case 'skipped': return t('web.suited.log.skipped', { name: who(entry.seat), names: list((entry.skipped || []).map(who)) });
    case 'reversed':
      return t(entry.clockwise ? 'web.suited.log.reversed' : 'web.suited.log.reversed-back', { name: who(entry.seat) });
    case 'fell': return t('web.suited.log.fell', { name: who(entry.seat), word: gameWord('word.miyako-ochi') });
    case 'fouled': return t('web.suited.log.fouled', { name: who(entry.seat), word: gameWord('word.forbidden-finish') });
    case 'stalemate': return t('web.suited.log.stalemate', { names: list((entry.left || []).map(who)) });
    case 'given':
      return entry.card
        ? t('web.suited.log.given-card', { name: who(entry.from), to: who(entry.to), card: suitedShort(entry.card) })
        : t('web.suited.log.given', { name: who(entry.from), to: who(entry.to) });
    case 'discarded':
      return entry.card
        ? t('web.suited.log.discarded-card', { name: who(entry.seat), card: suitedShort(entry.card) })
        : t('web.suited.log.discarded', { name: who(entry.seat) });
    default: return entry.event;
  }
}

/** The suits a lock holds, short ("♠♥"; `+` a Joker beyond the four). */
export function lockSuits(letters) {
  return [...String(letters || '')].map(c => SUITS[c] || (c === '+' ? '+' : c)).join('');
}

/** A lock in words: its suits, its ranks' steps, or both. */
export function lockWords(suits, number) {
  const args = { word: gameWord('word.lock'), suits: lockSuits(suits) };
  if (suits && number) return t('web.suited.log.locked-both', args);
  return t(number ? 'web.suited.log.locked-number' : 'web.suited.log.locked', args);
}

export function capitalized(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
