// The table strip at the top of every game screen: one row of facts (connection, day "of N",
// trackers, countdown) that fits a 360 px phone in every language, and under it one chip per
// cat with its state. The shell draws it (app.js renderStatus); a game module chooses what
// goes in it with the builders here (docs/client.md, "The table strip").
//
// A game may fold its cats' chips away behind its trackers (keyToggles, stripKey): at twelve
// cats the chips took three rows, wrapped further as cats turned to frogs or were exiled,
// and cut names mid-word. Then the row says how many cats are in each form, and a
// tap on any tracker opens the strip's key under it: every cat whole, and what each tracker
// and mark means, for a first-time player.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { gameNow } from "./clock.js";
import { momentStyle } from "./moments.js";

// "Day 3 of 6": "Day" in small print over "3/6" (the whole phrase did not fit the row beside
// the trackers), with a warning mark on the last day (Catch the Witch: the Knights' day).
// Its accessible name and its text say it in full.
export function dayItem(n, of, { warn = false, warnLabel = "" } = {}) {
  const text = of ? t("day_of", { n, of }) : t("day", { n });
  return h("span", { class: "fact stacked day", role: "img", "aria-label": warn ? `${text}, ${warnLabel}` : text },
    h("span", { class: "visually-hidden" }, text),
    h("span", { class: "label", "aria-hidden": "true" }, t("strip_day")),
    h("span", { class: "value", "aria-hidden": "true" }, of ? `${n}/${of}` : String(n),
      warn ? h("span", { class: "warn" }, "⚠") : null));
}

// A counted tracker, e.g. seals: its name in small print over "🔏2/3" (an
// unlabelled "🔏 0/3" said nothing to a newcomer). Stacked, so that every name fits whole
// in one row at 360 px in every language.
export function counterItem(icon, label, n, of) {
  return labelledItem(label, `${icon}${n}/${of}`, `${label} ${n}/${of}`);
}

// A tracker with no "of": its name in small print over its value ("Witches" over "🧙‍♀️2");
// `spoken`, its accessible name in full.
export function labelledItem(label, value, spoken) {
  return h("span", { class: "fact stacked", role: "img", "aria-label": spoken },
    h("span", { class: "label", "aria-hidden": "true" }, label),
    h("span", { class: "value", "aria-hidden": "true" }, value));
}

const FILL_MS = 1200; // a gauge's cell filling (UX.md: "the curse gauge filling")

// A filling gauge: its name in small print over its cells. `filling`: the key of the moment
// its newest lit cell fills (js/moments.js), while the game's view says it just did.
export function gaugeItem(label, n, of, { filling = null } = {}) {
  const moment = filling && n > 0 ? momentStyle(filling, FILL_MS) : null;
  const cells = Array.from({ length: of }, (_, i) => {
    const newest = moment && i === n - 1;
    return h("span", { class: i < n ? `on${newest ? " filling" : ""}` : "", style: newest ? moment : null });
  });
  return h("span", { class: "fact stacked gauge-item", role: "img", "aria-label": `${label} ${n}/${of}` },
    h("span", { class: "label", "aria-hidden": "true" }, label),
    h("span", { class: "cells", "aria-hidden": "true" }, ...cells));
}

// The seconds left of the view's step, from its absolute deadline (null: no deadline).
export function countdownItem(v) {
  if (!v || !v.deadline) return null;
  const left = Math.max(0, Math.ceil(v.deadline - gameNow()));
  return h("span", { class: "fact countdown", "aria-label": t("seconds", { n: left }) },
    h("span", { class: "icon", "aria-hidden": "true" }, "⏱"), ` ${t("seconds_short", { n: left })}`);
}

// The connection: a dot in the row, its words for screen readers; while it is not open, the
// words in a banner hanging under the strip (UX.md: "a banner shows reconnecting"), whole
// in every language and never pushing the row's other facts out. "connecting" before the
// first socket opened (the first load: nothing was lost yet), "reconnecting" once one closed.
export function connectionItem(state) {
  const open = state === "open";
  const words = t(open ? "connected" : state === "connecting" ? "connecting" : "reconnecting");
  return h("span", { class: open ? "fact conn" : "fact conn conn-bad", role: "status" },
    h("span", { "aria-hidden": "true" }, open ? "●" : "○"), " ",
    h("span", { class: open ? "visually-hidden" : "conn-banner" }, words));
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

// The marks the shell knows of any game's players: Away and offline (a game's own forms and
// leaders are its own: it names them with `chip` and lists them in `stripKey`).
const SEAT_MARKS = [["💤", "away", (seat) => seat.away], ["📵", "offline", (seat) => seat.offline]];

// What the shell draws for a game that does not choose its own strip: a chip per seat with
// its Away and offline marks.
export function genericCats(v) {
  const connected = v.connected || {};
  return (v.players || []).map((p) => {
    const seat = { away: Boolean(p.away), offline: connected[p.name] === false };
    return chip({ name: p.name, offline: seat.offline, you: p.name === v.you,
      marks: SEAT_MARKS.map(([icon, word, shown]) => [shown(seat), icon, t(word)]) });
  });
}

// -- the strip's key ---------------------------------------------------------------------------
// Open or folded, on this page, whatever redraws the strip (the state is kept here, not in
// the elements, which are drawn anew).
const KEY_ID = "strip-key";
let keyOpen = false;

function toggleKey() {
  keyOpen = !keyOpen;
  // At once, on every toggle shown (the css opens the key from their aria-expanded), not at
  // the shell's next redraw: the replay viewer redraws its strip only at a step.
  for (const toggle of document.querySelectorAll(".key-toggle")) toggle.setAttribute("aria-expanded", String(keyOpen));
}

// The game's facts as buttons that open and fold the key: each keeps its look and its
// accessible name, and says it opens the key (aria-controls, aria-expanded).
export function keyToggles(items) {
  return items.map((item) => {
    if (!item) return item;
    const button = h("button", { type: "button", class: `${item.getAttribute("class")} key-toggle`,
      "aria-label": item.getAttribute("aria-label"), "aria-expanded": String(keyOpen), "aria-controls": KEY_ID,
      onclick: toggleKey });
    button.append(...item.childNodes);
    return button;
  });
}

// The key, under the chips: a game's own lines (what its trackers mean), then the marks a
// chip may carry, each with its word ([icon, word]; none given: the shell's Away and offline).
export function stripKey(lines, marks = SEAT_MARKS.map(([icon, word]) => [icon, t(word)])) {
  return h("div", { class: "strip-key", id: KEY_ID },
    ...lines.filter(Boolean).map((line) => h("p", {}, line)),
    h("p", {}, `⏱ ${t("strip_key_countdown")} · ● ${t("connected")}`),
    h("p", { class: "marks-legend" }, ...marks.map(([icon, word]) => h("span", {}, `${icon} ${word}`))),
    h("button", { type: "button", class: "secondary key-toggle key-close", "aria-expanded": String(keyOpen),
      "aria-controls": KEY_ID, onclick: toggleKey }, t("close_panel")));
}

// Seats moved to new phones lately, told on every screen, phones and table screens alike (the
// server keeps each two minutes; a screen shows it as long): no seat changes hands unseen.
const SEAT_NEWS_SHOWN_S = 120;
export function seatNewsRow(v) {
  const news = ((v && v.seat_news) || []).filter((n) => gameNow() - n.at < SEAT_NEWS_SHOWN_S);
  return news.length ? h("ul", { class: "seat-news", role: "status" },
    ...news.map((n) => h("li", {}, t(`seat_news_${n.what}`, { name: n.name })))) : null;
}
