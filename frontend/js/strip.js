// The table strip at the top of every game screen: one row of facts (connection, day "of N",
// trackers, countdown) that fits a 360 px phone in every language, and below it one chip per
// cat with its state. The shell draws it (app.js renderStatus); a game module chooses what
// goes in it with the builders here (docs/client.md, "The table strip").
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { gameNow } from "./clock.js";

// "Day 3 of 6", with a warning mark on the last day (Catch the Witch: the Knights' day).
export function dayItem(n, of, { warn = false, warnLabel = "" } = {}) {
  const text = of ? t("day_of", { n, of }) : t("day", { n });
  return h("span", { class: "fact day", "aria-label": warn ? `${text}, ${warnLabel}` : text },
    text, warn ? h("span", { class: "warn", "aria-hidden": "true", title: warnLabel }, "⚠") : null);
}

// A counted tracker, e.g. seals: its name in small print over "🔏 2/3" (issue 34: an
// unlabelled "🔏 0/3" said nothing to a newcomer). Stacked, so that every name fits whole
// in one row at 360 px in every language.
export function counterItem(icon, label, n, of) {
  return h("span", { class: "fact stacked", role: "img", "aria-label": `${label} ${n}/${of}`, title: label },
    h("span", { class: "label", "aria-hidden": "true" }, label),
    h("span", { class: "value", "aria-hidden": "true" }, `${icon} ${n}/${of}`));
}

// A filling gauge: its name in small print over its cells.
export function gaugeItem(label, n, of) {
  const cells = Array.from({ length: of }, (_, i) => h("span", { class: i < n ? "on" : "" }));
  return h("span", { class: "fact stacked gauge-item", role: "img", "aria-label": `${label} ${n}/${of}`, title: label },
    h("span", { class: "label", "aria-hidden": "true" }, label),
    h("span", { class: "cells", "aria-hidden": "true" }, ...cells));
}

// The seconds left of the view's step, from its absolute deadline (null: no deadline).
export function countdownItem(v) {
  if (!v || !v.deadline) return null;
  const left = Math.max(0, Math.ceil(v.deadline - gameNow()));
  return h("span", { class: "fact countdown", "aria-label": t("seconds", { n: left }) }, `⏱ ${t("seconds_short", { n: left })}`);
}

// The connection: a dot, its words for screen readers (and in full while it is not open).
// "connecting" before the first socket opened (the first load: nothing was lost yet),
// "reconnecting" once one closed.
export function connectionItem(state) {
  const open = state === "open";
  return h("span", { class: open ? "fact conn" : "fact conn conn-bad", role: "status" },
    open ? h("span", { "aria-hidden": "true" }, "●") : `○ ${t(state === "connecting" ? "connecting" : "reconnecting")}`,
    open ? h("span", { class: "visually-hidden" }, t("connected")) : null);
}

// One chip per cat: {name, state: "human" | "frog" | "exiled", away, offline, lead, you}.
// `lead` (the Chief) is drawn only on a cat in human form.
export function catChips(cats) {
  return cats.map((cat) => {
    const lead = cat.lead && cat.state === "human";
    return chip({ name: cat.name, state: cat.state, offline: cat.offline, you: cat.you, words: [t("form_" + cat.state)], marks: [
      [lead, "👑", t("strip_chief")], [cat.state === "frog", "🐸", null], [cat.state === "exiled", "🚪", null],
      [cat.away, "💤", t("away")], [cat.offline, "📵", t("offline")]] });
  });
}

// A chip for a game's own marks: {name, marks: [[shown, icon, word]], offline, you, words,
// state}: the icons of the marks shown, and the name and words as its accessible name.
export function chip({ name, marks, offline = false, you = false, words = [], state = "" }) {
  const on = marks.filter(([shown]) => shown);
  const label = [name, ...words, ...on.map(([, , word]) => word)].filter(Boolean).join(", ");
  return h("li", { class: `cat${state ? ` ${state}` : ""}${offline ? " offline" : ""}${you ? " you" : ""}`, "aria-label": label, title: label },
    on.length ? h("span", { class: "marks", "aria-hidden": "true" }, on.map(([, icon]) => icon).join("")) : null,
    h("span", { class: "cat-name", "aria-hidden": "true" }, name));
}

// What the shell draws for a game that does not choose its own strip: a chip per seat with
// its offline mark (the shell knows connections, not a game's forms or leaders).
export function genericCats(v) {
  const connected = v.connected || {};
  return catChips((v.players || []).map((p) => ({
    name: p.name, state: "human", away: Boolean(p.away), offline: connected[p.name] === false, you: p.name === v.you,
  })));
}
