// End-to-end test of failover in a cluster: three `dalmuti serve` nodes
// on one PostgreSQL behind nginx (deploy/nginx.conf), the browser client in
// headless Chromium reaching them through the load balancer only.
//
//     bash deploy/test-local.sh      # starts the cluster, then runs this
//
// deploy/test-local.sh starts everything and tells this test where through
// the environment: DEPLOY_LB (the load balancer's base URL), DEPLOY_WORK
// (its folder: node-N.pid and the logs), DEPLOY_LEASE_SECONDS and
// DALMUTI_TEST_DATABASE_URL (the database, to read who holds a table's lease
// with psql).
//
// A player creates a table from the lobby form, adds bots and starts by
// clicking (the API calls redirected to the node serving the table, 307,
// followed by the browser), then plays by clicking. In the middle of hand 1
// the node serving the table is killed (SIGKILL) and the host at once lets
// spectators chat (an API call that meets the dead node's address until
// its lease expires, and is retried): the page must try the address a
// `moved` names, fall back to the load balancer's and come back by itself
// once another node takes the table over (within the lease and a few
// seconds), as the same player, the setting applied, and the hand goes on
// to its end. In hand 2 the new owner is stopped (SIGTERM: it hands its
// tables over): the page must reconnect through the load balancer at once.
// Throughout, the page's event number never goes back, and at the end
// every play the page saw is in the game's record, in order, and the
// record checks (`dalmuti check`). The closing line is counted by .ci/run;
// the times the page took to come back are printed (`figures:`).
//
// Environment as in e2e/lib.mjs (DALMUTI_BIN, CHROMIUM, E2E_WEB_DIR).

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import * as lib from './lib.mjs';
import { log, fail, tid, chromiumPath, CHROMIUM_ARGS, guardProcess } from './lib.mjs';

lib.setLogPrefix('[e2e cluster]');

const TOTAL_TIMEOUT_MS = 300_000;
const lb = process.env.DEPLOY_LB;
const work = process.env.DEPLOY_WORK;
const lease = Number(process.env.DEPLOY_LEASE_SECONDS || 10);
const dbUrl = process.env.DALMUTI_TEST_DATABASE_URL;
/** How long the page may take to come back after its node stops: a lease, then a few seconds. */
const BACK_WITHIN_MS = (lease + 8) * 1000;

/** Every WebSocket the page opened: when, and to which node's address ('any': the load balancer's `/ws/`). */
const sockets = [];
const socketsSince = t0 => sockets.filter(x => x.at >= t0).map(x => x.node);

const tmp = mkdtempSync(path.join(tmpdir(), 'dalmuti-e2e-cluster-'));
let browser = null;
let page = null;
const pageErrors = [];
const consoleErrors = [];
const step = lib.step;

/** The nodes' and nginx's last lines, for a failure report (lib.reportFailure's `server`). */
const cluster = {
  running: () => false,
  tail(n = 15) {
    if (!work) return '(no DEPLOY_WORK)';
    const files = readdirSync(work).filter(f => f.endsWith('.log')).map(f => path.join(work, f));
    files.push(path.join(work, 'nginx', 'error.log'));
    return files.filter(existsSync).map(f => `--- ${path.basename(f)}\n` +
      readFileSync(f, 'utf8').split('\n').slice(-n).join('\n')).join('\n');
  },
};

// ------------------------------------------------------------ the cluster

function pidOf(node) {
  return Number(readFileSync(path.join(work, `${node}.pid`), 'utf8').trim());
}

/** Whether a node's process is still running (a zombie waiting for its parent is not). */
function alive(node) {
  try {
    const stat = readFileSync(`/proc/${pidOf(node)}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch (_) {
    return false;
  }
}

const psqlBin = (() => {
  const dirs = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql') : [];
  for (const d of dirs.sort().reverse()) {
    const p = `/usr/lib/postgresql/${d}/bin/psql`;
    if (existsSync(p)) return p;
  }
  return 'psql';
})();

/** Who holds table `id`'s lease, read in the database (no request that could make a node take it). */
function leaseOf(id) {
  // psql puts :'id' in as a quoted literal when it reads the query from stdin.
  const out = execFileSync(psqlBin, [dbUrl, '-qAtX', '-F', ' ', '-v', `id=${id}`], {
    encoding: 'utf8', input: "SELECT node, expires > now() FROM leases WHERE table_id = :'id';\n",
  }).trim();
  if (!out) return null;
  const [node, live] = out.split(' ');
  return { node, live: live === 't' };
}

/** Waits until a live lease on `id` is held by a running node other than `not`; returns that node. */
async function newOwner(id, not, timeout) {
  const until = Date.now() + timeout;
  for (;;) {
    const l = leaseOf(id);
    if (l && l.live && l.node !== not && alive(l.node)) return l.node;
    if (Date.now() > until) fail(`no running node took table ${id} over within ${timeout} ms (lease: ${JSON.stringify(l)})`);
    await lib.sleep(100);
  }
}

// ------------------------------------------------------------ the page

/** Watches the page: its event number (it must never go back) and each hand's log as seen. */
function installWatch() {
  return page.evaluate(() => {
    const w = { maxV: 0, back: [], hands: {} };
    window.__watch = w;
    const look = () => {
      const T = window.dalmutiClient && window.dalmutiClient.table;
      if (!T) return;
      if (T.v < w.maxV) w.back.push(`${w.maxV} → ${T.v}`);
      w.maxV = Math.max(w.maxV, T.v);
      const s = T.state;
      if (s && s.hand && s.view && Array.isArray(s.view.log)) {
        const seen = w.hands[s.hand];
        if (!seen || s.view.log.length >= seen.length) w.hands[s.hand] = s.view.log;
      }
    };
    setInterval(look, 5);
  });
}

const watch = () => page.evaluate(() => window.__watch);

/** Whether the page shows a live table now, as Ada, at hand `hand` or later. */
async function liveAsAda() {
  return page.evaluate(() => {
    const conn = document.querySelector('[data-testid="conn"]');
    const status = document.querySelector('[data-testid="table-status"]');
    const T = window.dalmutiClient.table;
    return !!(conn && conn.dataset.state === 'up' && T.ws && T.ws.readyState === 1 &&
      status && /you are Ada/.test(status.textContent));
  });
}

/** The node a WebSocket address leads to through the load balancer (`/n/node-N/ws/…`), or 'any' (`/ws/…`). */
function nodeOfSocket(url) {
  const m = /\/n\/(node-\d+)\/ws\//.exec(url || '');
  return m ? m[1] : 'any';
}

/**
 * After `node` was stopped at `t0`: waits for the page to be live again on
 * a socket to another node, as Ada, and for its event number to be at
 * least `v0`. Returns how long it took (ms) and the node now serving.
 */
async function waitBack(id, node, t0, v0, how) {
  const owner = await newOwner(id, node, BACK_WITHIN_MS);
  await page.waitForFunction(([n, v]) => {
    const T = window.dalmutiClient.table;
    const conn = document.querySelector('[data-testid="conn"]');
    const status = document.querySelector('[data-testid="table-status"]');
    return T.ws && T.ws.readyState === 1 && !T.ws.url.includes(`/n/${n}/`) && T.v >= v &&
      conn && conn.dataset.state === 'up' && status && /you are Ada/.test(status.textContent);
  }, [node, v0], { timeout: Math.max(1000, BACK_WITHIN_MS - (Date.now() - t0)), polling: 20 });
  const ms = Date.now() - t0;
  const url = await page.evaluate(() => window.dalmutiClient.table.ws.url);
  log(`  after the ${how} of ${node}: the page was back in ${ms} ms, its socket ${url}; ${owner} serves the table`);
  const on = nodeOfSocket(url);
  if (on !== 'any' && on !== owner) fail(`the page's socket leads to ${on}, but ${owner} holds the table's lease`);
  return { ms, owner };
}

/** Plays hand `hand` by clicking; `after(moves)` runs after each of our moves (false: stop early). */
async function playHand(hand, after = async () => true) {
  let moves = 0;
  for (;;) {
    const thing = await lib.nextThing(page, hand, 60_000);
    if (thing === 'over') return moves;
    const what = thing === 'lead' || thing === 'follow' ? await lib.playSet(page) : await lib.answerDialog(page, thing);
    moves++;
    log(`  hand ${hand}, move ${moves} (${thing}): ${what}`);
    if (moves > 200) fail('more than 200 moves in one hand');
    if (!(await after(moves))) return moves;
  }
}

/** A play or pass as the record writes it, its cards sorted: `6 6 J`, `pass`. */
function norm(text) {
  return text.trim() === 'pass' ? 'pass' : text.trim().split(/\s+/).sort().join(' ');
}

async function run() {
  if (!lb || !work || !dbUrl) {
    fail('run through deploy/test-local.sh, which starts the cluster (DEPLOY_LB, DEPLOY_WORK and DALMUTI_TEST_DATABASE_URL are not set)');
  }
  await step('start Chromium', async () => {
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_ARGS });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', serviceWorkers: lib.SERVICE_WORKERS });
    await lib.maybeServeWebFromDisk(context);
    page = await context.newPage();
    page.on('pageerror', e => pageErrors.push(String(e && e.stack || e)));
    page.on('console', m => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  });

  const redirects = [];
  const gatewayErrors = [];
  page.on('response', r => {
    const what = `${r.request().method()} ${new URL(r.url()).pathname}`;
    if (r.status() === 307) redirects.push(`${what} → ${r.headers().location}`);
    if (r.status() >= 502 && r.status() <= 504) gatewayErrors.push({ at: Date.now(), what: `${what}: ${r.status()}` });
  });
  page.on('websocket', ws => sockets.push({ at: Date.now(), node: nodeOfSocket(ws.url()) }));

  const id = await step('create a table through the load balancer', async () => {
    await page.goto(lb + '/#/');
    const form = page.locator(tid('create-form'));
    await form.waitFor();
    await form.getByLabel('Table name').fill('Cluster table');
    await form.getByLabel('Your name').fill('Ada');
    await form.getByLabel('Seats (3 to 16)').fill('4');
    await form.getByLabel('Hands (empty: no limit)').fill('2');
    await page.locator(tid('create-submit')).click();
    await page.waitForURL(/#\/t\/[^/]+$/, { timeout: 10_000 });
    const tableId = decodeURIComponent(new URL(page.url()).hash.replace(/^#\/t\//, ''));
    await page.locator(tid('prestart')).waitFor({ state: 'visible' });
    await installWatch();
    const l = leaseOf(tableId);
    if (!l || !l.live) fail(`table ${tableId} has no live lease: ${JSON.stringify(l)}`);
    log(`  table ${tableId}, served by ${l.node}`);
    return tableId;
  });

  await step('add three bots and start by clicking (the calls redirected to the serving node)', async () => {
    for (let i = 0; i < 3; i++) {
      await page.locator(tid('bot-level')).selectOption(i === 2 ? 'normal' : 'easy');
      await page.locator(tid('add-bot')).click();
      await page.waitForFunction(n => {
        const pre = document.querySelector('[data-testid="prestart"]');
        return pre && Number(pre.dataset.taken) >= n;
      }, i + 2, { timeout: 15_000 });
    }
    await page.locator(tid('start')).click();
    await page.locator(tid('dock')).waitFor({ state: 'visible', timeout: 15_000 });
    const err = page.locator(tid('error'));
    if (await err.isVisible()) fail(`an error is shown after the start: ${await err.textContent()}`);
    // nginx takes the nodes in turn: of the four calls (three bots and
    // the start) at least two reached a node that does not serve the table.
    const calls = redirects.filter(r => /\/(bots|start)$/.test(r.split(' ')[1]));
    log(`  ${redirects.length} redirects followed by the browser so far, e.g. ${redirects[0] || 'none'}`);
    if (calls.length < 1) fail(`no call to add a bot or start was redirected: the test did not exercise the 307 (${redirects.join('; ')})`);
    log(`  sockets so far: ${sockets.map(x => x.node).join(', ')}`);
  });

  const figures = {};
  const killed = await step('hand 1: kill the serving node (SIGKILL) in the middle; the page comes back by itself', async () => {
    let victim = null;
    await playHand(1, async moves => {
      if (moves !== 2 || victim) return true;
      const l = leaseOf(id);
      victim = l.node;
      const v0 = (await watch()).maxV;
      log(`  killing ${victim} (pid ${pidOf(victim)}) with SIGKILL at event ${v0}`);
      const t0 = Date.now();
      process.kill(pidOf(victim), 'SIGKILL');
      // The page sees its connection drop...
      await page.waitForFunction(() => {
        const conn = document.querySelector('[data-testid="conn"]');
        return conn && conn.dataset.state !== 'up';
      }, null, { timeout: 5_000, polling: 10 });
      // ...and a call to the API now (the host lets spectators chat) is
      // sent to the dead node until its lease expires: it is retried...
      const box = page.locator(tid('spectator-chat'));
      if (await box.isChecked()) fail('spectator chat is on before the test turned it on');
      await box.click();
      // ...and the page comes back by itself, to the node that took the table over.
      const back = await waitBack(id, victim, t0, v0, 'SIGKILL');
      figures.kill = back.ms;
      const after = socketsSince(t0);
      log(`  sockets since the kill: ${after.join(', ')}`);
      const dead = after.indexOf(victim);
      if (dead < 0) fail(`no socket followed a 'moved' to ${victim}'s address while its lease ran (${after.join(', ')})`);
      if (!after.slice(dead + 1).includes('any')) fail(`after ${victim}'s address failed the page did not go back to the load balancer's (${after.join(', ')})`);
      await page.waitForFunction(() => {
        const b = document.querySelector('[data-testid="spectator-chat"]');
        const s = window.dalmutiClient.table.state;
        return b && !b.disabled && b.checked && s && s.spectator_chat === true;
      }, null, { timeout: BACK_WITHIN_MS, polling: 20 });
      const err = page.locator(tid('error'));
      if (await err.isVisible()) fail(`an error is shown after the failover: ${await err.textContent()}`);
      const retried = gatewayErrors.filter(g => g.at >= t0).map(g => g.what);
      log(`  the settings call went through after ${Date.now() - t0} ms; retried after: ${retried.join(', ') || 'nothing'}`);
      if (!retried.some(w => w.startsWith('POST ') && w.includes(`/n/${victim}/`))) {
        fail(`the settings call did not meet ${victim}'s address while its lease ran: the retry was not exercised`);
      }
      return true;
    });
    if (!victim) fail('hand 1 ended before our second move: nothing was killed');
    await lib.checkResult(page, 1, 4);
    return victim;
  });

  await step('hand 2: stop the new serving node (SIGTERM, a drain); the page follows again', async () => {
    let stopped = null;
    await playHand(2, async moves => {
      if (moves !== 1 || stopped) return true;
      const l = leaseOf(id);
      if (!l || l.node === killed) fail(`the table's lease is still ${JSON.stringify(l)}`);
      stopped = l.node;
      const v0 = (await watch()).maxV;
      log(`  stopping ${stopped} (pid ${pidOf(stopped)}) with SIGTERM at event ${v0}`);
      const t0 = Date.now();
      process.kill(pidOf(stopped), 'SIGTERM');
      const back = await waitBack(id, stopped, t0, v0, 'SIGTERM');
      figures.term = back.ms;
      // `moved` with url null: back through the load balancer's address.
      const after = socketsSince(t0);
      log(`  sockets since SIGTERM: ${after.join(', ')}`);
      if (after[0] !== 'any') fail(`after the drain the page's next socket went to ${after[0]}, not the load balancer's address`);
      for (let i = 0; i < 100 && alive(stopped); i++) await lib.sleep(100);
      if (alive(stopped)) fail(`${stopped} still runs 10 s after SIGTERM`);
      log(`  ${stopped} exited`);
      return true;
    });
    if (!stopped) fail('hand 2 ended before our first move: nothing was stopped');
  });

  await step('the game is over; nothing the page saw was lost, and the record checks', async () => {
    await page.locator(tid('game-over')).waitFor({ state: 'visible', timeout: 30_000 });
    const w = await watch();
    if (w.back.length) fail(`the page's event number went back: ${w.back.join(', ')}`);
    if (!(await liveAsAda()) && !(await page.locator(tid('game-over')).isVisible())) fail('the page is not at the table as Ada');
    const response = await fetch(`${lb}/api/tables/${encodeURIComponent(id)}/record`);
    if (response.status !== 200) fail(`GET the record answered ${response.status}: ${await response.text()}`);
    const text = await response.text();
    const record = JSON.parse(text);
    if (record.hands.length !== 2) fail(`the record has ${record.hands.length} hands, not 2`);
    for (const hand of [1, 2]) {
      const seen = (w.hands[hand] || []).filter(e => e.event === 'played' || e.event === 'passed')
        .map(e => (e.event === 'passed' ? 'pass' : norm(String(e.set))));
      const written = record.hands[hand - 1].plays.map(p => norm(p.slice(p.indexOf(':') + 1)));
      if (seen.length < 4) fail(`the page saw only ${seen.length} plays in hand ${hand}`);
      const lost = seen.findIndex((p, i) => written[i] !== p);
      if (lost >= 0) {
        fail(`hand ${hand}: the page saw play ${lost + 1} as "${seen[lost]}", the record has "${written[lost]}"` +
          `\n  seen:    ${seen.join(' | ')}\n  written: ${written.join(' | ')}`);
      }
      log(`  hand ${hand}: the ${seen.length} plays the page saw are the record's first (of ${written.length})`);
    }
    const file = path.join(tmp, 'record.json');
    writeFileSync(file, text);
    let out;
    try {
      out = execFileSync(lib.bin, ['check', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      fail(`dalmuti check refused the record: ${e.stdout || ''}${e.stderr || ''}`);
    }
    log(`  dalmuti check: ${out.trim().split('\n')[0]}`);
    log(`  sockets the page opened: ${sockets.map(x => x.node).join(', ')}; max event ${w.maxV}`);
    log(`  figures: back ${figures.kill} ms after SIGKILL (lease ${lease} s), ${figures.term} ms after SIGTERM`);
  });

  if (pageErrors.length) fail('the page threw: ' + pageErrors.join('\n'));
}

let cleaned = false;
async function cleanup() {
  if (cleaned) return;
  cleaned = true;
  try { if (browser) await browser.close(); } catch (_) { /* already gone */ }
  try { rmSync(tmp, { recursive: true, force: true }); } catch (_) { /* leave it */ }
}

guardProcess(cluster, cleanup);

lib.runTest('e2e cluster', 'browser failover through a load balancer', 'cluster', TOTAL_TIMEOUT_MS, run, cleanup, {
  pages: () => ({ page }),
  pageErrors,
  consoleErrors,
  server: cluster,
});
