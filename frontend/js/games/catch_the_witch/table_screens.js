// The table screen's own screens of a few steps (js/table.js asks `tableScreen` first, then
// draws a phone's spectator screen in large type): where that screen would leave a TV two
// thirds empty (the two votes) or speak to one seat ("Your secret role"). Public facts of
// the table view only: it has no `me`, and `voted` names who has voted, never how.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { label, names, humans } from "./common.js";

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

// Everyone looks at their own role: the table shows the roles in play (public: the lobby's
// set), not a seat's "Your secret role".
function roleCheck(v) {
  return h("div", {}, h("h2", {}, `🂠 ${t("narrate_role_check")}`), h("h3", {}, t("role_set")),
    h("ul", { class: "role-set" }, ...Object.entries(v.role_set || {}).map(([role, count]) =>
      h("li", {}, h("strong", {}, `${count} ×`), ` ${label("role", role)}`))));
}

const TABLE_SCREENS = { role_check: roleCheck, approval, vote: exileVote };

// The game module's hook (docs/client.md): the table screen's elements for this step, or
// null for the phone's spectator screen.
export function tableScreen(v) {
  const screen = TABLE_SCREENS[v.phase];
  return screen ? [screen(v)] : null;
}
