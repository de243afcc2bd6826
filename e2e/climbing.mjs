// End-to-end test of President and Daifugō in the browser (issue 43), in
// headless Chromium against `dalmuti serve`:
//
//     cargo build --release -p dalmuti && npm ci --prefix e2e && node e2e/climbing.mjs
//
// Tables of both games are made from the lobby form (the game, its preset
// and house rules), filled with bots and played by clicking, as a player
// would, at a laptop's 1366×768 and a phone's 390×844: a card tapped, then
// one of the plays listed under the hand that hold it (a set with a Joker,
// a sequence), then Play; Pass; the exchange dialog of the rich, and
// 7-pass's and 10-discard's dialogs when they come (Daifugō is played with
// every house rule on). At each turn: Play and Pass (or the dialog's
// button) are on screen without scrolling; every legal play can be chosen
// by its cards and no other play can (the page filters STATE's `legal`,
// it works out no rule); the table's marks (revolution, 11-back, lock)
// say what the view's table says; each card's face is drawn whole; axe-core
// finds nothing. After each hand its result breaks no word; after each game
// its replay shows the pack's cards; someone watching a Daifugō table sees
// the pile and no hand. The deals follow from a seed (SEED below), so the
// exchange, 7-pass and 10-discard dialogs all come up. Then a pass in each
// of the five languages, at both sizes: the lobby form's house rules in the
// game's own words, the first-hand tour step by step, a table at its first
// turn with no untranslated key, nothing wider than the screen, a tapped
// card's plays, Play and Pass on screen (phones at three seats, 18 cards).
// Screenshots are left in e2e/out/climbing-*.png. E2E_CLIMBING_PARTS=games
// (or languages) runs one part.
//
// Environment: as e2e/play.mjs (DALMUTI_BIN, CHROMIUM, E2E_WEB_DIR).

import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import * as lib from './lib.mjs';
import { checkAxe } from './checks.mjs';
import { log, fail, tid, outDir, chromiumPath, CHROMIUM_ARGS, Server, guardProcess, step, onScreen, untranslated } from './lib.mjs';

lib.setLogPrefix('[e2e climbing]');
const TOTAL_TIMEOUT_MS = 600_000;
const LAPTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };
const LOCALES = { en: 'en-US', ja: 'ja-JP', ko: 'ko-KR', de: 'de-DE', es: 'es-ES' };

const catalogue = (lang, part) =>
  JSON.parse(readFileSync(path.join(lib.root, 'crates', 'dalmuti-i18n', 'locales', `${lang}.${part}.json`), 'utf8'));

const tmp = mkdtempSync(path.join(tmpdir(), 'dalmuti-e2e-climbing-'));
// The deals and the seats follow from a seed (`dalmuti serve --deal-seed`,
// for tests only), and the bots' choices from their seats, so the games
// below go the same way every run: this seed was chosen so that Ada is
// rich in a second game (the exchange dialog) and plays 7s and 10s in
// Daifugō (7-pass's and 10-discard's dialogs), whatever the luck of the day.
// The bots are all `easy` (greedy, no look-ahead), so that making the
// stronger levels stronger does not change these games (when `normal`
// began to look ahead, the seed then used no longer made Ada rich); a
// change to easy's play may still: the failure then names the dialogs
// missed, and E2E_CLIMBING_SEED tries another seed.
const SEED = process.env.E2E_CLIMBING_SEED || '4';
/** E2E_CLIMBING_PARTS=games (or languages) runs only that part. */
const PARTS = new Set((process.env.E2E_CLIMBING_PARTS || 'games,languages').split(','));
const server = new Server(tmp, ['--bot-delay', '40', '--hand-pause', '700', '--setup-pause', '1200', '--tables-per-address', '100',
  '--deal-seed', SEED]);
let browser = null;
const pages = {};
const pageErrors = [];
const consoleErrors = [];
const cleanup = lib.cleaner(async () => { if (browser) await browser.close(); }, server, tmp);
guardProcess(server, cleanup);

async function newPage(label, size, lang = 'en', { toured = true } = {}) {
  const context = await browser.newContext({ viewport: size, locale: LOCALES[lang], serviceWorkers: lib.SERVICE_WORKERS });
  await lib.maybeServeWebFromDisk(context);
  // The first-hand tour is walked through in the language pass; the whole
  // games are played by a player who has seen it.
  if (toured) {
    await context.addInitScript(() => {
      try {
        for (const key of ['dalmuti.tour.daifugo', 'dalmuti.tour.president']) localStorage.setItem(key, 'done');
      } catch (_) { /* no storage here */ }
    });
  }
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  page.on('pageerror', e => pageErrors.push(`${label}: ${String(e && e.stack || e)}`));
  page.on('console', m => { if (m.type() === 'error') consoleErrors.push(`${label}: ${m.text()}`); });
  pages[label] = page;
  return page;
}

/**
 * Creates a table of `game` from the lobby form (ids, not words: the form
 * is in the page's language), with `seats` and `hands`, Daifugō with the
 * `preset` chosen; adds bots and starts. Returns the table's id.
 */
async function createAndStart(page, base, { game, seats, hands, preset, name = 'Ada' }) {
  await page.goto(base + '/#/');
  await page.locator(tid('create-form')).waitFor();
  await page.locator('#c-player').fill(name);
  await page.locator(tid('create-variant')).selectOption(game);
  if (!(await page.locator(tid('create-climbing')).isVisible())) fail(`${game}: the form shows no house rules`);
  if (await page.locator('#c-stripped').isVisible()) fail(`${game}: the form offers Dalmuti's stripped deck`);
  if (preset) {
    await page.locator(tid('create-preset')).selectOption(preset);
  }
  await page.locator('#c-seats').fill(String(seats));
  await page.locator('#c-hands').fill(String(hands));
  await page.locator(tid('create-submit')).click();
  await page.waitForURL(/#\/t\/[^/]+$/, { timeout: 10_000 });
  const id = decodeURIComponent(new URL(page.url()).hash.replace(/^#\/t\//, ''));
  await page.locator(tid('prestart')).waitFor({ state: 'visible' });
  for (let i = 1; i < seats; i++) {
    await page.locator(tid('bot-level')).selectOption('easy');
    await page.locator(tid('add-bot')).click();
    await page.waitForFunction(n => {
      const pre = document.querySelector('[data-testid="prestart"]');
      return pre && Number(pre.dataset.taken) >= n;
    }, i + 1, { timeout: 10_000 });
  }
  await page.locator(tid('start')).click();
  await page.locator(tid('dock')).waitFor({ state: 'visible', timeout: 15_000 });
  return id;
}

/**
 * The page filters the legal plays by the cards chosen (js/suited.js):
 * each legal play, its cards chosen, is the play Play sends or one of the
 * plays listed to choose among; and the cards of a play that is not legal
 * make no play. Returns how many legal plays there were.
 */
async function checkPlaysOffered(page) {
  const problem = await page.evaluate(async () => {
    const { T } = await import('/js/state.js');
    const { handCards, candidates, chosenPlay, suitedPlays } = await import('/js/suited.js');
    const saved = T.sel;
    const keysFor = cards => {
      const used = new Set();
      return cards.map(token => {
        const c = handCards().find(x => x.token === token && !used.has(x.key));
        if (!c) return null;
        used.add(c.key);
        return c.key;
      });
    };
    let bad = null;
    const plays = suitedPlays();
    for (const p of plays) {
      const keys = keysFor(p.cards);
      if (keys.includes(null)) { bad = `legal play ${p.action.play} holds cards not in the hand`; break; }
      T.sel = { ...saved, pick: keys, play: null };
      const direct = chosenPlay();
      const listed = candidates().filter(c => c.same === p.same).map(c => c.action.play);
      if (!(direct && direct.play === p.action.play) && !listed.includes(p.action.play)) {
        bad = `legal play ${p.action.play} cannot be chosen by its cards`;
        break;
      }
      T.sel = { ...saved, pick: keys, play: p.action.play };
      if (!chosenPlay() || chosenPlay().play !== p.action.play) { bad = `choosing ${p.action.play} from the list does not make it the play`; break; }
    }
    // Each card alone and each pair of cards: a play only when legal.
    const cards = handCards();
    const legalSets = new Set(plays.map(p => p.same));
    for (let i = 0; !bad && i < cards.length; i++) {
      for (let j = i; !bad && j < cards.length; j++) {
        const keys = i === j ? [cards[i].key] : [cards[i].key, cards[j].key];
        T.sel = { ...saved, pick: keys, play: null };
        const c = chosenPlay();
        const tokens = keys.map(k => k.split('#')[0]).sort().join(' ');
        if (c && !legalSets.has(tokens)) bad = `cards ${tokens} make a play that is not legal: ${c.play}`;
      }
    }
    T.sel = saved;
    return bad;
  });
  if (problem) fail(problem);
}

/** The table's marks say what the view's table says (a revolution, 11-back, the lock). */
async function checkTableMarks(page) {
  const r = await page.evaluate(() => {
    const s = window.dalmutiClient && window.dalmutiClient.table.state;
    const tb = s && s.view && s.view.table;
    const marks = [...document.querySelectorAll('[data-testid="table-mark"]')].map(n => n.dataset.mark);
    return { tb, marks, stage: s && s.view && s.view.stage };
  });
  if (!r.tb || r.stage !== 'play') return [];
  const want = [];
  if (r.tb.reversed) want.push('revolution');
  if (r.tb.eleven_back) want.push('eleven-back');
  if (r.tb.lock || r.tb.lock_number) want.push('lock');
  for (const w of want) if (!r.marks.includes(w)) fail(`the view's table has ${w}, but the board shows no mark of it (${r.marks})`);
  for (const m of r.marks) if (m !== 'direction' && !want.includes(m)) fail(`the board shows ${m}, which the view's table does not say`);
  return r.marks;
}

/** Every card of the hand drawn whole: its rank and suit inside its face. */
async function checkFaces(page, what) {
  const bad = await page.evaluate(() => {
    const out = [];
    for (const card of document.querySelectorAll('#hand button.card.one, #decision button.card.one')) {
      const box = card.getBoundingClientRect();
      if (!box.width) continue;
      for (const part of card.querySelectorAll('.card-rank, .card-suit')) {
        const r = part.getBoundingClientRect();
        if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) {
          out.push(`${card.dataset.card} ${part.className}`);
        }
      }
      if (box.width < 36 || box.height < 44) out.push(`${card.dataset.card} is ${Math.round(box.width)}×${Math.round(box.height)} px, too small to tap`);
    }
    return out;
  });
  if (bad.length) fail(`${what}: card faces cut or too small: ${bad.slice(0, 5).join('; ')}`);
}

/**
 * My play, as a player makes it: the play with the most cards (the worst
 * of those); its first card tapped, then more of its cards until the play
 * is listed, then it is chosen from the list (or is the only play of
 * those cards), then Play. Pass when only passing is left.
 */
async function playTurn(page, label) {
  await onScreen(page, `${label}: my turn`, ['[data-testid="play"]', '[data-testid="pass"]']);
  await checkPlaysOffered(page);
  const target = await page.evaluate(async () => {
    const { suitedPlays } = await import('/js/suited.js');
    let best = null;
    for (const p of suitedPlays()) if (!best || p.cards.length > best.cards.length) best = p;
    return best ? { play: best.action.play, cards: best.cards } : null;
  });
  const play = page.locator(tid('play'));
  const pass = page.locator(tid('pass'));
  if (!target) {
    if (!(await pass.isEnabled())) fail(`${label}: no legal play and Pass disabled`);
    await lib.actAndWait(page, () => pass.click());
    return 'Pass';
  }
  const used = new Set();
  for (const token of target.cards) {
    const inList = page.locator(`${tid('suggestion')}[data-play="${target.play}"]`);
    if (used.size && (await inList.count())) break;
    const cards = page.locator(`#hand button.card[data-card="${token}"]`);
    const n = await cards.count();
    let k = 0;
    while (k < n && used.has(`${token}#${k}`)) k++;
    if (k >= n) fail(`${label}: the hand has no ${token} to tap for ${target.play}`);
    used.add(`${token}#${k}`);
    await cards.nth(k).click();
    if ((await cards.nth(k).getAttribute('aria-pressed')) !== 'true') fail(`${label}: tapping ${token} did not choose it`);
  }
  const chip = page.locator(`${tid('suggestion')}[data-play="${target.play}"]`);
  let how = 'by its cards';
  if (await chip.count()) {
    await chip.click();
    how = 'from the list';
  }
  if (!(await play.isEnabled())) fail(`${label}: ${target.play} chosen (${how}), yet Play is disabled`);
  await onScreen(page, `${label}: ${target.play} chosen`, ['[data-testid="play"]']);
  const text = (await play.textContent()).trim();
  await lib.actAndWait(page, () => play.click());
  return `${text} [${target.play}, ${how}]`;
}

/** Answers a dialog of President and Daifugō by clicking; returns what it did. */
async function answerDialog(page, kind, label) {
  const box = page.locator(tid('decision'));
  if (kind === 'tax') {
    const count = Number(await box.getAttribute('data-count')) || 1;
    const cards = page.locator(tid('tax-card'));
    // The poor's best, taken for them: named, and marked in the hand.
    if (!(await page.locator(tid('exchange-got')).isVisible())) fail(`${label}: the exchange dialog does not say what the poor gave`);
    const fresh = await page.locator(`${tid('tax-card')}.fresh`).count();
    if (fresh < 1 || fresh > count) fail(`${label}: ${fresh} cards marked as received in an exchange of ${count}`);
    // The worst cards of the hand (it is shown worst first).
    for (let i = 0; i < count; i++) await cards.nth(i).click();
    await onScreen(page, `${label}: the exchange dialog`, ['[data-testid="give-tax"]']);
    await checkFaces(page, `${label}: the exchange dialog`);
    const give = page.locator(tid('give-tax'));
    if (!(await give.isEnabled())) fail(`${label}: ${count} cards chosen to give back, yet Give is disabled`);
    const text = (await give.textContent()).trim();
    await page.screenshot({ path: path.join(outDir, `climbing-${label}-exchange.png`) });
    await checkAxe(page, `${label}: the exchange dialog`);
    await lib.actAndWait(page, () => give.click());
    return text;
  }
  if (kind === 'give' || kind === 'discard') {
    await page.locator(tid(`${kind}-card`)).first().click();
    await onScreen(page, `${label}: the ${kind} dialog`, [`[data-testid="${kind}-send"]`]);
    const send = page.locator(tid(`${kind}-send`));
    if (!(await send.isEnabled())) fail(`${label}: a card chosen to ${kind}, yet the button is disabled`);
    const text = (await send.textContent()).trim();
    await page.screenshot({ path: path.join(outDir, `climbing-${label}-${kind}.png`) });
    await checkAxe(page, `${label}: the ${kind} dialog`);
    await lib.actAndWait(page, () => send.click());
    return text;
  }
  fail(`${label}: an unknown dialog: ${kind}`);
  return '';
}

/** Plays hand `hand` to its end by clicking; returns what was seen. */
async function playHand(page, hand, label) {
  const seen = { plays: 0, passes: 0, dialogs: [], marks: new Set(), shot: false };
  for (let turns = 0; turns < 200; turns++) {
    const thing = await lib.nextThing(page, hand, 90_000);
    if (thing === 'over') break;
    for (const m of await checkTableMarks(page)) seen.marks.add(m);
    if (thing === 'lead' || thing === 'follow') {
      await checkFaces(page, `${label}: my hand`);
      if (!seen.shot) {
        seen.shot = true;
        // A moment for a play's cards to land on the pile.
        await lib.sleep(400);
        await page.screenshot({ path: path.join(outDir, `climbing-${label}-turn.png`) });
        await checkAxe(page, `${label}: my turn`);
      }
      const did = await playTurn(page, label);
      if (did === 'Pass') seen.passes++; else seen.plays++;
      log(`  ${label} hand ${hand}: ${did}`);
    } else {
      const did = await answerDialog(page, thing, label);
      seen.dialogs.push(thing);
      log(`  ${label} hand ${hand}: ${thing} dialog: ${did}`);
    }
  }
  return seen;
}

/** Words broken across lines under `selector` ("Daihinmi / n"; a break at a hyphen is a break between words). */
async function brokenWords(page, selector) {
  return page.evaluate(sel => {
    const out = [];
    for (const root of document.querySelectorAll(sel)) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const m of node.textContent.matchAll(/[^\s-]+/g)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
          if (tops.size > 1) out.push(m[0]);
        }
      }
    }
    return out;
  }, selector);
}

/** The log's and news's lines for the table's moments, in words (no event's raw name). */
async function checkLogWords(page, label) {
  const raw = await page.evaluate(() => [...document.querySelectorAll('[data-testid="log"] li, [data-testid="chat"] li')]
    .map(n => n.textContent.trim())
    .filter(text => /^(revolution|eight_cut|two_clears|spade_three|eleven_back|locked|skipped|reversed|fell|fouled|stalemate|given|discarded)$/.test(text)));
  if (raw.length) fail(`${label}: log lines not put in words: ${raw.join(', ')}`);
}

async function run() {
  mkdirSync(outDir, { recursive: true });
  const base = await step('start the server', () => server.start());
  await step('start Chromium', async () => {
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_ARGS });
  });

  // Whole games by clicking: each game at each size, President's exchange
  // in its second hand, Daifugō with every house rule (7-pass, 10-discard,
  // 11-back, the capital falling…).
  const games = [
    { game: 'president', size: LAPTOP, sizeName: 'laptop', hands: 2, seats: 4 },
    { game: 'daifugo', size: PHONE, sizeName: 'phone', hands: 2, seats: 4, preset: 'local_all' },
    { game: 'daifugo', size: LAPTOP, sizeName: 'laptop', hands: 1, seats: 5, preset: 'uecda', watch: true },
    { game: 'president', size: PHONE, sizeName: 'phone', hands: 1, seats: 5 },
  ];
  const dialogs = new Set();
  for (const g of PARTS.has('games') ? games.slice(0, Number(process.env.E2E_CLIMBING_GAMES) || games.length) : []) {
    const label = `${g.game}-${g.sizeName}`;
    await step(`${g.game} at ${g.size.width}×${g.size.height}: ${g.hands} hand(s) played by clicking`, async () => {
      const page = await newPage(label, g.size);
      const id = await createAndStart(page, base, g);
      // Someone watching: the pack's cards on the pile, no hand, no choice.
      let watcher = null;
      let watched = null;
      if (g.watch) {
        watcher = await newPage(`${label}-watcher`, g.size);
        await watcher.goto(`${base}/#/t/${encodeURIComponent(id)}`);
        watched = watcher.waitForFunction(() => !!document.querySelector('#pile .card.suited'), null, { timeout: 90_000, polling: 100 });
      }
      for (let hand = 1; hand <= g.hands; hand++) {
        const seen = await playHand(page, hand, label);
        // The hand's result: the new titles whole ("Daihinmin", never "Daihinmi / n").
        await page.locator(`${tid('hand-result')}[data-hand="${hand}"]`).waitFor({ state: 'visible', timeout: 15_000 });
        const broken = await brokenWords(page, '[data-testid="hand-result"] td');
        if (broken.length) fail(`${label}: words broken in the hand's result: ${broken.join(', ')}`);
        if (!seen.plays) fail(`${label}: hand ${hand} ended with no play of mine`);
        for (const d of seen.dialogs) dialogs.add(d);
        log(`  ${label} hand ${hand}: ${seen.plays} plays, ${seen.passes} passes, dialogs [${seen.dialogs}], marks seen [${[...seen.marks]}]`);
      }
      if (watcher) {
        await watched;
        const cards = await watcher.locator('#hand button.card').count();
        if (cards) fail(`${label}: someone watching is shown ${cards} cards of a hand`);
        const seats = await watcher.locator(tid('seat')).count();
        if (seats !== g.seats) fail(`${label}: someone watching sees ${seats} seats, not ${g.seats}`);
        const keys = await untranslated(watcher);
        if (keys.length) fail(`${label}: untranslated keys on the watcher's page: ${keys.join(', ')}`);
        await watcher.screenshot({ path: path.join(outDir, `climbing-${label}-watcher.png`) });
        await watcher.context().close();
        delete pages[`${label}-watcher`];
      }
      await checkLogWords(page, label);
      const keys = await untranslated(page);
      if (keys.length) fail(`${label}: untranslated keys on the page: ${keys.join(', ')}`);
      await page.screenshot({ path: path.join(outDir, `climbing-${label}-end.png`) });
      // The game over, its replay: the pack's faces, each hand's cards.
      await page.locator(tid('game-over')).waitFor({ state: 'visible', timeout: 30_000 });
      await page.goto(`${base}/#/replay/${encodeURIComponent(id)}`);
      await page.locator(`${tid('replay-seats')} .card.suited`).first().waitFor({ timeout: 15_000 });
      await page.locator(tid('replay-last')).click();
      const replayKeys = await untranslated(page);
      if (replayKeys.length) fail(`${label}: untranslated keys in the replay: ${replayKeys.join(', ')}`);
      await page.screenshot({ path: path.join(outDir, `climbing-${label}-replay.png`) });
      await page.context().close();
      delete pages[label];
    });
  }
  log(`  dialogs met: ${[...dialogs].join(', ') || 'none'}`);
  if (PARTS.has('games')) {
    const missing = ['tax', 'give', 'discard'].filter(d => !dialogs.has(d));
    if (missing.length) fail(`the games never asked for these dialogs: ${missing.join(', ')} (seed ${SEED}: choose another)`);
  }

  // Play now, one tap: the game chosen beside the name, a table of it with
  // four bots started at once (the game's own cards in the hand).
  if (PARTS.has('games')) {
    await step('Play now against bots in President and Daifugō: one tap starts a table of the game chosen', async () => {
      for (const game of ['daifugo', 'president']) {
        const label = `quick-${game}`;
        const page = await newPage(label, PHONE);
        await page.goto(base + '/#/');
        await page.locator(tid('quick-name')).fill('Ada');
        await page.locator(tid('quick-game')).selectOption(game);
        await page.locator(tid('quick-bots')).click();
        await page.waitForURL(/#\/t\/[^/]+$/, { timeout: 10_000 });
        const id = decodeURIComponent(new URL(page.url()).hash.replace(/^#\/t\//, ''));
        await page.locator('#hand button.card.suited').first().waitFor({ timeout: 15_000 });
        const seats = await page.locator(tid('seat')).count();
        if (seats !== 5) fail(`${label}: Play now seated ${seats}, not you and four bots`);
        const info = await (await page.request.get(`${base}/api/tables/${encodeURIComponent(id)}`)).json();
        if (info.variant !== game) fail(`${label}: Play now made a table of ${info.variant}`);
        log(`  ${label}: a table of ${info.variant} with ${seats} seats, started`);
        await page.context().close();
        delete pages[label];
      }
    });
  }

  // The five languages at both sizes: the form's words, a table at its first turn.
  for (const lang of PARTS.has('languages') ? Object.keys(LOCALES) : []) {
    const game = catalogue(lang, 'game');
    for (const [sizeName, size] of [['phone', PHONE], ['laptop', LAPTOP]]) {
      const label = `${lang}-${sizeName}`;
      await step(`${lang} at ${size.width}×${size.height}: the form and a Daifugō table`, async () => {
        const page = await newPage(label, size, lang, { toured: false });
        await page.goto(base + '/#/');
        await page.locator(tid('create-form')).waitFor();
        await page.locator(tid('create-variant')).selectOption('daifugo');
        // The house rules' boxes come with the server's list of games
        // (GET /api/games), which a page just opened on a busy machine may
        // still be asking for.
        await page.locator(`${tid('create-climbing')} ${tid('create-option')}`).first().waitFor({ timeout: 10_000 });
        const form = await page.locator(tid('create-climbing')).innerText();
        for (const word of ['word.eight-cut', 'word.eleven-back', 'word.miyako-ochi', 'word.seven-pass']) {
          const want = game[`daifugo.${word}`];
          if (!form.toLowerCase().includes(want.toLowerCase())) fail(`${label}: the house rules do not say "${want}" (${word}): ${form}`);
        }
        await page.locator(tid('create-variant')).selectOption('president');
        // Relabelled once the game's offer is read (at once when cached).
        const revolution = game['president.word.revolution'].toLowerCase();
        const relabelled = await page.waitForFunction(
          ([box, word]) => document.querySelector(box).innerText.toLowerCase().includes(word),
          [tid('create-climbing'), revolution], { timeout: 10_000 }).then(() => true, () => false);
        if (!relabelled) {
          const president = await page.locator(tid('create-climbing')).innerText();
          fail(`${label}: President's house rules do not say "${game['president.word.revolution']}": ${president}`);
        }
        await page.locator(tid('create-climbing')).screenshot({ path: path.join(outDir, `climbing-${label}-form.png`) });
        if (lang === 'en') await checkAxe(page, `${label}: the lobby form with President's house rules`);
        // Phones at three seats: the longest hands (18 cards) in the hand sheet.
        await createAndStart(page, base, { game: 'daifugo', seats: sizeName === 'phone' ? 3 : 5, hands: 1, preset: 'local', name: 'Ada' });
        // The first-hand tour of the pack's games, in this language, step by step.
        await page.locator(tid('tour')).waitFor({ state: 'visible', timeout: 15_000 });
        const steps = [];
        for (let i = 0; i < 6 && (await page.locator(tid('tour')).isVisible()); i++) {
          steps.push((await page.locator(tid('tour-text')).innerText()).trim());
          await onScreen(page, `${label}: the tour`, ['[data-testid="tour-next"]']);
          if (i === 0) await page.screenshot({ path: path.join(outDir, `climbing-${label}-tour.png`) });
          await page.locator(tid('tour-next')).click();
        }
        if (steps.length !== 4) fail(`${label}: the tour had ${steps.length} steps, not 4: ${steps.join(' / ')}`);
        const lockWord = game['daifugo.word.lock'];
        if (!steps.some(x => x.includes(lockWord))) fail(`${label}: the tour does not name the lock as "${lockWord}": ${steps.join(' / ')}`);
        if (steps.some(x => /\{[a-z]+\}/.test(x))) fail(`${label}: a tour step has a placeholder left: ${steps.join(' / ')}`);
        const thing = await lib.nextThing(page, 1, 60_000);
        if (thing === 'lead' || thing === 'follow') {
          await onScreen(page, `${label}: my turn`, ['[data-testid="play"]', '[data-testid="pass"]', '[data-testid="turn-line"]']);
          await checkFaces(page, label);
          // A card tapped: the plays listed stay on the page, inside its width.
          const first = page.locator('#hand button.card[data-top="true"]').first();
          if (await first.count()) {
            await first.click();
            // The plays that hold it, listed to tap, and Play: on screen without scrolling the sheet.
            await onScreen(page, `${label}: a card tapped`, ['[data-testid="suggestion"]', '[data-testid="play"]', '[data-testid="pass"]']);
          }
        }
        const titles = await page.locator(tid('seat')).allInnerTexts();
        const classWords = ['greater-dalmuti', 'lesser-dalmuti', 'merchant', 'lesser-peon', 'greater-peon'].map(k => game[`daifugo.title.${k}`]);
        log(`  ${label}: seats ${titles.map(x => x.replace(/\s+/g, ' ').slice(0, 40)).join(' | ')}`);
        const wide = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
        if (wide > 1) fail(`${label}: the page is ${wide} px wider than the screen`);
        const keys = await untranslated(page);
        if (keys.length) fail(`${label}: untranslated keys on the page: ${keys.join(', ')}`);
        await lib.sleep(400);
        await page.screenshot({ path: path.join(outDir, `climbing-${label}-table.png`) });
        if (!classWords.every(Boolean)) fail(`${label}: the catalogue lacks Daifugō's classes`);
        await page.context().close();
        delete pages[label];
      });
    }
  }
}

lib.runTest('e2e climbing', 'President and Daifugō in the browser', 'climbing', TOTAL_TIMEOUT_MS, run, cleanup, {
  pages: () => pages, pageErrors, consoleErrors, server,
  passed: () => { if (pageErrors.length) fail(`errors in the page: ${pageErrors.join('\n')}`); },
});
