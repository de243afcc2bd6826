// The dialogs a decision opens: a revolution to call, the tax to pay, the
// merchant exchange, a Corporate Shuffle play's question (whom the Wedgie
// makes pass, what Dogberts alone are), where a newcomer sits.

import { $, el, show, replaceKeepingFocus, faceParts, fitNames, suitedFace } from './dom.js';
import { t, tn, i18n } from './i18n.js';
import { T, view, decisionOf, playerName, shownPlayer, shownName, lobbyEntry, countOf, revolutionOffer, legal } from './state.js';
import {
  V, parseCards, sameCards, setWords, cardName, cardWord, groupHand, gameWord, vt, capitalized, middleTitle, titleText,
  placeTitle, isSuited, suitedShort, suitedSetShort,
} from './words.js';
import { send, sendAct } from './connection.js';
import { views } from './views.js';
import { renderTour } from './tour.js';
import { renderActions, declarableValues, wedgieTargets, playAsked, fresh } from './hand.js';
import { handCards } from './suited.js';

let decisionDomKey = '';

export function renderDecision() {
  const s = T.state;
  const d = s && s.decision;
  const box = $('decision');
  let title = '';
  let body = null;
  if (s && s.place) {
    [title, body] = placeDialog(s.place);
  } else if (T.ask) {
    [title, body] = askDialog(T.ask);
  } else if (d) {
    if (d.kind === 'ready') [title, body] = revolutionDialog();
    else if (d.kind === 'tax') [title, body] = isSuited() ? suitedTaxDialog(d) : taxDialog(d);
    else if (d.kind === 'give' || d.kind === 'discard') [title, body] = oneCardDialog(d);
    else if (d.kind === 'offer_exchange' || d.kind === 'exchange_offer') [title, body] = offerDialog(d);
    else if (d.kind === 'answer_exchange' || d.kind === 'exchange_answer') [title, body] = answerDialog(d);
  }
  const wasHidden = box.hidden;
  show(box, !!body);
  // On a phone the tour sits on top of the sheet in front: this one, or the hand's.
  if (wasHidden === !!body) renderTour();
  $('game-main').classList.toggle('dialog-open', !!body);
  // Taxes and the exchange show the hand in the dialog: not twice.
  const handInside = !!body && !!d && !T.ask && !s.place && /tax|exchange|give|discard/.test(d.kind);
  $('dock').classList.toggle('hand-in-dialog', handInside);
  if (!body) { box.dataset.kind = ''; return; }
  box.dataset.kind = s.place ? 'place' : T.ask ? T.ask.kind : d.kind;
  box.dataset.count = d && d.count != null ? String(d.count) : '';
  box.dataset.pending = String(T.pending);
  $('decision-title').textContent = title;
  const key = JSON.stringify([T.id, s.hand, d, s.place, view() && view().hand, T.tax, T.exchange, T.answer, T.pending, T.ask,
    view() && view().seats, i18n.lang]);
  if (key !== decisionDomKey || wasHidden) {
    decisionDomKey = key;
    replaceKeepingFocus($('decision-body'), [body]);
    fitNames($('decision-body'));
  }
  if (wasHidden) {
    const active = document.activeElement;
    const busy = active && (active.tagName === 'INPUT' || active.tagName === 'TEXTAREA' || active.tagName === 'SELECT');
    if (!busy) {
      const first = box.querySelector('button:not([disabled])');
      if (first) first.focus({ preventScroll: false });
    }
  }
}

function buttonRow(...buttons) {
  return el('div', { class: 'button-row' }, buttons);
}

/**
 * The question a Corporate Shuffle play asks before it is sent: whom the
 * Twirling Wedgie makes pass, or what Dogberts alone are played as. Each
 * choice sends the play at once; Cancel goes back to choosing cards.
 */
function askDialog(ask) {
  const cancel = el('button', {
    type: 'button', 'data-testid': 'ask-cancel', dataset: { key: 'ask-cancel' },
    onclick: () => { T.ask = null; renderDecision(); renderActions(); },
  }, t('web.dialog.cancel'));
  const set = ask.cards.join(' ');
  if (ask.kind === 'wedgie') {
    const buttons = wedgieTargets().map(i => el('button', {
      type: 'button', class: 'choice', 'data-testid': 'wedgie-target', dataset: { key: 'wedgie-' + i, seat: String(i) },
      disabled: T.pending, onclick: () => playAsked({ wedgie: i }),
    }, tn('web.wedgie.target', view().seats[i].cards, { name: shownPlayer(i) })));
    return [cardName('T'), el('div', {},
      el('p', {}, t('web.wedgie.question', { set: setWords(set), card: cardName('T') })),
      buttonRow(...buttons, cancel))];
  }
  const n = ask.cards.length;
  const buttons = declarableValues().map(v => el('button', {
    type: 'button', class: 'choice', 'data-testid': 'declare-value', dataset: { key: 'declare-' + v, value: String(v) },
    disabled: T.pending, onclick: () => playAsked({ as: v }),
  }, t('web.declare.as', { card: cardWord(String(v), n), value: v })));
  const follow = decisionOf('follow');
  const question = follow
    ? tn('web.declare.question-follow', n, { card: cardWord('D', n), set: setWords(follow.top) })
    : tn('web.declare.question', n, { card: cardWord('D', n) });
  return [tn('web.declare.title', n, { card: cardWord('D', n) }), el('div', {},
    el('p', {}, question),
    el('div', { class: 'button-row', role: 'group', 'aria-label': t('web.declare.value') }, buttons),
    buttonRow(cancel))];
}

function callRevolutionButton(offer, label) {
  return el('button', { type: 'button', 'data-testid': 'call-revolution', dataset: { key: 'rev-call' }, disabled: T.pending, onclick: () => sendAct('call_revolution') },
    label || t(offer.greater ? 'web.revolution.call-greater' : 'web.revolution.call', { revolution: gameWord('revolution') }));
}

/**
 * Saying ready is the table's to do (docs/PROTOCOL.md): when the setup
 * pause ends, everyone is. Only a player dealt both Jesters has a dialog, to
 * call a revolution first; keeping quiet is saying nothing, so "Keep quiet"
 * only closes the dialog here and sends nothing.
 */
function revolutionDialog() {
  const offer = revolutionOffer();
  if (!offer || T.quietHand === T.state.hand) return ['', null];
  const args = {
    wilds: cardWord(V().wild, 2), revolution: gameWord('revolution'), taxes: gameWord('taxes'),
    last: placeTitle(4), first: placeTitle(0),
  };
  const text = t(offer.greater ? 'web.revolution.text-greater' : 'web.revolution.text', args);
  return [t('web.revolution.title', { revolution: capitalized(gameWord('revolution')) }), el('div', {},
    el('p', {}, text),
    el('p', { class: 'muted' }, t('web.revolution.hint')),
    buttonRow(
      callRevolutionButton(offer),
      el('button', { type: 'button', 'data-testid': 'keep-quiet', dataset: { key: 'rev-no' }, onclick: () => { T.quietHand = T.state.hand; views.render(); } },
        t('web.revolution.keep-quiet'))))];
}

/** Under a tax or exchange dialog: the revolution its holder may call instead. */
function revolutionInstead() {
  const offer = revolutionOffer();
  if (!offer) return null;
  const label = t(offer.greater ? 'web.revolution.instead-greater' : 'web.revolution.instead', { revolution: gameWord('revolution') });
  return el('p', { class: 'muted' }, t('web.revolution.hold', { wilds: cardWord(V().wild, 2) }) + ' ',
    callRevolutionButton(offer, label));
}

/** How many cards of `rank` the tax gift holds. */
function taxCount(rank) {
  return T.tax.filter(r => r === rank).length;
}

/**
 * A click on a rank of the hand in the tax dialog: one card more of it,
 * until the whole group or the whole tax is chosen; then none of it. The
 * oldest choice makes way when the tax is full.
 */
export function taxPick(rank, delta) {
  const d = decisionOf('tax');
  if (!d) return;
  const have = countOf(rank);
  const now = taxCount(rank);
  if (delta < 0) {
    const at = T.tax.lastIndexOf(rank);
    if (at >= 0) T.tax.splice(at, 1);
  } else if (now < have && now < d.count) {
    T.tax.push(rank);
    while (T.tax.length > d.count) {
      const other = T.tax.findIndex(r => r !== rank);
      T.tax.splice(other >= 0 ? other : 0, 1);
    }
  } else if (delta == null) {
    T.tax = T.tax.filter(r => r !== rank);
  }
  renderDecision();
}

function taxDialog(d) {
  // The hand once, grouped as at the table: a click takes one card more.
  T.tax = T.tax.filter((r, i) => T.tax.slice(0, i + 1).filter(x => x === r).length <= countOf(r));
  const buttons = groupHand(view().hand).map(g => {
    const chosen = taxCount(g.rank);
    const extra = [tn('web.cards', g.count)];
    if (chosen) extra.push(t('web.hand.chosen-count', { chosen }));
    if (fresh.ranks.has(g.rank)) extra.push(t('web.hand.new'));
    return el('button', {
      type: 'button', class: 'card group pick r' + g.rank + (chosen ? ' chosen' : '') + (fresh.ranks.has(g.rank) ? ' fresh' : ''),
      'aria-pressed': chosen ? 'true' : 'false',
      'data-testid': 'tax-card', dataset: { key: 'tax-' + g.rank, rank: g.rank, count: String(g.count), chosen: String(chosen) },
      onclick: () => taxPick(g.rank),
    }, faceParts(g.rank), ' ',
    el('span', { class: 'card-count' }, chosen ? chosen + '/' + g.count : '\u00d7' + g.count),
    el('span', { class: 'sr-only' }, ', ' + extra.join(', ')));
  });
  // The gift is given as the legal action of the same cards (some cards
  // may not be given: the legal gifts say which).
  const chosen = sameCards(T.tax);
  const gift = legal('give_tax').find(a => sameCards(a.give_tax) === chosen);
  const ready = T.tax.length === d.count && !!gift;
  return [vt('pay-tax'), el('div', {},
    el('p', {}, tn('web.tax.text', d.count, { name: shownPlayer(d.to) })),
    el('div', { class: 'pick-row hand', role: 'group', 'aria-label': t('web.tax.cards'), 'data-testid': 'tax-hand' }, buttons),
    buttonRow(el('button', {
      type: 'button', class: 'primary', 'data-testid': 'give-tax', dataset: { key: 'tax-give' },
      disabled: !ready || T.pending, onclick: () => sendAct(gift),
    }, ready ? t('web.tax.give', { cards: gift.give_tax }) : t('web.tax.give-count', { chosen: T.tax.length, count: d.count }))),
    revolutionInstead())];
}

/**
 * President and Daifugō's exchange, the rich's side: the poor's best cards
 * were taken for them (they are in the hand now, marked new); the rich
 * choose which cards to give back, one tap a card. The gift is sent as
 * the legal action of exactly those cards.
 */
function suitedTaxDialog(d) {
  const cards = handCards();
  const keys = new Set(cards.map(c => c.key));
  T.tax = T.tax.filter(k => keys.has(k));
  // What the poor's best brought: in the hand now, not in it as dealt.
  const got = view().my_tax && view().my_tax.received ? view().my_tax.received : newCards(T.state.dealt, view().hand);
  const received = new Set(parseCards(got));
  const buttons = cards.map(c => {
    const chosen = T.tax.includes(c.key);
    const isNew = received.has(c.token);
    return suitedFace(c.token, 'card one pick' + (chosen ? ' chosen' : '') + (isNew ? ' fresh' : ''), 'button', {
      type: 'button', 'aria-pressed': chosen ? 'true' : 'false', 'data-testid': 'tax-card',
      dataset: { key: 'tax-' + c.key, card: c.token, chosen: String(chosen) },
      onclick: () => {
        T.tax = chosen ? T.tax.filter(k => k !== c.key) : [...T.tax, c.key].slice(-d.count);
        renderDecision();
      },
    });
  });
  const chosenTokens = cards.filter(c => T.tax.includes(c.key)).map(c => c.token);
  const gift = legal('give_tax').find(a => sameCards(a.give_tax) === sameCards(chosenTokens));
  const ready = chosenTokens.length === d.count && !!gift;
  return [capitalized(gameWord('exchange')), el('div', {},
    el('p', {}, tn('web.suited.exchange.text', d.count, { name: shownPlayer(d.to) })),
    got ? el('p', { class: 'muted', 'data-testid': 'exchange-got' }, t('web.suited.exchange.got', { name: shownPlayer(d.to), cards: suitedSetShort(got) })) : null,
    el('div', { class: 'pick-row hand suited-hand', role: 'group', 'aria-label': t('web.tax.cards'), 'data-testid': 'tax-hand' }, buttons),
    buttonRow(el('button', {
      type: 'button', class: 'primary', 'data-testid': 'give-tax', dataset: { key: 'tax-give' },
      disabled: !ready || T.pending, onclick: () => { T.tax = []; sendAct(gift); },
    }, ready ? t('web.suited.exchange.give', { cards: suitedSetShort(gift.give_tax), name: shownPlayer(d.to) })
      : t('web.tax.give-count', { chosen: chosenTokens.length, count: d.count }))))];
}

/** The cards of `now` beyond those of `before` (card strings), as a card string. */
function newCards(before, now) {
  const left = new Map();
  for (const c of parseCards(before)) left.set(c, (left.get(c) || 0) + 1);
  const out = [];
  for (const c of parseCards(now)) {
    const n = left.get(c) || 0;
    if (n) left.set(c, n - 1); else out.push(c);
  }
  return before ? out.join(' ') : '';
}


/**
 * 7-pass and 10-discard: after a play of 7s (10s), one card of my choice
 * to the next player (out of play), one at a time, `left` to go. The
 * cards offered are the legal actions' own.
 */
function oneCardDialog(d) {
  const kind = d.kind;
  const actions = legal(kind);
  const allowed = new Set(actions.map(a => a[kind]));
  if (T.answer != null && !allowed.has(T.answer)) T.answer = null;
  const buttons = handCards().filter(c => allowed.has(c.token) && c.key.endsWith('#0')).map(c => {
    const chosen = T.answer === c.token;
    return suitedFace(c.token, 'card one pick' + (chosen ? ' chosen' : ''), 'button', {
      type: 'button', 'aria-pressed': chosen ? 'true' : 'false', 'data-testid': kind + '-card',
      dataset: { key: kind + '-' + c.token, card: c.token },
      onclick: () => { T.answer = chosen ? null : c.token; renderDecision(); },
    });
  });
  const action = actions.find(a => a[kind] === T.answer);
  const args = { name: d.to != null ? shownPlayer(d.to) : '', n: d.left };
  const word = gameWord(kind === 'give' ? 'word.seven-pass' : 'word.ten-discard');
  return [capitalized(word), el('div', {},
    el('p', {}, tn('web.suited.' + kind + '.text', d.left, args)),
    el('div', { class: 'pick-row hand suited-hand', role: 'group', 'aria-label': t('web.suited.' + kind + '.cards'), 'data-testid': kind + '-hand' }, buttons),
    buttonRow(el('button', {
      type: 'button', class: 'primary', 'data-testid': kind + '-send', dataset: { key: kind + '-send' },
      disabled: !action || T.pending, onclick: () => { T.answer = null; sendAct(action); },
    }, action ? t('web.suited.' + kind + '.send', Object.assign({ card: suitedShort(action[kind]) }, args))
      : t('web.suited.' + kind + '.choose'))))];
}

function distinctRankButtons(selected, onPick, testid) {
  return groupHand(view().hand).map(g => el('button', {
    type: 'button', class: 'card group pick r' + g.rank + (selected === g.rank ? ' chosen' : ''),
    'aria-pressed': selected === g.rank ? 'true' : 'false',
    'data-testid': testid, dataset: { key: testid + '-' + g.rank, rank: g.rank },
    onclick: () => onPick(g.rank),
  }, faceParts(g.rank), ' ', el('span', { class: 'card-count' }, '\u00d7' + g.count),
  el('span', { class: 'sr-only' }, ', ' + tn('web.cards', g.count))));
}

function offerDialog() {
  // The partners and cards the legal offers name (docs/RULES.md,
  // Merchant exchange: any other Merchant, or Worker).
  const offers = legal('offer_exchange').map(a => a.offer_exchange);
  const partners = [...new Set(offers.map(o => o.partner))].map(i => ({ i }));
  const ex = T.exchange;
  if (ex.partner != null && !partners.some(x => x.i === ex.partner)) ex.partner = null;
  if (ex.card != null && !countOf(ex.card)) ex.card = null;
  if (ex.partner == null && partners.length === 1) ex.partner = partners[0].i;
  const partnerButtons = partners.map(x => el('button', {
    type: 'button', class: 'choice' + (ex.partner === x.i ? ' chosen' : ''),
    'aria-pressed': ex.partner === x.i ? 'true' : 'false', 'data-testid': 'exchange-partner',
    dataset: { key: 'partner-' + x.i }, onclick: () => { ex.partner = x.i; renderDecision(); },
  }, shownPlayer(x.i)));
  const offer = legal('offer_exchange').find(a => a.offer_exchange.partner === ex.partner && a.offer_exchange.card === ex.card);
  const ready = !!offer;
  return [capitalized(gameWord('exchange')), el('div', {},
    el('p', {}, t('web.exchange.offer-text', { title: titleText(middleTitle()) })),
    el('p', { class: 'label' }, t('web.exchange.to-whom')),
    el('div', { class: 'pick-row', role: 'group', 'aria-label': t('web.exchange.partner') }, partnerButtons),
    el('p', { class: 'label' }, t('web.exchange.which')),
    el('div', { class: 'pick-row', role: 'group', 'aria-label': t('web.exchange.card') },
      distinctRankButtons(ex.card, rank => { ex.card = rank; renderDecision(); }, 'exchange-card')),
    buttonRow(
      el('button', {
        type: 'button', class: 'primary', 'data-testid': 'offer-exchange', dataset: { key: 'offer' },
        disabled: !ready || T.pending,
        onclick: () => {
          sendAct(offer);
          if (T.pending) T.exchange = { partner: null, card: null };
        },
      }, ready ? t('web.exchange.offer-to', { card: cardName(ex.card), name: shownPlayer(ex.partner) }) : t('web.exchange.offer')),
      el('button', { type: 'button', 'data-testid': 'decline-exchange', dataset: { key: 'decline' }, disabled: T.pending || !legal('decline_exchange').length, onclick: () => sendAct('decline_exchange') },
        t('web.exchange.decline'))),
    revolutionInstead())];
}

/** The legal answer giving back a card of `rank`, if any. */
function answerOf(rank) {
  return legal('answer_exchange').find(a => a.answer_exchange === rank);
}

function answerDialog(d) {
  // Both cards are given face down at the same time (docs/RULES.md,
  // Merchant exchange): what the partner offers is not known until the
  // exchange settles, and then it shows in the log (my_trade).
  return [capitalized(gameWord('exchange')), el('div', {},
    el('p', {}, t('web.exchange.answer-text', { name: shownPlayer(d.from), exchange: gameWord('exchange') })),
    el('div', { class: 'pick-row', role: 'group', 'aria-label': t('web.exchange.give-back') },
      distinctRankButtons(T.answer, rank => { T.answer = rank; renderDecision(); }, 'answer-card')),
    buttonRow(el('button', {
      type: 'button', class: 'primary', 'data-testid': 'answer-exchange', dataset: { key: 'answer' },
      disabled: T.pending || !answerOf(T.answer),
      onclick: () => { const answer = answerOf(T.answer); T.answer = null; sendAct(answer); },
    }, T.answer != null ? t('web.exchange.give', { name: shownPlayer(d.from), card: cardName(T.answer) }) : t('web.exchange.give-any'))))];
}

/**
 * The seating of the coming hand before the newcomer sits (by finishing
 * order, without those who left, with the newcomers seated so far), or
 * null when it cannot be told.
 */
function nextSeating() {
  const s = T.state;
  const vw = s.view;
  if (!vw || vw.stage !== 'over' || !vw.finish_order) return null;
  const names = vw.finish_order.map(playerName).filter(name => {
    const x = lobbyEntry(name);
    return x && !x.waiting;
  });
  for (const j of T.joined) {
    if (names.includes(j.name) || j.seat > names.length) return null;
    names.splice(j.seat, 0, j.name);
  }
  const seated = (s.lobby || []).filter(x => !x.waiting).length;
  return names.length === seated ? names : null;
}

function placeDialog(place) {
  const players = nextSeating() || [];
  const buttons = (place.seats || []).map(k => {
    const after = players[k - 1];
    const before = players[k];
    const key = after && before ? 'web.place.seat-between' : after ? 'web.place.seat-after' : before ? 'web.place.seat-before' : 'web.place.seat';
    return el('button', {
      type: 'button', class: 'choice', 'data-testid': 'place-seat', dataset: { key: 'place-' + k },
      disabled: T.pending,
      onclick: () => {
        if (T.pending) return;
        if (send({ t: 'place', v: T.v, d: { name: place.name, seat: k } })) { T.pending = true; renderDecision(); }
      },
    }, t(key, { seat: k + 1, after: after && shownName(after), before: before && shownName(before) }));
  });
  const args = { name: shownName(place.name), title: titleText(middleTitle()), first: placeTitle(0) };
  return [t('web.place.title', { name: shownName(place.name) }), el('div', {},
    el('p', {}, t(players.length ? 'web.place.text-order' : 'web.place.text', args)),
    buttonRow(...buttons))];
}
