// End-to-end test of the installable client and its service worker, in
// headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core):
//
//     cargo build --release -p dalmuti && npm ci --prefix e2e && node e2e/offline.mjs
//
//   - The web app manifest: /manifest.webmanifest is served as
//     application/manifest+json, reads as JSON with the name, short name,
//     start URL, display, the page's colours (theme-color, style.css's
//     --bg) and icons; each icon is served with its type and size and
//     loads in the page.
//   - The service worker (/sw.js) takes control of the page; its cache
//     holds the shell: the page, its styles, every module the page loaded,
//     the words of all five languages, the manifest and the icons; never
//     an /api/ or /ws/ address.
//   - Network first: a stale copy put in the cache is not what the page
//     gets while the server answers, and the cache is refreshed with the
//     server's copy.
//   - The server stopped, the page is reloaded: it opens from the cache
//     (title, the lobby's heading) and says, in the player's language, that
//     the server cannot be reached and that the page reconnects by itself;
//     in German too, its words taken from the cache.
//   - The server started again on the same port: the page, not reloaded,
//     loads the lobby by itself and the message goes.
//   - A page under the service worker plays: "Play against bots" makes a
//     table, whose WebSocket brings the deal.
//   - Throughout, no answer to an /api/ request came from the service
//     worker.
//
// It exits 0 on success; on failure it prints what failed, takes
// screenshots to e2e/out/ and exits 1. Environment as in e2e/lib.mjs
// (E2E_WEB_DIR is not used: the test is of what the server serves).

import { mkdirSync, mkdtempSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';
import * as lib from './lib.mjs';
import { log, fail, tid, outDir, chromiumPath, CHROMIUM_ARGS, Server, guardProcess } from './lib.mjs';

lib.setLogPrefix('[e2e offline]');

const TOTAL_TIMEOUT_MS = 180_000;
const tmp = mkdtempSync(path.join(tmpdir(), 'dalmuti-e2e-offline-'));
const server = new Server(tmp, ['--bot-delay', '20', '--setup-pause', '1000']);
let browser = null;
const pages = {};
const pageErrors = [];
const consoleErrors = [];

const step = lib.step;

/** A language's web words, from its catalogue file. */
const words = lang => JSON.parse(readFileSync(path.join(lib.root, 'crates', 'dalmuti-i18n', 'locales', `${lang}.web.json`), 'utf8'));
const en = words('en');
const de = words('de');

/** The shell's cache: its name and the paths it holds. */
async function cached(page) {
  return page.evaluate(async () => {
    const out = {};
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      out[name] = (await cache.keys()).map(r => new URL(r.url).pathname + new URL(r.url).search);
    }
    return out;
  });
}

/** Fails if any cache holds an address of the API or the socket. */
async function noApiCached(page) {
  const all = await cached(page);
  const bad = Object.entries(all).flatMap(([name, paths]) =>
    paths.filter(p => p.startsWith('/api/') || p.startsWith('/ws/')).map(p => `${name}: ${p}`));
  if (bad.length) fail(`the service worker cached the API: ${bad.join(', ')}`);
  return all;
}

/** What the lobby shows: the offline message's words, whether the lists are on screen. */
async function lobbyNow(page) {
  return page.evaluate(() => {
    const offline = document.querySelector('[data-testid="lobby-offline"]');
    const grid = document.querySelector('.lobby-grid');
    const quick = document.querySelector('[data-testid="quick-start"]');
    return {
      title: document.title,
      heading: document.getElementById('lobby-title').textContent.trim(),
      headingShown: document.getElementById('lobby-title').checkVisibility(),
      offline: offline.checkVisibility(),
      offlineText: offline.innerText.replace(/\s+/g, ' ').trim(),
      grid: grid.checkVisibility(),
      quick: quick.checkVisibility(),
    };
  });
}

// ------------------------------------------------------------ the test

async function run() {
  mkdirSync(outDir, { recursive: true });
  const base = await step('start the server', () => server.start());
  // Started again later on the same port: the page's origin stays the same.
  server.addr = new URL(base).host;
  log('  server at', base);

  await step('start Chromium', async () => {
    if (!existsSync(chromiumPath)) fail(`no browser at ${chromiumPath}: apt-get install -y chromium`);
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_ARGS });
  });
  // Service workers allowed: they are what this test is about.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', serviceWorkers: 'allow' });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  pages.page = page;
  page.on('pageerror', e => pageErrors.push(String(e && e.stack || e)));
  page.on('console', m => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  // Whatever happens, no answer to the API may come from the service worker.
  const apiFromWorker = [];
  page.on('response', r => {
    const url = new URL(r.url());
    if ((url.pathname.startsWith('/api/') || url.pathname.startsWith('/ws/')) && r.fromServiceWorker()) {
      apiFromWorker.push(`${r.request().method()} ${url.pathname}${url.search}`);
    }
  });

  const manifest = await step('the web app manifest is served, with its type, fields and icons', async () => {
    const response = await page.request.get(base + '/manifest.webmanifest');
    if (response.status() !== 200) fail(`/manifest.webmanifest answered ${response.status()}`);
    const type = response.headers()['content-type'];
    if (type !== 'application/manifest+json') fail(`/manifest.webmanifest is served as ${type}`);
    const m = JSON.parse(await response.text());
    const want = { name: 'The Great Dalmuti', short_name: 'Dalmuti', start_url: '/', display: 'standalone' };
    for (const [k, v] of Object.entries(want)) if (m[k] !== v) fail(`the manifest's ${k} is ${JSON.stringify(m[k])}, not ${JSON.stringify(v)}`);
    if (!Array.isArray(m.icons) || !m.icons.length) fail('the manifest names no icon');
    for (const size of ['192x192', '512x512']) {
      if (!m.icons.some(i => i.sizes === size && i.type === 'image/png')) fail(`the manifest has no ${size} PNG icon`);
    }
    for (const icon of m.icons) {
      const r = await page.request.get(new URL(icon.src, base).href);
      if (r.status() !== 200) fail(`the icon ${icon.src} answered ${r.status()}`);
      if (r.headers()['content-type'] !== icon.type) fail(`the icon ${icon.src} is served as ${r.headers()['content-type']}, not ${icon.type}`);
      if (icon.type === 'image/png') {
        const png = PNG.sync.read(await r.body());
        if (`${png.width}x${png.height}` !== icon.sizes) fail(`the icon ${icon.src} is ${png.width}x${png.height}, not ${icon.sizes}`);
      }
    }
    log(`  ${m.name} (${m.short_name}), ${m.display}, theme ${m.theme_color}, ${m.icons.length} icons`);
    return m;
  });

  await step('the page links the manifest; its colours and icons are the page\'s', async () => {
    await page.goto(base + '/#/');
    await page.locator(tid('quick-start')).waitFor();
    const seen = await page.evaluate(async icons => {
      const link = document.querySelector('link[rel="manifest"]');
      const theme = document.querySelector('meta[name="theme-color"]');
      const loaded = [];
      for (const src of icons) {
        const img = new Image();
        img.src = src;
        try {
          await img.decode();
          loaded.push(img.naturalWidth > 0);
        } catch (_) {
          loaded.push(false);
        }
      }
      return {
        manifest: link && new URL(link.href).pathname,
        theme: theme && theme.content,
        bg: getComputedStyle(document.documentElement).getPropertyValue('--bg').trim(),
        loaded,
      };
    }, manifest.icons.map(i => i.src));
    if (seen.manifest !== '/manifest.webmanifest') fail(`the page links the manifest at ${seen.manifest}`);
    if (seen.theme !== manifest.theme_color) fail(`theme-color ${seen.theme}, the manifest's ${manifest.theme_color}`);
    if (seen.bg !== manifest.background_color) fail(`the page's --bg is ${seen.bg}, the manifest's background ${manifest.background_color}`);
    const broken = manifest.icons.filter((_, i) => !seen.loaded[i]).map(i => i.src);
    if (broken.length) fail(`icons that do not load in the page: ${broken.join(', ')}`);
  });

  const shell = await step('the service worker controls the page and caches the shell', async () => {
    await page.waitForFunction(() => navigator.serviceWorker && navigator.serviceWorker.controller, null, { timeout: 30_000 });
    const script = await page.evaluate(() => new URL(navigator.serviceWorker.controller.scriptURL).pathname);
    if (script !== '/sw.js') fail(`the page is controlled by ${script}, not /sw.js`);
    const worker = await (await page.request.get(base + '/sw.js')).text();
    const version = (worker.match(/^const VERSION = '([0-9a-f]+)';$/m) || [])[1];
    if (!version) fail('the served /sw.js has no version written by the server');
    const name = 'dalmuti-shell-' + version;
    // What the page itself loaded: its scripts, styles and words.
    const loaded = await page.evaluate(() => performance.getEntriesByType('resource')
      .map(e => new URL(e.name)).filter(u => u.origin === location.origin).map(u => u.pathname)
      .filter(p => /^\/(js\/.*\.js|[^/]+\.(css|js)|i18n\/.*\.json)$/.test(p)));
    const want = ['/', '/index.html', '/manifest.webmanifest', '/icons/icon.svg', '/icons/icon-192.png', '/icons/icon-512.png',
      ...['en', 'de', 'es', 'ja', 'ko'].map(l => `/i18n/${l}.json`), ...loaded];
    let all = {};
    // The cache is filled on install, before the worker takes control; a
    // moment for the copies the page's own first requests put.
    for (let i = 0; i < 50; i++) {
      all = await noApiCached(page);
      if (all[name] && want.every(p => all[name].includes(p))) break;
      await lib.sleep(100);
    }
    if (!all[name]) fail(`no cache ${name}: the caches are ${Object.keys(all).join(', ') || 'none'}`);
    const missing = [...new Set(want)].filter(p => !all[name].includes(p));
    if (missing.length) fail(`the shell's cache lacks ${missing.join(', ')}`);
    const others = Object.keys(all).filter(n => n.startsWith('dalmuti-shell-') && n !== name);
    if (others.length) fail(`old shell caches are kept: ${others.join(', ')}`);
    const modules = loaded.filter(p => p.startsWith('/js/')).length;
    log(`  ${name}: ${all[name].length} files, ${modules} modules the page loaded among them`);
    return { name, paths: all[name] };
  });

  await step('network first: the server\'s copy, not the cache\'s, while the server answers', async () => {
    const result = await page.evaluate(async name => {
      const cache = await caches.open(name);
      await cache.put('/style.css', new Response('/* a stale copy */', { headers: { 'Content-Type': 'text/css' } }));
      const got = await (await fetch('/style.css')).text();
      // The worker puts the fresh copy in the cache after answering.
      let kept = '';
      for (let i = 0; i < 50; i++) {
        kept = await (await cache.match('/style.css')).text();
        if (!kept.includes('stale')) break;
        await new Promise(resolve => setTimeout(resolve, 100));
      }
      return { got: got.slice(0, 200), kept: kept.slice(0, 200) };
    }, shell.name);
    if (result.got.includes('stale') || !result.got.includes(':root')) fail(`online, /style.css came from the cache: ${result.got}`);
    if (result.kept.includes('stale')) fail('the cache was not refreshed with the server\'s copy of /style.css');
  });

  await step('the lobby lists a table while the server runs', async () => {
    const made = await page.request.post(base + '/api/tables', { data: { player: 'Ada', seats: 4, name: 'Offline test', public: true } });
    if (made.status() !== 201) fail(`POST /api/tables answered ${made.status()}: ${await made.text()}`);
    await page.locator('#lobby-refresh').click();
    await page.locator(tid('open-tables')).getByText('Offline test').waitFor();
    const now = await lobbyNow(page);
    if (now.offline) fail('with the server running, the lobby says it cannot reach it');
  });

  await step('stop the server, reload: the page opens from the cache and says the server cannot be reached', async () => {
    await server.stop();
    const documents = [];
    const onDocument = r => { if (r.request().resourceType() === 'document') documents.push(r); };
    page.on('response', onDocument);
    await page.reload();
    page.off('response', onDocument);
    if (!documents.length || !documents[0].fromServiceWorker()) fail('offline, the page did not come from the service worker');
    await page.locator(tid('lobby-offline')).waitFor({ state: 'visible', timeout: 15_000 });
    const now = await lobbyNow(page);
    if (now.title !== en['web.page.lobby']) fail(`offline, the title is "${now.title}", not "${en['web.page.lobby']}"`);
    if (!now.headingShown || now.heading !== en['web.html.lobby']) fail(`offline, the lobby's heading is "${now.heading}" (shown: ${now.headingShown})`);
    for (const key of ['web.lobby.offline-title', 'web.lobby.offline-body']) {
      if (!now.offlineText.includes(en[key])) fail(`offline, the lobby does not say "${en[key]}": "${now.offlineText}"`);
    }
    if (now.grid || now.quick) fail('offline, the lobby still shows its lists and buttons that need the server');
    // The mark of this document: still there after the reconnection, so
    // the page reconnected by itself, not by a reload.
    await page.evaluate(() => { window.sameDocument = true; });
    await page.screenshot({ path: path.join(outDir, 'offline-lobby.png') });
    log(`  "${now.offlineText}"`);
  });

  await step('offline, in German: the words come from the cache too', async () => {
    await page.locator('#lang-select').selectOption('de');
    await page.waitForFunction(want => {
      const h = document.getElementById('lobby-offline-title');
      return h && h.textContent.trim() === want;
    }, de['web.lobby.offline-title'], { timeout: 10_000 });
    const now = await lobbyNow(page);
    if (!now.offline || !now.offlineText.includes(de['web.lobby.offline-body'])) fail(`offline in German the lobby says "${now.offlineText}"`);
    if (now.title !== de['web.page.lobby']) fail(`offline in German, the title is "${now.title}"`);
    log(`  "${now.offlineText}"`);
    await page.locator('#lang-select').selectOption('en');
    await page.waitForFunction(want => document.getElementById('lobby-offline-title').textContent.trim() === want,
      en['web.lobby.offline-title'], { timeout: 10_000 });
  });

  await step('start the server again on the same port: the page reconnects by itself', async () => {
    const tables = [];
    const onTables = r => { if (new URL(r.url()).pathname === '/api/tables' && r.status() === 200) tables.push(r.url()); };
    page.on('response', onTables);
    const again = await server.start();
    if (again !== base) fail(`the server came back at ${again}, not ${base}`);
    const t0 = Date.now();
    await page.locator(tid('lobby-offline')).waitFor({ state: 'hidden', timeout: 20_000 });
    const took = Date.now() - t0;
    page.off('response', onTables);
    const now = await lobbyNow(page);
    if (!now.grid || !now.quick) fail('back online, the lobby\'s lists and buttons are not shown');
    if (now.title !== en['web.page.lobby']) fail(`back online, the title is "${now.title}"`);
    if (!tables.length) fail('the message went, but the lobby was not loaded from the server');
    if (!(await page.evaluate(() => window.sameDocument === true))) fail('the page was reloaded, rather than reconnecting by itself');
    if (await page.locator('#lobby-error').isVisible()) fail(`back online, the lobby shows an error: ${await page.locator('#lobby-error').textContent()}`);
    log(`  the lobby loaded again ${took} ms after the server started`);
  });

  await step('a page under the service worker plays: a table against bots, its deal over the WebSocket', async () => {
    await page.locator(tid('quick-name')).fill('Ada');
    await page.locator(tid('quick-bots')).click();
    await page.waitForURL(/#\/t\/[^/]+$/, { timeout: 15_000 });
    await page.waitForFunction(() => {
      const c = window.dalmutiClient;
      return c && c.table.state && c.table.state.you;
    }, null, { timeout: 20_000 });
    // The socket is live and the deal is on the page (the hand, or a tax
    // dialog first, as the deal falls).
    await page.waitForFunction(() => document.querySelector('[data-testid="conn"]').dataset.state === 'up' &&
      document.querySelectorAll('[data-testid="card-group"], [data-testid="tax-card"]').length > 0, null, { timeout: 20_000 });
    if (!(await page.evaluate(() => !!navigator.serviceWorker.controller))) fail('the page is no longer controlled by the service worker');
  });

  await step('the service worker never answered the API, nor cached it', async () => {
    await noApiCached(page);
    if (apiFromWorker.length) fail(`API answers came from the service worker: ${apiFromWorker.join(', ')}`);
    if (pageErrors.length) fail('errors in the page:\n' + pageErrors.join('\n'));
  });
}

function main() {
  return lib.runTest('e2e offline', 'browser end-to-end, installable and offline', 'offline-failure', TOTAL_TIMEOUT_MS, run, cleanup, {
    pages: () => pages,
    pageErrors,
    consoleErrors,
    server,
  });
}

const cleanup = lib.cleaner(() => browser && browser.close(), server, tmp);

guardProcess(server, cleanup);

main();
