// Players' pages: a profile (#/p/NAME: games per game, places, ratings
// with a small plot, the last games with their replays) and the
// leaderboard (#/leaderboard: the best ratings of a game and table size,
// bot levels among the players). Everything comes from GET
// /api/players/NAME and GET /api/leaderboard (docs/PROTOCOL.md, Players).

import { $, el, show, setError } from './dom.js';
import { t, tn, i18n, ordinal } from './i18n.js';
import { api } from './api.js';
import { nav } from './state.js';
import { gameName, botName } from './words.js';

const fmt = x => x.toFixed(1);

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
      el('strong', null, gameName(g.game)), ' ', tn('web.players.played', g.played), ' — ', places));
  }
  if (profile.ratings.length) {
    body.append(el('h2', null, t('web.players.ratings')), ratingTable(profile.ratings, false));
  }
  const rated = profile.recent.filter(g => g.rating).reverse();
  if (rated.length >= 2) body.append(plot(rated));
  body.append(el('h2', null, t('web.players.recent')),
    el('ul', { class: 'table-list', 'data-testid': 'profile-recent' }, profile.recent.map(g => el('li', null,
      // A private table's address is shown to its own player only.
      g.table ? el('a', { href: '#/replay/' + encodeURIComponent(g.table) }, g.table_name)
        : el('span', { class: 'muted' }, t('web.players.private-game')), ' · ',
      gameName(g.game), ' · ', t('web.players.place-of', { place: ordinal(g.place), players: g.players }),
      g.rated ? ' · ' + t('web.players.rated') : '', ' · ', when(g.at)))));
}

/** A table of ratings; on the leaderboard, ranked and linked. */
function ratingTable(rows, board) {
  const head = el('tr', null,
    board ? el('th', { scope: 'col' }, '#') : null,
    el('th', { scope: 'col' }, board ? t('web.players.player') : t('web.players.game')),
    board ? null : el('th', { scope: 'col' }, t('web.players.band')),
    el('th', { scope: 'col' }, t('web.players.rating')),
    el('th', { scope: 'col' }, 'μ ± σ'),
    el('th', { scope: 'col' }, t('web.players.games')));
  const body = rows.map((r, i) => el('tr', { 'data-testid': board ? 'board-row' : 'rating-row' },
    board ? el('td', null, String(i + 1)) : null,
    board
      ? el('td', null, r.bot
        ? [botName(r.name), ' ', el('span', { class: 'muted' }, '(' + t('web.players.bot') + ')')]
        : el('a', { href: profileHref(r.name) }, r.name))
      : el('td', null, gameName(r.game)),
    board ? null : el('td', null, r.band),
    el('td', null, fmt(r.ordinal)),
    el('td', null, `${fmt(r.rating.mu)} ± ${fmt(r.rating.sigma)}`),
    el('td', null, String(r.games))));
  return el('table', { class: 'ratings' }, el('thead', null, head), el('tbody', null, body));
}

/** The rating's mean after each rated game, oldest first: a small line. */
function plot(games) {
  const W = 320, H = 100, P = 8;
  const mus = games.map(g => g.rating.mu);
  const lo = Math.min(...mus) - 1, hi = Math.max(...mus) + 1;
  const x = i => P + (i * (W - 2 * P)) / (games.length - 1);
  const y = mu => H - P - ((mu - lo) * (H - 2 * P)) / (hi - lo);
  const points = mus.map((mu, i) => `${x(i).toFixed(1)},${y(mu).toFixed(1)}`).join(' ');
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('class', 'rating-plot');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', t('web.players.plot'));
  svg.dataset.testid = 'rating-plot';
  const line = document.createElementNS(ns, 'polyline');
  line.setAttribute('points', points);
  svg.append(line);
  return el('figure', null, svg, el('figcaption', { class: 'muted' }, t('web.players.plot')));
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

/** Wires the leaderboard's choices (once, at start-up). */
export function setUpPlayers() {
  for (const id of ['lb-game', 'lb-band']) $(id).addEventListener('change', showLeaderboard);
}

/** Shows the players' view: a profile or the leaderboard. */
export function showPlayersView(route) {
  show($('players-profile'), route.view === 'profile');
  show($('players-board'), route.view === 'leaderboard');
  if (route.view === 'profile') showProfile(route.name);
  else showLeaderboard();
}
