// A rematch with the same players (docs/PROTOCOL.md, Rematch): the host
// asks for it at the end of the game; everyone seated follows into the new
// table, where the old seat token claims the same seat.

import { $, el, replaceKeepingFocus, announce } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { store } from './storage.js';
import { T, myToken, isHost } from './state.js';
import { showError } from './connection.js';

let asking = false;

/** Goes to table `id`, keeping this table's seat token for it (the server knows its hash there). */
export function followRematch(id) {
  const token = myToken();
  if (token && !store.token(id)) store.setToken(id, token);
  location.hash = '#/t/' + encodeURIComponent(id);
}

async function onRematch() {
  if (asking) return;
  asking = true;
  $('rematch-btn').setAttribute('aria-disabled', 'true');
  try {
    const answer = await api('POST', '/api/tables/' + encodeURIComponent(T.id) + '/rematch', undefined, myToken());
    announce(t('web.rematch.made'));
    followRematch(answer.id);
  } catch (e) {
    showError(t('web.rematch.failed', { reason: e.message }));
  } finally {
    asking = false;
    const button = $('rematch-btn');
    if (button) button.removeAttribute('aria-disabled');
  }
}

/**
 * The rematch part of the game-over panel: the host's button, then for
 * everyone seated "Join the rematch" (a button: a player who is still
 * reading the standings is not carried off), for spectators a link to watch.
 */
export function renderRematch() {
  const s = T.state;
  if (!s || !s.game_over) return;
  let slot = $('rematch-slot');
  if (!slot) {
    slot = el('div', { id: 'rematch-slot' });
    $('gameover-body').append(slot);
  }
  slot.classList.add('rematch');
  slot.dataset.testid = 'rematch';
  const items = [];
  const seated = !!(s.you && myToken());
  if (s.rematch && s.rematch.table) {
    const id = s.rematch.table;
    if (seated) {
      items.push(el('p', { class: 'rematch-note' }, t('web.rematch.ready')),
        el('button', {
          type: 'button', class: 'primary', id: 'rematch-join', 'data-testid': 'rematch-join', dataset: { key: 'rematch-join' },
          onclick: () => followRematch(id),
        }, t('web.rematch.join')));
    } else {
      items.push(el('a', { href: '#/t/' + encodeURIComponent(id), class: 'button', 'data-testid': 'rematch-watch', dataset: { key: 'rematch-watch' } },
        t('web.rematch.watch')));
    }
  } else if (isHost()) {
    items.push(el('button', {
      type: 'button', class: 'primary', id: 'rematch-btn', 'data-testid': 'rematch-btn', dataset: { key: 'rematch-btn' },
      onclick: onRematch,
    }, t('web.rematch.ask')));
  } else if (seated) {
    items.push(el('p', { class: 'muted' }, s.host ? t('web.rematch.host-may', { host: s.host }) : t('web.rematch.host-may-anon')));
  }
  replaceKeepingFocus(slot, items);
}
