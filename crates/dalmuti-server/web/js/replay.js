// A finished game's replay, step by step (GET /api/tables/{id}/replay).

import { $, el, show, setError, cardFace, cardFaces } from './dom.js';
import { t, tn } from './i18n.js';
import { api } from './api.js';
import { R, nav } from './state.js';
import { setVariant, setWords, eventWords, parseCards, ordinal, titleWithIcon } from './words.js';

export async function showReplay(id) {
  document.title = t('web.page.replay');
  show($('conn'), false);
  R.id = id;
  R.data = null;
  R.i = 0;
  R.name = null;
  setError($('r-error'), '');
  $('r-record').href = '/api/tables/' + encodeURIComponent(id) + '/record';
  $('r-record').setAttribute('download', 'dalmuti-' + id + '.json');
  $('r-seats').replaceChildren();
  $('r-title').textContent = t('web.replay.title');
  $('r-event').textContent = t('web.replay.loading');
  try {
    const [info, data] = await Promise.all([
      api('GET', '/api/tables/' + encodeURIComponent(id)).catch(() => null),
      api('GET', '/api/tables/' + encodeURIComponent(id) + '/replay'),
    ]);
    if (nav.route.view !== 'replay' || nav.route.id !== id) return;
    R.data = data;
    R.name = info && info.name ? info.name : null;
    const frames = data.frames || [];
    $('r-slider').max = String(Math.max(0, frames.length - 1));
    renderFrame(0);
  } catch (e) {
    $('r-event').textContent = '';
    setError($('r-error'), e.status === 409 ? t('web.replay.not-over') : t('web.replay.load-failed', { reason: e.message }));
  }
}

function seatWords(players, seat) {
  return players[seat] || t('web.seat.n', { n: seat + 1 });
}

export function renderFrame(i) {
  const frames = (R.data && R.data.frames) || [];
  $('r-title').textContent = R.name ? t('web.replay.title-named', { name: R.name }) : t('web.replay.title');
  if (!frames.length) { $('r-pos').textContent = t('web.replay.no-steps'); return; }
  R.i = Math.min(Math.max(i, 0), frames.length - 1);
  const f = frames[R.i];
  const players = f.players || R.data.players || [];
  const vw = f.view || {};
  // A frame's view names its game (absent: Dalmuti).
  setVariant(vw.variant);
  $('r-pos').textContent = t('web.replay.pos', { hand: f.hand, step: R.i + 1, steps: frames.length });
  $('r-pos').dataset.step = String(R.i);
  $('r-slider').value = String(R.i);
  $('r-event').textContent = f.e ? eventWords(f.e, players) : (R.i === 0 ? t('web.replay.start') : '');
  const wedgiePlay = f.e && f.e.action && f.e.action.wedgie != null;
  if (vw.wedged != null && !wedgiePlay) {
    $('r-event').textContent += ' ' + t('web.replay.wedged', { name: seatWords(players, vw.wedged) });
  }
  $('r-first').disabled = $('r-prev').disabled = R.i === 0;
  $('r-next').disabled = $('r-last').disabled = R.i === frames.length - 1;
  const pile = $('r-pile');
  if (vw.top) {
    pile.replaceChildren(el('div', { class: 'pile-cards' }, cardFaces(vw.top[1])),
      el('p', { class: 'pile-text' }, t('web.pile.played', { name: seatWords(players, vw.top[0]), set: setWords(vw.top[1]) })));
  } else {
    pile.replaceChildren(el('p', { class: 'pile-text' }, vw.stage === 'over' ? t('web.pile.over') : t('web.replay.empty')));
  }
  const toAct = new Set(vw.to_act || []);
  const hands = f.hands || [];
  const count = Math.max(players.length, hands.length);
  const items = [];
  for (let s = 0; s < count; s++) {
    const seat = (vw.seats && vw.seats[s]) || {};
    const flag = seat.out != null ? t('web.seat.out', { place: ordinal(seat.out + 1) }) : toAct.has(s) ? t('web.replay.to-act') : '';
    const cards = parseCards(hands[s]);
    items.push(el('li', { class: 'seat r-seat' + (toAct.has(s) ? ' to-act' : '') + (seat.out != null ? ' out' : '') },
      el('div', { class: 's-title' }, seat.title ? titleWithIcon(seat.title) : ''),
      el('div', { class: 's-name' }, seatWords(players, s), flag ? el('span', { class: 's-flag' }, ' · ' + flag) : null),
      el('div', { class: 's-meta' }, tn('web.cards', cards.length)),
      el('div', { class: 'r-hand', role: 'group', 'aria-label': t('web.replay.hand', { name: seatWords(players, s), cards: hands[s] || t('web.replay.no-cards') }) },
        cards.map(c => cardFace(c)))));
  }
  $('r-seats').replaceChildren(...items);
}
