// Catch the Witch's morning and night: the role check, the morning (the duck), the place
// choice, the Knight's guard and the witches' turn. No tells (RULES §3): in every secret
// step a witch's, the Knight's, the Seer's and a villager's phones draw the same blocks
// (heading, duck, place grid, one secondary button, a hint), and a witch's choices live in
// a small pop-up over the Gathering scene that every phone shows.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { label, icon, doneButton, placeButtons, timeGauge, isSpectator } from "./common.js";
import { PLACE_INGREDIENT } from "./icons.js";
import { coverPlace } from "./cover.js";

function roleCheck(v, me, ctx) {
  if (!me) return h("h2", {}, t("role_check"));
  // Held in the step's draft, not only on the element: another cat's Ready re-renders the screen
  // while this player is still holding the button. The card is one fixed size whatever
  // role it describes (css .role-box): its height must not tell a long role from a short one.
  const box = h("div", { class: "role-box panel", "aria-live": "polite" });
  const fill = (held) => { box.replaceChildren(...(held ? roleCard(v, me) : [h("span", { class: "face-down" }, "🂠")])); };
  fill(Boolean(ctx.draft.holdingRole));
  const show = (e) => { e.preventDefault(); ctx.draft.holdingRole = true; fill(true); };
  const hide = () => { ctx.draft.holdingRole = false; fill(false); };
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

// The role card: who you are, what you do, how you win (and a witch's or the Crow's witches).
function roleCard(v, me) {
  return [
    h("p", { class: "role-name" }, roleText(me)),
    h("p", {}, t("does_" + me.role)),
    me.role === "seer" && v.seer_first_day > 1 ? h("p", {}, t("seer_from_day", { n: v.seer_first_day })) : null,
    h("p", {}, `🏆 ${t("wins_" + me.role)}`),
  ].filter(Boolean);
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
    choosePlace(v, ctx, place);
  } }, `🎲 ${t("any_place")}`);
}

// A place (the Herbalist's restore, chosen in the hold panel, goes with it: RULES §6.2),
// then its cover (cover.js).
export function choosePlace(v, ctx, place) {
  const me = v.me;
  const restore = me.role === "herbalist" ? (ctx.draft.restore ?? me.restore) : null;
  ctx.send("choose_place", restore ? { place, restore } : { place });
  coverPlace(v.step, ctx);
}

function placeChoice(v, me, ctx) {
  if (isSpectator(me)) return spectatorNight(v);
  const chosen = me.guarding ? null : me.place ?? null;
  return h("div", {}, h("h2", {}, t("choose_place")), duck(v),
    placeButtons(v, chosen, (place) => choosePlace(v, ctx, place)),
    secondButton(v, me, ctx),
    h("p", { class: "muted hint" }, t("place_hint")));
}

// The Knight's guard (others' phones still show the place choice): the same blocks, the
// counts in small print on the place buttons.
function guardPlace(v, me, ctx) {
  if (isSpectator(me)) return spectatorNight(v);
  const counts = me.counts || {};
  // The heading is the place choice's: the Knight's phone turning to "guard" must not read differently.
  return h("div", {}, h("h2", {}, t("choose_place")), duck(v),
    placeButtons(v, me.guard_place ?? null, (place) => ctx.send("guard_place", { place }),
      (p) => `🐈 × ${counts[p] || 0}`),
    h("button", { class: "secondary wide", "aria-pressed": "true" }, `🛡 ${t("guard_tonight")}`),
    h("p", { class: "muted hint" }, t("guard_hint")));
}

// The witches' turn: every phone shows the Gathering scene for the full 15 s (RULES §3),
// and over it one pop-up of one shape (UX.md: "if one role has something to tap, every
// role has something to tap"). A witch chooses her place, spell and target in it; every
// other cat in human form guesses them ([design] guess_place / guess_spell,
// docs/engine.md), a guess shown back to that cat alone in the evening. Both pop-ups have
// the same three rows, visible from the first second: a place tile per open place, a spell
// tile per spell open tonight, a name tile per other cat in human form; then a status line
// and a hint line of fixed height.
function witchesTurn(v, me, ctx) {
  if (isSpectator(me)) return spectatorNight(v);
  const place = me.place || (me.witch_choice && me.witch_choice.place) || (me.witch_choices && me.witch_choices[me.name]?.place);
  const where = place ? label("place", place) : me.guarding && me.guard_place ? `🛡 ${label("place", me.guard_place)}` : "";
  const required = (v.today && v.today.required) || [];
  const scene = h("div", { class: "panel scene" },
    h("p", { class: "scene-line" }, h("strong", {}, t("gathering_scene")), where ? ` · ${where}` : ""),
    timeGauge(v),
    nightPopup(v, me, ctx));
  return h("div", {}, h("h2", {}, `🌙 ${t("witches_turn")}`),
    h("p", { class: "duck-line" }, h("span", { "aria-hidden": "true" }, "🦆 "), required.map((i) => label("ingredient", i)).join(" ")),
    scene, h("p", { class: "muted hint" }, t("gathering_hint")));
}

// The pop-up's choices: a witch's (her coven's choices, the counts, who is at her place) or
// a guess. `chosen` is what the server holds; `draft` what was tapped and not sent yet.
function popupModel(v, me) {
  if (me.witch_choices) {
    const own = me.witch_choices[me.name] || {};
    const counts = me.counts || {};
    const there = new Set(me.at_my_place || []);
    const partners = Object.entries(me.witch_choices).filter(([n]) => n !== me.name)
      .map(([n, c]) => `${n}: ${c.place ? t("place_" + c.place) : "…"} ${c.spell ? t("spell_" + c.spell) : ""}`.trim());
    // (No word of Frog on day 1: its tile is simply not there yet.)
    const hints = [t(v.frog_witnesses ? "witness_hint_one" : "witness_hint"),
      v.role_set?.knight ? t("witch_guard_hint") : null];
    return {
      chosen: own, placeMove: "witch_place", spellMove: "witch_spell",
      question: [t("witch_place"), t("witch_spell"), t("witch_target")],
      placeNote: (p) => `🐈 × ${counts[p] || 0}`,
      // Only a cat at her place can be her target (📍); a fellow witch there is marked as one.
      targetNote: (n) => (own.place && there.has(n) ? ((me.witches || []).includes(n) ? "🧙" : "📍") : "\u00a0"),
      targetOk: (n) => !own.place || there.has(n),
      status: partners.join(" · ") || "\u00a0",
      hint: hints.filter(Boolean).join(" "),
    };
  }
  const guess = me.guess || {};
  return {
    chosen: guess, placeMove: "guess_place", spellMove: "guess_spell",
    question: [t("guess_place"), t("guess_spell"), t("witch_target")],
    placeNote: (p) => label("ingredient", PLACE_INGREDIENT[p]),
    targetNote: () => "\u00a0",
    targetOk: () => true,
    status: guess.spell ? t("guess_made") : "\u00a0",
    hint: t("guess_hint"),
  };
}

// The spells cast on a cat (engine: Spell.needs_target): their target is a third tap.
const TARGETED_SPELLS = new Set(["frog", "snatch"]);
const PLACE_RETAP_MS = 3000;

function nightPopup(v, me, ctx) {
  const m = popupModel(v, me);
  const chosen = m.chosen;
  const final = Boolean(chosen.spell);
  const spell = chosen.spell || ctx.draft.spell || null;
  const target = chosen.target || ctx.draft.target || null;
  // Send the spell once the place is held by the server and the spell (and its target) tapped.
  const sendSpell = () => {
    const s = ctx.draft.spell;
    if (final || !chosen.place || !s || ctx.draft.spellSent) return;
    const needsTarget = TARGETED_SPELLS.has(s);
    if (needsTarget && !ctx.draft.target) return;
    ctx.draft.spellSent = true;
    ctx.send(m.spellMove, needsTarget ? { spell: s, target: ctx.draft.target } : { spell: s });
  };
  queueMicrotask(sendSpell); // a place the server has just confirmed, after a spell tapped first
  const tile = (text, note, pressed, onclick) => h("button", { class: "card", "aria-pressed": String(pressed), onclick },
    h("span", { class: "tile-name" }, text), h("span", { class: "tile-note" }, note));
  // A place tapped shows at once and is sent once: a second tap while the first is on its
  // way would be a second frame (and a second choice) on a slow network. Unanswered after
  // PLACE_RETAP_MS, the tap may be made again.
  const pending = ctx.draft.place && Date.now() - ctx.draft.place.at < PLACE_RETAP_MS ? ctx.draft.place.name : null;
  const places = h("div", { class: "grid mini popup-places" }, ...v.open_places.map((p) =>
    tile(label("place", p), m.placeNote(p), (chosen.place || pending) === p, () => {
      if (chosen.place || (ctx.draft.place && Date.now() - ctx.draft.place.at < PLACE_RETAP_MS)) return;
      ctx.draft.place = { name: p, at: Date.now() };
      ctx.send(m.placeMove, { place: p });
      ctx.render();
    })));
  const spells = ["none", ...(v.unlocked_spells || []).filter((x) => x !== "none")];
  const spellRow = h("div", { class: "grid mini popup-spells" }, ...spells.map((x) =>
    tile(label("spell", x), "\u00a0", spell === x, () => {
      if (final) return;
      ctx.draft.spell = x;
      ctx.draft.spellSent = false;
      if (!TARGETED_SPELLS.has(x)) ctx.draft.target = null;
      sendSpell();
      ctx.render();
    })));
  const others = v.players.filter((c) => c.form === "human" && c.name !== me.name).map((c) => c.name);
  const targets = h("div", { class: "grid mini popup-targets" }, ...others.map((n) =>
    tile(n, m.targetNote(n), target === n, (e) => {
      if (final) return;
      if (!m.targetOk(n)) { ctx.showError(e.currentTarget, "target_not_there", { name: n, place: t("place_" + chosen.place) }); return; }
      ctx.draft.target = n;
      ctx.draft.spellSent = false; // a refused spell is sent again with the new target
      sendSpell();
      ctx.render();
    })));
  return h("div", { class: "witch-popup night-popup", role: "dialog", "aria-label": t("witches_turn") },
    h("p", { class: "popup-q" }, `① ${m.question[0]}`), places,
    h("p", { class: "popup-q" }, `② ${m.question[1]}`), spellRow,
    h("p", { class: "popup-q" }, `③ ${m.question[2]}`), targets,
    h("p", { class: "popup-status small" }, m.status),
    h("p", { class: "popup-hint small" }, m.hint));
}

export const MORNING_SCREENS = { role_check: roleCheck, morning, place_choice: placeChoice, guard: guardPlace, witches: witchesTurn };
