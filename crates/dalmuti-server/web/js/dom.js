// Small DOM helpers, and the live region for screen readers.

import { cardName, parseCards, game, isSuited, suitedParts, SUITS } from './words.js';
import { i18n } from './i18n.js';

export const $ = id => document.getElementById(id);

/** Makes an element: el('button', {class: 'x', onclick: f}, 'text', child). */
export function el(tag, attrs, ...children) {
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

export function show(node, visible) {
  node.hidden = !visible;
}

export function setError(node, message) {
  node.textContent = message || '';
  node.hidden = !message;
}

/** Re-renders `parent` with `children`, keeping focus on an element with the same data-key. */
export function replaceKeepingFocus(parent, children) {
  const active = document.activeElement;
  const key = active && parent.contains(active) ? active.dataset.key : null;
  parent.replaceChildren(...children);
  if (key) {
    const again = parent.querySelector('[data-key="' + CSS.escape(key) + '"]');
    if (again) again.focus();
  }
}

// An emblem per card, drawn from symbols common fonts have (no image
// files); U+FE0E asks for the plain glyph, not a colour emoji.
const EMBLEMS = {
  dalmuti: {
    1: '\u265B', 2: '\u2629', 3: '\u2694', 4: '\u2655', 5: '\u269C', 6: '\u265E', 7: '\u2702',
    8: '\u2692', 9: '\u2615', 10: '\u273F', 11: '\u25C6', 12: '\u2618', J: '\u263A',
  },
  'corporate-shuffle': {
    0: '\u265A', 1: '\u265B', 2: '\u2654', 3: '\u2709', 4: '\u2696', 5: '\u263A', 6: '\u2211',
    7: '\u2691', 8: '\u260E', 9: '\u2605', 10: '\u2699', T: '\u2742', R: '\u2620', D: '\u2726',
  },
};

/** The emblem of a card in the game on screen. */
export function emblem(token) {
  const own = EMBLEMS[game.variant] || EMBLEMS.dalmuti;
  const symbol = own[token] || EMBLEMS.dalmuti[token] || '\u2726';
  return symbol + '\uFE0E';
}

/** A small card face (not interactive): the number and the emblem; its name as a tooltip and for screen readers. */
export function cardFace(token, extraClass) {
  if (isSuited()) return suitedFace(token, 'card mini' + (extraClass ? ' ' + extraClass : ''));
  return el('span', { class: 'card mini r' + token + (extraClass ? ' ' + extraClass : ''), title: cardName(token) },
    el('span', { class: 'card-rank', 'aria-hidden': 'true' }, token),
    el('span', { class: 'card-emblem', 'aria-hidden': 'true' }, emblem(token)),
    el('span', { class: 'sr-only' }, cardName(token) + ' (' + token + ')'));
}

/**
 * A card of the 52-card pack (President, Daifugō): the rank, the suit's
 * shape and its letter, coloured as the four-colour pack colours them
 * (spades black, hearts red, diamonds blue, clubs green): never the colour
 * alone, so a colour-blind player tells suits by shape and letter. A
 * Joker is a star and its word. `cls` the element's classes.
 */
export function suitedFace(token, cls, tag = 'span', attrs = {}) {
  const p = suitedParts(token) || { rank: String(token), suit: null };
  const name = cardName(token);
  const suit = p.joker ? 'joker' : p.suit ? 's-' + p.suit : '';
  return el(tag, Object.assign({ class: cls + ' suited ' + suit, title: name }, attrs),
    el('span', { class: 'card-rank', 'aria-hidden': 'true' }, p.joker ? '\u2605' : p.rank),
    el('span', { class: 'card-suit', 'aria-hidden': 'true' }, p.joker ? 'JK' : (SUITS[p.suit] || '') + '\uFE0E'),
    el('span', { class: 'card-letter', 'aria-hidden': 'true' }, p.joker ? '' : p.suit),
    el('span', { class: 'sr-only' }, name));
}

export function cardFaces(set) {
  if (isSuited()) return suitedSetFaces(set);
  return el('span', { class: 'cards' }, parseCards(set).map(token => cardFace(token)));
}

/**
 * A set told small: one face per kind of card with how many ("10 ×3",
 * then the Jester), so four cards fit a seat's bubble on a phone.
 */
export function cardFacesCounted(set) {
  if (isSuited()) return suitedSetFaces(set);
  const counts = new Map();
  for (const token of parseCards(set)) counts.set(token, (counts.get(token) || 0) + 1);
  return el('span', { class: 'cards counted' }, [...counts].map(([token, n]) =>
    el('span', { class: 'counted-card' }, cardFace(token), n > 1 ? el('span', { class: 'times' }, '×' + n) : null)));
}

/**
 * A play of the pack as faces, with what a Joker stands for after it
 * ("9♥ ★ → 9♠"), so the table shows the set a lock or the next play
 * goes by.
 */
export function suitedSetFaces(set) {
  const [cards, as] = String(set).split(' as ');
  const faces = parseCards(cards).map(token => suitedFace(token, 'card mini'));
  if (as != null && as.trim()) {
    faces.push(el('span', { class: 'joker-as', 'aria-hidden': 'true' }, '\u2192'),
      ...parseCards(as).map(token => suitedFace(token, 'card mini as-card')));
  }
  return el('span', { class: 'cards suited-set' }, faces);
}

/** Japanese text: kana and kanji, where no space says where a word ends. */
const JAPANESE = /[\u3040-\u30ff\u3400-\u9fff]/;
let segmenter = null;

/**
 * `text` as nodes a line may break between only at its words' ends: in
 * Japanese a break opportunity (<wbr>) between words, found by the
 * browser's segmenter, read with `word-break: keep-all` (style.css), so
 * that "世界の支配者ドッグバート" breaks before ドッグバート, never inside
 * it. Other text as it is (its spaces are its breaks).
 */
export function breakable(text) {
  if (i18n.lang !== 'ja' || !JAPANESE.test(text) || typeof Intl.Segmenter !== 'function') return [text];
  segmenter = segmenter || new Intl.Segmenter('ja', { granularity: 'word' });
  // A katakana word the segmenter splits (ビッグ|ボス) stays whole.
  const katakana = /[\u30a0-\u30ff]/;
  const words = [];
  for (const { segment } of segmenter.segment(text)) {
    const last = words[words.length - 1];
    if (last && katakana.test(last.slice(-1)) && katakana.test(segment[0])) words[words.length - 1] = last + segment;
    else words.push(segment);
  }
  return words.flatMap((word, i) => (i ? [document.createElement('wbr'), word] : [word]));
}

/** The inside of a big card face: number in the corner, emblem, the full name. */
export function faceParts(token) {
  const name = cardName(token);
  // The longest word sets the size, so a name never breaks inside a word
  // ("Shepherdess", "Personalabteilung") on a narrow card.
  const longest = Math.max(...name.split(/[\s,]+/).map(w => w.length));
  const size = longest > 13 ? ' longest' : longest > 9 ? ' long' : '';
  return [
    el('span', { class: 'card-rank', 'aria-hidden': 'true' }, token),
    el('span', { class: 'card-emblem', 'aria-hidden': 'true' }, emblem(token)),
    ' ',
    el('span', { class: 'card-name' + size }, breakable(name)),
  ];
}

/** The smallest a card's name is made to fit its card, in px. */
const SMALLEST_NAME = 8;

/**
 * Fits the words of `selector` under `root` in their boxes, once drawn:
 * a card's name or a seat's title wider than its box (a long word, a
 * Japanese phrase that cannot break: "マーケティング部") is made smaller,
 * half a pixel at a time down to 8 px, and only then broken. Words are
 * never broken while they can fit, nor cut.
 */
export function fitText(root, selector) {
  if (!root) return;
  for (const node of root.querySelectorAll(selector)) {
    node.style.fontSize = '';
    node.style.overflowWrap = '';
    if (!node.clientWidth) continue;
    let size = parseFloat(getComputedStyle(node).fontSize);
    while (node.scrollWidth > node.clientWidth + 0.5 && size > SMALLEST_NAME) {
      size -= 0.5;
      node.style.fontSize = size + 'px';
    }
    if (node.scrollWidth > node.clientWidth + 0.5) node.style.overflowWrap = 'anywhere';
  }
}

/**
 * Fits `node`'s words in the height its style gives it (a phone's turn
 * line and pile words keep two lines, so nothing under them moves): made
 * smaller, half a pixel at a time down to 10 px, while they take more.
 * Nothing is done where the box grows with its words.
 */
export function fitHeight(node) {
  if (!node) return;
  node.style.fontSize = '';
  if (!node.clientHeight || getComputedStyle(node).getPropertyValue('--fit').trim() !== 'height') return;
  let size = parseFloat(getComputedStyle(node).fontSize);
  while (node.scrollHeight > node.clientHeight + 0.5 && size > 10) {
    size -= 0.5;
    node.style.fontSize = size + 'px';
  }
}

/** The card names under `root` fitted in their cards ([`fitText`]). */
export function fitNames(root) {
  fitText(root, '.card-name');
}

/** Another player's hand: a small fan of card backs (at most five drawn), not read out. */
export function cardFan(count) {
  const backs = [];
  const drawn = Math.min(count, 5);
  for (let i = 0; i < drawn; i++) {
    const turn = drawn > 1 ? (i - (drawn - 1) / 2) * 9 : 0;
    backs.push(el('span', { class: 'card-back', style: '--turn:' + turn + 'deg' }));
  }
  return el('span', { class: 'fan', 'aria-hidden': 'true', dataset: { count: String(count) } }, backs);
}

let announceTimer = null;

/** Says `text` to screen readers (the polite live region). */
export function announce(text) {
  const region = $('announce');
  // A fresh node each time, so the same words are read again.
  region.append(el('p', {}, text));
  while (region.children.length > 5) region.firstChild.remove();
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => region.replaceChildren(), 15000);
}
