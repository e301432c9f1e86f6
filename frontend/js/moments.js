// UX.md's "moments worth a small animation" (the curse filling, the magic circle): short,
// the same on every phone, once per public change.
//
// The shell draws the screen anew at each view, the strip every second, the table screen
// both from scratch: an animation that started with its element would start again at every
// drawing. So each moment has a clock, started the first time this page draws it, and an
// element is drawn with how far into its run the moment is (a negative delay): a redrawn
// element goes on where the last one was, and once the run is over it is drawn still.
// A moment's key names only public facts of the view (the day, the proposal, the curse),
// never a role's private data, so every phone plays it alike at the same view.
// prefers-reduced-motion: the css plays none of them (the still, final look at once).
const firstDrawn = new Map();

// The inline style of an element playing moment `key`, `ms` long (css: var(--moment-ms),
// var(--moment-delay)), or null once it has played.
export function momentStyle(key, ms) {
  const elapsed = playedFor(key, ms);
  return elapsed === null ? null : `--moment-ms:${ms}ms;--moment-delay:${-Math.round(elapsed)}ms`;
}

// How long moment `key` (`ms` long) has been playing, or null once it has played.
function playedFor(key, ms) {
  const now = performance.now();
  if (!firstDrawn.has(key)) firstDrawn.set(key, now);
  const elapsed = now - firstDrawn.get(key);
  return elapsed < ms ? elapsed : null;
}

// The final reveal (UX.md: a moment worth a small animation), in both games: `count` cards
// turning over one after another in seat order, the first at once and the last face up
// REVEAL_MS later, once (`key`: the game's last step). Card i's inline style
// (css/style.css .flip: var(--flip-ms), var(--flip-delay); a negative delay lets a card
// drawn again mid-turn go on from where it was), or null once it has played: the cards are
// drawn still, face up.
export const REVEAL_MS = 1500;
const FLIP_MS = 500; // one card

export function revealTurns(key, count) {
  const elapsed = playedFor(key, REVEAL_MS);
  if (elapsed === null) return null;
  const gap = count > 1 ? (REVEAL_MS - FLIP_MS) / (count - 1) : 0;
  return (i) => `--flip-ms:${FLIP_MS}ms;--flip-delay:${Math.round(i * gap - elapsed)}ms`;
}
