// The games this server seats. The menus that choose a game (the create
// form, Play now, the queue, the leaderboard) are filled from one list
// here; each game's table sizes and the named rule sets of President and
// Daifugō come from the server (GET /api/games, the engine's own), so no
// rule set is copied into the page.

import { $, el } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';

/**
 * Every game, in the menus' order: its variant, and the create form's
 * longer label (which says the deck and table sizes).
 */
const GAMES = [
  { variant: 'dalmuti', long: 'dalmuti.game' },
  { variant: 'corporate-shuffle', long: 'web.html.corporate-option' },
  { variant: 'president', long: 'web.create.president-option' },
  { variant: 'daifugo', long: 'web.create.daifugo-option' },
];

/** The menus that choose a game, and whether each shows the long labels. */
const MENUS = [['c-variant', true], ['q-game', false], ['queue-game', false], ['lb-game', false]];

/** Fills every game menu from the one list, keeping what each had chosen. */
export function fillGameMenus() {
  for (const [id, long] of MENUS) {
    const select = $(id);
    const chosen = select.value || GAMES[0].variant;
    select.replaceChildren(...GAMES.map(({ variant, long: longKey }) => {
      const key = long ? longKey : variant + '.game';
      return el('option', { value: variant, 'data-i18n': key }, t(key));
    }));
    select.value = chosen;
  }
}

let offered = null;

/**
 * What the server offers, by variant: `{ variant, fewest, most, presets:
 * [{ name, climbing }] }` (docs/PROTOCOL.md, `GET /api/games`). Asked once;
 * asked again after a failure.
 */
export function loadGames() {
  if (!offered) {
    offered = api('GET', '/api/games').then(
      answer => new Map(answer.games.map(game => [game.variant, game])),
      e => { offered = null; throw e; });
  }
  return offered;
}
