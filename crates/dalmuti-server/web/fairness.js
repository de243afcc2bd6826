// Provably fair deals, checked in the browser (docs/FAIRNESS.md).
//
// Each hand is dealt from a 32-byte seed. Before the deal the server
// publishes the seed's commitment, SHA-256 of its 32 bytes; after the hand
// it reveals the seed. This file deals the hand again from the seed, exactly
// as the Rust engine does (crates/dalmuti-core/src/{rng,deck}.rs), and
// checks the commitment, so a player can see that the cards they were dealt
// were fixed before anyone played.
//
// Plain JavaScript with no dependencies and no modules: a page loads it with
// <script src="/fairness.js">, which defines `DalmutiFairness`; Node loads it
// with require(). crates/dalmuti-server/web/test-fairness.mjs checks it
// against deals made by the Rust engine.
(function (root) {
  'use strict';

  // ---------------------------------------------------------------------
  // Hex

  var SEED_HEX = /^[0-9a-fA-F]{64}$/;

  /** 64 hex digits → 32 bytes. Throws a TypeError naming the problem. */
  function seedBytes(seedHex) {
    if (typeof seedHex !== 'string' || !SEED_HEX.test(seedHex)) {
      throw new TypeError('a seed is 64 hexadecimal digits, not ' + describe(seedHex));
    }
    var bytes = new Uint8Array(32);
    for (var i = 0; i < 32; i++) {
      bytes[i] = parseInt(seedHex.substr(2 * i, 2), 16);
    }
    return bytes;
  }

  /** Bytes → lowercase hex. */
  function toHex(bytes) {
    var out = '';
    for (var i = 0; i < bytes.length; i++) {
      out += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
    }
    return out;
  }

  /** A short description of a bad value, for error messages. */
  function describe(value) {
    if (value === null) return 'null';
    if (value === undefined) return 'nothing';
    if (typeof value === 'string') {
      return JSON.stringify(value.length > 70 ? value.slice(0, 70) + '…' : value);
    }
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    if (Array.isArray(value)) return 'an array';
    return 'a ' + typeof value;
  }

  // ---------------------------------------------------------------------
  // ChaCha8, as rand_chacha 0.9's ChaCha8Rng::from_seed: key = the seed,
  // 64-bit block counter from 0 (state words 12, 13), 64-bit nonce 0
  // (words 14, 15), 8 rounds; next_u32 reads each 16-word block in order.

  function rotl(v, n) {
    return (v << n) | (v >>> (32 - n));
  }

  function quarter(x, a, b, c, d) {
    x[a] += x[b]; x[d] = rotl(x[d] ^ x[a], 16);
    x[c] += x[d]; x[b] = rotl(x[b] ^ x[c], 12);
    x[a] += x[b]; x[d] = rotl(x[d] ^ x[a], 8);
    x[c] += x[d]; x[b] = rotl(x[b] ^ x[c], 7);
  }

  /**
   * The deal stream of a seed (`DealRng` in rng.rs).
   * @param {string} seedHex 64 hex digits
   */
  function DealRng(seedHex) {
    var key = seedBytes(seedHex);
    var state = new Uint32Array(16);
    state[0] = 0x61707865; // "expand 32-byte k"
    state[1] = 0x3320646e;
    state[2] = 0x79622d32;
    state[3] = 0x6b206574;
    for (var i = 0; i < 8; i++) {
      state[4 + i] = key[4 * i] | (key[4 * i + 1] << 8) | (key[4 * i + 2] << 16) | (key[4 * i + 3] << 24);
    }
    this.state = state; // words 12..15: counter low, counter high, nonce 0, 0
    this.block = new Uint32Array(16);
    this.index = 16;
  }

  DealRng.prototype.refill = function () {
    var x = new Uint32Array(this.state);
    for (var r = 0; r < 4; r++) { // 4 double rounds = ChaCha8
      quarter(x, 0, 4, 8, 12);
      quarter(x, 1, 5, 9, 13);
      quarter(x, 2, 6, 10, 14);
      quarter(x, 3, 7, 11, 15);
      quarter(x, 0, 5, 10, 15);
      quarter(x, 1, 6, 11, 12);
      quarter(x, 2, 7, 8, 13);
      quarter(x, 3, 4, 9, 14);
    }
    for (var i = 0; i < 16; i++) this.block[i] = x[i] + this.state[i];
    this.state[12] += 1;
    if (this.state[12] === 0) this.state[13] += 1;
    this.index = 0;
  };

  /** The next 32-bit word of the stream (rand_core's next_u32). */
  DealRng.prototype.nextU32 = function () {
    if (this.index >= 16) this.refill();
    return this.block[this.index++];
  };

  /**
   * A uniform number in 0..n without bias, Lemire's multiply-and-reject, as
   * rng.rs `below`: m = x·n (64 bits); if low32(m) < n, draw again while
   * low32(m) < (2^32 − n) mod n; the answer is high32(m).
   * @param {number} n 1 to 2^32 − 1
   */
  DealRng.prototype.below = function (n) {
    if (!(Number.isInteger(n) && n >= 1 && n <= 0xffffffff)) {
      throw new RangeError('below(n) needs n from 1 to 2^32 - 1, not ' + describe(n));
    }
    var m = mul32(this.nextU32(), n);
    if (m.lo < n) {
      var threshold = (0x100000000 - n) % n;
      while (m.lo < threshold) m = mul32(this.nextU32(), n);
    }
    return m.hi;
  };

  /** The 64-bit product of two u32 as {hi, lo}, exact (no float rounding). */
  function mul32(x, n) {
    var xh = x >>> 16;
    var xl = x & 0xffff;
    var low = xl * n; // < 2^48: exact
    var mid = xh * n + Math.floor(low / 0x10000); // < 2^49: exact
    return {
      hi: Math.floor(mid / 0x10000),
      lo: ((mid % 0x10000) * 0x10000 + (low % 0x10000)) >>> 0,
    };
  }

  /** Fisher–Yates from the last item down, as rng.rs `shuffle`. */
  DealRng.prototype.shuffle = function (items) {
    for (var i = items.length - 1; i >= 1; i--) {
      var j = this.below(i + 1);
      var t = items[i];
      items[i] = items[j];
      items[j] = t;
    }
    return items;
  };

  // ---------------------------------------------------------------------
  // The deck and the deal (deck.rs). Cards are numbers, the engine's card
  // indexes (card.rs), which are also the order a deck is laid out in and
  // the order hands are written in: 0 (Dogbert, World Ruler), 1 to 12, 13
  // the Jester, 14 the Twirling Wedgie, 15 Ratbert, 16 the Dogbert; written
  // "0".."12", "J", "T", "R", "D".

  var TOKENS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', 'J', 'T', 'R', 'D'];
  var KINDS = TOKENS.length;
  var JESTER = 13;
  var WORLD_RULER = 0;
  var TWIRLING_WEDGIE = 14;
  var RATBERT = 15;
  var DOGBERT = 16;

  /** The two games, by the word of rules.variant, and their table sizes. */
  var VARIANTS = {
    dalmuti: { name: 'The Great Dalmuti', most: 16 },
    'corporate-shuffle': { name: 'Corporate Shuffle', most: 8 },
  };

  /** The variant's word: undefined or null is Dalmuti. Throws on others. */
  function checkVariant(variant) {
    var word = variant == null ? 'dalmuti' : variant;
    if (!Object.prototype.hasOwnProperty.call(VARIANTS, word)) {
      throw new TypeError('the variant is "dalmuti" or "corporate-shuffle", not ' + describe(variant));
    }
    return word;
  }

  /** Why `players` cannot play `variant` (a word), or '' if they can. */
  function playersProblem(players, variant) {
    var most = VARIANTS[variant].most;
    if (Number.isInteger(players) && players >= 3 && players <= most) return '';
    return (variant === 'dalmuti' ? 'a hand' : 'a hand of ' + VARIANTS[variant].name) +
      ' has 3 to ' + most + ' players, not ' + describe(players);
  }

  /**
   * The deck a hand of `players` uses, laid out before the shuffle (by card
   * index). Dalmuti: rank r has r copies, then the two Jesters; with the
   * stripped deck, four players play without 11s and 12s, five without
   * 12s. Corporate Shuffle (60 cards, never stripped): the World Ruler, n
   * copies of each n from 1 to 10, the Twirling Wedgie, Ratbert and two
   * Dogberts.
   */
  function deckLayout(players, strippedDeck, variant) {
    var word = checkVariant(variant);
    var problem = playersProblem(players, word);
    if (problem) throw new RangeError(problem);
    var cards = [];
    var r, k;
    if (word === 'corporate-shuffle') {
      cards.push(WORLD_RULER);
      for (r = 1; r <= 10; r++) {
        for (k = 0; k < r; k++) cards.push(r);
      }
      cards.push(TWIRLING_WEDGIE, RATBERT, DOGBERT, DOGBERT);
      return cards;
    }
    var worstKept = 12;
    if (strippedDeck && players === 4) worstKept = 10;
    if (strippedDeck && players === 5) worstKept = 11;
    for (r = 1; r <= worstKept; r++) {
      for (k = 0; k < r; k++) cards.push(r);
    }
    cards.push(JESTER, JESTER);
    return cards;
  }

  /** Card counts (by card index) written as the project writes `Cards`. */
  function formatCounts(counts) {
    var tokens = [];
    for (var c = 0; c < KINDS; c++) {
      for (var k = 0; k < counts[c]; k++) tokens.push(TOKENS[c]);
    }
    return tokens.join(' ');
  }

  /**
   * Reads cards written as tokens ("1 3 3 J", any order, single spaces
   * or any whitespace) or given as an array of tokens. Returns counts by
   * card index. Throws a TypeError naming the bad token.
   */
  function parseCards(cards) {
    var tokens;
    if (Array.isArray(cards)) {
      tokens = cards.map(String);
    } else if (typeof cards === 'string') {
      tokens = cards.trim() === '' ? [] : cards.trim().split(/\s+/);
    } else {
      throw new TypeError('cards are a string like "1 3 3 J", not ' + describe(cards));
    }
    var counts = new Array(KINDS).fill(0);
    tokens.forEach(function (t) {
      var index = TOKENS.indexOf(t);
      if (index < 0) throw new TypeError(describe(t) + ' is not a card (0 to 12, J, T, R or D)');
      counts[index]++;
    });
    return counts;
  }

  /** Cards in the project's notation: the engine's order (numbers ascending, then J, T, R, D). */
  function normalizeCards(cards) {
    return formatCounts(parseCards(cards));
  }

  /**
   * The hand dealt from `seedHex` to `players` seats: the deck shuffled by
   * the seed's stream, then dealt one card at a time from seat 0 (the
   * Greater Dalmuti or Big Boss, before any greater revolution) clockwise.
   * `variant` is rules.variant ("dalmuti" when absent).
   * @returns {string[]} each seat's cards, e.g. "1 3 3 7 J J"
   */
  function dealFromSeed(seedHex, players, strippedDeck, variant) {
    var rng = new DealRng(seedHex);
    var cards = rng.shuffle(deckLayout(players, !!strippedDeck, variant));
    var hands = [];
    for (var s = 0; s < players; s++) hands.push(new Array(KINDS).fill(0));
    for (var i = 0; i < cards.length; i++) hands[i % players][cards[i]]++;
    return hands.map(formatCounts);
  }

  // ---------------------------------------------------------------------
  // SHA-256 (FIPS 180-4), for pages where crypto.subtle is missing: it is
  // only offered to secure origins (https, localhost), not to a server on a
  // LAN address over plain http.

  var K = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ]);

  function rotr(v, n) {
    return (v >>> n) | (v << (32 - n));
  }

  /** SHA-256 of `bytes` as lowercase hex, in pure JavaScript. */
  function sha256HexPure(bytes) {
    checkBytes(bytes);
    var len = bytes.length;
    var total = Math.ceil((len + 9) / 64) * 64;
    var msg = new Uint8Array(total);
    msg.set(bytes);
    msg[len] = 0x80;
    var bits = len * 8; // the length in bits, big-endian, in the last 8 bytes
    var view = new DataView(msg.buffer);
    view.setUint32(total - 8, Math.floor(bits / 0x100000000));
    view.setUint32(total - 4, bits >>> 0);
    var h = new Uint32Array([
      0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]);
    var w = new Uint32Array(64);
    var v = new Uint32Array(8);
    for (var off = 0; off < total; off += 64) {
      for (var t = 0; t < 16; t++) w[t] = view.getUint32(off + 4 * t);
      for (t = 16; t < 64; t++) {
        var s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >>> 3);
        var s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >>> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
      }
      v.set(h);
      for (t = 0; t < 64; t++) {
        var e = v[4];
        var a = v[0];
        var t1 = v[7] + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & v[5]) ^ (~e & v[6])) + K[t] + w[t];
        var t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & v[1]) ^ (a & v[2]) ^ (v[1] & v[2]));
        v[7] = v[6]; v[6] = v[5]; v[5] = v[4];
        v[4] = v[3] + (t1 >>> 0);
        v[3] = v[2]; v[2] = v[1]; v[1] = v[0];
        v[0] = (t1 >>> 0) + (t2 >>> 0);
      }
      for (t = 0; t < 8; t++) h[t] += v[t];
    }
    var out = new Uint8Array(32);
    var outView = new DataView(out.buffer);
    for (t = 0; t < 8; t++) outView.setUint32(4 * t, h[t]);
    return toHex(out);
  }

  function checkBytes(bytes) {
    // Not `instanceof`: an array made in another frame is still bytes.
    if (Object.prototype.toString.call(bytes) !== '[object Uint8Array]') {
      throw new TypeError('SHA-256 takes a Uint8Array, not ' + describe(bytes));
    }
  }

  /**
   * SHA-256 of `bytes` as lowercase hex: crypto.subtle where the page has
   * it, else the pure-JavaScript fallback. Rejects only if `bytes` is not a
   * Uint8Array.
   * @param {Uint8Array} bytes
   * @returns {Promise<string>}
   */
  function sha256Hex(bytes) {
    try {
      checkBytes(bytes);
    } catch (e) {
      return Promise.reject(e);
    }
    var subtle = root.crypto && root.crypto.subtle;
    if (!subtle || typeof subtle.digest !== 'function') {
      return Promise.resolve(sha256HexPure(bytes));
    }
    return Promise.resolve()
      .then(function () {
        return subtle.digest('SHA-256', bytes);
      })
      .then(
        function (digest) {
          return toHex(new Uint8Array(digest));
        },
        function () {
          return sha256HexPure(bytes);
        }
      );
  }

  /** The commitment to a seed: SHA-256 of its 32 bytes, as 64 hex digits. */
  function commitmentOf(seedHex) {
    try {
      return sha256Hex(seedBytes(seedHex));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  // ---------------------------------------------------------------------
  // Checking one hand

  /**
   * Checks that `seed` is the seed behind `commitment` and that it deals
   * `dealt` to seat `seat` of a hand of `players` (with the stripped-deck
   * rule on or off), in the game `variant` (rules.variant: "dalmuti", the
   * default, or "corporate-shuffle"). Never rejects: bad input is a
   * verdict with a reason.
   *
   * `seat` is the seat at the deal: the place in the hand's seating before
   * any greater revolution (0 = the Greater Dalmuti as dealt). A greater
   * revolution reverses the seats for play, so the player at seat of play
   * s was dealt as seat `players - 1 - s`. `dealt` is the cards as dealt,
   * before taxes and exchanges, in any order.
   * @param {{seed: string, commitment: string, players: number,
   *          strippedDeck: boolean, variant: (string|undefined), seat: number,
   *          dealt: string|string[]}} hand
   * @returns {Promise<{ok: boolean, reason: string}>}
   */
  function verifyHand(hand) {
    var no = function (reason) {
      return Promise.resolve({ ok: false, reason: reason });
    };
    if (!hand || typeof hand !== 'object') return no('nothing to verify');
    var seed = hand.seed;
    var commitment = hand.commitment;
    var players = hand.players;
    var seat = hand.seat;
    if (seed === null || seed === undefined) {
      return no('the seed is not revealed yet: it is revealed when the hand is over');
    }
    if (typeof seed !== 'string' || !SEED_HEX.test(seed)) {
      return no('the seed should be 64 hexadecimal digits, not ' + describe(seed));
    }
    if (typeof commitment !== 'string' || !SEED_HEX.test(commitment)) {
      return no('the commitment should be 64 hexadecimal digits, not ' + describe(commitment));
    }
    var variant;
    try {
      variant = checkVariant(hand.variant);
    } catch (e) {
      return no(e.message);
    }
    var problem = playersProblem(players, variant);
    if (problem) return no(problem);
    if (!(Number.isInteger(seat) && seat >= 0 && seat < players)) {
      return no('seat should be 0 to ' + (players - 1) + ', not ' + describe(seat));
    }
    var recorded;
    try {
      recorded = normalizeCards(hand.dealt);
    } catch (e) {
      return no('the dealt cards: ' + e.message);
    }
    return sha256Hex(seedBytes(seed)).then(
      function (hash) {
        if (hash !== commitment.toLowerCase()) {
          return {
            ok: false,
            reason:
              'the seed does not match its commitment: SHA-256 of the seed is ' + hash +
              ', the commitment published before the deal is ' + commitment.toLowerCase(),
          };
        }
        var expected = dealFromSeed(seed, players, !!hand.strippedDeck, variant)[seat];
        if (expected !== recorded) {
          return {
            ok: false,
            reason:
              'the seed matches its commitment but deals seat ' + seat + ' "' + expected +
              '", not the "' + recorded + '" dealt',
          };
        }
        return {
          ok: true,
          reason:
            'the seed matches the commitment published before the deal and deals exactly these cards to seat ' +
            seat,
        };
      },
      function (e) {
        return { ok: false, reason: 'could not compute SHA-256: ' + (e && e.message) };
      }
    );
  }

  var api = {
    dealFromSeed: dealFromSeed,
    sha256Hex: sha256Hex,
    verifyHand: verifyHand,
    commitmentOf: commitmentOf,
    // Building blocks, for tests and anyone reimplementing the scheme.
    sha256HexPure: sha256HexPure,
    DealRng: DealRng,
    deckLayout: deckLayout,
    parseCards: parseCards,
    normalizeCards: normalizeCards,
    seedBytes: seedBytes,
  };
  root.DalmutiFairness = api;
  if (typeof module !== 'undefined' && module.exports) module.exports = api;
})(typeof globalThis !== 'undefined' ? globalThis : this);
