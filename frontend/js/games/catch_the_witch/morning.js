// Catch the Witch's morning and night: the role check, the place choice, the Knight's
// guard and the witches' turn (with everyone else's matching gathering scene).
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { label, icon, choiceButtons, doneButton } from "./common.js";

let stepClock = null; // {deadline, start}: when this phone first saw the step's deadline

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

function roleText(me) {
  let text = `${icon("role", me.role)} ${t("role_" + me.role)} — ${t("side_" + me.side)}`;
  if (me.witches && me.witches.length) text += ` · ${t("role_witch")}: ${me.witches.join(", ")}`;
  return text;
}

export function duck(v) {
  const required = (v.today && v.today.required) || [];
  return h("div", { class: "panel" },
    h("p", {}, h("span", { class: "duck", "aria-hidden": "true" }, "🦆"), " ", t("morning")),
    h("p", { class: "row" }, ...required.map((i) => h("span", { class: "pill card" }, label("ingredient", i)))));
}

function placeChoice(v, me, ctx) {
  const parts = [h("h2", {}, t("choose_place")), duck(v)];
  if (me && me.role === "witch" && me.form === "human") parts.push(h("p", { class: "muted" }, t("witch_waits")));
  if (!me || !v.your_turn && !me.place) return h("div", {}, ...parts);
  const places = v.open_places.map((p) => [p, label("place", p)]);
  if (me.role === "knight" && !me.place) {
    parts.push(h("p", {}, t("knight_choice")),
      h("div", { class: "row" }, h("button", { class: "secondary", onclick: () => { ctx.draft.gather = true; ctx.render(); } }, t("gather")),
        h("button", { onclick: () => ctx.send("choose_guard") }, `🛡 ${t("guard")}`)));
    if (!ctx.draft.gather) return h("div", {}, ...parts);
  }
  let restore = null;
  if (me.role === "herbalist") {
    const frogs = v.players.filter((p) => p.form === "frog").map((p) => p.name);
    if (frogs.length) {
      restore = h("select", { id: "restore" }, h("option", { value: "" }, t("no_restore")),
        ...frogs.map((n) => h("option", { value: n, selected: me.restore === n }, n)));
      parts.push(h("label", { for: "restore" }, t("restore")), restore);
    }
  }
  parts.push(choiceButtons(places, me.place, (place) =>
    ctx.send("choose_place", restore && restore.value ? { place, restore: restore.value } : { place })));
  return h("div", {}, ...parts);
}

function countsGrid(v, counts, chosen, onPick) {
  return choiceButtons(v.open_places.map((p) => [p, `${label("place", p)} · ${t("cats_there", { n: counts[p] || 0 })}`]), chosen, onPick);
}

function guardPlace(v, me, ctx) {
  return h("div", {}, h("h2", {}, `🛡 ${t("guard_place")}`),
    me.guard_place ? h("p", {}, t("your_choice", { what: t("place_" + me.guard_place) })) :
      countsGrid(v, me.counts || {}, me.guard_place, (place) => ctx.send("guard_place", { place })));
}

function witchesTurn(v, me, ctx) {
  const title = h("h2", {}, `🌙 ${t("witches_turn")}`);
  if (!me || !me.witch_choices || !v.your_turn) return h("div", {}, title, gatheringScene(v, me), duck(v));
  const own = me.witch_choices[me.name] || {};
  const partners = Object.entries(me.witch_choices).filter(([n]) => n !== me.name)
    .map(([n, c]) => h("p", { class: "muted" }, `${n}: ${c.place ? t("place_" + c.place) : "…"} ${c.spell ? t("spell_" + c.spell) : ""}`));
  if (!own.place) {
    return h("div", {}, title, h("p", {}, t("witch_place")), countsGrid(v, me.counts || {}, null,
      (place) => ctx.send("witch_place", { place })), ...partners);
  }
  const spells = ["none", ...v.unlocked_spells.filter((s) => s !== "none")];
  if (!ctx.draft.spell) {
    return h("div", {}, title, h("p", {}, t("your_choice", { what: t("place_" + own.place) })),
      h("p", {}, t("witch_spell")), choiceButtons(spells.map((s) => [s, label("spell", s)]), null, (spell) => {
        if (spell === "none" || spell === "spoil") ctx.send("witch_spell", { spell });
        else { ctx.draft.spell = spell; ctx.render(); }
      }), ...partners);
  }
  const targets = (me.at_my_place || []).map((n) => [n, n]);
  return h("div", {}, title, h("p", {}, `${label("spell", ctx.draft.spell)} — ${t("witch_target")}`),
    choiceButtons(targets, null, (target) => ctx.send("witch_spell", { spell: ctx.draft.spell, target })),
    h("button", { class: "secondary", onclick: () => { ctx.draft.spell = null; ctx.render(); } }, "←"));
}

// Everyone else's screen during the witches' 15 s: where you gather, and a gauge filling.
function gatheringScene(v, me) {
  return h("div", { class: "panel" }, h("p", {}, h("strong", {}, t("gathering_scene"))),
    me && me.place ? h("p", {}, t("gathering_at", { place: label("place", me.place) })) : null,
    timeGauge(v));
}

// A gauge that fills until the step's deadline. The step's length is measured from when
// this phone first saw the deadline (the view carries only the deadline).
function timeGauge(v) {
  if (!v.deadline) return null;
  const now = Date.now() / 1000;
  if (!stepClock || stepClock.deadline !== v.deadline) stepClock = { deadline: v.deadline, start: now };
  const total = Math.max(1, v.deadline - stepClock.start);
  return h("div", { class: "gauge time", "aria-hidden": "true" },
    h("span", { style: `animation-duration:${total}s;animation-delay:${-(now - stepClock.start)}s` }));
}

export const MORNING_SCREENS = { role_check: roleCheck, place_choice: placeChoice, guard: guardPlace, witches: witchesTurn };
