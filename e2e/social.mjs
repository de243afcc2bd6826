// End-to-end test of the browser client's social parts, in headless
// Chromium (Debian's /usr/bin/chromium, driven by playwright-core):
//
//     cargo build --release -p dalmuti && npm ci --prefix e2e && node e2e/social.mjs
//
//   - The lobby's one-tap "Play against bots" (a started table of you and
//     four bots) and "Play with friends" (a table waiting, its invite link
//     focused to share).
//   - Focus stays on "Add bot" after each request (Enter, Enter), and goes
//     on from "Start" to the hand, not to the top of the page.
//   - Chat that lasts: Ada says a line, Bo (the chat out of his sight) gets
//     an unread badge and a toast; both reload and the line is still there,
//     Bo's badge too, until the chat is on his screen.
//   - Spectator chat: refused with the server's reason while the host does
//     not allow it; the host ticks "Spectators may chat", the spectator
//     names themselves and chats; a spectator using a seat's name is
//     refused. The news line is worded again when the language changes.
//   - Rematch: at the end of a one-hand game of Ada, Bo and two bots, Ada
//     asks for a rematch; Bo follows with "Join the rematch" into the same
//     seat. The lobby lists the finished game with its date and winner.
//   - The replay: autoplay at 4×, pause, a jump to a round from the list,
//     and the keys (PageDown, k).
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

lib.setLogPrefix('[e2e social]');

const TOTAL_TIMEOUT_MS = 300_000;
const tmp = mkdtempSync(path.join(tmpdir(), 'dalmuti-e2e-social-'));
const server = new Server(tmp, ['--bot-delay', '20', '--hand-pause', '1500', '--setup-pause', '1000',
  '--tables-per-address', '100']);
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
    // A refused chat line closes nothing; a 4xx the test provokes is no client error.
    if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) consoleErrors.push(label + ': ' + m.text());
  });
  pages[label] = page;
  return page;
}

async function api(page, method, url, data, token) {
  const headers = token ? { Authorization: 'Bearer ' + token } : {};
  const response = await page.request.fetch(base + url, { method, data, headers });
  const text = await response.text();
  if (!response.ok()) fail(`${method} ${url} answered ${response.status()}: ${text}`);
  return text ? JSON.parse(text) : null;
}

async function openWithToken(page, id, token, name) {
  if (!page.url().startsWith(base)) await page.goto(base + '/#/');
  await page.evaluate(([id, token, name]) => {
    localStorage.setItem('dalmuti.token.' + id, token);
    localStorage.setItem('dalmuti.name', name);
  }, [id, token, name]);
  await page.goto(base + '/#/t/' + encodeURIComponent(id));
  await waitSeated(page, id);
}

async function waitSeated(page, id) {
  await page.waitForFunction(id => {
    const c = window.dalmutiClient;
    return c && c.table.id === id && c.table.state && c.table.state.table === id && c.table.state.you;
  }, id, { timeout: 15_000 });
}

async function state(page) {
  return page.evaluate(() => window.dalmutiClient.table.state);
}

async function tableIdOf(page) {
  await page.waitForURL(/#\/t\/[^/]+$/, { timeout: 15_000 });
  return decodeURIComponent(new URL(page.url()).hash.replace(/^#\/t\//, ''));
}

/** Waits until the chat holds `text` (on a phone it may sit behind its tab). */
async function waitChat(page, text, timeout = 10_000) {
  await page.locator(tid('chat')).getByText(text, { exact: false }).first().waitFor({ state: 'attached', timeout });
}

/** Brings the chat on screen: its tab on a phone, scrolling on a laptop. */
async function lookAtChat(page) {
  // On a phone a tax or exchange dialog is a sheet over the page's foot,
  // the side's tabs under it: as a player would, answer it first (the
  // deal decides whether Bo has one).
  const sheet = page.locator(`${tid('decision')}:not([hidden])`);
  const kind = (await sheet.count()) && (await sheet.isVisible()) ? await sheet.getAttribute('data-kind') : null;
  if (['tax', 'exchange_offer', 'exchange_answer'].includes(kind)) await lib.answerDialog(page, kind);
  const tab = page.locator(`${tid('side-tab')}[data-tab="chat"]`);
  if (await tab.isVisible()) await tab.click();
  await page.locator(tid('chat')).scrollIntoViewIfNeeded();
}

async function activeId(page) {
  return page.evaluate(() => document.activeElement && document.activeElement.id);
}

async function waitTaken(page, n) {
  await page.waitForFunction(n => {
    const pre = document.querySelector('[data-testid="prestart"]');
    return pre && Number(pre.dataset.taken) >= n;
  }, n, { timeout: 10_000 });
}

/** The unread count the player sees: on the chat's heading, or on its tab on a phone. */
async function unread(page) {
  for (const badge of [page.locator(tid('chat-unread')), page.locator(tid('tab-unread'))]) {
    if (await badge.isVisible()) return Number(await badge.getAttribute('data-count'));
  }
  return 0;
}

/** Waits until an unread badge shows (on the heading or the tab). */
async function waitUnread(page) {
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="chat-unread"], [data-testid="tab-unread"]')]
    .some(b => b.checkVisibility()), null, { timeout: 5_000 });
}

async function playHand(page, who, hand) {
  let moves = 0;
  for (;;) {
    const thing = await nextThing(page, hand, 90_000);
    if (thing === 'over') break;
    if (thing === 'lead' || thing === 'follow') await playSet(page);
    else await answerDialog(page, thing);
    if (++moves > 200) fail(`${who}: more than 200 moves in one hand`);
  }
  return moves;
}

// ------------------------------------------------------------ the test

async function run() {
  mkdirSync(outDir, { recursive: true });
  base = await step('start the server', () => server.start());
  await step('start Chromium', async () => {
    if (!existsSync(chromiumPath)) fail(`no browser at ${chromiumPath}: apt-get install -y chromium`);
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_ARGS });
  });
  const a = await newPage('Ada');

  await step('lobby: "Play against bots" starts a table of Ada and four bots', async () => {
    await a.goto(base + '/#/');
    await a.locator(tid('quick-name')).fill('Ada');
    await a.locator(tid('quick-bots')).click();
    const id = await tableIdOf(a);
    await a.waitForFunction(() => {
      const s = window.dalmutiClient.table.state;
      return s && s.started && s.you === 'Ada' && s.players && s.players.length === 5;
    }, null, { timeout: 20_000 });
    const st = await state(a);
    const bots = st.lobby.filter(x => x.bot).length;
    if (bots !== 4) fail(`the table has ${bots} bots, not 4`);
    log(`  table ${id}: ${st.players.join(', ')}`);
  });

  await step('turn alerts: with the tab hidden, Ada\'s turn comes as a notification naming the table; the tab\'s icon and title show it', async () => {
    await a.context().grantPermissions(['notifications'], { origin: base });
    await a.evaluate(() => {
      // Headless Chromium shows no notification: the page's are kept here.
      window.__notes = [];
      const Real = window.Notification;
      window.Notification = class {
        static get permission() { return Real.permission; }
        static requestPermission() { return Real.requestPermission(); }
        constructor(title, options) { window.__notes.push({ title, tag: options && options.tag }); }
        close() {}
      };
    });
    const box = a.locator(tid('alert-notify'));
    await box.check();
    if (!(await box.isChecked())) fail('the notification box did not stay ticked, the permission granted');
    await a.evaluate(() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    const hand = Number(await a.locator(tid('table-status')).getAttribute('data-hand'));
    let note = null;
    for (let moves = 0; !note; moves++) {
      const thing = await nextThing(a, hand);
      if (thing === 'over') fail(`hand ${hand} ended before a turn of Ada's came while hidden`);
      [note] = await a.evaluate(() => window.__notes);
      if (note) break;
      // A turn that was Ada's before the tab was hidden: played, the next is the test.
      if (moves > 3) fail('Ada had turns while hidden but no notification');
      if (thing === 'lead' || thing === 'follow') await playSet(a);
      else await answerDialog(a, thing);
    }
    if (!/^Your turn at Ada.s table/.test(note.title)) fail(`the notification says "${note.title}"`);
    const icon = await a.evaluate(() => document.getElementById('favicon').dataset.state);
    if (icon !== 'turn') fail(`on Ada's turn the tab's icon is "${icon}"`);
    const title = await a.title();
    if (!title.startsWith('▶')) fail(`on Ada's turn the page's title is "${title}"`);
    log(`  notification: "${note.title}"; title "${title}"; icon ${icon}`);
    await a.evaluate(() => {
      delete document.hidden;
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await box.uncheck();
    await a.goto(base + '/#/');
    const idle = await a.evaluate(() => document.getElementById('favicon').dataset.state);
    if (idle !== 'idle') fail(`in the lobby the tab's icon is "${idle}"`);
  });

  const friends = await step('lobby: "Play with friends" makes a table waiting for them, its invite link ready to share', async () => {
    await a.goto(base + '/#/');
    await a.locator(tid('quick-friends')).click();
    const id = await tableIdOf(a);
    await a.locator(tid('prestart')).waitFor({ state: 'visible' });
    await a.waitForFunction(() => ['invite-share', 'invite-copy'].includes(document.activeElement && document.activeElement.id),
      null, { timeout: 5_000 });
    const invite = await a.locator(tid('invite-link')).inputValue();
    if (!invite.endsWith('#/t/' + encodeURIComponent(id))) fail(`the invite link is "${invite}"`);
    log(`  focus on #${await activeId(a)}; ${invite}`);
    return { id, invite };
  });

  const b = await newPage('Bo', { width: 390, height: 844 });
  await step('Bo joins by the invite; Ada adds two bots with the keyboard: focus stays on "Add bot", then Start → the hand', async () => {
    await b.goto(friends.invite);
    await b.locator(tid('join-form')).getByLabel('Your name').fill('Bo');
    await b.locator(tid('join-submit')).click();
    await waitSeated(b, friends.id);
    await waitTaken(a, 2);
    await a.locator(tid('add-bot')).focus();
    for (const n of [3, 4]) {
      await a.keyboard.press('Enter');
      await waitTaken(a, n);
      // The answer and the new STATE are both drawn by now.
      await a.waitForFunction(() => !document.getElementById('add-bot').hasAttribute('aria-disabled'));
      const focused = await activeId(a);
      if (focused !== 'add-bot') fail(`after adding a bot the focus is on "${focused}", not on Add bot`);
    }
    await a.locator(tid('start')).focus();
    await a.keyboard.press('Enter');
    await a.locator(tid('dock')).waitFor({ state: 'visible', timeout: 15_000 });
    await a.waitForFunction(() => {
      const node = document.activeElement;
      return node && node !== document.body && node.closest('#view-table') && !node.closest('[hidden]');
    }, null, { timeout: 5_000 });
    log(`  after Start the focus is on ${await a.evaluate(() => document.activeElement.outerHTML.slice(0, 80))}`);
  });

  await step('chat: Ada says a line; Bo, the chat out of sight, gets a badge and a toast', async () => {
    await b.locator(tid('dock')).waitFor({ state: 'visible', timeout: 15_000 });
    await b.evaluate(() => window.scrollTo(0, 0));
    await a.getByLabel('Message').fill('hello Bo, good luck');
    await a.getByLabel('Message').press('Enter');
    await waitChat(b, 'Ada: hello Bo, good luck');
    await waitUnread(b);
    if ((await unread(b)) !== 1) fail(`Bo's badge counts ${await unread(b)}, not 1`);
    await b.locator(tid('chat-toast')).getByText('Ada: hello Bo, good luck').waitFor({ timeout: 5_000 });
    if ((await unread(a)) !== 0) fail('Ada has an unread badge for her own line');
  });

  await step('chat survives a reload: both reload, the line is still there, Bo\'s badge too until he looks', async () => {
    for (const page of [a, b]) {
      await page.reload();
      await waitSeated(page, friends.id);
      await waitChat(page, 'Ada: hello Bo, good luck');
    }
    await b.evaluate(() => window.scrollTo(0, 0));
    await waitUnread(b);
    if ((await unread(b)) !== 1) fail(`after a reload Bo's badge counts ${await unread(b)}, not 1`);
    const lines = await a.locator(`${tid('chat')} li`).allTextContents();
    if (lines.filter(l => l.includes('hello Bo, good luck')).length !== 1) fail(`the line shows ${lines.filter(l => l.includes('hello Bo')).length} times after the reload`);
    // Kept news, worded by the client: the bots took their seats, the game started.
    if (!lines.some(l => /took a seat/.test(l)) || !lines.some(l => /The game starts/.test(l))) fail(`the kept news is missing: ${lines.join(' | ')}`);
    await lookAtChat(b);
    await b.waitForFunction(() => ![...document.querySelectorAll('[data-testid="chat-unread"], [data-testid="tab-unread"]')]
      .some(b => b.checkVisibility()), null, { timeout: 5_000 });
    await b.reload();
    await waitSeated(b, friends.id);
    await waitChat(b, 'Ada: hello Bo, good luck');
    await b.evaluate(() => window.scrollTo(0, 0));
    if ((await unread(b)) !== 0) fail('the line Bo has seen counts as unread again after a reload');
  });

  const c = await newPage('Cy');
  await step('spectator chat: refused with the server\'s reason, then allowed by the host', async () => {
    await c.goto(friends.invite);
    await c.waitForFunction(() => {
      const s = window.dalmutiClient.table.state;
      return s && s.view;
    }, null, { timeout: 15_000 });
    if (!(await c.getByLabel('Message').isDisabled())) fail('the spectator may type while the host does not allow it');
    await c.evaluate(() => window.dalmutiClient.table.ws.send(JSON.stringify({ t: 'chat', d: 'can I?' })));
    await c.locator(tid('error')).getByText('spectators may not chat at this table (the host may allow it)').waitFor({ timeout: 5_000 });
    if (!(await a.locator(tid('spectator-chat')).isVisible())) fail('the host has no "Spectators may chat" toggle');
    if (await b.locator(tid('spectator-chat')).isVisible()) fail('Bo, not the host, has the toggle');
    await a.locator(tid('spectator-chat')).check();
    await waitChat(a, 'Spectators may chat now.');
    await c.getByLabel('Message').waitFor({ state: 'visible' });
    await c.waitForFunction(() => !document.getElementById('chat-input').disabled, null, { timeout: 5_000 });
    await c.locator(tid('chat-name')).fill('Cy');
    await c.getByLabel('Message').fill('hi all, watching');
    await c.getByLabel('Message').press('Enter');
    await waitChat(a, 'Cy: hi all, watching');
    await waitChat(c, 'Cy: hi all, watching');
    const tag = await a.locator(`${tid('chat')} li.from-spectator`).first().textContent();
    if (!/\(watching\)/.test(tag)) fail(`a spectator's line is not marked: "${tag}"`);
    await c.locator(tid('chat-name')).fill('Bo');
    await c.getByLabel('Message').fill('I am Bo');
    await c.getByLabel('Message').press('Enter');
    await c.locator(tid('error')).getByText('is a seat\'s name at this table').waitFor({ timeout: 10_000 });
    log(`  Ada reads: ${(await a.locator(`${tid('chat')} li`).allTextContents()).slice(-3).join(' | ')}`);
  });

  await step('news in the language on screen: German, then English again', async () => {
    await a.locator(tid('lang')).selectOption('de');
    await waitChat(a, 'Zuschauer dürfen jetzt chatten.');
    await waitChat(a, 'Das Spiel beginnt.');
    await a.locator(tid('lang')).selectOption('en');
    await waitChat(a, 'Spectators may chat now.');
  });
  await c.context().close();
  delete pages.Cy;

  const old = await step('rematch: a one-hand game of Ada, Bo and two bots, played to its end', async () => {
    const made = await api(a, 'POST', '/api/tables', {
      name: 'Rematch me', player: 'Ada', seats: 4, hands: 1, public: true, rules: { join_and_leave: false },
    });
    const bo = await api(b, 'POST', `/api/tables/${made.id}/seats`, { name: 'Bo' });
    for (let i = 0; i < 2; i++) await api(a, 'POST', `/api/tables/${made.id}/bots`, { bot: 'random' }, made.token);
    await api(a, 'POST', `/api/tables/${made.id}/start`, undefined, made.token);
    await openWithToken(a, made.id, made.token, 'Ada');
    await openWithToken(b, made.id, bo.token, 'Bo');
    await Promise.all([playHand(a, 'Ada', 1), playHand(b, 'Bo', 1)]);
    for (const page of [a, b]) await page.locator(tid('game-over')).waitFor({ state: 'visible', timeout: 20_000 });
    return { id: made.id, lobby: (await state(a)).lobby.map(x => x.name) };
  });

  await step('rematch: Ada asks for it, Bo follows into the same seat', async () => {
    if (await b.locator(tid('rematch-btn')).count()) fail('Bo, not the host, is offered to make the rematch');
    await a.locator(tid('rematch-btn')).click();
    await a.waitForURL(url => !String(url).includes(old.id), { timeout: 10_000 });
    const fresh = await tableIdOf(a);
    await waitSeated(a, fresh);
    const join = b.locator(tid('rematch-join'));
    await join.waitFor({ state: 'visible', timeout: 10_000 });
    await waitChat(b, 'The host asked for a rematch');
    await join.click();
    await waitSeated(b, fresh);
    const sb = await state(b);
    const names = sb.lobby.map(x => x.name);
    if (sb.you !== 'Bo') fail(`Bo is "${sb.you}" at the rematch`);
    if (JSON.stringify(names) !== JSON.stringify(old.lobby)) fail(`the rematch is seated ${names.join(', ')}, not ${old.lobby.join(', ')}`);
    if (sb.started) fail('the rematch started without the host');
    log(`  rematch ${fresh}: ${names.join(', ')}`);
  });

  await step('lobby: the finished game with its date and winner', async () => {
    await a.goto(base + '/#/');
    const item = a.locator(`${tid('finished-tables')} li[data-table="${old.id}"]`);
    await item.waitFor({ timeout: 10_000 });
    const text = (await item.locator(tid('table-summary')).textContent()).trim();
    if (!/finished .*\d/.test(text) || !/won by \S/.test(text)) fail(`the finished game reads "${text}"`);
    log(`  "${text}"`);
  });

  await step('replay: autoplay at 4×, pause, a jump to a round, the keys', async () => {
    await a.goto(base + '/#/replay/' + encodeURIComponent(old.id));
    const pos = a.locator(tid('replay-pos'));
    await a.waitForFunction(() => document.querySelector('[data-testid="replay-pos"]').dataset.step === '0', null, { timeout: 15_000 });
    const step = async () => Number(await pos.getAttribute('data-step'));
    await a.locator(tid('replay-speed')).selectOption('4');
    await a.locator(tid('replay-play')).click();
    await a.waitForFunction(() => Number(document.querySelector('[data-testid="replay-pos"]').dataset.step) >= 2, null, { timeout: 10_000 });
    await a.locator(tid('replay-play')).click();
    if ((await a.locator(tid('replay-play')).getAttribute('aria-pressed')) !== 'false') fail('the second click did not pause');
    const marks = await a.evaluate(() => window.dalmutiClient.replay.marks);
    const rounds = marks.filter(m => m.round >= 2);
    if (!rounds.length) fail(`no second round in the jump list: ${JSON.stringify(marks)}`);
    const options = await a.locator(`${tid('replay-jump')} option`).allTextContents();
    if (!options.includes('Hand 1, round 2')) fail(`the jump list reads ${options.join(' | ')}`);
    await a.locator(tid('replay-jump')).selectOption({ label: 'Hand 1, round 2' });
    const at = marks.find(m => m.hand === 1 && m.round === 2).i;
    if ((await step()) !== at) fail(`the jump to round 2 shows step ${await step()}, not ${at}`);
    await a.locator('body').click({ position: { x: 5, y: 5 } });
    await a.keyboard.press('PageDown');
    const next = marks[marks.findIndex(m => m.i === at) + 1];
    if (next && (await step()) !== next.i) fail(`PageDown shows step ${await step()}, not ${next.i}`);
    await a.keyboard.press('k');
    if ((await a.locator(tid('replay-play')).getAttribute('aria-pressed')) !== 'true') fail('k did not start the autoplay');
    await a.keyboard.press('k');
    if ((await a.locator(tid('replay-play')).getAttribute('aria-pressed')) !== 'false') fail('k did not pause the autoplay');
    log(`  ${marks.length} hands and rounds; jumped to step ${at + 1}`);
  });

  await step('no page errors', async () => {
    if (pageErrors.length) fail('errors in the pages:\n' + pageErrors.join('\n'));
  });
}

function main() {
  return lib.runTest('e2e social', 'browser end-to-end, social', 'social-failure', TOTAL_TIMEOUT_MS, run, cleanup, {
    pages: () => pages,
    pageErrors,
    consoleErrors,
    server,
  });
}

const cleanup = lib.cleaner(() => browser && browser.close(), server, tmp);

guardProcess(server, cleanup);

main();
