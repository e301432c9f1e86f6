// Catch the Witch's day: evening news, discussion and special powers, the Chief's
// proposal, the approval vote, the ritual, and the exile vote.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { label, names, humans, choiceButtons, doneButton } from "./common.js";
import { duck } from "./morning.js";
import { momentStyle } from "../../moments.js";

// The evening's news (frogs, cats back to human, ingredients dropped), a line each.
function eveningNews(day) {
  const news = [];
  if (day.new_frogs.length) news.push(`🐸 ${t("new_frogs", { names: names(day.new_frogs) })}`);
  if (day.restored.length) news.push(`🌿 ${t("restored", { names: names(day.restored) })}`);
  if (day.dropped.length) news.push(t("dropped", { items: day.dropped.map((i) => t("ingredient_" + i)).join(", ") }));
  return news;
}

function dayNews(day) {
  if (!day) return [];
  const news = eveningNews(day);
  return (news.length ? news : [t("nothing_happened")]).map((line) => h("p", {}, line));
}

function evening(v, me, ctx) {
  return h("div", {}, h("h2", {}, `🌆 ${t("evening")}`), h("div", { class: "panel" }, ...dayNews(v.today)),
    h("p", { class: "muted hint" }, t("secrets_hint")), doneButton(v, me, ctx, "ok", t("ok")));
}

function discussion(v, me, ctx) {
  return h("div", {}, h("h2", {}, `💬 ${t("discussion")}`), h("p", {}, t("talk_now")),
    h("p", { class: "muted hint" }, t("secrets_hint")), doneButton(v, me, ctx, "end_talk", t("end_talk")));
}

function proposal(v, me, ctx) {
  const size = v.today.required.length;
  if (!me || !v.your_turn) return h("div", {}, h("h2", {}, `👑 ${t("proposal")}`), h("p", {}, t("chief_choosing", { name: v.chief })));
  // The picks are read from the draft at tap time, never kept from when the grid was
  // drawn: a redraw of the same step, or the draft emptied for a new step after the
  // grid was built, must not swallow the Chief's first tap.
  const picked = ctx.draft.members || [];
  const toggle = (name) => {
    const now = (ctx.draft.members ||= []);
    const i = now.indexOf(name);
    if (i >= 0) now.splice(i, 1); else if (now.length < size) now.push(name);
    ctx.render();
  };
  return h("div", {}, h("h2", {}, `👑 ${t("proposal")}`), duck(v), h("p", {}, t("propose_n", { n: size })),
    h("div", { class: "grid" }, ...humans(v).map((n) => h("button", { class: "secondary", "aria-pressed": String(picked.includes(n)), onclick: () => toggle(n) }, n))),
    h("button", { class: "big", disabled: picked.length !== size, onclick: () => ctx.send("propose", { members: ctx.draft.members }) }, `${t("propose")} (${picked.length}/${size})`));
}

// Who has voted, never how (UX.md): the same line on every phone and the table screen.
export function votedLine(v) {
  const voted = v.voted || [];
  const voters = v.players.filter((p) => p.form === "human").length;
  return h("p", { class: "voted", role: "status" }, `🗳 ${t("voted_so_far", { n: voted.length, of: voters })}: `,
    voted.length ? voted.join(", ") : "—");
}

function approval(v, me, ctx) {
  const last = v.today.proposals[v.today.proposals.length - 1];
  const parts = [h("h2", {}, `🗳 ${t("approval")}`), h("p", { class: "panel" }, t("members", { names: names(last.members) }))];
  if (me && (v.your_turn || "approve" in me) && me.form === "human") {
    parts.push(h("div", { class: "row" },
      h("button", { class: "big", "aria-pressed": String(me.approve === true), onclick: () => ctx.send("approve", { yes: true }) }, `👍 ${t("yes")}`),
      h("button", { class: "big secondary", "aria-pressed": String(me.approve === false), onclick: () => ctx.send("approve", { yes: false }) }, `👎 ${t("no")}`)));
  }
  parts.push(votedLine(v));
  return h("div", {}, ...parts);
}

function approvalResult(v, me, ctx) {
  const last = v.today.proposals[v.today.proposals.length - 1];
  return h("div", {}, h("h2", {}, t("approval_result")),
    h("div", { class: "panel" }, h("p", {}, h("strong", {}, last.passed ? `✅ ${t("passed")}` : `❌ ${t("rejected")}`)),
      h("p", {}, t("members", { names: names(last.members) })),
      h("p", {}, t("yes_votes", { names: names(last.yes) })), h("p", {}, t("no_votes", { names: names(last.no) }))),
    doneButton(v, me, ctx, "ok", t("ok")));
}

// Five places' ingredients (RULES §4) and Nightshade: the most cards a member can choose from.
const RITUAL_SLOTS = 6;

// Every member's row: the cards in hand, then a Nightshade tile, then face-down blanks up to
// RITUAL_SLOTS. Nightshade is on every phone, in the same place (UX: "not a tile only
// saboteurs see"): a witch's or the Crow's plays it; anyone else's says why it cannot,
// on this phone only (nothing is sent, so no frame tells either).
function ritual(v, me, ctx) {
  const parts = [h("h2", {}, `🔥 ${t("ritual")}`), duck(v), h("p", {}, t("members", { names: names(v.today.ritual_members) }))];
  if (me && me.playable && v.your_turn) {
    const hand = me.playable.filter((c) => c !== "nightshade");
    const play = (card) => ctx.send("play_card", { card });
    const grid = choiceButtons(hand.map((c) => [c, label("ingredient", c)]), null, play);
    grid.classList.add("ritual-cards");
    const nightshade = h("button", { class: "card", onclick: (e) => (me.playable.includes("nightshade")
      ? play("nightshade") : ctx.showError(e.currentTarget, "no_nightshade")) }, label("ingredient", "nightshade"));
    grid.append(nightshade);
    for (let i = hand.length + 1; i < RITUAL_SLOTS; i++) grid.append(h("span", { class: "card blank", "aria-hidden": "true" }, "🂠"));
    parts.push(h("p", {}, t("play_card")), grid);
  } else parts.push(h("p", { class: "muted" }, t("ritual_waiting")));
  return h("div", {}, ...parts);
}

// The magic circle the members' cards went onto (UX.md: a moment, "lighting up (success) or
// fizzling (failure)"): it plays as the result is first shown, then stays lit or dull. Its
// moment is the day's proposal, public: every phone plays it alike, and a redraw of the step
// does not play it again (js/moments.js).
const CIRCLE_MS = 1600;
const CIRCLE_SVG = '<svg viewBox="0 0 120 120" focusable="false">'
  + '<circle class="ring" cx="60" cy="60" r="54"/><circle class="ring inner" cx="60" cy="60" r="44"/>'
  + '<polygon class="star" points="60,16 85.9,95.6 18.2,46.4 101.8,46.4 34.1,95.6"/>'
  + '<g class="candles"><circle cx="60" cy="6" r="4.5"/><circle cx="111.4" cy="43.3" r="4.5"/>'
  + '<circle cx="91.7" cy="103.7" r="4.5"/><circle cx="28.3" cy="103.7" r="4.5"/><circle cx="8.6" cy="43.3" r="4.5"/></g></svg>';

function magicCircle(v) {
  const moment = momentStyle(`ritual/${v.day}/${v.today.proposals.length}`, CIRCLE_MS);
  const result = v.today.ritual_result === "success" ? "lit" : "fizzled";
  const circle = h("div", { class: `magic-circle ${result}${moment ? " moment" : ""}`, style: moment, "aria-hidden": "true" });
  circle.innerHTML = CIRCLE_SVG; // static markup of our own
  return circle;
}

function ritualResult(v, me, ctx) {
  return h("div", {}, h("h2", {}, t("ritual_result")), magicCircle(v),
    h("p", { class: "panel" }, v.today.ritual_result === "success" ? `✨ ${t("success")}` : `💥 ${t("failure")}`),
    doneButton(v, me, ctx, "ok", t("ok")));
}

function squabble() {
  return h("div", {}, h("h1", {}, `😾 ${t("squabble")}`));
}

function exileVote(v, me, ctx) {
  const parts = [h("h2", {}, `⚖ ${t("vote")}`)];
  if (me && me.form === "human" && (v.your_turn || "vote" in me)) {
    const options = humans(v).filter((n) => n !== me.name).map((n) => [n, n]);
    const chosen = "vote" in me ? me.vote : undefined;
    // Skip is no cat: its own wide button under the names, another colour (RULES §8: it protects no one).
    parts.push(choiceButtons(options, chosen, (target) => ctx.send("vote", { target })),
      h("button", { class: "skip wide", "aria-pressed": String(chosen === null), onclick: () => ctx.send("vote", { target: null }) }, `⏭ ${t("skip")}`),
      h("p", { class: "muted hint" }, t("skip_hint")));
  }
  parts.push(votedLine(v));
  return h("div", {}, ...parts);
}

// The exile vote told: who is exiled, then who voted for whom (and who skipped), a line each.
function exileLines(vote) {
  const byTarget = {};
  for (const [voter, target] of Object.entries(vote.votes)) (byTarget[target ?? ""] ||= []).push(voter);
  return [vote.exiled ? t("exiled", { name: vote.exiled }) : t("nobody_exiled"),
    ...Object.entries(byTarget).map(([target, voters]) =>
      (target ? t("voted_for", { names: names(voters), target }) : t("voted_skip", { names: names(voters) })))];
}

function voteResult(v, me, ctx) {
  const [verdict, ...tally] = exileLines(v.today.vote || { votes: {}, exiled: null });
  return h("div", {}, h("h2", {}, t("vote_result")),
    h("div", { class: "panel" }, h("p", {}, h("strong", {}, verdict)),
      v.today.exiled_role ? h("p", {}, label("role", v.today.exiled_role)) : null,
      ...tally.map((line) => h("p", {}, line))),
    doneButton(v, me, ctx, "ok", t("ok")));
}

// What the table saw happen between two steps (the replay viewer, js/replay_viewer.js): a
// line for each public fact of `v` that `previous` (null: none) did not show yet, in the
// order of the day. Facts are keyed by day, so a new day's morning is news again.
export function newsSince(previous, v) {
  const before = new Set(previous ? publicFacts(previous).map(([key]) => key) : []);
  return publicFacts(v).filter(([key]) => !before.has(key)).map(([, line]) => line);
}

// The steps after the night's spells: the evening's news is known from then on.
const NIGHT_OVER = new Set(["evening", "discussion", "proposal", "approval", "approval_result", "ritual",
  "ritual_result", "squabble", "vote", "vote_result", "game_over"]);

function publicFacts(v) {
  const days = [...(v.history || []), ...(v.today ? [v.today] : [])];
  const facts = days.flatMap((day) => dayFacts(day, day !== v.today || NIGHT_OVER.has(v.phase)));
  const outcome = v.outcome;
  if (outcome) facts.push(["winner", `🏁 ${t(`winner_${outcome.winner}`)}`], ["reason", t(`reason_${outcome.reason}`)]);
  return facts;
}

function dayFacts(day, nightOver) {
  const key = (what) => `${day.day}/${what}`;
  const wanted = (day.required || []).map((i) => label("ingredient", i)).join(", ");
  const facts = [[key("morning"), `🦆 ${t("narrate_morning", { n: day.day, ingredients: wanted })}`]];
  const evening = eveningNews(day);
  facts.push(...evening.map((line) => [key(line), line]));
  if (nightOver && !evening.length) facts.push([key("quiet"), `🌆 ${t("nothing_happened")}`]);
  (day.proposals || []).forEach((p, i) => {
    facts.push([key(`proposal ${i}`), `📜 ${t("story_proposal", { chief: p.chief, names: names(p.members) })}`]);
    if ("passed" in p) {
      facts.push([key(`approval ${i}`), `${p.passed ? "✅" : "❌"} ${t(p.passed ? "replay_proposal_passed" : "replay_proposal_rejected",
        { chief: p.chief, yes: names(p.yes), no: names(p.no) })}`]);
    }
  });
  if (day.ritual_result) facts.push([key("ritual"), day.ritual_result === "success" ? `✨ ${t("success")}` : `💥 ${t("failure")}`]);
  if (day.vote) {
    facts.push(...exileLines(day.vote).map((line, i) => [key(`exile ${i}`), `⚖ ${line}`]));
    if (day.exiled_role) facts.push([key("exiled role"), t("replay_exiled_role", { name: day.vote.exiled, role: label("role", day.exiled_role) })]);
  }
  return facts;
}

export const DAY_SCREENS = {
  evening, discussion, proposal, approval, approval_result: approvalResult, ritual,
  ritual_result: ritualResult, squabble, vote: exileVote, vote_result: voteResult,
};
