// A game against bots with no server (issue 45): the engine and the bots
// run in WebAssembly in a Web Worker (../offline/worker.js), and this
// module gives the table a socket that talks to it instead of the server
// (connection.js uses it for a table this browser plays offline). The
// worker answers in the server's own messages, so the table, its dialogs,
// the replay and every language are the online code; no rule is here.
//
// The game is kept in this browser (IndexedDB, by the worker) and taken up
// again after a reload; its record downloads from the worker. The table
// says plainly that it is played offline against bots.

import { $, el, show, setError } from './dom.js';
import { t, onLangChange } from './i18n.js';
import { store } from './storage.js';

const MARK = 'dalmuti.offline.';

/** Whether this browser plays table `id` offline. */
export function isOffline(id) {
  return !!id && store.get(MARK + id) === '1';
}

let worker = null;
/** What listens to the worker: the open socket, and one-off answers. */
const listeners = new Set();

function theWorker() {
  if (worker) return worker;
  worker = new Worker(new URL('../offline/worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = event => { for (const f of [...listeners]) f(event.data || {}); };
  worker.onerror = event => {
    for (const f of [...listeners]) f({ kind: 'error', reason: (event && event.message) || 'the offline engine failed' });
  };
  return worker;
}

/** The next answer of `kind` (or an error) from the worker, to `request`. */
function askWorker(request, kind) {
  return new Promise((resolve, reject) => {
    const f = m => {
      if (m.kind === kind) { listeners.delete(f); resolve(m); }
      else if (m.kind === 'error') { listeners.delete(f); reject(new Error(m.reason)); }
    };
    listeners.add(f);
    theWorker().postMessage(request);
  });
}

/**
 * A socket to the offline engine with the WebSocket's shape (readyState,
 * send, close, onopen, onmessage, onclose), so connection.js drives it as
 * it drives the server's.
 */
export class OfflineSocket {
  constructor(id) {
    this.readyState = 0;
    this.onopen = null;
    this.onmessage = null;
    this.onclose = null;
    this.onerror = null;
    this.listener = m => {
      if (this.readyState !== 1) return;
      if (m.kind === 'msg' && this.onmessage) this.onmessage({ data: m.text });
      if (m.kind === 'error') console.warn('offline engine:', m.reason);
    };
    listeners.add(this.listener);
    theWorker().postMessage({ kind: 'open', id });
    setTimeout(() => {
      if (this.readyState !== 0) return;
      this.readyState = 1;
      if (this.onopen) this.onopen();
    }, 0);
  }

  send(text) {
    if (this.readyState === 1) theWorker().postMessage({ kind: 'send', text });
  }

  close() {
    if (this.readyState === 3) return;
    this.readyState = 3;
    listeners.delete(this.listener);
  }
}
// As WebSocket.OPEN is read by connection.js.
OfflineSocket.OPEN = 1;

/** Starts a game against bots on this device; resolves to its table id. */
export async function startOffline(setup) {
  const made = await askWorker({ kind: 'new', setup }, 'created');
  store.set(MARK + made.id, '1');
  store.setToken(made.id, made.token);
  return made.id;
}

/** The finished game's record (`dalmuti check` reads it), as text. */
export async function offlineRecord(id) {
  const answer = await askWorker({ kind: 'record', id }, 'record');
  return JSON.stringify(answer.record, null, 2);
}

/** The finished game's replay, as the server's `/replay` answers it. */
export async function offlineReplay(id) {
  return (await askWorker({ kind: 'replay', id }, 'replay')).replay;
}

/** Points a record link at the offline game's record (downloaded from the worker). */
export function offlineRecordLink(link, id) {
  if (!link) return;
  link.removeAttribute('href');
  link.setAttribute('role', 'button');
  link.tabIndex = 0;
  link.onclick = async event => {
    event.preventDefault();
    const text = await offlineRecord(id);
    const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    const a = el('a', { href: url, download: link.getAttribute('download') || 'dalmuti-offline.json' });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  };
}

// ------------------------------------------------------------ on the page

/** The table's plain word that this game is offline, against bots. */
function renderBanner() {
  const m = (location.hash || '').match(/^#\/t\/([^/?]+)/);
  const offline = m && isOffline(decodeURIComponent(m[1]));
  let node = $('offline-game');
  if (!node && offline) {
    // In the page's flow, above the table: a plain statement, not the
    // alarm the lost connection's banner is (it floats over the header).
    node = el('p', { id: 'offline-game', class: 'offline-game muted', role: 'status', 'data-testid': 'offline-game',
      style: 'margin: 0 0 0.5rem; padding: 0.4rem 0.75rem; border: 1px solid currentColor; border-radius: 0.5rem' });
    $('view-table').prepend(node);
  }
  if (!node) return;
  node.textContent = offline ? t('web.offline-game.banner') : '';
  show(node, !!offline);
}

/**
 * The setup with what `localStorage['dalmuti.offline.setup']` changes in
 * it (JSON: `pace`, `rules`…): for tests, which play a short game quickly.
 */
function withOverrides(setup) {
  let extra = {};
  try { extra = JSON.parse(store.get('dalmuti.offline.setup') || '{}') || {}; } catch (_) { /* none */ }
  return { ...setup, ...extra, rules: { ...setup.rules, ...(extra.rules || {}) } };
}

/** The lobby's offer, where no server answers: a game against bots here. */
function renderOffer() {
  const panel = $('lobby-offline');
  if (!panel || $('offline-play')) return;
  const levels = ['easy', 'normal', 'hard', 'expert'];
  const name = el('input', { id: 'offline-name', maxlength: '32', autocomplete: 'nickname', 'data-testid': 'offline-name' });
  name.value = store.name();
  const level = el('select', { id: 'offline-level', 'data-testid': 'offline-level' },
    ...levels.map(l => el('option', { value: l, selected: l === 'normal' ? '' : undefined }, l)));
  const error = el('p', { id: 'offline-error', class: 'error', role: 'alert', hidden: '' });
  const button = el('button', { type: 'button', id: 'offline-play', class: 'primary', 'data-testid': 'offline-play' });
  const note = el('p', { id: 'offline-note', class: 'muted' });
  panel.append(el('div', { class: 'offline-offer', 'data-testid': 'offline-offer' }, note,
    el('div', { class: 'field-row' },
      el('div', { class: 'field' }, el('label', { for: 'offline-name', id: 'offline-name-label' }), name),
      el('div', { class: 'field' }, el('label', { for: 'offline-level', id: 'offline-level-label' }), level)),
    el('div', { class: 'quick-buttons' }, button), error));
  button.addEventListener('click', async () => {
    setError(error, '');
    const player = name.value.trim() || t('web.offline-game.you');
    try {
      store.setName(player);
      const id = await startOffline(withOverrides({ name: player, seats: 5, level: level.value, rules: { hands: 5, scoring: 'standard' } }));
      location.hash = '#/t/' + encodeURIComponent(id);
    } catch (e) {
      setError(error, t('web.create.failed', { reason: e.message }));
    }
  });
  renderOfferWords();
}

function renderOfferWords() {
  if (!$('offline-play')) return;
  $('offline-note').textContent = t('web.offline-game.offer');
  $('offline-level-label').textContent = t('web.offline-game.level');
  $('offline-name-label').textContent = t('web.html.your-name');
  $('offline-play').textContent = t('web.offline-game.play');
  for (const option of $('offline-level').options) option.textContent = t('web.bot.' + option.value);
}

function renderAll() {
  renderOffer();
  renderOfferWords();
  renderBanner();
}

window.addEventListener('hashchange', renderBanner);
onLangChange(renderAll);
