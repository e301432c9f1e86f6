// What the phone remembers (localStorage), under keys no game owns: one site, many games.
export const KEYS = {
  seat: "party.seat", // {room, token, name}: a reload keeps the seat
  name: "party.name", // the name typed last
  lang: "party.lang", // the language chosen
  watchReplay: "party.replay", // the replay file last watched: the viewer's tab opens it (replay.js)
};

// Before the shell had more than one game the keys were Catch the Witch's own. A phone
// that reloads after the deploy moves its values once (then the old keys are gone), so a
// player mid-game keeps their seat. A value already under the new key wins.
const OLD_KEYS = { "ctw.seat": KEYS.seat, "ctw.name": KEYS.name, "ctw.lang": KEYS.lang };

export function migrateOldKeys(storage = localStorage) {
  try {
    for (const [old, key] of Object.entries(OLD_KEYS)) {
      const value = storage.getItem(old);
      if (value === null) continue;
      if (storage.getItem(key) === null) storage.setItem(key, value);
      storage.removeItem(old);
    }
  } catch { /* storage blocked (private mode): nothing was kept to move */ }
}

// On import, before any module reads a key (app.js and i18n.js import this first).
migrateOldKeys();
