// The table view: opening a table, joining and leaving, the host's
// controls before the start, and drawing the table from the last STATE
// (the status, the log; the board, results and side panels through their
// own modules).

import { $, el, show, setError, replaceKeepingFocus, announce } from './dom.js';
import { beforePile, afterRender, clearBanners, showTurnInIcon } from './fx.js';
import { renderTour } from './tour.js';
import { renderElsewhere, clearElsewhere, seatHeldElsewhere } from './elsewhere.js';
import { t, tn } from './i18n.js';
import { api } from './api.js';
import { isOffline } from './offline.js';
import { secret } from './player.js';
import { store } from './storage.js';
import { T, nav, noSelection, view, decision, asked, playerName, shownPlayer, shownName, myLobby, myToken, isHost } from './state.js';
import { isCorporate, gameName, gameWord, middleTitle, titleText, botName, list, logWords, vt, tableName, cardsText } from './words.js';
import { connect, closeSocket, reconnectNow, setNotice, addNews } from './connection.js';
import { renderHand, renderActions } from './hand.js';
import { renderDecision } from './dialogs.js';
import { renderFair } from './fair.js';
import { resetChat, renderChat } from './chat.js';
import { renderRematch } from './rematch.js';
import { renderDockTop, renderPile, renderSeats, renderTimers, renderTurnLine, placeBubbles } from './board.js';
import { renderGameOver, renderResult } from './results.js';
import { renderOffline, renderSideTabs, reserveSheet } from './panels.js';

export function resetTable(id) {
  closeSocket();
  Object.assign(T, {
    id, state: null, v: 0, pending: false, sel: noSelection(), ask: null, tax: [],
    exchange: { partner: null, card: null }, answer: null, logHand: 0, logLen: 0,
    decisionKey: '', deadlineAt: null, nextDealAt: null, setupAt: null, quietHand: 0, lastResult: null, fair: {}, news: [],
    seenState: false, retry: 0, joined: [],
  });
  setNotice('');
  resetChat();
  clearBanners();
  $('log').replaceChildren();
  setError($('t-error'), '');
}

export async function showTable(id) {
  if (T.id !== id || !T.wanted) {
    resetTable(id);
    $('t-name').textContent = t('web.table.title');
    $('t-status').textContent = t('web.table.connecting');
    show($('t-game'), false);
    show($('t-prestart'), false);
    show($('t-join'), false);
    clearElsewhere();
  }
  $('invite-link').value = location.origin + '/#/t/' + encodeURIComponent(id);
  $('join-name').value = $('join-name').value || store.name();
  // A game played on this device has no table on the server to ask of:
  // its first STATE names it.
  if (!isOffline(id)) {
    try {
      const info = await api('GET', '/api/tables/' + encodeURIComponent(id));
      if (nav.route.view !== 'table' || nav.route.id !== id) return;
      if (!T.state) {
        $('t-name').textContent = tableName(info);
        document.title = t('web.page.title', { name: tableName(info), game: gameName(info.variant) });
      }
    } catch (e) {
      if (e.status === 404) {
        $('t-status').textContent = '';
        setError($('t-error'), t('web.table.no-such', { id }));
        return;
      }
      setError($('t-error'), t('web.table.load-failed', { reason: e.message }));
    }
  }
  T.wanted = true;
  connect();
}

export function leaveTableView() {
  T.wanted = false;
  document.body.style.paddingBottom = '';
  document.documentElement.style.scrollPaddingBottom = '';
  renderOffline('');
  closeSocket();
  T.id = null;
}

export async function onJoin(event) {
  event.preventDefault();
  const name = $('join-name').value.trim();
  if (!name) return setError($('t-error'), t('web.join.need-name'));
  $('join-submit').disabled = true;
  try {
    const answer = await api('POST', '/api/tables/' + encodeURIComponent(T.id) + '/seats', { name }, undefined, secret());
    store.setToken(T.id, answer.token);
    store.setName(name);
    setError($('t-error'), '');
    reconnectNow();
  } catch (e) {
    setError($('t-error'), t('web.join.failed', { reason: e.message }));
  } finally {
    $('join-submit').disabled = false;
  }
}

export async function onLeave() {
  const started = T.state && T.state.started;
  const mine = myLobby();
  // A newcomer still waiting for the next hand, like a seat before the
  // start, is freed at once; a player in the game leaves when the hand ends.
  const atOnce = !started || !!(mine && mine.waiting);
  if (mine && mine.leaving) return;
  const question = !started ? t('web.leave.confirm-seat') : atOnce ? t('web.leave.confirm-place') : t('web.leave.confirm-game');
  if (!window.confirm(question)) return;
  $('leave-btn').disabled = true;
  try {
    await api('DELETE', '/api/tables/' + encodeURIComponent(T.id) + '/seats', undefined, myToken());
    if (atOnce) {
      // The server may have closed our connection first (onclose did this then).
      if (store.token(T.id)) {
        store.dropToken(T.id);
        if (started) addNews(t('web.news.gave-up'), 'system');
        reconnectNow();
      }
    } else {
      addNews(t('web.news.leaving'), 'system');
      announce(t('web.announce.leaving'));
    }
  } catch (e) {
    setError($('t-error'), t('web.leave.failed', { reason: e.message }));
  } finally {
    $('leave-btn').disabled = false;
    if (T.state) render();
  }
}

// While a request is out its button says so with aria-disabled, not
// `disabled`: a disabled button drops the keyboard focus (to the page's
// top), and the host who adds four bots presses Enter four times.
let addingBot = false;
let starting = false;

export async function onAddBot() {
  if (addingBot) return;
  const bot = $('bot-level').value;
  addingBot = true;
  $('add-bot').setAttribute('aria-disabled', 'true');
  try {
    await api('POST', '/api/tables/' + encodeURIComponent(T.id) + '/bots', { bot }, myToken());
    setError($('t-error'), '');
  } catch (e) {
    setError($('t-error'), t('web.bots.add-failed', { reason: e.message }));
  } finally {
    addingBot = false;
    $('add-bot').removeAttribute('aria-disabled');
    renderPrestart();
  }
}

async function onRemoveBot(name) {
  try {
    await api('DELETE', '/api/tables/' + encodeURIComponent(T.id) + '/bots/' + encodeURIComponent(name), undefined, myToken());
    setError($('t-error'), '');
  } catch (e) {
    setError($('t-error'), t('web.bots.remove-failed', { name, reason: e.message }));
  }
}

export async function onStart() {
  if (starting) return;
  starting = true;
  $('start-game').setAttribute('aria-disabled', 'true');
  try {
    await api('POST', '/api/tables/' + encodeURIComponent(T.id) + '/start', undefined, myToken());
    setError($('t-error'), '');
  } catch (e) {
    setError($('t-error'), t('web.start.failed', { reason: e.message }));
  } finally {
    starting = false;
    $('start-game').removeAttribute('aria-disabled');
  }
}

/** Focus on a control about to be hidden or disabled goes on to the next thing to do. */
function keepFocus(wasOn, hidden) {
  if (!hidden()) return;
  // The table is full: Start is next. The game has started: the hand.
  if (wasOn === $('add-bot') && !$('start-game').disabled) { $('start-game').focus(); return; }
  // The hand is drawn after this (and its cards may wait for the deal):
  // look for it a little while, else the turn line says what comes.
  const since = Date.now();
  const next = () => {
    if (document.activeElement && document.activeElement !== document.body && document.activeElement !== wasOn) return;
    const card = document.querySelector('#hand button:not([disabled])');
    if (card && card.offsetParent !== null) { card.focus({ preventScroll: true }); return; }
    if (Date.now() - since < 1500) { setTimeout(next, 50); return; }
    const line = $('turn-line');
    line.tabIndex = -1;
    line.focus({ preventScroll: true });
  };
  setTimeout(next, 0);
}

export async function onCopyInvite() {
  const input = $('invite-link');
  try {
    await navigator.clipboard.writeText(input.value);
    announce(t('web.invite.copied-announce'));
    $('invite-copy').textContent = t('web.invite.copied');
  } catch (_) {
    input.select();
    try { document.execCommand('copy'); $('invite-copy').textContent = t('web.invite.copied'); } catch (_) { /* select is enough */ }
  }
  setTimeout(() => { $('invite-copy').textContent = t('web.invite.copy'); }, 2000);
}

// ====================================================================
// Rendering
// ====================================================================

export function render() {
  const s = T.state;
  if (!s) return;
  const name = tableName(s);
  $('t-name').textContent = name;
  // Cut on a phone: the whole name on hover.
  $('t-name').title = name;
  document.title = (asked() ? '▶ ' : '') + t('web.page.title', { name, game: gameWord('game') });
  showTurnInIcon(asked());
  renderStatus();
  renderJoin();
  renderPrestart();
  const inGame = !!(s.started && s.view);
  show($('t-game'), !!s.started);
  $('view-table').classList.toggle('in-game', !!(s.started && !s.game_over));
  // A game on this device has nobody to invite, chat with or leave to:
  // no invite link, no chat, no Leave (the lobby is one tap away).
  const here = isOffline(T.id);
  show($('t-invite'), !s.game_over && !here);
  show($('chat-panel'), !here);
  // Before the start the invite link is at the top; during the game, at the side.
  const inviteHome = s.started ? $('invite-side') : $('invite-top');
  if ($('t-invite').parentNode !== inviteHome) inviteHome.append($('t-invite'));
  if (s.started) {
    if (inGame) {
      $('game-main').classList.toggle('hand-over', s.view.stage === 'over');
      const oldPile = beforePile();
      renderSeats();
      renderPile();
      renderDockTop();
      renderTurnLine();
      renderDecision();
      renderHand();
      renderLog();
      afterRender(oldPile);
    }
    renderActions();
    renderResult();
    renderGameOver();
    renderRematch();
    renderFair();
    renderTimers();
    renderMyStatus();
    renderOthers();
    const mine = myLobby();
    $('leave-btn').hidden = !(s.you && !s.game_over) || here;
    $('leave-btn').textContent = mine && mine.waiting ? t('web.leave.place')
      : mine && mine.leaving ? t('web.leave.leaving') : t('web.leave.table');
    $('leave-btn').disabled = !!(mine && mine.leaving);
    show($('dock'), !!(s.you && s.view && s.view.hand != null && !s.game_over));
    renderChat();
    renderSideTabs();
  }
  renderTour();
  renderElsewhere();
  reserveSheet();
  // Once the board has its size: the seats' bubbles where they cover no words.
  if (s.started && s.view) placeBubbles();
}

/** Where I stand when I am not simply playing: waiting to enter, leaving. */
function renderMyStatus() {
  const s = T.state;
  const mine = myLobby();
  const node = $('t-mine');
  let text = '';
  if (mine && mine.waiting && !s.game_over) {
    text = t('web.me.waiting', { title: titleText(middleTitle()) });
    node.dataset.state = 'waiting';
  } else if (mine && mine.leaving && !s.game_over) {
    text = t('web.me.leaving');
    node.dataset.state = 'leaving';
  } else {
    node.dataset.state = '';
  }
  node.textContent = text;
  show(node, !!text);
}

/** Seats of the lobby not in this hand: newcomers waiting for the next one. */
function renderOthers() {
  const s = T.state;
  const inHand = new Set(s.players || []);
  const others = (s.lobby || []).filter(x => !inHand.has(x.name));
  const items = others.map(x => el('li', { class: 'other', dataset: { name: x.name, waiting: String(!!x.waiting) } },
    x.bot ? '🤖 ' : x.connected ? '● ' : '○ ',
    el('strong', {}, shownName(x.name)), x.name === s.you ? ' ' + t('web.you-mark') : '',
    x.bot ? ' ' + t('web.bot.mark', { bot: botName(x.bot) }) : '',
    x.waiting ? t('web.others.waits') : ''));
  $('t-others').replaceChildren(...(items.length ? [el('li', { class: 'muted' }, t('web.others.title'))] : []), ...items);
  show($('t-others'), items.length > 0);
}

function renderStatus() {
  const s = T.state;
  const parts = [];
  if (isCorporate()) parts.push(gameWord('game'));
  parts.push(tn('web.status.seats', s.seats));
  if (s.game_over) parts.push(t('web.status.over'));
  else if (s.started) {
    parts.push(s.rules && s.rules.hands
      ? t('web.status.hand-of', { hand: s.hand, hands: s.rules.hands })
      : t('web.status.hand', { hand: s.hand }));
  } else parts.push(t('web.status.not-started'));
  // A small phone shows the hand's number beside the hand, not above the table.
  $('dock-hand').textContent = s.started && !s.game_over ? parts[parts.length - 1] : '';
  if (s.turn_seconds) parts.push(t('web.status.timer', { seconds: s.turn_seconds }));
  parts.push(s.public ? t('web.status.public') : t('web.status.private'));
  if (s.you) parts.push(t('web.status.you', { name: s.you }));
  else parts.push(t('web.status.watching'));
  $('t-status').textContent = parts.join(' · ');
  $('t-status').dataset.hand = String(s.hand || 0);
}

function rulesWords(rules) {
  if (!rules) return '';
  const words = [];
  if (rules.stripped_deck) words.push(t('web.rules.stripped'));
  if (rules.first_deal_revolution) words.push(t('web.rules.first-deal', { revolution: gameWord('revolution') }));
  if (rules.merchant_exchange) words.push(gameWord('exchange'));
  if (rules.scoring && rules.scoring !== 'none') words.push(t('web.rules.scoring', { scoring: t('web.scoring.' + rules.scoring) }));
  if (rules.join_and_leave) words.push(t('web.rules.join-and-leave'));
  const game = isCorporate() ? t('web.rules.game', { game: gameWord('game') }) + ' ' : '';
  return game + (words.length ? t('web.rules.list', { rules: list(words) }) : t('web.rules.basic'));
}

function renderJoin() {
  const s = T.state;
  const canJoin = !s.you && !myToken() && !s.game_over && !seatHeldElsewhere() &&
    (!s.started || (s.rules && s.rules.join_and_leave));
  show($('t-join'), canJoin);
  if (canJoin) {
    $('join-note').textContent = s.started
      ? t('web.join.later', { title: titleText(middleTitle()) })
      : t('web.join.taken', { taken: s.lobby ? s.lobby.length : 0, seats: s.seats });
  }
}

export function renderPrestart() {
  const s = T.state;
  if (!s) return;
  const pre = !s.started;
  const focused = document.activeElement;
  show($('t-prestart'), pre);
  if (!pre) {
    if (focused === $('add-bot') || focused === $('start-game')) keepFocus(focused, () => true);
    return;
  }
  const host = isHost();
  const lobby = s.lobby || [];
  const items = lobby.map(seat => {
    const tags = [];
    if (seat.name === s.host) tags.push(t('web.prestart.host'));
    if (seat.name === s.you) tags.push(t('web.prestart.you'));
    if (seat.bot) tags.push(t('web.bot.tag', { bot: botName(seat.bot) }));
    const conn = seat.bot ? '🤖' : seat.connected ? '●' : '○';
    const connText = seat.bot ? t('web.conn.bot') : seat.connected ? t('web.conn.connected') : t('web.conn.not-connected');
    return el('li', { class: 'lobby-seat' + (seat.connected || seat.bot ? '' : ' gone'), dataset: { name: seat.name } },
      el('span', { class: 'conn-dot', 'aria-hidden': 'true' }, conn),
      el('span', { class: 'ls-name' }, shownName(seat.name)),
      tags.length ? el('span', { class: 'muted' }, ' (' + list(tags) + ')') : null,
      el('span', { class: 'sr-only' }, ', ' + connText),
      host && seat.bot ? el('button', {
        type: 'button', class: 'small ghost', 'data-testid': 'remove-bot', dataset: { key: 'rm-' + seat.name },
        'aria-label': t('web.bots.remove-label', { name: shownName(seat.name) }), onclick: () => onRemoveBot(seat.name),
      }, t('web.bots.remove')) : null);
  });
  const free = s.seats - lobby.length;
  for (let i = 0; i < free; i++) {
    items.push(el('li', { class: 'lobby-seat empty' }, el('span', { class: 'muted' }, t('web.prestart.free'))));
  }
  replaceKeepingFocus($('lobby-seats'), items);
  $('t-prestart').dataset.taken = String(lobby.length);
  show($('host-controls'), host);
  show($('guest-note'), !host);
  if (host) {
    // Contest programs are offered where the server says they may sit.
    const programs = s.program_port != null;
    $('bot-program').hidden = !programs;
    if (!programs && $('bot-level').value === 'program') $('bot-level').value = 'normal';
    $('add-bot').disabled = free <= 0;
    $('start-game').disabled = lobby.length < 3;
    if (focused === $('add-bot') || focused === $('start-game')) keepFocus(focused, () => focused.disabled);
    const state = lobby.length < 3 ? t('web.prestart.too-few')
      : free > 0 ? tn('web.prestart.can-start', lobby.length) : t('web.prestart.full');
    $('start-note').textContent = state + ' ' + rulesWords(s.rules) +
      (programs ? ' ' + t('web.prestart.programs', { port: s.program_port }) : '');
  } else {
    $('guest-note').textContent = (s.host ? t('web.prestart.guest-named', { host: s.host }) : t('web.prestart.guest')) +
      ' ' + rulesWords(s.rules);
  }
  $('leave-btn').hidden = true;
  $('prestart-leave').hidden = !s.you;
}

function renderLog() {
  const vw = view();
  const logList = $('log');
  const items = (vw.log || []).map(entry => el('li', { class: 'log-' + entry.event }, logWords(entry, shownPlayer)));
  const nothing = t('web.log.nothing');
  if (vw.my_tax) {
    items.unshift(el('li', { class: 'log-mine' }, vt('log.my-tax', {
      name: shownPlayer(vw.my_tax.with), gave: cardsText(vw.my_tax.gave) || nothing, got: cardsText(vw.my_tax.received) || nothing,
    })));
  }
  if (vw.my_trade) {
    items.unshift(el('li', { class: 'log-mine' }, t('web.log.my-trade', {
      exchange: gameWord('exchange'), name: shownPlayer(vw.my_trade.with),
      gave: vw.my_trade.gave || nothing, got: vw.my_trade.received || nothing,
    })));
  }
  if (T.state.dealt) items.unshift(el('li', { class: 'log-mine' }, t('web.log.dealt', { cards: cardsText(T.state.dealt) })));
  items.unshift(el('li', { class: 'log-head' }, t('web.log.head', { hand: T.state.hand })));
  logList.replaceChildren(...items);
  logList.scrollTop = logList.scrollHeight;
}
