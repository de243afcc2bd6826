// Small DOM helpers, and the live region for screen readers.

import { cardName, parseCards } from './words.js';
import { tn } from './i18n.js';

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

/**
 * A card button's accessible name: its visible text first (rank, name, and
 * the chosen/count as shown), so voice control finds it by what it says
 * (WCAG 2.5.3); `count` adds how many cards, `chosen` how many are chosen.
 */
export function cardLabel(rank, count, chosen) {
  let label = rank + ' ' + cardName(rank);
  if (chosen) label += ', ' + chosen + '/' + count;
  if (count != null) label += ', ' + tn('web.cards', count);
  return label;
}

/** A small card face (not interactive). */
export function cardFace(token, extraClass) {
  return el('span', { class: 'card mini r' + token + (extraClass ? ' ' + extraClass : ''), title: cardName(token) },
    el('span', { class: 'card-rank', 'aria-hidden': 'true' }, token),
    el('span', { class: 'sr-only' }, cardName(token) + ' (' + token + ')'));
}

export function cardFaces(set) {
  return el('span', { class: 'cards' }, parseCards(set).map(token => cardFace(token)));
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
