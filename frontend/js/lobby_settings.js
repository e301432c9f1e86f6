// The host's lobby settings on their way to the server, whatever the game: sent one at a
// time, each tap built on the last one tapped, and Start held until they are shown.

// Lobby settings go one message at a time. Two in flight may be handled by two Lambdas
// at once and land in either order, the older last; so taps made meanwhile wait, merged,
// until a view shows the one in flight (or SENT_MS pass: the server may have refused it),
// and each tap builds on the last set tapped, not on a view that predates it. Start waits
// the same way: tapped just after a role change, it would otherwise reach the server first
// and start with (or be refused for) a set the host no longer sees.
// Each names the game it is for (the lobby view's `game`): switching games makes another's moot.
let inFlight = null; // { game, settings, at }: sent, not yet shown by a view
let queued = null; // { ctx, game, settings }: to send once it is
let startQueued = null; // () => void: Start, tapped while settings were on their way
const SENT_MS = 3000;
// Whether a view's settings show every field of the ones sent (the view may name more).
const shows = (viewed, sent) => Object.keys(sent).every((key) => JSON.stringify(viewed[key] ?? null) === JSON.stringify(sent[key] ?? null));

export function sendSettings(ctx, game, settings) {
  if (inFlight && Date.now() - inFlight.at < SENT_MS) {
    queued = { ctx, game, settings };
    return;
  }
  inFlight = { game, settings, at: Date.now() };
  queued = null;
  ctx.send("settings", { settings });
  setTimeout(settled, SENT_MS);
}

// The one in flight is shown (or long gone): send what waited behind it, in tap order.
function settled() {
  if (queued) sendSettings(queued.ctx, queued.game, queued.settings);
  else if (startQueued && (!inFlight || Date.now() - inFlight.at >= SENT_MS)) {
    const start = startQueued;
    startQueued = null;
    inFlight = null;
    start();
  }
}

// The lobby's Start: sent now, or once the settings tapped before it are shown.
export function afterSettings(start) {
  if (inFlight || queued) startQueued = start;
  else start();
}

// The settings to show and build on: the last tapped, else the view's. Every tap builds on
// them, whichever field it changes: a Bots level chosen just after a role was removed, before
// the view showed the removal, must not bring the role back; nor a timer's length chosen
// just after the timers were turned on turn them off again.
export function settingsShown(v) {
  if (queued && queued.game !== v.game) queued = null; // the host chose another game meanwhile
  if (inFlight && (inFlight.game !== v.game || shows(v.settings, inFlight.settings)
      || Date.now() - inFlight.at >= SENT_MS)) {
    inFlight = null;
    settled();
  }
  if (queued) return queued.settings;
  return inFlight ? inFlight.settings : v.settings;
}

// The choices a game offers for a setting, less any outside the bounds the lobby view gives
// (`setting_bounds[name]`: the server's `minimum`, `maximum`, `enum`, and `optional` for
// null); without bounds (the create form: no room yet) every one.
export function withinBounds(choices, bounds) {
  if (!bounds) return choices;
  const fits = (choice) => (choice === null ? Boolean(bounds.optional)
    : (!bounds.enum || bounds.enum.includes(choice))
      && !(choice < bounds.minimum) && !(choice > bounds.maximum));
  return choices.filter(fits);
}
