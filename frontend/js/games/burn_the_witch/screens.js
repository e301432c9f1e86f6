// One function per step of Burn the Witch (RULES-burn-the-witch.md §2–§5): what the step
// asks of this player (at the top, in reach), the round's news, then the table. Nothing secret is computed here:
// the view holds only what this player may know.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { FACTION_ICON } from "./icons.js";
import { villagerCard, villagerName, traitLabel, identityLabel, livingVillagers, myHouse, can, tableBlock,
  roundLog, roundsOf, roundSection, trialUnderWay, eventLine, pointsText, clock, timeoutWarning, winnerTitle, kindsOf, houseVillagers, identityTurns } from "./common.js";

const waiting = (name, key) => h("p", { class: "muted waiting" }, `⏳ ${t(key, { name })}`);

// §2: the same scene, for the same time, on every phone. Every player gets the same pop-up
// inside it, two buttons, Left and Right (no tap nor layout tells the coven holder): the
// coven holder's bewitches; everyone else's is a harmless guess kept on this phone. What each
// player learns is in the hold panel.
function witchingHour(v, me, ctx) {
  const coven = can(v, "bewitch");
  const holder = Boolean(me && me.dealt && me.dealt.witches >= 2); // asked until the bewitching is done
  const asked = coven || (me && !holder && !ctx.draft.trust);
  const pick = (direction) => {
    if (coven) ctx.send("bewitch", { direction });
    else { ctx.draft.trust = direction; ctx.render(); }
  };
  return [h("h1", {}, `🌙 ${t("btw_phase_witching_hour")}`),
    h("div", { class: "panel scene btw-scene" },
      h("p", { class: "moon", "aria-hidden": "true" }, "🌙🧹"),
      h("p", {}, t("btw_witching_scene")),
      me ? h("p", { class: "muted" }, t("btw_witching_hold")) : null, // a seat's words: not on the TV
      asked ? h("div", { class: "witch-popup" },
        h("p", {}, t(coven ? "btw_bewitch_prompt" : "btw_trust_prompt")),
        h("div", { class: "grid mini" },
          h("button", { onclick: () => pick("left") }, `⬅️ ${t("btw_left")}`),
          h("button", { onclick: () => pick("right") }, `${t("btw_right")} ➡️`)))
        : h("div", { class: "witch-popup done", "aria-hidden": "true" })), // answered: the same box, empty
    h("p", { class: "trial-clock" }, clock(v))];
}

// §3.1: only traits a living villager shows; each with how many living villagers show it
// and in whose houses (the accuser's own among them), so nobody has to scroll the table.
function accuse(v, me, ctx) {
  const living = livingVillagers(v);
  const shown = [...new Set(living.flatMap((villager) => villager.traits))].sort();
  const shownBy = (trait) => {
    const showing = living.filter((villager) => villager.traits.includes(trait));
    return t("btw_trait_shown", { n: showing.length, houses: [...new Set(showing.map((villager) => villager.owner))].join(", ") });
  };
  return [h("h1", {}, `🗣️ ${t("btw_round_accuse", { round: v.round })}`),
    can(v, "accuse") ? h("p", {}, t("btw_accuse_prompt")) : waiting(v.accuser, "btw_waiting_accuser"),
    timeoutWarning(v, can(v, "accuse"), "btw_timeout_accuse"),
    can(v, "accuse") ? h("div", { class: "grid traits-grid" }, ...shown.map((trait) =>
      h("button", { class: "card", onclick: () => ctx.send("accuse", { trait }) },
        h("span", { class: "trait-name" }, traitLabel(trait)),
        h("span", { class: "trait-count" }, shownBy(trait))))) : null,
    roundLog(v),
    tableBlock(v)];
}

// §3.2: one burn or save per living villager of your house, split allowed, sent as counts,
// changeable until the last ballot is in.
function vote(v, me, ctx) {
  const house = myHouse(v);
  const living = house ? house.villagers : [];
  const mine = me && me.my_vote;
  if (!ctx.draft.ballot) {
    ctx.draft.ballot = living.map((_, i) => (mine ? (i < mine.burn ? "burn" : "save") : null));
  }
  const ballot = ctx.draft.ballot;
  const burn = ballot.filter((b) => b === "burn").length;
  const save = ballot.filter((b) => b === "save").length;
  const choose = (i, choice) => { ballot[i] = choice; ctx.render(); };
  const rows = living.map((villager, i) => h("div", { class: "ballot-row" },
    h("span", { class: "ballot-token" }, `🗳️ ${t("btw_ballot_n", { n: i + 1, of: living.length })}`),
    h("div", { class: "row", role: "group", "aria-label": t("btw_ballot_n", { n: i + 1, of: living.length }) },
      h("button", { class: "secondary burn", "aria-pressed": String(ballot[i] === "burn"), onclick: () => choose(i, "burn") }, `🔥 ${t("btw_burn")}`),
      h("button", { class: "secondary save", "aria-pressed": String(ballot[i] === "save"), onclick: () => choose(i, "save") }, `💧 ${t("btw_save")}`))));
  const complete = ballot.length > 0 && ballot.every(Boolean);
  const notVoted = (v.players || []).filter((p) => p.has_villagers && !(v.voted || []).includes(p.name)).map((p) => p.name);
  return [h("h1", {}, `🗳️ ${t("btw_vote_title", { trait: traitLabel(v.accused_trait) })}`),
    h("p", {}, t("btw_vote_ballots", { trait: traitLabel(v.accused_trait) })),
    h("ul", { class: "vote-meaning" },
      h("li", {}, `🔥 ${t("btw_vote_burn_means", { trait: traitLabel(v.accused_trait), executioner: v.executioner })}`),
      h("li", {}, `💧 ${t("btw_vote_save_means", { trait: traitLabel(v.accused_trait), executioner: v.executioner })}`)),
    timeoutWarning(v, can(v, "vote") && !mine, "btw_timeout_vote"),
    // The ballots first, in reach; then the villagers they belong to (whose traits say what
    // a burn might cost this house).
    can(v, "vote") ? h("div", { class: "ballot" }, ...rows,
      h("button", { class: "big", id: "btw-cast", disabled: !complete, onclick: () => ctx.send("vote", { burn, save }) },
        t(mine ? "btw_change_vote" : "btw_cast_vote", { burn, save })),
      mine ? h("p", { class: "muted", role: "status" }, `✅ ${t("btw_your_vote", { burn: mine.burn, save: mine.save })}`) : null)
      : me ? h("p", { class: "muted" }, t("btw_no_vote")) : null,
    can(v, "vote") && house ? h("div", { class: "my-villagers" }, h("p", { class: "muted" }, t("btw_your_villagers")),
      ...living.map((villager) => villagerCard(villager))) : null,
    h("p", { class: "muted" }, `${t("btw_voted")}: ${(v.voted || []).join(", ") || "—"}`),
    notVoted.length ? h("p", { class: "muted" }, `⏳ ${t("btw_not_voted")}: ${notVoted.join(", ")}`) : null,
    roundLog(v),
    tableBlock(v)];
}

// §3.3: complying villagers highlighted, the others disabled; any villager when none complies.
function execute(v, me, ctx) {
  const mine = can(v, "execute");
  const complying = new Set(v.complying || []);
  const anyone = complying.size === 0;
  const lastVote = [...(v.history || [])].reverse().find((event) => event.kind === "vote");
  return [h("h1", {}, `🪓 ${t("btw_phase_execute")} · ${traitLabel(v.accused_trait)}`),
    lastVote ? h("p", { class: "panel vote-result" }, eventLine(lastVote)) : null, // the counts, then what complies
    mine ? h("p", {}, t(anyone ? "btw_execute_anyone" : "btw_execute_prompt")) : waiting(v.executioner, "btw_waiting_executioner"),
    timeoutWarning(v, mine, "btw_timeout_execute"),
    // The complying villagers first (in reach), then the others, each house in seat order.
    h("div", { class: "villagers-grid" }, ...livingVillagers(v).sort((a, b) => complying.has(b.name) - complying.has(a.name)).map((villager) => {
      const ok = anyone || complying.has(villager.name);
      return villagerCard(villager, { owner: villager.owner, highlight: ok && !anyone, disabled: !mine || !ok,
        onclick: () => ctx.send("execute", { villager: villager.name }) });
    })),
    roundLog(v),
    tableBlock(v)];
}

// §4: two minutes, point at a player (not yourself), lock it; all points revealed together.
function trial(v, me, ctx) {
  const trialState = v.trial || { targets: [], pointers: [], pointed: [], locked: [] };
  const pointing = can(v, "point");
  const myPoint = me && me.my_point;
  const locked = me && trialState.locked.includes(me.name);
  const underWay = trialUnderWay(v);
  return [h("h1", {}, `🔥 ${t("btw_trial_title_n", { n: underWay.number })}`),
    underWay.owner ? h("p", { class: "trial-cause" }, t("btw_trial_cause", { owner: underWay.owner })) : null,
    h("p", {}, t("btw_trial_explain")),
    h("p", { class: "trial-clock" }, clock(v)),
    trialState.points ? h("p", { class: "panel" }, `👉 ${pointsText(trialState.points)}`) : null,
    pointing || (me && trialState.pointers.includes(me.name)) ? h("div", { class: "grid trial-targets" }, ...trialState.targets
      .filter((name) => name !== me.name).map((name) => h("button", { class: "card", "aria-pressed": String(myPoint === name),
        disabled: locked || !pointing, onclick: () => ctx.send("point", { target: name, locked: false }) }, `👉 ${name}`))) : me ? h("p", { class: "muted" }, t("btw_cannot_point")) : null,
    pointing && myPoint && !locked ? h("button", { class: "big", id: "btw-lock", onclick: () => ctx.send("point", { target: myPoint, locked: true }) },
      `🔒 ${t("btw_lock_point", { name: myPoint })}`) : null,
    locked ? h("p", { class: "muted" }, `🔒 ${t("btw_point_locked", { name: myPoint })}`) : null,
    h("p", { class: "muted" }, `${t("btw_pointed")}: ${trialState.pointed.join(", ") || "—"} · 🔒 ${trialState.locked.join(", ") || "—"}`),
    roundLog(v),
    tableBlock(v)];
}

// A villager to lose (§4 trial, §5 hex, §6 penalty): the chooser picks among the payer's.
function chooseVillager(v, me, ctx) {
  const pending = v.pending || { choices: [] };
  const payerHouse = v.houses.find((house) => house.owner === pending.payer);
  const villagers = (payerHouse ? payerHouse.villagers : []).filter((villager) => pending.choices.includes(villager.name));
  const mine = can(v, "choose_villager");
  return [h("h1", {}, `${pending.kind === "hex" ? "☠️" : "🔥"} ${t("btw_choose_title_" + pending.kind)}`),
    h("p", {}, t("btw_choose_explain_" + pending.kind, { chooser: pending.chooser, payer: pending.payer })),
    mine ? h("p", {}, t("btw_choose_prompt", { payer: pending.payer })) : waiting(pending.chooser, "btw_waiting_chooser"),
    h("div", { class: "villagers-grid" }, ...villagers.map((villager) => villagerCard(villager, { owner: pending.payer,
      disabled: !mine, onclick: () => ctx.send("choose_villager", { villager: villager.name }) }))),
    roundLog(v),
    tableBlock(v)];
}

// §5: the hexed owner chosen in a trial lost an innocent: they may lay the hex on a pointer.
function retribution(v, me, ctx) {
  const pending = v.pending || { choices: [] };
  const mine = can(v, "retribute");
  return [h("h1", {}, `⚖️ ${t("btw_retribution_title")}`),
    h("p", {}, t("btw_retribution_explain", { chooser: pending.chooser })),
    mine ? h("div", { class: "grid" },
      ...pending.choices.map((name) => h("button", { class: "card", onclick: () => ctx.send("retribute", { target: name }) }, `☠️ ${name}`)),
      h("button", { class: "card secondary", onclick: () => ctx.send("retribute", { target: null }) }, `🕊️ ${t("btw_decline")}`))
      : waiting(pending.chooser, "btw_waiting_chooser"),
    roundLog(v),
    tableBlock(v)];
}

// Every house at the end, its villagers' identities turning over house by house in seat
// order (the final reveal: identityTurns).
function revealedHouseCards(v, identities) {
  const turn = identityTurns(v);
  return v.houses.map((house) => h("section", { class: "panel house" }, h("h3", {}, `🏠 ${house.owner}`),
    ...houseVillagers(house).map((villager) => {
      const style = turn ? turn() : null;
      return h("div", { class: `villager revealed${villager.burned ? " burned" : ""}${style ? " flip" : ""}`, style },
        h("span", { class: "villager-name" }, `${villager.burned ? "🔥 " : ""}${villagerName(villager.name)}`),
        h("span", { class: "identity" }, identityLabel(villager.identity || identities[villager.name])));
    })));
}

// The end (§1, §7): the winners and how, every identity, the factions, the story by round.
function over(v, me, ctx) {
  const result = v.outcome;
  if (!result) return [h("h1", {}, t("btw_phase_over"))];
  const factions = Object.entries(result.factions || {});
  const kind = kindsOf(result);
  const faction = (name) => factions.filter(([, f]) => f === name).map(([player]) => player + kind(player));
  const identities = result.identities || {};
  const rounds = roundsOf(v.history);
  const myFaction = v.you ? (result.factions || {})[v.you] : null; // none on the table screen
  const won = myFaction && result.winner === `${myFaction}s`;
  const burnedInnocents = v.innocents_burned ?? 0;
  return [h("h1", {}, winnerTitle(result)),
    myFaction ? h("p", { class: `personal-result ${won ? "won" : "lost"}` }, t(won ? "btw_you_won" : "btw_you_lost")) : null,
    h("p", {}, t("btw_reason_" + result.reason, { round: result.round })),
    h("p", { class: "final-tally" }, `🔥 ${t("btw_innocents_burned", { n: burnedInnocents, of: v.wrongly_condemned })} · 🧙‍♀️ ${t("btw_witches_left", { n: v.witches_left })}`),
    h("div", { class: "panel" },
      h("h2", {}, `${FACTION_ICON.zealot} ${t("btw_zealots")}`), h("p", {}, faction("zealot").join(", ") || "—"),
      h("h2", {}, `${FACTION_ICON.sympathizer} ${t("btw_sympathizers")}`), h("p", {}, faction("sympathizer").join(", ") || "—")),
    h("h2", {}, `🏘️ ${t("btw_houses_revealed")}`),
    ...revealedHouseCards(v, identities),
    h("h2", {}, `📜 ${t("btw_story")}`),
    ...rounds.map(roundSection),
    ctx.toLobby ? h("button", { class: "big", id: "to-lobby", onclick: () => ctx.toLobby() }, t("to_lobby")) : null];
}

export const SCREENS = {
  witching_hour: witchingHour, accuse, vote, execute, trial, choose_villager: chooseVillager, retribution,
  over, game_over: over,
};
