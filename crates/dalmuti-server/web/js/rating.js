// A rating as players read it (docs/PROTOCOL.md, RATINGVALUE): its mean
// as the headline, marked while provisional, and its change in a game.

import { el } from './dom.js';
import { t } from './i18n.js';

/** A number of a rating, one decimal. */
export const fmt = x => x.toFixed(1);

/**
 * A rating as its headline: the mean, one decimal, with "?" while it is
 * provisional (docs/PROTOCOL.md, RATINGVALUE `provisional`: a newcomer's
 * first guess, as lichess marks it). A newcomer starts at 25.
 */
export function ratingText(rating) {
  return fmt(rating.mu) + (rating.provisional ? '?' : '');
}

/** The headline in a cell or line: the "?" explained on hover and to screen readers. */
export function ratingNode(rating) {
  return el('span', { class: 'rating', title: rating.provisional ? t('web.players.provisional') : null, 'data-testid': 'rating' },
    fmt(rating.mu),
    rating.provisional ? el('span', { 'aria-hidden': 'true' }, '?') : null,
    rating.provisional ? el('span', { class: 'sr-only' }, ' (' + t('web.players.provisional') + ')') : null);
}

/** A rating's change in a game: "+2.6", "−1.1" (a minus sign, not a hyphen). */
export function changeText(before, after) {
  const d = after.mu - before.mu;
  const shown = Math.abs(d).toFixed(1);
  return shown === '0.0' ? '±0.0' : (d > 0 ? '+' : '−') + shown;
}

