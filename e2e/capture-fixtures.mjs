// Records the states e2e/screens.mjs draws its screenshots from, once,
// from real games (a fresh `dalmuti serve`, its bots, a player clicking in
// headless Chromium), into e2e/fixtures/*.json:
//
//     cargo build --release -p dalmuti && node e2e/capture-fixtures.mjs
//
// The server's deals are random, so a screenshot of a live game could not
// match a baseline; a recorded state can. What is kept is what the server
// says (docs/PROTOCOL.md: the `snapshot` answering `hello`, the lobby's and
// a table's INFO, a replay), not the client's HTML, so the fixtures stay
// good while the client changes. Times are made fixed (`at`, `finished_at`
// relative to FIXED_NOW, no countdowns), the seat token replaced.
//
//   three.json: a 3-seat game of 2 hands, Ada and two bots: our turn in
//     hand 1, the tax dialog in hand 2 (games are played until Ada is the
//     Greater Dalmuti after hand 1, who gives two cards back), the game
//     over, its replay, and the lobby's lists afterwards; `revolution`, the
//     revolution dialog of whichever game dealt Ada both Jesters (if any).
//   eight.json: a table of 8 (Ada and 7 bots): our turn in hand 1.
//
// Run it again only when the protocol changes; then regenerate the
// baselines (E2E_UPDATE_BASELINES=1 node e2e/screens.mjs) and review them.

import { mkdirSync, mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import * as lib from './lib.mjs';
import { log, fail, tid, chromiumPath, CHROMIUM_ARGS, Server, guardProcess } from './lib.mjs';

lib.setLogPrefix('[capture]');

/** The moment every fixture pretends it is (2026-01-15 18:00 UTC; kept as its `now`): screens.mjs pins the page's clock to it. */
const FIXED_NOW = Date.UTC(2026, 0, 15, 18, 0, 0);
const FIXTURE_TOKEN = 'fixture-token';
const fixturesDir = path.join(lib.here, 'fixtures');
const tmp = mkdtempSync(path.join(tmpdir(), 'dalmuti-capture-'));
// A setup pause long enough to record the revolution dialog (it closes when the pause ends).
const server = new Server(tmp, ['--bot-delay', '20', '--hand-pause', '1500', '--setup-pause', '4000',
  '--tables-per-address', '100']);
let browser = null;
let page = null;
let base = '';

/**
 * What the server says to the page when it comes back (a reload) with no
 * event seen: the `snapshot` answering its hello, and what follows within
 * 400 ms. (A second connection with the same token would take the seat's
 * connection from the page.)
 */
async function snapshotOf(id) {
  await page.evaluate(id => localStorage.removeItem('dalmuti.v.' + id), id);
  const got = [];
  const first = new Promise(resolve => {
    page.once('websocket', ws => ws.on('framereceived', frame => {
      got.push(JSON.parse(frame.payload));
      if (got.length === 1) setTimeout(resolve, 400);
    }));
  });
  await page.reload();
  await first;
  if (got[0].t !== 'snapshot') fail(`the answer to hello was ${got[0].t}, not a snapshot`);
  return got.slice();
}

/** Makes a recorded value timeless: chat and news times, the end of a game, countdowns. */
function normalise(value) {
  let k = 0;
  const walk = v => {
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const out = {};
      for (const [key, x] of Object.entries(v)) {
        if (key === 'at' && typeof x === 'number') out[key] = FIXED_NOW - 600_000 + 1000 * k++;
        else if ((key === 'finished_at' || key === 'created_at') && typeof x === 'number') out[key] = FIXED_NOW - 300_000;
        else if (['deadline_ms', 'next_deal_ms', 'setup_ms'].includes(key)) out[key] = null;
        else if (key === 'token') out[key] = FIXTURE_TOKEN;
        else out[key] = walk(x);
      }
      return out;
    }
    return v;
  };
  return walk(value);
}

async function get(url) {
  const response = await page.request.get(base + url);
  if (!response.ok()) fail(`GET ${url} answered ${response.status()}`);
  return response.json();
}

async function newTable(seats, hands, { firstDealRevolution = false } = {}) {
  await page.goto(base + '/#/');
  await page.locator(tid('create-form')).waitFor();
  await page.locator('#c-name').fill(seats === 8 ? 'Eight at the table' : 'Friday game');
  await page.locator('#c-player').fill('Ada');
  await page.locator('#c-seats').fill(String(seats));
  await page.locator('#c-hands').fill(String(hands));
  if (firstDealRevolution) await page.locator('#c-fdr').check();
  await page.locator(tid('create-submit')).click();
  await page.waitForURL(/#\/t\/[^/]+$/, { timeout: 10_000 });
  await page.locator(tid('prestart')).waitFor({ state: 'visible' });
  const id = decodeURIComponent(new URL(page.url()).hash.replace(/^#\/t\//, ''));
  // Easy bots: they play their worst set each time, like Ada, so she
  // finishes first often enough to be asked for the tax in hand 2.
  await page.locator(tid('bot-level')).selectOption('easy');
  for (let i = 1; i < seats; i++) {
    await page.locator(tid('add-bot')).click();
    await page.waitForFunction(n => Number(document.querySelector('[data-testid="prestart"]').dataset.taken) >= n, i + 1);
  }
  await page.locator(tid('start')).click();
  // The last table's end-of-hand box must be gone before hand 1 is played.
  await page.waitForFunction(() => document.querySelector('[data-testid="table-status"]').dataset.hand === '1'
    && document.querySelector('[data-testid="hand-result"]').hidden);
  return id;
}

/** The revolution dialog (Ada dealt both Jesters), recorded the first time it comes in any game. */
let revolution = null;

/** Plays hand `hand` of table `id` to its end; `at(thing)` may return true to stop before our move (the hand goes on). */
async function play(id, hand, at = async () => false) {
  for (let moves = 0; moves < 200; moves++) {
    let thing;
    try {
      thing = await lib.nextThing(page, hand);
    } catch (e) {
      log(await page.evaluate(() => ['table-status', 'dock', 'decision', 'hand-result'].map(id => {
        const n = document.querySelector(`[data-testid="${id}"]`);
        return n ? `${id}: hidden=${n.hidden} class=${n.className} ${JSON.stringify(n.dataset)}` : id + ': none';
      }).join('\n')));
      throw e;
    }
    if (thing === 'over') return 'over';
    if (thing === 'ready' && !revolution) {
      revolution = { id, info: await get(`/api/tables/${encodeURIComponent(id)}`), messages: await snapshotOf(id) };
      // The pause may have ended while recording: look again.
      continue;
    }
    if (await at(thing)) return thing;
    if (thing === 'lead' || thing === 'follow') await lib.playSet(page);
    else await lib.answerDialog(page, thing);
  }
  fail('more than 200 moves in one hand');
}

async function captureThree() {
  for (let attempt = 1; attempt <= 20; attempt++) {
    const id = await newTable(3, 2);
    const screens = {};
    if (attempt > 1 && !revolution) log('  (no revolution dialog yet)');
    await play(id, 1, async thing => {
      if (!screens.turn && (thing === 'lead' || thing === 'follow')) screens.turn = await snapshotOf(id);
      return false;
    });
    const second = await play(id, 2, async thing => thing === 'tax');
    if (second !== 'tax') {
      log(`  attempt ${attempt}: Ada was not the Greater Dalmuti after hand 1; again`);
      await play(id, 2);
      continue;
    }
    screens.tax = await snapshotOf(id);
    await play(id, 2);
    await page.locator(tid('game-over')).waitFor({ state: 'visible', timeout: 20_000 });
    screens.over = await snapshotOf(id);
    const enc = encodeURIComponent(id);
    const fixture = {
      id,
      info: await get(`/api/tables/${enc}`),
      screens,
      replay: await get(`/api/tables/${enc}/replay`),
      lobby: { open: await get('/api/tables'), finished: await get('/api/tables?finished=true') },
    };
    // More deals until one gives Ada both Jesters (about one in nine): tables
    // whose first deal may have a revolution, left as soon as Ada has her
    // first decision.
    for (let more = 1; !revolution && more <= 40; more++) {
      const id = await newTable(3, 1, { firstDealRevolution: true });
      await play(id, 1, async () => true);
    }
    if (!revolution) log('  warning: no deal gave Ada both Jesters: no revolution dialog recorded');
    return {
      now: FIXED_NOW,
      ...normalise({ ...fixture,
        // Only if one of the games dealt Ada both Jesters.
        revolution }),
    };
  }
  fail('in 20 games Ada was never the Greater Dalmuti after hand 1');
}

async function captureEight() {
  const id = await newTable(8, 1);
  let turn = null;
  await play(id, 1, async thing => {
    if (thing === 'lead' || thing === 'follow') {
      turn = await snapshotOf(id);
      return true;
    }
    return false;
  });
  return { now: FIXED_NOW, ...normalise({ id, info: await get(`/api/tables/${encodeURIComponent(id)}`), screens: { turn } }) };
}

async function run() {
  base = await lib.step('start the server', () => server.start());
  if (!existsSync(chromiumPath)) fail(`no browser at ${chromiumPath}`);
  browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-US', serviceWorkers: lib.SERVICE_WORKERS });
  context.setDefaultTimeout(15_000);
  await lib.maybeServeWebFromDisk(context);
  page = await context.newPage();
  mkdirSync(fixturesDir, { recursive: true });
  const three = await lib.step('three.json: a game of 3 with the tax dialog', captureThree);
  writeFileSync(path.join(fixturesDir, 'three.json'), JSON.stringify(three) + '\n');
  const eight = await lib.step('eight.json: a table of 8 at our turn', captureEight);
  writeFileSync(path.join(fixturesDir, 'eight.json'), JSON.stringify(eight) + '\n');
  log('fixtures written to e2e/fixtures/');
}

const cleanup = lib.cleaner(() => browser && browser.close(), server, tmp);
guardProcess(server, cleanup);
lib.runTest('capture', 'fixtures captured', 'capture', 600_000, run, cleanup, {
  pages: () => ({ page }), pageErrors: [], consoleErrors: [], server,
});
