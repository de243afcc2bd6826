// Your hand and the set you choose from it: choosing by clicks or keys,
// what stops a set from being played, Play and Pass. Which sets may be
// played is never worked out here: STATE's `legal` lists every action the
// server accepts now, and a chosen set is played only as one of them.

import { $, el, replaceKeepingFocus, faceParts, fitNames } from './dom.js';
import { t, tn, i18n } from './i18n.js';
import { T, view, decision, decisionOf, handGroups, countOf, noSelection, legal } from './state.js';
import { V, parseCards, sameCards, setWords, cardName, cardWord, isSuited } from './words.js';
import { renderSuitedHand, renderSuitedActions, onSuitedPlay, keepPickSane } from './suited.js';
import { sendAct } from './connection.js';
import { views } from './views.js';

/** How many cards a set must have now (follow), or null (lead, or not your turn). */
function neededCount() {
  const d = decisionOf('follow');
  return d ? parseCards(d.top).length : null;
}

/**
 * The plays STATE's `legal` offers now: each legal action with its cards,
 * the value it declares (`D D as 3`) and the seat its Wedgie names.
 */
function legalPlays() {
  return legal('play').map(action => {
    const [set, as] = String(action.play).split(' as ');
    const cards = parseCards(set);
    return { action, cards, same: sameCards(cards), as: as == null ? null : Number(as), wedgie: action.wedgie };
  });
}

/** The legal plays of exactly these cards (one, or one per value or target). */
function playsOf(cards) {
  const same = sameCards(cards);
  return legalPlays().filter(p => p.same === same);
}

/** Whether `rank` is legal only alone now (the World Ruler, Ratbert). */
function aloneOnly(rank) {
  const plays = legalPlays().filter(p => p.cards.includes(rank));
  return plays.length > 0 && plays.every(p => p.cards.length === 1);
}

export function keepSelectionSane() {
  const sel = T.sel;
  if (isSuited()) { keepPickSane(); return; }
  if (sel.rank != null) {
    const c = countOf(sel.rank);
    if (c === 0) { sel.rank = null; sel.n = 0; } else sel.n = Math.min(Math.max(sel.n, 1), c);
  }
  sel.j = Math.min(sel.j, countOf(V().wild));
  sel.t = sel.t && countOf('T') ? 1 : 0;
}

function selectionCards() {
  const sel = T.sel;
  const cards = [];
  for (let i = 0; i < sel.n; i++) cards.push(sel.rank);
  if (sel.t) cards.push('T');
  for (let i = 0; i < sel.j; i++) cards.push(V().wild);
  return cards;
}

/** Wild cards alone (Dogberts alone are played as a value their player names). */
function wildsAlone() {
  return T.sel.n === 0 && !T.sel.t && T.sel.j > 0;
}

/** The cards being played: those a dialog asks about, else those chosen. */
function playedCards() {
  return T.ask ? T.ask.cards : selectionCards();
}

/** The values the cards being played may be declared as now, best first (Dogberts alone). */
export function declarableValues() {
  return playsOf(playedCards()).map(p => p.as).filter(v => v != null).sort((a, b) => a - b);
}

/** Why the chosen set cannot be played now, or '' if it can. */
function selectionProblem() {
  const d = decision();
  const sel = T.sel;
  const cards = selectionCards();
  if (!d || (d.kind !== 'lead' && d.kind !== 'follow')) return t('web.problem.not-your-turn');
  if (cards.length === 0) return t('web.problem.choose');
  if (playsOf(cards).length) return '';
  // Not a legal play: say why in the words a player knows, from what is
  // legal (no rule is worked out here).
  if (sel.n > 0 && cards.length > 1 && aloneOnly(sel.rank)) return t('web.problem.alone', { card: cardName(sel.rank) });
  if (sel.t && sel.n > 0 && !legalPlays().some(p => p.cards.includes('T') && p.cards.includes(sel.rank))) {
    return t('web.problem.wedgie', { card: cardName('T') });
  }
  if (d.kind === 'lead') return t('web.problem.not-legal');
  const top = parseCards(d.top);
  if (cards.length !== top.length) return tn('web.problem.count', top.length);
  if (wildsAlone()) return t('web.problem.wilds', { cards: cardWord(V().wild, 2), set: setWords(d.top) });
  return t('web.problem.lower', { set: setWords(d.top) });
}

/**
 * The legal actions Play sends for the chosen set now: one, or one per
 * value or target when a dialog then asks which; none when the set cannot
 * be played.
 */
export function selectedPlays() {
  return selectionProblem() ? [] : playsOf(selectionCards()).map(p => p.action);
}

/** The chosen cards in words: "3 Knights + 1 Jester". */
function selectionText() {
  const sel = T.sel;
  const parts = [];
  if (sel.n > 0) parts.push(tn('web.selection.cards', sel.n, { card: cardWord(sel.rank, sel.n) }));
  if (sel.t) parts.push(t('web.selection.wedgie', { card: cardName('T') }));
  if (sel.j > 0) parts.push(tn('web.selection.cards', sel.j, { card: cardWord(V().wild, sel.j) }));
  return parts.join(' + ');
}

/** Fewer wild cards, then fewer of the rank, until the set has at most `need` cards. */
function fitTo(need) {
  const sel = T.sel;
  if (need == null) return;
  while (sel.n + sel.t + sel.j > need && sel.j > 0 && sel.n + sel.t > 0) sel.j--;
  while (sel.n + sel.t + sel.j > need && sel.n > 1) sel.n--;
}

export function clickGroup(rank) {
  if (isSuited()) return;
  const sel = T.sel;
  const count = countOf(rank);
  if (!count) return;
  const need = neededCount();
  if (rank === V().wild) {
    sel.j = (sel.j + 1) % (count + 1);
    if (sel.n > 0 && aloneOnly(sel.rank)) { sel.rank = null; sel.n = 0; }
    if (need != null && sel.n + sel.t + sel.j > need && sel.j > 0 && sel.n > 0) sel.n = Math.max(1, need - sel.j - sel.t);
  } else if (rank === 'T') {
    sel.t = sel.t ? 0 : 1;
    // The Wedgie is a 6: other cards than 6s (and wild cards) make way.
    if (sel.t && sel.rank != null && sel.rank !== '6') { sel.rank = null; sel.n = 0; }
    if (sel.t) fitTo(need);
  } else if (sel.rank === rank) {
    sel.rank = null;
    sel.n = 0;
  } else if (aloneOnly(rank)) {
    T.sel = { rank, n: 1, j: 0, t: 0 };
  } else {
    sel.rank = rank;
    if (rank !== '6') sel.t = 0;
    sel.n = need != null ? Math.max(1, Math.min(count, need - sel.j - sel.t)) : count;
    fitTo(need);
  }
  renderHand();
  renderActions();
}

export function adjustSelection(delta) {
  if (isSuited()) return;
  const sel = T.sel;
  if (sel.rank != null) {
    sel.n = Math.min(Math.max(sel.n + delta, 1), countOf(sel.rank));
  } else if (sel.j > 0 || delta > 0) {
    sel.j = Math.min(Math.max(sel.j + delta, 0), countOf(V().wild));
  }
  renderHand();
  renderActions();
}

export function adjustJesters(delta) {
  if (isSuited()) return;
  T.sel.j = Math.min(Math.max(T.sel.j + delta, 0), countOf(V().wild));
  renderHand();
  renderActions();
}

export function clearSelection() {
  T.sel = noSelection();
  T.ask = null;
  renderHand();
  renderActions();
  views.renderDecision();
}

let handKey = '';

/** Whether a group of `rank` is in some set that tops the table now (only when following). */
export function canTop(rank) {
  if (!decisionOf('follow')) return true;
  return legalPlays().some(p => p.cards.includes(rank));
}

/** Ranks received a moment ago (taxes, an exchange): marked for a few seconds. */
export const fresh = { ranks: new Set(), until: 0, timer: null };

export function markFresh(ranks) {
  if (!ranks.length) return;
  fresh.ranks = new Set(ranks);
  fresh.until = performance.now() + 5000;
  clearTimeout(fresh.timer);
  fresh.timer = setTimeout(() => { fresh.ranks = new Set(); renderHand(); views.renderDecision(); }, 5000);
}

// Names fitted again when the cards change size (a turned phone) and once
// the fonts are in (a name measured in a fallback font fits wrongly).
window.addEventListener('resize', () => { fitNames($('hand')); fitNames($('decision-body')); });
if (document.fonts) document.fonts.ready.then(() => { fitNames($('hand')); fitNames($('decision-body')); });

export function renderHand() {
  if (isSuited()) { renderSuitedHand(); return; }
  $('hand').classList.remove('suited-hand');
  const groups = handGroups();
  const sel = T.sel;
  const d = decision();
  // Unchanged hand and choice: keep the DOM, so a key press or a screen
  // reader is not interrupted by a message that changed nothing here.
  const key = JSON.stringify([T.id, view() && view().hand, sel, i18n.lang, d, [...fresh.ranks]]);
  if (key === handKey && $('hand').childElementCount) return;
  handKey = key;
  const buttons = groups.map(g => {
    const chosen = g.rank === V().wild ? sel.j : g.rank === 'T' ? sel.t : (sel.rank === g.rank ? sel.n : 0);
    const dim = !chosen && !canTop(g.rank);
    const isNew = fresh.ranks.has(g.rank);
    const extra = [tn('web.cards', g.count)];
    if (chosen) extra.push(t('web.hand.chosen-count', { chosen }));
    if (dim) extra.push(t('web.hand.cannot-top'));
    if (isNew) extra.push(t('web.hand.new'));
    return el('button', {
      type: 'button',
      class: 'card group r' + g.rank + (chosen ? ' chosen' : '') + (dim ? ' dim' : '') + (isNew ? ' fresh' : ''),
      'aria-pressed': chosen ? 'true' : 'false',
      'data-testid': 'card-group',
      dataset: { key: 'g-' + g.rank, rank: g.rank, count: String(g.count), top: String(!dim) },
      onclick: () => clickGroup(g.rank),
    },
    faceParts(g.rank),
    ' ',
    el('span', { class: 'card-count' }, chosen ? chosen + '/' + g.count : '\u00d7' + g.count),
    isNew ? el('span', { class: 'card-new', 'aria-hidden': 'true' }, t('web.hand.new')) : null,
    el('span', { class: 'sr-only' }, ', ' + extra.join(', ')));
  });
  if (!groups.length) buttons.push(el('p', { class: 'muted' }, view() && view().hand != null ? t('web.hand.empty') : ''));
  const hand = $('hand');
  replaceKeepingFocus(hand, buttons);
  fitNames(hand);
  // Roving order: the chosen group (or the first) is where Tab lands.
  const focusable = hand.querySelectorAll('button.group');
  focusable.forEach((b, i) => { b.tabIndex = (b.getAttribute('aria-pressed') === 'true' || (i === 0 && !hand.querySelector('[aria-pressed="true"]'))) ? 0 : -1; });
  if (document.activeElement && hand.contains(document.activeElement)) document.activeElement.tabIndex = 0;
}

export function renderActions() {
  if (isSuited()) { renderSuitedActions(); return; }
  $('sel-less').hidden = false;
  $('sel-more').hidden = false;
  if ($('suggest')) $('suggest').hidden = true;
  const s = T.state;
  const d = s && s.decision;
  const playing = d && (d.kind === 'lead' || d.kind === 'follow');
  const online = !!(T.ws && T.ws.readyState === WebSocket.OPEN);
  const problem = selectionProblem();
  const cards = selectionCards();
  const play = $('play-btn');
  const pass = $('pass-btn');
  play.disabled = !(playing && !problem && online && !T.pending);
  play.textContent = cards.length && !problem ? t('web.hand.play-cards', { cards: cards.join(' ') }) : t('web.hand.play');
  // The button's name is its visible text ("Play 1"); the cards in words
  // are its description (#sel-desc, aria-describedby).
  pass.disabled = !(d && d.kind === 'follow' && online && !T.pending);
  const desc = $('sel-desc');
  if (!s || !s.view) { desc.textContent = ''; return; }
  if (cards.length) {
    desc.textContent = problem && playing
      ? t('web.hand.chosen-problem', { cards: selectionText(), problem })
      : t('web.hand.chosen', { cards: selectionText() });
  } else if (d && d.kind === 'follow') desc.textContent = tn('web.hand.follow', parseCards(d.top).length, { set: setWords(d.top) });
  else if (d && d.kind === 'lead') desc.textContent = t('web.hand.lead');
  // Nothing to choose once the hand is over (or before it is played).
  else desc.textContent = s.view.stage === 'play' ? t('web.hand.choose') : '';
  const sel = T.sel;
  $('sel-less').disabled = !(sel.rank != null ? sel.n > 1 : sel.j > 0);
  $('sel-more').disabled = !(sel.rank != null ? sel.n < countOf(sel.rank) : sel.j > 0 && sel.j < countOf(V().wild));
  // Offline, nothing can be sent: the dock does not say it is my turn.
  $('dock').classList.toggle('my-turn', !!playing && online);
  $('dock').classList.toggle('offline', !online);
  $('dock').dataset.pending = String(T.pending);
}

/** The seats the Wedgie in the cards being played may name now. */
export function wedgieTargets() {
  return playsOf(playedCards()).map(p => p.wedgie).filter(i => i != null);
}

export function onPlay() {
  if (isSuited()) { onSuitedPlay(); return; }
  if ($('play-btn').disabled) return;
  const cards = selectionCards();
  const plays = playsOf(cards);
  // Two plays say more than their cards (docs/PROTOCOL.md, Corporate
  // Shuffle): Dogberts alone a value, the Wedgie whom it makes pass (not
  // when its play ends the hand). A dialog asks which, then sends it.
  if (plays.length > 1 || (plays.length === 1 && (plays[0].as != null || plays[0].wedgie != null))) {
    T.ask = { kind: plays.some(p => p.as != null) ? 'declare' : 'wedgie', cards };
    views.renderDecision();
    return;
  }
  if (!plays.length) return;
  T.sel = noSelection();
  sendAct(plays[0].action);
}

/** Sends the legal play the dialog asked about: the one with this value or target. */
export function playAsked(extra) {
  const ask = T.ask;
  if (!ask || T.pending) return;
  const play = playsOf(ask.cards).find(p => (extra.as != null ? p.as === extra.as : p.wedgie === extra.wedgie));
  if (!play) return;
  T.ask = null;
  T.sel = noSelection();
  sendAct(play.action);
}

export function onPass() {
  if ($('pass-btn').disabled) return;
  T.sel = noSelection();
  T.ask = null;
  sendAct('pass');
}
