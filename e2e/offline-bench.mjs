// How fast the offline engine is in Chromium (docs/PERFORMANCE.md, "The
// offline engine"): not a test (nothing is asserted), a measure.
//
//     cargo build --release -p dalmuti && npm ci --prefix e2e && node e2e/offline-bench.mjs [games]
//
// In headless Chromium, on a page served by `dalmuti serve`, it loads the
// engine's module as the worker does (fetched, compiled, instantiated),
// (the fetch and the compilation timed apart: a fetch from the server
// compressing on the fly says little of a page served from its cache),
// then for each level plays `games` games (default 3) of five seats, the
// person's seat played by the first legal action, with no pauses, and
// times every request that made a bot move (the bot's decision and the
// STATE built for the person, what a player waits for beyond the bot's
// delay). It prints, per level, the median, the 95th percentile and the
// longest, and the time from a new game's request to its first STATE.

import { mkdtempSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumPath, CHROMIUM_ARGS, Server } from './lib.mjs';

const games = Number(process.argv[2] || 3);
const tmp = mkdtempSync(path.join(tmpdir(), 'dalmuti-offline-bench-'));
const server = new Server(tmp, []);

async function main() {
  const base = await server.start();
  if (!existsSync(chromiumPath)) throw new Error(`no browser at ${chromiumPath}`);
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    await page.goto(base + '/#/');
    const result = await page.evaluate(async games => {
      const t0 = performance.now();
      const bytes = await (await fetch('/wasm/dalmuti_wasm_bg.wasm')).arrayBuffer();
      const t1 = performance.now();
      const mod = await import('/wasm/dalmuti_wasm.js');
      await mod.default({ module_or_path: bytes });
      const t2 = performance.now();
      const out = { fetch_ms: t1 - t0, load_ms: t2 - t1, bytes: bytes.byteLength, levels: {} };
      for (const level of ['easy', 'normal', 'hard', 'expert']) {
        const moves = [];
        const firsts = [];
        for (let g = 0; g < games; g++) {
          const engine = new mod.Engine();
          const ask = r => JSON.parse(engine.handle(JSON.stringify(r)));
          let now = 0;
          const setup = { name: 'Ada', seats: 5, level, rules: { hands: 2 },
            pace: { bot_delay_ms: 0, hand_pause_ms: 0, setup_pause_ms: 0 } };
          const s0 = performance.now();
          let reply = ask({ do: 'new', setup, now });
          const token = reply.token;
          reply = ask({ do: 'client', text: JSON.stringify({ t: 'hello', v: 0, d: { token } }), now });
          firsts.push(performance.now() - s0);
          let last = reply.sent[reply.sent.length - 1];
          for (let i = 0; i < 5000; i++) {
            const d = last && last.d;
            if (d && d.game_over) break;
            if (d && d.legal && d.legal.length) {
              reply = ask({ do: 'client', text: JSON.stringify({ t: 'act', v: last.v, d: d.legal[0] }), now });
            } else {
              now += reply.wake_ms || 0;
              const w0 = performance.now();
              reply = ask({ do: 'wake', now });
              const took = performance.now() - w0;
              const bot = reply.sent.length === 1 && reply.sent[0].d.e && reply.sent[0].d.e.kind === 'act' &&
                reply.sent[0].d.e.name !== 'Ada';
              if (bot) moves.push(took);
            }
            if (reply.error) throw new Error(reply.error);
            const states = (reply.sent || []).filter(m => m.d && m.d.rules);
            if (states.length) last = states[states.length - 1];
          }
          engine.free();
        }
        moves.sort((a, b) => a - b);
        const q = p => moves[Math.min(moves.length - 1, Math.floor(p * moves.length))];
        out.levels[level] = {
          moves: moves.length, median_ms: q(0.5), p95_ms: q(0.95), max_ms: moves[moves.length - 1],
          first_state_ms: firsts.sort((a, b) => a - b)[Math.floor(firsts.length / 2)],
        };
      }
      return out;
    }, games);
    const f = x => x.toFixed(1);
    console.log(`module: ${result.bytes} bytes fetched in ${f(result.fetch_ms)} ms, compiled and instantiated in ${f(result.load_ms)} ms`);
    console.log('level    moves  median ms  p95 ms  max ms  new game to first STATE ms');
    for (const [level, r] of Object.entries(result.levels)) {
      console.log(`${level.padEnd(8)} ${String(r.moves).padStart(5)}  ${f(r.median_ms).padStart(9)}  ${f(r.p95_ms).padStart(6)}  ${f(r.max_ms).padStart(6)}  ${f(r.first_state_ms).padStart(6)}`);
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch(e => { console.error(e); server.stop().finally(() => process.exit(1)); });
