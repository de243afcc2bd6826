// End-to-end test of moderation at a table, in headless Chromium (Debian's
// /usr/bin/chromium, driven by playwright-core):
//
//     cargo build --release -p dalmuti && npm ci --prefix e2e && node e2e/moderation.mjs
//
//   - Ada mutes Bo: his lines leave her chat (not his), a "muted" note
//     offers to unmute him, and unmuting brings them back.
//   - Ada reports Bo's line, saying why (a report without a reason is
//     refused in words): the button says so, and the operator reads the
//     line, the table, the reporter and why with `dalmuti serve
//     --list-reports`.
//   - axe-core on Ada's chat as the host (Mute, Report, Remove their chat
//     beside Bo's lines), in the five languages: each button's name holds
//     its words.
//   - Ada, the host, removes Bo's chat: his lines go from both screens, the
//     news says so, and his chat box is closed with the reason.
//
// It exits 0 on success; on failure it prints what failed, takes
// screenshots to e2e/out/ and exits 1. Environment as in e2e/lib.mjs.

import { mkdirSync, mkdtempSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import * as lib from './lib.mjs';
import { log, fail, tid, outDir, chromiumPath, CHROMIUM_ARGS, Server, guardProcess, bin } from './lib.mjs';
import { checkAxe } from './checks.mjs';

lib.setLogPrefix('[e2e moderation]');

const TOTAL_TIMEOUT_MS = 120_000;
const tmp = mkdtempSync(path.join(tmpdir(), 'dalmuti-e2e-moderation-'));
const server = new Server(tmp, ['--bot-delay', '20']);
let browser = null;
const pages = {};
const pageErrors = [];
const consoleErrors = [];
let base = '';
const step = lib.step;
const RUDE = 'you are all losers';

async function newPage(label) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', serviceWorkers: lib.SERVICE_WORKERS });
  context.setDefaultTimeout(15_000);
  await lib.maybeServeWebFromDisk(context);
  const page = await context.newPage();
  page.on('pageerror', e => pageErrors.push(label + ': ' + String(e && e.stack || e)));
  page.on('console', m => {
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

async function seat(page, id, token, name) {
  await page.goto(base + '/#/');
  await page.evaluate(([id, token, name]) => {
    localStorage.setItem('dalmuti.token.' + id, token);
    localStorage.setItem('dalmuti.name', name);
  }, [id, token, name]);
  await page.goto(base + '/#/t/' + encodeURIComponent(id));
  await page.waitForFunction(([id, name]) => {
    const s = window.dalmutiClient && window.dalmutiClient.table.state;
    return s && s.table === id && s.you === name;
  }, [id, name]);
}

const line = (page, text) => page.locator(`${tid('chat')} li`, { hasText: text });

async function run() {
  mkdirSync(outDir, { recursive: true });
  base = await step('start the server', () => server.start());
  await step('start Chromium', async () => {
    if (!existsSync(chromiumPath)) fail(`no browser at ${chromiumPath}: apt-get install -y chromium`);
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_ARGS });
  });
  const a = await newPage('Ada');
  const b = await newPage('Bo');

  const id = await step('Ada and Bo at one table; Bo is rude in the chat', async () => {
    const made = await api(a, 'POST', '/api/tables', { name: 'Friday', player: 'Ada', seats: 3 });
    const bo = await api(b, 'POST', `/api/tables/${made.id}/seats`, { name: 'Bo' });
    // The chat is on the table once the game is on.
    await api(a, 'POST', `/api/tables/${made.id}/bots`, { bot: 'easy' }, made.token);
    await api(a, 'POST', `/api/tables/${made.id}/start`, undefined, made.token);
    await seat(a, made.id, made.token, 'Ada');
    await seat(b, made.id, bo.token, 'Bo');
    await b.locator(tid('chat-input')).fill(RUDE);
    await b.locator(tid('chat-send')).click();
    await line(a, RUDE).waitFor();
    if (await line(b, RUDE).locator(tid('chat-mute')).count()) fail('Bo is offered to mute himself');
    return made.id;
  });

  await step('Ada mutes Bo: his line leaves her chat only, and comes back when she unmutes him', async () => {
    await line(a, RUDE).locator(tid('chat-mute')).click();
    await line(a, RUDE).waitFor({ state: 'detached' });
    const note = a.locator(tid('chat-muted'));
    await note.waitFor({ state: 'visible' });
    if (!(await note.textContent()).includes('unmute Bo')) fail(`the muted note reads "${await note.textContent()}"`);
    if (!(await line(b, RUDE).isVisible())) fail('Bo no longer sees his own line');
    await a.reload();
    await a.waitForFunction(() => window.dalmutiClient.table.state);
    if (await line(a, RUDE).count()) fail('the mute did not last through a reload');
    await a.locator(tid('chat-unmute')).click();
    await line(a, RUDE).waitFor();
  });

  await step('Ada reports the line, saying why; the operator reads it with dalmuti serve --list-reports', async () => {
    const button = line(a, RUDE).locator(tid('chat-report'));
    await button.click();
    // A report asks why before it is sent (issue 46).
    const form = a.locator(tid('report-form'));
    await form.waitFor({ state: 'visible' });
    await form.locator(tid('report-send')).click();
    const error = (await form.locator('#report-error').textContent()).trim();
    if (error !== 'Choose why you report the line.') fail(`a report without a reason says "${error}"`);
    await form.getByLabel('Insults or harassment').check();
    await form.locator(tid('report-more')).fill('calls everyone names');
    await form.locator(tid('report-send')).click();
    await form.waitFor({ state: 'hidden' });
    await a.waitForFunction(() => [...document.querySelectorAll('[data-testid="chat-report"]')].some(x => x.textContent === 'Reported'));
    const listed = execFileSync(bin, ['serve', '--list-reports', '--data', path.join(tmp, 'db.sqlite')], { encoding: 'utf8' });
    if (!listed.includes(`table ${id} (Friday)`) || !listed.includes('reported by Ada: insults or harassment: calls everyone names')
      || !listed.includes(`Bo: ${RUDE}`)) {
      fail(`--list-reports printed:\n${listed}`);
    }
    log('  ' + listed.trim().split('\n').join(' / '));
  });

  await step('axe on the host\'s chat, its lines\' buttons named as they read, in the five languages', async () => {
    // Ada's lines of Bo's have Mute, Report and the host's "Remove their
    // chat": each button's name starts as its words (issue 46:
    // label-content-name-mismatch), whatever the language.
    await b.locator(tid('chat-input')).fill('one more line');
    await b.locator(tid('chat-send')).click();
    await line(a, 'one more line').locator(tid('chat-remove')).waitFor();
    for (const lang of ['en', 'ko', 'de', 'es', 'ja']) {
      await a.locator(tid('lang')).selectOption(lang);
      await a.waitForFunction(l => document.documentElement.lang === l, lang);
      await checkAxe(a, `the host's chat with a guest's lines (${lang})`);
    }
    await a.locator(tid('lang')).selectOption('en');
  });

  await step('Ada removes Bo\'s chat: his line goes from both screens, and he cannot chat', async () => {
    if (await b.locator(tid('chat-remove')).count()) fail('Bo, not the host, is offered to remove chat');
    await line(a, RUDE).locator(tid('chat-remove')).click();
    for (const page of [a, b]) {
      await line(page, RUDE).waitFor({ state: 'detached' });
      await line(page, 'The host removed Bo\'s chat.').waitFor();
    }
    await b.waitForFunction(() => document.querySelector('[data-testid="chat-input"]').disabled);
    const placeholder = await b.locator(tid('chat-input')).getAttribute('placeholder');
    if (placeholder !== 'The host removed your chat at this table.') fail(`Bo's chat box says "${placeholder}"`);
    if (await a.locator(tid('chat-input')).isDisabled()) fail('Ada\'s chat was closed too');
  });

  await step('no error in the pages', async () => {
    if (pageErrors.length) fail('errors in the page:\n' + pageErrors.join('\n'));
    if (consoleErrors.length) fail('console errors:\n' + consoleErrors.join('\n'));
  });
}

function main() {
  return lib.runTest('e2e moderation', 'browser end-to-end, moderation', 'moderation-failure', TOTAL_TIMEOUT_MS, run, cleanup, {
    pages: () => pages,
    pageErrors,
    consoleErrors,
    server,
  });
}

const cleanup = lib.cleaner(() => browser && browser.close(), server, tmp);

guardProcess(server, cleanup);

main();
