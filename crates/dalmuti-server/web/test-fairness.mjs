// Checks fairness.js (the browser's deal verifier) against the Rust engine:
// its deals must be the engine's deals to the card, its SHA-256 the real one.
//
//     node crates/dalmuti-server/web/test-fairness.mjs
//
// Needs only Node (18 or later), no packages. The engine's deals come from
// crates/dalmuti-core/tests/data/golden-deals.txt (the core's pinned deals)
// and fairness-fixture.json beside this file (written by the Rust test
// crates/dalmuti/tests/verify.rs, which also checks it is up to date).
// Prints one line per test and "test result: ok. N passed; M failed;" like
// cargo test; exits 1 if any test fails.

import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const F = require('./fairness.js');
const source = readFileSync(join(here, 'fairness.js'), 'utf8');
const fixture = JSON.parse(readFileSync(join(here, 'fairness-fixture.json'), 'utf8'));
const golden = readFileSync(join(here, '../../dalmuti-core/tests/data/golden-deals.txt'), 'utf8');

const tests = [];
const test = (name, fn) => tests.push({ name, fn });

/** The seed `Seed::from(n)`: n as 8 little-endian bytes, then zeros. */
function seedFromU64(n) {
  const bytes = Buffer.alloc(32);
  bytes.writeBigUInt64LE(BigInt(n));
  return bytes.toString('hex');
}

const nodeSha = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** fairness.js loaded as a page loads it: a plain script, no `module`. */
function loadAsBrowserScript(globals) {
  const context = vm.createContext({ ...globals });
  vm.runInContext(source, context, { filename: 'fairness.js' });
  return context.DalmutiFairness;
}

// ---------------------------------------------------------------------------
// Deals

test('golden deals of dalmuti-core (tests/data/golden-deals.txt)', () => {
  const blocks = golden.split('\n\n').filter((b) => b.trim() !== '');
  assert.ok(blocks.length >= 3, 'golden-deals.txt has at least 3 deals');
  for (const block of blocks) {
    const [header, ...hands] = block.trim().split('\n');
    const m = /^seed (\d+) players (\d+)$/.exec(header);
    assert.ok(m, `header "${header}" reads "seed S players N"`);
    const players = Number(m[2]);
    // The golden deals use the standard deck whatever the table size.
    assert.deepEqual(F.dealFromSeed(seedFromU64(m[1]), players, false), hands, header);
  }
});

test('every table size, with and without the stripped deck, and Corporate Shuffle (fixture)', () => {
  assert.equal(fixture.deals.length, 36);
  for (const d of fixture.deals) {
    const what = `seed ${d.seed}, ${d.players} players, stripped ${d.stripped_deck}, ${d.variant || 'dalmuti'}`;
    assert.deepEqual(F.dealFromSeed(d.seed, d.players, d.stripped_deck, d.variant), d.hands, what);
  }
  const cs = fixture.deals.filter((d) => d.variant === 'corporate-shuffle');
  assert.deepEqual(cs.map((d) => d.players), [3, 4, 5, 6, 7, 8]);
});

test('Corporate Shuffle deals its own 60 cards, never stripped, to 3 to 8 players', () => {
  const deck = F.deckLayout(5, false, 'corporate-shuffle');
  assert.equal(deck.length, 60);
  assert.deepEqual(F.deckLayout(5, true, 'corporate-shuffle'), deck, 'the stripped deck is Dalmuti\'s only');
  const all = F.dealFromSeed(seedFromU64(7), 4, false, 'corporate-shuffle').join(' ');
  const tokens = '0 1 2 3 4 5 6 7 8 9 10 11 12 J T R D'.split(' ');
  assert.equal(F.normalizeCards(all), F.normalizeCards(deck.map((i) => tokens[i])));
  const count = (t) => all.split(' ').filter((c) => c === t).length;
  assert.deepEqual(['0', '1', '10', 'T', 'R', 'D', 'J', '11', '12'].map(count), [1, 1, 10, 1, 1, 2, 0, 0, 0]);
  // Hands are written in the engine's order: numbers, then T, R, D.
  const order = '0 1 2 3 4 5 6 7 8 9 10 11 12 J T R D'.split(' ');
  for (const hand of F.dealFromSeed(seedFromU64(2026), 3, false, 'corporate-shuffle')) {
    const places = hand.split(' ').map((t) => order.indexOf(t));
    assert.ok(places.every((p) => p >= 0), hand);
    assert.deepEqual(places, [...places].sort((a, b) => a - b), hand);
  }
  assert.equal(F.normalizeCards('D R 10 T 0 3'), '0 3 10 T R D');
  assert.throws(() => F.deckLayout(9, false, 'corporate-shuffle'), /Corporate Shuffle has 3 to 8 players, not 9/);
  assert.throws(() => F.dealFromSeed(seedFromU64(1), 5, false, 'uno'), /"dalmuti" or "corporate-shuffle", not "uno"/);
});

test('the stripped deck has 57 cards for four, 68 for five, 80 otherwise', () => {
  const size = (players, stripped) => F.deckLayout(players, stripped).length;
  assert.equal(size(4, true), 57);
  assert.equal(size(5, true), 68);
  assert.equal(size(6, true), 80);
  assert.equal(size(4, false), 80);
  const four = F.dealFromSeed(seedFromU64(1), 4, true).join(' ').split(' ');
  assert.ok(!four.includes('11') && !four.includes('12'), 'no 11s or 12s with four');
  const five = F.dealFromSeed(seedFromU64(1), 5, true).join(' ').split(' ');
  assert.ok(five.includes('11') && !five.includes('12'), '11s but no 12s with five');
});

test('cards are written as the engine writes them: ranks ascending, Jesters last', () => {
  for (const hand of F.dealFromSeed(seedFromU64(2026), 3, false)) {
    assert.match(hand, /^(?:(?:[1-9]|1[0-2]|J)(?: |$))+$/);
    const ranks = hand.split(' ').map((t) => (t === 'J' ? 13 : Number(t)));
    assert.deepEqual(ranks, [...ranks].sort((a, b) => a - b));
  }
  assert.equal(F.normalizeCards('J 7 3 1 3 J'), '1 3 3 7 J J');
  assert.equal(F.normalizeCards(['12', 'J', '1']), '1 12 J');
});

test('the stream is ChaCha8: the published vector for a zero key and nonce', () => {
  // eSTREAM / Bernstein ChaCha8, 256-bit key of zeros, IV 0, block 0.
  const rng = new F.DealRng('0'.repeat(64));
  const block = Buffer.alloc(64);
  for (let i = 0; i < 16; i++) block.writeUInt32LE(rng.nextU32(), 4 * i);
  assert.equal(
    block.toString('hex'),
    '3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e' +
      '984ce172b9216f419f445367456d5619314a42a3da86b001387bfdb80e0cfe42'
  );
});

test('below(n) draws what the engine draws, rejection loop included (fixture)', () => {
  const rng = new F.DealRng(fixture.below_seed);
  assert.ok(fixture.below.length >= 200);
  fixture.below.forEach(([n, value], i) => {
    assert.equal(rng.below(n), value, `call ${i}: below(${n})`);
  });
});

test('bad arguments are refused with a reason, not dealt', () => {
  assert.throws(() => F.dealFromSeed('abc', 5, false), /64 hexadecimal digits/);
  assert.throws(() => F.dealFromSeed('zz'.repeat(32), 5, false), /64 hexadecimal digits/);
  assert.throws(() => F.dealFromSeed(seedFromU64(1), 2, false), /3 to 16 players, not/);
  assert.throws(() => F.dealFromSeed(seedFromU64(1), 17, false), /3 to 16 players/);
  assert.throws(() => F.dealFromSeed(seedFromU64(1), '5', false), /3 to 16 players/);
  assert.throws(() => new F.DealRng(seedFromU64(1)).below(0), /below\(n\) needs n from 1/);
  assert.throws(() => F.parseCards('1 13'), /"13" is not a card/);
  assert.throws(() => F.parseCards('6 X'), /"X" is not a card \(0 to 12, J, T, R or D\)/);
});

// ---------------------------------------------------------------------------
// SHA-256

const VECTORS = [
  ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  [
    'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
    '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
  ],
  [
    'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
    'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1',
  ],
  ['a'.repeat(1000000), 'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0'],
];

test('SHA-256 (pure JavaScript) gives the FIPS 180-2 vectors', () => {
  for (const [text, digest] of VECTORS) {
    assert.equal(F.sha256HexPure(new TextEncoder().encode(text)), digest, `${text.length} bytes`);
  }
});

test('SHA-256 (pure JavaScript) agrees with node:crypto at every padding boundary', () => {
  for (let len = 0; len <= 300; len++) {
    const bytes = new Uint8Array(randomBytes(len));
    assert.equal(F.sha256HexPure(bytes), nodeSha(bytes), `${len} bytes`);
  }
});

test('sha256Hex uses crypto.subtle where there is one, and agrees', async () => {
  assert.ok(globalThis.crypto && globalThis.crypto.subtle, 'this Node has crypto.subtle');
  for (const [text, digest] of VECTORS.slice(0, 4)) {
    assert.equal(await F.sha256Hex(new TextEncoder().encode(text)), digest);
  }
});

test('loaded as a page script without crypto.subtle (plain http), it falls back', async () => {
  const bare = loadAsBrowserScript({}); // no crypto, no module: a LAN page over http
  assert.equal(typeof bare.verifyHand, 'function');
  for (const [text, digest] of VECTORS.slice(0, 4)) {
    assert.equal(await bare.sha256Hex(new TextEncoder().encode(text)), digest);
  }
  const d = fixture.deals[3];
  assert.deepEqual([...bare.dealFromSeed(d.seed, d.players, d.stripped_deck)], d.hands);
  const verdict = await bare.verifyHand({
    seed: d.seed, commitment: d.commitment, players: d.players,
    strippedDeck: d.stripped_deck, seat: 0, dealt: d.hands[0],
  });
  assert.equal(verdict.ok, true, verdict.reason);
  // A page whose crypto.subtle refuses (some browsers on odd origins).
  const refusing = loadAsBrowserScript({
    crypto: { subtle: { digest: () => Promise.reject(new Error('insecure origin')) } },
  });
  assert.equal(await refusing.sha256Hex(new Uint8Array(0)), VECTORS[0][1]);
});

test('commitments are SHA-256 of the 32 seed bytes, as the server makes them', async () => {
  for (const d of fixture.deals) {
    assert.equal(await F.commitmentOf(d.seed), d.commitment);
    assert.equal(F.sha256HexPure(F.seedBytes(d.seed)), d.commitment);
  }
});

test('sha256Hex refuses anything but a Uint8Array', async () => {
  await assert.rejects(F.sha256Hex('abc'), /Uint8Array/);
  await assert.rejects(F.sha256Hex(null), /Uint8Array/);
});

// ---------------------------------------------------------------------------
// verifyHand

const d = fixture.deals.find((x) => x.players === 5 && x.stripped_deck);
const hand = (over) => ({
  seed: d.seed, commitment: d.commitment, players: 5, strippedDeck: true, seat: 2,
  dealt: d.hands[2], ...over,
});

test('verifyHand accepts the true deal, for every seat, in any card order', async () => {
  for (let seat = 0; seat < 5; seat++) {
    const v = await F.verifyHand(hand({ seat, dealt: d.hands[seat] }));
    assert.deepEqual(v, {
      ok: true,
      reason: `the seed matches the commitment published before the deal and deals exactly these cards to seat ${seat}`,
    });
  }
  const shuffled = d.hands[2].split(' ').reverse();
  assert.equal((await F.verifyHand(hand({ dealt: shuffled }))).ok, true);
  assert.equal((await F.verifyHand(hand({ dealt: shuffled.join(' ') }))).ok, true);
  assert.equal((await F.verifyHand(hand({ seed: d.seed.toUpperCase() }))).ok, true);
});

test('verifyHand refuses another seed, naming both hashes', async () => {
  const other = fixture.deals.find((x) => x !== d);
  const v = await F.verifyHand(hand({ seed: other.seed }));
  assert.deepEqual(v, {
    ok: false,
    reason: `the seed does not match its commitment: SHA-256 of the seed is ${other.commitment}, the commitment published before the deal is ${d.commitment}`,
  });
});

test('verifyHand refuses a changed commitment', async () => {
  const bad = (d.commitment[0] === '0' ? '1' : '0') + d.commitment.slice(1);
  const v = await F.verifyHand(hand({ commitment: bad }));
  assert.equal(v.ok, false);
  assert.match(v.reason, /^the seed does not match its commitment/);
});

test('verifyHand refuses cards the seed did not deal, even with a matching seed', async () => {
  // One card swapped with another seat's.
  const mine = d.hands[2].split(' ');
  const theirs = d.hands[3].split(' ');
  const give = mine[0];
  const take = theirs.find((c) => c !== give);
  const swapped = [take, ...mine.slice(1)];
  const v = await F.verifyHand(hand({ dealt: swapped }));
  assert.deepEqual(v, {
    ok: false,
    reason: `the seed matches its commitment but deals seat 2 "${d.hands[2]}", not the "${F.normalizeCards(swapped)}" dealt`,
  });
  // The right cards at the wrong seat, and the wrong deck rule.
  assert.equal((await F.verifyHand(hand({ seat: 1 }))).ok, false);
  assert.equal((await F.verifyHand(hand({ strippedDeck: false }))).ok, false);
  assert.equal((await F.verifyHand(hand({ dealt: mine.slice(1) }))).ok, false);
});

test('verifyHand checks a Corporate Shuffle deal with its variant, and only with it', async () => {
  const c = fixture.deals.find((x) => x.variant === 'corporate-shuffle' && x.players === 5);
  const csHand = (over) => ({
    seed: c.seed, commitment: c.commitment, players: 5, variant: 'corporate-shuffle', seat: 1,
    dealt: c.hands[1], ...over,
  });
  for (let seat = 0; seat < 5; seat++) {
    const v = await F.verifyHand(csHand({ seat, dealt: c.hands[seat].split(' ').reverse() }));
    assert.equal(v.ok, true, v.reason);
  }
  // The same seed, read as Dalmuti, deals other cards.
  const asDalmuti = await F.verifyHand(csHand({ variant: undefined }));
  assert.equal(asDalmuti.ok, false);
  assert.match(asDalmuti.reason, /^the seed matches its commitment but deals seat 1/);
  const v = await F.verifyHand(csHand({ players: 9 }));
  assert.deepEqual(v, { ok: false, reason: 'a hand of Corporate Shuffle has 3 to 8 players, not 9' });
  const bad = await F.verifyHand(csHand({ variant: 'uno' }));
  assert.equal(bad.ok, false);
  assert.match(bad.reason, /the variant is "dalmuti" or "corporate-shuffle", not "uno"/);
});

test('verifyHand never throws or rejects: bad input is a verdict with a reason', async () => {
  const cases = [
    [undefined, /nothing to verify/],
    [hand({ seed: null }), /not revealed yet/],
    [hand({ seed: 'abc' }), /seed should be 64 hexadecimal digits, not "abc"/],
    [hand({ seed: 42 }), /seed should be 64 hexadecimal digits, not 42/],
    [hand({ commitment: undefined }), /commitment should be 64 hexadecimal digits/],
    [hand({ players: 2 }), /3 to 16 players, not 2/],
    [hand({ players: '5' }), /3 to 16 players/],
    [hand({ seat: 5 }), /seat should be 0 to 4, not 5/],
    [hand({ seat: -1 }), /seat should be 0 to 4/],
    [hand({ dealt: '1 2 X' }), /the dealt cards: "X" is not a card/],
    [hand({ dealt: 7 }), /the dealt cards: cards are a string/],
  ];
  for (const [input, reason] of cases) {
    const v = await F.verifyHand(input);
    assert.equal(v.ok, false, JSON.stringify(input));
    assert.match(v.reason, reason);
  }
});

// ---------------------------------------------------------------------------

let passed = 0;
let failed = 0;
for (const { name, fn } of tests) {
  try {
    await fn();
    passed++;
    console.log(`test ${name} ... ok`);
  } catch (e) {
    failed++;
    console.log(`test ${name} ... FAILED\n${e && e.stack ? e.stack : e}`);
  }
}
console.log(`\ntest result: ${failed ? 'FAILED' : 'ok'}. ${passed} passed; ${failed} failed; (fairness.js)`);
process.exitCode = failed ? 1 : 0;
