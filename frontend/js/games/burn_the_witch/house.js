// Your house, one press-and-hold away (like a role in Catch the Witch): your faction, what
// you were dealt as counts (never which villager hides which, §2), the sympathizers you know
// of, where a bewitching came from, and your villagers with their traits. Every player's
// panel has the same size and the same blocks.
//
// The bar and panel are one element kept across renders (appended to <body>, outside the
// shell's <main>, which is rebuilt): a redraw mid-press must not lose the hold. It reuses
// the hold bar's and panel's look (.hold-bar, .sheet in css/style.css).
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { FACTION_ICON, SYMPATHIZER_ICON } from "./icons.js";
import { villagerCard, myHouse } from "./common.js";

const state = { open: false, view: null };
let root = null;

function build() {
  root = h("div", { id: "btw-secrets" });
  const sheet = h("section", { id: "btw-sheet", class: "sheet", hidden: true, "aria-label": t("btw_your_house") });
  const show = (open) => { state.open = open; draw(); };
  const bar = h("button", { id: "btw-hold", class: "hold-bar", "aria-expanded": "false",
    onpointerdown: (e) => { e.preventDefault(); show(true); },
    onpointerup: () => show(false), onpointercancel: () => show(false), onpointerleave: () => show(false),
    onkeydown: (e) => { if (e.key === " " || e.key === "Enter") { e.preventDefault(); show(true); } },
    onkeyup: () => show(false),
    oncontextmenu: (e) => e.preventDefault() });
  root.append(sheet, bar);
  document.body.append(root);
  new MutationObserver(() => draw()).observe(document.querySelector("main"), { attributes: true, attributeFilter: ["data-phase"] });
}

export function showHouse(v) {
  state.view = v;
  if (!root) build();
  draw();
}

function inGame() {
  const phase = document.querySelector("main")?.dataset.phase;
  const v = state.view;
  return Boolean(v && v.me && v.game === "burn_the_witch" && phase === v.phase && !["over", "game_over"].includes(v.phase));
}

// Shown only in a game of this module's, from its first step to its last; the sheet only
// while held.
function draw() {
  if (!root) return;
  const shown = inGame();
  state.open = shown && state.open;
  Object.assign(root, { hidden: !shown });
  document.body.classList.toggle("has-hold-bar", shown);
  const bar = root.querySelector("#btw-hold");
  const sheet = root.querySelector("#btw-sheet");
  bar.textContent = `🏠 ${t("btw_hold_house")}`;
  bar.setAttribute("aria-expanded", String(state.open));
  sheet.hidden = !state.open;
  sheet.replaceChildren(...(state.open ? panel(state.view).filter(Boolean) : []));
}

function panel(v) {
  const me = v.me;
  const house = myHouse(v);
  const sympathizers = me.sympathizers || [];
  return [
    h("h2", {}, `${FACTION_ICON[me.faction]} ${t("btw_faction_" + me.faction)}`),
    h("p", {}, `🏆 ${t("btw_wins_" + me.faction, { of: v.wrongly_condemned })}`),
    h("h3", {}, t("btw_dealt_title")),
    h("p", { class: "dealt" }, t("btw_dealt", { innocents: me.dealt.innocents, devout: me.dealt.devout, witches: me.dealt.witches })),
    h("p", { class: "muted" }, t("btw_dealt_hidden")),
    me.bewitched_from ? h("p", { class: "banner" }, `💫 ${t("btw_bewitched_from_" + me.bewitched_from)}`) : null,
    sympathizers.length ? h("h3", {}, t("btw_sympathizers")) : null,
    sympathizers.length ? h("ul", { class: "notes" }, ...sympathizers.map((s) =>
      h("li", {}, `${SYMPATHIZER_ICON[s.kind]} ${s.name} (${t("btw_kind_" + s.kind)})`))) : null,
    h("h3", {}, t("btw_your_villagers")),
    ...(house && house.villagers.length ? house.villagers.map((villager) => villagerCard(villager)) : [h("p", {}, t("btw_no_villagers_left"))]),
  ];
}
