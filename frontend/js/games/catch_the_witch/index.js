// Catch the Witch in the client: the interface every game module exports (docs/client.md,
// "Adding a game to the client"). The shell (js/app.js) owns the page, the connection, the
// home screen, the lobby and the host's room tools; this folder owns what is this game's.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { showSecrets } from "./secrets.js";
import { noteView } from "./cover.js";
import { MORNING_SCREENS } from "./morning.js";
import { DAY_SCREENS } from "./day.js";
import { END_SCREENS } from "./end.js";
import { catChips, formsItem, catMarkWords } from "./chips.js";

export { defaultSettings, createFields, lobbySettings, settingsSummary } from "./settings.js";
export { tableScreen } from "./table_screens.js";
export { newsSince } from "./day.js";

export const key = "catch_the_witch"; // the server's game key (engine/games.py)
export const nameKey = "game_catch_the_witch"; // its name in frontend/i18n/*.json
export const icon = "🐈‍⬛";
export const taglineKey = "tagline"; // the home screen's line under its name
export const seatsKey = "seats"; // the lobby's heading: its players are cats

const SCREENS = { ...MORNING_SCREENS, ...DAY_SCREENS, ...END_SCREENS };

// The replay viewer's "Show roles" (js/replay_viewer.js): every cat's role, from the end's
// view `last`, as [name, words], told on any step.
export function revealedRoles(last) {
  return (last.players || []).filter((p) => p.role).map((p) => [p.name, t("role_" + p.role)]);
}

// One key per step a player acts in (a new proposal is a new approval step).
export function stepKey(v) {
  return `${v.phase}/${v.day ?? ""}/${(v.today?.proposals || []).length}`;
}

export function isOver(v) {
  return v.phase === "game_over";
}

// The lobby's "Last game: …" line: who won.
export function resultText(last) {
  return last && last.outcome ? t(`winner_${last.outcome.winner}`) : null;
}

// The table strip's game part (js/strip.js builders): day "of N" with a mark on the Knights'
// day, seals, the labelled curse gauge, and how many cats are in each form. At twelve cats
// their chips (form, Away, offline, the Chief) do not fit one row: they are folded away
// with the key that says what each tracker means, opened by a tap on any of them.
// The role and all this cat knows: the hold bar at the bottom (secrets.js).
export function strip(v, ctx) {
  const b = ctx.strip;
  const days = v.days_total ?? v.knights_day;
  const knightsDay = Boolean(v.knights_day) && v.day === v.knights_day;
  const seals = [v.seals ?? 0, v.seals_to_win];
  const curse = [v.curse ?? 0, v.curse_capacity];
  const connected = v.connected || {};
  const cats = (v.players || []).map((p) => ({
    name: p.name, state: p.form || "human", away: Boolean(p.away), offline: connected[p.name] === false,
    lead: p.name === v.chief, you: p.name === v.you,
  }));
  const facts = b.keyToggles([
    v.day ? b.dayItem(v.day, days, { warn: knightsDay, warnLabel: t("knights_day") }) : null,
    b.counterItem("🔏", t("strip_seals"), ...seals),
    b.gaugeItem(t("strip_curse"), ...curse, { filling: curseFilling(v) }),
    formsItem(cats),
  ]);
  const key = b.stripKey([
    v.day && days ? t("strip_key_day", { n: v.day, of: days }) : null,
    t("strip_key_seals", { n: seals[0], of: seals[1] }),
    t("strip_key_curse", { n: curse[0], of: curse[1] }),
  ], catMarkWords());
  return { facts, cats: catChips(cats), end: [key] };
}

// The curse gauge fills (UX.md's moment) in the step that shows a proposal rejected: the
// rejection is what fills it (RULES §3.6), and every phone is shown that step alike. The
// moment is that proposal's, so that a redraw of the step does not play it again.
function curseFilling(v) {
  const proposals = (v.today && v.today.proposals) || [];
  const last = proposals[proposals.length - 1];
  return v.phase === "approval_result" && last && !last.passed ? `curse/${v.day}/${proposals.length}` : null;
}

// Hook for the shell (js/app.js): how long this phone vibrates for the new view `v` after
// `previous` (0: not at all). The same for every phone at every step change, never "your
// turn" alone: a witch's or the Knight's phone buzzing in a secret step would give them away.
// The Knight's guard counts as the place choice it happens in (the others' phones stay on
// it): his phone turning to its guard screen buzzed once more than every other phone.
export function vibration(previous, v) {
  return previous && v && publicStepKey(previous) !== publicStepKey(v) && !isOver(previous) ? 120 : 0;
}

// Hook for the shell: a view arrived (the place choice's cover, cover.js, reads the newest).
export function afterView(v) {
  noteView(v);
}

function publicStepKey(v) {
  return stepKey(v.phase === "guard" ? { ...v, phase: "place_choice" } : v);
}

// The screen of the view's step (the shell adds the error line above, host tools below).
export function render(v, ctx) {
  const me = v.me;
  showSecrets(v, ctx);
  const parts = [];
  if (me && me.form === "frog") parts.push(h("p", { class: "banner" }, h("span", { class: "frog" }, "🐸"), " ", t("you_are_frog")));
  if (me && me.form === "exiled") parts.push(h("p", { class: "banner" }, t("you_are_exiled")));
  if (me && me.away) parts.push(h("p", { class: "banner" }, t("you_are_away")));
  parts.push((SCREENS[v.phase] || (() => h("h2", {}, v.phase)))(v, me, ctx));
  if (v.waiting && v.waiting.length && !isOver(v)) {
    // The list is as of this phone's last view (another cat's move is told its mover
    // alone, docs/protocol.md): a tap brings it up to date.
    parts.push(h("p", { class: "muted waiting-for", role: "button", tabindex: "0", onclick: () => ctx.refresh(),
      onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") ctx.refresh(); } },
    t("waiting_for", { names: v.waiting.join(", ") }), " ↻"));
  }
  return parts;
}

// The table screen's spoken line at a step change (js/table.js): the step's name, and on a
// morning the duck's ingredients, public facts alone.
export function narration(v) {
  if (v.phase !== "morning") return t("narrate_" + v.phase);
  const wanted = ((v.today && v.today.required) || []).map((i) => t("ingredient_" + i)).join(", ");
  return t("narrate_morning", { n: v.day, ingredients: wanted });
}

// The host's game tools (the shell adds handing over host): mark a cat Away (§9).
export function hostTools(v, ctx) {
  const present = v.players.filter((p) => !p.away && p.form !== "exiled" && p.name !== v.you);
  return [h("p", {}, t("mark_away")),
    h("div", { class: "row" }, ...present.map((p) => h("button", { class: "secondary", onclick: () => ctx.send("mark_away", { target: p.name }) }, p.name))),
    v.players.some((p) => p.away) ? h("p", { class: "muted" }, `${t("away")}: ${v.players.filter((p) => p.away).map((p) => p.name).join(", ")}`) : null];
}
