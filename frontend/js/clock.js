// The game's clock. Deployed, it is the wall clock. The local stack can run game time
// N times faster (`python -m local_stack --time-scale N`, for tests): its /config.json
// then carries `time_scale` and `time_origin`, the same the handlers use
// (functions/room_service/adapters/clock.py), so a countdown here ends when the server's
// step does. Views' deadlines are game time; the rules' numbers (15 s) never change.
let scale = 1;
let origin = 0;
let instant = null; // while set (atOneInstant), what gameNow says

// Take the scale from config.json (anything missing or odd: the wall clock).
export function setClock(config) {
  const given = Number(config && config.time_scale);
  const at = Number(config && config.time_origin);
  if (given > 1 && Number.isFinite(given) && Number.isFinite(at)) [scale, origin] = [given, at];
}

// Game time now, in seconds since the epoch (what views' deadlines are measured in).
// Within atOneInstant, its instant.
export function gameNow() {
  if (instant !== null) return instant;
  const wall = Date.now() / 1000;
  return scale === 1 ? wall : origin + (wall - origin) * scale;
}

// How long `gameSeconds` of game time take on the wall clock (a CSS animation's length).
export const realSeconds = (gameSeconds) => gameSeconds / scale;

// A countdown's refresh: once a game second (never faster than ten times a wall second).
export const tickMs = () => Math.max(100, 1000 / scale);

// One ticker for every countdown on the page: the strip's clock and a screen's own clock
// (Burn the Witch's) turn over in the same instant (each on its own timer, they
// showed seconds 1 apart for part of every second). Each reads the tick's one instant:
// read one after the other, a second could turn over between the strip's redraw and the
// screen's clock (on a busy phone, tens of milliseconds apart), 1 s apart until the next tick.
const ticked = new Set();
let ticker = null;

export function everyTick(refresh) {
  ticked.add(refresh);
  if (!ticker) ticker = setInterval(tickAll, tickMs());
}

function tickAll() {
  atOneInstant(() => ticked.forEach((f) => f()));
}

// Runs `draw` with gameNow() fixed at one instant: every countdown it draws (a tick's, or a
// new view's strip and screen) shows the same second.
export function atOneInstant(draw) {
  if (instant !== null) return draw();
  instant = gameNow();
  try {
    return draw();
  } finally {
    instant = null;
  }
}
