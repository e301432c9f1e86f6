// The room, whatever the game: the lobby (code, QR, seats, the game's settings, Start) and
// the host's tools during a game (the game's own, then handing over host).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { qrcode } from "../vendor/qrcode.mjs"; // qrcode-generator 2.0.4 (MIT), see frontend/vendor/README.md

// ctx: the shell's services (send, leave, …); game: the room's game module (js/games.js).
export function lobbyScreen(v, game, ctx) {
  const host = v.host === v.you;
  const link = `${location.origin}${location.pathname}?room=${v.room}`;
  const shown = v.room.match(/.{1,4}/g).join(" "); // "ABCD EFGH": easier to read out and type
  const seats = v.seats.map((seat, i) => h("li", {},
    h("span", { class: "name" }, seat.name,
      seat.name === v.host ? ` (${t("host")})` : "", seat.name === v.you ? ` (${t("you")})` : "",
      seat.connected ? "" : ` — ${t("offline")}`),
    host ? h("button", { class: "secondary", "aria-label": t("move_up", { name: seat.name }), disabled: i === 0,
      onclick: () => ctx.send("reorder", { order: moved(v.seats.map((s) => s.name), i, -1) }) }, "↑") : null,
    host ? h("button", { class: "secondary", "aria-label": t("move_down", { name: seat.name }), disabled: i === v.seats.length - 1,
      onclick: () => ctx.send("reorder", { order: moved(v.seats.map((s) => s.name), i, 1) }) }, "↓") : null,
    host && seat.name !== v.you ? h("button", { class: "secondary", "aria-label": t("kick", { name: seat.name }),
      onclick: () => ctx.send("kick", { target: seat.name }) }, "✕") : null));
  return h("section", {},
    h("h1", {}, t("lobby", { code: shown })),
    h("p", { class: "game-name" }, `${game.icon} ${t(game.nameKey)}`),
    h("div", { class: "panel" },
      h("p", {}, t("share")),
      h("p", { class: "code", "aria-label": v.room.split("").join(" ") }, shown),
      joinQr(link),
      h("p", {}, h("a", { href: link }, link))),
    h("div", { class: "panel" }, h("h2", {}, t("seats", { n: v.seats.length })), h("ul", { class: "seats" }, ...seats)),
    host ? game.lobbySettings(v, ctx) : game.settingsSummary(v, ctx),
    h("p", { class: v.start_problem ? "problem" : "muted", role: "status" }, v.start_problem || t("ready_to_start")),
    host ? handOver(v, ctx) : null,
    host ? h("button", { class: "big", disabled: Boolean(v.start_problem), onclick: () => ctx.send("start") }, t("start"))
      : h("p", { class: "muted" }, t("waiting_for_host")),
    h("div", { class: "row" }, h("button", { class: "secondary", onclick: () => ctx.leave() }, t("leave"))),
  );
}

function joinQr(link) {
  const code = qrcode(0, "M");
  code.addData(link);
  code.make();
  const box = h("div", { class: "qr", role: "img", "aria-label": t("qr_label") });
  box.innerHTML = code.createSvgTag({ cellSize: 5, margin: 4, scalable: true }); // our own link only
  return box;
}

function moved(names, index, by) {
  const order = [...names];
  const [name] = order.splice(index, 1);
  order.splice(index + by, 0, name);
  return order;
}

// In a game, for the host: the game's tools (game.hostTools), then handing over host.
export function hostTools(v, game, ctx) {
  return h("details", { class: "panel" }, h("summary", {}, t("host_tools")),
    ...(game.hostTools ? game.hostTools(v, ctx) : []),
    handOver(v, ctx));
}

// §10: host powers go to a connected cat (the server refuses anyone offline). In the
// lobby the seats say who is connected; in a game the room's `connected` map does.
function handOver(v, ctx) {
  const connected = v.seats ? Object.fromEntries(v.seats.map((s) => [s.name, s.connected])) : v.connected || {};
  const others = Object.keys(connected).filter((n) => n !== v.you && connected[n]);
  if (!others.length) return null;
  return h("details", { class: "panel" }, h("summary", {}, t("hand_over")),
    h("p", {}, t("hand_over_hint")),
    h("div", { class: "row" }, ...others.map((n) => h("button", { class: "secondary", onclick: () => ctx.send("hand_over", { target: n }) }, n))));
}
