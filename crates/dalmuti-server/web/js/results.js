// The end of a hand and of the game: places, new titles, points per hand
// and the winner.

import { $, el, show } from './dom.js';
import { clearBanners } from './fx.js';
import { t, tn } from './i18n.js';
import { api } from './api.js';
import { isOffline, offlineRecordLink } from './offline.js';
import { T, playerName, shownName, lobbyEntry } from './state.js';
import { ratingChanges } from './chat.js';
import { changeText, ratingNode } from './rating.js';
import { ordinal, titleKey, titleWithIcon } from './words.js';

function resultRows(s) {
  const vw = s.view;
  const totals = new Map((s.totals || []).map(x => [x.name, x.total]));
  return (vw.finish_order || []).map((seat, place) => ({
    place: place + 1,
    name: playerName(seat),
    // The title the place earns, as the server says it (VIEW seats' `next_title_key`).
    title: titleKey(vw.seats[seat], true),
    total: totals.has(playerName(seat)) ? totals.get(playerName(seat)) : (vw.scores ? vw.scores[seat] : null),
  }));
}

export function renderResult() {
  const s = T.state;
  const vw = s.view;
  if (vw && vw.stage === 'over') {
    T.lastResult = { hand: s.hand, rows: resultRows(s), scored: !!(s.rules && s.rules.scoring !== 'none') };
  }
  const r = T.lastResult;
  const box = $('result');
  if (!r) { show(box, false); return; }
  show(box, true);
  box.dataset.hand = String(r.hand);
  const current = vw && vw.stage === 'over' && s.hand === r.hand;
  // Always at the side, under the table on phones: the board never moves
  // for it. During the pause after the hand it is marked as the news.
  box.classList.toggle('result-main', !!current);
  $('result-title').textContent = current ? t('web.result.title', { hand: r.hand }) : t('web.result.last', { hand: r.hand });
  const table = el('table', { class: 'result-table' },
    el('caption', { class: 'sr-only' }, t('web.result.caption', { hand: r.hand })),
    el('thead', {}, el('tr', {},
      el('th', { scope: 'col' }, t('web.result.place')), el('th', { scope: 'col' }, t('web.result.player')),
      el('th', { scope: 'col' }, t('web.result.new-title')), r.scored ? el('th', { scope: 'col' }, t('web.result.total')) : null)),
    el('tbody', {}, r.rows.map(row => el('tr', {},
      el('td', {}, ordinal(row.place)), el('td', {}, shownName(row.name)),
      el('td', { class: 'r-title' }, titleWithIcon(row.title)), r.scored ? el('td', {}, row.total == null ? '' : String(row.total)) : null))));
  $('result-body').replaceChildren(table,
    el('p', { id: 'next-deal', class: 'next-deal', 'data-testid': 'next-deal' }));
}

/**
 * The final order: by points when scored (ties by the last hand's finish),
 * else the last hand's finishing order. One order for every screen size.
 */
function finalOrder(s) {
  const results = s.results || [];
  const last = results.length ? results[results.length - 1].order.map(x => x.name)
    : s.view && s.view.finish_order ? s.view.finish_order.map(playerName) : [];
  const scored = !!(s.rules && s.rules.scoring !== 'none');
  const totals = new Map((s.totals || []).map(x => [x.name, x.total]));
  for (const r of results) {
    for (const x of r.order) if (!totals.has(x.name) && x.points != null) totals.set(x.name, 0);
  }
  const names = [...new Set([...last, ...totals.keys()])];
  const at = name => (last.includes(name) ? last.indexOf(name) : last.length);
  if (scored && totals.size) names.sort((a, b) => (totals.get(b) || 0) - (totals.get(a) || 0) || at(a) - at(b));
  return { names, totals, scored };
}

/**
 * How the game moved the rating of the player at `name` (a bot's level
 * moves once, for all its copies), as lichess shows it beside a result:
 * the change and the rating now. Nothing when the game did not count.
 */
function ratingChange(name, changes) {
  const entry = lobbyEntry(name);
  const change = entry && entry.bot
    ? changes.find(c => c.bot && c.name === entry.bot)
    : changes.find(c => !c.bot && c.name === name);
  if (!change) return null;
  const delta = change.after.mu - change.before.mu;
  return el('span', { class: 'rating-change ' + (delta > 0.05 ? 'up' : delta < -0.05 ? 'down' : 'same'), 'data-testid': 'rating-change' },
    ' · ', el('span', { class: 'delta' }, changeText(change.before, change.after)),
    ' ', t('web.gameover.rating-now'), ' ', ratingNode(change.after));
}

/** Why the winner is first when the second has as many points: said, not left to guess. */
function tieAtTop(names, totals, scored) {
  if (!scored || names.length < 2 || !totals.has(names[0]) || totals.get(names[0]) !== totals.get(names[1])) return null;
  return el('p', { class: 'winner-sub muted', 'data-testid': 'tie-break' },
    t('web.gameover.tie-break', { name: shownName(names[0]), other: shownName(names[1]) }));
}

export function renderGameOver() {
  const s = T.state;
  const box = $('gameover');
  show(box, !!s.game_over);
  if (!s.game_over) return;
  clearBanners();
  if (box.parentNode !== $('game-main') || box !== $('game-main').firstElementChild) $('game-main').prepend(box);
  const { names, totals, scored } = finalOrder(s);
  const results = s.results || [];
  const winner = names[0];
  const changes = ratingChanges() || [];
  const rows = names.map((name, i) => el('li', { class: i === 0 ? 'winner' : '' },
    scored && totals.has(name) ? tn('web.gameover.points', totals.get(name), { name: shownName(name) }) : shownName(name),
    ratingChange(name, changes)));
  // Points per hand: a row per player (in the final order), a column per hand.
  let perHand = null;
  if (results.length) {
    const byHand = results.map(r => new Map(r.order.map((x, place) => [x.name, { place, points: x.points }])));
    perHand = el('div', { class: 'per-hand-wrap', tabindex: '0', role: 'region', 'aria-label': t('web.gameover.per-hand') },
      el('table', { class: 'result-table per-hand', 'data-testid': 'per-hand' },
        el('caption', {}, t('web.gameover.per-hand'), el('span', { class: 'muted per-hand-note' }, ' ' + t('web.gameover.by-hand-note'))),
        el('thead', {}, el('tr', {},
          el('th', { scope: 'col' }, t('web.result.player')),
          // A hand's number only, its word for screen readers: the
          // table fits a phone's width with five hands and more.
          results.map(r => el('th', { scope: 'col', class: 'hand-col' },
            el('span', { 'aria-hidden': 'true' }, String(r.hand)),
            el('span', { class: 'sr-only' }, t('web.gameover.hand-n', { hand: r.hand })))),
          scored ? el('th', { scope: 'col' }, t('web.result.total')) : null)),
        el('tbody', {}, names.map(name => el('tr', {},
          el('th', { scope: 'row' }, shownName(name)),
          byHand.map(m => {
            const x = m.get(name);
            if (!x) return el('td', {}, '–');
            return el('td', {}, scored && x.points != null ? String(x.points) : ordinal(x.place + 1));
          }),
          scored ? el('td', { class: 'total' }, totals.has(name) ? String(totals.get(name)) : '') : null)))));
  }
  const id = encodeURIComponent(T.id);
  const mine = winner && winner === s.you;
  $('gameover-body').replaceChildren(
    winner ? el('div', { class: 'winner-moment', 'data-testid': 'winner' },
      el('span', { class: 'crown', 'aria-hidden': 'true' }, '\u265B\uFE0E'),
      el('p', { class: 'winner-name' }, mine ? t('web.gameover.you-win') : t('web.gameover.wins', { name: shownName(winner) })),
      el('p', { class: 'winner-sub muted' }, scored && totals.has(winner)
        ? tn('web.gameover.winner-points', totals.get(winner), { hands: results.length || s.hand })
        : tn('web.gameover.hands-played', results.length || s.hand)),
      tieAtTop(names, totals, scored)) : null,
    el('p', {}, t('web.gameover.standings')),
    el('ol', { class: 'standings', 'data-testid': 'standings' }, rows),
    perHand,
    el('p', { class: 'gameover-links' },
      el('a', { href: '#/replay/' + id, class: 'button', 'data-testid': 'replay-link' }, t('web.gameover.replay')), ' ',
      el('a', { href: '/api/tables/' + id + '/record', download: 'dalmuti-' + T.id + '.json', class: 'button', 'data-testid': 'record-link' },
        t('web.record.download'))));
  // A game played on this device: its record comes from the offline engine.
  if (isOffline(T.id)) offlineRecordLink($('gameover-body').querySelector('[data-testid=record-link]'), T.id);
}
