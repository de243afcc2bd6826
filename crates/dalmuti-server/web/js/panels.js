// Around the board: the offline banner, the side panels' tabs on phones,
// the turn alerts (sound, vibration) and the room kept for the hand sheet.

import { $, el, show, replaceKeepingFocus } from './dom.js';
import { pref, setPref, notificationsAllowed } from './fx.js';
import { t, tn } from './i18n.js';
import { T, view } from './state.js';
import { markChatSeen } from './chat.js';
import { renderTurnLine, placeBubbles } from './board.js';

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
  if (key === 'chat') {
    markChatSeen();
    // On a phone the chat's box is below the board: brought above the
    // hand sheet (the page's scroll padding is the sheet's height).
    const input = $('chat-input');
    if (input && input.offsetParent) input.scrollIntoView({ block: 'nearest' });
  }
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
  // The fairness panel before there is anything to show, the chat at a
  // game on this device: hidden, so no tab.
  const usable = panels.filter(([key, node]) => !['fair', 'chat'].includes(key) || !node.hidden);
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
  initNotify();
}

/** The notification while the tab is hidden: asks the browser's leave when ticked. */
function initNotify() {
  const box = $('alert-notify');
  if (!box) return;
  if (!('Notification' in window)) {
    box.closest('label').hidden = true;
    return;
  }
  box.checked = pref('notify') && notificationsAllowed();
  const note = $('alert-note');
  box.addEventListener('change', async () => {
    show(note, false);
    if (!box.checked) {
      setPref('notify', false);
      return;
    }
    let allowed = notificationsAllowed();
    if (!allowed) {
      try { allowed = (await Notification.requestPermission()) === 'granted'; } catch (_) { allowed = false; }
    }
    box.checked = allowed;
    setPref('notify', allowed);
    if (!allowed) {
      // Refused (now or before): say so, and where it is changed.
      note.textContent = t('web.alerts.denied');
      show(note, true);
    }
  });
}

initAlerts();

/** The tallest docked hand of this hand, at this table and window size. */
const dockRoom = { key: '', height: 0, fresh: false };
/** A phone's hand sheet is never shorter than this (its head, a row of cards, Play and Pass), in px. */
const LEAST_SHEET = 200;

// Phones: the hand is a sheet fixed at the bottom, as tall as the room the
// board leaves under it (so it never covers a seat; its cards scroll under
// Play and Pass when they need more); the page keeps room for it (padding
// as tall as the sheet). Laptops: the hand is docked at the bottom of the
// window (sticky), and the board takes the height it leaves (--dock-h), so
// Play and Pass are never below the window however many rows the hand
// takes. Either way the hand keeps the height of its tallest moment of the
// hand (the deal): nothing moves as cards go, a docked hand leaves no
// empty band under it, and the next deal measures again.
export function reserveSheet() {
  const dock = $('dock');
  const shown = dock && !dock.hidden && $('view-table') && !$('view-table').hidden && !$('t-game').hidden;
  const fixed = shown && getComputedStyle(dock).position === 'fixed';
  const root = document.documentElement.style;
  const key = `${T.id} ${T.state && T.state.hand} ${innerWidth}x${innerHeight}`;
  // A new hand (or window) is measured afresh once its hand shows; until
  // then (a tax dialog holds it) the last height stands.
  if (dockRoom.key !== key) Object.assign(dockRoom, { key, fresh: true });
  let most = Infinity;
  if (fixed) {
    const board = document.querySelector('#t-game .board');
    const bottom = board ? board.getBoundingClientRect().bottom + scrollY : 0;
    most = Math.max(LEAST_SHEET, Math.floor(innerHeight - bottom - 6));
    dock.style.maxHeight = most + 'px';
  } else if (dock) {
    dock.style.maxHeight = '';
  }
  const folded = dock && dock.classList.contains('hand-in-dialog');
  if (shown && !folded) {
    if (dockRoom.fresh) {
      dock.style.minHeight = '';
      Object.assign(dockRoom, { height: 0, fresh: false });
    }
    dockRoom.height = Math.max(dockRoom.height, Math.ceil(dock.getBoundingClientRect().height));
    const keep = Math.min(dockRoom.height, most);
    if (dock.style.minHeight !== keep + 'px') dock.style.minHeight = keep + 'px';
  } else if (dock && folded) {
    dock.style.minHeight = '';
  }
  const height = shown ? Math.ceil(dock.getBoundingClientRect().height) : 0;
  document.body.style.paddingBottom = fixed ? height + 'px' : '';
  // What is scrolled into view (the chat's box, a focused field) stops
  // above the sheet, not under it.
  root.scrollPaddingBottom = fixed ? height + 'px' : '';
  const before = root.getPropertyValue('--dock-h');
  if (shown && !fixed && dockRoom.height) root.setProperty('--dock-h', dockRoom.height + 'px');
  else root.removeProperty('--dock-h');
  // The board took another size: its bubbles are placed again.
  if (root.getPropertyValue('--dock-h') !== before) placeBubbles();
}

if (window.ResizeObserver) new ResizeObserver(reserveSheet).observe($('dock'));
window.addEventListener('resize', reserveSheet);
