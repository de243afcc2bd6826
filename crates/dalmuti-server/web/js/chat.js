// The table's chat and news (docs/PROTOCOL.md, Chat and news): the lines
// the server keeps (sent with the answer to hello, then live), a few lines
// of our own (moves made for you, Corporate Shuffle's specials), the unread
// badge and toast, spectators' names, and the host's "spectators may chat".
//
// The panel's DOM ids are stable for the table view (which may move the
// panel behind a tab on phones): #chat (the list), #chat-form, #chat-input,
// #chat-send, #chat-name-field, #chat-unread, #spectator-chat. A tab that
// shows the chat listens for `dalmuti-unread` on document (detail.count)
// and calls markChatSeen() when it opens; a click on the toast dispatches
// `dalmuti-show-chat` (the tab opens itself) and scrolls the panel into view.

import { $, el, show, announce, setError } from './dom.js';
import { t, tn } from './i18n.js';
import { api } from './api.js';
import { store } from './storage.js';
import { T, me, myToken, isHost, shownName, learnBot } from './state.js';
import { botName, gameWord, list } from './words.js';
import { ratingText, changeText } from './rating.js';
import { views } from './views.js';
import { send, showError, reconnectNow } from './connection.js';

const MAX_LINES = 200;

// The lines on screen: {n, chat} or {n, news} from the server (n shared by
// both), or {after, text, kind} of our own (after: the highest n then, so
// our lines stay where they were said).
let lines = [];
let maxN = 0;
let seq = 0;
let observer = null;
let chatInView = false;
let toastTimer = null;
// A spectator's line waiting for the hello that carries their name.
let pendingLine = null;

const seenKey = id => 'dalmuti.seen.' + id;
const spectatorNameKey = 'dalmuti.spectator-name';

/** Forgets the lines of the table shown before (a new table is opened). */
export function resetChat() {
  lines = [];
  reporting = null;
  reported.clear();
  show($('chat-report'), false);
  maxN = 0;
  pendingLine = null;
  hideToast();
  $('chat').replaceChildren();
  updateUnread();
  watchVisibility();
}

/** The `hello` data of a spectator: the name chosen for the chat, if any. */
export function spectatorHello() {
  const name = (store.get(spectatorNameKey) || '').trim();
  return name ? { name } : {};
}

/** The kept lines from the answer to hello (`snapshot` or `catchup`). */
export function loadTalk(chat, news) {
  const fresh = [];
  for (const c of Array.isArray(chat) ? chat : []) if (add({ n: c.n, chat: c })) fresh.push(c);
  for (const n of Array.isArray(news) ? news : []) add({ n: n.n, news: n });
  renderLines();
  updateUnread();
  if (pendingLine != null && (!T.state || !T.state.you)) {
    const text = pendingLine;
    pendingLine = null;
    if (send({ t: 'chat', d: text })) $('chat-input').value = '';
  }
  return fresh;
}

/** A chat line as it is said. */
export function onChatLine(d) {
  if (!d || !add({ n: d.n, chat: d })) return;
  renderLines();
  const mine = d.from != null && d.from === me();
  if (!mine) {
    announce(t('web.chat.says', { name: speaker(d), text: d.text }));
    if (!chatVisible()) showToast(d);
  }
  updateUnread();
}

/**
 * How the game over moved the ratings (the `rated` news line,
 * docs/PROTOCOL.md): [{name, bot, before, after}], or null before it
 * came (or when the game did not count).
 */
export function ratingChanges() {
  for (let i = lines.length - 1; i >= 0; i--) {
    const news = lines[i].news;
    if (news && news.kind === 'rated' && Array.isArray(news.ratings)) return news.ratings;
  }
  return null;
}

/** A news line from the server, worded here in the language on screen. */
export function onNewsLine(d) {
  if (!d || !add({ n: d.n, news: d })) return;
  // The game over shows each player's rating change once it is told.
  if (d.kind === 'rated' && T.state) views.render();
  // The host removed a seat's chat: its lines go here too.
  if (d.kind === 'chat_removed') lines = lines.filter(x => !(x.chat && !x.chat.spectator && x.chat.from === d.name));
  renderLines();
  updateUnread();
}

/** A line of our own (not kept by the server): `kind` is its class (system, auto, special). */
export function addNews(text, kind) {
  lines.push({ after: maxN, seq: seq++, text, kind });
  trim();
  renderLines();
}

function add(line) {
  if (typeof line.n !== 'number' || lines.some(x => x.n === line.n)) return false;
  line.seq = seq++;
  lines.push(line);
  maxN = Math.max(maxN, line.n);
  trim();
  return true;
}

function trim() {
  lines.sort((a, b) => order(a) - order(b) || a.seq - b.seq);
  if (lines.length > MAX_LINES) lines = lines.slice(lines.length - MAX_LINES);
}

function order(line) {
  return line.n != null ? line.n : line.after + 0.5;
}

function speaker(c) {
  return c.from != null ? c.from : t('web.chat.anonymous');
}

/** Words for a kept news line; null for a kind this client does not know. */
export function newsWords(d) {
  // A bot's seat line carries its name's parts (docs/PROTOCOL.md, news
  // `bot_n`): its name is said in the player's words here and after.
  if (d.bot && d.bot_n) learnBot(d.name, d.bot, d.bot_n);
  const name = d.name != null ? shownName(d.name) : d.name;
  // A bot the server named says its level in its name ("easy bot 1" as
  // the player's words have it): not said twice.
  const level = d.bot && !d.bot_n;
  switch (d.kind) {
    case 'seat': return level ? t('web.event.seat-bot', { name, bot: botName(d.bot) }) : t('web.event.seat', { name });
    case 'unseat': return t('web.event.unseat', { name });
    case 'waiting': return level ? t('web.event.waiting-bot', { name, bot: botName(d.bot) }) : t('web.event.waiting', { name });
    case 'start': return t('web.news.start');
    case 'hand': return t('web.event.deal', { hand: d.hand });
    case 'join': return t('web.event.join', { name, seat: Number(d.seat) + 1 });
    case 'leaving': return t('web.event.leaving', { name });
    case 'leave': return t('web.event.leave', { name });
    case 'away': return t('web.news.away', { name });
    case 'back': return t('web.news.back', { name });
    case 'revolution': return t('web.news.revolution', { name, revolution: gameWord('revolution') });
    case 'over': return d.winner ? t('web.news.over-winner', { winner: shownName(d.winner) }) : t('web.news.over');
    case 'rematch': return t('web.news.rematch');
    case 'spectator_chat': return d.allowed ? t('web.news.spectators-allowed') : t('web.news.spectators-refused');
    case 'chat_removed': return t('web.news.chat-removed', { name });
    case 'rated': {
      const people = (d.ratings || []).filter(r => !r.bot)
        .map(r => t('web.news.rated-one', { name: r.name, rating: ratingText(r.after), change: changeText(r.before, r.after) }));
      return people.length ? t('web.news.rated', { ratings: list(people) }) : null;
    }
    default: return null;
  }
}

// ------------------------------------------------------------ moderation

const mutedKey = 'dalmuti.muted';

/** The names this browser muted (its own choice: nobody else's view changes). */
function muted() {
  try {
    const names = JSON.parse(store.get(mutedKey));
    return Array.isArray(names) ? names.filter(n => typeof n === 'string') : [];
  } catch (_) {
    return [];
  }
}

function setMuted(names) {
  store.set(mutedKey, JSON.stringify(names));
  renderLines();
}

/** Whether a chat line is hidden here: its speaker is muted. */
function isMuted(c) {
  return c.from != null && muted().includes(c.from);
}

/** The line being reported, while its form asks why: {n, from, button}. */
let reporting = null;

/** Opens the report's form for line `c`: a report says why (docs/PROTOCOL.md, reports `why`). */
function openReport(c, button) {
  reporting = { n: c.n, from: c.from, button };
  const form = $('chat-report');
  form.reset();
  setError($('report-error'), '');
  $('report-title').textContent = t('web.report.title', { name: c.from, text: c.text.length > 60 ? c.text.slice(0, 60) + '…' : c.text });
  show(form, true);
  form.scrollIntoView({ block: 'nearest' });
  form.querySelector('input[type="radio"]').focus();
}

function closeReport() {
  const button = reporting && reporting.button;
  reporting = null;
  show($('chat-report'), false);
  if (button && button.isConnected) button.focus();
}

async function sendReport(event) {
  event.preventDefault();
  if (!reporting) return;
  const chosen = $('chat-report').querySelector('input[name="report-why"]:checked');
  if (!chosen) {
    setError($('report-error'), t('web.report.need'));
    return;
  }
  // Said to the operator in the server's words (English), with the player's own.
  const more = $('report-more').value.trim();
  const why = chosen.value + (more ? ': ' + more : '');
  const { n, button } = reporting;
  try {
    await api('POST', '/api/tables/' + encodeURIComponent(T.id) + '/reports', { n, why }, myToken());
    reported.add(n);
    reporting = null;
    show($('chat-report'), false);
    renderLines();
    announce(t('web.chat.reported-long'));
    if (button && button.isConnected) button.focus();
  } catch (e) {
    setError($('report-error'), e.message);
  }
}

/** Lines reported from this page: their button says so. */
const reported = new Set();

async function removeChat(name, button) {
  button.disabled = true;
  try {
    await api('POST', '/api/tables/' + encodeURIComponent(T.id) + '/silence', { name }, myToken());
  } catch (e) {
    button.disabled = false;
    showError(e.message);
  }
}

/** The actions on someone else's line: mute, report (a seat), remove (the host). */
function lineActions(c) {
  const s = T.state;
  if (!s || c.from == null || c.from === s.you) return null;
  const name = c.from;
  const seat = !c.spectator && (s.lobby || []).some(x => x.name === name);
  return el('span', { class: 'chat-actions' },
    el('button', { type: 'button', class: 'link small', 'data-testid': 'chat-mute',
      'aria-label': t('web.chat.mute-name', { name }),
      onclick: () => setMuted([...new Set([...muted(), name])]) }, t('web.chat.mute')),
    s.you ? el('button', { type: 'button', class: 'link small', 'data-testid': 'chat-report',
      'aria-label': reported.has(c.n) ? null : t('web.chat.report-name', { name }), disabled: reported.has(c.n),
      onclick: event => openReport(c, event.currentTarget) }, t(reported.has(c.n) ? 'web.chat.reported' : 'web.chat.report')) : null,
    seat && isHost() ? el('button', { type: 'button', class: 'link small', 'data-testid': 'chat-remove',
      'aria-label': t('web.chat.remove-name', { name }),
      onclick: event => removeChat(name, event.currentTarget) }, t('web.chat.remove')) : null);
}

/** Who this browser muted, each with a way back. */
function renderMuted() {
  const node = $('chat-muted');
  if (!node) return;
  const names = muted();
  show(node, names.length > 0);
  node.replaceChildren(...(names.length ? [t('web.chat.muted'), ' '] : []),
    ...names.map(name => el('button', { type: 'button', class: 'link small', 'data-testid': 'chat-unmute',
      onclick: () => setMuted(muted().filter(n => n !== name)) }, t('web.chat.unmute', { name }))));
}

function lineNode(line) {
  if (line.chat) {
    const c = line.chat;
    if (isMuted(c)) return null;
    const who = speaker(c);
    return el('li', { class: 'news-chat' + (c.spectator ? ' from-spectator' : ''), dataset: { n: String(c.n) } },
      t('web.chat.line', { name: who, text: c.text }),
      c.spectator ? el('span', { class: 'chat-tag muted' }, ' ' + t('web.chat.spectator-tag')) : null,
      lineActions(c));
  }
  if (line.news) {
    const words = newsWords(line.news);
    if (words == null) return null;
    return el('li', { class: 'news-system news-' + line.news.kind, dataset: { n: String(line.news.n) } }, words);
  }
  return el('li', { class: 'news-' + line.kind }, line.text);
}

/** Draws every line again (after a new line, or in a new language). */
export function renderLines() {
  const list = $('chat');
  if (!list) return;
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  list.replaceChildren(...lines.map(lineNode).filter(Boolean));
  renderMuted();
  if (atBottom || list.scrollTop === 0) list.scrollTop = list.scrollHeight;
}

// ------------------------------------------------------------ unread

function lastSeen() {
  return T.id ? Number(store.get(seenKey(T.id))) || 0 : 0;
}

/** Chat lines of others newer than the last one seen here. */
export function unreadCount() {
  const seen = lastSeen();
  // News lines do not count: a hand dealt is no reason to look at the chat.
  return lines.filter(x => x.chat && x.n > seen && !(x.chat.from != null && x.chat.from === me())).length;
}

/** Whether the chat list is on screen now. */
export function chatVisible() {
  return chatInView && !document.hidden;
}

/** Everything shown so far counts as read (the chat is on screen, or its tab was opened). */
export function markChatSeen() {
  if (!T.id) return;
  if (maxN > lastSeen()) store.set(seenKey(T.id), String(maxN));
  hideToast();
  updateUnread();
}

function updateUnread() {
  if (chatVisible()) {
    if (T.id && maxN > lastSeen()) store.set(seenKey(T.id), String(maxN));
  }
  const count = unreadCount();
  const badge = $('chat-unread');
  if (badge) {
    const words = tn('web.chat.unread', count);
    badge.replaceChildren(el('span', { 'aria-hidden': 'true' }, String(count)), el('span', { class: 'sr-only' }, words));
    badge.title = words;
    badge.dataset.count = String(count);
    show(badge, count > 0);
  }
  document.dispatchEvent(new CustomEvent('dalmuti-unread', { detail: { count } }));
}

function watchVisibility() {
  if (observer || !('IntersectionObserver' in window)) {
    if (!('IntersectionObserver' in window)) chatInView = true;
    return;
  }
  observer = new IntersectionObserver(entries => {
    for (const entry of entries) chatInView = entry.isIntersecting;
    if (chatVisible()) { hideToast(); updateUnread(); }
  });
  observer.observe($('chat'));
  document.addEventListener('visibilitychange', () => { if (chatVisible()) updateUnread(); });
}

function showToast(c) {
  const toast = $('chat-toast');
  if (!toast) return;
  toast.replaceChildren(el('span', { class: 'toast-text' }, t('web.chat.line', { name: speaker(c), text: c.text })));
  show(toast, true);
  clearTimeout(toastTimer);
  toastTimer = setTimeout(hideToast, 6000);
}

function hideToast() {
  clearTimeout(toastTimer);
  const toast = $('chat-toast');
  if (toast) show(toast, false);
}

/** The toast was clicked: show the chat (its tab, on phones) and put the cursor in it. */
export function revealChat() {
  hideToast();
  document.dispatchEvent(new CustomEvent('dalmuti-show-chat'));
  const panel = $('chat-panel') || $('chat');
  panel.scrollIntoView({ block: 'nearest' });
  const input = $('chat-input');
  if (!input.disabled) input.focus({ preventScroll: true });
  markChatSeen();
}

// ------------------------------------------------------------ the form

/** Whether this browser may chat here: a seat, or a spectator the host allows. */
export function canChat() {
  const s = T.state;
  return !!(s && (s.you || s.spectator_chat)) && !silenced();
}

/** Whether the host removed this seat's chat. */
function silenced() {
  const s = T.state;
  return !!(s && s.you && (s.silenced || []).includes(s.you));
}

/** The chat's form and the host's toggle, from the last STATE. */
export function renderChat() {
  const s = T.state;
  if (!s) return;
  const may = canChat();
  const spectator = !s.you;
  $('chat-input').disabled = !may;
  $('chat-send').disabled = !may;
  $('chat-input').placeholder = may ? t('web.html.say')
    : silenced() ? t('web.chat.silenced') : t('web.chat.spectators-off');
  const nameField = $('chat-name-field');
  show(nameField, spectator && !!s.spectator_chat);
  if (spectator && s.spectator_chat && !$('chat-name').value && document.activeElement !== $('chat-name')) {
    $('chat-name').value = store.get(spectatorNameKey) || '';
  }
  // Nobody can come to watch a private table where the host plays alone
  // with bots: no setting for spectators there.
  const solo = !s.public && (s.lobby || []).every(x => x.name === s.you || x.bot);
  const host = isHost();
  show($('spectator-chat-field'), host && !solo);
  if (host) $('spectator-chat').checked = !!s.spectator_chat;
}

export function onChat(event) {
  event.preventDefault();
  const input = $('chat-input');
  const text = input.value.trim();
  if (!text) return;
  const line = text.slice(0, 500);
  const s = T.state;
  if (s && !s.you && s.spectator_chat) {
    // A spectator's name goes with hello: a new name means a new hello.
    const name = $('chat-name').value.trim().slice(0, 32);
    const said = (store.get(spectatorNameKey) || '').trim();
    if (name !== said) {
      store.set(spectatorNameKey, name);
      pendingLine = line;
      reconnectNow();
      return;
    }
  }
  if (send({ t: 'chat', d: line })) input.value = '';
  else showError(t('web.chat.not-sent'));
}

export async function onSpectatorChatToggle(event) {
  const box = event.target;
  const allowed = box.checked;
  box.disabled = true;
  try {
    await api('POST', '/api/tables/' + encodeURIComponent(T.id) + '/settings', { spectator_chat: allowed }, myToken());
  } catch (e) {
    box.checked = !allowed;
    showError(t('web.chat.setting-failed', { reason: e.message }));
  } finally {
    box.disabled = false;
  }
}

/** Wires the chat's controls (once, at start-up). */
export function setUpChat() {
  $('chat-form').addEventListener('submit', onChat);
  $('chat-report').addEventListener('submit', sendReport);
  $('report-cancel').addEventListener('click', closeReport);
  $('spectator-chat').addEventListener('change', onSpectatorChatToggle);
  $('chat-toast').addEventListener('click', revealChat);
  watchVisibility();
}
