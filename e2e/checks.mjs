// Checks the browser tests run on every screen they reach: axe-core's
// accessibility rules, and screenshots compared against reviewed baselines.
//
// Baselines live in e2e/baselines/<name>.png. A screenshot may differ from
// its baseline in a small share of its pixels (anti-aliasing, a clock);
// more than that fails, leaving the new screenshot and a picture of the
// difference in e2e/out/. To accept a changed screen after looking at it:
//
//     E2E_UPDATE_BASELINES=1 node e2e/screens.mjs
//
// (e2e/screens.mjs takes the screenshots, from recorded states: see
// e2e/capture-fixtures.mjs.)
//
// A missing baseline is written and reported when run by hand, and fails
// under CI (CI=true), so no screen goes unreviewed.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { fail, here, log, outDir } from './lib.mjs';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
export const baselineDir = path.join(here, 'baselines');

/**
 * Runs axe-core on the page as it is now; fails listing every violation
 * (rule, impact, the first elements, how to fix) with `screen` in front.
 */
export async function checkAxe(page, screen) {
  const defined = await page.evaluate(() => typeof window.axe !== 'undefined');
  if (!defined) await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    // Every rule axe runs by default (WCAG 2.x A and AA, best practices),
    // and two it does not: a control's name starts with its visible text
    // (speech users say what they see), and targets of at least 24 px.
    const result = await window.axe.run(document, {
      resultTypes: ['violations'],
      rules: { 'label-content-name-mismatch': { enabled: true }, 'target-size': { enabled: true } },
    });
    return result.violations.map(v => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + (n.failureSummary ? ' — ' + n.failureSummary.split('\n').slice(1, 2).join('') : '')),
      more: Math.max(0, v.nodes.length - 3),
    }));
  });
  if (violations.length) {
    const lines = violations.map(v => `  ${v.id} (${v.impact}): ${v.help}\n` +
      v.nodes.map(n => `    at ${n}`).join('\n') + (v.more ? `\n    …and ${v.more} more` : ''));
    fail(`axe-core on ${screen}: ${violations.length} violation(s)\n${lines.join('\n')}`);
  }
  log(`axe-core: no violations on ${screen}`);
}

/**
 * Compares a screenshot of the page (or of `options.locator`) with the
 * baseline `name`. `options.mask`: locators painted over (clocks, random
 * names); `options.maxDiff`: the share of pixels that may differ (default
 * 1 %); `options.fullPage`.
 */
export async function checkScreenshot(page, name, options = {}) {
  const { mask = [], maxDiff = 0.01, fullPage = false, locator } = options;
  const shotOptions = { animations: 'disabled', caret: 'hide', mask, maskColor: '#ff00ff', scale: 'css' };
  const shot = locator ? await locator.screenshot(shotOptions) : await page.screenshot({ ...shotOptions, fullPage });
  const file = path.join(baselineDir, `${name}.png`);
  mkdirSync(outDir, { recursive: true });
  const update = process.env.E2E_UPDATE_BASELINES === '1';
  if (update || !existsSync(file)) {
    if (!update && process.env.CI === 'true') {
      writeFileSync(path.join(outDir, `${name}.png`), shot);
      fail(`no baseline for screen ${name}: review e2e/out/${name}.png and run with E2E_UPDATE_BASELINES=1`);
    }
    mkdirSync(baselineDir, { recursive: true });
    writeFileSync(file, shot);
    log(`baseline written: e2e/baselines/${name}.png (review it)`);
    return;
  }
  const expected = PNG.sync.read(readFileSync(file));
  const actual = PNG.sync.read(shot);
  if (expected.width !== actual.width || expected.height !== actual.height) {
    writeFileSync(path.join(outDir, `${name}.png`), shot);
    fail(`screen ${name} is ${actual.width}×${actual.height}, its baseline ${expected.width}×${expected.height} ` +
      `(new screenshot in e2e/out/${name}.png)`);
  }
  const diff = new PNG({ width: actual.width, height: actual.height });
  // threshold: how different one pixel's colour may be before it counts
  // (0.1 of pixelmatch's YIQ scale ignores anti-aliasing noise).
  const differing = pixelmatch(expected.data, actual.data, diff.data, actual.width, actual.height, { threshold: 0.1 });
  const share = differing / (actual.width * actual.height);
  if (share > maxDiff) {
    writeFileSync(path.join(outDir, `${name}.png`), shot);
    writeFileSync(path.join(outDir, `${name}.diff.png`), PNG.sync.write(diff));
    fail(`screen ${name} differs from its baseline in ${(share * 100).toFixed(2)} % of its pixels ` +
      `(at most ${(maxDiff * 100).toFixed(2)} %): see e2e/out/${name}.png and ${name}.diff.png`);
  }
  log(`screen ${name}: ${(share * 100).toFixed(2)} % of pixels differ from the baseline`);
}
