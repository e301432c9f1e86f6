// Catch the Witch in the client: the interface every game module exports (docs/client.md,
// "Adding a game to the client"). The shell (js/app.js) owns the page, the connection, the
// home screen, the lobby and the host's room tools; this folder owns what is this game's.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { ICONS } from "./icons.js";
import { MORNING_SCREENS } from "./morning.js";
import { DAY_SCREENS } from "./day.js";
import { END_SCREENS } from "./end.js";

export { defaultSettings, createFields, lobbySettings, settingsSummary } from "./settings.js";

export const key = "catch_the_witch"; // the server's game key (engine/games.py)
export const nameKey = "game_catch_the_witch"; // its name in frontend/i18n/*.json
export const icon = "🐈‍⬛";

const SCREENS = { ...MORNING_SCREENS, ...DAY_SCREENS, ...END_SCREENS };

// One key per step a player acts in (a new proposal is a new approval step).
export function stepKey(v) {
  return `${v.phase}/${v.day ?? ""}/${(v.today?.proposals || []).length}`;
}

export function isOver(v) {
  return v.phase === "game_over";
}

let roleShown = false; // the strip's role button: shown until tapped again, whatever the step

// The table strip's game part: day, seals, curse gauge, Chief, countdown, the role button.
export function statusBar(v, ctx) {
  const items = [
    h("span", { class: "pill" }, t("day", { n: v.day })),
    h("span", { class: "pill" }, `🔏 ${t("seals", { n: v.seals, of: v.seals_to_win })}`),
    h("span", { class: "pill", title: t("curse") }, `☠ ${v.curse}/${v.curse_capacity}`,
      h("span", { class: "gauge", role: "img", "aria-label": `${t("curse")} ${v.curse}/${v.curse_capacity}` },
        h("span", { style: `width:${(100 * v.curse) / v.curse_capacity}%` }))),
  ];
  if (v.chief) items.push(h("span", { class: "pill" }, `👑 ${t("chief", { name: v.chief })}`));
  items.push(ctx.countdown(v));
  if (v.me) {
    items.push(h("button", {
      class: "secondary", "aria-pressed": String(roleShown),
      onclick: () => { roleShown = !roleShown; ctx.renderStatus(); },
    }, roleShown ? `${ICONS.role[v.me.role] || ""} ${t("role_" + v.me.role)}` : t("your_role")));
  }
  return items;
}

// The screen of the view's step (the shell adds the error line above, host tools below).
export function render(v, ctx) {
  const me = v.me;
  const parts = [];
  if (me && me.form === "frog") parts.push(h("p", { class: "banner" }, h("span", { class: "frog" }, "🐸"), " ", t("you_are_frog")));
  if (me && me.form === "exiled") parts.push(h("p", { class: "banner" }, t("you_are_exiled")));
  if (me && me.away) parts.push(h("p", { class: "banner" }, t("you_are_away")));
  parts.push((SCREENS[v.phase] || (() => h("h2", {}, v.phase)))(v, me, ctx));
  if (v.waiting && v.waiting.length && !isOver(v)) {
    parts.push(h("p", { class: "muted" }, t("waiting_for", { names: v.waiting.join(", ") })));
  }
  return parts;
}

// The host's game tools (the shell adds handing over host): mark a cat Away (§9).
export function hostTools(v, ctx) {
  const present = v.players.filter((p) => !p.away && p.form !== "exiled" && p.name !== v.you);
  return [h("p", {}, t("mark_away")),
    h("div", { class: "row" }, ...present.map((p) => h("button", { class: "secondary", onclick: () => ctx.send("mark_away", { target: p.name }) }, p.name))),
    v.players.some((p) => p.away) ? h("p", { class: "muted" }, `${t("away")}: ${v.players.filter((p) => p.away).map((p) => p.name).join(", ")}`) : null];
}
