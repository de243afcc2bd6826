// A first-hand tour: a minute of the rules that surprise newcomers (1 is
// the best card, the wild cards, taxes, the revolution; in Corporate
// Shuffle its special cards too), in short steps beside the board, at a
// player's first hand of each game. What is asked now is explained first:
// a first hand that opens with a tax to pay starts with the taxes. It
// never blocks play: it can be skipped at any step, and once finished or
// skipped it does not come back for that game unless asked for from the
// help.

import { $, el, show, replaceKeepingFocus } from './dom.js';
import { t } from './i18n.js';
import { store } from './storage.js';
import { T } from './state.js';
import { gameWord, placeTitle, isSuited } from './words.js';

/** Where a finished tour is remembered, per game. */
const doneKey = variant => (variant === 'dalmuti' ? 'dalmuti.tour' : 'dalmuti.tour.' + variant);
/** Each game's steps, in their usual order; the step on taxes is its own. */
const STEPS = {
  dalmuti: ['web.tour.best', 'web.tour.play', 'web.tour.jesters', 'web.tour.taxes'],
  'corporate-shuffle': ['web.tour.cs-best', 'web.tour.cs-play', 'web.tour.cs-dogberts', 'web.tour.cs-specials', 'web.tour.cs-taxes'],
  // The 52-card pack's games: the order, choosing a play, the table's marks, the exchange.
  daifugo: ['web.tour.pack-best', 'web.tour.pack-play', 'web.tour.pack-marks', 'web.tour.pack-exchange'],
  president: ['web.tour.pack-best', 'web.tour.pack-play', 'web.tour.pack-marks', 'web.tour.pack-exchange'],
};
const TAXES = {
  dalmuti: 'web.tour.taxes', 'corporate-shuffle': 'web.tour.cs-taxes', daifugo: 'web.tour.pack-exchange', president: 'web.tour.pack-exchange',
};

/** The game's own words a step may name (the pack's games: 革命, 縛り…). */
function stepWords() {
  const word = w => gameWord('word.' + w);
  return {
    revolution: word('revolution'), lock: word('lock'), eleven: word('eleven-back'), sequence: word('sequence'),
    exchange: gameWord('exchange'), first: placeTitle(0), last: placeTitle(4),
  };
}
/** The tour shown: its step, the game and the order of its steps (chosen when it opens). */
const tour = { step: 0, asked: false, variant: null, order: null };
const wide = window.matchMedia('(min-width: 900px)');
wide.addEventListener('change', () => renderTour());

/** Shows the tour again from its first step (the help's button). */
export function restartTour() {
  const variant = gameOf(T.state);
  if (variant) store.drop(doneKey(variant));
  tour.step = 0;
  tour.order = null;
  tour.asked = true;
  renderTour();
  const next = $('tour') && $('tour').querySelector('button');
  if (next) next.focus();
}

function finish() {
  if (tour.variant) store.set(doneKey(tour.variant), 'done');
  tour.asked = false;
  tour.order = null;
  renderTour();
  // Focus goes back to the hand rather than into nothing.
  const first = document.querySelector('#hand button');
  if (first) first.focus();
}

/** The game of a STATE with a tour, or null. */
function gameOf(s) {
  const variant = s && s.rules && s.rules.variant;
  return STEPS[variant] ? variant : null;
}

/**
 * The tour's steps for `variant`, in their order; but what the table asks
 * now comes first: a tax to pay (or an exchange) while the step on taxes
 * is still to come puts that step here, the one shown next.
 */
function stepsFor(variant) {
  if (!tour.order || tour.variant !== variant) {
    tour.variant = variant;
    tour.step = 0;
    tour.order = STEPS[variant].slice();
  }
  const d = T.state && T.state.decision;
  const taxes = tour.order.indexOf(TAXES[variant]);
  if (d && /tax|exchange/.test(d.kind) && taxes > tour.step) {
    tour.order.splice(taxes, 1);
    tour.order.splice(tour.step, 0, TAXES[variant]);
  }
  return tour.order;
}

/** The tour's box: shown to a seated player at their first hand of a game. */
export function renderTour() {
  const box = $('tour');
  if (!box) return;
  const s = T.state;
  const seated = !!(s && s.you && s.started && s.view && !s.game_over);
  const variant = gameOf(s);
  const wanted = seated && !!variant && (tour.asked || store.get(doneKey(variant)) !== 'done');
  show(box, wanted);
  if (!wanted) return;
  const steps = stepsFor(variant);
  // Laptops: at the top of the side column, beside the board. Phones: at
  // the top of the sheet at the bottom (the dialog's while one is open,
  // else the hand's), so that it covers no seat and moves nothing.
  const dialog = $('decision');
  const home = wide.matches ? $('game-side') : dialog && !dialog.hidden ? dialog : $('dock');
  if (box.parentNode !== home) home.prepend(box);
  const last = tour.step === steps.length - 1;
  box.dataset.step = String(tour.step + 1);
  box.dataset.topic = steps[tour.step];
  replaceKeepingFocus(box, [
    el('h2', { id: 'tour-title' }, t('web.tour.title', { step: tour.step + 1, steps: steps.length })),
    el('p', { 'data-testid': 'tour-text' }, t(steps[tour.step], isSuited() ? stepWords() : undefined)),
    el('div', { class: 'button-row' },
      el('button', {
        type: 'button', class: 'primary small', 'data-testid': 'tour-next', dataset: { key: 'tour-next' },
        onclick: () => { if (last) finish(); else { tour.step++; renderTour(); } },
      }, last ? t('web.tour.done') : t('web.tour.next')),
      last ? null : el('button', { type: 'button', class: 'ghost small', 'data-testid': 'tour-skip', dataset: { key: 'tour-skip' }, onclick: finish },
        t('web.tour.skip'))),
  ]);
}
