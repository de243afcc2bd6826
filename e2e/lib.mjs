// What the browser end-to-end tests (play.mjs, friends.mjs) share: the
// server under test, Chromium's flags, page helpers that play the client
// by clicking, and the closing line .ci/run counts.
//
// Environment: DALMUTI_BIN (default target/release/dalmuti), CHROMIUM
// (default /usr/bin/chromium), E2E_WEB_DIR (while editing the client:
// serve crates/dalmuti-server/web/** and the catalogues from disk instead
// of the files built into the binary, so no rebuild is needed between runs).

import { spawn } from 'node:child_process';
import os from 'node:os';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '..');
export const outDir = path.join(here, 'out');
export const bin = process.env.DALMUTI_BIN || path.join(root, 'target', 'release', 'dalmuti');
export const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';

/** Chromium's flags: headless, no sandbox (CI runs as root), nothing fetched. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
// A page served by the test itself (E2E_WEB_DIR) counts as a public one,
// which may not open a WebSocket to 127.0.0.1 unless this check is off.
if (process.env.E2E_WEB_DIR) CHROMIUM_ARGS.push('--disable-features=LocalNetworkAccessChecks');

let prefix = '[e2e]';

/** Sets the tag in front of every line (`[e2e]`, `[e2e friends]`). */
export function setLogPrefix(p) {
  prefix = p;
}

export function log(...args) {
  console.log(prefix, ...args);
}

export class TestFailure extends Error {}

export function fail(message) {
  throw new TestFailure(message);
}

export const tid = id => `[data-testid="${id}"]`;

export const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

// ------------------------------------------------------------ the server

/**
 * `dalmuti serve` on a free port with a fresh database in `dir`; `args`
 * are more options (`--bot-delay`, `--hand-pause`, `--grace`); `addr`
 * another address to listen at (a port of its own: started again after a
 * stop, the server is where the page left it).
 */
export class Server {
  constructor(dir, args, addr = '127.0.0.1:0') {
    this.dir = dir;
    this.args = args;
    this.addr = addr;
    this.proc = null;
    this.lines = [];
  }

  /** Starts it; resolves to its base URL (http://127.0.0.1:PORT). */
  start() {
    if (!existsSync(bin)) fail(`no server binary at ${bin}: run cargo build --release -p dalmuti`);
    return new Promise((resolve, reject) => {
      const args = ['serve', '--addr', this.addr, '--data', path.join(this.dir, 'db.sqlite'), ...this.args];
      const proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      this.proc = proc;
      let buffer = '';
      const timer = setTimeout(() => reject(new TestFailure('the server did not say where it listens within 20 s')), 20_000);
      const onData = chunk => {
        const text = chunk.toString();
        this.push(text);
        buffer += text;
        const m = buffer.match(/open (http:\/\/[^/\s]+)\//);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      };
      proc.stderr.on('data', onData);
      proc.stdout.on('data', chunk => { this.push(chunk.toString()); });
      proc.on('exit', (code, signal) => {
        clearTimeout(timer);
        this.push(`\n[server exited: code ${code}, signal ${signal}]\n`);
        reject(new TestFailure(`the server exited (code ${code}, signal ${signal}) before listening`));
      });
    });
  }

  push(text) {
    this.lines.push(text);
    if (this.lines.length > 400) this.lines = this.lines.slice(-300);
  }

  running() {
    return !!(this.proc && this.proc.exitCode == null && this.proc.signalCode == null);
  }

  async stop() {
    if (!this.running()) return;
    const proc = this.proc;
    const exited = new Promise(resolve => proc.once('exit', resolve));
    proc.kill('SIGTERM');
    const timeout = new Promise(resolve => setTimeout(() => resolve('timeout'), 5000));
    if ((await Promise.race([exited, timeout])) === 'timeout') {
      proc.kill('SIGKILL');
      await exited;
    }
  }

  /** Its last lines of output. */
  tail(n = 40) {
    return this.lines.join('').split('\n').slice(-n).join('\n');
  }
}

/** Content types of the client's files, by extension (as the server's web.rs). */
const WEB_TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png',
  '.jpg': 'image/jpeg', '.webp': 'image/webp', '.ico': 'image/x-icon', '.woff2': 'font/woff2', '.woff': 'font/woff',
  '.mp3': 'audio/mpeg', '.ogg': 'audio/ogg', '.wav': 'audio/wav',
};
const LANGS = ['en', 'ko', 'de', 'es', 'ja'];
const localesDir = path.join(root, 'crates', 'dalmuti-i18n', 'locales');

/** What the server's GET /i18n/<lang>.json answers, from the catalogue files on disk. */
function messagesFromDisk(lang) {
  const read = part => JSON.parse(readFileSync(path.join(localesDir, `${lang}.${part}.json`), 'utf8'));
  return JSON.stringify(Object.assign(read('game'), read('web')));
}

/**
 * A browser context's `serviceWorkers` option. The client's service worker
 * (web/sw.js) fetches its files itself, past `context.route`: with
 * E2E_WEB_DIR (the files served by routes, below) the contexts block it,
 * so the files on disk are what the page runs; otherwise the tests run the
 * client as players get it, service worker included.
 */
export const SERVICE_WORKERS = process.env.E2E_WEB_DIR ? 'block' : 'allow';

/**
 * With E2E_WEB_DIR set, the context gets the client's files from that
 * directory instead of the server (for editing the client without a
 * rebuild): any file under it, `/` as index.html, and `/i18n/<lang>.json`
 * from the catalogue files (crates/dalmuti-i18n/locales). Without it,
 * nothing changes. The context must have been made with `serviceWorkers:
 * SERVICE_WORKERS`.
 */
export async function maybeServeWebFromDisk(context) {
  const dir = process.env.E2E_WEB_DIR;
  if (!dir) return;
  const base = path.resolve(dir);
  const fileOf = pathname => {
    const file = path.resolve(base, '.' + decodeURIComponent(pathname === '/' ? '/index.html' : pathname));
    return file.startsWith(base + path.sep) && existsSync(file) && statSync(file).isFile() ? file : null;
  };
  const i18n = pathname => {
    const m = pathname.match(/^\/i18n\/([a-z]+)\.json$/);
    return m && LANGS.includes(m[1]) ? m[1] : null;
  };
  await context.route(url => url.protocol === 'http:' && (i18n(url.pathname) || fileOf(url.pathname)), route => {
    const p = new URL(route.request().url()).pathname;
    const lang = i18n(p);
    if (lang) {
      route.fulfill({ status: 200, contentType: 'application/json', body: messagesFromDisk(lang) });
      return;
    }
    const file = fileOf(p);
    route.fulfill({ status: 200, contentType: WEB_TYPES[path.extname(file)] || 'application/octet-stream', body: readFileSync(file) });
  });
}

// ------------------------------------------------------------ page helpers

export async function clientV(page) {
  return page.evaluate(() => (window.dalmutiClient ? window.dalmutiClient.table.v : -1));
}

/**
 * Waits until the player has something to do in hand `hand`, or the hand
 * is over. Returns 'over', 'lead', 'follow', or a dialog kind
 * ('ready' for a player dealt both Jesters, 'tax', 'exchange_offer',
 * 'answer_exchange', 'exchange_answer', 'place'; 'wedgie' and 'declare',
 * a Corporate Shuffle play's question).
 */
export async function nextThing(page, hand, timeout = 60_000) {
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
export async function actAndWait(page, click) {
  const before = await clientV(page);
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

const shotDialogs = new Set();

/**
 * After Play, a Corporate Shuffle play may ask more in a dialog: whom the
 * Twirling Wedgie makes pass, or what Dogberts alone are played as. Picks
 * the first choice (which sends the play); returns it in words, or '' when
 * no dialog opened.
 */
export async function answerPlayDialog(page) {
  const box = page.locator(tid('decision'));
  if (!(await box.isVisible())) return '';
  const kind = await box.getAttribute('data-kind');
  if ((kind === 'wedgie' || kind === 'declare') && !shotDialogs.has(kind)) {
    // The first of each kind, to see how it looks (e2e/out/).
    shotDialogs.add(kind);
    mkdirSync(outDir, { recursive: true });
    await page.screenshot({ path: path.join(outDir, `dialog-${kind}.png`) });
  }
  if (kind === 'wedgie') {
    const target = page.locator(tid('wedgie-target')).first();
    const label = (await target.textContent()).trim();
    await target.click();
    return ` (Twirling Wedgie dialog: ${label} must pass)`;
  }
  if (kind === 'declare') {
    const value = page.locator(tid('declare-value')).first();
    const label = (await value.textContent()).trim();
    await value.click();
    return ` (Dogbert dialog: played ${label})`;
  }
  return '';
}

/**
 * Plays the worst playable set, or passes; returns what it did in words.
 * `prefer` lists groups to try first (Corporate Shuffle's `T` and `D`, to
 * see their dialogs).
 */
/**
 * The client offers exactly the legal plays (issue 26): every choice the
 * hand can hold (a rank and how many of it, the Twirling Wedgie, wild
 * cards) is tried in the page's own model of the choice, and the plays
 * Play would send for them must be STATE's `legal` plays, all of them and
 * nothing else. Run at each lead and follow of whole games.
 */
export async function checkOffersLegal(page) {
  const { offered, legal } = await page.evaluate(async () => {
    const { T, handGroups, countOf, noSelection } = await import('/js/state.js');
    const { selectedPlays } = await import('/js/hand.js');
    const { V } = await import('/js/words.js');
    const saved = T.sel;
    const wild = V().wild;
    const ranks = handGroups().map(g => g.rank).filter(r => r !== wild && r !== 'T');
    const choices = [{ rank: null, n: 0 }];
    for (const rank of ranks) for (let n = 1; n <= countOf(rank); n++) choices.push({ rank, n });
    const sent = new Set();
    for (const c of choices) {
      for (let t = 0; t <= Math.min(1, countOf('T')); t++) {
        for (let j = 0; j <= countOf(wild); j++) {
          T.sel = { ...noSelection(), rank: c.rank, n: c.n, t, j };
          for (const a of selectedPlays()) sent.add(JSON.stringify(a));
        }
      }
    }
    T.sel = saved;
    const plays = (T.state.legal || []).filter(a => typeof a === 'object' && a.play != null);
    return { offered: [...sent].sort(), legal: [...new Set(plays.map(a => JSON.stringify(a)))].sort() };
  });
  const missing = legal.filter(a => !offered.includes(a));
  const extra = offered.filter(a => !legal.includes(a));
  if (missing.length || extra.length) {
    fail(`the hand offers other plays than the legal ones: not offered ${missing.join(', ') || 'none'}; ` +
      `offered but not legal ${extra.join(', ') || 'none'}`);
  }
  return legal.length;
}

export async function playSet(page, { prefer = [] } = {}) {
  await checkOffersLegal(page);
  const groups = page.locator(tid('card-group'));
  const n = await groups.count();
  if (n === 0) fail('my turn, but no cards are shown in the hand');
  const play = page.locator(tid('play'));
  const pass = page.locator(tid('pass'));
  const following = await pass.isEnabled();
  const ranks = [];
  for (let i = 0; i < n; i++) ranks.push(await groups.nth(i).getAttribute('data-rank'));
  // The preferred groups, then the worst rank first (the hand is shown
  // best first, the wild cards last).
  const order = [];
  for (const p of prefer) if (ranks.includes(p)) order.push(ranks.indexOf(p));
  for (let i = n - 1; i >= 0; i--) if (!order.includes(i)) order.push(i);
  for (const i of order) {
    const group = groups.nth(i);
    const rank = ranks[i];
    const wild = rank === 'J' || rank === 'D';
    // Keep the wild cards for later, unless they are wanted.
    if (wild && !following && n > 1 && !prefer.includes(rank)) continue;
    // As a player would, leave the groups the hand marks as unable to
    // top: only choices that may be played are tried.
    if (following && !wild && (await group.getAttribute('data-top')) === 'false') continue;
    await group.click();
    if ((await group.getAttribute('aria-pressed')) !== 'true' && !wild) fail(`clicking the ${rank} group did not choose it`);
    if (await play.isEnabled()) {
      let label = (await play.textContent()).trim();
      await actAndWait(page, async () => {
        await play.click();
        label += await answerPlayDialog(page);
      });
      return label;
    }
    // Not playable: un-choose it (a wild group cycles back to none).
    if (wild) {
      while ((await group.getAttribute('aria-pressed')) === 'true') await group.click();
    } else {
      await group.click();
    }
  }
  if (!following) fail('leading a round, yet no group of the hand made Play enabled');
  await actAndWait(page, () => pass.click());
  return 'Pass';
}

/** Leads with the keyboard only: focus the hand, End, (←), Space, p. */
export async function leadByKeyboard(page) {
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
  await actAndWait(page, () => page.keyboard.press('p'));
  return label + ' (by keyboard)';
}

/** Whether the decision box is still showing a dialog of `kind`. */
async function dialogOpen(page, kind) {
  return page.evaluate(k => {
    const box = document.querySelector('[data-testid="decision"]');
    return !!box && !box.hidden && box.dataset.kind === k;
  }, kind);
}

/** Answers a dialog the simplest way; returns what it did in words. */
export async function answerDialog(page, kind) {
  const box = page.locator(tid('decision'));
  switch (kind) {
    case 'ready': {
      // Dealt both Jesters: keeping quiet sends nothing (the table makes
      // everyone ready when the setup pause ends); the dialog just closes.
      // The pause may end between seeing the dialog and clicking (a slow
      // machine): then the dialog closes by itself, which is as good.
      const closed = () => {
        const box = document.querySelector('[data-testid="decision"]');
        return !box || box.hidden || box.dataset.kind !== 'ready';
      };
      const clicked = page.locator(tid('keep-quiet')).click({ timeout: 20_000 })
        .then(() => 'kept quiet (no revolution)', () => 'the setup pause ended first (no revolution)');
      const gone = page.waitForFunction(closed, null, { timeout: 20_000, polling: 50 })
        .then(() => 'the setup pause ended first (no revolution)', () => null);
      const said = await Promise.race([clicked, gone]);
      await page.waitForFunction(closed, null, { timeout: 20_000, polling: 50 });
      return said;
    }
    case 'tax': {
      // A bot may call a revolution while we choose: then the taxes are
      // off and the dialog closes under us (as the rules say), which is
      // no failure; the caller sees the next decision.
      const withdrawn = 'the tax dialog closed (a revolution was called)';
      const count = Number(await box.getAttribute('data-count')) || 1;
      const cards = page.locator(tid('tax-card'));
      const n = await cards.count();
      // The worst cards; after a refused gift (stale, resync) the client
      // keeps the cards chosen: click only the others.
      let chosen = await page.locator(`${tid('tax-card')}[aria-pressed="true"]`).count();
      try {
        for (let i = n - 1; i >= 0 && chosen < count; i--) {
          if (!(await dialogOpen(page, 'tax'))) return withdrawn;
          if ((await cards.nth(i).getAttribute('aria-pressed', { timeout: 5_000 })) === 'true') continue;
          await cards.nth(i).click({ timeout: 5_000 });
          chosen++;
        }
      } catch (e) {
        if (!(await dialogOpen(page, 'tax'))) return withdrawn;
        throw e;
      }
      if (!(await dialogOpen(page, 'tax'))) return withdrawn;
      const give = page.locator(tid('give-tax'));
      if (!(await give.isEnabled())) {
        if (!(await dialogOpen(page, 'tax'))) return withdrawn;
        fail(`chose ${count} tax cards, yet Give is disabled`);
      }
      const label = (await give.textContent()).trim();
      try {
        await actAndWait(page, () => give.click({ timeout: 5_000 }));
      } catch (e) {
        if (!(await dialogOpen(page, 'tax'))) return withdrawn;
        throw e;
      }
      return label;
    }
    case 'offer_exchange':
    case 'exchange_offer':
      await actAndWait(page, () => page.locator(tid('decline-exchange')).click());
      return 'no exchange';
    case 'answer_exchange':
    case 'exchange_answer':
      await page.locator(tid('answer-card')).first().click();
      await actAndWait(page, () => page.locator(tid('answer-exchange')).click());
      return 'gave a card back';
    case 'place':
      await actAndWait(page, () => page.locator(tid('place-seat')).first().click());
      return 'placed a newcomer';
    case 'wedgie':
    case 'declare': {
      let what = '';
      await actAndWait(page, async () => { what = await answerPlayDialog(page); });
      return 'answered a dialog left open' + what;
    }
    default:
      fail(`an unknown dialog: ${kind}`);
  }
  return '';
}

/** Checks the end-of-hand box: every player, the new titles (`titles`: the first's and the last's). */
export async function checkResult(page, hand, players, titles = ['Greater Dalmuti', 'Greater Peon']) {
  const result = page.locator(`${tid('hand-result')}[data-hand="${hand}"]`);
  await result.waitFor({ state: 'visible', timeout: 15_000 });
  const rows = await result.locator('tbody tr').count();
  if (rows !== players) fail(`the result of hand ${hand} lists ${rows} players, not ${players}`);
  const text = (await result.innerText()).replace(/\s+/g, ' ');
  if (!titles.every(t => text.includes(t))) fail(`the result of hand ${hand} does not show the new titles (${titles.join(', ')}): ${text}`);
  log(`  result of hand ${hand}: ${text.slice(0, 200)}`);
}

/** Waits for hand `hand`'s deal check; fails on a failed one only when `strict`. */
export async function checkFairness(page, hand, strict) {
  const item = page.locator(`${tid('fair-hand')}[data-hand="${hand}"]`);
  try {
    await page.waitForFunction(h => {
      const node = document.querySelector(`[data-testid="fair-hand"][data-hand="${h}"]`);
      return node && /verified|failed|no verifier/.test(node.textContent);
    }, hand, { timeout: 8_000 });
    const text = (await item.textContent()).trim();
    if (/deal verified/.test(text)) log(`  ${text}`);
    else if (strict) fail(`hand ${hand}: the deal is not shown as verified: ${text}`);
    else log(`  warning: ${text}`);
  } catch (e) {
    if (e instanceof TestFailure) throw e;
    const text = (await item.count()) ? (await item.textContent()).trim() : 'no fairness line';
    if (strict) fail(`hand ${hand}: no verification shown (${text})`);
    log(`  warning: hand ${hand}: no verification shown (${text})`);
  }
}

// ------------------------------------------------------------ the closing line

/** The line .ci/run counts with the Rust tests' `test result:` lines. */
export function resultLine(ok, what) {
  return ok
    ? `test result: ok. 1 passed; 0 failed; (${what})`
    : `test result: FAILED. 0 passed; 1 failed; (${what})`;
}

/**
 * Whatever ends this process, `server` goes with it: `cleanup` runs on
 * SIGINT, SIGHUP and SIGTERM, and a server still running at exit is killed.
 * Output piped into a reader that went away (| head) must not stop it.
 */
export function guardProcess(server, cleanup) {
  process.on('exit', () => {
    if (server.running()) server.proc.kill('SIGKILL');
  });
  process.stdout.on('error', () => {});
  process.stderr.on('error', () => {});
  for (const [signal, code] of [['SIGINT', 130], ['SIGHUP', 129], ['SIGTERM', 143]]) {
    process.on(signal, () => { cleanup().finally(() => process.exit(code)); });
  }
}

/**
 * Says why a test failed and leaves what helps to see why: a screenshot of
 * each page (`e2e/out/<file>-<label>.png`), the pages' errors and the
 * server's last lines.
 */
export async function reportFailure(tag, file, { step, error, pages, pageErrors, consoleErrors, server }) {
  const why = error instanceof TestFailure ? error.message : (error && error.stack) || error;
  console.error(`\n[${tag}] FAILED at step "${step}": ${why}`);
  mkdirSync(outDir, { recursive: true });
  for (const [label, page] of Object.entries(pages)) {
    if (!page) continue;
    const shot = path.join(outDir, `${file}-${label}.png`);
    try {
      await page.screenshot({ path: shot, fullPage: true });
      console.error(`[${tag}] screenshot: ${path.relative(process.cwd(), shot)} (${page.url()})`);
    } catch (err) {
      console.error(`[${tag}] no screenshot of ${label}:`, err.message);
    }
  }
  if (pageErrors.length) console.error(`[${tag}] page errors:\n` + pageErrors.join('\n'));
  if (consoleErrors.length) console.error(`[${tag}] console errors:\n` + consoleErrors.slice(-20).join('\n'));
  console.error(`[${tag}] server output (last lines):\n` + server.tail(40));
}

/**
 * How much longer than on a quiet machine a whole test may take: the
 * whole-test limit stops a test that hangs, it does not measure speed
 * (each step's waits have their own limits). A file's limit is about
 * 1.6 times what it takes on a quiet two-core machine, and a loaded one
 * (a CI run beside two busy loops) took layout.mjs past it; so the limit
 * grows with the load on the machine when the test starts (the last
 * minute's load per core, at least 1), and by half again.
 */
export function timeScale(loadPerCore = os.loadavg()[0] / Math.max(1, os.cpus().length)) {
  return 1.5 * Math.max(1, loadPerCore);
}

/**
 * Runs a test to its end: `run()` within `timeoutMs` (as on a quiet
 * machine; scaled by `timeScale()`), then one result line (counted by
 * .ci/run with the Rust tests' lines) or the failure report; `cleanup()`
 * always; the process exits 0 or 1. `t` gives the live parts: `pages()`,
 * `pageErrors`, `consoleErrors`, `server`, `passed()`.
 */
export async function runTest(tag, name, file, timeoutMs, run, cleanup, t) {
  const limitMs = Math.round(timeoutMs * timeScale());
  const timer = setTimeout(() => {
    console.error(`[${tag}] FAILED: the test took more than ${Math.round(limitMs / 1000)} s (at step: ${currentStep})`);
    cleanup().finally(() => process.exit(1));
  }, limitMs);
  let code = 0;
  try {
    await run();
    if (t.passed) t.passed();
    log('PASSED');
    console.log(resultLine(true, name));
  } catch (e) {
    code = 1;
    console.log(resultLine(false, name));
    await reportFailure(tag, file, { step: currentStep, error: e, pages: t.pages(), pageErrors: t.pageErrors, consoleErrors: t.consoleErrors, server: t.server });
  } finally {
    clearTimeout(timer);
    await cleanup();
  }
  process.exit(code);
}

/**
 * The end of a test, run once however it ends: the browser closed
 * (`closeBrowser`), the server stopped, the temporary folder removed.
 */
export function cleaner(closeBrowser, server, tmp) {
  let cleaned = false;
  return async () => {
    if (cleaned) return;
    cleaned = true;
    try { await closeBrowser(); } catch (_) { /* already gone */ }
    await server.stop();
    try { rmSync(tmp, { recursive: true, force: true }); } catch (_) { /* leave it */ }
  };
}

let currentStep = 'setup';

/** The step a test is at, for its failure report. */
export function stepName() {
  return currentStep;
}

/** Runs one named step of a test, logging its name and how long it took. */
export async function step(name, fn) {
  currentStep = name;
  const t0 = Date.now();
  log('step:', name);
  const result = await fn();
  log('  ok (' + (Date.now() - t0) + ' ms)');
  return result;
}

/** Fails unless each element is drawn wholly inside the window (no scrolling needed to press it). */
export async function onScreen(page, what, selectors) {
  const out = await page.evaluate(sels => sels.map(sel => {
    const node = document.querySelector(sel);
    if (!node) return `${sel}: missing`;
    const r = node.getBoundingClientRect();
    if (!r.width || !r.height) return `${sel}: not drawn`;
    if (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) {
      return `${sel}: at ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)} in ${innerWidth}×${innerHeight}`;
    }
    return null;
  }), selectors);
  const bad = out.filter(Boolean);
  if (bad.length) fail(`${what}: not on screen: ${bad.join('; ')}`);
}

/** Text on the page that is a catalogue key rather than words (an untranslated key). */
export async function untranslated(page) {
  return page.evaluate(() => {
    const text = document.body.innerText;
    return [...new Set(text.match(/\b(web|daifugo|president|dalmuti|corporate-shuffle)\.[a-z-]+(\.[a-z0-9-]+)*\b/g) || [])];
  });
}
