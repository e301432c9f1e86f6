// Small pieces every Catch the Witch screen uses.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { gameNow, realSeconds } from "../../clock.js";
import { ICONS, PLACE_INGREDIENT } from "./icons.js";

export const icon = (kind, value) => (ICONS[kind] && ICONS[kind][value]) || "";
export const label = (kind, value) => `${icon(kind, value)} ${t(`${kind}_${value}`)}`.trim();
export const names = (list) => (list && list.length ? list.join(", ") : "—");
export const humans = (v) => v.players.filter((p) => p.form === "human").map((p) => p.name);
// A frog, an exiled cat or an Away one watches: it chooses nothing at night.
export const isSpectator = (me) => !me || me.form !== "human" || me.away;

export function choiceButtons(options, chosen, onPick) {
  return h("div", { class: "grid" }, ...options.map(([value, text]) =>
    h("button", { class: "card", "aria-pressed": String(chosen === value), onclick: () => onPick(value) }, text)));
}

// The places of the night, each with what it gives; `note(place)` adds a small line (the
// counts a guarding Knight or a witch may see). Every phone draws the same grid.
export function placeButtons(v, chosen, onPick, note = () => null) {
  return h("div", { class: "grid places" }, ...v.open_places.map((p) =>
    h("button", { class: "card place", "aria-pressed": String(chosen === p), onclick: () => onPick(p) },
      h("span", { class: "place-name" }, label("place", p)),
      h("span", { class: "place-gives" }, label("ingredient", PLACE_INGREDIENT[p])),
      h("span", { class: "place-note" }, note(p) ?? "\u00a0"))));
}

export function doneButton(v, me, ctx, action, text) {
  if (!me || !v.your_turn) return me && me.done ? h("p", { class: "muted" }, t("you_are_ready")) : null;
  return h("button", { class: "big", onclick: () => ctx.send(action) }, text);
}

let stepClock = null; // {deadline, start}: when this phone first saw the step's deadline

// A gauge that fills until the step's deadline. The step's length is measured from when
// this phone first saw the deadline (the view carries only the deadline).
export function timeGauge(v) {
  if (!v.deadline) return h("div", { class: "gauge time", "aria-hidden": "true" }, h("span", {}));
  const now = gameNow();
  if (!stepClock || stepClock.deadline !== v.deadline) stepClock = { deadline: v.deadline, start: now };
  const total = Math.max(1, v.deadline - stepClock.start);
  return h("div", { class: "gauge time", "aria-hidden": "true" },
    h("span", { style: `animation-duration:${realSeconds(total)}s;animation-delay:${-realSeconds(now - stepClock.start)}s` }));
}
