// Pages the browser tests open: a fresh context at a phone's or a
// laptop's size, and pages that play the server's part from a recorded
// state (e2e/fixtures/, made by e2e/capture-fixtures.mjs) so that what they
// show never depends on the deal of the day.

import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import * as lib from './lib.mjs';

/**
 * The parts of a test to run: those named in the environment variable
 * `env` (comma-separated), all of `all` by default; an unknown name throws.
 */
export function chosenParts(env, all) {
  const parts = new Set(process.env[env] ? process.env[env].split(',').map(p => p.trim()) : all);
  for (const p of parts) if (!all.includes(p)) throw new Error(`${env}: unknown part ${p} (known: ${all.join(', ')})`);
  return parts;
}

export const LAPTOP = { width: 1366, height: 768 };
export const PHONE = { width: 390, height: 844 };

/** The made-up address recorded screens are shown at: the invite link reads the same on every run. */
export const FIXTURE_ORIGIN = 'http://dalmuti.test';

/** A recorded state, e2e/fixtures/<name>.json. */
export const fixture = name => JSON.parse(readFileSync(path.join(lib.here, 'fixtures', name + '.json'), 'utf8'));

/** The pages of one test: opened in `browser`, their errors collected, closed by label. */
export class Pages {
  constructor() {
    this.browser = null;
    /** The real server's address (the client's own files come from it). */
    this.base = '';
    this.open = {};
    this.pageErrors = [];
    this.consoleErrors = [];
  }

  /**
   * A new context and page: `size` LAPTOP or PHONE, `locale` the
   * browser's, `motion` false for reduced motion (the default), `tour`
   * true to be shown the first-hand tour, `setup` run on the context first.
   */
  async page(label, { size = LAPTOP, locale = 'en-US', setup, motion = false, tour = false } = {}) {
    const phone = size === PHONE || size.width < 900;
    const context = await this.browser.newContext({
      viewport: size, locale, timezoneId: 'UTC', reducedMotion: motion ? 'no-preference' : 'reduce',
      isMobile: phone, hasTouch: phone, deviceScaleFactor: 1,
      // Routes play the server's part (fixturePage, E2E_WEB_DIR) and the
      // network is cut (setOffline): a service worker would fetch past
      // both. The service worker has its own test, offline.mjs.
      serviceWorkers: 'block',
    });
    context.setDefaultTimeout(15_000);
    // The first-hand tour is for newcomers; a test that is not about it
    // plays as someone who has seen it.
    if (!tour) {
      await context.addInitScript(() => {
        // about:blank has no storage of its own.
        try {
          for (const key of ['dalmuti.tour', 'dalmuti.tour.corporate-shuffle']) if (!localStorage.getItem(key)) localStorage.setItem(key, 'done');
        } catch (_) { /* no storage here */ }
      });
    }
    if (setup) await setup(context);
    await lib.maybeServeWebFromDisk(context);
    const page = await context.newPage();
    page.on('pageerror', e => this.pageErrors.push(label + ': ' + String(e && e.stack || e)));
    page.on('console', m => { if (m.type() === 'error') this.consoleErrors.push(label + ': ' + m.text()); });
    this.open[label] = page;
    return page;
  }

  /** Starts `server` and Chromium: the steps every browser test begins with. */
  async start(server) {
    mkdirSync(lib.outDir, { recursive: true });
    this.base = await lib.step('start the server', () => server.start());
    await lib.step('start Chromium', async () => {
      if (!existsSync(lib.chromiumPath)) lib.fail(`no browser at ${lib.chromiumPath}: apt-get install -y chromium`);
      this.browser = await chromium.launch({ executablePath: lib.chromiumPath, headless: true, args: lib.CHROMIUM_ARGS });
    });
  }

  /**
   * Runs test `run` to its end as lib.runTest does (`tag`, `name`, `file`,
   * `timeoutMs`), then closes the browser, stops `server` and removes
   * `tmp`, however it ends. A page that threw fails the test.
   */
  runTest(tag, name, file, timeoutMs, run, server, tmp) {
    const cleanup = lib.cleaner(() => this.browser && this.browser.close(), server, tmp);
    lib.guardProcess(server, cleanup);
    const whole = async () => {
      await run();
      if (this.pageErrors.length) lib.fail('a page threw: ' + this.pageErrors.join('\n'));
    };
    return lib.runTest(tag, name, file, timeoutMs, whole, cleanup,
      { pages: () => this.open, pageErrors: this.pageErrors, consoleErrors: this.consoleErrors, server });
  }

  async close(label) {
    const page = this.open[label];
    delete this.open[label];
    if (page) await page.context().close();
  }

  /**
   * A page that plays the server's part from fixture `fx`: the HTTP API
   * answers from `http` (path → JSON; anything else under /api is a 404),
   * the table's WebSocket answers hello with `messages`, the client's own
   * files come from the real server (or E2E_WEB_DIR), the clock stands at
   * the fixture's time and the browser holds Ada's seat token (`player`:
   * and her kept name, with that secret; `tour`: she has not seen the
   * first-hand tour).
   */
  async fixturePage(label, size, fx, { http = {}, messages = [], hash, locale, tour = false, player = null }) {
    const base = this.base;
    const page = await this.page(label, {
      size,
      locale,
      tour,
      setup: async context => {
        // The page's clock starts at the fixture's moment (relative dates
        // such as "5 minutes ago" read the same on every run).
        await context.clock.install({ time: new Date(fx.now) });
        await context.addInitScript(([id, token, player]) => {
          if (!localStorage.getItem('dalmuti.name')) {
            localStorage.setItem('dalmuti.name', 'Ada');
            localStorage.setItem('dalmuti.token.' + id, token);
            // A player who kept her name (`player`: her secret), for the pages that need one.
            if (player) localStorage.setItem('dalmuti.player', JSON.stringify({ name: 'Ada', secret: player }));
          }
        }, [fx.id, 'fixture-token', player]);
        await context.route(url => url.origin === FIXTURE_ORIGIN, async route => {
          const url = new URL(route.request().url());
          // The games offered are the server's own, whatever the fixture.
          if (url.pathname.startsWith('/api/') && url.pathname !== '/api/games') {
            const body = http[url.pathname + url.search];
            if (body === undefined) await route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":"not in the fixture"}' });
            else await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
            return;
          }
          const response = await route.fetch({ url: base + url.pathname + url.search });
          await route.fulfill({ response });
        });
        await context.routeWebSocket(url => new URL(url).pathname.startsWith('/ws/'), ws => {
          ws.onMessage(text => {
            let msg = null;
            try { msg = JSON.parse(text); } catch (_) { return; }
            if (msg.t === 'hello') for (const m of messages) ws.send(JSON.stringify(m));
          });
        });
      },
    });
    await page.goto(FIXTURE_ORIGIN + '/' + hash);
    return page;
  }
}

/**
 * Waits until the page is still: passing moments over (banners, newly
 * received cards marked for a few seconds: the clock is moved a minute on),
 * fonts loaded, deal checks done, no request under way.
 */
export async function settle(page) {
  await page.waitForLoadState('networkidle');
  await page.clock.fastForward(60_000);
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready);
  await page.waitForFunction(() => ![...document.querySelectorAll('[data-testid="fair-hand"]')]
    .some(n => /checking/i.test(n.textContent)));
  // Focus rings and hover depend on what was clicked last: none on a screenshot.
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  await page.mouse.move(0, 0);
}

/**
 * The `rated` news line of the recorded game, had it been rated: Ada won
 * (her first rated game), the level of the two easy bots moved once.
 */
export function ratedNews(fx) {
  const last = fx.screens.over[fx.screens.over.length - 1];
  const fresh = { mu: 25, sigma: 25 / 3, provisional: true };
  return {
    t: 'news', v: last.v,
    d: { n: 900, at: fx.now, kind: 'rated', ratings: [
      { name: 'Ada', bot: false, before: fresh, after: { mu: 28.3, sigma: 7.79, provisional: true } },
      { name: 'easy', bot: true, before: { mu: 22.4, sigma: 3.9, provisional: false }, after: { mu: 21.6, sigma: 3.8, provisional: false } },
    ] },
  };
}

/** A table's info as the fixture's HTTP API answers it. */
export const tableInfo = fx => ({ [`/api/tables/${encodeURIComponent(fx.id)}`]: fx.info });
/** The address of the fixture's table. */
export const atTable = fx => `#/t/${encodeURIComponent(fx.id)}`;

/** Creates a table from the lobby form; returns its id (the page is at its pre-start view). */
export async function createTable(page, { seats, hands, name = 'Screens', player = 'Ada' }) {
  const form = page.locator(lib.tid('create-form'));
  await form.waitFor();
  await page.locator('#c-name').fill(name);
  await page.locator('#c-player').fill(player);
  await page.locator('#c-seats').fill(String(seats));
  await page.locator('#c-hands').fill(String(hands));
  await page.locator(lib.tid('create-submit')).click();
  await page.waitForURL(/#\/t\/[^/]+$/, { timeout: 10_000 });
  await page.locator(lib.tid('prestart')).waitFor({ state: 'visible' });
  return decodeURIComponent(new URL(page.url()).hash.replace(/^#\/t\//, ''));
}

/** Adds `n` bots from the host's pre-start view. */
export async function addBots(page, n) {
  for (let i = 0; i < n; i++) {
    const before = Number(await page.locator(lib.tid('prestart')).getAttribute('data-taken'));
    await page.locator(lib.tid('add-bot')).click();
    await page.waitForFunction(k => Number(document.querySelector('[data-testid="prestart"]').dataset.taken) > k,
      before, { timeout: 10_000 });
  }
}
