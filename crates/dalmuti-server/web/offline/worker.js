// The offline engine's Web Worker: the engine and the bots in WebAssembly
// (crates/dalmuti-wasm, built into ../wasm/), a game against bots with no
// server. The page talks to it through js/offline.js's socket, in the very
// messages the server's socket carries (docs/PROTOCOL.md): the table,
// dialogs and replays are the online code, and no rule is written here.
// This file only carries text between the page, the engine and IndexedDB,
// and wakes the engine when it asks (bots' delays, pauses, the next deal).
//
// The page sends:  {kind: 'new', setup}  a new game (answered 'created')
//                  {kind: 'open', id}    the kept game with this id
//                  {kind: 'send', text}  a socket message (hello, act, …)
//                  {kind: 'record', id} / {kind: 'replay', id}
// The worker sends: {kind: 'msg', text} the server's messages, one by one,
//                   {kind: 'created', id, token}, {kind: 'record', record},
//                   {kind: 'replay', replay}, {kind: 'error', reason}.

import init, { Engine } from '../wasm/dalmuti_wasm.js';

const DB = 'dalmuti-offline';
const GAMES = 'games';

let engine = null;
let timer = null;
/** The id of the game this worker plays. */
let playing = null;
/** Requests that came before the engine was loaded. */
const ready = init().then(() => { engine = new Engine(); });

function openDb() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(GAMES);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function keep(saved) {
  const db = await openDb();
  await new Promise((resolve, reject) => {
    const tx = db.transaction(GAMES, 'readwrite');
    tx.objectStore(GAMES).put(saved, saved.id);
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}

async function kept(id) {
  const db = await openDb();
  const saved = await new Promise((resolve, reject) => {
    const req = db.transaction(GAMES).objectStore(GAMES).get(id);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  db.close();
  return saved;
}

/** One request to the engine, its reply carried out: messages told, the game kept, the next wake set. */
async function ask(request) {
  const reply = JSON.parse(engine.handle(JSON.stringify(request)));
  if (reply.error) {
    postMessage({ kind: 'error', reason: reply.error });
    return reply;
  }
  // Kept before it is told: a reload never shows what the browser lost.
  if (reply.saved) await keep(reply.saved);
  for (const msg of reply.sent || []) postMessage({ kind: 'msg', text: JSON.stringify(msg) });
  clearTimeout(timer);
  timer = null;
  if (reply.wake_ms != null) {
    timer = setTimeout(() => { queue(() => ask({ do: 'wake', now: Date.now() })); }, reply.wake_ms);
  }
  return reply;
}

// One request at a time, in order (IndexedDB's writes are awaited).
let chain = Promise.resolve();
function queue(job) {
  chain = chain.then(() => ready).then(job).catch(e => {
    postMessage({ kind: 'error', reason: String(e && e.message || e) });
  });
  return chain;
}

/** Takes up the game kept with this id, unless it is the one played; false if there is none. */
async function open(id) {
  if (playing === id) return true;
  const saved = await kept(String(id));
  if (!saved) {
    postMessage({ kind: 'error', reason: 'no game ' + id + ' is kept in this browser' });
    return false;
  }
  const reply = await ask({ do: 'resume', saved, now: Date.now() });
  if (reply.error) return false;
  playing = id;
  return true;
}

onmessage = event => {
  const m = event.data || {};
  queue(async () => {
    if (m.kind === 'new') {
      const reply = await ask({ do: 'new', setup: m.setup, now: Date.now() });
      if (!reply.error) {
        playing = reply.id;
        postMessage({ kind: 'created', id: reply.id, token: reply.token });
      }
    } else if (m.kind === 'open') {
      await open(m.id);
    } else if (m.kind === 'send') {
      await ask({ do: 'client', text: String(m.text), now: Date.now() });
    } else if (m.kind === 'record' || m.kind === 'replay') {
      if (!await open(m.id)) return;
      const reply = JSON.parse(engine.handle(JSON.stringify({ do: m.kind })));
      if (reply.error) postMessage({ kind: 'error', reason: reply.error });
      else postMessage({ kind: m.kind, [m.kind]: reply[m.kind] });
    }
  });
};
