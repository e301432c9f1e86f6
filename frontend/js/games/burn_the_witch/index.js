// Burn the Witch in the client: the interface every game module exports (docs/client.md,
// "Adding a game to the client"). The rules: ../shared/RULES-burn-the-witch.md; the views:
// engine/burn_the_witch/views.py.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { showHouse } from "./house.js";
import { SCREENS } from "./screens.js";
import { revealedHouses } from "./common.js";

export { defaultSettings, createFields, lobbySettings, settingsSummary } from "./settings.js";
export { tableScreen } from "./table_screen.js";
export { newsSince } from "./common.js";

export const key = "burn_the_witch"; // the server's game key (engine/games.py)
export const nameKey = "btw_game";
export const icon = "🔥";
export const taglineKey = "btw_tagline"; // the home screen's line under its name
export const seatsKey = "players_seated"; // the lobby's heading: "Players at the table (n/max)"

// The replay viewer's "Show roles" (js/replay_viewer.js): each player's faction and every
// villager's identity, from the end's view `last`, told on step `v` ([player, words]).
export function revealedRoles(last, v) {
  return last.outcome && v.houses ? revealedHouses(last.outcome, v) : [];
}

// One key per step a player acts in: the phase, the round, how far the story has gone (each
// burn, trial and hex is a new step) and whose choice is pending. Public fields only: every
// phone changes step at the same moment.
export function stepKey(v) {
  const pending = v.pending ? `${v.pending.kind}:${v.pending.chooser}:${v.pending.payer ?? ""}` : "";
  return `${v.phase}/${v.round ?? ""}/${(v.history || []).length}/${pending}`;
}

export function isOver(v) {
  return v.phase === "over" || v.phase === "game_over";
}

// The lobby's "Last game: …" line.
export function resultText(last) {
  return last && last.outcome ? t("btw_winner_" + last.outcome.winner) : null;
}

// The strip, in one row at 360 px in every language: the round, innocents burned against
// the threshold, the witches left and the houses (how many still have villagers, how many
// are hexed), each labelled; a tap on any opens the strip's key with every player's chip
// whole (🗣️ accuser, 🪓 executioner, ☠️ hexed, 🏚️ no villagers, 💤 Away, 📵 offline) and
// what each tracker means. Nothing secret: every phone shows the same one.
export function strip(v, ctx) {
  const b = ctx.strip;
  const houses = v.houses || [];
  const withVillagers = (v.players || []).filter((p) => p.has_villagers).length;
  const hexed = houses.filter((house) => house.hexed).length;
  const facts = b.keyToggles([
    v.round ? b.labelledItem(t("strip_round"), String(v.round), t("btw_round", { round: v.round })) : null,
    b.counterItem("🔥", t("btw_innocents_burned_label"), v.innocents_burned ?? 0, v.wrongly_condemned),
    b.labelledItem(t("strip_witches"), `🧙‍♀️${v.witches_left}`, t("btw_witches_left", { n: v.witches_left })),
    b.labelledItem(t("strip_houses"), `🏠${withVillagers}${hexed ? ` ☠️${hexed}` : ""}`,
      t("btw_strip_houses", { n: withVillagers, hexed })),
  ]);
  const key = b.stripKey([
    t("btw_strip_key_burned", { n: v.innocents_burned ?? 0, of: v.wrongly_condemned }),
    t("btw_strip_key_witches", { n: v.witches_left }),
    t("btw_strip_key_houses"),
  ], PLAYER_MARKS.map(([icon, word]) => [icon, t(word)]));
  return { facts, cats: playerChips(v, b), end: [key] };
}

// A player chip's marks, in order: [icon, the word that names it, shown(player, facts)];
// the strip's key lists the same ones.
const PLAYER_MARKS = [
  ["🗣️", "btw_accuser", (p, v) => p.name === v.accuser],
  ["🪓", "btw_executioner", (p, v) => p.name === v.executioner],
  ["☠️", "btw_hexed", (p, v, hexed) => hexed.has(p.name)],
  ["🏚️", "btw_no_villagers_left", (p) => !p.has_villagers],
  ["💤", "away", (p) => p.away],
  ["📵", "offline", (p, v) => (v.connected || {})[p.name] === false],
];

// A chip per player with its marks (js/strip.js chip).
function playerChips(v, b) {
  const connected = v.connected || {};
  const hexed = new Set((v.houses || []).filter((house) => house.hexed).map((house) => house.owner));
  return (v.players || []).map((p) => b.chip({ name: p.name, offline: connected[p.name] === false, you: p.name === v.you,
    marks: PLAYER_MARKS.map(([icon, word, shown]) => [shown(p, v, hexed), icon, t(word)]) }));
}

// The same buzz on every phone at every step change, never "your turn" alone (the coven's
// pick in the witching hour must not buzz one phone).
export function vibration(previous, v) {
  return previous && v && previous.game === v.game && stepKey(previous) !== stepKey(v) && !isOver(previous) ? 120 : 0;
}

export function render(v, ctx) {
  if (v.me) showHouse(v);
  const parts = [];
  const me = v.me;
  const mePlayer = me && (v.players || []).find((p) => p.name === me.name);
  if (mePlayer && mePlayer.away) parts.push(h("p", { class: "banner" }, t("you_are_away")));
  const screen = SCREENS[v.phase];
  parts.push(...(screen ? screen(v, me, ctx) : [h("h2", {}, v.phase)]).filter(Boolean));
  return parts;
}

// The host's game tools (the shell adds handing over host): mark a player Away (§6).
export function hostTools(v, ctx) {
  const present = v.players.filter((p) => !p.away && p.name !== v.you);
  return [h("p", {}, t("mark_away")),
    h("div", { class: "row" }, ...present.map((p) => h("button", { class: "secondary", onclick: () => ctx.send("mark_away", { target: p.name }) }, p.name)))];
}
