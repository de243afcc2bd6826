// End-to-end test of a game against bots with no server (issue 45): the
// engine and the bots in WebAssembly in a Web Worker, in headless Chromium
// (Debian's /usr/bin/chromium, driven by playwright-core):
//
//     cargo build --release -p dalmuti && npm ci --prefix e2e && node e2e/offline-bots.mjs
//
//   - The page is loaded once from the server; its service worker caches
//     the shell, the offline engine's worker and its WebAssembly among it.
//   - The server is stopped and the browser's network cut. The page,
//     reloaded from the cache, says the server cannot be reached and offers
//     a game against bots on this device; it starts one.
//   - The table says plainly that it is offline, against bots, on this
//     device, and offers no invite link, chat or Leave (nobody to invite,
//     chat with or leave to). A whole hand is played by clicking (the table's own code:
//     its legal plays checked against STATE's `legal`, its dialogs),
//     reloading the page in the middle: the game, kept in IndexedDB, goes
//     on where it was.
//   - The game over (one hand), its record downloads from the engine and
//     `dalmuti check` accepts it; its replay opens.
//   - Throughout, no request for the table (its API, a socket) was made:
//     the page's files came from the service worker's cache, and the page
//     had no error.
//
// It exits 0 on success; on failure it prints what failed, takes
// screenshots to e2e/out/ and exits 1. Environment as in e2e/lib.mjs.

import { mkdirSync, mkdtempSync, existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import * as lib from './lib.mjs';
import { log, fail, tid, outDir, chromiumPath, CHROMIUM_ARGS, Server, guardProcess } from './lib.mjs';

lib.setLogPrefix('[e2e offline-bots]');

const TOTAL_TIMEOUT_MS = 240_000;
const tmp = mkdtempSync(path.join(tmpdir(), 'dalmuti-e2e-offline-bots-'));
const server = new Server(tmp, []);
let browser = null;
const pages = {};
const pageErrors = [];
const consoleErrors = [];
const step = lib.step;

const en = JSON.parse(readFileSync(path.join(lib.root, 'crates', 'dalmuti-i18n', 'locales', 'en.web.json'), 'utf8'));

async function run() {
  mkdirSync(outDir, { recursive: true });
  const base = await step('start the server', () => server.start());
  await step('start Chromium', async () => {
    if (!existsSync(chromiumPath)) fail(`no browser at ${chromiumPath}: apt-get install -y chromium`);
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_ARGS });
  });
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-US', serviceWorkers: 'allow', acceptDownloads: true });
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  pages.page = page;
  page.on('pageerror', e => pageErrors.push(String(e && e.stack || e)));
  page.on('console', m => { if (m.type() === 'error') consoleErrors.push(m.text()); });

  await step('the page loaded once: its service worker caches the offline engine', async () => {
    await page.goto(base + '/#/');
    await page.locator(tid('quick-start')).waitFor();
    await page.waitForFunction(() => navigator.serviceWorker && navigator.serviceWorker.controller, null, { timeout: 30_000 });
    const want = ['/offline/worker.js', '/js/offline.js', '/wasm/dalmuti_wasm.js', '/wasm/dalmuti_wasm_bg.wasm'];
    await page.waitForFunction(async want => {
      const paths = new Set();
      for (const name of await caches.keys()) {
        for (const r of await (await caches.open(name)).keys()) paths.add(new URL(r.url).pathname);
      }
      return want.every(p => paths.has(p));
    }, want, { timeout: 30_000, polling: 200 });
    // A short game, quickly: one hand, short pauses (js/offline.js).
    await page.evaluate(() => localStorage.setItem('dalmuti.offline.setup',
      JSON.stringify({ pace: { bot_delay_ms: 30, hand_pause_ms: 500, setup_pause_ms: 500 }, rules: { hands: 1 } })));
  });

  // From here on, nothing may reach the network.
  const sent = [];
  page.on('request', r => {
    const url = new URL(r.url());
    if (url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'ws:') sent.push(`${r.method()} ${url.pathname}`);
  });

  await step('the server stopped and the network off: the reloaded page offers a game against bots here', async () => {
    await server.stop();
    await context.setOffline(true);
    await page.reload();
    await page.locator(tid('lobby-offline')).waitFor({ state: 'visible', timeout: 30_000 });
    const offer = page.locator(tid('offline-offer'));
    await offer.waitFor({ state: 'visible' });
    await page.screenshot({ path: path.join(outDir, 'offline-bots-offer-1366.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: path.join(outDir, 'offline-bots-offer-390.png') });
    await page.setViewportSize({ width: 1366, height: 768 });
    const text = (await offer.innerText()).replace(/\s+/g, ' ');
    if (!text.includes(en['web.offline-game.offer'])) fail(`the offer says "${text}"`);
  });

  await step('a game against bots starts on this device, saying so plainly', async () => {
    await page.locator(tid('offline-name')).fill('Ada');
    await page.locator(tid('offline-play')).click();
    await page.waitForURL(/#\/t\/[0-9a-f]+$/, { timeout: 15_000 });
    await page.waitForFunction(() => {
      const c = window.dalmutiClient;
      return c && c.table.state && c.table.state.you === 'Ada' && c.table.state.hand === 1;
    }, null, { timeout: 20_000 });
    const banner = page.locator(tid('offline-game'));
    await banner.waitFor({ state: 'visible' });
    if ((await banner.textContent()) !== en['web.offline-game.banner']) fail(`the banner says "${await banner.textContent()}"`);
    const lobby = await page.evaluate(() => window.dalmutiClient.table.state.lobby.map(s => s.bot || 'person'));
    if (lobby.filter(b => b === 'person').length !== 1 || lobby.length !== 5) fail(`the table's seats: ${lobby.join(', ')}`);
  });

  await step('nobody to invite, chat with or leave to: no invite link, no chat, no Leave, no chat tab', async () => {
    for (const [w, h] of [[1366, 768], [390, 844]]) {
      await page.setViewportSize({ width: w, height: h });
      for (const id of ['invite-link', 'chat-panel', 'chat-input', 'leave']) {
        if (await page.locator(tid(id)).isVisible()) fail(`at ${w}×${h} the game on this device shows ${id}`);
      }
      const tabs = await page.locator(tid('side-tab')).evaluateAll(ts => ts.map(t => t.dataset.tab));
      if (tabs.includes('chat')) fail(`at ${w}×${h} the side tabs offer the chat: ${tabs.join(', ')}`);
    }
    await page.setViewportSize({ width: 1366, height: 768 });
  });

  await step('the word that the game is offline fits a laptop and a phone', async () => {
    for (const [w, h] of [[1366, 768], [390, 844]]) {
      await page.setViewportSize({ width: w, height: h });
      const box = await page.locator(tid('offline-game')).boundingBox();
      if (!box || box.x < 0 || box.x + box.width > w + 0.5) fail(`the offline banner spills at ${w}×${h}: ${JSON.stringify(box)}`);
      await page.screenshot({ path: path.join(outDir, `offline-bots-table-${w}.png`) });
    }
    await page.setViewportSize({ width: 1366, height: 768 });
  });

  await step('a whole hand played by clicking, the page reloaded in the middle', async () => {
    let moves = 0;
    let reloaded = false;
    for (;;) {
      const thing = await lib.nextThing(page, 1, 60_000);
      if (thing === 'over') break;
      const what = thing === 'lead' || thing === 'follow' ? await lib.playSet(page) : await lib.answerDialog(page, thing);
      moves++;
      log(`  move ${moves} (${thing}): ${what}`);
      if (!reloaded && moves >= 2) {
        const v = await lib.clientV(page);
        await page.reload();
        await page.waitForFunction(v => {
          const c = window.dalmutiClient;
          return c && c.table.state && c.table.state.you === 'Ada' && c.table.v >= v;
        }, v, { timeout: 20_000 });
        log(`  reloaded at event ${v}: the game went on from event ${await lib.clientV(page)}`);
        reloaded = true;
      }
      if (moves > 200) fail('more than 200 moves in one hand');
    }
    if (!reloaded) fail('the hand ended before the reload was tried');
    await page.waitForFunction(() => window.dalmutiClient.table.state.game_over === true, null, { timeout: 20_000 });
  });

  await step('the record downloads and dalmuti check accepts it; the replay opens', async () => {
    const link = page.locator(tid('record-link')).first();
    await link.waitFor({ state: 'visible' });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const file = path.join(tmp, 'record.json');
    await download.saveAs(file);
    const out = execFileSync(lib.bin, ['check', file], { encoding: 'utf8' });
    if (!/^valid: 1 hand/.test(out)) fail(`dalmuti check says: ${out}`);
    log(`  dalmuti check: ${out.trim().split('\n')[0]}`);
    await page.locator(tid('replay-link')).first().click();
    await page.waitForFunction(() => {
      const r = window.dalmutiClient.replay;
      return r && r.data && r.data.frames && r.data.frames.length > 0;
    }, null, { timeout: 20_000 });
  });

  await step('no request for the table was made, and the page had no error', async () => {
    // The lobby asks for its lists until a server answers (each failed);
    // the game itself asked nothing of the network.
    const game = sent.filter(s => /\/(ws|api\/tables)\//.test(s));
    if (game.length) fail(`requests for a table were made: ${game.join(', ')}`);
    log(`  ${sent.length} requests, none for the table`);
    if (pageErrors.length) fail('errors in the page:\n' + pageErrors.join('\n'));
  });
}

function main() {
  return lib.runTest('e2e offline-bots', 'browser end-to-end, a game against bots with no server', 'offline-bots-failure', TOTAL_TIMEOUT_MS, run, cleanup, {
    pages: () => pages,
    pageErrors,
    consoleErrors,
    server,
  });
}

const cleanup = lib.cleaner(() => browser && browser.close(), server, tmp);
guardProcess(server, cleanup);
main();
