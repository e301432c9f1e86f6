// Small pieces every Catch the Witch screen uses.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { ICONS } from "./icons.js";

export const icon = (kind, value) => (ICONS[kind] && ICONS[kind][value]) || "";
export const label = (kind, value) => `${icon(kind, value)} ${t(`${kind}_${value}`)}`.trim();
export const names = (list) => (list && list.length ? list.join(", ") : "—");
export const humans = (v) => v.players.filter((p) => p.form === "human").map((p) => p.name);

export function choiceButtons(options, chosen, onPick) {
  return h("div", { class: "grid" }, ...options.map(([value, text]) =>
    h("button", { class: "card", "aria-pressed": String(chosen === value), onclick: () => onPick(value) }, text)));
}

export function doneButton(v, me, ctx, action, text) {
  if (!me || !v.your_turn) return me && me.done ? h("p", { class: "muted" }, t("you_are_ready")) : null;
  return h("button", { class: "big", onclick: () => ctx.send(action) }, text);
}
