// The phone client's shell: the connection, the home screen, the lobby and host tools,
// the table strip, language and rules, errors and reconnecting; each game's screens come
// from its module (js/games.js, docs/client.md). No build step: plain ES modules.
// Protocol: docs/protocol.md.
import { KEYS } from "./storage.js"; // first: moves values kept under older keys
import { h, clear } from "./dom.js";
import { tapSafe, replaceIfChanged, morph } from "./redraw.js";
import { loadLanguage, chooseLanguage, t, hasString, LANGUAGES, currentLanguage } from "./i18n.js";
import { Connection } from "./connection.js";
import { GAMES, DEFAULT_GAME, gameOf, gameByKey, addHostedGames } from "./games.js";
import { lobbyScreen, hostTools, seatLinkPanel } from "./lobby.js";
import * as strip from "./strip.js";
import { setClock, everyTick, atOneInstant } from "./clock.js";
import { keepScreenOn } from "./awake.js";

// A refusal in the player's language: `error_<code>` with its params (every code the server
// sends has one: tests/engine/test_error_codes.py), else a plain "That did not work" (a newer
// server's code). Never the server's English `message`.
function errorText(code, params = {}) {
  return hasString(`error_${code}`) ? t(`error_${code}`, params) : t("did_not_work");
}

const app = {
  view: null,      // the newest view (lobby or game)
  shown: null,     // the view the screen on display was drawn from (a tap's move names its step)
  // First: opening a seat's link lets go of any seat this phone had, before it is read.
  taking: takenSeatLink(), // {room, key}: a seat's one-time link this page was opened with
  seat: readSeat(),
  error: null,     // {text, control, step}: shown under `control` (a description, see describe)
  draft: {},       // choices being made on this screen (not sent yet); a new step empties it
  lastPhaseKey: null,
  previousView: null, // the view drawn last (the game compares it with the new one to buzz)
  tapped: null,    // the control of the tap or change being handled (its move remembers it)
  lastMove: null,  // {action, control}: the newest move sent; a refusal is shown under its control
  result: null,    // the lobby's last_result shown as the result screen, until "To the lobby"
  resultSeen: "",  // the last_result this phone has been to the lobby from
  replayMode: "save", // what to do with the replay file asked for: "save" it or "watch" it
  seatLink: null,  // the `seat_link` answer shown (its link and QR), until closed
};

// A seat's one-time link (`#seat=ROOM.KEY`, made by lobby.js seatLinkPanel): the key rides in
// the fragment, which no browser sends to any server, and leaves the address bar and the
// history at once. Opening it replaces any seat this phone had (docs/protocol.md `take_seat`).
function takenSeatLink() {
  const found = /^#seat=([A-Z]+)\.([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!found) return null;
  history.replaceState(null, "", location.pathname + location.search);
  localStorage.removeItem(KEYS.seat);
  return { room: found[1], key: found[2] };
}

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
  // The current view, if the one shown is not: whom a step waits for is not pushed to
  // every phone at each move (docs/protocol.md), a phone asks for it.
  refresh: () => connection.ping(),
  // A frame that asks nothing (a phone's cover for another role's move: docs/security.md).
  cover: (step) => connection.cover(step),
  renderStatus: () => renderStatus(),
  countdown: strip.countdownItem,
  showError,
  strip,
  leave: () => { send("leave"); forgetSeat(); render(); },
  get draft() { return app.draft; },
};

async function main() {
  // Both at once: on a slow network each round trip is the phone's first view later.
  const configLoaded = fetch("config.json").then((r) => r.json()).catch(() => ({}));
  await loadLanguage();
  const config = await configLoaded;
  // A game the server hosts that this page does not ship: its module, then its strings too.
  await addHostedGames(config.games);
  setClock(config);
  const url = config.websocket_url || `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/prod`;
  connection = new Connection(url, {
    seat: () => app.seat,
    step: () => stepKey(onScreen()), // a move's step: the screen's, as in send
    onMessage: onMessage,
    onState: () => renderStatus(), // the screen itself changes only with a message
    // A move the server did not take, twice (throttled, or its Lambda failed): say so.
    onSendFailed: () => { setError(t("not_sent"), app.lastMove && app.lastMove.control); render(); },
  });
  connection.open();
  if (app.taking) send("take_seat", app.taking); // sent once the socket opens
  everyTick(renderStatus); // the countdown
  // An error sticks just under the status bar (css: main > .error), whatever its height.
  new ResizeObserver(() => document.body.style.setProperty("--status-height", `${statusBar.offsetHeight}px`))
    .observe(statusBar);
  watchTaps();
  keepAwake(); // a phone reloaded with its seat
  // Put away (locked, another app, a frozen or cached tab, offline) and back: the socket
  // may have died meanwhile without a word (connection.js, DOUBT_AFTER_AWAY_MS).
  const away = () => connection.away();
  const back = () => { connection.wake(); keepAwake(); };
  document.addEventListener("visibilitychange", () => (document.hidden ? away() : back()));
  document.addEventListener("freeze", away);
  document.addEventListener("resume", back);
  window.addEventListener("pagehide", (event) => { if (event.persisted) away(); });
  window.addEventListener("pageshow", (event) => { if (event.persisted) back(); });
  window.addEventListener("offline", away);
  window.addEventListener("online", () => connection.wake());
  render();
}

function onMessage(message) {
  if (message.type === "view") {
    const before = app.view;
    app.view = message.view;
    app.seq = message.seq;
    // The game hears every view as it arrives, drawn or not (Catch the Witch: the newest, which
    // its place choice's cover reads: a Knight who has turned to Guard sends none).
    const game = app.view.phase !== "lobby" ? gameOf(app.view) : null;
    if (game && game.afterView) game.afterView(app.view, ctx);
    // An error stays until a view of another step: the step it was about is over.
    if (app.error && app.error.step !== stepKey(app.view)) app.error = null;
    noticeResult(before, app.view);
  } else if (message.type === "seat_link") {
    app.seatLink = message; // to this phone alone: its own seat's, or the host's for a gone phone
  } else if (message.type === "joined") {
    app.taking = null;
    app.seatLink = null;
    app.seat = { room: message.room, token: message.token, name: message.name };
    connection.forgetView(); // a new room's views count from their own start
    localStorage.setItem(KEYS.seat, JSON.stringify(app.seat));
    history.replaceState(null, "", `?room=${message.room}`);
    keepAwake();
  } else if (message.type === "error") {
    // A move made on a step that has ended changed nothing: the screen is only behind.
    // The step's end is pushed to every phone and is likely here already; only a phone still
    // showing that step a moment later asks (a ping it needs not send is a frame that would
    // tell the Wi-Fi its move came late).
    if (message.code === "stale_move") { catchUpAfterStaleMove(); return; }
    // Told before the server closes the socket: the next frame waits for a new one.
    if (message.code === "kicked" || message.code === "seat_moved") { forgetSeat(); connection.startOver(); }
    if (message.code === "seat_link_used") app.taking = null;
    // The server says the seat is gone (its answer to `resume` over an opened socket, or to
    // a frame after the seat was let go): only then is it forgotten (a socket that did not
    // open says nothing of the seat).
    if (message.code === "seat_lost") forgetSeat();
    // Next to the control whose move was refused (the last one sent), in the player's language.
    setError(errorText(message.code, message.params || {}), app.lastMove && app.lastMove.control);
  } else if (message.type === "replay") {
    // Loaded only by a phone that asks for a replay: the others never fetch it.
    import("./replay.js").then((replay) => replay.receiveReplayPart(message, app.seat && app.seat.room, app.replayMode))
      .catch(() => { setError(t("replay_failed"), null); render(); });
    return;
  } else return; // a pong: nothing on the screen changes
  renderSoon();
}

const STALE_CATCH_UP_MS = 1000;

function catchUpAfterStaleMove() {
  // The step of the refused move: a phone already past it has caught up.
  const behind = connection.lastMove ? connection.lastMove.step : stepKey(app.view);
  setTimeout(() => { if (stepKey(app.view) === behind) connection.ping(); }, STALE_CATCH_UP_MS);
}

// -- errors next to their control ---------------------------------------------------------
// A control is remembered by what finds it again in a redrawn screen: its id, else its tag,
// text and accessible name (a redraw makes new elements with the same words).
function describe(control) {
  if (!control) return null;
  return { id: control.id || "", tag: control.tagName, text: control.textContent.trim(), label: control.getAttribute("aria-label") || "" };
}

function findControl(described) {
  if (!described) return null;
  if (described.id) return document.getElementById(described.id);
  return [...screen.querySelectorAll(described.tag)].find((el) =>
    el.textContent.trim() === described.text && (el.getAttribute("aria-label") || "") === described.label) || null;
}

function setError(text, control) {
  app.error = { text, control, step: stepKey(app.view) };
  announce(text);
}

// For a game's own checks before sending: the error `error_<code>` under `control` (an element).
function showError(control, code, params = {}) {
  setError(errorText(code, params), describe(control));
  render();
}

// The error line under its control (after the row or grid it sits in); when that control is
// gone from the screen, at the top, just under the strip.
function placeError() {
  if (!app.error) return;
  const line = h("p", { class: "error", role: "alert" }, app.error.text);
  const control = findControl(app.error.control);
  if (control && screen.contains(control)) {
    const block = control.closest(".grid, .row, details, fieldset") || control;
    line.classList.add("at-control");
    block.after(line);
  } else screen.prepend(line);
}

// The control of each tap or change, for the move it sends (see send).
function watchTaps() {
  const remember = (e) => {
    app.tapped = e.target.closest ? e.target.closest("button, input, select, summary, a") : null;
    setTimeout(() => { app.tapped = null; }, 0); // only for the handlers of this event
  };
  document.addEventListener("click", remember, true);
  document.addEventListener("change", remember, true);
}

// A view that arrives while a finger is on the screen is drawn once the tap has landed:
// replacing the pressed button in between would swallow the tap (js/redraw.js).
const renderSoon = tapSafe(() => render());

// -- between games --------------------------------------------------------------------------
// A game that has just ended returns the room to the lobby with `last_result`: this phone
// shows that result until its player taps "To the lobby". A phone that joins later sees
// only a line about it (with a button to see it).
// A finished game is known by its last step: step numbers go on across a room's games.
function resultKey(result) {
  return result ? String(result.step) : "";
}

function noticeResult(before, now) {
  const result = now && now.phase === "lobby" ? now.last_result : null;
  if (!result) { app.result = null; return; }
  const fromGame = before && before.phase !== "lobby" && before.phase !== undefined;
  if (fromGame && resultKey(result) !== app.resultSeen) app.result = result;
  else if (app.result) app.result = result; // still looking at it: the newest copy
}

function showLastResult() {
  app.result = app.view.last_result;
  render();
}

function toLobby() {
  app.resultSeen = resultKey(app.result);
  app.result = null;
  render();
}

function forgetSeat() {
  if (connection) connection.forgetView();
  app.seat = null;
  app.view = app.shown = null;
  localStorage.removeItem(KEYS.seat);
  keepAwake(); // no seat: the screen may sleep again
}

// A game move names the step of the view it was made on; the room takes it on that step
// only (so a late or repeated frame never lands on a later one). Room actions do not: a
// copy of the server's ROOM_ACTIONS (service/commands.py; tests/service/test_protocol_lists.py).
const ROOM_ACTIONS = new Set(["create_room", "join", "resume", "watch", "leave", "settings", "reorder", "kick", "hand_over", "start", "rematch", "room_options", "ping", "cover", "replay", "new_table_key", "seat_link", "take_seat"]);

// The view on the screen (before the first drawing, the newest).
function onScreen() { return app.shown ?? app.view; }

// The step is the screen's: a view of the next step that arrived under the finger is drawn
// only after the tap (js/redraw.js), and the tap was made on what the screen showed. Named
// with the newer view's step, a tap on the last step's button was refused as impossible at
// that step (or taken there); named with its own, it is a late move, dropped in silence.
function send(action, fields = {}) {
  app.error = null;
  app.lastMove = { action, control: describe(app.tapped) };
  const shown = onScreen();
  const step = shown && !ROOM_ACTIONS.has(action) ? { step: shown.step } : {};
  connection.send({ action, ...fields, ...step });
}

function announce(text) { announcer.textContent = text; }

// The screen stays on while this phone has a seat (js/awake.js: a Wake Lock, or a video
// where there is none, as on `make dev`'s plain http).
function keepAwake() { keepScreenOn(Boolean(app.seat)); }

// -- rendering ------------------------------------------------------------------------------
// The strip's countdown and the screen's own clock read one instant (js/clock.js).
function render() {
  atOneInstant(drawScreen);
}

function drawScreen() {
  renderStatus();
  const focused = document.activeElement && screen.contains(document.activeElement) ? document.activeElement.id : null;
  const v = app.view;
  app.shown = v;
  const key = stepKey(v);
  const newStep = key !== app.lastPhaseKey;
  if (newStep) { app.lastPhaseKey = key; app.draft = {}; } // before drawing: no choice carries over
  const content = !app.seat || !v ? (app.seat ? waitingScreen() : app.taking ? takingScreen() : homeScreen())
    : app.seatLink ? seatLinkPanel(app.seatLink, app.seat.name, () => { app.seatLink = null; render(); }) : roomScreen(v);
  const linkShown = app.seatLink && !screen.querySelector(".seat-link-panel"); // asked from the footer
  const errorBefore = screen.querySelector("p.error");
  if (errorBefore) errorBefore.remove();
  // Elements the same as those shown are kept, not replaced: a tap on them stays theirs.
  replaceIfChanged(screen, [content], { force: newStep });
  placeError();
  if (newStep || linkShown) window.scrollTo(0, 0); // a new screen starts at its top
  // Plain facts about this phone's own screen, for tests and the screenshot script.
  Object.assign(screen.dataset, { phase: v ? (app.result ? "game_over" : v.phase) : "home", seq: app.seq ?? "", turn: String(Boolean(v && v.your_turn)) });
  renderFooter();
  // The tab (index.html's title is English): the room's game, else the site, in the language.
  document.title = v ? t(gameOf(v).nameKey) : t("title");
  if (focused && document.getElementById(focused)) document.getElementById(focused).focus(); // keep the player's place
  if (newStep) {
    const heading = screen.querySelector("h1, h2");
    if (heading) announce(heading.textContent);
  }
  // The game says when to buzz: the same on every phone at a step change, never "your turn"
  // alone (a witch's phone buzzing in her secret step would give her away).
  const game = v && v.phase !== "lobby" ? gameOf(v) : null;
  const buzz = game && game.vibration ? game.vibration(app.previousView, v) : 0;
  if (buzz && navigator.vibrate) navigator.vibrate(buzz);
  app.previousView = v;
}

// One key per step a player acts in: the game says which (a retried move must not land
// on a later step, and a new step starts with an empty draft).
function stepKey(v) {
  if (!v) return "home";
  if (v.phase === "lobby") return app.result ? "lobby/result" : "lobby";
  const game = gameOf(v);
  return game ? game.stepKey(v) : `${v.game}/${v.phase}`;
}

function roomScreen(v) {
  const game = gameOf(v);
  if (!game) return h("section", {}, h("h1", {}, t("title")), h("p", { class: "problem" }, t("unknown_game")));
  if (v.phase === "lobby" && app.result) {
    // The last game's result, drawn by the game from the lobby's last_result.
    const shown = { ...app.result, phase: "game_over", room: v.room, you: v.you, host: v.host, me: null, deadline: null };
    // Every game's result offers its replay to the seats that played it: watched here,
    // step by step (replay.html), or saved as a file.
    // The viewer opens in a new tab, from the tap itself (so no pop-up blocker stops it):
    // this one keeps its socket, so its seat (docs/protocol.md: a gone phone's lobby seat
    // is freed). The file reaches the viewer through localStorage (replay.js). Two buttons
    // alike (a link among buttons looked like something else).
    const ask = (mode) => () => {
      if (mode === "watch") {
        localStorage.removeItem(KEYS.watchReplay); // the new one, not the last
        const viewer = window.open("replay.html", "_blank");
        if (viewer) viewer.opener = null; // as a link's new tab: it cannot reach back here
      }
      app.replayMode = mode;
      send("replay");
    };
    const replay = h("div", { class: "replay-actions" },
      h("button", { id: "watch-replay", class: "secondary", onclick: ask("watch") }, t("watch_replay")),
      h("button", { id: "download-replay", class: "secondary", onclick: ask("save") }, t("download_replay")));
    return h("section", {}, ...game.render(shown, { ...ctx, toLobby }), replay);
  }
  if (v.phase === "lobby") return lobbyScreen(v, game, { ...ctx, showLastResult });
  const parts = game.render(v, ctx);
  if (v.host === v.you && !game.isOver(v)) parts.push(hostTools(v, game, ctx));
  return h("section", {}, ...parts);
}

// The table strip (js/strip.js): one row of facts (the connection, the game's facts, the
// countdown), then a row of every cat. A game chooses its facts and chips with `strip(v, ctx)`
// (docs/client.md); else the shell reads the view's common fields. Redrawn every second, but
// only what changed is replaced (a tap on a tracker beside the ticking countdown lands).
function renderStatus() {
  const v = app.view;
  const state = connection ? connection.state : "connecting";
  const game = v && v.phase !== "lobby" && !app.result ? gameOf(v) : null;
  const own = game && game.strip ? game.strip(v, ctx) : null;
  const facts = own ? own.facts : [];
  const cats = own ? own.cats : game ? strip.genericCats(v) : [];
  const end = own ? own.end || [] : [];
  const rows = [h("div", { class: "facts" }, strip.connectionItem(state), ...facts.filter(Boolean), game ? strip.countdownItem(v) : null)];
  if (cats.length || end.length) rows.push(h("div", { class: "cats-row" }, h("ul", { class: "cats", "aria-label": t("strip_cats") }, ...cats), ...end.filter(Boolean)));
  const news = strip.seatNewsRow(v); // on every screen, in the lobby too
  if (news) rows.push(news);
  statusBar.setAttribute("aria-label", t("strip_status")); // in the player's language
  morph(statusBar, rows);
}

function renderFooter() {
  clear(footer);
  const select = h("select", {
    id: "language", "aria-label": t("language"),
    onchange: async (e) => { await chooseLanguage(e.target.value); render(); },
  }, ...Object.entries(LANGUAGES).map(([code, name]) =>
    h("option", { value: code, selected: code === currentLanguage() }, name)));
  footer.append(h("label", { for: "language" }, t("language")), select,
    h("p", {}, h("a", { href: rulesLink() }, t("rules"))));
  // Any seated phone, whatever its role, the same button: a new phone takes the seat by a
  // one-time link (a dead battery, a substitute).
  if (app.seat && app.view) footer.append(h("p", {}, h("button", { class: "secondary", id: "move-seat", onclick: () => send("seat_link") }, t("move_seat"))));
}

// The rules of the room's game (rules.html honours `game=`; none: Catch the Witch's), or of
// the game picked on the create form.
function rulesLink() {
  const v = app.view;
  const game = v ? v.game || DEFAULT_GAME : (app.draft.create && app.draft.create.game) || DEFAULT_GAME;
  return `rules.html?lang=${currentLanguage()}&game=${game}`;
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
  // The heading and its line are the game chosen in the create form's (with the first
  // game's, Burn the Witch chosen sat under "Catch the Witch… cats, ingredients and witches").
  const form = createForm((game, settings) => { remember(); send("create_room", { name: name.value.trim(), game, settings }); });
  const chosen = gameByKey(app.draft.create.game);
  return h("section", {},
    h("h1", {}, `${chosen.icon} ${t(chosen.nameKey)}`),
    h("p", { class: "muted" }, t(chosen.taglineKey)),
    h("label", { for: "name" }, t("your_name")), name,
    h("div", { class: "panel" },
      h("h2", {}, t("join_room")),
      h("label", { for: "code" }, t("room_code")), code,
      h("div", { class: "row" }, h("button", { class: "big", onclick: () => {
        remember(); send("join", { room: code.value.replace(/[\s-]/g, ""), name: name.value.trim() });
      } }, t("join")))),
    h("div", { class: "panel" },
      h("h2", {}, t("create_room")), form),
  );
}

function waitingScreen() {
  return h("section", {}, h("h1", {}, t("title")), h("p", { class: "muted" }, t("reconnecting")));
}

function takingScreen() {
  return h("section", {}, h("h1", {}, t("title")), h("p", { class: "muted" }, t("taking_seat")));
}

// The game (preselected: with one game there is nothing to tap), then its settings. How many
// it seats is the server's to say: the lobby shows it (the view's `player_range`).
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
