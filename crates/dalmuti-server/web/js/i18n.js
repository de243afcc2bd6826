// The client's words in five languages. They live in the catalogue files
// of crates/dalmuti-i18n/locales (<lang>.game.json and <lang>.web.json),
// which the server sends merged as /i18n/<lang>.json: nothing here but
// looking words up.
//
// t(key, args)     a message, its {placeholders} filled from args
// tn(key, n, args) a message by count: a plural object's CLDR category
//                  for n (Intl.PluralRules), with {n} filled
// ordinal(n)       "1st", "1.", "1위": web.ordinal by ordinal category
//
// A key missing from a language falls back to English, then to the key
// itself, so a gap shows plainly instead of failing.

import { store } from './storage.js';

/** The languages, by code, named in themselves (for the switcher). */
export const LANGS = [
  { code: 'en', name: 'English' },
  { code: 'ko', name: '한국어' },
  { code: 'de', name: 'Deutsch' },
  { code: 'es', name: 'Español' },
  { code: 'ja', name: '日本語' },
];

const STORE_KEY = 'dalmuti.lang';

/** The language on screen and its messages (read only outside this module). */
export const i18n = { lang: 'en', messages: {}, english: {} };

const listeners = [];

/** Calls `fn` after each switch of language. */
export function onLangChange(fn) {
  listeners.push(fn);
}

/** The language to show: the one chosen here before, else the browser's first that we speak, else English. */
export function detectLang() {
  const chosen = store.get(STORE_KEY);
  if (LANGS.some(l => l.code === chosen)) return chosen;
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en'];
  for (const tag of wanted) {
    const code = String(tag).toLowerCase().split(/[-_]/)[0];
    if (LANGS.some(l => l.code === code)) return code;
  }
  return 'en';
}

async function fetchMessages(code) {
  const response = await fetch('/i18n/' + code + '.json');
  if (!response.ok) throw new Error('/i18n/' + code + '.json: ' + response.status);
  return response.json();
}

/**
 * Loads `code`'s messages (and English behind them) and makes it the
 * language on screen: <html lang>, the page's fixed words, then every
 * listener (which re-render). `remember` keeps the choice for next time.
 */
export async function setLang(code, remember) {
  if (!LANGS.some(l => l.code === code)) code = 'en';
  const [messages, english] = await Promise.all([
    fetchMessages(code),
    code === 'en' || Object.keys(i18n.english).length ? Promise.resolve(null) : fetchMessages('en'),
  ]);
  if (code === 'en') i18n.english = messages;
  else if (english) i18n.english = english;
  i18n.messages = messages;
  i18n.lang = code;
  plurals.clear();
  if (remember) store.set(STORE_KEY, code);
  document.documentElement.lang = code;
  translatePage(document);
  for (const fn of listeners) fn(code);
}

function lookup(key) {
  if (key in i18n.messages) return i18n.messages[key];
  if (key in i18n.english) return i18n.english[key];
  return null;
}

function fill(text, args) {
  if (!args) return text;
  const filled = text.replace(/\{([a-z0-9_-]+)\}/gi, (whole, name) => (args[name] != null ? String(args[name]) : whole));
  return i18n.lang === 'ko' ? particles(filled) : filled;
}

/** Korean particles written for either ending: 을(를), 이(가), 은(는), 와(과), (으)로. */
const PARTICLE = /([\p{L}\p{N}])(을\(를\)|이\(가\)|은\(는\)|와\(과\)|\(으\)로)/gu;
/** Whether a digit's Korean reading ends in a consonant (영 일 이 삼 사 오 육 칠 팔 구), and which. */
const DIGIT_END = ['ㅇ', 'ㄹ', '', 'ㅁ', '', '', 'ㄱ', 'ㄹ', 'ㄹ', ''];

/** The final consonant of the word ending in `ch` ('' none, 'ㄹ', or 'x' another), or null when unknown (a Latin name). */
function finalOf(ch) {
  const code = ch.codePointAt(0);
  if (code >= 0xac00 && code <= 0xd7a3) {
    const jong = (code - 0xac00) % 28;
    return jong === 0 ? '' : jong === 8 ? 'ㄹ' : 'x';
  }
  if (/[0-9]/.test(ch)) return DIGIT_END[Number(ch)] === 'ㄹ' ? 'ㄹ' : DIGIT_END[Number(ch)] ? 'x' : '';
  return null;
}

/** Picks each particle by the word before it where its ending is known; "을(를)" stays for a word that is not Korean. */
function particles(text) {
  return text.replace(PARTICLE, (whole, ch, pair) => {
    const end = finalOf(ch);
    if (end == null) return whole;
    const consonant = end !== '';
    const chosen = {
      '을(를)': consonant ? '을' : '를',
      '이(가)': consonant ? '이' : '가',
      '은(는)': consonant ? '은' : '는',
      '와(과)': consonant ? '과' : '와',
      '(으)로': consonant && end !== 'ㄹ' ? '으로' : '로',
    }[pair];
    return ch + chosen;
  });
}

/** A message with its placeholders filled: t('web.lobby.title'), t('web.x', {name: 'Bo'}). */
export function t(key, args) {
  const message = lookup(key);
  if (message == null) return key;
  if (typeof message === 'object') return fill(pick(message, 1, 'cardinal'), args);
  return fill(message, args);
}

const plurals = new Map();

function category(n, type) {
  if (!plurals.has(type)) plurals.set(type, new Intl.PluralRules(i18n.lang, { type }));
  return plurals.get(type).select(n);
}

function pick(message, n, type) {
  if (typeof message !== 'object') return message;
  const cat = category(n, type);
  return message[cat] != null ? message[cat] : message.other != null ? message.other : '';
}

/** A message by count: its plural form for `n` (`{n}` is filled with n). */
export function tn(key, n, args) {
  const message = lookup(key);
  if (message == null) return key;
  return fill(pick(message, n, 'cardinal'), Object.assign({ n }, args));
}

/** An ordinal number in the words of the language: 1st, 1., 1위. */
export function ordinal(n) {
  const message = lookup('web.ordinal');
  if (message == null) return String(n);
  return fill(pick(message, n, 'ordinal'), { n });
}

/**
 * Fills the page's fixed words from the catalogue: `data-i18n` (the text),
 * `data-i18n-html` (trusted markup from our own catalogue: <kbd> keys),
 * `data-i18n-label` (aria-label), `data-i18n-placeholder`, `data-i18n-title`,
 * `data-i18n-value` (an input's default value, until the user edits it).
 */
export function translatePage(root) {
  for (const node of root.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll('[data-i18n-html]')) node.innerHTML = t(node.dataset.i18nHtml);
  for (const node of root.querySelectorAll('[data-i18n-label]')) node.setAttribute('aria-label', t(node.dataset.i18nLabel));
  for (const node of root.querySelectorAll('[data-i18n-placeholder]')) node.setAttribute('placeholder', t(node.dataset.i18nPlaceholder));
  for (const node of root.querySelectorAll('[data-i18n-title]')) node.setAttribute('title', t(node.dataset.i18nTitle));
  // A default value (a table's name) follows the language until edited.
  for (const node of root.querySelectorAll('[data-i18n-value]')) {
    const shown = node.dataset.i18nShown != null ? node.dataset.i18nShown : node.defaultValue;
    const text = t(node.dataset.i18nValue);
    if (!node.value || node.value === shown) node.value = text;
    node.dataset.i18nShown = text;
  }
}
