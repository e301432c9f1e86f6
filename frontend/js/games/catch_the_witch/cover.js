// The place choice's cover frame (docs/security.md, "Frames from phones"). On a guarding day
// the Knight's phone sends two frames in the place choice (Guard, then his guard place once
// the others have chosen); so every phone in human form sends two on every day, whatever its
// role and whether he guards: its place, then a cover frame (answered by nothing) a tap's
// time later. The Knight sends the cover too when he gathers, and not when he guards. The
// cover names the step it covers, as a move does; it may leave after that step has ended.
// It follows the place this phone sent, not a view that shows it: the last cat to choose
// gets no view of its own place (the step's end answers it), and would send one frame fewer.
const COVER_DELAY_MS = [800, 4000];
let coveredStep = null;
let newest = null; // the newest view: a Knight who turns to Guard before his cover leaves sends none

// Every view, as it arrives (index.js afterView).
export function noteView(v) {
  newest = v;
}

// This phone sent its place in the place choice `step`: one cover follows, a tap's time later.
export function coverPlace(step, ctx) {
  if (coveredStep === step) return; // a place changed, or sent again with a restore
  coveredStep = step;
  const [least, most] = COVER_DELAY_MS;
  setTimeout(() => {
    if (!(newest && newest.me && newest.me.guarding)) ctx.cover(step); // today's Guard, in any step
  }, least + Math.random() * (most - least));
}
