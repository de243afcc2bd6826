// Around the board: the offline banner, the side panels' tabs on phones,
// the turn alerts (sound, vibration) and the room kept for the hand sheet.

import { $, el, show, replaceKeepingFocus } from './dom.js';
import { pref, setPref, notificationsAllowed } from './fx.js';
import { t, tn } from './i18n.js';
import { T, view } from './state.js';
import { markChatSeen } from './chat.js';
import { renderTurnLine } from './board.js';

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
  if (key === 'chat') markChatSeen();
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
  const usable = panels.filter(([key, node]) => key !== 'fair' || !node.hidden);
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

/** The tallest docked hand seen, and at which table and window size. */
const dockRoom = { key: '', height: 0 };

// Phones: the hand is a sheet fixed at the bottom; the page keeps room for
// it (padding as tall as the sheet) so it never covers the table. Laptops:
// the hand is docked at the bottom of the window (sticky), and the board
// takes the height it leaves (--dock-h), so Play and Pass are never below
// the window however many rows the hand takes.
export function reserveSheet() {
  const dock = $('dock');
  const shown = dock && !dock.hidden && $('view-table') && !$('view-table').hidden && !$('t-game').hidden;
  const fixed = shown && getComputedStyle(dock).position === 'fixed';
  const height = shown ? Math.ceil(dock.getBoundingClientRect().height) : 0;
  document.body.style.paddingBottom = fixed ? height + 'px' : '';
  // The board keeps its size while the hand shrinks or folds under a
  // dialog: the tallest hand seen at this table and window size.
  const key = `${T.id} ${innerWidth}x${innerHeight}`;
  if (dockRoom.key !== key) Object.assign(dockRoom, { key, height: 0 });
  if (shown && !fixed && !dock.classList.contains('hand-in-dialog')) dockRoom.height = Math.max(dockRoom.height, height);
  const root = document.documentElement.style;
  if (shown && !fixed && dockRoom.height) root.setProperty('--dock-h', dockRoom.height + 'px');
  else root.removeProperty('--dock-h');
}


if (window.ResizeObserver) new ResizeObserver(reserveSheet).observe($('dock'));
window.addEventListener('resize', reserveSheet);
