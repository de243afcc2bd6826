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
//     back there (a token of the phone's own). The game over shows how it
//     moved each rating. Her profile (/p/Ada, reached from the lobby's "My
//     profile") shows the game, its place and her rating (25 to start,
//     marked "?" while provisional), its plot with axes and values; the
//     leaderboard opens at her table size (3–4 players), lists her and the
//     bot level, and links back to her profile; in German, its words are
//     German.
//   - Two devices: Ada plays on her laptop; her phone takes the seat back
//     from "My games"; the laptop is told at once, in words, watches the
//     table and offers to take it back, which it does; the phone, back
//     later with its old key (in German), is told why, watches, and takes
//     the seat back in turn; a tablet that never sat there, Ada's by the
//     recovery link, is offered her seat (not to join as a newcomer) and
//     takes it.
//   - A new recovery link: Ada asks for one; the old link is refused from
//     then on, and the phone that held it says so on its next visit and
//     forgets it; the new link makes another browser Ada.
//
// It exits 0 on success; on failure it prints what failed, takes
// screenshots to e2e/out/ and exits 1. Environment as in e2e/lib.mjs.

import { mkdirSync, mkdtempSync, existsSync, readFileSync } from 'node:fs';
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
    // As lichess shows it beside a result: how the game moved her rating,
    // and the level's (issue 46), once the server counted the game.
    const change = a.locator(`${tid('standings')} ${tid('rating-change')}`);
    await change.first().waitFor({ timeout: 15_000 });
    const rows = await a.locator(`${tid('standings')} li`).allTextContents();
    const ada = rows.find(r => r.includes('Ada')) || '';
    if (!/(?:[+−]\d+\.\d|±0\.0) rating \d+\.\d\?/.test(ada)) fail(`Ada's line of the standings reads "${ada}"`);
    if (await change.count() !== 3) fail(`${await change.count()} rating changes in the standings, not 3: ${rows.join(' | ')}`);
    log(`  the game over: ${rows.join(' | ')}`);
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

  await step('a seat taken back on another device: the first is told at once, in words, watches, and may take it back', async () => {
    const english = JSON.parse(readFileSync(path.join(lib.root, 'crates', 'dalmuti-i18n', 'locales', 'en.web.json'), 'utf8'));
    const german = JSON.parse(readFileSync(path.join(lib.root, 'crates', 'dalmuti-i18n', 'locales', 'de.web.json'), 'utf8'));
    const secret = await a.evaluate(() => JSON.parse(localStorage.getItem('dalmuti.player')).secret);
    // Ada plays on her laptop: a live game of three hands with two bots.
    const call = async (method, url, data, auth) => {
      const response = await a.request.fetch(base + url, { method, data, headers: auth ? { Authorization: auth } : {} });
      if (!response.ok()) fail(`${method} ${url}: ${response.status()} ${await response.text()}`);
      const text = await response.text();
      return text ? JSON.parse(text) : null;
    };
    const made = await call('POST', '/api/tables', { name: 'Two devices', player: 'Ada', seats: 3, hands: 3, public: false },
      'Player ' + secret);
    for (let i = 0; i < 2; i++) await call('POST', `/api/tables/${made.id}/bots`, { bot: 'easy' }, 'Bearer ' + made.token);
    await call('POST', `/api/tables/${made.id}/start`, undefined, 'Bearer ' + made.token);
    await a.goto(base + '/#/');
    await a.evaluate(([id, token]) => localStorage.setItem('dalmuti.token.' + id, token), [made.id, made.token]);
    await a.goto(`${base}/#/t/${encodeURIComponent(made.id)}`);
    const seatedAs = (page, who) => page.waitForFunction(([id, who]) => {
      const s = window.dalmutiClient && window.dalmutiClient.table.state;
      return !!s && s.table === id && s.you === who;
    }, [made.id, who], { timeout: 15_000 });
    await seatedAs(a, 'Ada');
    await a.locator(tid('dock')).waitFor({ state: 'visible' });
    const panel = page => page.locator(tid('elsewhere'));

    // Her phone takes the seat back from "My games".
    const phone = await newPage('phone3', { width: 390, height: 844 });
    await phone.goto(link);
    await phone.locator(`${tid('my-tables')} li[data-table="${made.id}"]`).getByRole('link').click();
    await seatedAs(phone, 'Ada');
    const t0 = Date.now();
    // The laptop is told at once, in words: it watches now (no hand, no
    // turn, no timer) and offers to take the seat back here.
    await panel(a).waitFor({ state: 'visible', timeout: 5_000 });
    const told = Date.now() - t0;
    const title = (await a.locator('#lost-title').textContent()).trim();
    if (title !== english['web.elsewhere.taken-title']) fail(`the laptop says "${title}"`);
    await a.waitForFunction(() => window.dalmutiClient.table.state && window.dalmutiClient.table.state.you === null
      && document.querySelector('[data-testid="conn"]').dataset.state === 'up');
    if (await a.locator(tid('dock')).isVisible()) fail('the laptop still shows a hand to play');
    if (/your turn/i.test(await a.locator(tid('turn-line')).textContent())) fail('the laptop still says it is Ada\'s turn');
    if (!(await a.locator(tid('take-back')).isVisible())) fail('the laptop does not offer to take the seat back');
    log(`  the laptop told in ${told} ms after the phone was seated: "${title}"`);

    // The phone is put away; the laptop takes the seat back.
    await phone.goto('about:blank');
    await a.locator(tid('take-back')).click();
    await seatedAs(a, 'Ada');
    await panel(a).waitFor({ state: 'hidden' });
    await a.locator(tid('dock')).waitFor({ state: 'visible' });

    // The phone, back with its old key (a reload), in German: told why,
    // watching the table (not "Connecting…" for ever), offered the seat.
    await phone.goto(base + '/#/');
    await phone.evaluate(() => localStorage.setItem('dalmuti.lang', 'de'));
    await phone.reload();
    await phone.waitForFunction(() => document.documentElement.lang === 'de');
    await phone.goto(`${base}/#/t/${encodeURIComponent(made.id)}`);
    await panel(phone).waitFor({ state: 'visible', timeout: 10_000 });
    const said = (await phone.locator('#lost-title').textContent()).trim();
    if (said !== german['web.elsewhere.lost-title']) fail(`the phone says "${said}", not "${german['web.elsewhere.lost-title']}"`);
    await phone.locator(tid('seat')).first().waitFor();
    const status = (await phone.locator(tid('table-status')).textContent()).trim();
    if (!status.includes(german['web.status.watching'])) fail(`the phone's status reads "${status}"`);
    await phone.locator(tid('take-back')).click();
    await seatedAs(phone, 'Ada');
    await panel(a).waitFor({ state: 'visible', timeout: 5_000 });
    log(`  the phone, back with its old key: "${said}"; took the seat back, and the laptop was told`);

    // A tablet that never sat there, Ada's by the recovery link, opens the
    // table's address: not "Take a seat" under her own name, but her seat
    // offered back; taking it, the phone is told.
    const tablet = await newPage('tablet', { width: 820, height: 1180 });
    await tablet.goto(link);
    await tablet.locator(tid('player-you')).waitFor({ state: 'visible' });
    await tablet.goto(`${base}/#/t/${encodeURIComponent(made.id)}`);
    await panel(tablet).waitFor({ state: 'visible', timeout: 10_000 });
    const held = (await tablet.locator('#lost-title').textContent()).trim();
    if (held !== english['web.elsewhere.held-title']) fail(`the tablet says "${held}", not "${english['web.elsewhere.held-title']}"`);
    if (await tablet.locator('#t-join').isVisible()) fail('the tablet offers Ada to join her own table as a newcomer');
    await tablet.locator(tid('take-back')).click();
    await seatedAs(tablet, 'Ada');
    await panel(tablet).waitFor({ state: 'hidden' });
    await panel(phone).waitFor({ state: 'visible', timeout: 5_000 });
    log(`  a tablet that never sat there: "${held}"; took the seat back, and the phone was told`);
    await tablet.context().close();
    delete pages.tablet;
    await phone.context().close();
    delete pages.phone3;
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
    // The headline is the rating a newcomer starts at 25 on, marked "?"
    // while provisional: never μ − 3σ, which reads −3.6 after one game.
    const mu = await a.evaluate(async () => {
      const p = await (await fetch('/api/players/Ada')).json();
      return p.ratings[0].rating.mu;
    });
    // What the eye reads (the words for screen readers left out).
    const headline = (await ratings.first().locator(tid('rating')).evaluate(n => [...n.childNodes]
      .filter(c => !(c.classList && c.classList.contains('sr-only'))).map(c => c.textContent).join(''))).trim();
    if (headline !== `${mu.toFixed(1)}?`) fail(`the rating's headline reads "${headline}", not "${mu.toFixed(1)}?"`);
    if (!row.includes('3-4') || !/± \d+\.\d/.test(row)) fail(`the rating reads "${row}"`);
    // Its plot after one game: from the start (25) to now, with its axes and values.
    const plot = a.locator(tid('rating-plot'));
    if (await plot.count() !== 1) fail(`${await plot.count()} rating plots after one rated game, not 1`);
    const drawn = await plot.evaluate(svg => ({
      points: svg.querySelectorAll('circle').length, axes: svg.querySelectorAll('line.axis').length,
      ticks: [...svg.querySelectorAll('text.tick')].map(n => n.textContent),
    }));
    if (drawn.points !== 2 || drawn.axes !== 2 || !drawn.ticks.includes('start') || !drawn.ticks.includes(`${mu.toFixed(1)}?`)) {
      fail(`the plot draws ${JSON.stringify(drawn)}`);
    }
    log(`  "${line.trim()}"; rating "${row.trim()}"; plot ${drawn.ticks.join(' ')}`);
    // The address to share shows the same page.
    await a.goto(base + '/p/Ada');
    await a.waitForURL(/#\/p\/Ada$/);
    await a.locator(`${tid('profile-recent')} li`).first().waitFor();
  });

  await step('the leaderboard opens at Ada\'s table size and lists her and the bot level, in German too', async () => {
    await a.goto(base + '/leaderboard');
    await a.waitForURL(/#\/leaderboard$/);
    const rows = a.locator(tid('board-row'));
    await rows.first().waitFor();
    // Her games are at three: the board opens there, not at 5–7.
    const band = await a.locator(tid('board-band')).inputValue();
    if (band !== '3-4') fail(`the leaderboard opens at ${band} players, where Ada has no game`);
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
