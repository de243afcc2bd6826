// Table creation time against the number of tables (issue 24, S5: it
// grew from 14 to ~100 ms as tables piled up): creates N tables with
// default names ("Ada's table", "Ada's table 2", …) on its own
// `dalmuti serve` and prints the median time of the first, middle and
// last hundred, then one creation at the cap.
//
//     cargo build --release -p dalmuti
//     node deploy/table-creations.mjs target/release/dalmuti 3000
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const bin = process.argv[2];
const n = Number(process.argv[3] || 3000);
const dir = mkdtempSync(join(tmpdir(), 'creates-'));
const server = spawn(bin, ['serve', '--addr', '127.0.0.1:0', '--data', join(dir, 'x.sqlite'),
  '--tables-per-address', String(n + 10), '--max-tables', String(n)], { stdio: ['ignore', 'ignore', 'pipe'] });
const base = await new Promise((resolve) => {
  let buf = '';
  server.stderr.on('data', (d) => { buf += d; const m = buf.match(/open (http:\/\/[0-9.:]+)\//); if (m) resolve(m[1]); });
});
const times = [];
for (let i = 0; i < n; i++) {
  const t0 = performance.now();
  const r = await fetch(base + '/api/tables', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ player: 'Ada', seats: 5 }) });
  await r.text();
  if (r.status !== 201) { console.log('status', r.status, i); break; }
  times.push(performance.now() - t0);
}
const med = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
for (const [from, to] of [[0, 100], [n / 2 - 50, n / 2 + 50], [n - 100, n]]) {
  console.log(`tables ${from + 1}-${to}: median ${med(times.slice(from, to)).toFixed(2)} ms`);
}
const t0 = performance.now();
const r = await fetch(base + '/api/tables', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ player: 'Ada', seats: 5 }) });
console.log(`at the cap: ${r.status} ${await r.text()} in ${(performance.now() - t0).toFixed(2)} ms`);
server.kill();
await new Promise((r) => server.on('exit', r));
rmSync(dir, { recursive: true, force: true });
