// Your hand in President and Daifugō: each card its own button (suits
// matter), and the plays that hold the cards you chose. No rule of the
// game is worked out here: STATE's `legal` lists every play the server
// accepts now, each reading of a Joker and each sequence among them, and
// the page only filters that list by the cards chosen. A tap on a card
// narrows the list; a tap on one of the plays shown chooses it whole (a
// set with a Joker standing for a card, a sequence); Play sends it.

import { $, el, replaceKeepingFocus, suitedFace, suitedSetFaces } from './dom.js';
import { t, tn, i18n } from './i18n.js';
import { T, view, decision, legal } from './state.js';
import { parseCards, sameCards, suitedSetShort, suitedShort, lockSuits, gameWord } from './words.js';
import { sendAct } from './connection.js';

/** The most plays listed under the hand at once (the rest: choose a card more). */
const MOST_SHOWN = 8;

/** Cards (a card string) each with a key of its own (a second Joker is `JK#1`). */
export function keyedCards(cards) {
  const seen = new Map();
  return parseCards(cards).map(token => {
    const k = seen.get(token) || 0;
    seen.set(token, k + 1);
    return { token, key: token + '#' + k };
  });
}

/** The cards of my hand as the view gives them, keyed ([`keyedCards`]). */
export function handCards() {
  const vw = view();
  return keyedCards(vw && vw.hand);
}

/** The tokens of the cards chosen, in the hand's order. */
function pickedTokens() {
  const picked = new Set(T.sel.pick || []);
  return handCards().filter(c => picked.has(c.key)).map(c => c.token);
}

/** Whether multiset `small` is held in `big` (arrays of tokens). */
function within(small, big) {
  const left = new Map();
  for (const c of big) left.set(c, (left.get(c) || 0) + 1);
  for (const c of small) {
    const n = left.get(c) || 0;
    if (!n) return false;
    left.set(c, n - 1);
  }
  return true;
}

/** The plays `legal` offers now, each with its cards (a Joker's reading, ` as …`, is not a card). */
export function suitedPlays() {
  return legal('play').map(action => {
    const cards = parseCards(action.play);
    return { action, cards, same: sameCards(cards) };
  });
}

/** The legal plays holding every chosen card: those of exactly these cards first, then the smaller. */
export function candidates() {
  const picked = pickedTokens();
  const same = sameCards(picked);
  return suitedPlays()
    .filter(p => within(picked, p.cards))
    .sort((a, b) => (b.same === same) - (a.same === same) || a.cards.length - b.cards.length);
}

/** The play chosen to be sent: the one chosen from the list, or the only play of exactly the chosen cards. */
export function chosenPlay() {
  const picked = pickedTokens();
  if (!picked.length) return null;
  const same = sameCards(picked);
  const exact = suitedPlays().filter(p => p.same === same);
  if (T.sel.play) {
    const still = exact.find(p => p.action.play === T.sel.play);
    if (still) return still.action;
  }
  return exact.length === 1 ? exact[0].action : null;
}

/** Why the chosen cards cannot be played as they are, or '' if they can. */
function problem() {
  const d = decision();
  if (!d || (d.kind !== 'lead' && d.kind !== 'follow')) return t('web.problem.not-your-turn');
  const picked = pickedTokens();
  if (!picked.length) return t('web.problem.choose');
  if (chosenPlay()) return '';
  const same = sameCards(picked);
  const exact = suitedPlays().filter(p => p.same === same);
  if (exact.length > 1) return t('web.suited.choose-reading');
  if (candidates().length) return t('web.suited.choose-more');
  return d.kind === 'follow' ? t('web.suited.higher', { set: suitedSetShort(d.top) }) : t('web.problem.not-legal');
}

/** Whether a card is in some legal play now (only while it is my turn to play). */
function playable(token) {
  const d = decision();
  if (!d || (d.kind !== 'lead' && d.kind !== 'follow')) return true;
  return suitedPlays().some(p => p.cards.includes(token));
}

/** A tap on a card of the hand: chosen, or no longer. */
export function toggleCard(key) {
  const pick = T.sel.pick || [];
  T.sel.pick = pick.includes(key) ? pick.filter(k => k !== key) : [...pick, key];
  T.sel.play = null;
  renderSuitedHand();
  renderSuitedActions();
}

/** A tap on a play of the list: its cards chosen, this reading of its Jokers. */
function choosePlay(action) {
  const wanted = parseCards(action.play);
  const cards = handCards();
  const pick = [];
  const used = new Set();
  for (const token of wanted) {
    const c = cards.find(x => x.token === token && !used.has(x.key));
    if (c) { used.add(c.key); pick.push(c.key); }
  }
  T.sel.pick = pick;
  T.sel.play = action.play;
  renderSuitedHand();
  renderSuitedActions();
  const play = $('play-btn');
  if (play && !play.disabled) play.focus();
}

/** Drops chosen cards no longer in the hand. */
export function keepPickSane() {
  const keys = new Set(handCards().map(c => c.key));
  T.sel.pick = (T.sel.pick || []).filter(k => keys.has(k));
}

let handKey = '';

export function renderSuitedHand() {
  const cards = handCards();
  const picked = new Set(T.sel.pick || []);
  const key = JSON.stringify([T.id, view() && view().hand, T.sel, i18n.lang, decision(), legal().length]);
  const hand = $('hand');
  if (key === handKey && hand.childElementCount) return;
  handKey = key;
  hand.classList.add('suited-hand');
  const buttons = cards.map(c => {
    const chosen = picked.has(c.key);
    const dim = !chosen && !playable(c.token);
    return suitedFace(c.token, 'card one' + (chosen ? ' chosen' : '') + (dim ? ' dim' : ''), 'button', {
      type: 'button', 'aria-pressed': chosen ? 'true' : 'false', 'data-testid': 'card-group',
      dataset: { key: 'c-' + c.key, card: c.token, top: String(!dim) },
      onclick: () => toggleCard(c.key),
    });
  });
  if (!cards.length) buttons.push(el('p', { class: 'muted' }, view() && view().hand != null ? t('web.hand.empty') : ''));
  replaceKeepingFocus(hand, buttons);
  const focusable = hand.querySelectorAll('button.card');
  focusable.forEach((b, i) => {
    b.tabIndex = (b.getAttribute('aria-pressed') === 'true' || (i === 0 && !hand.querySelector('[aria-pressed="true"]'))) ? 0 : -1;
  });
  if (document.activeElement && hand.contains(document.activeElement)) document.activeElement.tabIndex = 0;
}

/** The plays to choose from under the hand: those holding the chosen cards (all of them when few). */
function renderSuggestions(playing) {
  const box = $('suggest');
  if (!box) return;
  const picked = pickedTokens();
  const all = suitedPlays();
  let list = [];
  if (playing && (picked.length || all.length <= MOST_SHOWN)) list = picked.length ? candidates() : all;
  const chosen = chosenPlay();
  const shown = list.slice(0, MOST_SHOWN);
  const more = list.length - shown.length;
  const items = shown.map(p => el('button', {
    type: 'button', class: 'suggestion' + (chosen && chosen.play === p.action.play ? ' chosen' : ''),
    'aria-pressed': chosen && chosen.play === p.action.play ? 'true' : 'false',
    'data-testid': 'suggestion', dataset: { key: 's-' + p.action.play, play: p.action.play },
    disabled: T.pending, onclick: () => choosePlay(p.action),
  }, suitedSetFaces(p.action.play), el('span', { class: 'sr-only' }, suitedSetShort(p.action.play))));
  if (more > 0) items.push(el('span', { class: 'muted suggest-more' }, tn('web.suited.more-plays', more)));
  box.hidden = !items.length;
  box.setAttribute('aria-label', t('web.suited.plays'));
  replaceKeepingFocus(box, items);
}

export function renderSuitedActions() {
  const s = T.state;
  const d = s && s.decision;
  const playing = !!d && (d.kind === 'lead' || d.kind === 'follow');
  const online = !!(T.ws && T.ws.readyState === WebSocket.OPEN);
  const why = problem();
  const chosen = chosenPlay();
  const play = $('play-btn');
  const pass = $('pass-btn');
  play.disabled = !(playing && chosen && online && !T.pending);
  play.textContent = chosen ? t('web.hand.play-cards', { cards: suitedSetShort(chosen.play) }) : t('web.hand.play');
  pass.disabled = !(playing && legal('pass').length && online && !T.pending);
  $('sel-less').hidden = true;
  $('sel-more').hidden = true;
  const desc = $('sel-desc');
  renderSuggestions(playing && online);
  renderTableState();
  if (!s || !s.view) { desc.textContent = ''; return; }
  const picked = pickedTokens();
  if (picked.length) {
    const cards = picked.map(suitedShort).join(' ');
    desc.textContent = why && playing
      ? t('web.hand.chosen-problem', { cards, problem: why })
      : t('web.hand.chosen', { cards: chosen ? suitedSetShort(chosen.play) : cards });
  } else if (d && d.kind === 'follow') {
    desc.textContent = tn('web.hand.follow', parseCards(d.top).length, { set: suitedSetShort(d.top) });
  } else if (d && d.kind === 'lead') desc.textContent = t('web.suited.lead');
  else desc.textContent = s.view.stage === 'play' ? t('web.hand.choose') : '';
  $('dock').classList.toggle('my-turn', playing && online);
  $('dock').classList.toggle('offline', !online);
  $('dock').dataset.pending = String(T.pending);
}

export function onSuitedPlay() {
  if ($('play-btn').disabled) return;
  const action = chosenPlay();
  if (!action) return;
  T.sel = Object.assign(T.sel, { pick: [], play: null });
  sendAct(action);
}

/**
 * The table's state beside the pile, as the view gives it: the order
 * turned over (a revolution, 11-back), the lock's suits and ranks, the
 * direction of play. Each a mark with its shape and its word, so it is
 * read without colour.
 */
export function renderTableState() {
  const node = $('table-state');
  if (!node) return;
  const vw = view();
  const tb = vw && vw.table;
  // A row of its own, as tall with no mark in it: nothing under it moves when a mark comes.
  node.hidden = !tb;
  if (!tb || vw.stage !== 'play') { node.replaceChildren(); node.dataset.key = ''; shownMarks = new Set(); return; }
  const marks = [];
  const mark = (kind, icon, text) => marks.push(el('li', { class: 'ts ts-' + kind + (shownMarks.has(kind) ? '' : ' new'), 'data-testid': 'table-mark', dataset: { mark: kind } },
    el('span', { class: 'ts-icon', 'aria-hidden': 'true' }, icon), ' ', text));
  if (tb.reversed) mark('revolution', '\u21C5', t('web.suited.state.revolution', { word: gameWord('word.revolution') }));
  if (tb.eleven_back) mark('eleven-back', '\u21BA', t('web.suited.state.eleven-back', { word: gameWord('word.eleven-back') }));
  if (tb.lock || tb.lock_number) {
    const args = { word: gameWord('word.lock'), suits: lockSuits(tb.lock) };
    const key = tb.lock && tb.lock_number ? 'web.suited.state.lock-both' : tb.lock_number ? 'web.suited.state.lock-number' : 'web.suited.state.lock';
    mark('lock', '\uD83D\uDD12\uFE0E', t(key, args));
  }
  // 9-reverse: only a direction turned round is news.
  if (tb.options && tb.options.nine_reverse && !tb.clockwise) mark('direction', '\u21BA', t('web.suited.state.anticlockwise'));
  const key = marks.map(m => m.dataset.mark + ':' + m.textContent).join('|');
  if (key !== node.dataset.key) {
    node.dataset.key = key;
    node.replaceChildren(...marks);
  }
  shownMarks = new Set(marks.map(m => m.dataset.mark));
}

/** The marks on the board now: a mark not among them comes in drawn new. */
let shownMarks = new Set();
