// Words the browser client makes from the catalogues, checked in Node
// without a browser: Korean particles chosen by the word before them.
//
//     node crates/dalmuti-server/web/test-words.mjs

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { i18n, t } from './js/i18n.js';

const catalogue = JSON.parse(readFileSync(new URL('../../dalmuti-i18n/locales/ko.web.json', import.meta.url), 'utf8'));
i18n.lang = 'ko';
i18n.messages = catalogue;

const cases = [
  // A word ending in a vowel, in a consonant, in ㄹ; a number read 이 (no
  // final consonant) and 일 (ㄹ); a Latin name, whose reading is unknown.
  ['web.pile.revolution', { name: '민지', revolution: '혁명' }, '민지가 혁명을 선언했습니다.'],
  ['web.pile.revolution', { name: '지훈', revolution: '대혁명' }, '지훈이 대혁명을 선언했습니다.'],
  ['web.banner.tax', { gave: '12 12', got: '1' }, '12 12를 주고 1을 받았습니다.'],
  ['web.pile.revolution', { name: 'Ada', revolution: '혁명' }, 'Ada이(가) 혁명을 선언했습니다.'],
  ['web.gameover.tie-break', { name: '민지', other: '서울' }, '서울과 점수가 같습니다. 동점은 마지막 핸드의 순위로 정하며, 민지가 먼저 났습니다.'],
];
let failed = 0;
for (const [key, args, want] of cases) {
  const got = t(key, args);
  try {
    assert.equal(got, want);
  } catch (_) {
    failed++;
    console.log(`FAIL ${key} ${JSON.stringify(args)}: got "${got}", want "${want}"`);
  }
}
console.log(failed ? `test result: FAILED. ${cases.length - failed} passed; ${failed} failed; (browser words: Korean particles)`
  : `test result: ok. ${cases.length} passed; 0 failed; (browser words: Korean particles)`);
process.exit(failed ? 1 : 0);
