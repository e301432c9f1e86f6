// The room, whatever the game: the lobby (code, QR, seats, the game's settings, Start) and
// the host's tools during a game (the game's own, then handing over host).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { GAMES } from "./games.js";
import { afterSettings } from "./lobby_settings.js";
import { qrcode } from "../vendor/qrcode.mjs"; // qrcode-generator 2.0.4 (MIT), see frontend/vendor/README.md

// Which of the room's panels (<details>) the player opened: kept across redraws, so a view
// arriving does not snap the host's tools shut.
const opened = new Set();

// onOpen: called when the player opens the panel (not when a redraw keeps it open).
function panel(id, summary, ...content) {
  return panelOpening(id, null, summary, ...content);
}

function panelOpening(id, onOpen, summary, ...content) {
  return h("details", { class: "panel", id, open: opened.has(id),
    ontoggle: (e) => {
      if (!e.target.open) { opened.delete(id); return; }
      if (!opened.has(id) && onOpen) onOpen();
      opened.add(id);
    } },
  h("summary", {}, summary), ...content);
}

// ctx: the shell's services (send, leave, showLastResult, …); game: the room's game module.
export function lobbyScreen(v, game, ctx) {
  const host = v.host === v.you;
  const link = `${location.origin}${location.pathname}?room=${v.room}`;
  const shown = v.room.match(/.{1,4}/g).join(" "); // "ABCD EFGH": easier to read out and type
  const seats = v.seats.map((seat, i) => h("li", {},
    h("span", { class: "seat-no", "aria-hidden": "true" }, i + 1),
    h("span", { class: "name" }, seat.name,
      seat.name === v.host ? ` (${t("host")})` : "", seat.name === v.you ? ` (${t("you")})` : "",
      seat.connected ? "" : ` 📵 ${t("offline")}`),
    host ? h("button", { class: "secondary", "aria-label": t("move_up", { name: seat.name }), disabled: i === 0,
      onclick: () => ctx.send("reorder", { order: moved(v.seats.map((s) => s.name), i, -1) }) }, "↑") : null,
    host ? h("button", { class: "secondary", "aria-label": t("move_down", { name: seat.name }), disabled: i === v.seats.length - 1,
      onclick: () => ctx.send("reorder", { order: moved(v.seats.map((s) => s.name), i, 1) }) }, "↓") : null,
    host && seat.name !== v.you ? h("button", { class: "secondary", "aria-label": t("kick", { name: seat.name }),
      onclick: () => ctx.send("kick", { target: seat.name }) }, "✕") : null,
    host && !seat.connected && seat.name !== v.you ? seatLinkButton(seat.name, ctx) : null));
  // Compact, so Start is in reach (it was once ~1,900 px down with 6 cats): the code
  // with a small QR, the seats as a list, and the host's Start stuck to the bottom.
  return h("section", { class: "lobby" },
    h("h1", {}, t("lobby", { code: shown })),
    h("p", { class: "game-name" }, `${game.icon} ${t(game.nameKey)} · ${rangeText(v.player_range)}`),
    host ? gameChoice(v, game, ctx) : null,
    lastResultLine(v, game, ctx),
    h("div", { class: "panel share" },
      h("div", {}, h("p", {}, t("share")),
        h("p", { class: "code", "aria-label": v.room.split("").join(" ") }, shown),
        h("p", { class: "link" }, h("a", { href: link }, link))),
      joinQr(link)),
    host ? tableScreen(v, ctx) : null,
    h("div", { class: "panel" }, h("h2", {}, seatsHeading(v, game)), h("ul", { class: "seats" }, ...seats)),
    host ? game.lobbySettings(v, ctx) : game.settingsSummary(v, ctx),
    roomOptions(v, ctx, host),
    host ? handOver(v, ctx) : null,
    h("div", { class: "row" }, h("button", { class: "secondary", onclick: () => ctx.leave() }, t("leave"))),
    h("div", { class: "start-bar" },
      // Why the game cannot start yet: a refusal's code, worded by the phone (never English).
      h("p", { class: v.start_problem ? "problem" : "muted", role: "status" },
        v.start_problem ? t("error_" + v.start_problem.code, v.start_problem.params) : t("ready_to_start")),
      host ? h("button", { class: "big", id: "start", disabled: Boolean(v.start_problem), onclick: () => afterSettings(() => ctx.send("start")) },
        t(v.last_result ? "rematch" : "start"))
        : h("p", { class: "muted" }, t("waiting_for_host"))),
  );
}

// The game module's words for its seats ("Cats at the table (5/12)"), the most from the
// lobby view's `player_range` (the server's: no copy of a game's tables here).
function seatsHeading(v, game) {
  return t(game.seatsKey, { n: v.seats.length, max: v.player_range.max });
}

// "5–10 players": the seats a game needs (`player_range`, {min, max}, of the lobby view).
function rangeText(range) {
  return t("players_range", range);
}

// The host switches the room's game (docs/protocol.md: `settings` with `game`): the new
// game's defaults, and the last game's result is forgotten. The lobby view gives the seats
// of the room's game only: the line above says them, the game's button does not.
function gameChoice(v, game, ctx) {
  return h("div", { class: "row game-choice", role: "group", "aria-label": t("game") },
    ...GAMES.map((g) => h("button", { class: g.key === game.key ? "" : "secondary", "aria-pressed": String(g.key === game.key),
      onclick: () => { if (g.key !== game.key) ctx.send("settings", { game: g.key, settings: {} }); } },
    `${g.icon} ${t(g.nameKey)}`)));
}

// "Last game: the witches won", with a button to see its result screen again: the game
// words its own winner (`resultText`).
function lastResultLine(v, game, ctx) {
  const last = v.last_result;
  const text = last && game.resultText ? game.resultText(last) : null;
  if (!text) return null;
  return h("div", { class: "panel last-result" },
    h("p", {}, t("last_game", { result: text })),
    h("button", { class: "secondary", onclick: () => ctx.showLastResult() }, t("see_result")));
}

// The room's own options (any game): marking Away a phone offline for 60 s (RULES §9).
function roomOptions(v, ctx, host) {
  const on = v.auto_away ?? true;
  if (!host) return on ? h("p", { class: "muted" }, `💤 ${t("auto_away")}`) : null;
  const box = h("input", { type: "checkbox", id: "auto-away", checked: on,
    onchange: () => ctx.send("room_options", { auto_away: box.checked }) });
  return h("div", { class: "panel" }, h("label", { for: "auto-away", class: "check" }, box, " ", t("auto_away")));
}

// The table screen's link and QR, folded away (the lobby stays compact), on a TV
// or a laptop; it takes no seat (table.html). The host's alone, with the room's
// table key in the fragment (#key=…: a browser sends no fragment to any server, so no
// access log keeps it). "New table link" makes another key: open screens are let go.
function tableScreen(v, ctx) {
  const renew = h("button", { class: "secondary", id: "new-table-key", onclick: () => ctx.send("new_table_key") },
    t("table_new_link"));
  if (!v.table_key) return panel("table-screen", `📺 ${t("table_title")}`, renew); // a room from before keys
  const link = new URL(`table?room=${v.room}#key=${encodeURIComponent(v.table_key)}`, location.href).href;
  return panel("table-screen", `📺 ${t("table_title")}`,
    h("p", {}, t("table_link")),
    h("p", { class: "muted" }, t("table_link_host_only")),
    h("p", { class: "link" }, h("a", { href: link, target: "_blank", rel: "noopener" }, link)),
    joinQr(link, t("table_qr_label")),
    h("div", { class: "row" }, renew));
}

function joinQr(link, label = t("qr_label")) {
  const code = qrcode(0, "M");
  code.addData(link);
  code.make();
  const box = h("div", { class: "qr", role: "img", "aria-label": label });
  box.innerHTML = code.createSvgTag({ cellSize: 5, margin: 4, scalable: true }); // our own link only
  return box;
}

// The host's one-time link for the seat of a phone gone 30 s or more (the server refuses it
// sooner, and tells every screen when it makes one): a dead battery, a substitute.
function seatLinkButton(name, ctx) {
  return h("button", { class: "secondary seat-link", onclick: () => ctx.send("seat_link", { seat: name }) },
    t("seat_link_for", { name }));
}

// A seat's one-time link and its QR code, shown to the phone that asked (its own seat's, or
// the host's for a gone phone) until closed. The key rides in the fragment (#seat=…): no
// browser sends a fragment to a server, so no access log keeps it, and the new phone takes
// it out of its address bar at once (app.js takenSeatLink).
export function seatLinkPanel(answer, you, close) {
  const link = new URL(`${location.pathname}#seat=${answer.room}.${answer.key}`, location.href).href;
  const own = answer.seat === you;
  return h("section", { class: "seat-link-panel" },
    h("h1", {}, own ? t("move_seat_title") : t("seat_link_title", { name: answer.seat })),
    h("p", {}, own ? t("move_seat_hint") : t("seat_link_hint", { name: answer.seat })),
    joinQr(link, t("seat_link_qr")),
    h("p", { class: "link" }, h("a", { href: link, id: "seat-link" }, link)),
    h("div", { class: "row" }, h("button", { class: "big", id: "close-seat-link", onclick: close }, t("close"))));
}

function moved(names, index, by) {
  const order = [...names];
  const [name] = order.splice(index, 1);
  order.splice(index + by, 0, name);
  return order;
}

// In a game, for the host: who the step waits for, each with its offline mark and a one-tap
// Away (RULES §9), every cat's connection, then the game's tools (game.hostTools) and
// handing over host. Stays open across views once opened.
export function hostTools(v, game, ctx) {
  const connected = v.connected || {};
  const away = new Set((v.players || []).filter((p) => p.away).map((p) => p.name));
  const offline = Object.keys(connected).filter((n) => !connected[n]);
  // Who holds the table up: those the step waits for, and any phone offline (a step that
  // does not list whom it waits for still waits for them).
  const waiting = [...new Set([...(v.waiting || []), ...offline])].filter((n) => !away.has(n) && n !== v.you);
  const offlineMark = (name) => (connected[name] === false ? h("span", { class: "offline-mark" }, ` 📵 ${t("offline")}`) : null);
  const waitList = waiting.length ? h("ul", { class: "waiting-list" }, ...waiting.map((name) => h("li", {},
    h("span", { class: "name" }, name, offlineMark(name)),
    h("button", { class: "secondary", "aria-label": t("mark_name_away", { name }),
      onclick: () => ctx.send("mark_away", { target: name }) }, `💤 ${t("away")}`)))) : null;
  // A move that leaves the step is told its mover alone (docs/protocol.md): opening the
  // panel asks for the view, so its list of whom the step waits for is the current one.
  const gone = offline.filter((n) => n !== v.you);
  return panelOpening("host-tools", ctx.refresh, `${t("host_tools")}${offline.length ? ` · 📵 ${offline.length}` : ""}`,
    waitList ? h("p", {}, t("waiting_mark_away")) : null, waitList,
    h("p", { class: "muted" }, `📵 ${t("offline")}: ${offline.length ? offline.join(", ") : "—"}`),
    gone.length ? h("p", {}, t("seat_link_gone_hint")) : null,
    gone.length ? h("div", { class: "row" }, ...gone.map((name) => seatLinkButton(name, ctx))) : null,
    away.size ? h("p", { class: "muted" }, `💤 ${t("away")}: ${[...away].join(", ")}`) : null,
    ...(game.hostTools ? game.hostTools(v, ctx) : []),
    handOver(v, ctx));
}

// §10: host powers go to a connected cat (the server refuses anyone offline). In the
// lobby the seats say who is connected; in a game the room's `connected` map does.
function handOver(v, ctx) {
  const connected = v.seats ? Object.fromEntries(v.seats.map((s) => [s.name, s.connected])) : v.connected || {};
  const others = Object.keys(connected).filter((n) => n !== v.you && connected[n]);
  if (!others.length) return null;
  return panel("hand-over", t("hand_over"),
    h("p", {}, t("hand_over_hint")),
    h("div", { class: "row" }, ...others.map((n) => h("button", { class: "secondary", onclick: () => ctx.send("hand_over", { target: n }) }, n))));
}
