// End-to-end test of players who keep their name, in headless Chromium
// (Debian's /usr/bin/chromium, driven by playwright-core):
//
//     cargo build --release -p dalmuti && npm ci --prefix e2e && node e2e/players.mjs
//
//   - Identity without a password: Ada types her name and presses "Keep
//     this name"; the recovery link is shown once (and gone when she says
//     she kept it); the lobby says who she is from then on, after a reload
//     too. The secret never appears in the page's address.
//   - Another browser (a phone) opens the recovery link: it is Ada there
//     too, and the link leaves the address bar at once. A third browser,
//     without it, is refused the name "ada" (and a look-alike with a
//     Cyrillic А) at a table, with the server's reason.
//   - Play now: Ada and Bo, who kept their names, ask for a table of 3;
//     once Ada's 15 s wait for people is over, a bot takes the third seat
//     and both are at the same started table.
//   - A rated game: Ada creates a rated one-hand table from the form with
//     two bots and plays it to its end. On a phone (by the recovery link)
//     "My games" lists it and a private table of hers, which she takes
//     back there (a token of the phone's own). Her profile (/p/Ada, reached from
//     the lobby's "My profile") shows the game, its place and her rating;
//     the leaderboard (3–4 players) lists her and the bot level, and links
//     back to her profile; in German, its words are German.
//   - A new recovery link: Ada asks for one; the old link is refused from
//     then on, and the phone that held it says so on its next visit and
//     forgets it; the new link makes another browser Ada.
//
// It exits 0 on success; on failure it prints what failed, takes
// screenshots to e2e/out/ and exits 1. Environment as in e2e/lib.mjs.

import { mkdirSync, mkdtempSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import * as lib from './lib.mjs';
import {
  log, fail, tid, outDir, chromiumPath, CHROMIUM_ARGS, Server,
  nextThing, playSet, answerDialog, guardProcess } from './lib.mjs';

lib.setLogPrefix('[e2e players]');

const TOTAL_TIMEOUT_MS = 240_000;
const tmp = mkdtempSync(path.join(tmpdir(), 'dalmuti-e2e-players-'));
const server = new Server(tmp, ['--bot-delay', '20', '--hand-pause', '1000', '--setup-pause', '800']);
let browser = null;
const pages = {};
const pageErrors = [];
const consoleErrors = [];
let base = '';
const step = lib.step;

async function newPage(label, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport, locale: 'en-US', serviceWorkers: lib.SERVICE_WORKERS });
  context.setDefaultTimeout(15_000);
  await lib.maybeServeWebFromDisk(context);
  const page = await context.newPage();
  page.on('pageerror', e => pageErrors.push(label + ': ' + String(e && e.stack || e)));
  page.on('console', m => {
    // A refusal the test provokes (409) is no client error.
    if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) consoleErrors.push(label + ': ' + m.text());
  });
  pages[label] = page;
  return page;
}

async function playHand(page, who) {
  let moves = 0;
  for (;;) {
    const thing = await nextThing(page, 1, 90_000);
    if (thing === 'over') break;
    if (thing === 'lead' || thing === 'follow') await playSet(page);
    else await answerDialog(page, thing);
    if (++moves > 200) fail(`${who}: more than 200 moves in one hand`);
  }
}

async function run() {
  mkdirSync(outDir, { recursive: true });
  base = await step('start the server', () => server.start());
  await step('start Chromium', async () => {
    if (!existsSync(chromiumPath)) fail(`no browser at ${chromiumPath}: apt-get install -y chromium`);
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_ARGS });
  });
  const a = await newPage('Ada');

  const link = await step('Ada keeps her name: the recovery link is shown once', async () => {
    await a.goto(base + '/#/');
    await a.locator(tid('quick-name')).fill('Ada');
    await a.locator(tid('keep-name')).click();
    const box = a.locator(tid('recovery'));
    await box.waitFor({ state: 'visible' });
    const link = await a.locator(tid('recovery-link')).inputValue();
    if (!/\/#player=[0-9a-f]{32}$/.test(link)) fail(`the recovery link reads "${link}"`);
    if (!(await box.textContent()).includes('Ada')) fail('the recovery box does not name Ada');
    const you = (await a.locator(tid('player-you')).textContent()).trim();
    if (you !== 'You are Ada on this server.') fail(`the lobby says "${you}"`);
    if (await a.locator(tid('keep-name')).isVisible()) fail('"Keep this name" is still offered');
    await a.locator(tid('recovery-done')).click();
    await box.waitFor({ state: 'hidden' });
    if (await a.locator(tid('recovery-link')).inputValue()) fail('the link stays in the page after "I have kept it"');
    await a.reload();
    await a.locator(tid('player-you')).waitFor({ state: 'visible' });
    if (await a.locator(tid('recovery')).isVisible()) fail('the recovery link is shown again after a reload');
    if (a.url().includes('player=')) fail(`the secret is in the address: ${a.url()}`);
    return link;
  });

  await step('a phone opens the recovery link: it is Ada there too', async () => {
    const phone = await newPage('phone', { width: 390, height: 844 });
    await phone.goto(link);
    const note = phone.locator(tid('player-note'));
    await note.waitFor({ state: 'visible' });
    if (!(await note.textContent()).includes('Welcome back, Ada')) fail(`the phone says "${await note.textContent()}"`);
    await phone.locator(tid('player-you')).waitFor({ state: 'visible' });
    if (phone.url().includes('player=')) fail(`the secret stays in the address bar: ${phone.url()}`);
    if (await phone.locator(tid('quick-name')).inputValue() !== 'Ada') fail('the phone\'s name field is not Ada');
    await phone.context().close();
    delete pages.phone;
  });

  await step('a stranger is refused the name and a look-alike, with the reason', async () => {
    const s = await newPage('stranger');
    await s.goto(base + '/#/');
    for (const name of ['ada', '\u0410da']) {
      await s.locator(tid('quick-name')).fill(name);
      await s.locator(tid('quick-friends')).click();
      const error = s.locator('#quick-error');
      await error.waitFor({ state: 'visible' });
      const text = await error.textContent();
      if (!text.includes('kept name')) fail(`"${name}" was refused with "${text}"`);
      if (!s.url().endsWith('#/')) fail(`the stranger reached ${s.url()} as "${name}"`);
    }
    await s.context().close();
    delete pages.stranger;
  });

  const id = await step('a rated one-hand game of Ada and two bots, from the form, played to its end', async () => {
    await a.goto(base + '/#/');
    await a.locator('#c-seats').fill('3');
    await a.locator('#c-hands').fill('1');
    await a.locator(tid('create-rated')).check();
    await a.locator(tid('create-submit')).click();
    await a.waitForURL(/#\/t\/[^/]+$/, { timeout: 15_000 });
    const id = decodeURIComponent(new URL(a.url()).hash.replace(/^#\/t\//, ''));
    await a.waitForFunction(() => {
      const s = window.dalmutiClient.table.state;
      return s && s.you === 'Ada';
    });
    for (let i = 0; i < 2; i++) {
      await a.locator('#bot-level').selectOption('easy');
      await a.locator('#add-bot').click();
      await a.waitForFunction(n => {
        const s = window.dalmutiClient.table.state;
        return s && s.lobby && s.lobby.length === n;
      }, i + 2);
    }
    await a.locator('#start-game').click();
    await playHand(a, 'Ada');
    await a.locator(tid('game-over')).waitFor({ state: 'visible', timeout: 20_000 });
    return id;
  });

  await step('on a phone, "My games" lists her finished game and a private one, which she takes back there', async () => {
    const secret = await a.evaluate(() => JSON.parse(localStorage.getItem('dalmuti.player')).secret);
    const response = await a.request.fetch(base + '/api/tables', {
      method: 'POST', data: { name: 'Just us', player: 'Ada', seats: 3, public: false },
      headers: { Authorization: 'Player ' + secret },
    });
    if (response.status() !== 201) fail(`a private table: ${response.status()} ${await response.text()}`);
    const priv = await response.json();
    const phone = await newPage('phone2', { width: 390, height: 844 });
    await phone.goto(link);
    const items = phone.locator(`${tid('my-tables')} li`);
    await items.nth(1).waitFor();
    const texts = await items.allTextContents();
    if (texts.length !== 2 || !texts[0].includes('Just us') || !texts[1].includes('finished')) {
      fail(`"My games" reads: ${texts.join(' | ')}`);
    }
    if (await phone.locator(`${tid('open-tables')} li[data-table="${priv.id}"]`).count()) fail('the private table is listed as open');
    await items.first().getByRole('link').click();
    await phone.waitForFunction(id => {
      const c = window.dalmutiClient;
      return c && c.table.state && c.table.state.table === id && c.table.state.you === 'Ada';
    }, priv.id, { timeout: 15_000 });
    const token = await phone.evaluate(id => localStorage.getItem('dalmuti.token.' + id), priv.id);
    if (!token || token === priv.token) fail('the phone did not get a token of its own for the seat');
    await phone.context().close();
    delete pages.phone2;
  });

  await step('Ada makes a new recovery link: the old one stops working, and the phone that held it is told so', async () => {
    const phone = await newPage('phone3', { width: 390, height: 844 });
    await phone.goto(link);
    await phone.locator(tid('player-you')).waitFor({ state: 'visible' });
    await a.goto(base + '/#/');
    a.once('dialog', dialog => dialog.accept());
    await a.locator(tid('new-secret')).click();
    const box = a.locator(tid('recovery'));
    await box.waitFor({ state: 'visible' });
    const fresh = await a.locator(tid('recovery-link')).inputValue();
    if (!/\/#player=[0-9a-f]{32}$/.test(fresh) || fresh === link) fail(`the new link reads "${fresh}"`);
    if (!(await box.textContent()).includes('old link no longer works')) fail(`the box reads "${await box.textContent()}"`);
    await a.locator(tid('recovery-done')).click();
    await a.reload();
    await a.locator(tid('player-you')).waitFor({ state: 'visible' });
    // The phone kept the old secret: on its next visit it is told, and
    // forgets it.
    await phone.reload();
    const note = phone.locator(tid('player-note'));
    await note.waitFor({ state: 'visible' });
    if (!(await note.textContent()).includes('was replaced on another device')) fail(`the phone says "${await note.textContent()}"`);
    await phone.locator(tid('keep-name')).waitFor({ state: 'visible' });
    await phone.context().close();
    delete pages.phone3;
    // The old link is refused; the new one makes another browser Ada.
    for (const [which, url, said] of [['old', link, 'recovery link'], ['new', fresh, 'Welcome back, Ada']]) {
      const other = await newPage('phone4', { width: 390, height: 844 });
      await other.goto(url);
      const told = other.locator(tid('player-note'));
      await told.waitFor({ state: 'visible' });
      if (!(await told.textContent()).includes(said)) fail(`the ${which} link: "${await told.textContent()}"`);
      await other.context().close();
      delete pages.phone4;
    }
  });

  await step('Ada\'s profile shows the rated game, her place and rating, with its replay', async () => {
    await a.goto(base + '/#/');
    await a.locator(tid('player-profile')).click();
    await a.waitForURL(/#\/p\/Ada$/);
    const recent = a.locator(`${tid('profile-recent')} li`);
    await recent.first().waitFor({ timeout: 15_000 });
    if (await recent.count() !== 1) fail(`the profile lists ${await recent.count()} games, not 1`);
    const line = await recent.first().textContent();
    if (!/\d(st|nd|rd) of 3/.test(line) || !line.includes('rated')) fail(`the game reads "${line}"`);
    const replay = await recent.first().locator('a').getAttribute('href');
    if (replay !== '#/replay/' + encodeURIComponent(id)) fail(`the replay link is ${replay}`);
    const ratings = a.locator(tid('rating-row'));
    if (await ratings.count() !== 1) fail(`${await ratings.count()} ratings shown, not 1`);
    const row = await ratings.first().textContent();
    if (!row.includes('3-4') || !/\d+\.\d ± \d+\.\d/.test(row)) fail(`the rating reads "${row}"`);
    log(`  "${line.trim()}"; rating "${row.trim()}"`);
    // The address to share shows the same page.
    await a.goto(base + '/p/Ada');
    await a.waitForURL(/#\/p\/Ada$/);
    await a.locator(`${tid('profile-recent')} li`).first().waitFor();
  });

  await step('the leaderboard lists Ada and the bot level, in German too', async () => {
    await a.goto(base + '/leaderboard');
    await a.waitForURL(/#\/leaderboard$/);
    await a.locator(tid('board-band')).selectOption('3-4');
    const rows = a.locator(tid('board-row'));
    await rows.first().waitFor();
    const texts = await rows.allTextContents();
    if (texts.length !== 2) fail(`the leaderboard has ${texts.length} rows: ${texts.join(' | ')}`);
    if (!texts.some(t => t.includes('Ada')) || !texts.some(t => /easy.*\(bot\)/.test(t))) fail(`the rows read ${texts.join(' | ')}`);
    await a.locator(tid('board-band')).selectOption('8-16');
    await a.locator(tid('board-empty')).waitFor();
    await a.locator(tid('board-band')).selectOption('3-4');
    await rows.first().waitFor();
    await a.locator(tid('lang')).selectOption('de');
    await a.locator('#lb-title', { hasText: 'Bestenliste' }).waitFor();
    await a.locator(tid('leaderboard')).getByRole('link', { name: 'Ada' }).click();
    await a.waitForURL(/#\/p\/Ada$/);
    await a.locator(tid('profile')).getByText('Wertungen').waitFor();
    await a.locator(tid('lang')).selectOption('en');
  });

  await step('play now: Ada and Bo (who kept his name) ask for 3 players; after Ada\'s 15 s a bot joins them at one table', async () => {
    const bo = await newPage('Bo');
    await bo.goto(base + '/#/');
    await bo.locator(tid('quick-name')).fill('Bo');
    await bo.locator(tid('keep-name')).click();
    await bo.locator(tid('recovery-done')).click();
    await a.goto(base + '/#/');
    for (const page of [a, bo]) {
      await page.locator(tid('queue-players')).selectOption('3');
      await page.locator(tid('queue-wait')).selectOption('15');
    }
    await a.locator(tid('queue-find')).click();
    await bo.locator(tid('queue-find')).click();
    await bo.locator(tid('queue-status'), { hasText: '2 waiting for a table of 3' }).waitFor({ timeout: 10_000 });
    const ids = [];
    for (const page of [a, bo]) {
      await page.waitForURL(/#\/t\/[^/]+$/, { timeout: 30_000 });
      await page.waitForFunction(() => {
        const s = window.dalmutiClient.table.state;
        return s && s.started && s.you;
      }, null, { timeout: 15_000 });
      ids.push(decodeURIComponent(new URL(page.url()).hash.replace(/^#\/t\//, '')));
    }
    if (ids[0] !== ids[1]) fail(`Ada is at ${ids[0]}, Bo at ${ids[1]}`);
    const lobby = await a.evaluate(() => window.dalmutiClient.table.state.lobby.map(x => [x.name, !!x.bot]));
    const people = lobby.filter(x => !x[1]).map(x => x[0]).sort();
    if (JSON.stringify(people) !== '["Ada","Bo"]' || lobby.length !== 3) fail(`the table seats ${JSON.stringify(lobby)}`);
    log(`  both at ${ids[0]}: ${lobby.map(x => x[0]).join(', ')}`);
  });

  await step('no error in the pages', async () => {
    if (pageErrors.length) fail('errors in the page:\n' + pageErrors.join('\n'));
    if (consoleErrors.length) fail('console errors:\n' + consoleErrors.join('\n'));
  });
}

function main() {
  return lib.runTest('e2e players', 'browser end-to-end, players who keep their name', 'players-failure', TOTAL_TIMEOUT_MS, run, cleanup, {
    pages: () => pages,
    pageErrors,
    consoleErrors,
    server,
  });
}

const cleanup = lib.cleaner(() => browser && browser.close(), server, tmp);

guardProcess(server, cleanup);

main();
