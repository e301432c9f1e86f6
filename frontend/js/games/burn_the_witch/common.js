// Small pieces every Burn the Witch screen uses: words for villagers, traits and identities,
// a villager card, the table of every house, and the story told from the view's `history`.
import { h } from "../../dom.js";
import { t, hasString } from "../../i18n.js";
import { gameNow, tickMs } from "../../clock.js";
import { TRAIT_ICON, IDENTITY_ICON } from "./icons.js";

// A villager's name in the player's language (the engine's name is the villager's key).
export function villagerName(name) {
  const key = `btw_name_${String(name).toLowerCase()}`;
  return hasString(key) ? t(key) : name;
}

export const traitLabel = (trait) => `${TRAIT_ICON[trait] || ""} ${t("trait_" + trait)}`.trim();
export const identityLabel = (identity) => `${IDENTITY_ICON[identity] || ""} ${t("btw_" + identity)}`.trim();

export function traitPills(traits) {
  return h("span", { class: "traits" }, ...traits.map((trait) => h("span", { class: "trait" }, traitLabel(trait))));
}

// A villager: name, then its traits; `button` makes it a control (execute, choose).
export function villagerCard(villager, { onclick = null, disabled = false, highlight = false, owner = null } = {}) {
  const body = [h("span", { class: "villager-name" }, villagerName(villager.name), owner ? h("span", { class: "owner" }, ` · ${owner}`) : null),
    traitPills(villager.traits)];
  if (!onclick) return h("div", { class: "villager" }, ...body);
  return h("button", { class: `villager${highlight ? " complying" : ""}`, disabled, onclick }, ...body);
}

export const livingVillagers = (v) => v.houses.flatMap((house) => house.villagers.map((villager) => ({ ...villager, owner: house.owner })));
export const myHouse = (v) => v.houses.find((house) => house.owner === v.you) || null;
export const can = (v, move) => Boolean(v.me && (v.me.can || []).includes(move));

// The table (§7): the counters, then every house with its living villagers and traits,
// its burned villagers with their identity, its hex, the accuser and the executioner.
export function tableBlock(v) {
  const players = Object.fromEntries((v.players || []).map((p) => [p.name, p]));
  return h("div", { class: "btw-table" },
    h("h2", {}, `🏘️ ${t("btw_table")}`),
    h("p", { class: "btw-counters" },
      h("span", {}, `🔥 ${t("btw_innocents_burned", { n: v.innocents_burned, of: v.wrongly_condemned })}`),
      h("span", {}, `🧙‍♀️ ${t("btw_witches_left", { n: v.witches_left })}`)),
    ...v.houses.map((house) => {
      const marks = [
        house.owner === v.accuser ? `🗣️ ${t("btw_accuser")}` : null,
        house.owner === v.executioner ? `🪓 ${t("btw_executioner")}` : null,
        house.hexed ? `☠️ ${t("btw_hexed")}` : null,
        players[house.owner]?.away ? `💤 ${t("away")}` : null,
      ].filter(Boolean);
      return h("section", { class: `panel house${house.owner === v.you ? " mine" : ""}${house.hexed ? " hexed" : ""}` },
        h("h3", {}, `🏠 ${house.owner}`, house.owner === v.you ? ` (${t("you")})` : ""),
        marks.length ? h("p", { class: "marks" }, marks.join(" · ")) : null,
        ...house.villagers.map((villager) => villagerCard(villager)),
        house.villagers.length ? null : h("p", { class: "muted" }, t("btw_no_villagers_left")),
        ...house.burned.map((villager) => h("div", { class: "villager burned" },
          h("span", { class: "villager-name" }, `🔥 ${villagerName(villager.name)}`),
          h("span", { class: "identity" }, identityLabel(villager.identity)))));
    }));
}

// One public event of the history as a line (the story at the end, the news in a round).
export function eventLine(event) {
  switch (event.kind) {
    case "accuse": return `🗣️ ${t("btw_story_accuse", { round: event.round, accuser: event.accuser, trait: traitLabel(event.trait) })}`;
    case "vote": return `🗳️ ${t("btw_story_vote", { burn: event.burn, save: event.save, outcome: t("btw_outcome_" + event.outcome) })}`;
    case "burn": return `🔥 ${t("btw_story_burn", { by: event.by, villager: villagerName(event.villager), owner: event.owner,
      identity: identityLabel(event.identity), cause: t("btw_cause_" + event.cause) })}`;
    case "hexed": return `☠️ ${t("btw_story_hexed", { owner: event.owner })}`;
    case "trial": return `👉 ${t("btw_story_trial", { points: pointsText(event.points), chosen: event.chosen })}`;
    case "retribution": return event.target ? `⚖️ ${t("btw_story_retribution", { by: event.by, target: event.target })}`
      : `⚖️ ${t("btw_story_no_retribution", { by: event.by })}`;
    case "timed_out": return `⌛ ${t("btw_story_timed_out", { player: event.player, step: t("btw_phase_" + event.step) })}`;
    default: return "";
  }
}

export function pointsText(points) {
  const pairs = Object.entries(points || {});
  return pairs.length ? pairs.map(([from, to]) => `${from} → ${to}`).join(", ") : t("btw_nobody_pointed");
}

// The events of the round being played, in order (each chained effect told as it happened).
export function newsBlock(v) {
  const history = v.history || [];
  let start = history.length;
  while (start > 0 && history[start - 1].kind !== "accuse") start -= 1;
  const events = history.slice(Math.max(0, start - 1));
  if (!events.length) return null;
  return h("div", { class: "panel news", "aria-label": t("btw_news") },
    h("ol", {}, ...events.map((event) => h("li", {}, eventLine(event)))));
}

// The step's countdown on the screen itself (the witching hour, the trial's two minutes),
// ticking every second between views: the shell redraws only its strip each second.
let ticking = false;

export function clock(v) {
  if (!v.deadline) return null;
  if (!ticking) {
    ticking = true;
    setInterval(() => document.querySelectorAll(".btw-clock").forEach(tick), tickMs());
  }
  const el = h("span", { class: "btw-clock", "data-deadline": String(v.deadline) });
  tick(el);
  return el;
}

function tick(el) {
  const left = Math.max(0, Math.ceil(Number(el.dataset.deadline) - gameNow()));
  el.textContent = `⏱ ${t("seconds_short", { n: left })}`;
}
