// Keys: at the table (choose, play, pass), in a replay (steps), anywhere
// (help). docs in the page's help.

import { $ } from './dom.js';
import { T, R, nav } from './state.js';
import { V, isCorporate } from './words.js';
import { clickGroup, adjustSelection, adjustJesters, clearSelection, onPlay, onPass } from './hand.js';
import { onReplayKey } from './replay.js';
import { taxPick } from './dialogs.js';

function typingIn(target) {
  return target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT' || target.isContentEditable);
}

export function onKeydown(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (typingIn(event.target)) return;
  const key = event.key;
  const route = nav.route;
  if (key === '?') { toggleHelp(); event.preventDefault(); return; }
  if (key === 'Escape') {
    if (!$('help').hidden) { toggleHelp(false); event.preventDefault(); return; }
    if (route.view === 'table') clearSelection();
    return;
  }
  if (route.view === 'replay') {
    onReplayKey(event);
    return;
  }
  if (route.view !== 'table' || !T.state || !T.state.view) return;
  // A dialog's row of cards (taxes, an exchange) moves like the hand.
  const row = event.target.closest && event.target.closest('#decision .pick-row');
  if (row && ['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(key)) {
    const buttons = [...row.querySelectorAll('button')];
    const at = buttons.indexOf(event.target);
    const next = { ArrowLeft: Math.max(0, at - 1), ArrowRight: Math.min(buttons.length - 1, at + 1), Home: 0, End: buttons.length - 1 }[key];
    if (buttons[next]) buttons[next].focus();
    event.preventDefault();
    return;
  }
  if (row && (key === 'ArrowUp' || key === 'ArrowDown') && event.target.dataset.testid === 'tax-card') {
    taxPick(event.target.dataset.rank, key === 'ArrowUp' ? 1 : -1);
    event.preventDefault();
    return;
  }
  const inHand = $('hand').contains(event.target);
  if (inHand && ['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(key)) {
    const buttons = [...$('hand').querySelectorAll('button.group, button.card.one')];
    const at = buttons.indexOf(event.target);
    let next = at;
    if (key === 'ArrowLeft') next = Math.max(0, at - 1);
    if (key === 'ArrowRight') next = Math.min(buttons.length - 1, at + 1);
    if (key === 'Home') next = 0;
    if (key === 'End') next = buttons.length - 1;
    if (buttons[next]) {
      buttons.forEach(b => { b.tabIndex = -1; });
      buttons[next].tabIndex = 0;
      buttons[next].focus();
    }
    event.preventDefault();
    return;
  }
  if (inHand && (key === 'ArrowUp' || key === 'ArrowDown')) {
    const rank = event.target.dataset.rank;
    if (rank === V().wild) adjustJesters(key === 'ArrowUp' ? 1 : -1);
    else if (rank && T.sel.rank !== rank) clickGroup(rank);
    else adjustSelection(key === 'ArrowUp' ? 1 : -1);
    event.preventDefault();
    return;
  }
  if (key === 'p' || key === 'P') { onPlay(); event.preventDefault(); }
  else if (key === 'x' || key === 'X') { onPass(); event.preventDefault(); }
  else if (key === 'j' || key === 'J' || (isCorporate() && (key === 'd' || key === 'D'))) { clickGroup(V().wild); event.preventDefault(); }
}

export function toggleHelp(force) {
  const help = $('help');
  const open = force === undefined ? help.hidden : force;
  help.hidden = !open;
  $('help-toggle').setAttribute('aria-expanded', String(open));
  if (open) $('help-close').focus();
  else $('help-toggle').focus();
}
