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
  const now = performance.now();
  if (!firstDrawn.has(key)) firstDrawn.set(key, now);
  const elapsed = now - firstDrawn.get(key);
  return elapsed < ms ? `--moment-ms:${ms}ms;--moment-delay:${-Math.round(elapsed)}ms` : null;
}
