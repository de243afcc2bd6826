// The lobby: one tap to play against bots or with friends, open and
// finished tables, and the full form that creates one; while no server
// answers, a message that says so (and that the page reconnects by
// itself). Also the invite's Web Share button.

import { $, el, show, setError, announce } from './dom.js';
import { t, tn, i18n } from './i18n.js';
import { api } from './api.js';
import { me, secret, keepName, newSecret, recoveryLink } from './player.js';
import { profileHref } from './profile.js';
import { store } from './storage.js';
import { nav, T } from './state.js';
import { VARIANTS, gameName, capitalized, tableName, botWords, list, isSuited } from './words.js';
import { showTurnInIcon } from './fx.js';
import { loadGames } from './games.js';

export function showLobby() {
  document.title = t('web.page.lobby');
  showTurnInIcon(false);
  show($('conn'), false);
  if (!$('c-player').value) $('c-player').value = store.name();
  if (!$('q-player').value) $('q-player').value = store.name();
  renderPlayer();
  loadLobby();
}

// ------------------------------------------------------------ who you are

/** The player box: keep your name, or who you are with your pages. */
export function renderPlayer() {
  const player = me();
  show($('player-anon'), !player);
  show($('player-known'), !!player);
  if (!player) return;
  $('player-you').textContent = t('web.players.you-are', { name: player.name });
  $('player-profile').href = profileHref(player.name);
  // A kept name is the name you sit under.
  for (const id of ['q-player', 'c-player']) $(id).value = player.name;
}

/** Keeps the name typed, then shows the recovery link once. */
async function onKeepName() {
  const errorNode = $('player-error');
  setError(errorNode, '');
  const name = $('q-player').value.trim() || $('c-player').value.trim();
  if (!name) {
    setError(errorNode, t('web.create.need-name'));
    $('q-player').focus();
    return;
  }
  $('keep-name').disabled = true;
  try {
    const player = await keepName(name);
    renderPlayer();
    $('recovery-body').textContent = t('web.players.recovery-body', { name: player.name });
    $('recovery-link').value = recoveryLink(player);
    show($('recovery'), true);
    $('recovery-link').focus();
    $('recovery-link').select();
  } catch (e) {
    setError(errorNode, e.message);
  } finally {
    $('keep-name').disabled = false;
  }
}

/**
 * A new recovery link, once the player says so: the old one stops
 * working everywhere (a link that leaked, a device lost), and the new one
 * is shown once, as when the name was kept.
 */
async function onNewSecret() {
  const player = me();
  if (!player || !window.confirm(t('web.players.new-link-confirm', { name: player.name }))) return;
  const errorNode = $('player-error');
  setError(errorNode, '');
  $('new-secret').disabled = true;
  try {
    const changed = await newSecret();
    renderPlayer();
    $('recovery-body').textContent = t('web.players.new-link-body', { name: changed.name });
    $('recovery-link').value = recoveryLink(changed);
    show($('recovery'), true);
    $('recovery-link').focus();
    $('recovery-link').select();
  } catch (e) {
    setError(errorNode, e.message);
  } finally {
    $('new-secret').disabled = false;
  }
}

async function onCopyRecovery() {
  const input = $('recovery-link');
  try {
    await navigator.clipboard.writeText(input.value);
  } catch (_) {
    input.select();
    try { document.execCommand('copy'); } catch (_) { /* selected is enough */ }
  }
  announce(t('web.players.copied'));
  $('recovery-copy').textContent = t('web.players.copied');
  setTimeout(() => { $('recovery-copy').textContent = t('web.players.copy'); }, 2000);
}

/** Forgets the shown link: it is not shown again. */
function onRecoveryDone() {
  $('recovery-link').value = '';
  show($('recovery'), false);
  $('quick-bots').focus();
}

/** How often the lobby asks again while the server cannot be reached. */
const RETRY_MS = 4000;
let retryTimer = null;

export async function loadLobby() {
  clearTimeout(retryTimer);
  retryTimer = null;
  setError($('lobby-error'), '');
  try {
    const [open, finished] = await Promise.all([
      api('GET', '/api/tables'),
      api('GET', '/api/tables?finished=true'),
    ]);
    if (nav.route.view !== 'lobby') return;
    showUnreachable(false);
    renderTableList($('open-tables'), $('open-empty'), (open && open.tables) || [], false);
    renderTableList($('finished-tables'), $('finished-empty'), (finished && finished.tables) || [], true);
    loadMine();
  } catch (e) {
    if (e.unreachable) {
      // No server (the page may have come from the service worker's
      // cache): say so instead of a lobby whose every button fails, and
      // ask again until it answers.
      if (nav.route.view !== 'lobby') return;
      showUnreachable(true);
      clearTimeout(retryTimer);
      retryTimer = setTimeout(() => { if (nav.route.view === 'lobby') loadLobby(); }, RETRY_MS);
      return;
    }
    showUnreachable(false);
    setError($('lobby-error'), t('web.lobby.load-failed', { reason: e.message }));
  }
}

/** The lobby while no server answers: the message in place of what needs one. */
function showUnreachable(down) {
  const view = $('view-lobby');
  if (view.classList.contains('unreachable') === down) return;
  view.classList.toggle('unreachable', down);
  show($('lobby-offline'), down);
  if (down) announce(t('web.lobby.offline-title'));
}

function renderTableList(list, empty, tables, finished) {
  list.replaceChildren(...tables.map(info => tableItem(info, finished)));
  show(empty, tables.length === 0);
}

/**
 * The player's own games (a kept name's), live and finished, private ones
 * too. A live one whose seat this browser has no token for is taken back
 * (a new token for this device) when opened.
 */
async function loadMine() {
  const player = me();
  show($('mine-panel'), !!player);
  if (!player) return;
  setError($('mine-error'), '');
  try {
    const mine = await api('GET', '/api/players/me/tables', undefined, undefined, player.secret);
    if (nav.route.view !== 'lobby') return;
    const tables = (mine && mine.tables) || [];
    $('my-tables').replaceChildren(...tables.map(mineItem));
    show($('mine-empty'), tables.length === 0);
  } catch (e) {
    if (!e.unreachable) setError($('mine-error'), e.message);
  }
}

function mineItem(info) {
  const item = tableItem(info, info.over);
  if (!info.over && !store.token(info.id)) {
    const link = item.querySelector('a');
    link.textContent = t('web.lobby.back');
    link.classList.add('primary');
    link.addEventListener('click', async event => {
      event.preventDefault();
      try {
        const back = await api('POST', '/api/tables/' + encodeURIComponent(info.id) + '/seats/mine', undefined, undefined, secret());
        store.setToken(info.id, back.token);
        location.hash = '#/t/' + encodeURIComponent(info.id);
      } catch (e) {
        setError($('mine-error'), e.message);
      }
    });
  }
  return item;
}

/** When a game ended, in the language on screen. */
function finishedWhen(ms) {
  try {
    return new Intl.DateTimeFormat(i18n.lang, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms));
  } catch (_) {
    return new Date(ms).toLocaleString();
  }
}

/**
 * A name of a table's summary as the page shows it: a name the server
 * gave a bot (INFO `bots`, docs/PROTOCOL.md) in the player's words.
 */
function infoName(info, name) {
  const bot = (info.bots || []).find(b => b.name === name);
  return bot ? botWords(bot.bot, bot.n) : name;
}

function finishedWords(info) {
  const parts = [];
  if (info.finished_at) parts.push(t('web.lobby.finished-at', { when: finishedWhen(info.finished_at) }));
  else parts.push(t('web.lobby.finished'));
  if (info.winner) parts.push(t('web.lobby.winner', { name: infoName(info, info.winner) }));
  return parts.join(' · ');
}

function tableItem(info, finished) {
  const taken = info.taken || [];
  const mine = store.token(info.id);
  const status = finished ? finishedWords(info)
    : info.started ? t('web.lobby.playing', { hand: info.hand || 1 }) : t('web.lobby.waiting');
  const game = info.variant && VARIANTS[info.variant] && info.variant !== 'dalmuti' ? gameName(info.variant) : '';
  const link = finished
    ? el('a', { href: '#/replay/' + encodeURIComponent(info.id), class: 'button small', 'data-testid': 'replay-link' }, t('web.lobby.replay'))
    : el('a', { href: '#/t/' + encodeURIComponent(info.id), class: 'button small' + (mine ? ' primary' : '') },
      mine ? t('web.lobby.back') : info.started ? t('web.lobby.watch-or-join') : t('web.lobby.join'));
  return el('li', { class: 'table-item', dataset: { table: info.id } },
    el('div', { class: 'ti-main' },
      el('strong', {}, tableName(info)),
      el('span', { class: 'muted', 'data-testid': 'table-summary' },
        [game, tn('web.lobby.taken', info.seats, { taken: taken.length }), status].filter(Boolean).join(' · ')),
      taken.length ? el('div', { class: 'ti-names muted' }, list(taken.map(name => infoName(info, name)))) : null),
    link);
}

/**
 * The house rules the form offers for President and Daifugō, each a field
 * of `rules.climbing` (docs/PROTOCOL.md) and the game's word for it (the
 * catalogue's `<game>.word.<word>`), the games that offer it.
 */
const TOGGLES = [
  ['sequences', 'sequence'], ['revolution', 'revolution'], ['eight_cut', 'eight-cut'], ['eleven_back', 'eleven-back'],
  ['miyako_ochi', 'miyako-ochi'], ['forbidden_finish', 'forbidden-finish'], ['five_skip', 'five-skip'],
  ['seven_pass', 'seven-pass'], ['nine_reverse', 'nine-reverse'], ['ten_discard', 'ten-discard'],
  ['two_clears', 'two-clears'], ['unbeatable_twos', 'unbeatable-twos'], ['same_rank_skip', 'same-rank-skip'],
];

/**
 * The preset the form starts from for the game chosen: Daifugō's as the
 * form's menu says, else the game's own (the server's first).
 */
function presetOf(game) {
  const name = game.variant === 'daifugo' ? $('c-preset').value : null;
  return game.presets.find(p => p.name === name) || game.presets[0];
}

/** Sets the house rules' fields to the preset's (the engine's, from GET /api/games). */
function applyPreset(game) {
  const { climbing } = presetOf(game);
  $('c-jokers').value = String(climbing.jokers);
  $('c-lock').value = climbing.lock;
  for (const [field] of TOGGLES) {
    const box = $('c-opt-' + field);
    if (box) box.checked = !!climbing[field];
  }
}

/** Daifugō's presets menu, once, from the server's list. */
function renderPresets(game) {
  const select = $('c-preset');
  if (select.options.length) return;
  select.replaceChildren(...game.presets.map(({ name }) => {
    const key = 'web.create.preset-' + name.replace(/_/g, '-');
    return el('option', { value: name, 'data-i18n': key }, t(key));
  }));
}

/** The house rules' checkboxes, labelled in the words of the game chosen. */
function renderToggles(variant) {
  const box = $('c-toggles');
  const checked = Object.fromEntries([...box.querySelectorAll('input')].map(i => [i.dataset.option, i.checked]));
  box.replaceChildren(...TOGGLES.map(([field, word]) => el('label', { class: 'check' },
    el('input', { type: 'checkbox', id: 'c-opt-' + field, dataset: { option: field }, 'data-testid': 'create-option' }),
    ' ', el('span', {}, capitalized(t(variant + '.word.' + word))))));
  for (const [field, on] of Object.entries(checked)) if ($('c-opt-' + field)) $('c-opt-' + field).checked = on;
  $('c-jokers-label').textContent = capitalized(tn(variant + '.card.JK', 2));
  $('c-lock-label').textContent = capitalized(t(variant + '.word.lock'));
}

/** The options the form sends for President or Daifugō: every one shown. */
function climbingRules(variant) {
  const climbing = { jokers: Number($('c-jokers').value), lock: $('c-lock').value };
  for (const [field] of TOGGLES) climbing[field] = $('c-opt-' + field).checked;
  // Options that need sequences go with them.
  if (!climbing.sequences) Object.assign(climbing, { sequence_revolution: false, joker_beyond_ends: false });
  const rules = { variant, climbing };
  if (variant === 'daifugo') rules.preset = $('c-preset').value;
  return rules;
}

let formVariant = null;

/**
 * The server's offer of the game the form shows, or null: with no server
 * to ask, or when another game was chosen while it was asked (that
 * change's own call draws the form).
 */
async function chosenGame() {
  const variant = $('c-variant').value;
  let games;
  try {
    games = await loadGames();
  } catch (_) {
    return null;
  }
  const game = games.get(variant);
  return game && $('c-variant').value === variant ? game : null;
}

/** Another preset chosen: the house rules' fields become its. */
export async function onPresetChange() {
  const game = await chosenGame();
  if (game) applyPreset(game);
}

/**
 * The lobby form follows the game chosen: its table sizes, its optional
 * rules. The sizes and presets are the server's: with no server to ask,
 * the form is left as it was (it cannot create a table then anyway, and
 * the lobby says the server cannot be reached).
 */
export async function onVariantChange() {
  const variant = $('c-variant').value;
  const suited = isSuited(variant);
  const corporate = variant === 'corporate-shuffle' || suited;
  show($('c-climbing'), suited);
  show($('c-dalmuti-rules'), !suited);
  show($('c-scoring-field'), !suited);
  show($('c-preset-field'), variant === 'daifugo');
  if (!suited) {
    $('c-fdr-text').textContent = t('web.create.first-deal', { revolution: t(variant + '.revolution') });
    $('c-merchant-text').textContent = capitalized(t(variant + '.exchange'));
  }
  $('c-stripped').disabled = corporate;
  if (corporate) $('c-stripped').checked = false;
  const game = await chosenGame();
  if (!game) return;
  if (suited) {
    renderPresets(game);
    renderToggles(variant);
    if (formVariant !== variant) applyPreset(game);
  }
  formVariant = variant;
  const most = game.most;
  $('c-seats').min = String(game.fewest);
  $('c-seats').max = String(most);
  $('c-seats-label').textContent = t('web.create.seats', { most });
  if (Number($('c-seats').value) > most) $('c-seats').value = String(most);
}

export async function onCreate(event) {
  event.preventDefault();
  const errorNode = $('create-error');
  setError(errorNode, '');
  const name = $('c-name').value.trim();
  const player = $('c-player').value.trim();
  const seats = Number($('c-seats').value);
  const game = $('c-variant').value;
  if (!player) return setError(errorNode, t('web.create.need-name'));
  let offer;
  try {
    offer = (await loadGames()).get(game);
  } catch (e) {
    return setError(errorNode, t('web.create.failed', { reason: e.message }));
  }
  const most = offer.most;
  if (!(seats >= offer.fewest && seats <= most)) {
    return setError(errorNode, t('web.create.bad-seats', { game: gameName(game), most }));
  }
  // No name: the server names the table after its creator, and keeps
  // default names distinct ("Ada's table", "Ada's table 2").
  const body = {
    player, seats,
    // President and Daifugō: their own options, a match scored by places.
    rules: isSuited(game) ? climbingRules(game) : {
      variant: game,
      // Corporate Shuffle's deck is never stripped.
      stripped_deck: game !== 'corporate-shuffle' && $('c-stripped').checked,
      first_deal_revolution: $('c-fdr').checked,
      merchant_exchange: $('c-merchant').checked,
      scoring: $('c-scoring').value,
      join_and_leave: $('c-join').checked,
    },
    public: $('c-public').checked,
    spectator_chat: $('c-spectator-chat').checked,
    rated: $('c-rated').checked,
  };
  if (name) body.name = name;
  const hands = $('c-hands').value.trim();
  if (hands) body.hands = Number(hands);
  const timer = $('c-timer').value;
  if (timer) body.turn_seconds = Number(timer);
  $('create-submit').disabled = true;
  try {
    const answer = await api('POST', '/api/tables', body, undefined, secret());
    store.setToken(answer.id, answer.token);
    store.setName(player);
    location.hash = '#/t/' + encodeURIComponent(answer.id);
  } catch (e) {
    setError(errorNode, t('web.create.failed', { reason: e.message }));
  } finally {
    $('create-submit').disabled = false;
  }
}

// ------------------------------------------------------------ play now

let quickBusy = false;

/**
 * The rules of a Play now table of the game chosen: Dalmuti and Corporate
 * Shuffle scored, players coming and going between hands; President and
 * Daifugō as the server plays them by default (a match by the same
 * players, scored by places).
 */
function quickRules(variant) {
  return isSuited(variant) ? { variant } : { variant, scoring: 'standard', join_and_leave: true };
}

/** A table of the game chosen with you and four bots of the normal level, five hands, started at once. */
async function onQuickBots() {
  await quick(async (player, variant) => {
    // Rated when you kept your name: you and bots, each level rated too.
    const made = await api('POST', '/api/tables', {
      player, seats: 5, hands: 5, public: false, rules: quickRules(variant), rated: !!me(),
    }, undefined, secret());
    store.setToken(made.id, made.token);
    const path = '/api/tables/' + encodeURIComponent(made.id);
    for (let i = 0; i < 4; i++) await api('POST', path + '/bots', { bot: 'normal' }, made.token);
    await api('POST', path + '/start', undefined, made.token);
    return made.id;
  });
}

/** A private table of the game chosen for up to eight, opened with its invite link in sight. */
async function onQuickFriends() {
  const id = await quick(async (player, variant) => {
    const made = await api('POST', '/api/tables', {
      player, seats: 8, hands: 5, public: false, rules: quickRules(variant),
    }, undefined, secret());
    store.setToken(made.id, made.token);
    return made.id;
  });
  if (id) {
    // The link is the next thing to do: share it (or copy it), once the
    // table is on screen (its first STATE drawn).
    const started = Date.now();
    const focusInvite = () => {
      if (location.hash !== '#/t/' + encodeURIComponent(id)) return;
      const button = $('invite-share').hidden ? $('invite-copy') : $('invite-share');
      if (!(T.state && T.state.table === id) || button.offsetParent === null) {
        if (Date.now() - started < 10000) setTimeout(focusInvite, 50);
        return;
      }
      $('t-invite').scrollIntoView({ block: 'nearest' });
      button.focus();
    };
    focusInvite();
  }
}

async function quick(make) {
  if (quickBusy) return null;
  const errorNode = $('quick-error');
  setError(errorNode, '');
  const player = $('q-player').value.trim();
  if (!player) {
    setError(errorNode, t('web.create.need-name'));
    $('q-player').focus();
    return null;
  }
  quickBusy = true;
  for (const id of ['quick-bots', 'quick-friends']) $(id).setAttribute('aria-disabled', 'true');
  try {
    store.setName(player);
    const id = await make(player, $('q-game').value);
    location.hash = '#/t/' + encodeURIComponent(id);
    return id;
  } catch (e) {
    setError(errorNode, t('web.create.failed', { reason: e.message }));
    return null;
  } finally {
    quickBusy = false;
    for (const id of ['quick-bots', 'quick-friends']) $(id).removeAttribute('aria-disabled');
  }
}

/** Wires the lobby's quick buttons (once, at start-up). */
export function setUpLobby() {
  $('lobby-retry').addEventListener('click', loadLobby);
  // The network is back (or gone): ask at once rather than at the next try.
  for (const change of ['online', 'offline']) {
    window.addEventListener(change, () => { if (nav.route.view === 'lobby') loadLobby(); });
  }
  $('keep-name').addEventListener('click', onKeepName);
  $('new-secret').addEventListener('click', onNewSecret);
  $('recovery-copy').addEventListener('click', onCopyRecovery);
  $('recovery-done').addEventListener('click', onRecoveryDone);
  $('quick-bots').addEventListener('click', onQuickBots);
  $('quick-friends').addEventListener('click', onQuickFriends);
  $('quick-form').addEventListener('submit', event => { event.preventDefault(); onQuickBots(); });
}

// ------------------------------------------------------------ the invite

/** Shares the invite link the phone's way (the Web Share API). */
async function onShareInvite() {
  const url = $('invite-link').value;
  const name = $('t-name').textContent;
  try {
    await navigator.share({ title: name, text: t('web.invite.share-text', { name }), url });
    announce(t('web.invite.shared'));
  } catch (e) {
    // Closing the share sheet is no error; anything else: copy instead.
    if (e && e.name !== 'AbortError') $('invite-copy').click();
  }
}

/** The Share button, where the browser can share (phones mostly); Copy stays for the others. */
export function setUpInviteShare() {
  const can = typeof navigator.share === 'function';
  show($('invite-share'), can);
  if (can) $('invite-share').addEventListener('click', onShareInvite);
}
