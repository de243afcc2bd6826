// End-to-end checks of every screen of the browser client, in headless
// Chromium (driven by playwright-core), on a laptop (1366×768) and a phone
// (390×844):
//
//     cargo build --release -p dalmuti && npm ci --prefix e2e && node e2e/screens.mjs
//
//  1. axe-core finds no violation on any screen, at both sizes: the lobby
//     with its create form, a table before its start (the host's view and
//     the help overlay), a hand in play at our turn, a spectator's view, the
//     end of a hand, a revolution or tax dialog when the deal brings one,
//     the end of the game and its replay; then the tax dialog and a table
//     of 8 from recorded states (below).
//  2. Screenshots against reviewed baselines (e2e/baselines/, see
//     e2e/checks.mjs): the server's deals are random, so the game screens
//     are drawn from states recorded once from real games
//     (e2e/fixtures/*.json, made by e2e/capture-fixtures.mjs): the test
//     plays the server's part over the page's WebSocket and HTTP requests,
//     with the clock and the time zone pinned. Nothing on them depends on
//     the deal of the day.
//  3. A whole game (3 players, 1 hand) in each language (en, ko, de, es,
//     ja), chosen by the browser's locale alone: that language's titles on
//     the table and the standings, and no catalogue key left untranslated
//     on any screen.
//  4. A phone at a table of 8: at several moments of a hand the hand sheet
//     never covers the turn line or the pile, all three are on screen, and
//     the sheet stays where it is when the page is scrolled.
//
// It exits 0 on success; on failure it prints what failed, leaves
// screenshots in e2e/out/ and exits 1. Environment as in e2e/lib.mjs;
// E2E_UPDATE_BASELINES=1 rewrites the baselines (look at them first);
// E2E_SCREENS_PARTS=recorded runs only the screenshots (see PARTS).

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as lib from './lib.mjs';
import { log, fail, tid, Server } from './lib.mjs';
import { checkAxe, checkScreenshot } from './checks.mjs';
import { LAPTOP, PHONE, Pages, chosenParts, fixture, settle, tableInfo, atTable, createTable, addBots, ratedNews } from './pages.mjs';

lib.setLogPrefix('[e2e screens]');

const TOTAL_TIMEOUT_MS = 360_000;
/** E2E_SCREENS_PARTS=recorded (or axe, languages, eight; comma-separated) runs only those parts: all by default. */
const PARTS = ['axe', 'recorded', 'languages', 'eight'];
const parts = chosenParts('E2E_SCREENS_PARTS', PARTS);
const tmp = mkdtempSync(path.join(tmpdir(), 'dalmuti-e2e-screens-'));
const server = new Server(tmp, ['--bot-delay', '20', '--hand-pause', '2500', '--setup-pause', '600',
  '--tables-per-address', '100']);
const pages = new Pages();
const step = lib.step;
const newPage = (label, options) => pages.page(label, options);
const closePage = label => pages.close(label);

/** axe-core on `screen` at both sizes (the page's own size last, as it was). */
async function axeBoth(page, screen) {
  const own = page.viewportSize();
  const other = own.width === LAPTOP.width ? PHONE : LAPTOP;
  for (const size of [other, own]) {
    await page.setViewportSize(size);
    await checkAxe(page, `${screen} (${size.width}×${size.height})`);
  }
}

/**
 * Plays hand `hand` to its end; `onThing(thing)` is called before each of
 * our moves (dialogs too) and may check the screen.
 */
async function playHand(page, hand, onThing = async () => {}) {
  for (let moves = 0; ; moves++) {
    const thing = await lib.nextThing(page, hand);
    if (thing === 'over') return;
    await onThing(thing);
    if (thing === 'lead' || thing === 'follow') await lib.playSet(page);
    // Looking at a dialog (axe at two sizes) may outlast the setup pause:
    // then the server made us ready (a revolution not called) and there is
    // nothing left to answer.
    else if (await page.locator(`${tid('decision')}[data-kind="${thing}"]`).isVisible()) await lib.answerDialog(page, thing);
    if (moves > 200) fail('more than 200 moves in one hand');
  }
}

// ------------------------------------------------------------ 1. axe on a real game

async function axeLiveGame() {
  const page = await newPage('host');
  await step('axe: the lobby and its create form', async () => {
    await page.goto(pages.base + '/#/');
    await page.locator(tid('create-form')).waitFor();
    await axeBoth(page, 'lobby');
  });
  const id = await step('axe: a table before its start, the host\'s view; the help overlay', async () => {
    const id = await createTable(page, { seats: 3, hands: 2 });
    await addBots(page, 2);
    await axeBoth(page, 'table before the start (host)');
    await page.locator('#help-toggle').click();
    await page.locator('#help').waitFor({ state: 'visible' });
    await axeBoth(page, 'help overlay');
    await page.locator('#help-close').click();
    await page.locator(tid('start')).click();
    return id;
  });
  const seen = new Set();
  await step('axe: hand 1 at our turn, a spectator\'s view, the end of the hand', async () => {
    await playHand(page, 1, async thing => {
      const kind = thing === 'lead' || thing === 'follow' ? 'turn' : thing;
      if (seen.has(kind)) return;
      seen.add(kind);
      await axeBoth(page, kind === 'turn' ? 'a hand at our turn' : `the ${kind} dialog`);
      if (kind === 'turn') {
        const spectator = await newPage('spectator', { size: PHONE });
        await spectator.goto(`${pages.base}/#/t/${encodeURIComponent(id)}`);
        await spectator.waitForFunction(() => /watching/.test(document.querySelector('[data-testid="table-status"]').textContent));
        await spectator.locator(tid('seat')).first().waitFor();
        await axeBoth(spectator, 'a spectator\'s view');
        await closePage('spectator');
      }
    });
    await page.locator(`${tid('hand-result')}[data-hand="1"]`).waitFor({ state: 'visible' });
    await axeBoth(page, 'the end of hand 1');
  });
  await step('axe: hand 2 (its tax or revolution dialog if the deal brings one), the game over', async () => {
    await playHand(page, 2, async thing => {
      if (thing === 'lead' || thing === 'follow' || seen.has(thing)) return;
      seen.add(thing);
      await axeBoth(page, `the ${thing} dialog`);
    });
    await page.locator(tid('game-over')).waitFor({ state: 'visible', timeout: 20_000 });
    await axeBoth(page, 'the game over');
    log(`  dialogs reached in this deal: ${[...seen].filter(k => k !== 'turn').join(', ') || 'none'}`);
  });
  await step('axe: the replay', async () => {
    await page.locator(`${tid('game-over')} ${tid('replay-link')}`).click();
    await page.waitForFunction(() => /step 1 of \d+/.test((document.querySelector('[data-testid="replay-pos"]') || {}).textContent || ''));
    await page.locator(tid('replay-next')).click();
    await axeBoth(page, 'the replay');
    // The last step: the hands are empty.
    await page.keyboard.press('End');
    await axeBoth(page, 'the replay\'s last step');
  });
  await closePage('host');
}

// ------------------------------------------------------------ 2. screenshots from recorded states

/** One recorded screen at one size: its screenshot against the baseline, then axe-core on it. */
async function recordedScreen(name, size, fx, options, ready) {
  const label = `${name}-${size === PHONE ? 'phone' : 'laptop'}`;
  const page = await pages.fixturePage(label, size, fx, options);
  await ready(page);
  await settle(page);
  await checkScreenshot(page, label);
  await checkAxe(page, `${name} (recorded, ${size.width}×${size.height})`);
  await closePage(label);
}

async function recordedScreens() {
  const three = fixture('three');
  const eight = fixture('eight');
  const table = tableInfo;
  const myTurn = async page => {
    await page.locator(`${tid('dock')}.my-turn`).waitFor({ state: 'visible' });
    await page.locator(tid('card-group')).first().waitFor();
  };
  const shots = [
    ['lobby', [LAPTOP, PHONE], three, {
      hash: '#/',
      http: { '/api/tables': { tables: [eight.info] }, '/api/tables?finished=true': three.lobby.finished },
    }, async page => {
      await page.locator(`${tid('finished-tables')} li`).first().waitFor();
      await page.locator(`${tid('open-tables')} li`).first().waitFor();
    }],
    ['turn', [LAPTOP, PHONE], three, { hash: atTable(three), http: table(three), messages: three.screens.turn }, myTurn],
    ['tax', [LAPTOP, PHONE], three, { hash: atTable(three), http: table(three), messages: three.screens.tax },
      page => page.locator(`${tid('decision')}[data-kind="tax"]`).waitFor({ state: 'visible' })],
    ['game-over', [LAPTOP, PHONE], three, { hash: atTable(three), http: table(three), messages: three.screens.over },
      page => page.locator(tid('game-over')).waitFor({ state: 'visible' })],
    // A rated game's end: each player's rating change, as the server
    // tells it after the game over (docs/PROTOCOL.md, news `rated`).
    ['game-over-rated', [PHONE], three, { hash: atTable(three), http: table(three), messages: [...three.screens.over, ratedNews(three)] },
      page => page.locator(tid('rating-change')).first().waitFor({ state: 'visible' })],
    ['replay', [LAPTOP], three, {
      hash: `#/replay/${encodeURIComponent(three.id)}`,
      http: { ...table(three), [`/api/tables/${encodeURIComponent(three.id)}/replay`]: three.replay },
    }, async page => {
      await page.waitForFunction(() => /step 1 of \d+/.test((document.querySelector('[data-testid="replay-pos"]') || {}).textContent || ''));
      await page.keyboard.press('End');
    }],
    ['eight-turn', [PHONE], eight, { hash: atTable(eight), http: table(eight), messages: eight.screens.turn }, myTurn],
  ];
  if (three.revolution) {
    // The revolution dialog (dealt both Jesters): axe only, at both sizes.
    const r = three.revolution;
    await step('recorded screen: the revolution dialog (axe only)', async () => {
      for (const size of [LAPTOP, PHONE]) {
        const label = `revolution-${size === PHONE ? 'phone' : 'laptop'}`;
        const page = await pages.fixturePage(label, size, { ...three, id: r.id },
          { hash: atTable(r), http: table(r), messages: r.messages });
        await page.locator(`${tid('decision')}[data-kind="ready"]`).waitFor({ state: 'visible' });
        await settle(page);
        await checkAxe(page, `the revolution dialog (recorded, ${size.width}×${size.height})`);
        await closePage(label);
      }
    });
  } else {
    log('  (the fixture holds no revolution dialog: e2e/capture-fixtures.mjs found no game dealing Ada both Jesters)');
  }
  for (const [name, sizes, fx, options, ready] of shots) {
    await step(`recorded screen: ${name} (${sizes.map(s => `${s.width}×${s.height}`).join(', ')})`, async () => {
      for (const size of sizes) await recordedScreen(name, size, fx, options, ready);
    });
  }
}

// ------------------------------------------------------------ 3. a whole game in each language

const LANGS = { en: 'en-US', ko: 'ko-KR', de: 'de-DE', es: 'es-ES', ja: 'ja-JP' };
const catalogue = (lang, part) => JSON.parse(readFileSync(
  path.join(lib.root, 'crates', 'dalmuti-i18n', 'locales', `${lang}.${part}.json`), 'utf8'));
/** A catalogue key shown as it is: a translation missing (or a key misspelt in the client). */
const RAW_KEY = /\b(?:web|dalmuti|corporate-shuffle)\.[a-z0-9-]+(?:\.[a-z0-9-]+)*\b/;

/** Fails when the page shows a raw catalogue key, in its text or in its labels. */
async function noRawKeys(page, lang, where) {
  const found = await page.evaluate(source => {
    const re = new RegExp(source);
    const hits = [];
    const text = document.body.innerText;
    const m = text.match(re);
    if (m) hits.push(`text "${m[0]}"`);
    for (const node of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
      if (node.closest('[hidden]')) continue;
      for (const attr of ['aria-label', 'title', 'placeholder', 'alt']) {
        const v = node.getAttribute(attr);
        const k = v && v.match(re);
        if (k) hits.push(`${attr} "${k[0]}"`);
      }
    }
    return hits;
  }, RAW_KEY.source);
  if (found.length) fail(`${lang}, ${where}: untranslated catalogue keys on the page: ${found.slice(0, 5).join(', ')}`);
}

async function gameIn(lang) {
  const game = catalogue(lang, 'game');
  const web = catalogue(lang, 'web');
  const page = await newPage(`lang-${lang}`, { size: lang === 'ko' || lang === 'ja' ? PHONE : LAPTOP, locale: LANGS[lang] });
  await page.goto(pages.base + '/#/');
  await page.waitForFunction(l => document.documentElement.lang === l, lang);
  await page.locator(tid('create-form')).waitFor();
  const lobby = (await page.locator('#lobby-title').textContent()).trim();
  if (lobby !== web['web.html.lobby']) fail(`${lang}: the lobby is titled "${lobby}", not "${web['web.html.lobby']}"`);
  await noRawKeys(page, lang, 'the lobby');
  await createTable(page, { seats: 3, hands: 1, name: 'L10n' });
  await addBots(page, 2);
  await noRawKeys(page, lang, 'the table before the start');
  await page.locator(tid('start')).click();
  let turnChecked = false;
  await playHand(page, 1, async thing => {
    if (turnChecked || (thing !== 'lead' && thing !== 'follow')) return;
    turnChecked = true;
    const seats = await page.locator(tid('seats')).innerText();
    const title = game['dalmuti.title.greater-dalmuti'];
    if (!seats.includes(title)) fail(`${lang}: the seats do not show the title "${title}": ${seats.replace(/\s+/g, ' ')}`);
    const play = (await page.locator(tid('play')).textContent()).trim();
    if (play !== web['web.hand.play']) fail(`${lang}: the Play button reads "${play}", not "${web['web.hand.play']}"`);
    await noRawKeys(page, lang, 'our turn');
  });
  if (!turnChecked) fail(`${lang}: the hand ended before our turn`);
  const over = page.locator(tid('game-over'));
  await over.waitFor({ state: 'visible', timeout: 20_000 });
  const heading = (await over.locator('h2, h3').first().textContent()).trim();
  if (heading !== web['web.html.game-over']) fail(`${lang}: the game over is titled "${heading}", not "${web['web.html.game-over']}"`);
  const titles = ['greater-dalmuti', 'greater-peon'].map(k => game[`dalmuti.title.${k}`]);
  // Wherever the end shows them (the result, the standings, the seats).
  const shown = await page.locator('body').innerText();
  const missing = titles.filter(x => !shown.includes(x));
  if (missing.length) fail(`${lang}: the end of the game does not show the titles ${missing.join(', ')}`);
  await noRawKeys(page, lang, 'the game over');
  log(`  ${lang}: lobby "${lobby}", "${titles[0]}" … "${titles[1]}", "${heading}"`);
  await closePage(`lang-${lang}`);
}

// ------------------------------------------------------------ 4. a phone at a table of 8

/**
 * The hand sheet covers neither the turn line nor the pile; all on screen;
 * the sheet stays put on scrolling. With `mayEnd` (just after our move),
 * a game that ended with that move has no sheet to check: false.
 */
async function checkSheet(page, when, mayEnd = false) {
  const boxes = await page.evaluate(() => {
    const box = id => {
      const n = document.querySelector(`[data-testid="${id}"]`);
      if (!n || n.hidden || !n.getClientRects().length) return null;
      const r = n.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height, empty: !n.textContent.trim() };
    };
    return { sheet: box('dock'), turn: box('turn-line'), pile: box('pile'), vw: innerWidth, vh: innerHeight };
  });
  const { sheet, turn, pile, vw, vh } = boxes;
  if (!sheet && mayEnd && await page.locator(tid('game-over')).isVisible()) return false;
  const inside = b => b.x >= -0.5 && b.y >= -0.5 && b.x + b.width <= vw + 0.5 && b.y + b.height <= vh + 0.5;
  const meet = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  const show = b => JSON.stringify({ x: Math.round(b.x), y: Math.round(b.y), w: Math.round(b.width), h: Math.round(b.height) });
  if (!sheet) fail(`${when}: no hand sheet shown`);
  if (!turn || turn.empty) fail(`${when}: no turn line shown`);
  if (!inside(sheet)) fail(`${when}: the hand sheet is not within the screen: ${show(sheet)} in ${vw}×${vh}`);
  if (!inside(turn)) fail(`${when}: the turn line is not within the screen: ${show(turn)} in ${vw}×${vh}`);
  if (meet(sheet, turn)) fail(`${when}: the hand sheet ${show(sheet)} covers the turn line ${show(turn)}`);
  if (pile && !pile.empty) {
    if (!inside(pile)) fail(`${when}: the pile is not within the screen: ${show(pile)} in ${vw}×${vh}`);
    if (meet(sheet, pile)) fail(`${when}: the hand sheet ${show(sheet)} covers the pile ${show(pile)}`);
  }
  // Scrolled to the bottom of the page (the log and chat), the sheet is where it was.
  const moved = await page.evaluate(() => {
    const n = document.querySelector('[data-testid="dock"]');
    const before = n.getBoundingClientRect().top;
    const y = scrollY;
    scrollTo(0, document.documentElement.scrollHeight);
    const after = n.getBoundingClientRect().top;
    const scrolled = scrollY !== y;
    scrollTo(0, y);
    return scrolled ? after - before : 0;
  });
  if (Math.abs(moved) > 0.5) fail(`${when}: the hand sheet scrolls away with the page (moved ${Math.round(moved)} px)`);
  return true;
}

async function eightOnAPhone() {
  const page = await newPage('phone-8', { size: PHONE });
  await page.goto(pages.base + '/#/');
  await createTable(page, { seats: 8, hands: 1, name: 'Eight' });
  await addBots(page, 7);
  await page.locator(tid('start')).click();
  // The pre-start view is long on a phone and Start is at its bottom: the
  // game is looked at from the top (once; the moves are made in the sheet,
  // which needs no scrolling).
  await page.locator(tid('dock')).waitFor({ state: 'visible' });
  await page.evaluate(() => scrollTo(0, 0));
  let checks = 0;
  for (let moves = 0; ; moves++) {
    const thing = await lib.nextThing(page, 1);
    if (thing === 'over') break;
    if (thing === 'lead' || thing === 'follow') {
      await checkSheet(page, `our turn ${moves + 1} (${thing})`);
      checks++;
      await lib.playSet(page);
      // While the bots play on.
      if (await checkSheet(page, `after our move ${moves + 1}`, true)) checks++;
    } else {
      await lib.answerDialog(page, thing);
    }
    if (moves > 200) fail('more than 200 moves in one hand');
  }
  if (checks < 2) fail('the hand ended before our first turn: the sheet was not checked');
  log(`  checked at ${checks} moments of the hand`);
  await closePage('phone-8');
}

// ------------------------------------------------------------ the test

async function run() {
  await pages.start(server);
  if (parts.has('axe')) await axeLiveGame();
  if (parts.has('recorded')) await recordedScreens();
  if (parts.has('languages')) {
    await step('a whole game in each language: en, ko, de, es, ja (chosen by the browser\'s locale)', () =>
      Promise.all(Object.keys(LANGS).map(gameIn)));
  }
  if (parts.has('eight')) await step('a phone at a table of 8: the hand sheet never covers the turn line or the pile', eightOnAPhone);
}

pages.runTest('e2e screens', 'browser screens: axe, screenshots, languages, phone at 8 seats', 'screens',
  TOTAL_TIMEOUT_MS, run, server, tmp);
