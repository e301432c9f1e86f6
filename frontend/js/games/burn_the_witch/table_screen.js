// Burn the Witch on a TV (js/table.js asks `tableScreen`): a screen that cannot
// scroll and is read from across the room. Always in view, at 1280×720 with ten players:
// the step and whom it waits for (the strip above has its countdown and every player's
// chip), every house with its owner and living villagers (traits as icons, named in the
// legend under them), and the newest lines of the round log. Never a seat's words: the
// table view has no `me`. Public facts only.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { momentStyle } from "../../moments.js";
import { TRAIT_ICON, IDENTITY_ICON } from "./icons.js";
import { villagerName, traitLabel, identityLabel, roundsOf, eventLine, trialUnderWay, winnerTitle, houseVillagers,
  identityTurns } from "./common.js";

// How many of the newest round-log lines the TV shows (older ones: the phones' log).
const LOG_LINES = 3;
// A new log line arrives with a short flare (UX.md's moments: a vote revealed, a burn,
// a trial), once per line however often the screen is drawn.
const NEW_LINE_MS = 1600;

function stepLine(v) {
  const pending = v.pending || {};
  switch (v.phase) {
    case "witching_hour": return [`🌙 ${t("btw_phase_witching_hour")}`, t("btw_witching_scene")];
    case "accuse": return [`🗣️ ${t("btw_round_accuse", { round: v.round })}`, t("btw_waiting_accuser", { name: v.accuser })];
    case "vote": return [`🗳️ ${t("btw_vote_title", { trait: traitLabel(v.accused_trait) })}`,
      `${t("btw_voted")}: ${(v.voted || []).join(", ") || "—"}`];
    case "execute": return [`🪓 ${t("btw_phase_execute")} · ${traitLabel(v.accused_trait)}`, t("btw_waiting_executioner", { name: v.executioner })];
    case "trial": {
      const trial = trialUnderWay(v);
      return [`🔥 ${t("btw_trial_title_n", { n: trial.number })}`,
        `${t("btw_pointed")}: ${((v.trial || {}).pointed || []).join(", ") || "—"}`];
    }
    case "choose_villager": return [`${pending.kind === "hex" ? "☠️" : "🔥"} ${t("btw_choose_title_" + pending.kind)}`,
      t("btw_waiting_chooser", { name: pending.chooser })];
    case "retribution": return [`⚖️ ${t("btw_retribution_title")}`, t("btw_waiting_chooser", { name: pending.chooser })];
    default: return [v.phase, ""];
  }
}

function logLines(v) {
  const events = roundsOf(v.history).flatMap((r) => r.events);
  const shown = events.map((event, i) => ({ event, i })).slice(-LOG_LINES);
  return h("ol", { class: "tv-log", "aria-label": t("btw_round_log") }, ...shown.map(({ event, i }) => {
    const style = i === events.length - 1 ? momentStyle(`btw-log-${i}`, NEW_LINE_MS) : null;
    return h("li", { class: style ? "new" : "", style }, eventLine(event));
  }));
}

function house(v, owner, { complying, over, identities, turn }) {
  const marks = [owner.owner === v.accuser ? "🗣️" : "", owner.owner === v.executioner ? "🪓" : "", owner.hexed ? "☠️" : ""].join("");
  const burned = new Set(owner.burned.map((villager) => villager.name));
  const villagers = over ? houseVillagers(owner) : owner.villagers;
  const mark = (villager) => (over ? IDENTITY_ICON[villager.identity || identities[villager.name]] || ""
    : villager.traits.map((trait) => TRAIT_ICON[trait] || trait).join(""));
  return h("section", { class: `tv-house${owner.hexed ? " hexed" : ""}` },
    h("h3", {}, h("span", { class: "tv-owner" }, owner.owner), marks ? h("span", { class: "tv-marks" }, marks) : null,
      burned.size && !over ? h("span", { class: "tv-burned" }, `🔥${burned.size}`) : null),
    ...villagers.map((villager) => h("p", { class: `tv-villager${complying.has(villager.name) ? " complying" : ""}${burned.has(villager.name) ? " burned" : ""}${turn ? " flip" : ""}`,
      style: turn ? turn() : null },
      h("span", { class: "tv-name" }, villagerName(villager.name)),
      h("span", { class: "tv-traits", "aria-label": villager.traits.map(traitLabel).join(", ") }, mark(villager)))),
    villagers.length ? null : h("p", { class: "tv-villager empty" }, `🏚️ ${t("btw_no_villagers_left")}`));
}

// The traits on the table, each icon with its word (the houses show icons only).
function legend(v) {
  const shown = [...new Set(v.houses.flatMap((owner) => owner.villagers.flatMap((villager) => villager.traits)))].sort();
  return h("p", { class: "tv-legend" }, ...shown.map((trait) => h("span", {}, traitLabel(trait))));
}

// At the end the houses show identities as icons: their words.
function identityLegend() {
  return h("p", { class: "tv-legend" }, ...Object.keys(IDENTITY_ICON).map((identity) => h("span", {}, identityLabel(identity))));
}

export function tableScreen(v) {
  if (!v.houses) return null;
  const over = v.phase === "over" || v.phase === "game_over";
  const complying = new Set(v.phase === "execute" ? v.complying || [] : []);
  const identities = (over && v.outcome && v.outcome.identities) || {};
  const turn = over ? identityTurns(v) : null; // the final reveal, as on the phones
  const [title, sub] = over && v.outcome
    ? [winnerTitle(v.outcome), t("btw_reason_" + v.outcome.reason, { round: v.outcome.round })]
    : stepLine(v);
  return [h("div", { class: `btw-tv${over ? " over" : ""}`, "data-houses": String(v.houses.length) },
    h("div", { class: "tv-step" }, h("h1", {}, title), sub ? h("p", { class: "tv-sub" }, sub) : null),
    logLines(v),
    h("div", { class: "tv-houses" }, ...v.houses.map((owner) => house(v, owner, { complying, over, identities, turn }))),
    over ? identityLegend() : legend(v))];
}
