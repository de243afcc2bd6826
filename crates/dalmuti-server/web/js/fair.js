// Fair deals: each hand's seed, revealed when the hand is over, checked
// against its commitment and this browser's dealt cards by fairness.js
// (a plain script: window.DalmutiFairness).

import { $, el, show, announce } from './dom.js';
import { t } from './i18n.js';
import { store } from './storage.js';
import { T } from './state.js';

/** A check's result: {ok: true|false|null, key, args} (words looked up when shown, in the language then). */
function result(ok, key, args) {
  return { ok, key, args };
}

export function verifyDeals(state) {
  const hands = state.fairness && state.fairness.hands;
  if (!hands || !hands.length) return;
  const dealt = store.dealt(T.id);
  for (const fair of hands) {
    if (!fair.seed || T.fair[fair.hand]) continue;
    const mine = dealt[fair.hand];
    if (!window.DalmutiFairness || typeof window.DalmutiFairness.verifyHand !== 'function') {
      T.fair[fair.hand] = result(null, 'web.fair.no-verifier');
      continue;
    }
    T.fair[fair.hand] = result(null, 'web.fair.checking');
    const tableId = T.id;
    const F = window.DalmutiFairness;
    if (!mine && typeof F.commitmentOf === 'function') {
      // Not dealt here (watching, or seated later): the seed and its commitment only.
      Promise.resolve()
        .then(() => F.commitmentOf(fair.seed))
        .then(hash => {
          if (T.id !== tableId) return;
          const ok = String(hash).toLowerCase() === String(fair.commitment).toLowerCase();
          T.fair[fair.hand] = ok ? result(true, 'web.fair.seed-ok') : result(false, 'web.fair.seed-bad');
          renderFair();
        })
        .catch(e => {
          if (T.id !== tableId) return;
          T.fair[fair.hand] = result(false, 'web.fair.failed', { reason: e.message });
          renderFair();
        });
      continue;
    }
    Promise.resolve()
      .then(() => window.DalmutiFairness.verifyHand({
        seed: fair.seed,
        commitment: fair.commitment,
        players: fair.players,
        strippedDeck: !!(state.rules && state.rules.stripped_deck),
        variant: (state.rules && state.rules.variant) || 'dalmuti',
        seat: mine ? mine.seat : (state.view ? state.view.seat : null),
        dealt: mine ? mine.dealt : null,
      }))
      .then(answer => {
        if (T.id !== tableId) return;
        T.fair[fair.hand] = answer && answer.ok
          ? result(true, 'web.fair.verified')
          : result(false, 'web.fair.failed', { reason: (answer && answer.reason) || t('web.fair.no-reason') });
        if (answer && !answer.ok) announce(t('web.fair.announce-failed', { hand: fair.hand }));
        renderFair();
      })
      .catch(e => {
        if (T.id !== tableId) return;
        T.fair[fair.hand] = result(false, 'web.fair.failed', { reason: e.message });
        renderFair();
      });
  }
  renderFair();
}

export function renderFair() {
  const s = T.state;
  const hands = (s && s.fairness && s.fairness.hands) || [];
  show($('fair'), hands.length > 0);
  const items = hands.slice().reverse().slice(0, 20).map(fair => {
    const checked = T.fair[fair.hand];
    let text;
    let cls = '';
    if (!fair.seed) text = t('web.fair.sealed', { commitment: String(fair.commitment || '').slice(0, 12) });
    else if (checked) {
      text = t(checked.key, checked.args);
      cls = checked.ok === true ? 'ok' : checked.ok === false ? 'bad' : '';
    } else text = t('web.fair.revealed');
    return el('li', { class: 'fair-' + (cls || 'wait'), 'data-testid': 'fair-hand', dataset: { hand: String(fair.hand) } },
      t('web.fair.line', { hand: fair.hand, mark: cls === 'ok' ? '✓ ' : cls === 'bad' ? '✗ ' : '', text }));
  });
  $('fair-list').replaceChildren(...items);
}
