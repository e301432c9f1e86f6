// The end of a game of Catch the Witch: the winner, every role revealed, and the
// timeline with the witches' secret night work.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { label, icon } from "./common.js";

function gameOver(v, me, ctx) {
  const outcome = v.outcome;
  const reveal = v.reveal || { roles: {}, timeline: [] };
  const rows = Object.entries(reveal.roles).map(([name, role]) =>
    h("tr", {}, h("td", {}, name), h("td", {}, label("role", role))));
  const days = (reveal.timeline || []).map((day) => h("li", {},
    h("strong", {}, t("day", { n: day.day })), ": ",
    (day.required || []).map((i) => icon("ingredient", i)).join(""), " · ",
    day.ritual_result ? (day.ritual_result === "success" ? "✨" : "💥") : "–", " · ",
    day.new_frogs && day.new_frogs.length ? `🐸 ${day.new_frogs.join(", ")} · ` : "",
    day.exiled ? `⚖ ${day.exiled}` : "",
    // The witches' secret night work, revealed: who cast what on whom, and whether it worked.
    ...(day.spells || []).filter((s) => s.spell !== "none").map((s) => h("div", { class: "muted" },
      `${icon("role", "witch")} ${s.witch}: ${label("spell", s.spell)} → ${s.target || t("place_" + s.place)} `,
      s.worked ? "✔" : "✘"))));
  return h("div", {},
    h("h1", {}, t(`winner_${outcome.winner}`)),
    h("p", {}, t(`reason_${outcome.reason}`)),
    h("p", {}, t("witch_score", { n: reveal.witch_score ?? 0 })),
    h("table", { class: "panel" }, ...rows),
    h("h2", {}, t("timeline")), h("ul", {}, ...days),
    // Shown from the lobby's last_result (the room is back in the lobby): each player goes
    // back when they are done looking. From a server that keeps the room at the result, the
    // host's rematch.
    ctx.toLobby ? h("button", { class: "big", id: "to-lobby", onclick: () => ctx.toLobby() }, t("to_lobby"))
      : v.host === v.you ? h("button", { class: "big", onclick: () => ctx.send("rematch") }, t("rematch")) : null);
}

export const END_SCREENS = { game_over: gameOver };
