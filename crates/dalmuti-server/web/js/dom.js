// Small DOM helpers, and the live region for screen readers.

import { cardName, parseCards, game } from './words.js';

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
  return el('span', { class: 'card mini r' + token + (extraClass ? ' ' + extraClass : ''), title: cardName(token) },
    el('span', { class: 'card-rank', 'aria-hidden': 'true' }, token),
    el('span', { class: 'card-emblem', 'aria-hidden': 'true' }, emblem(token)),
    el('span', { class: 'sr-only' }, cardName(token) + ' (' + token + ')'));
}

export function cardFaces(set) {
  return el('span', { class: 'cards' }, parseCards(set).map(token => cardFace(token)));
}

/**
 * A set told small: one face per kind of card with how many ("10 ×3",
 * then the Jester), so four cards fit a seat's bubble on a phone.
 */
export function cardFacesCounted(set) {
  const counts = new Map();
  for (const token of parseCards(set)) counts.set(token, (counts.get(token) || 0) + 1);
  return el('span', { class: 'cards counted' }, [...counts].map(([token, n]) =>
    el('span', { class: 'counted-card' }, cardFace(token), n > 1 ? el('span', { class: 'times' }, '×' + n) : null)));
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
    el('span', { class: 'card-name' + size }, name),
  ];
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
