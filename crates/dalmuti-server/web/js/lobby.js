// The lobby: open and finished tables, and the form that creates one.

import { $, el, show, setError } from './dom.js';
import { t, tn } from './i18n.js';
import { api } from './api.js';
import { store } from './storage.js';
import { nav } from './state.js';
import { VARIANTS, gameName, capitalized } from './words.js';

export function showLobby() {
  document.title = t('web.page.lobby');
  show($('conn'), false);
  if (!$('c-player').value) $('c-player').value = store.name();
  loadLobby();
}

export async function loadLobby() {
  setError($('lobby-error'), '');
  try {
    const [open, finished] = await Promise.all([
      api('GET', '/api/tables'),
      api('GET', '/api/tables?finished=true'),
    ]);
    if (nav.route.view !== 'lobby') return;
    renderTableList($('open-tables'), $('open-empty'), (open && open.tables) || [], false);
    renderTableList($('finished-tables'), $('finished-empty'), (finished && finished.tables) || [], true);
  } catch (e) {
    setError($('lobby-error'), t('web.lobby.load-failed', { reason: e.message }));
  }
}

function renderTableList(list, empty, tables, finished) {
  list.replaceChildren(...tables.map(info => tableItem(info, finished)));
  show(empty, tables.length === 0);
}

function tableItem(info, finished) {
  const taken = info.taken || [];
  const mine = store.token(info.id);
  const status = finished ? t('web.lobby.finished')
    : info.started ? t('web.lobby.playing', { hand: info.hand || 1 }) : t('web.lobby.waiting');
  const game = info.variant && VARIANTS[info.variant] && info.variant !== 'dalmuti' ? ' · ' + gameName(info.variant) : '';
  const link = finished
    ? el('a', { href: '#/replay/' + encodeURIComponent(info.id), class: 'button small', 'data-testid': 'replay-link' }, t('web.lobby.replay'))
    : el('a', { href: '#/t/' + encodeURIComponent(info.id), class: 'button small' + (mine ? ' primary' : '') },
      mine ? t('web.lobby.back') : info.started ? t('web.lobby.watch-or-join') : t('web.lobby.join'));
  return el('li', { class: 'table-item', dataset: { table: info.id } },
    el('div', { class: 'ti-main' },
      el('strong', {}, info.name),
      el('span', { class: 'muted', 'data-testid': 'table-summary' },
        game + ' · ' + tn('web.lobby.taken', info.seats, { taken: taken.length }) + ' · ' + status),
      taken.length ? el('div', { class: 'ti-names muted' }, taken.join(', ')) : null),
    link);
}

/** The lobby form follows the game chosen: its table sizes, its optional rules. */
export function onVariantChange() {
  const variant = $('c-variant').value;
  const corporate = variant === 'corporate-shuffle';
  const most = corporate ? 8 : 16;
  $('c-seats').max = String(most);
  $('c-seats-label').textContent = t('web.create.seats', { most });
  if (Number($('c-seats').value) > most) $('c-seats').value = String(most);
  $('c-stripped').disabled = corporate;
  if (corporate) $('c-stripped').checked = false;
  $('c-fdr-text').textContent = t('web.create.first-deal', { revolution: t(variant + '.revolution') });
  $('c-merchant-text').textContent = capitalized(t(variant + '.exchange'));
}

export async function onCreate(event) {
  event.preventDefault();
  const errorNode = $('create-error');
  setError(errorNode, '');
  const name = $('c-name').value.trim();
  const player = $('c-player').value.trim();
  const seats = Number($('c-seats').value);
  const game = $('c-variant').value;
  const most = game === 'corporate-shuffle' ? 8 : 16;
  if (!name) return setError(errorNode, t('web.create.need-table-name'));
  if (!player) return setError(errorNode, t('web.create.need-name'));
  if (!(seats >= 3 && seats <= most)) {
    return setError(errorNode, t('web.create.bad-seats', { game: gameName(game), most }));
  }
  const body = {
    name, player, seats,
    rules: {
      variant: game,
      // Corporate Shuffle's deck is never stripped.
      stripped_deck: game !== 'corporate-shuffle' && $('c-stripped').checked,
      first_deal_revolution: $('c-fdr').checked,
      merchant_exchange: $('c-merchant').checked,
      scoring: $('c-scoring').value,
      join_and_leave: $('c-join').checked,
    },
    public: $('c-public').checked,
  };
  const hands = $('c-hands').value.trim();
  if (hands) body.hands = Number(hands);
  const timer = $('c-timer').value;
  if (timer) body.turn_seconds = Number(timer);
  $('create-submit').disabled = true;
  try {
    const answer = await api('POST', '/api/tables', body);
    store.setToken(answer.id, answer.token);
    store.setName(player);
    location.hash = '#/t/' + encodeURIComponent(answer.id);
  } catch (e) {
    setError(errorNode, t('web.create.failed', { reason: e.message }));
  } finally {
    $('create-submit').disabled = false;
  }
}
