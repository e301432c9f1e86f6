// Everything only this cat may know, one press-and-hold away: the role card
// (what it does, how it wins), the hand, what it gathered, every private result of the
// game, and the Seer's, Pickpocket's and Herbalist's powers. Every role gets the same panel:
// the same size, a name button per other cat (a Seer looks, a Pickpocket peeks, a Herbalist
// picks a frog to restore, everyone else marks a suspect on this phone only) and a "keep
// open" lock.
//
// The bar and panel are one element kept across renders (appended to <body>, outside the
// shell's <main> and strip, which are rebuilt): a redraw mid-press must not lose the hold.
// Hold the bar: the panel opens; release: it hides. To use it with one thumb, slide up to
// the lock and release there: it stays open until the bar is tapped again.
//
// Where a power may be used, a button over the bar opens the panel, kept open, in one tap
// (hidden behind hold-and-slide, the powers went unused). It is on every phone in
// those steps, with the same words: neither whether this cat has a power nor whether it is
// free now shows on the outside; the panel says it, power first.
import { h, clear } from "../../dom.js";
import { replaceIfChanged } from "../../redraw.js";
import { t } from "../../i18n.js";
import { label, icon } from "./common.js";
import { choosePlace } from "./morning.js";

const SEER_PHASES = ["evening", "discussion", "proposal", "approval", "approval_result", "ritual", "ritual_result"];
const PICKPOCKET_PHASES = ["evening", "discussion", "proposal"];
// The Knight's guard is his phone's place choice (the others' still say place_choice).
const HERBALIST_PHASES = ["place_choice", "guard"];

const state = { open: false, locked: false, view: null, ctx: null, suspects: new Set() };
let root = null;

function build() {
  root = h("div", { id: "ctw-secrets" });
  const sheet = h("section", { id: "ctw-sheet", class: "sheet", hidden: true, "aria-label": t("my_secrets") },
    h("div", { class: "sheet-body" }),
    // Out of the scrolling part, under it: it covers no name. Once the panel is
    // locked open the bar closes it: the lock goes.
    h("button", { id: "ctw-lock", class: "secondary lock", onclick: () => { state.locked = true; draw(); } }));
  const powers = h("button", { id: "ctw-powers", class: "powers-bar", onclick: () => {
    state.open = state.locked = true; // nothing is sent: opening looks the same on every phone
    draw();
  } });
  const bar = h("button", { id: "ctw-hold", class: "hold-bar", "aria-expanded": "false",
    onpointerdown: (e) => { e.preventDefault(); if (state.locked) return; state.open = true; draw(); },
    onpointerup: (e) => release(e), onpointercancel: () => release(null),
    onclick: () => { if (state.locked) { state.locked = false; state.open = false; draw(); } },
    onkeydown: (e) => { if (e.key === " " || e.key === "Enter") { e.preventDefault(); state.open = true; draw(); } },
    onkeyup: () => release(null),
    oncontextmenu: (e) => e.preventDefault() });
  root.append(sheet, powers, bar);
  document.body.append(root);
  // Only in a game: the shell marks the screen's phase on <main>.
  new MutationObserver(() => draw()).observe(document.querySelector("main"), { attributes: true, attributeFilter: ["data-phase"] });
}

function release(e) {
  if (!state.open || state.locked) return;
  // Released on the lock (a thumb slid up to it): keep the panel open.
  const under = e && document.elementFromPoint(e.clientX, e.clientY);
  if (under && under.closest("#ctw-lock")) state.locked = true;
  else state.open = false;
  draw();
}

// Called by the game's render with the newest view.
export function showSecrets(v, ctx) {
  state.view = v;
  state.ctx = ctx;
  if (!root) build();
  draw();
}

function inGame() {
  const phase = document.querySelector("main")?.dataset.phase;
  return Boolean(state.view && state.view.me && phase && !["home", "lobby", "game_over"].includes(phase)
    && state.view.phase !== "game_over");
}

// A step where some role's power may be used: the same for every phone at the table (the
// Herbalist's needs a frog, and every cat's form is public).
function powersStep(v) {
  if (HERBALIST_PHASES.includes(v.phase)) return v.players.some((c) => c.form === "frog");
  return SEER_PHASES.includes(v.phase) || PICKPOCKET_PHASES.includes(v.phase);
}

function draw() {
  if (!root) return;
  const sheet = root.querySelector("#ctw-sheet"), powers = root.querySelector("#ctw-powers"), bar = root.querySelector("#ctw-hold");
  const lock = sheet.querySelector("#ctw-lock"), body = sheet.querySelector(".sheet-body");
  const shown = inGame();
  root.hidden = !shown;
  const withPowers = shown && powersStep(state.view);
  document.body.classList.toggle("has-hold-bar", shown);
  document.body.classList.toggle("has-powers-bar", withPowers);
  if (!shown) { state.open = state.locked = false; }
  bar.textContent = state.locked ? `✕ ${t("close_panel")}` : `🂠 ${t("hold_secrets")}`;
  bar.setAttribute("aria-expanded", String(state.open));
  powers.textContent = `🔮 ${t("powers_control")}`;
  powers.hidden = !withPowers || state.open;
  lock.textContent = `🔒 ${t("keep_open")}`;
  lock.hidden = state.locked;
  sheet.hidden = !(shown && state.open);
  // The same markup keeps the same buttons: a view arriving mid-tap does not swallow it.
  if (!sheet.hidden) replaceIfChanged(body, panel(state.view, state.view.me).filter(Boolean));
  else clear(body);
}

// Where a power may be used, what it does now comes first; elsewhere the role card does.
function panel(v, me) {
  const gathered = me.gathered || [];
  const card = [
    h("h2", {}, `${icon("role", me.role)} ${t("role_" + me.role)}`),
    h("p", { class: "side" }, t("side_" + me.side)),
    h("p", {}, t("does_" + me.role)),
    me.role === "seer" && v.seer_first_day > 1 ? h("p", {}, t("seer_from_day", { n: v.seer_first_day })) : null,
    h("p", {}, `🏆 ${t("wins_" + me.role)}`),
    me.witches && me.witches.length ? h("p", {}, `${t("role_witch")}: ${me.witches.join(", ")}`) : null,
    h("h3", {}, t("your_hand")),
    h("p", { class: "row" }, ...(me.hand.length ? me.hand.map((c) => h("span", { class: "pill card" }, label("ingredient", c)))
      : [t("hand_empty")])),
    h("h3", {}, t("your_gathered")),
    h("ul", { class: "notes" }, ...(gathered.length ? gathered.map((g) => h("li", {}, t("gathered_line", {
      day: g.day, place: g.place ? label("place", g.place) : "—", what: g.ingredient ? label("ingredient", g.ingredient) : t("gathered_nothing"),
    }))) : [h("li", {}, "—")])),
    h("h3", {}, t("your_notes")),
    h("ul", { class: "notes" }, ...noteLines(me)),
  ];
  const p = power(v, me);
  const ability = h("div", { class: "power" }, h("h3", {}, abilityTitle(p, me)), h("p", { class: "muted small" }, abilityHint(p, v, me)),
    abilityButtons(p, v, me));
  return powersStep(v) ? [ability, ...card] : [...card, ability];
}

// Every private result of the game, oldest day first, as the server lists them (me.notes:
// spells, the guard, the Seer's looks and the Pickpocket's peeks, each with its day).
function noteLines(me) {
  const notes = me.notes || [];
  if (!notes.length) return [h("li", {}, "—")];
  return notes.map((n) => h("li", {}, `${t("day", { n: n.day })}: `, noteText(n)));
}

function noteText(n) {
  if (n.kind === "seer_look") return t(n.witch ? "seer_result_witch" : "seer_result_clear", { name: n.target });
  if (n.kind === "peek") {
    const hand = (n.hand || []).map((c) => label("ingredient", c)).join(", ") || t("hand_empty");
    return t("note_peek", { name: n.target, hand }) + (n.took ? ` ${t("note_took", { card: label("ingredient", n.took) })}` : "");
  }
  if (n.kind === "guard_repelled") return t("note_guard_repelled");
  if (n.kind === "guess") {
    const spell = label("spell", n.spell || "none") + (n.target ? ` → ${n.target}` : "");
    return t("note_guess", { place: label("place", n.place), spell });
  }
  if (n.kind === "spell") return t(n.worked ? "note_spell_worked" : "note_spell_failed", { spell: label("spell", n.spell) });
  return n.kind;
}

function power(v, me) {
  if (me.form !== "human" || me.away) return null;
  if (me.role === "seer" && !me.seer_used_today && v.day >= (v.seer_first_day ?? 1) && SEER_PHASES.includes(v.phase)) return "seer";
  // A peek spends the day's power at once (pickpocket_used_today); the take it leaves is open
  // until made (me.peek).
  if (me.role === "pickpocket" && me.peek) return "take";
  if (me.role === "pickpocket" && !me.pickpocket_used_today && PICKPOCKET_PHASES.includes(v.phase)) return "peek";
  if (me.role === "herbalist" && v.phase === "place_choice") return "restore";
  return null;
}

function abilityTitle(p, me) {
  return p === "seer" ? `🔮 ${t("seer_look")}` : p === "peek" ? `🧤 ${t("pickpocket_peek")}`
    : p === "take" ? `🧤 ${t("pickpocket_take", { name: me.peek.target })}` : p === "restore" ? `🌿 ${t("restore")}` : `🤔 ${t("suspects")}`;
}

// What a tap does, or why a power is not free now (its owner alone reads it, in the panel).
function abilityHint(p, v, me) {
  if (p) return t({ seer: "seer_look_hint", peek: "pickpocket_peek_hint", take: "pickpocket_take_hint", restore: "restore_hint" }[p]);
  if (me.role === "seer" && v.day < (v.seer_first_day ?? 1)) return t("seer_from_day", { n: v.seer_first_day });
  if ((me.role === "seer" && me.seer_used_today) || (me.role === "pickpocket" && me.pickpocket_used_today)) return t("power_used_today");
  return t("suspects_hint");
}

// One button per other cat still in the game, whatever the role: what a tap does differs,
// and each tap sends one frame (a look, a peek, a place with its restore, or a ping), so the
// Wi-Fi cannot tell them apart. A tap reads the newest view and draft, not those the button
// was drawn with (a redraw that changes nothing keeps the button: see draw).
function abilityButtons(p, v, me) {
  const ctx = state.ctx;
  if (p === "take") {
    return h("div", { class: "grid mini" }, ...[...me.peek.hand.map((c) => [c, label("ingredient", c)]), [null, t("take_nothing")]]
      .map(([card, text]) => h("button", { class: "card", onclick: () => ctx.send("pickpocket_take", { card }) }, text)));
  }
  const others = v.players.filter((c) => c.name !== me.name && c.form !== "exiled");
  const restoringNow = () => ctx.draft.restore ?? state.view.me.restore ?? null;
  return h("div", { class: "grid mini" }, ...others.map((c) => {
    if (p === "seer") return h("button", { class: "card", onclick: () => ctx.send("seer_look", { target: c.name }) }, named(me, c.name));
    if (p === "peek") return h("button", { class: "card", onclick: () => ctx.send("pickpocket_peek", { target: c.name }) }, c.name);
    if (p === "restore" && c.form === "frog") {
      return h("button", { class: "card", "aria-pressed": String(restoringNow() === c.name), onclick: () => {
        ctx.draft.restore = restoringNow() === c.name ? "" : c.name;
        // It goes with her place; before she has one, a ping, as a suspect marked.
        if (state.view.me.place) choosePlace(state.view, ctx, state.view.me.place);
        else ctx.refresh();
        draw();
      } }, `🐸 ${c.name}`);
    }
    return h("button", { class: "card", "aria-pressed": String(state.suspects.has(c.name)), onclick: () => {
      if (!state.suspects.delete(c.name)) state.suspects.add(c.name);
      // A mark stays on this phone, but a Seer's look here is a frame answered by one: a
      // ping (answered by its view or a pong, one padded length) sends and brings as much.
      ctx.refresh();
      draw();
    } }, named(me, c.name));
  }));
}

// A cat's name on the panel; on the Seer's, with what she saw of it (with nothing
// to mark them, one cat was looked at twice): 🧙 a witch, ✔ not one.
function named(me, name) {
  const seen = (me.seer_results || []).filter((r) => r.target === name).pop();
  return seen ? `${name} ${seen.witch ? "🧙" : "✔"}` : name;
}
