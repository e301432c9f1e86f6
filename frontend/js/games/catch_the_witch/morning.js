// Catch the Witch's morning and night: the role check, the morning (the duck), the place
// choice, the Knight's guard and the witches' turn. No tells (issue 13): in every secret
// step a witch's, the Knight's, the Seer's and a villager's phones draw the same blocks
// (heading, duck, place grid, one secondary button, a hint), and a witch's choices live in
// a small pop-up over the Gathering scene that every phone shows.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { label, icon, doneButton, placeButtons, timeGauge, isSpectator } from "./common.js";
import { PLACE_INGREDIENT } from "./icons.js";

function roleCheck(v, me, ctx) {
  if (!me) return h("h2", {}, t("role_check"));
  // Held in the step's draft, not only on the element: another cat's Ready re-renders the screen
  // while this player is still holding the button.
  const box = h("div", { class: "role-box panel", "aria-live": "polite" }, ctx.draft.holdingRole ? roleText(me) : "🂠");
  const show = (e) => { e.preventDefault(); ctx.draft.holdingRole = true; box.textContent = roleText(me); };
  const hide = () => { ctx.draft.holdingRole = false; box.textContent = "🂠"; };
  return h("div", {},
    h("h2", {}, t("role_check")),
    h("button", { class: "hold secondary", onpointerdown: show, onpointerup: hide, onpointerleave: hide,
      onpointercancel: hide, onkeydown: (e) => { if (e.key === " " || e.key === "Enter") show(e); }, onkeyup: hide,
      oncontextmenu: (e) => e.preventDefault() }, t("hold_to_reveal")),
    box,
    doneButton(v, me, ctx, "ready", t("ready")));
}

export function roleText(me) {
  let text = `${icon("role", me.role)} ${t("role_" + me.role)} — ${t("side_" + me.side)}`;
  if (me.witches && me.witches.length) text += ` · ${t("role_witch")}: ${me.witches.join(", ")}`;
  return text;
}

export function duck(v) {
  const required = (v.today && v.today.required) || [];
  return h("div", { class: "panel duck-panel" },
    h("p", {}, h("span", { class: "duck", "aria-hidden": "true" }, "🦆"), " ", t("morning")),
    h("p", { class: "row" }, ...required.map((i) => h("span", { class: "pill card" }, label("ingredient", i)))));
}

// The morning (book: "the morning video"): the duck says what today's ritual needs.
function morning(v) {
  return h("div", {}, h("h2", {}, `🌅 ${t("morning_title", { n: v.day })}`), duck(v), timeGauge(v));
}

// Frogs, exiled and Away cats choose nothing at night: one scene for every one of them.
// A screen with no seat (the table screen, the replay viewer) speaks to the whole room.
function spectatorNight(v) {
  const text = v.you ? t("night_watch_text") : t("night_watch_text_table");
  return h("div", {}, h("h2", {}, `🌙 ${t("night_watch")}`), duck(v),
    h("div", { class: "panel scene" }, h("p", {}, text), timeGauge(v)));
}

// The secondary button under the places: the same shape on every phone. The Knight's
// guards tonight; everyone else's picks a place at random (a harmless equivalent).
function secondButton(v, me, ctx) {
  if (me.role === "knight") {
    return h("button", { class: "secondary wide", "aria-pressed": String(Boolean(me.guarding)),
      onclick: () => ctx.send("choose_guard") }, `🛡 ${t("guard_tonight")}`);
  }
  return h("button", { class: "secondary wide", onclick: () => {
    const place = v.open_places[Math.floor(Math.random() * v.open_places.length)];
    choosePlace(me, ctx, place);
  } }, `🎲 ${t("any_place")}`);
}

// A place (the Herbalist's restore, chosen in the hold panel, goes with it: RULES §6.2).
export function choosePlace(me, ctx, place) {
  const restore = me.role === "herbalist" ? (ctx.draft.restore ?? me.restore) : null;
  ctx.send("choose_place", restore ? { place, restore } : { place });
}

function placeChoice(v, me, ctx) {
  if (isSpectator(me)) return spectatorNight(v);
  const chosen = me.guarding ? null : me.place ?? null;
  return h("div", {}, h("h2", {}, t("choose_place")), duck(v),
    placeButtons(v, chosen, (place) => choosePlace(me, ctx, place)),
    secondButton(v, me, ctx),
    h("p", { class: "muted hint" }, t("place_hint")));
}

// The Knight's guard (others' phones still show the place choice): the same blocks, the
// counts in small print on the place buttons.
function guardPlace(v, me, ctx) {
  if (isSpectator(me)) return spectatorNight(v);
  const counts = me.counts || {};
  return h("div", {}, h("h2", {}, t("guard_place")), duck(v),
    placeButtons(v, me.guard_place ?? null, (place) => ctx.send("guard_place", { place }),
      (p) => `🐈 × ${counts[p] || 0}`),
    h("button", { class: "secondary wide", "aria-pressed": "true" }, `🛡 ${t("guard_tonight")}`),
    h("p", { class: "muted hint" }, t("guard_hint")));
}

// The witches' turn: every phone shows the Gathering scene for the full 15 s (RULES §3);
// a witch's choices open in a small pop-up over it.
function witchesTurn(v, me, ctx) {
  if (isSpectator(me)) return spectatorNight(v);
  const place = me.place || (me.witch_choice && me.witch_choice.place) || (me.witch_choices && me.witch_choices[me.name]?.place);
  const where = place ? t("gathering_at", { place: label("place", place) })
    : me.guarding && me.guard_place ? t("guarding_at", { place: label("place", me.guard_place) }) : "\u00a0";
  const scene = h("div", { class: "panel scene" },
    h("p", {}, h("strong", {}, t("gathering_scene"))),
    h("p", {}, where),
    h("p", { class: "muted" }, place ? label("ingredient", PLACE_INGREDIENT[place]) : "\u00a0"),
    timeGauge(v),
    me.witch_choices && v.your_turn ? witchPopup(v, me, ctx) : null);
  return h("div", {}, h("h2", {}, `🌙 ${t("witches_turn")}`), duck(v), scene,
    h("p", { class: "muted hint" }, t("gathering_hint")));
}

function witchPopup(v, me, ctx) {
  const own = me.witch_choices[me.name] || {};
  const counts = me.counts || {};
  const partners = Object.entries(me.witch_choices).filter(([n]) => n !== me.name)
    .map(([n, c]) => h("p", { class: "small" }, `${n}: ${c.place ? t("place_" + c.place) : "…"} ${c.spell ? t("spell_" + c.spell) : ""}`));
  const grid = (options, onPick, chosen) => h("div", { class: "grid mini" }, ...options.map(([value, text]) =>
    h("button", { class: "card", "aria-pressed": String(chosen === value), onclick: () => onPick(value) }, text)));
  let body;
  if (!own.place) {
    body = [h("p", {}, t("witch_place")),
      grid(v.open_places.map((p) => [p, `${label("place", p)} · 🐈 × ${counts[p] || 0}`]),
        (place) => ctx.send("witch_place", { place }), me.place ?? null),
      // Only where the role set has a Knight (the tables deal none at 4 or 5 cats): a guard
      // nobody can make is noise.
      v.role_set?.knight ? h("p", { class: "small" }, t("witch_guard_hint")) : null];
  } else if (!ctx.draft.spell) {
    const spells = ["none", ...(v.unlocked_spells || []).filter((s) => s !== "none")];
    body = [h("p", {}, `${label("place", own.place)} — ${t("witch_spell")}`),
      grid(spells.map((s) => [s, label("spell", s)]), (spell) => {
        if (spell === "none" || spell === "spoil") ctx.send("witch_spell", { spell });
        else { ctx.draft.spell = spell; ctx.render(); }
      }, null),
      v.day === 1 && !spells.includes("frog") ? h("p", { class: "small" }, t("frog_from_day_2")) : null,
      h("p", { class: "small" }, t(v.frog_witnesses ? "witness_hint_one" : "witness_hint"))];
  } else {
    const targets = (me.at_my_place || []).map((n) => [n, n]);
    body = [h("p", {}, `${label("spell", ctx.draft.spell)} — ${t("witch_target")}`),
      targets.length ? grid(targets, (target) => ctx.send("witch_spell", { spell: ctx.draft.spell, target }), null)
        : h("p", { class: "small" }, t("nobody_there")),
      h("button", { class: "secondary", onclick: () => { ctx.draft.spell = null; ctx.render(); } }, `← ${t("back")}`)];
  }
  return h("div", { class: "witch-popup", role: "dialog", "aria-label": t("witches_turn") }, ...body, ...partners);
}

export const MORNING_SCREENS = { role_check: roleCheck, morning, place_choice: placeChoice, guard: guardPlace, witches: witchesTurn };
