// The end of a game of Catch the Witch: the winner, every role revealed (cards turned over
// one by one), the witch score and what it counts, and the whole story day by day:
// who went where, the guard, what the witches cast on whom and whether it worked, the
// Seer's looks and the Pickpocket's peeks and thefts, every proposal with its yes and no,
// the ritual and every exile vote. The engine's end view tells it (reveal.timeline,
// docs/engine.md), naming cats by seat: the number in `players`.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { label, icon } from "./common.js";
import { FORM_ICONS } from "./chips.js";
import { revealTurns } from "../../moments.js";

// A cat of the story: its role's icon, then its name (every role is known at the end).
function storyCats(v, reveal) {
  const nameOf = (seat) => (v.players[seat - 1] || {}).name || `#${seat}`;
  const cat = (seat) => `${icon("role", reveal.roles[nameOf(seat)])}${nameOf(seat)}`;
  const cats = (seats) => (seats && seats.length ? seats.map(cat).join(", ") : "—");
  return { cat, cats };
}

// The line under a day's title: the duck's ingredients, then what the village saw at once
// (new frogs, the ritual's result, the exile), so a closed day still says what happened.
function daySummary(day, cats) {
  const ritual = day.ritual_result ? (day.ritual_result === "success" ? "✨" : "💥") : "";
  const frogs = (day.new_frogs || []).length ? `🐸 ${cats(day.new_frogs)}` : "";
  const exiled = day.exiled ? `⚖ ${cats([day.exiled])}` : "";
  return [(day.required || []).map((i) => icon("ingredient", i)).join(""), ritual, frogs, exiled]
    .filter(Boolean).join(" · ");
}

// Where every cat gathered, place by place, and where the Knight guarded.
function nightPart(day, cat, cats) {
  const byPlace = {};
  (day.places || []).forEach((place, i) => { if (place) (byPlace[place] ||= []).push(i + 1); });
  const lines = Object.entries(byPlace).map(([place, seats]) =>
    h("li", {}, `${label("place", place)}: ${cats(seats)}`));
  if (day.guard) {
    lines.push(h("li", {}, `${icon("role", "knight")} ${t("story_guard", { name: cat(day.guard.knight), place: label("place", day.guard.place) })}`));
  }
  for (const s of day.spells || []) {
    const target = s.target ? cat(s.target) : label("place", s.place);
    const told = { witch: cat(s.witch), spell: label("spell", s.spell), target };
    lines.push(s.worked ? h("li", {}, `✔ ${t("story_spell_worked", told)}`)
      : h("li", { class: "muted" }, `✘ ${t("story_spell_failed", told)}`));
  }
  if ((day.new_frogs || []).length) lines.push(h("li", {}, `🐸 ${t("new_frogs", { names: cats(day.new_frogs) })}`));
  if ((day.restored || []).length) lines.push(h("li", {}, `🌿 ${t("restored", { names: cats(day.restored) })}`));
  return lines;
}

// The evening's secret looks and peeks.
function eveningPart(day, cat) {
  const looks = (day.looks || []).map((look) => {
    const told = { seer: cat(look.seer), name: cat(look.target) };
    return h("li", {}, `${icon("role", "seer")} ${look.witch ? t("story_look_witch", told) : t("story_look_clear", told)}`);
  });
  const peeks = (day.peeks || []).map((peek) => {
    const told = { name: cat(peek.pickpocket), target: cat(peek.target) };
    return h("li", {}, `${icon("role", "pickpocket")} ${peek.took
      ? t("story_peek_took", { ...told, card: label("ingredient", peek.took) }) : t("story_peek_nothing", told)}`);
  });
  return [...looks, ...peeks];
}

// Every proposal with its yes and no, the ritual, and the exile vote.
function nightVotes(day, cat, cats) {
  const lines = (day.proposals || []).map((p) => h("li", {},
    h("div", {}, `📜 ${t("story_proposal", { chief: cat(p.chief), names: cats(p.members) })} `,
      h("strong", {}, p.passed ? `✔ ${t("passed")}` : `✘ ${t("rejected")}`)),
    h("div", { class: "muted" }, `${t("yes_votes", { names: cats(p.yes) })} · ${t("no_votes", { names: cats(p.no) })}`)));
  if (day.ritual_result) {
    lines.push(h("li", {}, `🔥 ${t("members", { names: cats(day.ritual_members) })} `,
      h("strong", {}, day.ritual_result === "success" ? `✨ ${t("success")}` : `💥 ${t("failure")}`)));
  }
  if ((day.votes || []).length) {
    const byTarget = new Map();
    for (const [voter, target] of day.votes) {
      if (!byTarget.has(target)) byTarget.set(target, []);
      byTarget.get(target).push(voter);
    }
    const tally = [...byTarget].map(([target, voters]) => h("div", { class: "muted" }, target
      ? t("voted_for", { names: cats(voters), target: cat(target) })
      : t("voted_skip", { names: cats(voters) })));
    lines.push(h("li", {}, h("div", {}, "⚖ ", h("strong", {}, day.exiled ? t("exiled", { name: cat(day.exiled) }) : t("nobody_exiled"))), ...tally));
  }
  return lines;
}

// Which days this phone has opened or closed, by game (its last step) and day: a view that
// arrives while the result is shown (the lobby changing) draws them as the player left them.
const opened = new Map();

// One day, closed but for the last one (the day that decided the game) until the player
// taps it; oldest first, so the story reads in the order it was played.
function storyDay(v, day, isLast, cat, cats) {
  const key = `${v.step}/${day.day}`;
  // The day on screen first: a tap opens it at once, but its toggle event comes a task
  // later, after a view arriving meanwhile would have drawn it closed again.
  const shown = document.querySelector(`details[data-day="${key}"]`);
  const open = shown ? shown.open : opened.has(key) ? opened.get(key) : isLast;
  return h("li", {}, h("details", { open, "data-day": key, ontoggle: (e) => opened.set(key, e.target.open) },
    h("summary", {}, h("span", {}, h("strong", {}, t("day", { n: day.day })), " ", h("span", { class: "muted" }, daySummary(day, cats)))),
    h("ul", { class: "story-lines" }, ...nightPart(day, cat, cats), ...eveningPart(day, cat), ...nightVotes(day, cat, cats))));
}

// The final reveal (moments.js revealTurns): one card per cat in seat order, turning over
// one after another, the same on every phone and the table screen, once however often the
// screen is drawn. prefers-reduced-motion: no turn at all (css).
function revealCards(v, reveal) {
  const cats = (v.players || []).length ? v.players : Object.keys(reveal.roles).map((name) => ({ name, form: "human" }));
  const turn = revealTurns(`reveal/${v.step}`, cats.length);
  return h("ul", { class: "reveal" }, ...cats.map((cat, seat) => {
    const role = reveal.roles[cat.name];
    const form = cat.form && cat.form !== "human" ? cat.form : null;
    return h("li", { class: turn ? "reveal-card flip" : "reveal-card", "data-form": form, style: turn ? turn(seat) : null },
      h("span", { class: "reveal-icon", "aria-hidden": "true" }, icon("role", role)),
      // Frogs are what the witch score counts: marked (as on the strip) so it adds up at a glance.
      h("span", { class: "reveal-who" }, h("strong", { class: "reveal-name" }, cat.name), form ? " " : null,
        form ? h("span", { class: "reveal-form", title: t(`form_${form}`) }, h("span", { "aria-hidden": "true" }, FORM_ICONS[form]),
          h("span", { class: "visually-hidden" }, t(`form_${form}`))) : null),
      h("span", { class: "reveal-role" }, t(`role_${role}`)));
  }));
}

function gameOver(v, me, ctx) {
  const outcome = v.outcome;
  const reveal = v.reveal || { roles: {}, timeline: [] };
  const { cat, cats } = storyCats(v, reveal);
  const timeline = reveal.timeline || [];
  return h("div", {},
    h("h1", {}, t(`winner_${outcome.winner}`)),
    h("p", {}, t(`reason_${outcome.reason}`)),
    revealCards(v, reveal),
    h("div", { class: "witch-score" }, h("p", {}, h("strong", {}, t("witch_score", { n: reveal.witch_score ?? 0 }))),
      h("p", { class: "muted hint" }, t("witch_score_explained"))),
    // The story is for reading afterwards, on a phone: a table screen has no room to scroll it.
    h("div", { class: "story-part" },
      h("h2", {}, t("timeline")),
      h("p", { class: "muted hint" }, t("story_hint")),
      h("ul", { class: "story" }, ...timeline.map((day, i) => storyDay(v, day, i === timeline.length - 1, cat, cats)))),
    // Shown from the lobby's last_result (the room is back in the lobby): each player goes
    // back when they are done looking. From a server that keeps the room at the result, the
    // host's rematch.
    ctx.toLobby ? h("button", { class: "big", id: "to-lobby", onclick: () => ctx.toLobby() }, t("to_lobby"))
      : v.host === v.you ? h("button", { class: "big", onclick: () => ctx.send("rematch") }, t("rematch")) : null);
}

export const END_SCREENS = { game_over: gameOver };
