// The lobby's HTTP API (docs/PROTOCOL.md).

import { t } from './i18n.js';

/** Calls the lobby API; resolves to the JSON answer (or null), throws Error(reason) with `status`. */
export async function api(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = 'Bearer ' + token;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new Error(t('web.error.unreachable', { reason: e.message }));
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
    throw err;
  }
  return data;
}
