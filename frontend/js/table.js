// The table screen: /table?room=CODE#key=KEY on a TV or a laptop (or a phone
// propped up), opened from the host's lobby (the key is the host's; it rides in
// the fragment, which no request sends, and goes to the server in the `watch` frame only).
// It takes no seat: it sends `watch` and shows the room's public view in large type,
// read-only: the lobby's seats, then each step with its countdown as the game draws it for
// the table (its `tableScreen`, else the spectator screen), the game's strip, and the
// result. It narrates each step (js/narration.js, the game's `narration`); the sound can be
// muted.
import { h, clear } from "./dom.js";
import { t, loadLanguage, currentLanguage, LANGUAGES } from "./i18n.js";
import { Connection } from "./connection.js";
import { gameOf, addHostedGames } from "./games.js";
import * as strip from "./strip.js";
import { setClock, everyTick, atOneInstant } from "./clock.js";
import { narrate, isMuted, setMuted } from "./narration.js";

const params = new URLSearchParams(location.search);
const room = (params.get("room") || "").replace(/[\s-]/g, "").toUpperCase();
const key = tableKey();
const statusBar = document.getElementById("status");
const screen = document.getElementById("screen");
const announce = document.getElementById("announce");
// stopped: refused or let go (a wrong key, or a new one made): it says so and watches no
// more, not even on a new socket (which would let another screen go), until "Watch here
// again" reloads the page.
const state = { view: null, seq: null, error: null, connection: "connecting", spokenStep: null, stopped: false };
// Codes that end the watch (docs/protocol.md, Table screens).
const STOPPING = new Set(["table_key_missing", "table_key_wrong", "table_let_go"]);
let connection = null;

// What the game screens may use: nothing they send is ever sent (a table screen only watches).
const ctx = { send: () => {}, render: () => render(), refresh: () => {}, strip, draft: {}, countdown: strip.countdownItem, showError: () => {} };

// The key is read from the fragment once and then taken out of the address bar (a laptop
// on a TV shows it to the whole table, and anyone holding it could open screens that let
// this one go); the tab keeps it for a reload of the page (sessionStorage: this tab only,
// never sent), and for nothing else: a link opened without a key has none.
function tableKey() {
  const stored = `party.tableKey.${room}`;
  const fromLink = new URLSearchParams(location.hash.slice(1)).get("key");
  if (fromLink) {
    sessionStorage.setItem(stored, fromLink);
    history.replaceState(null, "", location.pathname + location.search);
    return fromLink;
  }
  const [navigation] = performance.getEntriesByType("navigation");
  return (navigation && navigation.type === "reload" && sessionStorage.getItem(stored)) || "";
}

// A TV is read from across the room at its own size: the screen is laid out for 1280×720
// and a larger landscape screen shows it scaled (1920×1080: 1.5×, so 24 px type is 36 px
// there). A phone or tablet propped up in portrait is laid out at its own size.
const LAID_OUT_FOR = { width: 1280, height: 720 };

function fitToScreen() {
  const scale = innerWidth > innerHeight
    ? Math.max(1, Math.min(innerWidth / LAID_OUT_FOR.width, innerHeight / LAID_OUT_FOR.height)) : 1;
  document.documentElement.style.zoom = scale > 1 ? String(scale) : "";
  // Viewport units are the screen's, then zoomed: css/table.css divides 100vh by this.
  document.documentElement.style.setProperty("--tv-zoom", String(scale));
}

async function main() {
  fitToScreen();
  window.addEventListener("resize", fitToScreen);
  const wanted = params.get("lang");
  await loadLanguage(wanted && LANGUAGES[wanted] ? wanted : undefined);
  document.title = t("table_title");
  // Another table link pasted into this tab changes only the fragment: start again with it.
  window.addEventListener("hashchange", () => location.reload());
  if (!room) { render(); return; }
  if (!key) { stop("table_key_missing"); return; } // a link from before keys, or typed by hand
  const config = await fetch("config.json").then((r) => r.json()).catch(() => ({}));
  // A game the server hosts that this page does not ship: its module, then its strings too.
  await addHostedGames(config.games);
  setClock(config);
  const url = config.websocket_url || `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/prod`;
  connection = new Connection(url, {
    seat: () => null,
    step: () => (state.view ? stepOf(state.view) : null),
    onMessage,
    onState: (now) => {
      state.connection = now;
      // Each new socket watches again: a watch is bound to its connection.
      if (now === "open" && !state.stopped) connection.transmit({ action: "watch", room, key });
      renderStatus();
    },
    onSendFailed: () => {},
  });
  connection.open();
  everyTick(renderStatus); // the countdown
  // A TV or laptop put to sleep: its socket may be dead on waking (connection.js, wake).
  document.addEventListener("visibilitychange", () => (document.hidden ? connection.away() : connection.wake()));
  render();
}

function onMessage(message) {
  if (message.type === "view") {
    if (state.stopped) return; // it watches no more: a late view would hide why
    state.view = message.view;
    state.seq = message.seq;
    state.error = null;
    render(); // first: the step shown is the one narrated
    speakStep(state.view);
    return;
  } else if (message.type === "error") {
    if (message.code === "already_in_room") return; // this socket watches already
    if (STOPPING.has(message.code)) { stop(message.code); return; }
    state.error = t("error_" + message.code, message.params || {}); // e.g. rate_limited
  } else return;
  render();
}

// Refused, or let go (another screen opened with the table link took this one's place, or
// the host made a new link): say so, and offer to watch again (a reload: a new socket).
function stop(code) {
  state.stopped = true;
  state.error = t("error_" + code);
  render();
}

// The step as the game keys it (the lobby, then a result kept there, count as steps too).
function stepOf(v) {
  if (v.phase === "lobby") return v.last_result ? "result" : "lobby";
  const game = gameOf(v);
  return game ? game.stepKey(v) : v.phase;
}

// One line per step change, from public facts of the step only (js/narration.js).
function speakStep(v) {
  const step = stepOf(v);
  if (state.spokenStep === null || state.spokenStep === step) { state.spokenStep = step; return; }
  state.spokenStep = step;
  const line = narrationLine(v);
  announce.textContent = line;
  narrate(line, currentLanguage());
}

// The game words its own steps (its `narration`); one that does not: a plain "next step".
function narrationLine(v) {
  if (v.phase === "lobby") return v.last_result ? t("narrate_game_over") : t("narrate_lobby");
  const game = gameOf(v);
  return (game && game.narration && game.narration(v)) || t("narrate_step");
}

function renderStatus() {
  const v = state.stopped ? null : state.view; // stopped: no stale facts
  const game = v && v.phase !== "lobby" ? gameOf(v) : null;
  // A game without a strip of its own gets a chip per seat (docs/client.md: `strip` is optional).
  const part = game && game.strip ? game.strip(v, ctx) : { facts: [], cats: game ? strip.genericCats(v) : [] };
  const muted = isMuted();
  const sound = h("button", { class: "secondary sound", id: "sound", "aria-pressed": String(!muted),
    onclick: () => { setMuted(!muted); renderStatus(); } }, muted ? `🔇 ${t("narration_off")}` : `🔊 ${t("narration_on")}`);
  clear(statusBar);
  statusBar.append(...[
    h("div", { class: "facts" }, state.stopped ? null : strip.connectionItem(state.connection), ...part.facts.filter(Boolean),
      v && v.phase !== "lobby" ? strip.countdownItem(v) : null, sound),
    part.cats.length ? h("div", { class: "cats-row" }, h("ul", { class: "cats" }, ...part.cats)) : null,
    strip.seatNewsRow(v), // a seat moved to a new phone: the room sees it here too
  ].filter(Boolean));
}

// The strip's countdown and the screen's own clock read one instant (js/clock.js).
function render() {
  atOneInstant(drawScreen);
}

function drawScreen() {
  renderStatus();
  const v = state.view;
  const shown = room.match(/.{1,4}/g)?.join(" ") ?? "";
  const phase = state.stopped ? "stopped" : v ? (v.phase === "lobby" && v.last_result ? "game_over" : v.phase) : "connecting";
  Object.assign(screen.dataset, { phase, seq: state.seq ?? "", step: v && !state.stopped ? stepOf(v) : "" });
  const parts = [];
  if (state.error) parts.push(h("p", { class: "error", role: "alert" }, state.error));
  // Stopped: the message, and (with a key to watch with) a new try; no view, which would be stale.
  if (state.stopped) parts.push(h("h1", {}, t("table_title")), key ? h("button", { class: "big", id: "watch-again",
    onclick: () => location.reload() }, t("table_watch_again")) : null);
  else if (!room) parts.push(h("h1", {}, t("table_title")), h("p", {}, t("table_no_room")));
  else if (!v) parts.push(h("h1", {}, t("table_title")), h("p", { class: "muted" }, t("reconnecting")));
  else if (v.phase === "lobby") parts.push(...lobby(v, shown));
  else parts.push(...gameParts(v));
  clear(screen);
  screen.append(...parts.filter(Boolean));
}

function lobby(v, shown) {
  const game = gameOf(v);
  const result = v.last_result && game ? gameParts(v.last_result) : [];
  const seat = (s) => `${s.name}${s.name === v.host ? ` (${t("host")})` : ""}${s.connected ? "" : ` 📵 ${t("offline")}`}`;
  const seated = t("table_seated", { n: v.seats.length });
  return [
    h("p", { class: "table-room" }, game ? `${game.icon} ${t(game.nameKey)} · ` : "",
      h("span", {}, t("lobby", { code: shown }))),
    ...result,
    // Under a result, the seats in one line: the names were just revealed, and a TV cannot
    // scroll down to a list.
    result.length ? h("p", { class: "seated-line" }, `${seated}: ${v.seats.map(seat).join(", ")}`)
      : h("div", { class: "panel" }, h("h2", {}, seated), h("ul", { class: "seats" }, ...v.seats.map((s) => h("li", {}, seat(s))))),
    h("p", { class: "muted" }, t("table_waiting")),
  ];
}

// A game may draw a step its own way for a TV (docs/client.md, `tableScreen`: the votes
// fill the screen); else the step's spectator screen, as a watching phone has it.
function gameParts(v) {
  const game = gameOf(v);
  if (!game) return [h("h2", {}, v.phase)];
  return (game.tableScreen && game.tableScreen(v, ctx)) || game.render(v, ctx);
}

main();
