// End-to-end test of the browser client of `dalmuti serve`, in headless
// Chromium (Debian's /usr/bin/chromium, driven by playwright-core).
//
//     cargo build --release -p dalmuti && npm ci --prefix e2e && node e2e/play.mjs
//
// It starts the server on a free port with a fresh database, then, as a
// player would: creates a table from the lobby form, fills it with bots,
// starts, plays a whole hand by clicking cards and Play/Pass (and the
// revolution and tax dialogs when they come), reloads the page in the
// middle of the hand and plays on, checks the end-of-hand result, then
// plays the second (last) hand on a phone-sized screen (360×640) checking
// that the hand and the Play button are on screen, and checks the final
// standings and the replay. It exits 0 on success; on failure it prints
// what failed, takes a screenshot to e2e/out/ and exits 1.
//
// Environment: DALMUTI_BIN (default target/release/dalmuti), CHROMIUM
// (default /usr/bin/chromium), E2E_STRICT_FAIRNESS=1 to fail when a deal
// is not shown as verified.

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const outDir = path.join(here, 'out');
const bin = process.env.DALMUTI_BIN || path.join(root, 'target', 'release', 'dalmuti');
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
const strictFairness = process.env.E2E_STRICT_FAIRNESS === '1';
const TOTAL_TIMEOUT_MS = 300_000;

const tmp = mkdtempSync(path.join(tmpdir(), 'dalmuti-e2e-'));
let server = null;
let serverLog = [];
let context = null;
let page = null;
let currentStep = 'setup';
const pageErrors = [];
let timerSeen = false;
const consoleErrors = [];

function log(...args) {
  console.log('[e2e]', ...args);
}

class TestFailure extends Error {}

function fail(message) {
  throw new TestFailure(message);
}

async function step(name, fn) {
  currentStep = name;
  const t0 = Date.now();
  log('step:', name);
  const result = await fn();
  log('  ok (' + (Date.now() - t0) + ' ms)');
  return result;
}

// ------------------------------------------------------------ the server

function startServer() {
  if (!existsSync(bin)) fail(`no server binary at ${bin}: run cargo build --release -p dalmuti`);
  return new Promise((resolve, reject) => {
    const args = ['serve', '--addr', '127.0.0.1:0', '--data', path.join(tmp, 'db.sqlite'),
      '--bot-delay', '50', '--hand-pause', '500'];
    server = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let buffer = '';
    const timer = setTimeout(() => reject(new TestFailure('the server did not say where it listens within 20 s')), 20_000);
    const onData = chunk => {
      const text = chunk.toString();
      serverLog.push(text);
      if (serverLog.length > 400) serverLog = serverLog.slice(-300);
      buffer += text;
      const m = buffer.match(/open (http:\/\/[^/\s]+)\//);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    server.stderr.on('data', onData);
    server.stdout.on('data', chunk => { serverLog.push(chunk.toString()); });
    server.on('exit', (code, signal) => {
      clearTimeout(timer);
      serverLog.push(`\n[server exited: code ${code}, signal ${signal}]\n`);
      reject(new TestFailure(`the server exited (code ${code}, signal ${signal}) before listening`));
    });
  });
}

async function stopServer() {
  if (!server || server.exitCode != null || server.signalCode != null) return;
  const exited = new Promise(resolve => server.once('exit', resolve));
  server.kill('SIGTERM');
  const timeout = new Promise(resolve => setTimeout(() => resolve('timeout'), 5000));
  if ((await Promise.race([exited, timeout])) === 'timeout') {
    server.kill('SIGKILL');
    await exited;
  }
}

// ------------------------------------------------------------ page helpers

const tid = id => `[data-testid="${id}"]`;

async function clientV() {
  return page.evaluate(() => (window.dalmutiClient ? window.dalmutiClient.table.v : -1));
}

/**
 * Waits until the player has something to do in hand `hand`, or the hand
 * is over. Returns 'over', 'lead', 'follow', or a dialog kind
 * ('revolution', 'tax', 'offer_exchange', 'exchange_offer',
 * 'answer_exchange', 'exchange_answer', 'place').
 */
async function nextThing(hand, timeout = 60_000) {
  const handle = await page.waitForFunction(h => {
    const status = document.querySelector('[data-testid="table-status"]');
    const result = document.querySelector('[data-testid="hand-result"]');
    const statusHand = status ? Number(status.dataset.hand) : 0;
    if (result && !result.hidden && Number(result.dataset.hand) >= h) return 'over';
    if (statusHand > h) return 'over';
    if (statusHand !== h) return null;
    const decision = document.querySelector('[data-testid="decision"]');
    if (decision && !decision.hidden && decision.dataset.pending !== 'true') return decision.dataset.kind;
    const dock = document.querySelector('[data-testid="dock"]');
    if (dock && !dock.hidden && dock.classList.contains('my-turn') && dock.dataset.pending !== 'true') {
      const pass = document.querySelector('[data-testid="pass"]');
      return pass && !pass.disabled ? 'follow' : 'lead';
    }
    return null;
  }, hand, { timeout, polling: 50 });
  return handle.jsonValue();
}

/** Clicks, then waits until the client has seen a new event number (or an error). */
async function actAndWait(click) {
  const before = await clientV();
  await click();
  await page.waitForFunction(v => {
    const c = window.dalmutiClient;
    const err = document.querySelector('[data-testid="error"]');
    return (c && c.table.v > v) || (err && !err.hidden);
  }, before, { timeout: 20_000, polling: 50 });
  const err = page.locator(tid('error'));
  if (await err.isVisible()) {
    const text = await err.textContent();
    log('  the server refused a move:', text, '(the client took the resync and goes on)');
  }
}

async function playSet() {
  const groups = page.locator(tid('card-group'));
  const n = await groups.count();
  if (n === 0) fail('my turn, but no cards are shown in the hand');
  const play = page.locator(tid('play'));
  const pass = page.locator(tid('pass'));
  const following = await pass.isEnabled();
  // Worst rank first (the hand is shown best first, Jesters last).
  const order = [];
  for (let i = n - 1; i >= 0; i--) order.push(i);
  for (const i of order) {
    const group = groups.nth(i);
    const rank = await group.getAttribute('data-rank');
    if (rank === 'J' && !following && n > 1) continue; // keep the Jesters for later
    await group.click();
    if ((await group.getAttribute('aria-pressed')) !== 'true' && rank !== 'J') fail(`clicking the ${rank} group did not choose it`);
    if (await play.isEnabled()) {
      const label = (await play.textContent()).trim();
      await actAndWait(() => play.click());
      return label;
    }
    // Not playable: un-choose it (a Jester group cycles back to none).
    if (rank === 'J') {
      while ((await group.getAttribute('aria-pressed')) === 'true') await group.click();
    } else {
      await group.click();
    }
  }
  if (!following) fail('leading a round, yet no group of the hand made Play enabled');
  await actAndWait(() => pass.click());
  return 'Pass';
}

/** Leads with the keyboard only: focus the hand, End, (←), Space, p. */
async function leadByKeyboard() {
  const groups = page.locator(tid('card-group'));
  const n = await groups.count();
  await groups.first().focus();
  await page.keyboard.press('End');
  let rank = await page.evaluate(() => document.activeElement && document.activeElement.dataset.rank);
  if (rank === 'J' && n > 1) {
    await page.keyboard.press('ArrowLeft');
    rank = await page.evaluate(() => document.activeElement && document.activeElement.dataset.rank);
  }
  if (!rank) fail('the arrow keys did not move the focus among the rank groups');
  await page.keyboard.press('Space');
  const pressed = await page.evaluate(() => document.activeElement && document.activeElement.getAttribute('aria-pressed'));
  if (pressed !== 'true') fail(`Space on the ${rank} group did not choose it (aria-pressed=${pressed})`);
  const play = page.locator(tid('play'));
  if (!(await play.isEnabled())) fail(`leading with the ${rank} group chosen, yet Play is disabled`);
  const label = (await play.textContent()).trim();
  await actAndWait(() => page.keyboard.press('p'));
  return label + ' (by keyboard)';
}

async function answerDialog(kind) {
  const box = page.locator(tid('decision'));
  switch (kind) {
    case 'revolution':
      await actAndWait(() => page.locator(tid('decline-revolution')).click());
      return 'kept quiet (no revolution)';
    case 'tax': {
      const count = Number(await box.getAttribute('data-count')) || 1;
      const cards = page.locator(tid('tax-card'));
      const n = await cards.count();
      for (let i = n - 1; i >= n - count; i--) await cards.nth(i).click();
      const give = page.locator(tid('give-tax'));
      if (!(await give.isEnabled())) fail(`chose ${count} tax cards, yet Give is disabled`);
      const label = (await give.textContent()).trim();
      await actAndWait(() => give.click());
      return label;
    }
    case 'offer_exchange':
    case 'exchange_offer':
      await actAndWait(() => page.locator(tid('decline-exchange')).click());
      return 'no exchange';
    case 'answer_exchange':
    case 'exchange_answer':
      await page.locator(tid('answer-card')).first().click();
      await actAndWait(() => page.locator(tid('answer-exchange')).click());
      return 'gave a card back';
    case 'place':
      await actAndWait(() => page.locator(tid('place-seat')).first().click());
      return 'placed a newcomer';
    default:
      fail(`an unknown dialog: ${kind}`);
  }
  return '';
}

/** Plays hand `hand` to its end; reloads the page after `reloadAfter` of our moves. */
async function playHand(hand, { reloadAfter = null, checkPhone = false, keyboardLead = false } = {}) {
  let moves = 0;
  let keyboardUsed = false;
  let reloaded = false;
  let phoneChecked = false;
  for (;;) {
    const thing = await nextThing(hand);
    if (thing === 'over') break;
    if (!timerSeen && (thing === 'lead' || thing === 'follow')) {
      const timer = page.locator(tid('timer'));
      if (!(await timer.isVisible()) || !/\d+ s left/.test(await timer.textContent())) {
        fail(`a turn timer of 120 s is set, but no countdown is shown on our turn ("${await timer.textContent()}")`);
      }
      timerSeen = true;
    }
    if (checkPhone && !phoneChecked && (thing === 'lead' || thing === 'follow')) {
      await checkOnScreen();
      phoneChecked = true;
    }
    let what;
    if (thing === 'lead' && keyboardLead && !keyboardUsed) {
      what = await leadByKeyboard();
      keyboardUsed = true;
    } else if (thing === 'lead' || thing === 'follow') what = await playSet();
    else what = await answerDialog(thing);
    moves++;
    log(`  hand ${hand}, move ${moves} (${thing}): ${what}`);
    if (reloadAfter != null && !reloaded && moves >= reloadAfter) {
      await reloadInTheMiddle(hand);
      reloaded = true;
    }
    if (moves > 200) fail('more than 200 moves in one hand');
  }
  if (reloadAfter != null && !reloaded) fail(`hand ${hand} ended before our move ${reloadAfter}: no reload was tested`);
  if (checkPhone && !phoneChecked) fail(`hand ${hand} ended before our turn to play: the phone layout was not checked`);
  return moves;
}

async function reloadInTheMiddle(hand) {
  log('  reloading the page in the middle of the hand');
  const groupsBefore = await page.locator(tid('card-group')).count();
  await page.reload();
  await page.waitForFunction(() => {
    const status = document.querySelector('[data-testid="table-status"]');
    return status && /you are /.test(status.textContent) && Number(status.dataset.hand) > 0;
  }, null, { timeout: 15_000 });
  const status = await page.locator(tid('table-status')).textContent();
  if (!/you are Ada/.test(status)) fail(`after the reload the seat was not kept: "${status}"`);
  const handNow = Number(await page.locator(tid('table-status')).getAttribute('data-hand'));
  if (handNow !== hand) fail(`after the reload the table shows hand ${handNow}, not ${hand}`);
  const groupsAfter = await page.locator(tid('card-group')).count();
  log(`  back after the reload: still Ada, hand ${handNow}, ${groupsAfter} rank groups in hand (${groupsBefore} before)`);
  // A dropped connection: the client says so and reconnects by itself.
  await page.evaluate(() => window.dalmutiClient.table.ws.close());
  await page.waitForFunction(() => {
    const conn = document.querySelector('[data-testid="conn"]');
    return conn && conn.dataset.state === 'down';
  }, null, { timeout: 5_000 });
  await page.waitForFunction(() => {
    const conn = document.querySelector('[data-testid="conn"]');
    return conn && conn.dataset.state === 'up';
  }, null, { timeout: 10_000 });
  log('  dropped the WebSocket: the client reconnected by itself');
}

async function checkOnScreen() {
  const vp = page.viewportSize();
  for (const [what, locator] of [
    ['the hand', page.locator(tid('hand'))],
    ['the first card group', page.locator(tid('card-group')).first()],
    ['the Play button', page.locator(tid('play'))],
    ['the Pass button', page.locator(tid('pass'))],
  ]) {
    if (!(await locator.isVisible())) fail(`${what} is not visible at ${vp.width}×${vp.height}`);
    const box = await locator.boundingBox();
    if (!box) fail(`${what} has no box at ${vp.width}×${vp.height}`);
    const inside = box.x >= 0 && box.y >= 0 && box.x + box.width <= vp.width + 0.5 && box.y + box.height <= vp.height + 0.5;
    if (!inside) fail(`${what} is not on screen at ${vp.width}×${vp.height} without scrolling: box ${JSON.stringify(box)}`);
  }
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  if (scrollWidth > vp.width + 1) fail(`the page scrolls sideways at ${vp.width}×${vp.height}: ${scrollWidth}px wide`);
  await page.screenshot({ path: path.join(outDir, `table-${vp.width}x${vp.height}.png`) });
  log(`  the hand, Play and Pass are on screen at ${vp.width}×${vp.height}`);
}

async function checkResult(hand, players) {
  const result = page.locator(`${tid('hand-result')}[data-hand="${hand}"]`);
  await result.waitFor({ state: 'visible', timeout: 15_000 });
  const rows = await result.locator('tbody tr').count();
  if (rows !== players) fail(`the result of hand ${hand} lists ${rows} players, not ${players}`);
  const text = (await result.innerText()).replace(/\s+/g, ' ');
  if (!/Greater Dalmuti/.test(text) || !/Greater Peon/.test(text)) fail(`the result of hand ${hand} does not show the new titles: ${text}`);
  log(`  result of hand ${hand}: ${text.slice(0, 200)}`);
}

async function checkFairness(hand) {
  const item = page.locator(`${tid('fair-hand')}[data-hand="${hand}"]`);
  try {
    await page.waitForFunction(h => {
      const node = document.querySelector(`[data-testid="fair-hand"][data-hand="${h}"]`);
      return node && /verified|failed|no verifier/.test(node.textContent);
    }, hand, { timeout: 8_000 });
    const text = (await item.textContent()).trim();
    if (/deal verified/.test(text)) log(`  ${text}`);
    else if (strictFairness) fail(`hand ${hand}: the deal is not shown as verified: ${text}`);
    else log(`  warning: ${text}`);
  } catch (e) {
    if (e instanceof TestFailure) throw e;
    const text = (await item.count()) ? (await item.textContent()).trim() : 'no fairness line';
    if (strictFairness) fail(`hand ${hand}: no verification shown (${text})`);
    log(`  warning: hand ${hand}: no verification shown (${text})`);
  }
}

// ------------------------------------------------------------ the test

async function run() {
  mkdirSync(outDir, { recursive: true });
  const base = await step('start the server', startServer);
  log('  server at', base);

  await step('start Chromium', async () => {
    if (!existsSync(chromiumPath)) fail(`no browser at ${chromiumPath}: apt-get install -y chromium`);
    context = await chromium.launchPersistentContext(path.join(tmp, 'profile'), {
      executablePath: chromiumPath,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1280, height: 800 },
    });
    context.setDefaultTimeout(15_000);
    page = context.pages()[0] || await context.newPage();
    page.on('pageerror', e => pageErrors.push(String(e && e.stack || e)));
    page.on('console', m => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  });

  const players = 5;
  const tableId = await step('create a table from the lobby form', async () => {
    await page.goto(base + '/#/');
    await page.locator(tid('create-form')).waitFor();
    const form = page.locator(tid('create-form'));
    await form.getByLabel('Table name').fill('E2E table');
    await form.getByLabel('Your name').fill('Ada');
    await form.getByLabel('Seats (3 to 16)').fill(String(players));
    await form.getByLabel('Hands (empty: no limit)').fill('2');
    await form.getByLabel('Scoring').selectOption('standard');
    await form.getByLabel('Turn timer').selectOption('120');
    await page.locator(tid('create-submit')).click();
    await page.waitForURL(/#\/t\/[^/]+$/, { timeout: 10_000 });
    const id = decodeURIComponent(new URL(page.url()).hash.replace(/^#\/t\//, ''));
    await page.locator(tid('prestart')).waitFor({ state: 'visible' });
    const invite = await page.locator(tid('invite-link')).inputValue();
    if (!invite.endsWith('#/t/' + encodeURIComponent(id))) fail(`the invite link "${invite}" does not lead to table ${id}`);
    log('  table', id);
    return id;
  });

  await step('add bots by clicking, then start', async () => {
    const levels = ['random', 'greedy', 'heuristic', 'greedy'];
    for (let i = 0; i < levels.length; i++) {
      await page.locator(tid('bot-level')).selectOption(levels[i]);
      await page.locator(tid('add-bot')).click();
      await page.waitForFunction(n => {
        const pre = document.querySelector('[data-testid="prestart"]');
        return pre && Number(pre.dataset.taken) >= n;
      }, i + 2, { timeout: 10_000 });
    }
    const seated = await page.locator(`${tid('lobby-seats')} li:not(.empty)`).count();
    if (seated !== players) fail(`${seated} seats shown as taken, expected ${players}`);
    await page.screenshot({ path: path.join(outDir, 'prestart-1280x800.png') });
    await page.locator(tid('start')).click();
    await page.locator(tid('hand')).waitFor({ state: 'visible', timeout: 15_000 });
    const seats = await page.locator(tid('seat')).count();
    if (seats !== players) fail(`${seats} seats at the table, expected ${players}`);
  });

  await step('chat: send a line and see it', async () => {
    await page.getByLabel('Message').fill('good luck, bots');
    await page.getByLabel('Message').press('Enter');
    await page.locator(tid('chat')).getByText('Ada: good luck, bots').waitFor({ timeout: 10_000 });
  });

  await step('play hand 1 by clicking, reloading the page in the middle', async () => {
    const moves = await playHand(1, { reloadAfter: 2, keyboardLead: true });
    log(`  hand 1 over after ${moves} of our moves`);
    await page.screenshot({ path: path.join(outDir, 'table-1280x800.png') });
  });

  await step('the end of hand 1 is shown: finishing order and titles', async () => {
    await checkResult(1, players);
    await checkFairness(1);
  });

  await step('on a phone (360×640): hand 2 with the hand and Play on screen, played to the end', async () => {
    await page.setViewportSize({ width: 360, height: 640 });
    await playHand(2, { checkPhone: true });
  });

  await step('the game is over: final standings, replay and record links', async () => {
    const over = page.locator(tid('game-over'));
    await over.waitFor({ state: 'visible', timeout: 20_000 });
    const standings = await over.locator(`${tid('standings')} li`).count();
    if (standings !== players) fail(`the final standings list ${standings} players, not ${players}`);
    const record = await over.locator(tid('record-link')).getAttribute('href');
    if (record !== `/api/tables/${encodeURIComponent(tableId)}/record`) fail(`the record link is ${record}`);
    const response = await page.request.get(base + record);
    if (response.status() !== 200) fail(`GET ${record} answered ${response.status()}`);
    await page.screenshot({ path: path.join(outDir, 'game-over-360x640.png'), fullPage: true });
  });

  await step('the replay steps through the game', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.locator(`${tid('game-over')} ${tid('replay-link')}`).click();
    await page.waitForURL(/#\/replay\//);
    const pos = page.locator(tid('replay-pos'));
    await page.waitForFunction(() => {
      const node = document.querySelector('[data-testid="replay-pos"]');
      return node && /step 1 of \d+/.test(node.textContent);
    }, null, { timeout: 10_000 });
    await page.locator(tid('replay-next')).click();
    if ((await pos.getAttribute('data-step')) !== '1') fail('Next did not move the replay to step 2');
    await page.keyboard.press('End');
    const last = await pos.textContent();
    const m = last.match(/step (\d+) of (\d+)/);
    if (!m || m[1] !== m[2]) fail(`End did not go to the last step: "${last}"`);
    await page.keyboard.press('ArrowLeft');
    const seats = await page.locator(`${tid('replay-seats')} li`).count();
    if (seats !== players) fail(`the replay shows ${seats} seats, not ${players}`);
    const event = (await page.locator(tid('replay-event')).textContent()).trim();
    log(`  ${last}; an event: ${event}`);
    await page.screenshot({ path: path.join(outDir, 'replay-1280x800.png') });
  });

  if (pageErrors.length) fail('the page threw: ' + pageErrors.join('\n'));
}

async function main() {
  const timer = setTimeout(() => {
    console.error(`[e2e] FAILED: the test took more than ${TOTAL_TIMEOUT_MS / 1000} s (at step: ${currentStep})`);
    cleanup().finally(() => process.exit(1));
  }, TOTAL_TIMEOUT_MS);
  let code = 0;
  try {
    await run();
    log('PASSED');
    // Counted by .ci/run with the Rust tests' lines.
    console.log('test result: ok. 1 passed; 0 failed; (browser end-to-end)');
  } catch (e) {
    code = 1;
    console.log('test result: FAILED. 0 passed; 1 failed; (browser end-to-end)');
    console.error(`\n[e2e] FAILED at step "${currentStep}": ${e instanceof TestFailure ? e.message : (e && e.stack) || e}`);
    if (page) {
      const shot = path.join(outDir, 'failure.png');
      try {
        mkdirSync(outDir, { recursive: true });
        await page.screenshot({ path: shot, fullPage: true });
        console.error(`[e2e] screenshot: ${path.relative(process.cwd(), shot)}`);
        console.error(`[e2e] page at ${page.url()}`);
      } catch (err) {
        console.error('[e2e] no screenshot:', err.message);
      }
    }
    if (pageErrors.length) console.error('[e2e] page errors:\n' + pageErrors.join('\n'));
    if (consoleErrors.length) console.error('[e2e] console errors:\n' + consoleErrors.slice(-20).join('\n'));
    console.error('[e2e] server output (last lines):\n' + serverLog.join('').split('\n').slice(-40).join('\n'));
  } finally {
    clearTimeout(timer);
    await cleanup();
  }
  process.exit(code);
}

let cleaned = false;
async function cleanup() {
  if (cleaned) return;
  cleaned = true;
  try { if (context) await context.close(); } catch (_) { /* already gone */ }
  await stopServer();
  try { rmSync(tmp, { recursive: true, force: true }); } catch (_) { /* leave it */ }
}

// Whatever ends this process, the server goes with it.
process.on('exit', () => {
  if (server && server.exitCode == null && server.signalCode == null) server.kill('SIGKILL');
});
// Output piped into a reader that went away (| head) must not stop the cleanup.
process.stdout.on('error', () => {});
process.stderr.on('error', () => {});
process.on('SIGINT', () => { cleanup().finally(() => process.exit(130)); });
process.on('SIGHUP', () => { cleanup().finally(() => process.exit(129)); });
process.on('SIGTERM', () => { cleanup().finally(() => process.exit(143)); });

main();
