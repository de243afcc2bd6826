// Players' pages: a profile (#/p/NAME: games per game, places, ratings
// with a small plot, the last games with their replays) and the
// leaderboard (#/leaderboard: the best ratings of a game and table size,
// bot levels among the players). Everything comes from GET
// /api/players/NAME and GET /api/leaderboard (docs/PROTOCOL.md, Players).

import { $, el, show, setError } from './dom.js';
import { t, tn, i18n, ordinal } from './i18n.js';
import { api } from './api.js';
import { nav } from './state.js';
import { gameName, botName, tableName } from './words.js';
import { me as keptPlayer } from './player.js';
import { fmt, ratingText, ratingNode } from './rating.js';

function when(ms) {
  try {
    return new Intl.DateTimeFormat(i18n.lang, { dateStyle: 'medium' }).format(new Date(ms));
  } catch (_) {
    return new Date(ms).toISOString().slice(0, 10);
  }
}

/** Link to a player's profile. */
export function profileHref(name) {
  return '#/p/' + encodeURIComponent(name);
}

/** Shows the profile of `name`. */
export async function showProfile(name) {
  document.title = t('web.players.profile-title', { name });
  $('pl-title').textContent = name;
  const body = $('pl-body');
  body.replaceChildren();
  setError($('pl-error'), '');
  let profile;
  try {
    profile = await api('GET', '/api/players/' + encodeURIComponent(name));
  } catch (e) {
    if (nav.route.view !== 'profile') return;
    setError($('pl-error'), e.status === 404 ? t('web.players.not-found') : e.message);
    return;
  }
  if (nav.route.view !== 'profile' || nav.route.name !== name) return;
  $('pl-title').textContent = profile.name;
  body.append(el('p', { class: 'muted' }, t('web.players.since', { date: when(profile.since) })));
  if (!profile.games.length) {
    body.append(el('p', { 'data-testid': 'profile-no-games' }, t('web.players.no-games')));
    return;
  }
  for (const g of profile.games) {
    const places = g.places.map((n, i) => `${ordinal(i + 1)}: ${n}`).join(' · ');
    body.append(el('p', { 'data-testid': 'profile-games' },
      // A game's name is one word to the eye: never broken inside.
      el('strong', { class: 'nobr' }, gameName(g.game)), ' ', tn('web.players.played', g.played), ' — ', places));
  }
  if (profile.ratings.length) {
    body.append(el('h2', null, t('web.players.ratings')), ratingTable(profile.ratings, false),
      el('p', { class: 'muted small-note' }, t('web.players.rating-note')));
    for (const r of profile.ratings) {
      const figure = plot(r, profile.recent);
      if (figure) body.append(figure);
    }
  }
  body.append(el('h2', null, t('web.players.recent')),
    el('ul', { class: 'table-list', 'data-testid': 'profile-recent' }, profile.recent.map(g => el('li', null,
      // A private table's address is shown to its own player only.
      g.table ? el('a', { href: '#/replay/' + encodeURIComponent(g.table) }, tableName({ name: g.table_name, default_name: g.default_name }))
        : el('span', { class: 'muted' }, t('web.players.private-game')), ' · ',
      el('span', { class: 'nobr' }, gameName(g.game)), ' · ', t('web.players.place-of', { place: ordinal(g.place), players: g.players }),
      g.rated ? ' · ' + t('web.players.rated') : '', ' · ', when(g.at)))));
}

/** A table of ratings; on the leaderboard, ranked and linked. */
function ratingTable(rows, board) {
  const head = el('tr', null,
    board ? el('th', { scope: 'col' }, '#') : null,
    el('th', { scope: 'col' }, board ? t('web.players.player') : t('web.players.game')),
    board ? null : el('th', { scope: 'col' }, t('web.players.band')),
    el('th', { scope: 'col' }, t('web.players.rating')),
    el('th', { scope: 'col' }, t('web.players.uncertainty')),
    el('th', { scope: 'col' }, t('web.players.games')));
  const body = rows.map((r, i) => el('tr', { 'data-testid': board ? 'board-row' : 'rating-row' },
    board ? el('td', null, String(i + 1)) : null,
    board
      ? el('td', null, r.bot
        ? [botName(r.name), ' ', el('span', { class: 'muted' }, '(' + t('web.players.bot') + ')')]
        : el('a', { href: profileHref(r.name) }, r.name))
      : el('td', null, el('span', { class: 'nobr' }, gameName(r.game))),
    board ? null : el('td', null, r.band),
    el('td', null, ratingNode(r.rating)),
    el('td', null, '± ' + fmt(r.rating.sigma)),
    el('td', null, String(r.games))));
  return el('table', { class: 'ratings' }, el('thead', null, head), el('tbody', null, body));
}

const SVG = 'http://www.w3.org/2000/svg';

function svgEl(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text != null) node.textContent = text;
  return node;
}

/**
 * The rating of one game and table size after each of its rated games
 * in the list, oldest first, from the newcomer's 25 when the list holds
 * them all: a line with its axes, the values at the ends and the games
 * counted along the bottom. Null when no rated game of it is listed.
 */
function plot(rating, recent) {
  const games = recent.filter(g => g.rating && g.game === rating.game && g.band === rating.band).reverse();
  if (!games.length) return null;
  // The whole history is listed: it starts where every newcomer does.
  const whole = games.length === rating.games;
  const first = whole ? 0 : rating.games - games.length;
  const points = (whole ? [{ mu: 25, n: 0 }] : []).concat(games.map((g, i) => ({ mu: g.rating.mu, n: first + i + 1 })));
  const W = 340, H = 150, L = 40, R = 14, T = 12, B = 30;
  const mus = points.map(p => p.mu);
  let lo = Math.floor(Math.min(...mus) - 1), hi = Math.ceil(Math.max(...mus) + 1);
  if (hi - lo < 4) { lo -= 2; hi += 2; }
  const ns = points.map(p => p.n);
  const n0 = Math.min(...ns), n1 = Math.max(...ns);
  const x = n => L + (n1 === n0 ? (W - L - R) / 2 : ((n - n0) * (W - L - R)) / (n1 - n0));
  const y = mu => T + ((hi - mu) * (H - T - B)) / (hi - lo);
  const svg = svgEl('svg', { viewBox: `0 0 ${W} ${H}`, class: 'rating-plot', role: 'img',
    'aria-label': t('web.players.plot-label', { game: gameName(rating.game), band: rating.band, from: fmt(points[0].mu),
      to: ratingText(rating.rating), games: rating.games }) });
  svg.dataset.testid = 'rating-plot';
  // Axes, a guide at each labelled value, the values.
  svg.append(svgEl('line', { x1: L, y1: T, x2: L, y2: H - B, class: 'axis' }),
    svgEl('line', { x1: L, y1: H - B, x2: W - R, y2: H - B, class: 'axis' }));
  for (const v of [lo, Math.round((lo + hi) / 2), hi]) {
    svg.append(svgEl('line', { x1: L, y1: y(v), x2: W - R, y2: y(v), class: 'guide' }),
      svgEl('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'tick' }, String(v)));
  }
  for (const n of n1 === n0 ? [n0] : [n0, n1]) {
    svg.append(svgEl('text', { x: x(n), y: H - B + 16, 'text-anchor': 'middle', class: 'tick' },
      n === 0 ? t('web.players.plot-start') : String(n)));
  }
  svg.append(svgEl('text', { x: (L + W - R) / 2, y: H - 2, 'text-anchor': 'middle', class: 'tick axis-label' },
    t('web.players.plot-games')));
  svg.append(svgEl('polyline', { points: points.map(p => `${x(p.n).toFixed(1)},${y(p.mu).toFixed(1)}`).join(' ') }));
  for (const p of points) svg.append(svgEl('circle', { cx: x(p.n).toFixed(1), cy: y(p.mu).toFixed(1), r: 3 }));
  const last = points[points.length - 1];
  svg.append(svgEl('text', { x: Math.min(x(last.n), W - R - 2), y: y(last.mu) - 8, 'text-anchor': 'end', class: 'tick last' },
    ratingText(rating.rating)));
  return el('figure', { class: 'rating-figure' }, svg,
    el('figcaption', { class: 'muted' }, t('web.players.plot', { game: gameName(rating.game), band: rating.band })));
}

/** Shows the leaderboard of the game and band chosen. */
export async function showLeaderboard() {
  document.title = t('web.players.leaderboard');
  setError($('lb-error'), '');
  const game = $('lb-game').value, band = $('lb-band').value;
  const current = () =>
    nav.route.view === 'leaderboard' && $('lb-game').value === game && $('lb-band').value === band;
  let board;
  try {
    board = await api('GET', `/api/leaderboard?game=${encodeURIComponent(game)}&band=${encodeURIComponent(band)}`);
  } catch (e) {
    if (current()) setError($('lb-error'), e.message);
    return;
  }
  // Answers can arrive out of order (the page's first request and a band
  // chosen at once): only the answer to what is chosen now is shown.
  if (!current()) return;
  const rows = board.ratings || [];
  $('lb-body').replaceChildren(rows.length
    ? ratingTable(rows, true)
    : el('p', { class: 'muted', 'data-testid': 'board-empty' }, t('web.players.board-empty')));
}

/** Whether the player chose the leaderboard's table size themselves. */
let bandByHand = false;

/**
 * The table size the player who kept a name has played `game` at most
 * (their ratings), or null: the leaderboard opens there, where they are.
 */
async function playersBand(game) {
  const player = keptPlayer();
  if (!player) return null;
  try {
    const profile = await api('GET', '/api/players/' + encodeURIComponent(player.name), undefined, undefined, player.secret);
    const mine = (profile.ratings || []).filter(r => r.game === game).sort((a, b) => b.games - a.games);
    return mine.length ? mine[0].band : null;
  } catch (_) {
    return null;
  }
}

/** The leaderboard, at the player's own table size unless they chose another. */
async function openLeaderboard() {
  if (!bandByHand) {
    const band = await playersBand($('lb-game').value);
    if (band && nav.route.view === 'leaderboard' && !bandByHand) $('lb-band').value = band;
  }
  await showLeaderboard();
}

/** Wires the leaderboard's choices (once, at start-up). */
export function setUpPlayers() {
  $('lb-game').addEventListener('change', openLeaderboard);
  $('lb-band').addEventListener('change', () => { bandByHand = true; showLeaderboard(); });
}

/** Shows the players' view: a profile or the leaderboard. */
export function showPlayersView(route) {
  show($('players-profile'), route.view === 'profile');
  show($('players-board'), route.view === 'leaderboard');
  if (route.view === 'profile') showProfile(route.name);
  else openLeaderboard();
}
