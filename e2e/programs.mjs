// End-to-end test of contest programs at a browser table (issue 44's
// prize), in headless Chromium against `dalmuti serve --uecda-port`:
//
//     cargo build --release -p dalmuti && npm ci --prefix e2e && node e2e/programs.mjs
//
// Two contest programs connect to the server's UECda port (our own UECda
// client, `dalmuti uecda join`, which checks every table it is sent against
// the game it follows and says so at the end). A host makes a table of
// Daifugō with the contest's rules for five from the lobby form, sees
// "UECda contest program" among the bots and the port named, seats both
// programs and two bots, and plays the game by clicking, at a laptop's
// 1366×768 and a phone's 390×844: the programs' seats show their names,
// they play, the game ends, and each program says it followed the game
// with no fault. Someone watching sees the programs play. Then, in each of
// the five languages at both sizes, the host's bot list and note at a
// contest table, in the page's words; a Dalmuti table offers no program.
// Screenshots are left in e2e/out/programs-*.png.
//
// Environment: as e2e/play.mjs (DALMUTI_BIN, CHROMIUM, E2E_WEB_DIR).

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import * as lib from './lib.mjs';
import { log, fail, tid, outDir, chromiumPath, CHROMIUM_ARGS, Server, guardProcess, step, onScreen, untranslated } from './lib.mjs';

lib.setLogPrefix('[e2e programs]');
const TOTAL_TIMEOUT_MS = 300_000;
const LAPTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };
const LOCALES = { en: 'en-US', ja: 'ja-JP', ko: 'ko-KR', de: 'de-DE', es: 'es-ES' };

const catalogue = lang =>
  JSON.parse(readFileSync(path.join(lib.root, 'crates', 'dalmuti-i18n', 'locales', `${lang}.web.json`), 'utf8'));

/** A free TCP port on the loopback (for the UECda port). */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const tmp = mkdtempSync(path.join(tmpdir(), 'dalmuti-e2e-programs-'));
const UECDA_PORT = await freePort();
const server = new Server(tmp, ['--bot-delay', '40', '--hand-pause', '700', '--setup-pause', '1200',
  '--tables-per-address', '100', '--uecda-port', String(UECDA_PORT)]);
let browser = null;
const pages = {};
const pageErrors = [];
const consoleErrors = [];
const programs = [];
const cleanup = lib.cleaner(async () => {
  for (const p of programs) if (p.exitCode == null) p.kill('SIGKILL');
  if (browser) await browser.close();
}, server, tmp);
guardProcess(server, cleanup);

async function newPage(label, size, lang = 'en') {
  const context = await browser.newContext({ viewport: size, locale: LOCALES[lang], serviceWorkers: lib.SERVICE_WORKERS });
  await lib.maybeServeWebFromDisk(context);
  await context.addInitScript(() => {
    try { localStorage.setItem('dalmuti.tour.daifugo', 'done'); } catch (_) { /* no storage */ }
  });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  page.on('pageerror', e => pageErrors.push(`${label}: ${String(e && e.stack || e)}`));
  page.on('console', m => { if (m.type() === 'error') consoleErrors.push(`${label}: ${m.text()}`); });
  pages[label] = page;
  return page;
}

/**
 * A contest program: `dalmuti uecda join` on the UECda port. Resolves, once
 * it has exited, to what it printed and its exit code.
 */
function startProgram(name) {
  const proc = spawn(lib.bin, ['uecda', 'join', '--port', String(UECDA_PORT), '--bot', 'easy', '--name', name],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  programs.push(proc);
  let out = '';
  proc.stdout.on('data', c => { out += c.toString(); });
  proc.stderr.on('data', c => { out += c.toString(); });
  return new Promise(resolve => proc.on('exit', code => resolve({ code, out })));
}

/** Waits until the server has logged `n` programs waiting in all. */
async function programsWaiting(n) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const seen = server.lines.join('').split('a contest program waits to be seated').length - 1;
    if (seen >= n) return;
    await lib.sleep(50);
  }
  fail(`${n} contest programs never waited at port ${UECDA_PORT}: ${server.tail(20)}`);
}

/** Makes a table of `game` from the lobby form (Daifugō with the contest's rules). Returns its id. */
async function createTable(page, base, { game = 'daifugo', seats = 5, hands = 1 } = {}) {
  await page.goto(base + '/#/');
  await page.locator(tid('create-form')).waitFor();
  await page.locator('#c-player').fill('Ada');
  await page.locator(tid('create-variant')).selectOption(game);
  if (game === 'daifugo') await page.locator(tid('create-preset')).selectOption('uecda');
  await page.locator('#c-seats').fill(String(seats));
  await page.locator('#c-hands').fill(String(hands));
  await page.locator(tid('create-submit')).click();
  await page.waitForURL(/#\/t\/[^/]+$/, { timeout: 10_000 });
  await page.locator(tid('prestart')).waitFor({ state: 'visible' });
  return decodeURIComponent(new URL(page.url()).hash.replace(/^#\/t\//, ''));
}

async function addBot(page, level, taken) {
  await page.locator(tid('bot-level')).selectOption(level);
  await page.locator(tid('add-bot')).click();
  await page.waitForFunction(n => {
    const pre = document.querySelector('[data-testid="prestart"]');
    return pre && Number(pre.dataset.taken) >= n;
  }, taken, { timeout: 10_000 });
}

async function run() {
  mkdirSync(outDir, { recursive: true });
  const base = await step('start the server with a UECda port', () => server.start());
  await step('start Chromium', async () => {
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_ARGS });
  });
  let waited = 0;
  for (const [sizeName, size] of [['laptop', LAPTOP], ['phone', PHONE]]) {
    const label = `match-${sizeName}`;
    await step(`${sizeName}: two contest programs seated beside Ada and two bots, the game played to its end`, async () => {
      const names = [`prog-${sizeName}-a`, `prog-${sizeName}-b`];
      const ended = names.map(startProgram);
      waited += names.length;
      await programsWaiting(waited);
      const page = await newPage(label, size);
      const id = await createTable(page, base);
      // The bot list offers the programs, and the note says where they connect.
      if (await page.locator(tid('bot-program')).evaluate(o => o.hidden)) fail(`${label}: no "contest program" among the bots`);
      const note = await page.locator('#start-note').textContent();
      if (!note.includes(String(UECDA_PORT))) fail(`${label}: the note does not name the UECda port: ${note}`);
      await addBot(page, 'program', 2);
      await addBot(page, 'program', 3);
      await addBot(page, 'easy', 4);
      await addBot(page, 'easy', 5);
      const lobby = await page.locator(tid('lobby-seats')).innerText();
      for (const n of names) {
        if (!lobby.includes(n)) fail(`${label}: the lobby does not show ${n}: ${lobby}`);
      }
      if (!lobby.includes('UECda')) fail(`${label}: the lobby does not say which seats are programs: ${lobby}`);
      await onScreen(page, `${label}: the host's controls`, [tid('add-bot'), tid('start')]);
      await page.screenshot({ path: path.join(outDir, `programs-${label}-lobby.png`) });
      const watcher = await newPage(`${label}-watcher`, size);
      await watcher.goto(`${base}/#/t/${encodeURIComponent(id)}`);
      await page.locator(tid('start')).click();
      await page.locator(tid('dock')).waitFor({ state: 'visible', timeout: 15_000 });
      // Ada passes whenever she may (the contest lets a lead pass): the
      // programs and the bots play the game out.
      let passes = 0;
      for (let turns = 0; turns < 200; turns++) {
        const thing = await lib.nextThing(page, 1, 90_000);
        if (thing === 'over') break;
        if (thing !== 'lead' && thing !== 'follow') fail(`${label}: a ${thing} dialog in the first game`);
        const pass = page.locator(tid('pass'));
        if (!(await pass.isEnabled())) fail(`${label}: Pass is disabled`);
        await onScreen(page, `${label}: my turn`, [tid('pass')]);
        await lib.actAndWait(page, () => pass.click());
        passes++;
      }
      await page.locator(`${tid('hand-result')}[data-hand="1"]`).waitFor({ state: 'visible', timeout: 30_000 });
      const seats = await page.locator(tid('seat')).allInnerTexts();
      for (const n of names) {
        if (!seats.some(s => s.includes(n))) fail(`${label}: no seat shows ${n}: ${seats.join(' | ')}`);
      }
      const keys = [...await untranslated(page), ...await untranslated(watcher)];
      if (keys.length) fail(`${label}: untranslated keys: ${keys.join(', ')}`);
      await page.screenshot({ path: path.join(outDir, `programs-${label}-end.png`) });
      await watcher.screenshot({ path: path.join(outDir, `programs-${label}-watcher.png`) });
      // The watcher's log shows the programs' plays.
      const watchedLog = await watcher.locator('#log').textContent().catch(() => '');
      for (const n of names) {
        if (!watchedLog.includes(n)) fail(`${label}: the watcher's log never names ${n}`);
      }
      for (const [i, done] of ended.entries()) {
        const { code, out } = await done;
        if (code !== 0) fail(`${label}: ${names[i]} exited with ${code}: ${out}`);
        if (!/^1 games as /m.test(out)) fail(`${label}: ${names[i]} did not play one game: ${out}`);
        if (/could not be followed/.test(out)) fail(`${label}: ${names[i]} could not follow the game: ${out}`);
      }
      log(`  ${label}: Ada passed ${passes} times; the programs played the game out and followed every table`);
      await watcher.context().close();
      delete pages[`${label}-watcher`];
      await page.context().close();
      delete pages[label];
    });
  }

  for (const lang of Object.keys(LOCALES)) {
    const words = catalogue(lang);
    for (const [sizeName, size] of [['laptop', LAPTOP], ['phone', PHONE]]) {
      const label = `${lang}-${sizeName}`;
      await step(`${lang} at ${size.width}×${size.height}: the host is offered contest programs at a contest table`, async () => {
        const page = await newPage(label, size, lang);
        await createTable(page, base);
        const option = (await page.locator(tid('bot-program')).textContent()).trim();
        if (option !== words['web.html.bot-program']) fail(`${label}: the option says ${option}`);
        const note = await page.locator('#start-note').textContent();
        const said = words['web.prestart.programs'].replace('{port}', String(UECDA_PORT));
        if (!note.includes(said)) fail(`${label}: the note does not say where programs connect: ${note}`);
        await onScreen(page, `${label}: the host's controls`, [tid('bot-level'), tid('add-bot'), tid('start')]);
        const wide = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
        if (wide > 1) fail(`${label}: the page is ${wide} px wider than the screen`);
        const keys = await untranslated(page);
        if (keys.length) fail(`${label}: untranslated keys: ${keys.join(', ')}`);
        await page.screenshot({ path: path.join(outDir, `programs-${label}.png`) });
        await page.context().close();
        delete pages[label];
      });
    }
  }

  await step('a table of The Great Dalmuti offers no contest program', async () => {
    const page = await newPage('dalmuti', LAPTOP);
    await createTable(page, base, { game: 'dalmuti', seats: 5, hands: 1 });
    if (!(await page.locator(tid('bot-program')).evaluate(o => o.hidden))) fail('a Dalmuti table offers a contest program');
    const note = await page.locator('#start-note').textContent();
    if (note.includes(String(UECDA_PORT))) fail(`a Dalmuti table names the UECda port: ${note}`);
    await page.context().close();
    delete pages.dalmuti;
  });
}

lib.runTest('e2e programs', 'contest programs at a browser table', 'programs', TOTAL_TIMEOUT_MS, run, cleanup, {
  pages: () => pages, pageErrors, consoleErrors, server,
  passed: () => { if (pageErrors.length) fail(`errors in the page: ${pageErrors.join('\n')}`); },
});
