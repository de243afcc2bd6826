// The lobby's HTTP API (docs/PROTOCOL.md).

import { t } from './i18n.js';

/**
 * How long a call keeps retrying while the server's nodes hand a table
 * over (docs/PROTOCOL.md, Several nodes): more than a lease (10 s by
 * default) and the time to take the table over after it.
 */
const RETRY_FOR_MS = 30000;
const RETRY_DELAYS = [250, 500, 1000, 2000, 3000];

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

/**
 * Whether an answer means "not now, ask again": a node that is handing its
 * tables over (503 with Retry-After), or the node a redirect named that
 * cannot be reached (a proxy's 502, 503 or 504 after a redirect: it died,
 * and another node takes its tables over once their leases expire). A
 * request sent back to `path` then finds whichever node serves the table.
 * A GET is asked again after any proxy error; a change (POST, DELETE) only
 * when the redirect shows the first node did not carry it out.
 */
function retryable(method, response) {
  const s = response.status;
  if (s === 503 && response.headers.has('Retry-After')) return true;
  if (s !== 502 && s !== 503 && s !== 504) return false;
  return response.redirected || method === 'GET';
}

/** Milliseconds a Retry-After header asks for (seconds), or 0. */
function retryAfterMs(response) {
  const secs = Number(response.headers.get('Retry-After'));
  return Number.isFinite(secs) && secs > 0 ? Math.min(secs, 10) * 1000 : 0;
}

/**
 * Calls the lobby API; resolves to the JSON answer (or null), throws
 * Error(reason) with `status`, and `unreachable` true when no server
 * answered (no network, the server stopped, a proxy's 502 to 504). A redirect to the node serving the table
 * (307, same origin) is followed by the browser; while a table changes
 * nodes the call is retried with backoff (see `retryable`). `token` is a
 * seat's; `player` a kept name's secret (js/player.js).
 */
export async function api(method, path, body, token, player) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  // A seat's token, or (taking a seat, keeping a name) the player's secret
  // (docs/PROTOCOL.md, Players).
  if (token) headers.Authorization = 'Bearer ' + token;
  else if (player) headers.Authorization = 'Player ' + player;
  const started = Date.now();
  let response;
  for (let attempt = 0; ; attempt++) {
    try {
      response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (e) {
      const err = new Error(t('web.error.unreachable', { reason: e.message }));
      err.unreachable = true;
      throw err;
    }
    if (!retryable(method, response) || Date.now() - started >= RETRY_FOR_MS) break;
    await response.arrayBuffer().catch(() => null);
    await sleep(Math.max(RETRY_DELAYS[Math.min(attempt, RETRY_DELAYS.length - 1)], retryAfterMs(response)));
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch (_) { data = null; }
  }
  if (!response.ok) {
    // The server's reason (in English: the protocol's words).
    const reason = data && data.error ? data.error : (text || response.statusText);
    const err = new Error(reason + ' (' + response.status + ')');
    err.status = response.status;
    // A proxy's answer for a server that is down, after the retries.
    err.unreachable = response.status === 502 || response.status === 503 || response.status === 504;
    throw err;
  }
  return data;
}
