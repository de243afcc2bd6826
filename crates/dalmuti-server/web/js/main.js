// The browser client of `dalmuti serve`: plain JavaScript modules, no
// build step. The contract with the server is docs/PROTOCOL.md.
//
// Start-up and routing: #/ lobby, #/t/ID table, #/replay/ID replay. The
// other modules: words (cards and sentences), i18n (the catalogue), dom,
// storage, api (HTTP), state (shared state), connection (WebSocket),
// table (the table view), hand (your hand and Play), dialogs, fair (deal
// checks), lobby, replay, keyboard. Beside them, /sw.js: the service
// worker that caches the client's files (registered here).

import { $, show } from './dom.js';
import { t, i18n, LANGS, detectLang, setLang, onLangChange } from './i18n.js';
import { T, R, nav } from './state.js';
import { BOT_LEVELS } from './words.js';
import { reconnectNow } from './connection.js';
import {
  showTable, leaveTableView, render, onJoin, onLeave, onAddBot, onStart, onCopyInvite,
} from './table.js';
import { renderTimers } from './board.js';
import {
  setUpChat, renderLines, addNews, loadTalk, onChatLine, onNewsLine, spectatorHello,
} from './chat.js';
import { adjustSelection, onPlay, onPass, keepSelectionSane, renderActions, markFresh } from './hand.js';
import { renderDecision } from './dialogs.js';
import { renderOffline } from './panels.js';
import { setViews } from './views.js';
import { showLobby, loadLobby, onVariantChange, onPresetChange, onCreate, setUpLobby, setUpInviteShare } from './lobby.js';
import { showReplay, renderFrame, setUpReplay, stopAutoplay } from './replay.js';
import { showPlayersView, setUpPlayers } from './profile.js';
import { recover, stillKnown } from './player.js';
import { setUpQueue, renderQueue } from './queue.js';
import { onKeydown, toggleHelp } from './keyboard.js';
import { restartTour } from './tour.js';
import { setUpElsewhere, seatElsewhere } from './elsewhere.js';
import { fillGameMenus, loadGames } from './games.js';

setViews({
  render, renderOffline, keepSelectionSane, renderActions, markFresh, renderDecision,
  addNews, loadTalk, onChatLine, onNewsLine, spectatorHello, seatElsewhere,
});

function parseRoute() {
  const hash = location.hash.replace(/^#/, '') || '/';
  let m = hash.match(/^\/t\/([^/?]+)/);
  if (m) return { view: 'table', id: decodeURIComponent(m[1]) };
  m = hash.match(/^\/replay\/([^/?]+)/);
  if (m) return { view: 'replay', id: decodeURIComponent(m[1]) };
  m = hash.match(/^\/p\/([^/?]+)/);
  if (m) return { view: 'profile', name: decodeURIComponent(m[1]) };
  if (/^\/leaderboard\b/.test(hash)) return { view: 'leaderboard' };
  return { view: 'lobby' };
}

function onRoute() {
  const next = parseRoute();
  const route = nav.route;
  if (route.view === 'table' && (next.view !== 'table' || next.id !== route.id)) leaveTableView();
  if (route.view === 'replay') stopAutoplay();
  nav.route = next;
  for (const view of ['lobby', 'table', 'replay']) show($('view-' + view), view === next.view);
  show($('view-players'), next.view === 'profile' || next.view === 'leaderboard');
  if (next.view === 'profile' || next.view === 'leaderboard') showPlayersView(next);
  else if (next.view === 'lobby') showLobby();
  else if (next.view === 'table') showTable(next.id);
  else if (next.view === 'replay') showReplay(next.id);
}

function tick() {
  if (nav.route.view === 'table' && T.state) renderTimers();
}

/** The language menu in the header: every language named in itself. */
function setUpLanguageMenu() {
  const select = $('lang-select');
  select.replaceChildren(...LANGS.map(l => {
    const option = document.createElement('option');
    option.value = l.code;
    option.textContent = l.name;
    option.lang = l.code;
    return option;
  }));
  select.value = i18n.lang;
  select.addEventListener('change', () => {
    setLang(select.value, true).catch(() => { select.value = i18n.lang; });
  });
}

/** After a switch of language: everything on screen again, in it. */
function rerender() {
  $('lang-select').value = i18n.lang;
  onVariantChange();
  const route = nav.route;
  renderQueue();
  if (route.view === 'lobby') {
    document.title = t('web.page.lobby');
    loadLobby();
  } else if (route.view === 'table') {
    renderLines();
    if (T.state) {
      render();
      renderTimers();
    } else {
      $('t-name').textContent = t('web.table.title');
    }
  } else if (route.view === 'profile' || route.view === 'leaderboard') {
    showPlayersView(route);
  } else if (route.view === 'replay') {
    document.title = t('web.page.replay');
    if (R.data) renderFrame(R.i);
    else $('r-title').textContent = t('web.replay.title');
  }
}

async function init() {
  // For tests and curious people: the client's state, read only; there
  // from the start (before the words are fetched), so a script that looks
  // at once finds it, empty, rather than nothing.
  window.dalmutiClient = { table: T, replay: R, BOT_LEVELS, i18n };
  try {
    await setLang(detectLang(), false);
  } catch (e) {
    // Without the catalogue the keys show: ugly, but the game still works.
    console.error('no words for the language:', e);
  }
  setUpLanguageMenu();
  onLangChange(rerender);
  fillGameMenus();
  // Asked at once, so the form's sizes and presets are ready when opened.
  loadGames().catch(() => {});
  onVariantChange();
  $('create-form').addEventListener('submit', onCreate);
  $('c-variant').addEventListener('change', onVariantChange);
  $('c-preset').addEventListener('change', onPresetChange);
  $('lobby-refresh').addEventListener('click', loadLobby);
  $('join-form').addEventListener('submit', onJoin);
  $('add-bot').addEventListener('click', onAddBot);
  $('start-game').addEventListener('click', onStart);
  $('leave-btn').addEventListener('click', onLeave);
  $('prestart-leave').addEventListener('click', onLeave);
  $('invite-copy').addEventListener('click', onCopyInvite);
  setUpElsewhere();
  $('play-btn').addEventListener('click', onPlay);
  $('pass-btn').addEventListener('click', onPass);
  $('sel-less').addEventListener('click', () => adjustSelection(-1));
  $('sel-more').addEventListener('click', () => adjustSelection(1));
  setUpChat();
  setUpLobby();
  setUpInviteShare();
  setUpReplay();
  setUpPlayers();
  setUpQueue();
  $('help-toggle').addEventListener('click', () => toggleHelp());
  $('about-help').addEventListener('click', () => toggleHelp(true));
  $('help-close').addEventListener('click', () => toggleHelp(false));
  $('tour-again').addEventListener('click', () => { toggleHelp(false); restartTour(); });
  document.addEventListener('keydown', onKeydown);
  window.addEventListener('hashchange', onRoute);
  document.addEventListener('visibilitychange', () => {
    // Back on the page: reconnect at once rather than waiting out the backoff.
    if (!document.hidden && nav.route.view === 'table' && T.wanted && !T.ws) reconnectNow();
  });
  setInterval(tick, 250);
  await recoverPlayer();
  onRoute();
}

/**
 * A recovery link (`#player=…`) makes this browser its player; the lobby
 * says so. A link the server does not know is said to be wrong there.
 */
async function recoverPlayer() {
  try {
    const player = await recover();
    if (player) {
      announceLater(t('web.players.recovered', { name: player.name }));
      return;
    }
  } catch (e) {
    history.replaceState(null, '', location.pathname + '#/');
    announceLater(e.message);
    return;
  }
  // A secret replaced on another device (a new recovery link) is no
  // one's: this browser forgets it and says so.
  const replaced = await stillKnown();
  if (replaced) announceLater(t('web.players.replaced', { name: replaced }));
}

/** Shows `text` in the lobby's player box once the lobby is up. */
function announceLater(text) {
  const node = $('player-note');
  node.textContent = text;
  node.hidden = false;
}

/**
 * The service worker (/sw.js) keeps the client's files so that the page
 * opens without the server; registered once the page has loaded, so it
 * takes nothing from the first view's requests.
 */
function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  const register = () => navigator.serviceWorker.register('/sw.js')
    .catch(e => console.warn('no service worker:', e && e.message));
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

// A module runs after the document is parsed.
init();
registerServiceWorker();
