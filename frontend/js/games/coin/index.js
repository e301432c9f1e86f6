// Coin in the client: the smallest game, written against the interface every game module
// exports (docs/client.md, "Adding a game to the client"). The engine is
// tests/support/coin_game.py: not shipped, so this folder proves that a game plugs into the
// shell with nothing outside its folder naming it. Each round every player secretly calls
// heads or tails; the coin is flipped; every right call scores a point.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { sendSettings, settingsShown } from "../../lobby_settings.js";

export const key = "coin"; // the server's game key
export const nameKey = "coin_game";
export const icon = "🪙";
export const taglineKey = "coin_tagline";
export const seatsKey = "players_seated";

const SIDES = ["heads", "tails"];
const SIDE_ICON = { heads: "🙂", tails: "🦅" };
const sideText = (side) => `${SIDE_ICON[side]} ${t("coin_" + side)}`;

// The create form sends no settings: the server's defaults are the game's.
export function defaultSettings() {
  return {};
}

export function createFields() {
  return [];
}

// The host's one setting, the number of rounds, within the bounds the lobby view gives.
export function lobbySettings(v, ctx) {
  const settings = settingsShown(v);
  const bounds = (v.setting_bounds || {}).rounds || { minimum: 1, maximum: 1 };
  const rounds = settings.rounds ?? bounds.default ?? 1;
  const set = (n) => sendSettings(ctx, v.game, { ...settings, rounds: n });
  return h("div", { class: "panel" },
    h("p", {}, t("coin_rounds_setting", { n: rounds })),
    h("div", { class: "row" },
      h("button", { class: "secondary", disabled: rounds <= bounds.minimum, onclick: () => set(rounds - 1) }, "−"),
      h("button", { class: "secondary", disabled: rounds >= bounds.maximum, onclick: () => set(rounds + 1) }, "+")));
}

export function settingsSummary(v) {
  return h("p", { class: "muted" }, t("coin_rounds_setting", { n: v.settings.rounds }));
}

export function stepKey(v) {
  return `${v.phase}/${v.round}`;
}

export function isOver(v) {
  return v.phase === "game_over";
}

export function resultText(last) {
  return last && last.outcome ? t("coin_winners", { names: last.outcome.winners.join(", ") }) : null;
}

// The replay viewer: a coin game has no roles to reveal.
export function revealedRoles() {
  return [];
}

// The replay viewer's "What happened": the coin of each round, once it has landed.
export function newsSince(previous, v) {
  const lines = [];
  if (v.coin && !(previous && previous.coin && previous.round === v.round)) {
    lines.push(t("coin_landed", { side: sideText(v.coin), round: v.round }));
  }
  if (v.outcome && !(previous && previous.outcome)) lines.push(resultText(v));
  return lines;
}

const waitingLine = (v) => (v.waiting_for && v.waiting_for.length
  ? h("p", { class: "muted waiting" }, `⏳ ${t("coin_waiting", { names: v.waiting_for.join(", ") })}`) : null);

const roundLine = (v) => h("p", { class: "muted" }, t("coin_round", { round: v.round, rounds: v.rounds }));

function scores(v) {
  return h("ul", { class: "coin-scores" }, ...v.players.map((p) => h("li", {},
    `${p.name}: ${v.calls && v.calls[p.name] ? sideText(v.calls[p.name]) + " · " : ""}${t("coin_points", { n: p.score })}`)));
}

// Every phone shows the same two buttons in the call; a seat's own call is pressed.
function call(v, ctx) {
  return [h("h1", {}, `🪙 ${t("coin_call_heading")}`), roundLine(v),
    h("div", { class: "grid coin-sides" }, ...SIDES.map((side) => h("button", {
      "aria-pressed": String(v.my_call === side), "data-side": side,
      onclick: v.you ? () => ctx.send("call", { side }) : null,
    }, sideText(side)))),
    ctx.countdown(v), waitingLine(v)];
}

function result(v, ctx) {
  const waitsForMe = (v.waiting_for || []).includes(v.you);
  return [h("h1", {}, t("coin_landed", { side: sideText(v.coin), round: v.round })), roundLine(v), scores(v),
    waitsForMe ? h("button", { onclick: () => ctx.send("ok", {}) }, t("coin_ok")) : null,
    waitingLine(v)];
}

// The end, also shown from the lobby until its player taps "To the lobby" (ctx.toLobby).
function over(v, ctx) {
  return [h("h1", {}, `🏁 ${resultText(v)}`), scores(v),
    ctx.toLobby ? h("button", { class: "big", id: "to-lobby", onclick: () => ctx.toLobby() }, t("to_lobby")) : null];
}

export function render(v, ctx) {
  if (v.phase === "call") return call(v, ctx);
  if (v.phase === "result") return result(v, ctx);
  return over(v, ctx);
}
