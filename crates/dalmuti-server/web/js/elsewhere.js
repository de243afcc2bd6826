// A seat played on another device (docs/PROTOCOL.md, `taken`): the
// player took it back there, so this page's token plays it no more. The
// page says so at once, in words, watches the table instead of showing a
// turn it cannot play, and offers the choice: take the seat back here
// (with the player's kept key, js/player.js) or keep watching. The same
// when the server refuses this browser's old token at a reload, and when
// a player who kept a name opens a table where that name holds a seat
// this browser has no token for (seated from another device).

import { $, show, setError, announce } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { me as keptPlayer, secret } from './player.js';
import { store } from './storage.js';
import { T, noSelection } from './state.js';
import { reconnectNow, setNotice } from './connection.js';

/**
 * Why the seat is not this page's: 'taken' (told live) or 'lost' (an old
 * token refused); null when it is. `watching`: the tables where the player
 * chose to keep watching (not asked again while the page is open).
 */
const elsewhere = { kind: null, busy: false, watching: new Set() };

/**
 * Whether the player who kept a name on this browser holds a seat at the
 * table shown, with no token for it here: they may take it back, not
 * join again under their own name.
 */
function heldByName() {
  const s = T.state;
  const kept = keptPlayer();
  if (!s || s.you || !kept || !s.lobby || s.game_over || (T.id && store.token(T.id))) return false;
  const name = kept.name.toLowerCase();
  return s.lobby.some(x => !x.bot && x.name.toLowerCase() === name);
}

/** Whether this page's player holds the seat shown on another device (the panel says so, or would). */
export function seatHeldElsewhere() {
  return !!elsewhere.kind || heldByName();
}

/** What the panel says now: the last word on the seat, or 'held' for a seat held by the kept name. */
function shownKind() {
  if (elsewhere.kind) return elsewhere.kind;
  return heldByName() && !elsewhere.watching.has(T.id) ? 'held' : null;
}

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
  const kind = shownKind();
  show(panel, !!kind);
  if (!kind) return;
  panel.dataset.kind = kind;
  $('lost-title').textContent = t(`web.elsewhere.${kind}-title`);
  $('lost-body').textContent = t(`web.elsewhere.${kind}-body`, { name: keptPlayer() ? keptPlayer().name : '' });
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
    if (T.id) elsewhere.watching.add(T.id);
    clearElsewhere();
    setError($('lost-error'), '');
  });
}
