// A seat played on another device (docs/PROTOCOL.md, `taken`): the
// player took it back there, so this page's token plays it no more. The
// page says so at once, in words, watches the table instead of showing a
// turn it cannot play, and offers the choice: take the seat back here
// (with the player's kept key, js/player.js) or keep watching. The same
// when the server refuses this browser's old token at a reload.

import { $, show, setError, announce } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { me as keptPlayer, secret } from './player.js';
import { store } from './storage.js';
import { T, noSelection } from './state.js';
import { reconnectNow, setNotice } from './connection.js';

/** Why the seat is not this page's: 'taken' (told live) or 'lost' (an old token refused); null when it is. */
const elsewhere = { kind: null, busy: false };

/**
 * The seat is played elsewhere: this page's token is forgotten (the
 * server refuses it from now on), the page watches, and the panel asks
 * what to do.
 */
export function seatElsewhere(kind) {
  elsewhere.kind = kind;
  if (T.id) store.dropToken(T.id);
  // Until the spectator's STATE comes: no turn, no timer, no hand to play.
  if (T.state) T.state = Object.assign({}, T.state, { you: null, decision: null, legal: null, deadline_ms: null, place: null });
  T.deadlineAt = null;
  T.sel = noSelection();
  T.ask = null;
  setNotice('');
  renderElsewhere();
  announce(t(kind === 'taken' ? 'web.elsewhere.taken-title' : 'web.elsewhere.lost-title'));
}

/** Forgets it: another table is opened, or the seat is this page's again. */
export function clearElsewhere() {
  elsewhere.kind = null;
  renderElsewhere();
}

/** The panel, as the last word on the seat says. */
export function renderElsewhere() {
  const panel = $('t-lost');
  if (!panel) return;
  // Seated again (taken back here): nothing to say.
  if (elsewhere.kind && T.state && T.state.you) elsewhere.kind = null;
  show(panel, !!elsewhere.kind);
  if (!elsewhere.kind) return;
  panel.dataset.kind = elsewhere.kind;
  const taken = elsewhere.kind === 'taken';
  $('lost-title').textContent = t(taken ? 'web.elsewhere.taken-title' : 'web.elsewhere.lost-title');
  $('lost-body').textContent = t(taken ? 'web.elsewhere.taken-body' : 'web.elsewhere.lost-body');
  const back = $('take-back');
  // Only a player who kept a name can take a seat back (its key is theirs).
  show(back, !!keptPlayer());
  back.disabled = elsewhere.busy;
}

/** Takes the seat back on this device: a new token here, and the other device is told. */
async function takeBackHere() {
  if (elsewhere.busy || !T.id) return;
  elsewhere.busy = true;
  setError($('lost-error'), '');
  renderElsewhere();
  const id = T.id;
  try {
    const back = await api('POST', '/api/tables/' + encodeURIComponent(id) + '/seats/mine', undefined, undefined, secret());
    if (T.id !== id) return;
    store.setToken(id, back.token);
    elsewhere.kind = null;
    renderElsewhere();
    reconnectNow();
    announce(t('web.elsewhere.back'));
  } catch (e) {
    setError($('lost-error'), e.status === 404 ? t('web.elsewhere.no-seat') : t('web.elsewhere.failed', { reason: e.message }));
  } finally {
    elsewhere.busy = false;
    renderElsewhere();
  }
}

/** Wires the panel's buttons (once, at start-up). */
export function setUpElsewhere() {
  $('take-back').addEventListener('click', takeBackHere);
  $('forget-seat').addEventListener('click', () => {
    clearElsewhere();
    setError($('lost-error'), '');
  });
}
