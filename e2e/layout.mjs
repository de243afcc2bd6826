// The table as players see it, at a laptop's size (1366×768) and two
// phones' (390×844, 360×640), in headless Chromium: each check is a defect
// players met (issues 25 and 46) and fails if it comes back.
//
//     cargo build --release -p dalmuti && npm ci --prefix e2e && node e2e/layout.mjs
//
//  dock     A laptop with a hand of 13 ranks (two rows of cards), and
//           phones (three rows): Play, Pass, − and + inside the window
//           without scrolling, and still there scrolled to the bottom; − and
//           + at least 44×44 px. On a small phone (360×640) the hand is
//           taller than its sheet, and the buttons stay on it.
//  replay   A replay at 1366, 1000, 390 and 360 px: every seat's panel
//           inside the window, none over "Download the record".
//  phone    Phones (390×844, 360×640) at tables of 3 to 8, the first-hand
//           tour open: at our first turn every seat is on screen above the
//           hand sheet, no title or turn line cut, no name widens the page.
//  moments  A game on a laptop and both phones, with motion: a banner never
//           covers the turn line nor leaves the board, no "▶" in the title
//           while nothing is asked, the board never moves (a hand's end,
//           the next deal, a dialog), no seat nor the hand moves while a
//           hand is played, no empty band under a laptop's docked hand, no
//           stale "Choose a rank." once the hand is over.
//  words    Japanese and Korean on both phones: no word broken inside.
//  languages  The five languages at both phones and a laptop, from recorded
//           states: the server's names (bots', tables') in the player's
//           words in the turn line, the tax prompt, the news, the lobby's
//           lists, My games and a profile; no word cut or spilling (seats'
//           titles, the turn line, every card's name, Corporate Shuffle's
//           too), no digit on its card's band, no bubble over the pile's
//           words, the chat's box above the hand sheet, the game over's
//           table within a phone, a game's name never broken; a rated
//           game's end with each rating's change and the provisional "?";
//           a seat taken back on another device told at once, the turn
//           and its timer gone, the seat offered back.
//  online   Back online, the table reconnects within a second; the offline
//           banner moves no seat; a move from another tab of the seat is
//           refused in words.
//  away     Back after leaving the page mid-hand, a player is told what
//           the stand-in bot played for them.
//  names    The names the server made (bots', a table's) in the player's
//           language (Korean).
//  tour     A newcomer's first hand: the tour's four steps (the taxes first
//           when a tax is asked), in the way of nothing, skipped or finished
//           for good, shown again from the help; on a phone on top of the
//           hand sheet; in the five languages at the three sizes, the
//           taxes first at a tax, Corporate Shuffle's own tour, each step
//           on screen whole; the lobby says what the game is.
//
// It exits 0 on success; on failure it prints what failed, leaves
// screenshots in e2e/out/ and exits 1. E2E_LAYOUT_PARTS=dock,replay runs
// only those parts. Environment as in e2e/lib.mjs.

import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as lib from './lib.mjs';
import { log, fail, tid, outDir, Server } from './lib.mjs';
import { LAPTOP, PHONE, Pages, chosenParts, fixture, settle, tableInfo, atTable, createTable, addBots, ratedNews } from './pages.mjs';

lib.setLogPrefix('[e2e layout]');

const TOTAL_TIMEOUT_MS = 720_000;
const PARTS = ['dock', 'replay', 'phone', 'moments', 'words', 'languages', 'online', 'away', 'names', 'tour'];
const parts = chosenParts('E2E_LAYOUT_PARTS', PARTS);
const tmp = mkdtempSync(path.join(tmpdir(), 'dalmuti-e2e-layout-'));
// Dealt from a chosen seed (`dalmuti serve --deal-seed`, for tests only):
// whether a seat fits above a phone's hand sheet depends on how many rows
// the dealt hand needs, so a random deal made the check pass or fail by
// luck (a hand of eleven ranks takes three rows at 390 px).
const DEAL_SEED = 7;
const server = new Server(tmp, ['--bot-delay', '60', '--hand-pause', '2000', '--setup-pause', '2500',
  '--tables-per-address', '100', '--deal-seed', String(DEAL_SEED)]);
const pages = new Pages();
const step = lib.step;
/** The English catalogue: what the page must say. */
const english = JSON.parse(readFileSync(path.join(lib.root, 'crates', 'dalmuti-i18n', 'locales', 'en.web.json'), 'utf8'));

/** Boxes of the elements `selectors` name (the first match each; null when not shown), and the window. */
async function boxes(page, selectors) {
  return page.evaluate(sel => {
    const out = { vw: document.documentElement.clientWidth, vh: innerHeight, sw: document.documentElement.scrollWidth };
    for (const [key, s] of Object.entries(sel)) {
      const n = document.querySelector(s);
      if (!n || !n.getClientRects().length) { out[key] = null; continue; }
      const r = n.getBoundingClientRect();
      out[key] = { x: r.x, y: r.y, width: r.width, height: r.height, text: n.textContent.trim().slice(0, 60) };
    }
    return out;
  }, selectors);
}

/** A small phone's screen, where three rows of cards overflow the hand sheet. */
const SMALL_PHONE = { width: 360, height: 640 };

const inside = (b, vw, vh) => b.x >= -0.5 && b.y >= -0.5 && b.x + b.width <= vw + 0.5 && b.y + b.height <= vh + 0.5;
const meet = (a, b) => a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;
const show = b => b ? `${Math.round(b.x)},${Math.round(b.y)} ${Math.round(b.width)}×${Math.round(b.height)}` : 'nothing';

// ------------------------------------------------------------ dock

async function dockOnScreen() {
  const three = fixture('three');
  for (const size of [LAPTOP, PHONE, SMALL_PHONE]) {
    const label = `dock-${size.width}`;
    const page = await pages.fixturePage(label, size, three, { hash: atTable(three), http: tableInfo(three), messages: three.screens.turn });
    await page.locator(`${tid('dock')}.my-turn`).waitFor({ state: 'visible' });
    await settle(page);
    // The case players met: the hand wraps to two rows or more.
    const rows = await page.evaluate(() => new Set([...document.querySelectorAll('[data-testid="card-group"]')]
      .map(n => Math.round(n.getBoundingClientRect().top))).size);
    if (rows < 2) fail(`${size.width}×${size.height}: the hand is on ${rows} row(s): the test needs a hand that wraps`);
    for (const where of ['at the top', 'scrolled to the bottom']) {
      if (where !== 'at the top') await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
      const b = await boxes(page, { play: tid('play'), pass: tid('pass'), less: '#sel-less', more: '#sel-more' });
      for (const key of ['play', 'pass', 'less', 'more']) {
        if (!b[key]) fail(`${size.width}×${size.height} ${where}: no ${key} button`);
        if (!inside(b[key], b.vw, b.vh)) fail(`${size.width}×${size.height} ${where}: the ${key} button is not inside the window: ${show(b[key])} in ${b.vw}×${b.vh}`);
      }
      for (const key of ['less', 'more']) {
        if (b[key].width < 44 - 0.5 || b[key].height < 44 - 0.5) fail(`${size.width}×${size.height}: the ${key} button is ${show(b[key])}, smaller than 44×44`);
      }
    }
    await page.screenshot({ path: path.join(outDir, `${label}.png`) });
    log(`  ${size.width}×${size.height}: a hand on ${rows} rows, Play and Pass on screen`);
    if (size === LAPTOP) {
      // What a newcomer reads first at the side is the hand, not the deals' commitments.
      const side = await boxes(page, { log: tid('log'), fair: tid('fairness') });
      if (side.fair && side.fair.y < side.log.y) fail(`the deals' fairness panel (y ${Math.round(side.fair.y)}) comes before the hand's log (y ${Math.round(side.log.y)})`);
    }
    await pages.close(label);
  }
}

/** A game over with the top two level on points: the page says why the first is first. */
async function tieSaid() {
  const three = fixture('three');
  const level = JSON.parse(JSON.stringify(three.screens.over));
  // The last hand's first two, made level on points: the last hand decides.
  const last = level[0].d.results.at(-1).order.map(x => x.name);
  const [first, second] = last;
  const top = level[0].d.totals.find(x => x.name === first).total;
  for (const m of level) {
    for (const x of (m.d && m.d.totals) || []) if (x.name === second) x.total = top;
  }
  const page = await pages.fixturePage('tie', LAPTOP, three, { hash: atTable(three), http: tableInfo(three), messages: level });
  await page.locator(tid('game-over')).waitFor({ state: 'visible' });
  const said = (await page.locator(tid('tie-break')).textContent()).trim();
  const want = english['web.gameover.tie-break'].replace('{other}', second).replace('{name}', first);
  if (said !== want) fail(`a tie at the top is explained as "${said}", not "${want}"`);
  log(`  a tie at the top: "${said}"`);
  await pages.close('tie');
}

// ------------------------------------------------------------ replay

async function replayOnScreen() {
  const three = fixture('three');
  for (const size of [LAPTOP, { width: 1000, height: 700 }, PHONE, SMALL_PHONE]) {
    const label = `replay-${size.width}`;
    const page = await pages.fixturePage(label, size, three, {
      hash: `#/replay/${encodeURIComponent(three.id)}`,
      http: { ...tableInfo(three), [`/api/tables/${encodeURIComponent(three.id)}/replay`]: three.replay },
    });
    await page.waitForFunction(() => /step 1 of \d+/.test((document.querySelector('[data-testid="replay-pos"]') || {}).textContent || ''));
    await page.locator(tid('replay-next')).click();
    const found = await page.evaluate(() => {
      const box = n => { const r = n.getBoundingClientRect(); return { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height }; };
      const seats = [...document.querySelectorAll('[data-testid="replay-seat"]')].map(box);
      const link = document.querySelector('[data-testid="replay-record"]');
      return { seats, link: link ? box(link) : null, vw: document.documentElement.clientWidth, sw: document.documentElement.scrollWidth };
    });
    if (found.seats.length !== three.info.seats) fail(`${size.width}: ${found.seats.length} seat panels in the replay, not ${three.info.seats}`);
    for (const [i, b] of found.seats.entries()) {
      if (b.x < -0.5 || b.x + b.width > found.vw + 0.5) fail(`${size.width}: the replay's seat ${i + 1} is outside the window's width: ${show(b)} in ${found.vw}`);
      if (found.link && meet(b, found.link)) fail(`${size.width}: the replay's seat ${i + 1} ${show(b)} covers "Download the record" ${show(found.link)}`);
      for (const [j, c] of found.seats.entries()) if (j > i && meet(b, c)) fail(`${size.width}: the replay's seats ${i + 1} and ${j + 1} overlap`);
    }
    if (found.sw > found.vw + 0.5) fail(`${size.width}: the replay is wider than the window (${found.sw} px)`);
    log(`  ${size.width}: ${found.seats.length} seat panels side by side or stacked, all on screen`);
    await pages.close(label);
  }
}

// ------------------------------------------------------------ phones at 3 to 8 seats

/** Every seat inside the window and above the hand sheet; the page no wider than the window. */
async function seatsAboveSheet(page, when) {
  const found = await page.evaluate(() => {
    const box = n => { const r = n.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; };
    const dock = document.querySelector('[data-testid="dock"]');
    return {
      seats: [...document.querySelectorAll('[data-testid="seat"]')].map(box),
      dock: dock && !dock.hidden ? box(dock) : null,
      vw: document.documentElement.clientWidth, vh: innerHeight, sw: document.documentElement.scrollWidth,
    };
  });
  if (!found.dock) fail(`${when}: no hand sheet`);
  // A seat's set (its bubble) shows every card apart and stays inside the seat.
  const bubbles = await page.evaluate(() => [...document.querySelectorAll('[data-testid="seat"]')].map(seat => {
    const bubble = seat.querySelector('[data-testid="seat-bubble"]');
    if (!bubble) return null;
    const box = n => { const r = n.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; };
    return { seat: box(seat), bubble: box(bubble), cards: [...bubble.querySelectorAll('.card')].map(box) };
  }));
  for (const [i, b] of bubbles.entries()) {
    if (!b) continue;
    if (b.bubble.x < b.seat.x - 0.5 || b.bubble.x + b.bubble.width > b.seat.x + b.seat.width + 0.5) fail(`${when}: seat ${i + 1}'s set ${show(b.bubble)} sticks out of the seat ${show(b.seat)}`);
    for (const [j, c] of b.cards.entries()) for (const d of b.cards.slice(j + 1)) if (meet(c, d)) fail(`${when}: seat ${i + 1}'s set shows cards over each other`);
  }
  for (const [i, b] of found.seats.entries()) {
    if (!inside(b, found.vw, found.vh)) fail(`${when}: seat ${i + 1} is not inside the window: ${show(b)} in ${found.vw}×${found.vh}`);
    if (b.y + b.height > found.dock.y + 0.5) fail(`${when}: seat ${i + 1} ${show(b)} is under the hand sheet (its top at ${Math.round(found.dock.y)})`);
  }
  if (found.sw > found.vw + 0.5) fail(`${when}: the page is ${found.sw} px wide in a window of ${found.vw}`);
}

/**
 * Words a phone cut with "…" or that spill out of their box (issue 46):
 * seats' titles and names, the turn line, the pile's words, cards' names.
 */
async function cutWords(page) {
  return page.evaluate(() => {
    const cut = [];
    const seen = n => n && !n.hidden && n.getClientRects().length && !n.closest('[hidden]');
    for (const sel of ['.seat .s-title', '.seat .s-who', '#turn-line', '.pile-text', '.card-name', '#sel-desc', '.dock-top']) {
      for (const n of document.querySelectorAll(sel)) {
        if (!seen(n) || !n.textContent.trim()) continue;
        if (n.scrollWidth > n.clientWidth + 1) cut.push(`${sel} "${n.textContent.trim().slice(0, 40)}" (${n.scrollWidth} px in ${n.clientWidth})`);
        const box = n.closest('.card, .seat');
        if (box && sel === '.card-name') {
          const a = n.getBoundingClientRect(), b = box.getBoundingClientRect();
          if (a.left < b.left - 0.5 || a.right > b.right + 0.5 || a.bottom > b.bottom + 0.5) {
            cut.push(`${sel} "${n.textContent.trim()}" spills out of its card (${Math.round(a.left - b.left)}…${Math.round(b.right - a.right)} px, ` +
              `${Math.round(b.bottom - a.bottom)} px at its foot, ${getComputedStyle(n).fontSize})`);
          }
        }
      }
    }
    return cut;
  });
}

async function phoneSeats() {
  let setupSeen = 0;
  for (const size of [PHONE, SMALL_PHONE]) for (let n = 3; n <= 8; n++) {
    const label = `phone-${size.height}-${n}`;
    // A newcomer's first hand: the tour is open, and covers no seat.
    const page = await pages.page(label, { size, tour: true });
    await page.goto(pages.base + '/#/');
    // Names without a space, as long as they may be (a table's 64
    // letters, a player's 32), must not widen the page.
    const long = n % 2 === 0;
    await createTable(page, {
      seats: n, hands: 1, name: long ? `Phone${n}`.padEnd(64, 'x') : `Phone ${n}`, player: long ? 'Ada'.padEnd(32, 'a') : 'Ada',
    });
    await addBots(page, n - 1);
    await page.locator(tid('start')).click();
    await page.locator(tid('dock')).waitFor({ state: 'visible' });
    // "Look at your cards: everyone is ready in 2 s" is read whole (when
    // the page is not so slow that the pause is over already).
    const timer = page.locator(tid('setup-timer'));
    if (await timer.waitFor({ state: 'visible', timeout: 2_000 }).then(() => true, () => false)) {
      const cut = await page.evaluate(() => {
        const n = document.querySelector('[data-testid="setup-timer"]');
        const r = n.getBoundingClientRect();
        return n.scrollWidth > n.clientWidth + 1 || r.right > document.documentElement.clientWidth + 0.5 ? n.textContent : '';
      });
      if (cut) fail(`${n} seats on a phone: the setup line is cut: "${cut}"`);
      setupSeen++;
    }
    for (;;) {
      const thing = await lib.nextThing(page, 1);
      if (thing === 'lead' || thing === 'follow') break;
      if (thing === 'over') fail(`${n} seats: the hand ended before our turn`);
      await lib.answerDialog(page, thing);
    }
    await page.evaluate(() => scrollTo(0, 0));
    const when = `${n} seats on a ${size.width}×${size.height} phone, our turn, the tour open`;
    if (!(await page.locator(tid('tour')).isVisible())) fail(`${when}: no tour`);
    await seatsAboveSheet(page, when);
    const cut = await cutWords(page);
    if (cut.length) fail(`${when}: words cut or spilling: ${cut.join('; ')}`);
    await page.screenshot({ path: path.join(outDir, `${label}.png`) });
    await pages.close(label);
  }
  log(`  3 to 8 seats at 390×844 and 360×640, the tour open: every seat above the sheet, no word cut; the setup line read whole at ${setupSeen} of 12 tables`);
  if (!setupSeen) fail('the setup line was never seen: the check of its words did not run');
}

// ------------------------------------------------------------ moments of a game

/**
 * Watches the page on every animation frame: the banner against the turn
 * line and the window, the board's place on the page. Returns the
 * problems seen so far (the watch goes on).
 */
async function watchMoments(page) {
  await page.evaluate(() => {
    const problems = [];
    let boardAt = null;
    let played = null;
    let moves = 0;
    const rect = n => n && !n.hidden && n.getClientRects().length ? n.getBoundingClientRect() : null;
    const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const once = new Set();
    const note = (key, text) => { if (!once.has(key)) { once.add(key); problems.push(text); } };
    function frame() {
      const game = document.getElementById('t-game');
      const over = document.querySelector('[data-testid="game-over"]');
      if (game && !game.hidden && !(over && !over.hidden)) {
        const banner = rect(document.querySelector('[data-testid="board-banner"]'));
        const line = document.querySelector('[data-testid="turn-line"]');
        const turn = line && line.textContent.trim() ? rect(line) : null;
        const text = () => (document.querySelector('[data-testid="board-banner"]').textContent || '').slice(0, 50);
        if (banner && turn && meet(banner, turn)) note('cover:' + text(), `the banner "${text()}" covers the turn line "${line.textContent.trim().slice(0, 50)}"`);
        const board = rect(document.querySelector('.board'));
        if (banner && board && (banner.top < board.top - 0.5 || banner.left < board.left - 0.5 || banner.right > board.right + 0.5 || banner.bottom > board.bottom + 0.5)) {
          note('cut:' + text(), `the banner "${text()}" is cut by the board's edge (${Math.round(banner.left - board.left)},${Math.round(banner.top - board.top)} in the board)`);
        }
        if (board) {
          const at = { x: Math.round(board.left + scrollX), y: Math.round(board.top + scrollY), h: Math.round(board.height) };
          if (boardAt && (at.x !== boardAt.x || at.y !== boardAt.y)) {
            note('moved:' + at.y, `the board moved on the page from ${boardAt.x},${boardAt.y} to ${at.x},${at.y} (${(document.querySelector('[data-testid="table-status"]') || {}).textContent})`);
          }
          boardAt = at;
        }
        const stage = window.dalmutiClient && window.dalmutiClient.table.state && window.dalmutiClient.table.state.view
          ? window.dalmutiClient.table.state.view.stage : '';
        const st = window.dalmutiClient && window.dalmutiClient.table.state;
        const d = st && st.decision;
        if (d && d.kind === 'ready' && !(st.view && st.view.revolution_offer) && document.title.startsWith('▶')) {
          note('title', `the tab's title says "${document.title}" while the hand is set up and nothing is asked`);
        }
        const desc = document.querySelector('[data-testid="selection"]');
        if (stage === 'over' && desc && rect(desc) && /choose/i.test(desc.textContent)) note('choose', `"${desc.textContent.trim()}" shown after the hand ended`);
        // While a hand is played nothing moves: no seat, not the hand
        // (issue 46: phones moved the seats 48 px between lead and follow,
        // and the hand sheet when the turn came). A new deal may.
        const hand = st ? st.hand : 0;
        if (stage === 'play') {
          const dock = rect(document.querySelector('[data-testid="dock"]'));
          // What stands above the seats, to say what moved them.
          const above = ['.table-head', '#t-notice', '#t-mine', '#offline', '.pile', '#turn-line', '.pile-text']
            .map(s => { const r = rect(document.querySelector(s)); return `${s} ${r ? Math.round(r.height) : '-'}`; }).join(', ');
          const now = {
            above,
            seats: [...document.querySelectorAll('[data-testid="seat"]')].map(n => { const r = n.getBoundingClientRect(); return [r.left + scrollX, r.top + scrollY, r.height]; }),
            dock: dock ? dock.top : null,
          };
          if (!played || played.hand !== hand || played.seats.length !== now.seats.length) played = { hand, ...now };
          else {
            now.seats.forEach((b, i) => {
              const a = played.seats[i];
              if (Math.max(...b.map((x, k) => Math.abs(x - a[k]))) > 6) {
                moves++;
                note(`seat-moved:${hand}:${i}`, `seat ${i + 1} moved in hand ${hand}: from ${a.map(Math.round)} to ${b.map(Math.round)} ` +
                  `(above it: ${played.above}; then ${now.above})`);
              }
            });
            if (now.dock != null && played.dock != null && Math.abs(now.dock - played.dock) > 6) {
              moves++;
              note(`dock-moved:${hand}`, `the hand moved in hand ${hand}: its top from ${Math.round(played.dock)} to ${Math.round(now.dock)}`);
            }
            played = { hand, ...now };
          }
          // A laptop's docked hand at the window's foot: no empty band under it.
          if (dock && getComputedStyle(document.querySelector('[data-testid="dock"]')).position === 'sticky' && scrollY === 0 &&
              document.documentElement.scrollHeight <= innerHeight + 1 && innerHeight - dock.bottom > 24) {
            note(`band:${hand}`, `an empty band of ${Math.round(innerHeight - dock.bottom)} px under the docked hand in hand ${hand}`);
          }
        }
      }
      window.__layoutMoves = moves;
      requestAnimationFrame(frame);
    }
    window.__layoutProblems = problems;
    requestAnimationFrame(frame);
  });
}

async function moments() {
  for (const size of [LAPTOP, PHONE, SMALL_PHONE]) {
    const label = `moments-${size.width}`;
    const page = await pages.page(label, { size, motion: true });
    await page.goto(pages.base + '/#/');
    await createTable(page, { seats: 4, hands: 2, name: 'Moments' });
    await addBots(page, 3);
    await page.locator(tid('start')).click();
    await page.locator(tid('dock')).waitFor({ state: 'visible' });
    await page.evaluate(() => scrollTo(0, 0));
    await watchMoments(page);
    let banners = 0;
    let rows = 0;
    for (const hand of [1, 2]) {
      for (let moves = 0; ; moves++) {
        const thing = await lib.nextThing(page, hand);
        if (thing === 'over') break;
        if (await page.locator(tid('board-banner')).isVisible()) banners++;
        rows = Math.max(rows, await page.evaluate(() => new Set([...document.querySelectorAll('[data-testid="card-group"]')]
          .map(n => Math.round(n.getBoundingClientRect().top))).size));
        if (thing === 'lead' || thing === 'follow') await lib.playSet(page);
        else await lib.answerDialog(page, thing);
        if (moves > 200) fail('more than 200 moves in one hand');
      }
    }
    await page.locator(tid('game-over')).waitFor({ state: 'visible', timeout: 30_000 });
    const problems = await page.evaluate(() => window.__layoutProblems);
    const moved = await page.evaluate(() => window.__layoutMoves);
    if (problems.length) fail(`moments of a game at ${size.width}×${size.height} (${moved} moves of more than 6 px):\n  ` + problems.join('\n  '));
    // The case players met on a laptop: a hand of two rows, then fewer
    // (the board shrank and never grew back, leaving a band under the hand).
    if (size === LAPTOP && rows < 2) fail(`the laptop's hands were never on two rows: the check of the band under the hand did not meet the case`);
    log(`  ${size.width}×${size.height}: two hands watched frame by frame (a banner up at ${banners} of our turns, the hand on up to ${rows} rows): no banner over the turn line, nothing moved while a hand was played`);
    await pages.close(label);
  }
}

// ------------------------------------------------------------ words in Japanese and Korean

/**
 * Words broken across lines: Korean words (between spaces) and Japanese
 * katakana words, in the visible text of the page.
 */
async function brokenWords(page, lang) {
  return page.evaluate(l => {
    const found = [];
    const pattern = l === 'ko' ? /[\p{L}\p{N}]+/gu : /[\p{Script=Katakana}ー]{2,}/gu;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('[hidden], .sr-only, option, script, style') || !parent.getClientRects().length) continue;
      for (const m of node.textContent.matchAll(pattern)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (tops.size > 1) found.push(m[0]);
      }
    }
    return [...new Set(found)];
  }, lang);
}

async function wordsUnbroken() {
  const three = fixture('three');
  const eight = fixture('eight');
  for (const [lang, locale] of [['ja', 'ja-JP'], ['ko', 'ko-KR']]) {
    const screens = [
      ['the lobby', three, { hash: '#/', http: { '/api/tables': { tables: [eight.info] }, '/api/tables?finished=true': three.lobby.finished } }, tid('create-form')],
      ['our turn at 3', three, { hash: atTable(three), http: tableInfo(three), messages: three.screens.turn }, `${tid('dock')}.my-turn`],
      ['our turn at 8', eight, { hash: atTable(eight), http: tableInfo(eight), messages: eight.screens.turn }, `${tid('dock')}.my-turn`],
      ['the tax', three, { hash: atTable(three), http: tableInfo(three), messages: three.screens.tax }, `${tid('decision')}[data-kind="tax"]`],
      ['the game over', three, { hash: atTable(three), http: tableInfo(three), messages: three.screens.over }, tid('game-over')],
    ];
    for (const size of [PHONE, SMALL_PHONE]) for (const [what, fx, options, ready] of screens) {
      const label = `words-${lang}-${size.width}`;
      const page = await pages.fixturePage(label, size, fx, { ...options, locale });
      await page.locator(ready).waitFor({ state: 'visible' });
      await settle(page);
      const broken = await brokenWords(page, lang);
      if (broken.length) {
        mkdirSync(outDir, { recursive: true });
        await page.screenshot({ path: path.join(outDir, `${label}.png`), fullPage: true });
        fail(`${lang}, ${what} at ${size.width}×${size.height}: words broken across lines: ${broken.slice(0, 8).join(', ')}`);
      }
      await pages.close(label);
    }
    log(`  ${lang}: no word broken on five screens at 390×844 and 360×640`);
  }
}

// ------------------------------------------------------------ words in five languages

const LOCALES = { en: 'en-US', ko: 'ko-KR', de: 'de-DE', es: 'es-ES', ja: 'ja-JP' };
const catalogue = lang => JSON.parse(readFileSync(path.join(lib.root, 'crates', 'dalmuti-i18n', 'locales', `${lang}.web.json`), 'utf8'));
const fill = (text, args) => text.replace(/\{(\w+)\}/g, (whole, k) => (args[k] != null ? String(args[k]) : whole));

/**
 * Every rank's digit on a small card stands below the card's coloured
 * band (a red 3 on a red band could not be read).
 */
async function digitsOnBands(page) {
  return page.evaluate(() => {
    const found = [];
    for (const card of document.querySelectorAll('.card.mini')) {
      const rank = card.querySelector('.card-rank');
      if (!rank || !card.getClientRects().length || card.closest('[hidden]')) continue;
      const c = card.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(rank);
      const r = range.getBoundingClientRect();
      // The band is 4 px; a glyph's ink starts a little under its line's top.
      if (r.height && r.top + 0.2 * r.height < c.top + 4) found.push(`${rank.textContent} (${Math.round(r.top - c.top)} px from the top)`);
    }
    return [...new Set(found)];
  });
}

/** On a laptop, no seat's bubble over the pile, its words, the turn line or the banner. */
async function bubblesOverWords(page) {
  return page.evaluate(() => {
    const rect = n => (n && !n.hidden && n.getClientRects().length ? n.getBoundingClientRect() : null);
    const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const words = ['.pile-cards', '.pile-text', '#turn-line', '#board-banner'].map(s => [s, rect(document.querySelector('.board ' + s))])
      .filter(([, r]) => r && r.width && r.height);
    const found = [];
    for (const b of document.querySelectorAll('#seats .s-bubble')) {
      const r = rect(b);
      for (const [s, w] of words) if (r && meet(r, w)) found.push(`a bubble over ${s}`);
    }
    return found;
  });
}

/**
 * The names the server gives (bots', tables') in the player's words
 * wherever it names them, and no word cut, spilling or broken, in the five
 * languages, from recorded states: the turn line, the tax prompt, the news,
 * the lobby's lists, My games, a profile's last games; seats' titles, the
 * turn line and every card's name (Corporate Shuffle's too) on both phones
 * and a laptop; the game over's table on phones; the digits of small cards.
 */
async function fiveLanguages() {
  const three = fixture('three');
  const eight = fixture('eight');
  const id = three.id;
  // A finished table the server named, won by a bot (INFO `bots`).
  const bots = [{ name: 'easy bot 1', bot: 'easy', n: 1 }, { name: 'easy bot 2', bot: 'easy', n: 2 }];
  const named = { ...three.info, id: 'named0001', name: 'Ada\'s table 2', default_name: { player: 'Ada', n: 2 }, winner: 'easy bot 1', bots };
  const secret = '0'.repeat(32);
  const lobbyHttp = {
    '/api/tables': { tables: [] },
    '/api/tables?finished=true': { tables: [named] },
    '/api/players/me/tables': { tables: [{ ...named, joined_at: three.now - 3_600_000 }] },
    '/api/players/Ada': profileOf(three.now),
  };
  // The game over of five hands (a "Play against bots" game) on a phone.
  const over = JSON.parse(JSON.stringify(three.screens.over));
  for (const m of over) {
    const results = m.d && m.d.results;
    if (results && results.length) m.d.results = [1, 2, 3, 4, 5].map(hand => ({ hand, order: results[(hand - 1) % results.length].order }));
  }
  // Our turn at a table with a turn timer (45 s).
  const timed = JSON.parse(JSON.stringify(three.screens.turn));
  for (const m of timed) {
    if (!m.d || !m.d.rules) continue;
    m.d.turn_seconds = 45;
    if (m.d.decision) m.d.deadline_ms = 45_000;
  }
  for (const lang of Object.keys(LOCALES)) {
    const words = catalogue(lang);
    const bot = n => fill(words['web.bot.name'], { bot: words['web.bot.easy'], n });
    const noEnglishBot = async (page, where) => {
      if (lang === 'en') return;
      const text = await page.locator('body').innerText();
      const m = text.match(/easy bot \d/);
      if (m) fail(`${lang}, ${where}: a bot named in English: "${text.slice(Math.max(0, m.index - 40), m.index + 30).replace(/\s+/g, ' ')}"`);
    };
    for (const size of [SMALL_PHONE, PHONE, LAPTOP]) {
      const at = `${lang}, ${size.width}×${size.height}`;
      for (const [what, fx, messages, ready] of [
        ['our turn at 3', three, three.screens.turn, `${tid('dock')}.my-turn`],
        ['our turn at 8', eight, eight.screens.turn, `${tid('dock')}.my-turn`],
        ['the tax', three, three.screens.tax, `${tid('decision')}[data-kind="tax"]`],
        ['Corporate Shuffle\'s cards', three, corporate(three.screens.turn), `${tid('card-group')}`],
      ]) {
        const label = `five-${lang}-${size.width}`;
        const page = await pages.fixturePage(label, size, fx, { hash: atTable(fx), http: tableInfo(fx), messages, locale: LOCALES[lang] });
        await page.locator(ready).first().waitFor({ state: 'visible' });
        await settle(page);
        const cut = await cutWords(page);
        if (cut.length) {
          await page.screenshot({ path: path.join(outDir, `${label}.png`) });
          fail(`${at}, ${what}: words cut or spilling: ${cut.slice(0, 6).join('; ')}`);
        }
        const digits = await digitsOnBands(page);
        if (digits.length) fail(`${at}, ${what}: digits on their card's band: ${digits.join(', ')}`);
        if (lang === 'ja' || lang === 'ko') {
          const broken = await brokenWords(page, lang);
          if (broken.length) fail(`${at}, ${what}: words broken across lines: ${broken.slice(0, 8).join(', ')}`);
        }
        if (size === LAPTOP) {
          const over = await bubblesOverWords(page);
          if (over.length) fail(`${at}, ${what}: ${over.join(', ')}`);
        }
        await noEnglishBot(page, what);
        if (what === 'our turn at 3' && size === LAPTOP) {
          // The news names a bot that took a seat in the player's words, its level said once (its name says it).
          const news = await page.locator(tid('chat')).innerText();
          const want = fill(words['web.event.seat'], { name: bot(1) });
          if (!news.includes(want)) fail(`${at}: the news does not say "${want}": ${news.replace(/\s+/g, ' ').slice(0, 300)}`);
        }
        if (what === 'the tax') {
          // The prompt names the bot the tax goes to in the player's words.
          const prompt = (await page.locator('#decision-title').textContent()) + ' ' + (await page.locator(tid('turn-line')).textContent());
          const to = three.screens.tax.map(m => m.d && m.d.decision).find(d => d && d.kind === 'tax');
          const players = three.screens.tax.map(m => m.d && m.d.players).find(Boolean);
          const want = bot(Number(players[to.to].split(' ').pop()));
          if (!prompt.includes(want)) fail(`${at}: the tax prompt "${prompt.trim()}" does not name ${want}`);
        }
        if (what === 'our turn at 3' && size !== LAPTOP) {
          // The chat's box, opened from its tab, above the hand sheet.
          await page.locator(`${tid('side-tab')}[data-tab="chat"]`).click();
          const boxes = await page.evaluate(() => {
            const r = n => n.getBoundingClientRect();
            return { input: r(document.getElementById('chat-input')), dock: r(document.querySelector('[data-testid="dock"]')) };
          });
          if (boxes.input.bottom > boxes.dock.top + 0.5 || boxes.input.top < 0) {
            fail(`${at}: the chat's box (${Math.round(boxes.input.top)}–${Math.round(boxes.input.bottom)}) is not above the hand sheet (${Math.round(boxes.dock.top)})`);
          }
        }
        await pages.close(label);
      }
    }
    for (const size of [SMALL_PHONE, PHONE, LAPTOP]) {
      const at = `${lang}, ${size.width}×${size.height}`;
      // A rated game's end (issue 46): how it moved each rating, Ada's
      // still provisional ("?"), in the player's words.
      const label = `five-over-${lang}-${size.width}`;
      const page = await pages.fixturePage(label, size, three, { hash: atTable(three), http: tableInfo(three), messages: [...over, ratedNews(three)], locale: LOCALES[lang] });
      await page.locator(tid('per-hand')).waitFor();
      await page.locator(tid('rating-change')).first().waitFor();
      await settle(page);
      const fits = await page.evaluate(() => {
        const wrap = document.querySelector('.per-hand-wrap');
        const vw = document.documentElement.clientWidth;
        const lines = [...document.querySelectorAll('[data-testid="standings"] li')].map(n => ({
          text: n.innerText.replace(/\s+/g, ' ').trim(), wide: n.scrollWidth > n.clientWidth + 1 || n.getBoundingClientRect().right > vw + 0.5,
        }));
        return { table: wrap.scrollWidth, box: wrap.clientWidth, lines, changes: document.querySelectorAll('[data-testid="standings"] [data-testid="rating-change"]').length };
      });
      if (fits.table > fits.box + 0.5) fail(`${at}: the game over's table is ${fits.table} px in a ${fits.box}-px box`);
      if (fits.changes !== 3) fail(`${at}: ${fits.changes} rating changes in the standings, not 3: ${fits.lines.map(l => l.text).join(' | ')}`);
      const ada = fits.lines.find(l => l.text.includes('Ada'));
      const now = words['web.gameover.rating-now'];
      if (!ada || !ada.text.includes(`+3.3 ${now} 28.3?`)) fail(`${at}: Ada's line of the standings reads "${ada && ada.text}", not "… +3.3 ${now} 28.3? …"`);
      for (const l of fits.lines) if (l.wide) fail(`${at}: a line of the standings is cut or wider than the window: "${l.text}"`);
      await noEnglishBot(page, 'the game over');
      if (size !== LAPTOP) await page.screenshot({ path: path.join(outDir, `${label}.png`), fullPage: true });
      await pages.close(label);
    }
    // A long game's table on a small phone scrolls sideways, and says so:
    // a glow at the edge that has more (issue 46: columns hidden without a
    // sign), the page no wider.
    {
      const at = `${lang}, 360×640, twelve hands`;
      const label = `five-long-${lang}`;
      const long = JSON.parse(JSON.stringify(over));
      for (const m of long) if (m.d && m.d.results && m.d.results.length) m.d.results = Array.from({ length: 12 }, (_, i) => ({ ...m.d.results[i % 5], hand: i + 1 }));
      const page = await pages.fixturePage(label, SMALL_PHONE, three, { hash: atTable(three), http: tableInfo(three), messages: long, locale: LOCALES[lang] });
      const wrap = page.locator('.per-hand-wrap');
      await wrap.waitFor();
      await settle(page);
      await wrap.scrollIntoViewIfNeeded();
      const glow = async () => {
        const png = PNG.sync.read(await wrap.screenshot({ animations: 'disabled' }));
        // How yellow the 4-px columns at each edge are, on average (red + green − 2 × blue).
        const edge = from => {
          let sum = 0, count = 0;
          for (let y = 0; y < png.height; y++) for (let x = from; x < from + 4; x++) {
            const i = (y * png.width + x) * 4;
            sum += png.data[i] + png.data[i + 1] - 2 * png.data[i + 2];
            count++;
          }
          return sum / count;
        };
        return { left: edge(0), right: edge(png.width - 4) };
      };
      const sizes = await wrap.evaluate(n => ({ scroll: n.scrollWidth, box: n.clientWidth, page: document.documentElement.scrollWidth, vw: document.documentElement.clientWidth }));
      if (sizes.scroll <= sizes.box) fail(`${at}: the table (${sizes.scroll} px) fits its box (${sizes.box} px): the check of its scrolling did not run`);
      if (sizes.page > sizes.vw + 0.5) fail(`${at}: the game over's table widens the page to ${sizes.page} px`);
      const start = await glow();
      await wrap.evaluate(n => { n.scrollLeft = n.scrollWidth; });
      const end = await glow();
      // More to the right at the start: the right edge glows, the left not; at the end the other way round.
      if (!(start.right > start.left + 20 && end.left > end.right + 20)) {
        await page.screenshot({ path: path.join(outDir, `${label}.png`) });
        fail(`${at}: no sign that the table scrolls (edges' yellow at the start ${start.left.toFixed(0)}/${start.right.toFixed(0)}, at the end ${end.left.toFixed(0)}/${end.right.toFixed(0)})`);
      }
      if (lang === 'ja' || lang === 'de') await page.screenshot({ path: path.join(outDir, `${label}.png`) });
      await pages.close(label);
    }
    // The seat taken back on another device (issue 46, item 1): told at
    // once, in the player's words, the turn gone, the seat offered back.
    for (const size of [SMALL_PHONE, PHONE, LAPTOP]) {
      const at = `${lang}, ${size.width}×${size.height}`;
      const label = `five-taken-${lang}-${size.width}`;
      const last = timed[timed.length - 1];
      const taken = { t: 'taken', v: last.v, d: { name: 'Ada', reason: 'the seat was taken back on another device' } };
      if (lang === 'en') {
        // Without the word from the server, the same page shows our turn and its timer: what the check below must see gone.
        const before = await pages.fixturePage(label, size, three, { hash: atTable(three), http: tableInfo(three), messages: timed, player: secret });
        await before.locator(`${tid('dock')}.my-turn`).waitFor({ state: 'visible' });
        await before.locator(tid('timer')).waitFor({ state: 'visible' });
        await pages.close(label);
      }
      const page = await pages.fixturePage(label, size, three, {
        hash: atTable(three), http: tableInfo(three), messages: [...timed, taken], locale: LOCALES[lang], player: secret,
      });
      await page.locator(tid('elsewhere')).waitFor({ state: 'visible' });
      await settle(page);
      const seen = await page.evaluate(() => {
        const r = n => n.getBoundingClientRect();
        const cut = ['#lost-title', '#lost-body', '#take-back', '#forget-seat'].map(s => document.querySelector(s))
          .filter(n => n.scrollWidth > n.clientWidth + 1).map(n => n.textContent);
        const title = document.getElementById('lost-title');
        return {
          title: title.textContent.trim(), body: document.getElementById('lost-body').textContent.trim(),
          back: document.getElementById('take-back').hidden ? null : document.getElementById('take-back').textContent.trim(),
          titleBox: r(title), vw: document.documentElement.clientWidth, vh: innerHeight, cut,
          dock: !document.querySelector('[data-testid="dock"]').hidden && document.querySelector('[data-testid="dock"]').getClientRects().length > 0,
          turn: document.querySelector('[data-testid="turn-line"]').textContent.trim(),
          join: !document.getElementById('t-join').hidden,
          timer: [...document.querySelectorAll('[data-testid="timer"]')].some(n => !n.hidden && n.getClientRects().length),
        };
      });
      if (seen.title !== words['web.elsewhere.taken-title']) fail(`${at}: the seat taken elsewhere is told as "${seen.title}", not "${words['web.elsewhere.taken-title']}"`);
      if (seen.body !== words['web.elsewhere.taken-body']) fail(`${at}: the panel says "${seen.body}"`);
      if (seen.back !== words['web.elsewhere.take-back']) fail(`${at}: the seat is offered back as "${seen.back}", not "${words['web.elsewhere.take-back']}"`);
      if (!inside(seen.titleBox, seen.vw, seen.vh)) fail(`${at}: the word that the seat is taken elsewhere is not on screen: ${show(seen.titleBox)}`);
      if (seen.cut.length) fail(`${at}: the panel's words are cut: ${seen.cut.join('; ')}`);
      if (seen.dock) fail(`${at}: the seat is played elsewhere, and the page still shows a hand to play`);
      // Her seat is hers still: not "Take a seat" under her own name, above the word that it is played elsewhere.
      if (seen.join) fail(`${at}: the seat is played elsewhere, and the page offers to join the table as a newcomer`);
      if (seen.timer) fail(`${at}: the seat is played elsewhere, and the page still shows a turn's timer`);
      if (seen.turn === words['web.prompt.lead']) fail(`${at}: the turn line still says it is our turn: "${seen.turn}"`);
      await page.screenshot({ path: path.join(outDir, `${label}.png`) });
      await pages.close(label);
    }
    // The lobby's finished list, My games, a profile: the server's names in the player's words.
    const label = `five-lobby-${lang}`;
    const page = await pages.fixturePage(label, PHONE, three, { hash: '#/', http: lobbyHttp, locale: LOCALES[lang], player: secret });
    await page.locator(`${tid('my-tables')} li`).first().waitFor();
    await page.locator(`${tid('finished-tables')} li`).first().waitFor();
    const table = fill(words['web.table.default-name-n'], { player: 'Ada', n: 2 });
    for (const list of ['my-tables', 'finished-tables']) {
      const text = await page.locator(`${tid(list)} li`).first().innerText();
      if (!text.includes(table) || !text.includes(bot(1))) fail(`${lang}, the lobby's ${list}: "${text.replace(/\s+/g, ' ')}" names not "${table}" and "${bot(1)}"`);
    }
    await noEnglishBot(page, 'the lobby');
    await page.evaluate(() => { location.hash = '#/p/Ada'; });
    await page.locator(`${tid('profile-recent')} li`).first().waitFor();
    await settle(page);
    const recent = await page.locator(tid('profile-recent')).innerText();
    if (!recent.includes(table)) fail(`${lang}, the profile's last games: "${recent.replace(/\s+/g, ' ')}" does not name "${table}"`);
    // A game's name is one word to the eye: never broken, at its middle dot either.
    const split = await page.evaluate(() => [...document.querySelectorAll('#pl-body .nobr')]
      .filter(n => new Set([...n.getClientRects()].map(r => Math.round(r.top))).size > 1).map(n => n.textContent));
    if (split.length) fail(`${lang}, the profile: ${split.join(', ')} broken across lines`);
    if (lang === 'ja' || lang === 'ko') {
      const broken = await brokenWords(page, lang);
      if (broken.length) fail(`${lang}, the profile: words broken across lines: ${broken.join(', ')}`);
    }
    await pages.close(label);
    log(`  ${lang}: the server's names in the player's words; nothing cut, spilling or broken at 360×640, 390×844, 1366×768`);
  }
}

/** A profile as GET /api/players/Ada answers it: two rated games at three, one unrated. */
function profileOf(now) {
  const day = 86_400_000;
  const rating = (mu, sigma) => ({ mu, sigma, provisional: sigma > 4 });
  const game = (at, table, n, place, r) => ({
    table, table_name: n === 1 ? 'Ada\'s table' : `Ada's table ${n}`, default_name: { player: 'Ada', n }, public: true,
    at, game: 'dalmuti', players: 3, place, rated: !!r, ...(r ? { band: '3-4' } : {}), rating: r,
  });
  return {
    name: 'Ada', since: now - 30 * day,
    games: [{ game: 'dalmuti', played: 3, places: [2, 1], mean_share: 0.44 }],
    ratings: [{ key: 'ada', name: 'Ada', bot: false, game: 'dalmuti', band: '3-4', rating: rating(27.4, 7.8), games: 2, ordinal: 4 }],
    recent: [game(now - day, 'named0001', 2, 1, rating(27.4, 7.8)), game(now - 2 * day, 'named0000', 1, 2, null),
      game(now - 3 * day, 'named0002', 3, 1, rating(26.6, 8.0))],
  };
}

// ------------------------------------------------------------ back online

async function backOnline() {
  const page = await pages.page('online', { size: LAPTOP });
  await page.goto(pages.base + '/#/');
  await createTable(page, { seats: 3, hands: 3, name: 'Online' });
  await addBots(page, 2);
  await page.locator(tid('start')).click();
  await page.locator(tid('dock')).waitFor({ state: 'visible' });
  const context = page.context();
  const seatsAt = () => page.evaluate(() => {
    const r = n => n.getBoundingClientRect();
    return { seats: [...document.querySelectorAll('[data-testid="seat"]')].map(n => Math.round(r(n).top)),
      me: r(document.querySelector('.seat.me')), dock: r(document.querySelector('[data-testid="dock"]')) };
  });
  const before = await seatsAt();
  await context.setOffline(true);
  await page.waitForFunction(() => document.querySelector('[data-testid="conn"]').dataset.state === 'down', null, { timeout: 5_000 });
  // The offline banner comes over the page, not into it: your own seat is
  // not pushed under the hand (issue 46), and no seat moves.
  await page.locator(tid('offline')).waitFor({ state: 'visible' });
  const during = await seatsAt();
  if (during.me.bottom > during.dock.top + 0.5) fail(`offline, your own seat (bottom ${Math.round(during.me.bottom)}) is under the hand (top ${Math.round(during.dock.top)})`);
  if (JSON.stringify(during.seats) !== JSON.stringify(before.seats)) fail(`the offline banner moved the seats: ${before.seats} to ${during.seats}`);
  // Away long enough for the stand-in bot to play for us.
  await lib.sleep(4_000);
  const t0 = Date.now();
  await context.setOffline(false);
  await page.waitForFunction(() => document.querySelector('[data-testid="conn"]').dataset.state === 'up', null, { timeout: 10_000 });
  const took = Date.now() - t0;
  if (took > 1_000) fail(`back online, the table took ${took} ms to reconnect (at most 1 s)`);
  log(`  reconnected ${took} ms after the network came back`);
  // A move chosen at an older event, as a second tab of this seat sends
  // one: the refusal is in words, not the server's "stale action: …".
  await page.evaluate(() => {
    const T = window.dalmutiClient.table;
    T.ws.send(JSON.stringify({ t: 'act', v: T.v - 1, d: 'pass' }));
  });
  const error = page.locator(tid('error'));
  await error.waitFor({ state: 'visible' });
  const said = (await error.textContent()).trim();
  if (said !== english['web.error.stale']) fail(`a stale move is refused with "${said}", not "${english['web.error.stale']}"`);
  log(`  a stale move from another tab: "${said}"`);
  await pages.close('online');
}

// ------------------------------------------------------------ back from away

/**
 * A player who leaves the page mid-hand is played for by a bot (after the
 * grace period, here a second, while another person is at the table: a
 * table of no one waits); coming back, they are told what it played.
 */
async function backFromAway() {
  const dir = mkdtempSync(path.join(tmpdir(), 'dalmuti-e2e-away-'));
  const quick = new Server(dir, ['--bot-delay', '60', '--grace', '1', '--setup-pause', '500', '--tables-per-address', '100']);
  let playing = true;
  try {
    const base = await quick.start();
    const ada = await pages.page('away-ada', { size: LAPTOP });
    await ada.goto(base + '/#/');
    const id = await createTable(ada, { seats: 3, hands: 3, name: 'Away' });
    const bo = await pages.page('away-bo', { size: LAPTOP });
    await bo.goto(`${base}/#/t/${encodeURIComponent(id)}`);
    await bo.locator('#join-name').fill('Bo');
    await bo.locator(tid('join-submit')).click();
    await ada.waitForFunction(() => Number(document.querySelector('[data-testid="prestart"]').dataset.taken) >= 2);
    await addBots(ada, 1);
    await ada.locator(tid('start')).click();
    await ada.locator(tid('dock')).waitFor({ state: 'visible' });
    // Bo plays on while Ada is away.
    const boPlays = (async () => {
      while (playing) {
        const thing = await lib.nextThing(bo, 1, 30_000).catch(() => 'over');
        if (thing === 'over' || !playing) return;
        if (thing === 'lead' || thing === 'follow') await lib.playSet(bo);
        else await lib.answerDialog(bo, thing);
      }
    })();
    // Ada's moves in the hand's log as Bo sees it (hand 1 of 3: her
    // stand-in moves in it long before it ends).
    const adaMoves = () => {
      const st = window.dalmutiClient.table.state;
      const seat = st && st.players ? st.players.indexOf('Ada') : -1;
      return st && st.view ? (st.view.log || []).filter(e => e.seat === seat && (e.event === 'played' || e.event === 'passed')).length : 0;
    };
    const before = await bo.evaluate(adaMoves);
    await ada.goto('about:blank');
    // Away until the stand-in bot has moved for her (past the grace period).
    for (const deadline = Date.now() + 30_000; (await bo.evaluate(adaMoves)) <= before;) {
      if (Date.now() > deadline) fail('no stand-in move for Ada in 30 s while she was away');
      await lib.sleep(100);
    }
    await ada.goto(`${base}/#/t/${encodeURIComponent(id)}`);
    const notice = ada.locator(tid('auto-notice'));
    await notice.waitFor({ state: 'visible', timeout: 10_000 });
    const said = (await notice.textContent()).trim();
    const head = english['web.auto.away'].split('{action}')[0];
    if (!said.startsWith(head)) fail(`back from away, the notice reads "${said}", not "${head}…"`);
    log(`  back from away: "${said}"`);
    playing = false;
    await boPlays.catch(() => {});
    await pages.close('away-bo');
    await pages.close('away-ada');
  } finally {
    playing = false;
    await quick.stop();
  }
}

// ------------------------------------------------------------ names in the player's language

async function namesInLanguage() {
  const korean = JSON.parse(readFileSync(path.join(lib.root, 'crates', 'dalmuti-i18n', 'locales', 'ko.web.json'), 'utf8'));
  const page = await pages.page('names', { size: PHONE, locale: 'ko-KR' });
  await page.goto(pages.base + '/#/');
  await page.locator(tid('quick-name')).fill('민지');
  await page.locator(tid('quick-bots')).click();
  await page.locator(tid('seat')).nth(4).waitFor();
  const shown = (await page.locator(`${tid('seat')} .s-who`).allTextContents()).map(x => x.trim()).sort();
  const bot = korean['web.bot.name'].replace('{bot}', korean['web.bot.normal']);
  const want = ['민지', ...[1, 2, 3, 4].map(n => bot.replace('{n}', n))].sort();
  if (JSON.stringify(shown) !== JSON.stringify(want)) fail(`Korean seats read ${JSON.stringify(shown)}, not ${JSON.stringify(want)}`);
  // A private table of one person and bots: nobody can come to watch.
  if (await page.locator(tid('spectator-chat')).isVisible()) fail('"Spectators may chat" is offered at a private table of one person and bots');
  const table = (await page.locator(tid('table-name')).textContent()).trim();
  const wantTable = korean['web.table.default-name'].replace('{player}', '민지');
  if (table !== wantTable) fail(`the Korean table is named "${table}", not "${wantTable}"`);
  const told = await page.locator(tid('log')).innerText();
  if (/normal bot/.test(told)) fail(`the Korean log names a bot in English: ${told.slice(0, 200)}`);
  log(`  Korean: "${table}", ${shown.join(', ')}`);
  await pages.close('names');
}

// ------------------------------------------------------------ the first-hand tour

async function firstHandTour() {
  for (const size of [LAPTOP, PHONE, SMALL_PHONE]) {
    const label = `tour-${size.width}`;
    const page = await pages.page(label, { size, tour: true });
    await page.goto(pages.base + '/#/');
    await createTable(page, { seats: 3, hands: 1, name: 'Tour' });
    await addBots(page, 2);
    await page.locator(tid('start')).click();
    const tour = page.locator(tid('tour'));
    await tour.waitFor({ state: 'visible' });
    const box = await tour.boundingBox();
    if (box.y < 0 || box.y + box.height > size.height) fail(`${size.width}: the tour is not on screen at the start: ${show(box)}`);
    // What the table asks first is explained first: a Dalmuti's first
    // hand opens with a tax to choose, and the tour with the taxes.
    const taxing = await page.evaluate(() => {
      const d = window.dalmutiClient.table.state.decision;
      return !!d && /tax|exchange/.test(d.kind);
    });
    const keys = taxing ? ['web.tour.taxes', 'web.tour.best', 'web.tour.play', 'web.tour.jesters']
      : ['web.tour.best', 'web.tour.play', 'web.tour.jesters', 'web.tour.taxes'];
    const steps = keys.map(k => english[k]);
    for (const [i, want] of steps.entries()) {
      const text = (await page.locator(tid('tour-text')).textContent()).trim();
      if (text !== want) fail(`${size.width}: tour step ${i + 1} reads "${text}", not "${want}"`);
      // The tour blocks nothing: our first move is made with it on screen.
      if (i === 1) {
        for (;;) {
          const thing = await lib.nextThing(page, 1);
          if (thing === 'lead' || thing === 'follow') {
            if (size !== LAPTOP) await seatsAboveSheet(page, `${size.width}×${size.height}, the tour open at our turn`);
            await lib.playSet(page);
            break;
          }
          if (thing === 'over') fail('the hand ended before our first move');
          await lib.answerDialog(page, thing);
        }
      }
      await page.locator(tid('tour-next')).click();
    }
    await tour.waitFor({ state: 'hidden' });
    await page.reload();
    await page.locator(tid('seat')).first().waitFor();
    await lib.sleep(300);
    if (await tour.isVisible()) fail(`${size.width}: the tour came back after it was finished`);
    await page.locator('#help-toggle').click();
    await page.locator(tid('tour-again')).click();
    await tour.waitFor({ state: 'visible' });
    await page.locator(tid('tour-skip')).click();
    await tour.waitFor({ state: 'hidden' });
    log(`  ${size.width}×${size.height}: four steps${taxing ? ' (the taxes first: a tax was asked)' : ''}, a move made beside them, gone for good, back from the help, skipped`);
    await pages.close(label);
  }
}

/**
 * The tour's order and Corporate Shuffle's, from recorded states, in the
 * five languages: a first hand that opens with a tax to pay starts with
 * the taxes; Corporate Shuffle has a tour of its own, its special cards in
 * it; each step on screen whole. The lobby says what the game is, and
 * shows how to play.
 */
async function toursAndLobby() {
  const three = fixture('three');
  const tourOnScreen = async (page, at) => {
    const b = await boxes(page, { tour: tid('tour'), text: tid('tour-text') });
    if (!b.tour || !inside(b.tour, b.vw, b.vh)) fail(`${at}: the tour is not inside the window: ${show(b.tour)} in ${b.vw}×${b.vh}`);
    const cut = await page.locator(tid('tour-text')).evaluate(n => n.scrollHeight > n.clientHeight + 1 || n.scrollWidth > n.clientWidth + 1);
    if (cut) fail(`${at}: the tour's step is cut: "${b.text && b.text.text}"`);
  };
  for (const lang of Object.keys(LOCALES)) {
    const words = catalogue(lang);
    const locale = LOCALES[lang];
    for (const size of [LAPTOP, PHONE, SMALL_PHONE]) {
      const at = `${lang}, ${size.width}×${size.height}`;
      const label = `tour-tax-${lang}-${size.width}`;
      const page = await pages.fixturePage(label, size, three, { hash: atTable(three), http: tableInfo(three), messages: three.screens.tax, tour: true, locale });
      await page.locator(`${tid('decision')}[data-kind="tax"]`).waitFor({ state: 'visible' });
      await settle(page);
      const text = (await page.locator(tid('tour-text')).textContent()).trim();
      if (text !== words['web.tour.taxes']) fail(`${at}: a tax to pay, and the tour opens with "${text}"`);
      if (!(await page.locator(tid('tour')).isVisible())) fail(`${at}: the tour is hidden behind the tax dialog`);
      await tourOnScreen(page, `${at}, a tax to pay`);
      if (lang === 'ja' || lang === 'de') await page.screenshot({ path: path.join(outDir, `${label}.png`) });
      await pages.close(label);
      const cs = `tour-cs-${lang}-${size.width}`;
      const shown = await pages.fixturePage(cs, size, three, { hash: atTable(three), http: tableInfo(three), messages: corporate(three.screens.turn), tour: true, locale });
      await shown.locator(tid('tour')).waitFor({ state: 'visible' });
      await settle(shown);
      const said = [];
      for (;;) {
        said.push((await shown.locator(tid('tour-text')).textContent()).trim());
        await tourOnScreen(shown, `${at}, Corporate Shuffle's step ${said.length}`);
        const next = shown.locator(tid('tour-next'));
        if ((await next.textContent()).trim() === words['web.tour.done']) break;
        if (said.length > 8) fail(`${at}: Corporate Shuffle's tour never ends`);
        await next.click();
      }
      const want = ['web.tour.cs-best', 'web.tour.cs-play', 'web.tour.cs-dogberts', 'web.tour.cs-specials', 'web.tour.cs-taxes'].map(k => words[k]);
      if (JSON.stringify(said) !== JSON.stringify(want)) fail(`${at}: Corporate Shuffle's tour says ${JSON.stringify(said)}`);
      await pages.close(cs);
    }
    const page = await pages.page('about', { size: SMALL_PHONE, locale });
    await page.goto(pages.base + '/#/');
    await page.waitForFunction(l => document.documentElement.lang === l, lang);
    const about = page.locator(tid('about'));
    await about.waitFor();
    // What a newcomer presses first is on the first screen of a small
    // phone, before any scrolling (the word on the game once pushed it
    // below the fold at 360×640).
    const bots = await page.locator(tid('quick-bots')).boundingBox();
    const screen = page.viewportSize();
    if (!bots || bots.y < 0 || bots.y + bots.height > screen.height || bots.x + bots.width > screen.width) {
      fail(`${lang} at ${screen.width}×${screen.height}: "Play against bots" is not on the first screen (${JSON.stringify(bots)})`);
    }
    const text = (await about.textContent()).replace(/\s+/g, ' ');
    if (!text.includes(words['web.about.text'])) fail(`${lang}: the lobby's word on the game reads "${text}"`);
    await page.locator(tid('about-help')).click();
    await page.locator('#help').waitFor({ state: 'visible' });
    await pages.close('about');
  }
  log('  five languages at 1366×768, 390×844 and 360×640: a tax first, the taxes first; Corporate Shuffle\'s five steps; the lobby says what the game is, Play against bots on a small phone\'s first screen');
}

/**
 * A recorded state as Corporate Shuffle, every card of the game in the
 * hand (each card's name on its card, in every language).
 */
function corporate(messages) {
  const copy = JSON.parse(JSON.stringify(messages));
  for (const m of copy) {
    if (!m.d || !m.d.rules) continue;
    m.d.rules.variant = 'corporate-shuffle';
    if (m.d.view) {
      m.d.view.variant = 'corporate-shuffle';
      m.d.view.hand = '0 1 2 3 4 5 6 7 8 9 10 T R D D';
    }
    m.d.dealt = null;
  }
  return copy;
}

// ------------------------------------------------------------ the test

async function run() {
  await pages.start(server);
  if (parts.has('dock')) {
    await step('a hand of two rows or more: Play and Pass on screen at 1366×768, 390×844 and 360×640', dockOnScreen);
    await step('a tie at the top of the standings, said', tieSaid);
  }
  if (parts.has('replay')) await step('the replay\'s seats on screen at 1366, 1000, 390 and 360 px', replayOnScreen);
  if (parts.has('phone')) await step('phones (390×844, 360×640) at 3 to 8 seats, the tour open: every seat above the hand sheet, no word cut', phoneSeats);
  if (parts.has('moments')) await step('a game on a laptop and two phones: banners, the board, nothing moving while a hand is played', moments);
  if (parts.has('words')) await step('Japanese and Korean on phones (390×844, 360×640): no word broken inside', wordsUnbroken);
  if (parts.has('languages')) await step('five languages: the server\'s names in the player\'s words, nothing cut or spilling', fiveLanguages);
  if (parts.has('online')) await step('back online: reconnected within a second', backOnline);
  if (parts.has('away')) await step('back from away: told what the stand-in bot played', backFromAway);
  if (parts.has('names')) await step('the bots\' names in the player\'s language', namesInLanguage);
  if (parts.has('tour')) {
    await step('a newcomer\'s first-hand tour', firstHandTour);
    await step('the tour\'s order at a tax, Corporate Shuffle\'s tour, the lobby\'s word on the game, in five languages', toursAndLobby);
  }
}

pages.runTest('e2e layout', 'browser layout: dock, replay, phone seats, moments, words, reconnect, away, names, tour', 'layout',
  TOTAL_TIMEOUT_MS, run, server, tmp);
