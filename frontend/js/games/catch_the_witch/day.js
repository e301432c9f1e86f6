// Catch the Witch's day: evening news, discussion and special powers, the Chief's
// proposal, the approval vote, the ritual, and the exile vote.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { label, names, humans, choiceButtons, doneButton } from "./common.js";
import { duck } from "./morning.js";

function dayNews(day) {
  if (!day) return [];
  const news = [];
  if (day.new_frogs.length) news.push(h("p", {}, "🐸 ", t("new_frogs", { names: names(day.new_frogs) })));
  if (day.restored.length) news.push(h("p", {}, "🌿 ", t("restored", { names: names(day.restored) })));
  if (day.dropped.length) news.push(h("p", {}, t("dropped", { items: day.dropped.map((i) => t("ingredient_" + i)).join(", ") })));
  return news.length ? news : [h("p", {}, t("nothing_happened"))];
}

function evening(v, me, ctx) {
  return h("div", {}, h("h2", {}, `🌆 ${t("evening")}`), h("div", { class: "panel" }, ...dayNews(v.today)),
    specialPowers(v, me, ctx), doneButton(v, me, ctx, "ok", t("ok")));
}

function discussion(v, me, ctx) {
  return h("div", {}, h("h2", {}, `💬 ${t("discussion")}`), h("p", {}, t("talk_now")),
    specialPowers(v, me, ctx), doneButton(v, me, ctx, "end_talk", t("end_talk")));
}

function specialPowers(v, me, ctx) {
  if (!me || me.form !== "human") return null;
  const others = v.players.filter((p) => p.name !== me.name && p.form !== "exiled").map((p) => [p.name, p.name]);
  const parts = [];
  if (me.role === "seer") {
    for (const r of me.seer_results || []) parts.push(h("p", {}, t(r.witch ? "seer_result_witch" : "seer_result_clear", { name: r.target })));
    if (!me.seer_used_today) parts.push(h("p", {}, `🔮 ${t("seer_look")}`), choiceButtons(others, null, (target) => ctx.send("seer_look", { target })));
  }
  if (me.role === "pickpocket" && !me.pickpocket_used_today) {
    if (!me.peek) parts.push(h("p", {}, `🧤 ${t("pickpocket_peek")}`), choiceButtons(others, null, (target) => ctx.send("pickpocket_peek", { target })));
    else parts.push(h("p", {}, t("pickpocket_take", { name: me.peek.target })),
      choiceButtons([...me.peek.hand.map((c) => [c, label("ingredient", c)]), [null, t("take_nothing")]], undefined,
        (card) => ctx.send("pickpocket_take", { card })));
  }
  return parts.length ? h("div", { class: "panel" }, ...parts) : null;
}

function proposal(v, me, ctx) {
  const size = v.today.required.length;
  if (!me || !v.your_turn) return h("div", {}, h("h2", {}, `👑 ${t("proposal")}`), h("p", {}, t("chief_choosing", { name: v.chief })));
  ctx.draft.members = ctx.draft.members || [];
  const picked = ctx.draft.members;
  const toggle = (name) => {
    const i = picked.indexOf(name);
    if (i >= 0) picked.splice(i, 1); else if (picked.length < size) picked.push(name);
    ctx.render();
  };
  return h("div", {}, h("h2", {}, `👑 ${t("proposal")}`), duck(v), h("p", {}, t("propose_n", { n: size })),
    h("div", { class: "grid" }, ...humans(v).map((n) => h("button", { class: "secondary", "aria-pressed": String(picked.includes(n)), onclick: () => toggle(n) }, n))),
    h("button", { class: "big", disabled: picked.length !== size, onclick: () => ctx.send("propose", { members: picked }) }, `${t("propose")} (${picked.length}/${size})`));
}

function approval(v, me, ctx) {
  const last = v.today.proposals[v.today.proposals.length - 1];
  const parts = [h("h2", {}, `🗳 ${t("approval")}`), h("p", { class: "panel" }, t("members", { names: names(last.members) }))];
  if (me && (v.your_turn || "approve" in me) && me.form === "human") {
    parts.push(h("div", { class: "row" },
      h("button", { class: "big", "aria-pressed": String(me.approve === true), onclick: () => ctx.send("approve", { yes: true }) }, `👍 ${t("yes")}`),
      h("button", { class: "big secondary", "aria-pressed": String(me.approve === false), onclick: () => ctx.send("approve", { yes: false }) }, `👎 ${t("no")}`)));
  }
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

function ritual(v, me, ctx) {
  const parts = [h("h2", {}, `🔥 ${t("ritual")}`), duck(v), h("p", {}, t("members", { names: names(v.today.ritual_members) }))];
  if (me && me.playable && v.your_turn) {
    parts.push(h("p", {}, t("play_card")), choiceButtons(me.playable.map((c) => [c, label("ingredient", c)]), null,
      (card) => ctx.send("play_card", { card })));
  } else parts.push(h("p", { class: "muted" }, t("ritual_waiting")));
  return h("div", {}, ...parts);
}

function ritualResult(v, me, ctx) {
  return h("div", {}, h("h2", {}, t("ritual_result")),
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
    parts.push(choiceButtons([...options, [null, t("skip")]], "vote" in me ? me.vote : undefined,
      (target) => ctx.send("vote", { target })));
  }
  return h("div", {}, ...parts);
}

function voteResult(v, me, ctx) {
  const vote = v.today.vote || { votes: {}, exiled: null };
  const byTarget = {};
  for (const [voter, target] of Object.entries(vote.votes)) (byTarget[target ?? t("skip")] ||= []).push(voter);
  return h("div", {}, h("h2", {}, t("vote_result")),
    h("div", { class: "panel" }, h("p", {}, h("strong", {}, vote.exiled ? t("exiled", { name: vote.exiled }) : t("nobody_exiled"))),
      v.today.exiled_role ? h("p", {}, label("role", v.today.exiled_role)) : null,
      ...Object.entries(byTarget).map(([target, voters]) => h("p", {}, t("voters", { target, names: names(voters) })))),
    doneButton(v, me, ctx, "ok", t("ok")));
}

export const DAY_SCREENS = {
  evening, discussion, proposal, approval, approval_result: approvalResult, ritual,
  ritual_result: ritualResult, squabble, vote: exileVote, vote_result: voteResult,
};
