// Play now with people (docs/PROTOCOL.md, Play now): a player who kept a
// name asks for a table of a size and how long to wait for people before
// bots take the empty seats; the page asks the server every second how it
// goes, and once seated takes the seat on this device and opens the table.

import { $, show, setError, announce } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { store } from './storage.js';
import { me } from './player.js';

const POLL_MS = 1000;
let ticket = null;
let timer = null;

function stop() {
  clearTimeout(timer);
  timer = null;
  ticket = null;
  show($('queue-status'), false);
  show($('queue-cancel'), false);
  $('queue-find').disabled = false;
}

function say(standing, players, waitS) {
  const left = Math.max(0, Math.ceil((standing.since + waitS * 1000 - Date.now()) / 1000));
  const text = t('web.queue.waiting', { n: standing.waiting, players }) + ' ' + t('web.queue.bots-in', { s: left });
  const node = $('queue-status');
  node.textContent = text;
  show(node, true);
}

async function poll(player, players, waitS) {
  if (!ticket) return;
  try {
    const standing = await api('GET', '/api/queue/' + encodeURIComponent(ticket), undefined, undefined, player.secret);
    if (!ticket) return;
    if (standing.status === 'seated') {
      const back = await api('POST', '/api/tables/' + encodeURIComponent(standing.table) + '/seats/mine', undefined, undefined, player.secret);
      store.setToken(standing.table, back.token);
      stop();
      announce(t('web.queue.seated'));
      location.hash = '#/t/' + encodeURIComponent(standing.table);
      return;
    }
    say(standing, players, waitS);
  } catch (e) {
    if (!e.unreachable) {
      stop();
      setError($('queue-error'), e.message);
      return;
    }
  }
  timer = setTimeout(() => poll(player, players, waitS), POLL_MS);
}

async function onFind() {
  setError($('queue-error'), '');
  const player = me();
  if (!player) {
    setError($('queue-error'), t('web.queue.need-name'));
    $('keep-name').focus();
    return;
  }
  const players = Number($('queue-players').value);
  const waitS = Number($('queue-wait').value);
  $('queue-find').disabled = true;
  try {
    const game = $('queue-game').value;
    const standing = await api('POST', '/api/queue', { players, wait: waitS, game }, undefined, player.secret);
    ticket = standing.ticket;
    show($('queue-cancel'), true);
    say(standing, players, waitS);
    timer = setTimeout(() => poll(player, players, waitS), POLL_MS);
  } catch (e) {
    $('queue-find').disabled = false;
    setError($('queue-error'), e.message);
  }
}

async function onCancel() {
  const player = me();
  stop();
  if (player) await api('DELETE', '/api/queue', undefined, undefined, player.secret).catch(() => {});
}

/** The wait's choices in the words of the language on screen. */
export function renderQueue() {
  for (const option of $('queue-wait').options) {
    option.textContent = t('web.queue.seconds', { n: Number(option.value) });
  }
}

/** Wires the queue's controls (once, at start-up). */
export function setUpQueue() {
  $('queue-find').addEventListener('click', onFind);
  $('queue-cancel').addEventListener('click', onCancel);
  renderQueue();
}
