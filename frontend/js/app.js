// The phone client's shell: the connection, the home screen, the lobby and host tools,
// the table strip, language and rules, errors and reconnecting; each game's screens come
// from its module (js/games.js, docs/client.md). No build step: plain ES modules.
// Protocol: docs/protocol.md.
import { KEYS } from "./storage.js"; // first: moves values kept under older keys
import { h, clear } from "./dom.js";
import { loadLanguage, chooseLanguage, t, LANGUAGES, currentLanguage } from "./i18n.js";
import { Connection } from "./connection.js";
import { GAMES, DEFAULT_GAME, gameOf, gameByKey } from "./games.js";
import { lobbyScreen, hostTools } from "./lobby.js";

// Error codes of functions/room_service/domain/names.py, each a key of frontend/i18n/*.json.
const NAME_REFUSALS = ["name_blank", "name_too_long", "name_characters", "name_taken"];
// Error codes of a join refused (functions/room_service/domain/lobby.py: CannotJoin, KeptOut).
const JOIN_REFUSALS = ["cannot_join", "kept_out"];
// Refusals the phone words in the player's language (the rest arrive in English).
const LOCALIZED_REFUSALS = [...NAME_REFUSALS, ...JOIN_REFUSALS, "too_many_moves", "rate_limited", "too_many_rooms", "too_many_joins"];

const app = {
  view: null,      // the newest view (lobby or game)
  seat: readSeat(),
  error: null,
  draft: {},       // choices being made on this screen (not sent yet); a new step empties it
  lastPhaseKey: null,
  wasMyTurn: false,
};

function readSeat() {
  try { return JSON.parse(localStorage.getItem(KEYS.seat) || "null"); } catch { return null; }
}

const statusBar = document.getElementById("status");
const screen = document.getElementById("screen");
const announcer = document.getElementById("announce");
const footer = document.getElementById("footer");

let connection;

// What a game module (and the lobby) may use of the shell.
const ctx = {
  send,
  render: () => render(),
  renderStatus: () => renderStatus(),
  countdown,
  leave: () => { send("leave"); forgetSeat(); render(); },
  get draft() { return app.draft; },
};

async function main() {
  await loadLanguage();
  const config = await fetch("config.json").then((r) => r.json()).catch(() => ({}));
  const url = config.websocket_url || `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/prod`;
  connection = new Connection(url, {
    seat: () => app.seat,
    step: () => stepKey(app.view),
    onMessage: onMessage,
    onState: () => renderStatus(), // the screen itself changes only with a message
    onSeatRefused: () => { forgetSeat(); app.error = t("seat_lost"); render(); },
    // A move the server did not take, twice (throttled, or its Lambda failed): say so.
    onSendFailed: () => { app.error = t("not_sent"); announce(app.error); render(); },
  });
  connection.open();
  setInterval(renderStatus, 1000);
  // An error sticks just under the status bar (css: main > .error), whatever its height.
  new ResizeObserver(() => document.body.style.setProperty("--status-height", `${statusBar.offsetHeight}px`))
    .observe(statusBar);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) { connection.wake(); keepAwake(); } });
  window.addEventListener("online", () => connection.wake());
  render();
}

function onMessage(message) {
  if (message.type === "view") {
    app.view = message.view;
    app.seq = message.seq;
    app.error = null;
  } else if (message.type === "joined") {
    app.seat = { room: message.room, token: message.token, name: message.name };
    connection.forgetView(); // a new room's views count from their own start
    localStorage.setItem(KEYS.seat, JSON.stringify(app.seat));
    history.replaceState(null, "", `?room=${message.room}`);
    keepAwake();
  } else if (message.type === "error") {
    // A move made on a step that has ended changed nothing: the screen is only behind.
    if (message.code === "stale_move") { connection.ping(); return; }
    // A refused name is what a newcomer meets first: say why in their language.
    app.error = LOCALIZED_REFUSALS.includes(message.code) ? t(message.code) : message.message;
    if (message.code === "kicked") { forgetSeat(); app.error = t("kicked"); }
    announce(app.error);
  } else return; // a pong: nothing on the screen changes
  render();
}

function forgetSeat() {
  if (connection) connection.forgetView();
  app.seat = null;
  app.view = null;
  localStorage.removeItem(KEYS.seat);
}

// A game move names the step of the view it was made on; the room takes it on that step
// only (so a late or repeated frame never lands on a later one). Room actions do not.
const ROOM_ACTIONS = new Set(["create_room", "join", "leave", "settings", "reorder", "kick", "hand_over", "start", "rematch", "ping"]);

function send(action, fields = {}) {
  app.error = null;
  const step = app.view && !ROOM_ACTIONS.has(action) ? { step: app.view.step } : {};
  connection.send({ action, ...fields, ...step });
}

function announce(text) { announcer.textContent = text; }

let wakeLock = null;
async function keepAwake() {
  // Screen Wake Lock needs a secure context (https, or localhost).
  if (!app.seat || !("wakeLock" in navigator) || wakeLock) return;
  try {
    wakeLock = await navigator.wakeLock.request("screen");
    wakeLock.addEventListener("release", () => { wakeLock = null; });
  } catch { wakeLock = null; }
}

// -- rendering ------------------------------------------------------------------------------
function render() {
  renderStatus();
  const focused = document.activeElement && screen.contains(document.activeElement) ? document.activeElement.id : null;
  const v = app.view;
  const key = stepKey(v);
  const newStep = key !== app.lastPhaseKey;
  if (newStep) { app.lastPhaseKey = key; app.draft = {}; } // before drawing: no choice carries over
  clear(screen);
  const content = !app.seat || !v ? (app.seat ? waitingScreen() : homeScreen()) : roomScreen(v);
  if (app.error) screen.append(h("p", { class: "error", role: "alert" }, app.error));
  screen.append(content);
  // Plain facts about this phone's own screen, for tests and the screenshot script.
  Object.assign(screen.dataset, { phase: v ? v.phase : "home", seq: app.seq ?? "", turn: String(Boolean(v && v.your_turn)) });
  renderFooter();
  if (focused && document.getElementById(focused)) document.getElementById(focused).focus(); // keep the player's place
  if (newStep) {
    const heading = screen.querySelector("h1, h2");
    if (heading) announce(heading.textContent);
  }
  const myTurn = Boolean(v && v.your_turn);
  if (myTurn && !app.wasMyTurn && navigator.vibrate) navigator.vibrate(120);
  app.wasMyTurn = myTurn;
}

// One key per step a player acts in: the game says which (a retried move must not land
// on a later step, and a new step starts with an empty draft).
function stepKey(v) {
  if (!v) return "home";
  if (v.phase === "lobby") return "lobby";
  const game = gameOf(v);
  return game ? game.stepKey(v) : `${v.game}/${v.phase}`;
}

function roomScreen(v) {
  const game = gameOf(v);
  if (!game) return h("section", {}, h("h1", {}, t("title")), h("p", { class: "problem" }, t("unknown_game")));
  if (v.phase === "lobby") return lobbyScreen(v, game, ctx);
  const parts = game.render(v, ctx);
  if (v.host === v.you && !game.isOver(v)) parts.push(hostTools(v, game, ctx));
  return h("section", {}, ...parts);
}

// The table strip: the connection, then the game's own facts.
function renderStatus() {
  clear(statusBar);
  const v = app.view;
  const state = connection ? connection.state : "connecting";
  statusBar.append(h("span", { class: state === "open" ? "pill" : "pill conn-bad" },
    state === "open" ? `● ${t("connected")}` : `○ ${t("reconnecting")}`));
  const game = v && v.phase !== "lobby" ? gameOf(v) : null;
  if (game) statusBar.append(...game.statusBar(v, ctx).filter(Boolean));
}

// The seconds left of the view's step, from its absolute deadline (null: no deadline).
function countdown(v) {
  if (!v.deadline) return null;
  const left = Math.max(0, Math.ceil(v.deadline - Date.now() / 1000));
  return h("span", { class: "pill countdown", "aria-label": `${left} s` }, `⏱ ${left}s`);
}

function renderFooter() {
  clear(footer);
  const select = h("select", {
    id: "language", "aria-label": t("language"),
    onchange: async (e) => { await chooseLanguage(e.target.value); render(); },
  }, ...Object.entries(LANGUAGES).map(([code, name]) =>
    h("option", { value: code, selected: code === currentLanguage() }, name)));
  footer.append(h("label", { for: "language" }, t("language")), select,
    h("p", {}, h("a", { href: `rules.html?lang=${currentLanguage()}` }, t("rules"))));
}

// -- before a room ----------------------------------------------------------------------------
function homeScreen() {
  const params = new URLSearchParams(location.search);
  // What was typed survives a re-render (a message or error can arrive while typing).
  const typed = (key) => (e) => { app.draft[key] = e.target.value; };
  const name = h("input", { id: "name", autocomplete: "nickname", maxlength: 40,
    value: app.draft.name ?? localStorage.getItem(KEYS.name) ?? "", oninput: typed("name") });
  // 8 letters (functions/room_service/domain/room.py CODE_LENGTH), maybe typed as "ABCD EFGH".
  const code = h("input", { id: "code", autocapitalize: "characters", autocomplete: "off", maxlength: 11,
    value: app.draft.code ?? params.get("room") ?? "", oninput: typed("code") });
  const remember = () => localStorage.setItem(KEYS.name, name.value.trim());
  return h("section", {},
    h("h1", {}, `🐈‍⬛ ${t("title")}`),
    h("p", { class: "muted" }, t("tagline")),
    h("label", { for: "name" }, t("your_name")), name,
    h("div", { class: "panel" },
      h("h2", {}, t("join_room")),
      h("label", { for: "code" }, t("room_code")), code,
      h("div", { class: "row" }, h("button", { class: "big", onclick: () => {
        remember(); send("join", { room: code.value.replace(/[\s-]/g, ""), name: name.value.trim() });
      } }, t("join")))),
    h("div", { class: "panel" },
      h("h2", {}, t("create_room")),
      createForm((game, settings) => { remember(); send("create_room", { name: name.value.trim(), game, settings }); })),
  );
}

function waitingScreen() {
  return h("section", {}, h("h1", {}, t("title")), h("p", { class: "muted" }, t("reconnecting")));
}

// The game (preselected: with one game there is nothing to tap), then its settings.
function createForm(onCreate) {
  const draft = (app.draft.create ||= { game: DEFAULT_GAME, settings: gameByKey(DEFAULT_GAME).defaultSettings() });
  const game = gameByKey(draft.game);
  const pick = (key) => { app.draft.create = { game: key, settings: gameByKey(key).defaultSettings() }; render(); };
  const choices = h("fieldset", { class: "games", role: "radiogroup" }, h("legend", {}, t("game")),
    ...GAMES.map((g) => h("label", { class: "game" },
      h("input", { type: "radio", name: "game", value: g.key, checked: g.key === game.key, onchange: () => pick(g.key) }),
      ` ${g.icon} ${t(g.nameKey)}`)));
  return h("div", {}, choices,
    // Redrawn at once: each field then starts from the settings with the last change in.
    ...game.createFields(draft.settings, (changed) => { draft.settings = changed; render(); }),
    h("div", { class: "row" }, h("button", { class: "big", onclick: () => onCreate(game.key, draft.settings) }, t("create_room"))));
}

main();
