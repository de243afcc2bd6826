// What this browser remembers (localStorage): seat tokens, last event
// numbers, the player's name, dealt hands (for the fairness check), the
// language chosen. Private mode may refuse: then nothing is kept.

export const store = {
  get(key) {
    try { return localStorage.getItem(key); } catch (_) { return null; }
  },
  set(key, value) {
    try { localStorage.setItem(key, value); } catch (_) { /* private mode: keep going */ }
  },
  drop(key) {
    try { localStorage.removeItem(key); } catch (_) { /* ignore */ }
  },
  token: id => store.get('dalmuti.token.' + id),
  setToken: (id, token) => store.set('dalmuti.token.' + id, token),
  dropToken: id => { store.drop('dalmuti.token.' + id); store.drop('dalmuti.v.' + id); },
  lastV: id => Number(store.get('dalmuti.v.' + id)) || 0,
  setLastV: (id, v) => store.set('dalmuti.v.' + id, String(v)),
  name: () => store.get('dalmuti.name') || '',
  setName: name => store.set('dalmuti.name', name),
  dealt(id) {
    try { return JSON.parse(store.get('dalmuti.dealt.' + id)) || {}; } catch (_) { return {}; }
  },
  setDealt: (id, all) => store.set('dalmuti.dealt.' + id, JSON.stringify(all)),
};
