// Who this browser's player is, once they kept their name on the server
// (docs/PROTOCOL.md, Players): the name and its secret, kept in this
// browser only. The secret goes to the server only in an Authorization
// header (never in a URL it logs); a recovery link carries it after `#`,
// which browsers do not send.

import { api } from './api.js';
import { store } from './storage.js';

const KEY = 'dalmuti.player';

/** The kept player, `{ name, secret }`, or null. */
export function me() {
  try {
    const player = JSON.parse(store.get(KEY));
    return player && typeof player.name === 'string' && typeof player.secret === 'string' ? player : null;
  } catch (_) {
    return null;
  }
}

/** The player's secret for `api()`, or undefined. */
export function secret() {
  const player = me();
  return player ? player.secret : undefined;
}

function keep(player) {
  store.set(KEY, JSON.stringify({ name: player.name, secret: player.secret }));
  store.setName(player.name);
}

/** Keeps `name` on the server; resolves to `{ name, secret }`. */
export async function keepName(name) {
  const kept = await api('POST', '/api/players', { name });
  keep(kept);
  return kept;
}

/**
 * A new secret for this player (docs/PROTOCOL.md, Players): the old one,
 * and every recovery link and browser that holds it, stops working at
 * once. Resolves to `{ name, secret }`, kept here.
 */
export async function newSecret() {
  const player = me();
  const changed = await api('POST', '/api/players/me/secret', undefined, undefined, player.secret);
  keep(changed);
  return changed;
}

/**
 * Whether the server still knows this browser's secret: if it was
 * replaced on another device, the player is forgotten here and their
 * name answered (for the lobby to say so); null otherwise, also when no
 * server answers.
 */
export async function stillKnown() {
  const player = me();
  if (!player) return null;
  try {
    await api('GET', '/api/players/me', undefined, undefined, player.secret);
  } catch (e) {
    if (e.status === 403) {
      store.drop(KEY);
      return player.name;
    }
  }
  return null;
}

/** The link that makes another browser this player. */
export function recoveryLink(player) {
  return location.origin + '/#player=' + player.secret;
}

/**
 * The player of a recovery link this page was opened with (`#player=…`),
 * checked with the server and kept; null when the page has none. The
 * secret leaves the address bar at once.
 */
export async function recover() {
  const m = location.hash.match(/^#player=([0-9a-f]{32})$/);
  if (!m) return null;
  history.replaceState(null, '', location.pathname + location.search + '#/');
  const who = await api('GET', '/api/players/me', undefined, undefined, m[1]);
  const player = { name: who.name, secret: m[1] };
  keep(player);
  return player;
}
