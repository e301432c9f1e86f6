// Small pieces every Burn the Witch screen uses: words for villagers, traits and identities,
// a villager card, the table of every house, and the story told from the view's `history`.
import { h } from "../../dom.js";
import { t, hasString } from "../../i18n.js";
import { gameNow, everyTick } from "../../clock.js";
import { revealTurns } from "../../moments.js";
import { TRAIT_ICON, IDENTITY_ICON, FACTION_ICON } from "./icons.js";

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

// One public event of the history as a line (the round log, the story at the end).
export function eventLine(event) {
  switch (event.kind) {
    case "accuse": return `🗣️ ${t("btw_story_accuse", { round: event.round, accuser: event.accuser, trait: traitLabel(event.trait) })}`;
    case "vote": return `🗳️ ${t("btw_story_vote", { burn: event.burn, save: event.save, outcome: t("btw_outcome_" + event.outcome) })}`;
    case "burn": return `🔥 ${t("btw_story_burn", { by: event.by, villager: villagerName(event.villager), owner: event.owner,
      identity: identityLabel(event.identity), cause: t("btw_cause_" + event.cause) })}`;
    case "hexed": return `☠️ ${t("btw_story_hexed", { owner: event.owner })}`;
    case "trial": return `👉 ${t("btw_story_trial_n", { n: event.number ?? 1, points: pointsText(event.points), chosen: event.chosen })}`;
    case "retribution": return event.target ? `⚖️ ${t("btw_story_retribution", { by: event.by, target: event.target })}`
      : `⚖️ ${t("btw_story_no_retribution", { by: event.by })}`;
    case "timed_out": return `⌛ ${t("btw_story_timed_out", { player: event.player, step: t("btw_phase_" + event.step) })}`;
    default: return "";
  }
}

// The end (§1): who won, with their faction's icon.
export const winnerTitle = (result) =>
  `${result.winner === "zealots" ? FACTION_ICON.zealot : FACTION_ICON.sympathizer} ${t("btw_winner_" + result.winner)}`;

// What the end adds to a player's name: their kind of sympathizer (coven, witch, bewitched).
export function kindsOf(result) {
  const kinds = Object.fromEntries((result.sympathizers || []).map((s) => [s.name, s.kind]));
  return (player) => (kinds[player] ? ` (${t("btw_kind_" + kinds[player])})` : "");
}

// What the table saw happen between two steps (the replay viewer, js/replay_viewer.js): a
// line for each event of `v`'s history that `previous` (null: none) did not have, in order,
// then the result once the game has ended.
export function newsSince(previous, v) {
  const events = roundsOf(v.history).flatMap((r) => r.events);
  const lines = events.slice(((previous && previous.history) || []).length).map(eventLine);
  const result = v.outcome;
  if (result && !(previous && previous.outcome)) lines.push(winnerTitle(result), t("btw_reason_" + result.reason, { round: result.round }));
  return lines.filter(Boolean);
}

// Every villager of a house, the living then the burned ones, each marked `burned`.
export const houseVillagers = (house) => [...house.villagers.map((villager) => ({ ...villager, burned: false })),
  ...house.burned.map((villager) => ({ ...villager, burned: true }))];

// The final reveal of every villager's identity, house by house in seat order, on the phones
// and the TV alike (moments.js revealTurns: once, however often the end is drawn): a
// function giving the next card's inline style, or null once it has played.
export function identityTurns(v) {
  const turns = revealTurns(`btw-reveal/${v.step}`, v.houses.reduce((n, house) => n + houseVillagers(house).length, 0));
  if (!turns) return null;
  let card = 0;
  return () => turns(card++);
}

// Every player's faction and the identity of every villager of their house (living, then
// burned), as the game's end reveals them (`result`, from its last view), told on any step
// `v` of it (the replay viewer's "Show roles"): [player, words] per house.
export function revealedHouses(result, v) {
  const kind = kindsOf(result);
  const identities = result.identities || {};
  return v.houses.map((house) => {
    const faction = (result.factions || {})[house.owner];
    const villagers = houseVillagers(house)
      .map((villager) => `${villager.burned ? "🔥" : ""}${villagerName(villager.name)} ${identityLabel(villager.identity || identities[villager.name])}`);
    const who = faction ? `${FACTION_ICON[faction]} ${t("btw_" + faction)}${kind(house.owner)}` : "";
    return [house.owner, `${who}: ${villagers.join(", ")}`];
  });
}

export function pointsText(points) {
  const pairs = Object.entries(points || {});
  return pairs.length ? pairs.map(([from, to]) => `${from} → ${to}`).join(", ") : t("btw_nobody_pointed");
}

// The history by round, oldest first: [{round, events}], round 0 being the witching hour.
// Each event carries its round (engine/burn_the_witch/flow.py `record`); a file from before
// that kept it only on accusations and votes, so an event without one stays in the round
// told last. Trials are numbered in the game's order.
export function roundsOf(history) {
  const rounds = [];
  let trials = 0;
  for (const event of history || []) {
    const round = event.round ?? (rounds.length ? rounds[rounds.length - 1].round : 0);
    if (!rounds.length || rounds[rounds.length - 1].round !== round) rounds.push({ round, events: [] });
    rounds[rounds.length - 1].events.push(event.kind === "trial" ? { ...event, number: ++trials } : event);
  }
  return rounds;
}

export const roundTitle = (round) => (round ? t("btw_round", { round }) : t("btw_phase_witching_hour"));

// The trial under way (§4): its number, and whose devout villager's burning started it.
export function trialUnderWay(v) {
  const history = v.history || [];
  const devout = [...history].reverse().find((event) => event.kind === "burn" && event.identity === "devout");
  return { number: history.filter((event) => event.kind === "trial").length + 1, owner: devout ? devout.owner : null };
}

// The round log (§7: each round's counts, burns and trial points stay public): the round
// being played and the one before it in view, every earlier round one tap away, newest
// first. Whether the earlier rounds are open survives every redraw.
let earlierOpen = false;

// One round of the log or of the end story: its title, then its events in order.
export function roundSection(r) {
  return h("section", { class: "story-round" }, h("h3", {}, roundTitle(r.round)),
    h("ol", {}, ...r.events.map(eventLine).filter(Boolean).map((line) => h("li", {}, line))));
}

export function roundLog(v) {
  const rounds = roundsOf(v.history);
  if (!rounds.length) return null;
  const inView = rounds.slice(-2);
  const earlier = rounds.slice(0, -2).reverse();
  return h("div", { class: "panel news round-log", "aria-label": t("btw_round_log") },
    h("h2", {}, `📜 ${t("btw_round_log")}`),
    ...inView.reverse().map(roundSection),
    earlier.length ? h("details", { class: "earlier-rounds", open: earlierOpen, ontoggle: (e) => { earlierOpen = e.target.open; } },
      h("summary", {}, t("btw_earlier_rounds", { n: earlier.length })),
      ...earlier.map(roundSection)) : null);
}

// The step's countdown on the screen itself (the witching hour, the trial's two minutes),
// ticking every second between views: the shell redraws only its strip each second.
const tickClocks = () => document.querySelectorAll(".btw-clock").forEach(tick);

export function clock(v) {
  if (!v.deadline) return null;
  everyTick(tickClocks); // with the strip's clock: the two never show different seconds
  const el = h("span", { class: "btw-clock", "data-deadline": String(v.deadline) });
  tick(el);
  return el;
}

// Ten seconds before a deadline every phone buzzes once, alike (the same deadline is on
// every phone's view: no phone is singled out, not even in a secret step).
const WARN_AT_SECONDS = 10;
let buzzedFor = null;

function tick(el) {
  const deadline = Number(el.dataset.deadline);
  const left = Math.max(0, Math.ceil(deadline - gameNow()));
  el.textContent = `⏱ ${t("seconds_short", { n: left })}`;
  el.classList.toggle("running-out", left <= WARN_AT_SECONDS);
  if (left <= WARN_AT_SECONDS && left > 0 && buzzedFor !== deadline) {
    buzzedFor = deadline;
    if (navigator.vibrate) navigator.vibrate(200);
  }
}

// §6 with timers on: the countdown beside the action, and what letting it run out costs
// (`acting`: this phone's player still owes the move; everyone else sees the countdown).
export function timeoutWarning(v, acting, key) {
  if (!v.deadline || !(v.settings && v.settings.timers)) return null;
  return h("p", { class: `timeout-warning${acting ? " acting" : ""}` }, clock(v), acting ? ` ${t(key)}` : null);
}
