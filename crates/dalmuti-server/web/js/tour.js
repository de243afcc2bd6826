// A first-hand tour: a minute of the rules that surprise newcomers (1 is
// the best card, Jesters, taxes, the revolution), in four short steps
// under the board, at a player's first Dalmuti hand. It never blocks play:
// it can be skipped at any step, and once finished or skipped it does not
// come back unless asked for from the help.

import { $, el, show, replaceKeepingFocus } from './dom.js';
import { t } from './i18n.js';
import { store } from './storage.js';
import { T } from './state.js';

const DONE_KEY = 'dalmuti.tour';
const STEPS = ['web.tour.best', 'web.tour.play', 'web.tour.jesters', 'web.tour.taxes'];
const tour = { step: 0, asked: false };
const wide = window.matchMedia('(min-width: 900px)');
wide.addEventListener('change', () => renderTour());

/** Shows the tour again from its first step (the help's button). */
export function restartTour() {
  store.drop(DONE_KEY);
  tour.step = 0;
  tour.asked = true;
  renderTour();
  const next = $('tour') && $('tour').querySelector('button');
  if (next) next.focus();
}

function finish() {
  store.set(DONE_KEY, 'done');
  tour.asked = false;
  renderTour();
  // Focus goes back to the hand rather than into nothing.
  const first = document.querySelector('#hand button');
  if (first) first.focus();
}

/** The tour's box: shown to a seated player of a Dalmuti game who has not seen it. */
export function renderTour() {
  const box = $('tour');
  if (!box) return;
  const s = T.state;
  const seated = !!(s && s.you && s.started && s.view && !s.game_over);
  const dalmuti = !!(s && s.rules && s.rules.variant === 'dalmuti');
  const wanted = seated && dalmuti && (tour.asked || store.get(DONE_KEY) !== 'done');
  show(box, wanted);
  if (!wanted) return;
  // Laptops: at the top of the side column, beside the board; phones: above
  // the board, where the eye starts (the board moves once, when it closes).
  const home = wide.matches ? $('game-side') : $('game-main');
  if (box.parentNode !== home) home.prepend(box);
  const last = tour.step === STEPS.length - 1;
  box.dataset.step = String(tour.step + 1);
  replaceKeepingFocus(box, [
    el('h2', { id: 'tour-title' }, t('web.tour.title', { step: tour.step + 1, steps: STEPS.length })),
    el('p', { 'data-testid': 'tour-text' }, t(STEPS[tour.step])),
    el('div', { class: 'button-row' },
      el('button', {
        type: 'button', class: 'primary small', 'data-testid': 'tour-next', dataset: { key: 'tour-next' },
        onclick: () => { if (last) finish(); else { tour.step++; renderTour(); } },
      }, last ? t('web.tour.done') : t('web.tour.next')),
      last ? null : el('button', { type: 'button', class: 'ghost small', 'data-testid': 'tour-skip', dataset: { key: 'tour-skip' }, onclick: finish },
        t('web.tour.skip'))),
  ]);
}
