// The replay flood of issue 24 (S1), measured from outside: a finished
// 60-hand game's replay, record and fairness asked by 24 loops while a
// control table of one scripted player and four greedy bots plays; the
// control's events per second and /healthz latency, alone and beside
// the loops. Starts its own `dalmuti serve` on a temporary SQLite file.
//
//     cargo build --release -p dalmuti
//     node --experimental-websocket deploy/replay-flood.mjs target/release/dalmuti
//
// (Node 22 and later have WebSocket without the flag.)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = process.argv[2];
const dir = mkdtempSync(join(tmpdir(), 'flood-'));
const server = spawn(bin, ['serve', '--addr', '127.0.0.1:0', '--data', join(dir, 'x.sqlite'),
  '--bot-delay', '0', '--hand-pause', '0', '--setup-pause', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
const base = await new Promise((resolve) => {
  let buf = '';
  server.stderr.on('data', (d) => {
    buf += d;
    const m = buf.match(/open (http:\/\/[0-9.:]+)\//);
    if (m) resolve(m[1]);
  });
});
async function api(method, path, body, token) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(base + path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const text = await r.text();
  return [r.status, text ? JSON.parse(text) : null];
}
function choose(d, hand) {
  const cards = hand.split(' ').filter(Boolean).sort((a, b) => (parseInt(b) || 0) - (parseInt(a) || 0));
  const worst = (n) => cards.slice(0, n).join(' ');
  switch (d.kind) {
    case 'tax': return { give_tax: worst(d.count) };
    case 'exchange_offer': return 'decline_exchange';
    case 'exchange_answer': return { answer_exchange: worst(1) };
    case 'lead': return { play: worst(1) };
    case 'follow': return 'pass';
  }
  return null;
}
async function play(name, hands) {
  const [, t] = await api('POST', '/api/tables', { name, player: 'Ada', seats: 5, hands, public: false });
  for (let i = 0; i < 4; i++) await api('POST', `/api/tables/${t.id}/bots`, { bot: 'greedy' }, t.token);
  const ws = new WebSocket(base.replace('http', 'ws') + `/ws/${t.id}`);
  let events = 0;
  const done = new Promise((resolve) => {
    let acted = -1;
    let last = 0;
    ws.onmessage = (msg) => {
      const m = JSON.parse(msg.data);
      if (m.t === 'event') events++;
      const d = m.d;
      if (!d || !d.view) return;
      if (d.game_over) { ws.close(); resolve(); return; }
      if (m.t === 'resync' && d.error) acted = -1; // refused (the rate limit): again, later
      if (d.decision && d.decision.kind !== 'ready' && acted !== m.v) {
        const a = choose(d.decision, d.view.hand);
        if (a) {
          acted = m.v;
          // At most 20 messages a second per connection: one each 60 ms.
          const at = Math.max(0, last + 60 - performance.now());
          last = performance.now() + at;
          setTimeout(() => ws.send(JSON.stringify({ t: 'act', v: m.v, d: a })), at);
        }
      }
    };
  });
  await new Promise((r) => (ws.onopen = r));
  ws.send(JSON.stringify({ t: 'hello', v: 0, d: { token: t.token } }));
  const started = performance.now();
  await api('POST', `/api/tables/${t.id}/start`, null, t.token);
  await done;
  const secs = (performance.now() - started) / 1000;
  return { id: t.id, events, secs };
}
async function health(stop) {
  const times = [];
  while (!stop.done) {
    const t0 = performance.now();
    await fetch(base + '/healthz');
    times.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 100));
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)], max: times[times.length - 1] };
}
async function control(label, flood) {
  const stop = { done: false };
  const h = health(stop);
  const c = await play(label, 20);
  stop.done = true;
  if (flood) flood.done = true;
  const hs = await h;
  console.log(`${label}: ${c.events} events in ${c.secs.toFixed(1)} s = ${(c.events / c.secs).toFixed(1)} events/s; /healthz p50 ${hs.p50.toFixed(1)} ms, max ${hs.max.toFixed(1)} ms`);
}

const long = await play('long', 60);
const sizes = [];
for (const what of ['replay', 'record', 'fairness']) {
  const r = await fetch(base + `/api/tables/${long.id}/${what}`);
  sizes.push(`${what} ${(await r.arrayBuffer()).byteLength} B`);
}
console.log(`the 60-hand game: ${long.events} events; ${sizes.join(', ')}`);
await control('control alone', null);
const flood = { done: false, answers: 0 };
const loops = [...Array(24).keys()].map(async (i) => {
  const what = ['replay', 'record', 'fairness'][i % 3];
  while (!flood.done) {
    const r = await fetch(base + `/api/tables/${long.id}/${what}`);
    await r.arrayBuffer();
    flood.answers++;
  }
});
const t0 = performance.now();
await control('control beside 24 loops', flood);
await Promise.all(loops);
console.log(`the loops got ${flood.answers} answers in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
server.kill();
await new Promise((r) => server.on('exit', r));
rmSync(dir, { recursive: true, force: true });
