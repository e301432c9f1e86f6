// The table screen's own screens (js/table.js asks `tableScreen` first):
// a TV across the room, which cannot scroll and has no seat. Every step of a game is drawn
// here from public facts of the table view only (it has no `me`; `voted` names who has
// voted, never how), never in a seat's words ("Your secret role", where a phone's hold bar
// and powers are). The strip above has the step's countdown and every cat's chip. The two
// votes fill the screen with a tile per voter; the other steps are a phone's spectator
// screen in large type (css/table.css), with what the room needs to talk over: the duck's
// ingredients and the day's news in the evening and the discussion, the day's proposals.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { label, names, humans } from "./common.js";
import { duck, MORNING_SCREENS } from "./morning.js";
import { DAY_SCREENS } from "./day.js";
import { momentStyle } from "../../moments.js";

// Who has voted, never how (UX.md): a tile per voter, every cat in human form (RULES §3.6,
// §8), in seat order, the rest of the screen shared among them.
function voteBoard(v) {
  const voted = new Set(v.voted || []);
  const voters = humans(v);
  return [
    h("p", { class: "voted-count", role: "status" }, `🗳 ${t("voted_so_far", { n: voters.filter((n) => voted.has(n)).length, of: voters.length })}`),
    h("ul", { class: "vote-board" }, ...voters.map((name) => h("li", { class: voted.has(name) ? "has-voted" : "not-voted" },
      h("span", { class: "mark" }, voted.has(name) ? "✔" : "⏳"), h("span", { class: "voter" }, name)))),
  ];
}

// The proposal voted on, large: its Chief and its members.
function approval(v) {
  const proposal = v.today.proposals[v.today.proposals.length - 1];
  return h("div", { class: "table-vote" }, h("h2", {}, `🗳 ${t("approval")}`),
    h("div", { class: "panel proposal" }, h("p", {}, `👑 ${t("chief", { name: proposal.chief })}`),
      h("p", {}, t("members", { names: names(proposal.members) }))),
    ...voteBoard(v));
}

function exileVote(v) {
  return h("div", { class: "table-vote" }, h("h2", {}, `⚖ ${t("vote")}`), ...voteBoard(v));
}

// The votes revealed (UX.md's moment): a tile per voter in seat order with how it voted,
// the tiles turning up one after another when the result is first shown (js/moments.js:
// not again at a redraw). `ballots`: {voter: [words, kind]}.
const TILE_MS = 400, TILE_GAP_MS = 90;

function ballotBoard(v, ballots, moment) {
  const voters = v.players.map((p) => p.name).filter((name) => name in ballots);
  const style = momentStyle(moment, TILE_MS + TILE_GAP_MS * voters.length);
  return h("ul", { class: `vote-board revealed${style ? " moment" : ""}`, style },
    ...voters.map((name, i) => {
      const [words, kind] = ballots[name];
      return h("li", { class: kind, style: `--i:${i}` }, h("span", { class: "voter" }, name), h("span", { class: "ballot" }, words));
    }));
}

// The proposal's outcome large, then each voter's yes or no.
function approvalResult(v) {
  const proposals = v.today.proposals, last = proposals[proposals.length - 1];
  const ballots = Object.fromEntries([...last.yes.map((name) => [name, [`👍 ${t("yes")}`, "voted-yes"]]),
    ...last.no.map((name) => [name, [`👎 ${t("no")}`, "voted-no"]])]);
  return h("div", { class: "table-vote" }, h("h2", {}, `🗳 ${t("approval_result")}`),
    h("div", { class: "panel proposal" }, h("p", {}, last.passed ? `✅ ${t("passed")}` : `❌ ${t("rejected")}`),
      h("p", {}, t("members", { names: names(last.members) }))),
    ballotBoard(v, ballots, `approval-result/${v.day}/${proposals.length}`));
}

// Who is exiled (and as what, where the table shows it) large, then whom each voter named.
function voteResult(v) {
  const vote = v.today.vote || { votes: {}, exiled: null };
  const ballots = Object.fromEntries(Object.entries(vote.votes).map(([voter, target]) => [voter, target
    ? [`→ ${target}`, target === vote.exiled ? "voted-exiled" : "voted-for"] : [`⏭ ${t("skip")}`, "voted-skip"]]));
  return h("div", { class: "table-vote" }, h("h2", {}, `⚖ ${t("vote_result")}`),
    h("div", { class: "panel proposal" }, h("p", {}, vote.exiled ? `🚪 ${t("exiled", { name: vote.exiled })}` : t("nobody_exiled")),
      v.today.exiled_role ? h("p", {}, label("role", v.today.exiled_role)) : null),
    ballotBoard(v, ballots, `vote-result/${v.day}`));
}

// Everyone looks at their own role: the table shows the roles in play (public: the lobby's
// set), not a seat's "Your secret role".
function roleCheck(v) {
  return h("div", {}, h("h2", {}, `🂠 ${t("role_set")}`),
    h("ul", { class: "role-set" }, ...Object.entries(v.role_set || {}).map(([role, count]) =>
      h("li", {}, h("strong", {}, `${count} ×`), ` ${label("role", role)}`))));
}

// A phone's spectator screen without what speaks to its seat: the line under the evening
// and the discussion says where that phone's powers and hold bar are.
function spectator(v, ctx) {
  const screen = { ...MORNING_SCREENS, ...DAY_SCREENS }[v.phase](v, null, ctx);
  for (const seatLine of screen.querySelectorAll(".hint")) seatLine.remove();
  return screen;
}

// The evening's news (new frogs, cats restored, what the duck dropped), for the discussion.
const dayNews = (v, ctx) => DAY_SCREENS.evening(v, null, ctx).querySelector(".panel");

function evening(v, ctx) {
  const screen = spectator(v, ctx);
  screen.append(duck(v));
  return screen;
}

function discussion(v, ctx) {
  const screen = spectator(v, ctx);
  screen.append(dayNews(v, ctx), duck(v));
  return screen;
}

// Whom the Chief is choosing for, and the day's proposals rejected so far (the curse's cells).
function proposal(v, ctx) {
  const screen = spectator(v, ctx);
  screen.append(duck(v), ...((v.today && v.today.proposals) || []).map((p) => h("p", { class: "tv-earlier" },
    `❌ ${t("rejected")} · 👑 ${t("chief", { name: p.chief })} · ${t("members", { names: names(p.members) })}`)));
  return screen;
}

const TABLE_SCREENS = {
  role_check: roleCheck, evening, discussion, proposal, approval, approval_result: approvalResult,
  vote: exileVote, vote_result: voteResult,
};

// The game module's hook (docs/client.md): the table screen's elements for this step. The
// steps not drawn above (the morning, the night, the results, the squabble, the end) are
// the phone's spectator screens, which have no seat's words.
export function tableScreen(v, ctx) {
  const screen = TABLE_SCREENS[v.phase];
  return screen ? [screen(v, ctx)] : null;
}
