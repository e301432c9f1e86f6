// The phone client: renders the view the server sends, sends the player's actions.
// No build step: plain ES modules. Protocol: docs/protocol.md.
import { h, clear } from "./dom.js";
import { loadLanguage, chooseLanguage, t, LANGUAGES, currentLanguage } from "./i18n.js";
import { Connection } from "./connection.js";
import { ICONS } from "./icons.js";
import { qrcode } from "../vendor/qrcode.mjs"; // qrcode-generator 2.0.4 (MIT), see frontend/vendor/README.md

const SEAT_KEY = "ctw.seat"; // {room, token, name}: a reload keeps the seat
// Error codes of functions/room_service/names.py, each a key of frontend/i18n/*.json.
const NAME_REFUSALS = ["name_blank", "name_too_long", "name_characters", "name_taken"];
// Error codes of a join refused (functions/room_service/service.py: CannotJoin, KeptOut).
const JOIN_REFUSALS = ["cannot_join", "kept_out"];
// Refusals the phone words in the player's language (the rest arrive in English).
const LOCALIZED_REFUSALS = [...NAME_REFUSALS, ...JOIN_REFUSALS, "too_many_moves", "rate_limited", "too_many_rooms", "too_many_joins"];

const app = {
  view: null,      // the newest view (lobby or game)
  seat: JSON.parse(localStorage.getItem(SEAT_KEY) || "null"),
  error: null,
  draft: {},       // choices being made on this screen (not sent yet)
  roleShown: false,
  holdingRole: false, // the role-check button is being held
  lastPhaseKey: null,
  wasMyTurn: false,
};

const statusBar = document.getElementById("status");
const screen = document.getElementById("screen");
const announcer = document.getElementById("announce");
const footer = document.getElementById("footer");

let connection;

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
    localStorage.setItem(SEAT_KEY, JSON.stringify(app.seat));
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
  localStorage.removeItem(SEAT_KEY);
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
  clear(screen);
  const v = app.view;
  const content = !app.seat || !v ? (app.seat ? waitingScreen() : homeScreen())
    : v.phase === "lobby" ? lobbyScreen(v) : gameScreen(v);
  if (app.error) screen.append(h("p", { class: "error", role: "alert" }, app.error));
  screen.append(content);
  // Plain facts about this phone's own screen, for tests and the screenshot script.
  Object.assign(screen.dataset, { phase: v ? v.phase : "home", seq: app.seq ?? "", turn: String(Boolean(v && v.your_turn)) });
  renderFooter();
  if (focused && document.getElementById(focused)) document.getElementById(focused).focus(); // keep the player's place
  const key = stepKey(v);
  if (key !== app.lastPhaseKey) {
    app.lastPhaseKey = key;
    app.draft = {};
    app.holdingRole = false;
    const heading = screen.querySelector("h1, h2");
    if (heading) announce(heading.textContent);
  }
  const myTurn = Boolean(v && v.your_turn);
  if (myTurn && !app.wasMyTurn && navigator.vibrate) navigator.vibrate(120);
  app.wasMyTurn = myTurn;
}

// One key per step a player acts in (a new proposal is a new approval step).
function stepKey(v) {
  return v ? `${v.phase}/${v.day ?? ""}/${(v.today?.proposals || []).length}` : "home";
}

function renderStatus() {
  clear(statusBar);
  const v = app.view;
  const state = connection ? connection.state : "connecting";
  statusBar.append(h("span", { class: state === "open" ? "pill" : "pill conn-bad" },
    state === "open" ? `● ${t("connected")}` : `○ ${t("reconnecting")}`));
  if (!v || v.phase === "lobby") return;
  statusBar.append(
    h("span", { class: "pill" }, t("day", { n: v.day })),
    h("span", { class: "pill" }, `🔏 ${t("seals", { n: v.seals, of: v.seals_to_win })}`),
    h("span", { class: "pill", title: t("curse") }, `☠ ${v.curse}/${v.curse_capacity}`,
      h("span", { class: "gauge", role: "img", "aria-label": `${t("curse")} ${v.curse}/${v.curse_capacity}` },
        h("span", { style: `width:${(100 * v.curse) / v.curse_capacity}%` }))),
  );
  if (v.chief) statusBar.append(h("span", { class: "pill" }, `👑 ${t("chief", { name: v.chief })}`));
  if (v.deadline) {
    const left = Math.max(0, Math.ceil(v.deadline - Date.now() / 1000));
    statusBar.append(h("span", { class: "pill countdown", "aria-label": `${left} s` }, `⏱ ${left}s`));
  }
  if (v.me) {
    statusBar.append(h("button", {
      class: "secondary", "aria-pressed": String(app.roleShown),
      onclick: () => { app.roleShown = !app.roleShown; renderStatus(); },
    }, app.roleShown ? `${ICONS.role[v.me.role] || ""} ${t("role_" + v.me.role)}` : t("your_role")));
  }
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
    value: app.draft.name ?? localStorage.getItem("ctw.name") ?? "", oninput: typed("name") });
  // 8 letters (functions/room_service/model.py CODE_LENGTH), maybe typed as "ABCD EFGH".
  const code = h("input", { id: "code", autocapitalize: "characters", autocomplete: "off", maxlength: 11,
    value: app.draft.code ?? params.get("room") ?? "", oninput: typed("code") });
  const remember = () => localStorage.setItem("ctw.name", name.value.trim());
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
      createForm((settings) => { remember(); send("create_room", { name: name.value.trim(), settings }); })),
  );
}

function waitingScreen() {
  return h("section", {}, h("h1", {}, t("title")), h("p", { class: "muted" }, t("reconnecting")));
}

const LIMITS = [null, 30, 60, 90, 120, 180, 240, 300];
const ROLES = Object.keys(ICONS.role); // display order of the role editor

// The discussion limit and the reveal option. `onChange` gets the new settings at once.
function settingsFields(settings, onChange) {
  const limit = h("select", { id: "limit", onchange: () => onChange({ ...settings, discussion_limit: limit.value ? Number(limit.value) : null }) },
    ...LIMITS.map((n) => h("option", { value: n ?? "", selected: n === settings.discussion_limit }, n ? t("seconds", { n }) : t("limit_off"))));
  const reveal = h("input", { type: "checkbox", id: "reveal", checked: settings.reveal_role_on_exile,
    onchange: () => onChange({ ...settings, reveal_role_on_exile: reveal.checked }) });
  return [h("label", { for: "limit" }, t("discussion_limit")), limit,
    h("label", { for: "reveal" }, reveal, " ", t("reveal_role_on_exile"))];
}

function createForm(onCreate) {
  app.draft.create ||= { discussion_limit: 120, roles: null, reveal_role_on_exile: false };
  return h("div", {}, ...settingsFields(app.draft.create, (changed) => { app.draft.create = changed; }),
    h("p", { class: "muted" }, t("roles_in_lobby")),
    h("div", { class: "row" }, h("button", { class: "big", onclick: () => onCreate(app.draft.create) }, t("create_room"))));
}

// The host's lobby settings: every change is sent at once, and the server's answer
// (the lobby view's start_problem) validates a custom role set live.
function lobbySettings(v) {
  const save = (settings) => send("settings", { settings });
  const roles = v.settings.roles;
  const counts = Object.fromEntries(ROLES.map((r) => [r, (roles || []).filter((x) => x === r).length]));
  const setCount = (role, by) => {
    counts[role] = Math.max(0, counts[role] + by);
    save({ ...v.settings, roles: ROLES.flatMap((r) => Array(counts[r]).fill(r)) });
  };
  const mode = (custom) => h("button", { class: custom === Boolean(roles) ? "" : "secondary", "aria-pressed": String(custom === Boolean(roles)),
    disabled: custom && !v.default_roles && !roles,
    onclick: () => save({ ...v.settings, roles: custom ? (roles || v.default_roles) : null }) },
  t(custom ? "roles_custom" : "roles_default"));
  const editor = roles ? h("ul", { class: "roles" }, ...ROLES.map((role) => h("li", {},
    h("span", { class: "name" }, label("role", role)),
    h("button", { class: "secondary", "aria-label": t("remove_role", { role: t("role_" + role) }), disabled: counts[role] === 0,
      onclick: () => setCount(role, -1) }, "−"),
    h("output", { "aria-label": t("role_" + role) }, String(counts[role])),
    h("button", { class: "secondary", "aria-label": t("add_role", { role: t("role_" + role) }), onclick: () => setCount(role, 1) }, "+"))))
    : h("p", { class: "muted" }, (v.default_roles || []).map((r) => label("role", r)).join(" · ") || "—");
  return h("div", { class: "panel" }, h("h2", {}, t("settings")),
    ...settingsFields(v.settings, save),
    h("h3", {}, t("role_set")), h("div", { class: "row", role: "group", "aria-label": t("role_set") }, mode(false), mode(true)),
    editor,
    roles ? h("p", { class: "muted" }, t("roles_count", { n: roles.length, cats: v.seats.length })) : null);
}

function settingsSummary(v) {
  const s = v.settings;
  const roles = s.roles || v.default_roles || [];
  return h("div", { class: "panel" }, h("h2", {}, t("settings")),
    h("p", {}, `${t("discussion_limit")}: ${s.discussion_limit ? t("seconds", { n: s.discussion_limit }) : t("limit_off")}`),
    s.reveal_role_on_exile ? h("p", {}, t("reveal_role_on_exile")) : null,
    h("p", {}, `${t("role_set")} (${t(s.roles ? "roles_custom" : "roles_default")}): `, roles.map((r) => label("role", r)).join(" · ") || "—"));
}

// -- lobby ------------------------------------------------------------------------------------
function lobbyScreen(v) {
  const host = v.host === v.you;
  const link = `${location.origin}${location.pathname}?room=${v.room}`;
  const shown = v.room.match(/.{1,4}/g).join(" "); // "ABCD EFGH": easier to read out and type
  const seats = v.seats.map((seat, i) => h("li", {},
    h("span", { class: "name" }, seat.name,
      seat.name === v.host ? ` (${t("host")})` : "", seat.name === v.you ? ` (${t("you")})` : "",
      seat.connected ? "" : ` — ${t("offline")}`),
    host ? h("button", { class: "secondary", "aria-label": t("move_up", { name: seat.name }), disabled: i === 0,
      onclick: () => send("reorder", { order: moved(v.seats.map((s) => s.name), i, -1) }) }, "↑") : null,
    host ? h("button", { class: "secondary", "aria-label": t("move_down", { name: seat.name }), disabled: i === v.seats.length - 1,
      onclick: () => send("reorder", { order: moved(v.seats.map((s) => s.name), i, 1) }) }, "↓") : null,
    host && seat.name !== v.you ? h("button", { class: "secondary", "aria-label": t("kick", { name: seat.name }),
      onclick: () => send("kick", { target: seat.name }) }, "✕") : null));
  return h("section", {},
    h("h1", {}, t("lobby", { code: shown })),
    h("div", { class: "panel" },
      h("p", {}, t("share")),
      h("p", { class: "code", "aria-label": v.room.split("").join(" ") }, shown),
      joinQr(link),
      h("p", {}, h("a", { href: link }, link))),
    h("div", { class: "panel" }, h("h2", {}, t("seats", { n: v.seats.length })), h("ul", { class: "seats" }, ...seats)),
    host ? lobbySettings(v) : settingsSummary(v),
    h("p", { class: v.start_problem ? "problem" : "muted", role: "status" }, v.start_problem || t("ready_to_start")),
    host ? handOver(v) : null,
    host ? h("button", { class: "big", disabled: Boolean(v.start_problem), onclick: () => send("start") }, t("start"))
      : h("p", { class: "muted" }, t("waiting_for_host")),
    h("div", { class: "row" }, h("button", { class: "secondary", onclick: () => { send("leave"); forgetSeat(); render(); } }, t("leave"))),
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

// -- the game ---------------------------------------------------------------------------------
const PHASES = {
  role_check: roleCheck, place_choice: placeChoice, guard: guardPlace, witches: witchesTurn,
  evening: evening, discussion: discussion, proposal: proposal, approval: approval,
  approval_result: approvalResult, ritual: ritual, ritual_result: ritualResult,
  squabble: squabble, vote: exileVote, vote_result: voteResult, game_over: gameOver,
};

function gameScreen(v) {
  const me = v.me;
  const parts = [];
  if (me && me.form === "frog") parts.push(h("p", { class: "banner" }, h("span", { class: "frog" }, "🐸"), " ", t("you_are_frog")));
  if (me && me.form === "exiled") parts.push(h("p", { class: "banner" }, t("you_are_exiled")));
  if (me && me.away) parts.push(h("p", { class: "banner" }, t("you_are_away")));
  parts.push((PHASES[v.phase] || (() => h("h2", {}, v.phase)))(v, me));
  if (v.waiting && v.waiting.length && v.phase !== "game_over") {
    parts.push(h("p", { class: "muted" }, t("waiting_for", { names: v.waiting.join(", ") })));
  }
  if (v.host === v.you && v.phase !== "game_over") parts.push(hostTools(v));
  return h("section", {}, ...parts);
}

const icon = (kind, value) => (ICONS[kind] && ICONS[kind][value]) || "";
const label = (kind, value) => `${icon(kind, value)} ${t(`${kind}_${value}`)}`.trim();
const names = (list) => (list && list.length ? list.join(", ") : "—");
const humans = (v) => v.players.filter((p) => p.form === "human").map((p) => p.name);

function choiceButtons(options, chosen, onPick) {
  return h("div", { class: "grid" }, ...options.map(([value, text]) =>
    h("button", { class: "card", "aria-pressed": String(chosen === value), onclick: () => onPick(value) }, text)));
}

function doneButton(v, me, action, text) {
  if (!me || !v.your_turn) return me && me.done ? h("p", { class: "muted" }, t("you_are_ready")) : null;
  return h("button", { class: "big", onclick: () => send(action) }, text);
}

function roleCheck(v, me) {
  if (!me) return h("h2", {}, t("role_check"));
  // Held in app state, not only on the element: another cat's Ready re-renders the screen
  // while this player is still holding the button.
  const box = h("div", { class: "role-box panel", "aria-live": "polite" }, app.holdingRole ? roleText(me) : "🂠");
  const show = (e) => { e.preventDefault(); app.holdingRole = true; box.textContent = roleText(me); };
  const hide = () => { app.holdingRole = false; box.textContent = "🂠"; };
  return h("div", {},
    h("h2", {}, t("role_check")),
    h("button", { class: "hold secondary", onpointerdown: show, onpointerup: hide, onpointerleave: hide,
      onpointercancel: hide, onkeydown: (e) => { if (e.key === " " || e.key === "Enter") show(e); }, onkeyup: hide,
      oncontextmenu: (e) => e.preventDefault() }, t("hold_to_reveal")),
    box,
    doneButton(v, me, "ready", t("ready")));
}

function roleText(me) {
  let text = `${icon("role", me.role)} ${t("role_" + me.role)} — ${t("side_" + me.side)}`;
  if (me.witches && me.witches.length) text += ` · ${t("role_witch")}: ${me.witches.join(", ")}`;
  return text;
}

function duck(v) {
  const required = (v.today && v.today.required) || [];
  return h("div", { class: "panel" },
    h("p", {}, h("span", { class: "duck", "aria-hidden": "true" }, "🦆"), " ", t("morning")),
    h("p", { class: "row" }, ...required.map((i) => h("span", { class: "pill card" }, label("ingredient", i)))));
}

function placeChoice(v, me) {
  const parts = [h("h2", {}, t("choose_place")), duck(v)];
  if (me && me.role === "witch" && me.form === "human") parts.push(h("p", { class: "muted" }, t("witch_waits")));
  if (!me || !v.your_turn && !me.place) return h("div", {}, ...parts);
  const places = v.open_places.map((p) => [p, label("place", p)]);
  if (me.role === "knight" && !me.place) {
    parts.push(h("p", {}, t("knight_choice")),
      h("div", { class: "row" }, h("button", { class: "secondary", onclick: () => { app.draft.gather = true; render(); } }, t("gather")),
        h("button", { onclick: () => send("choose_guard") }, `🛡 ${t("guard")}`)));
    if (!app.draft.gather) return h("div", {}, ...parts);
  }
  let restore = null;
  if (me.role === "herbalist") {
    const frogs = v.players.filter((p) => p.form === "frog").map((p) => p.name);
    if (frogs.length) {
      restore = h("select", { id: "restore" }, h("option", { value: "" }, t("no_restore")),
        ...frogs.map((n) => h("option", { value: n, selected: me.restore === n }, n)));
      parts.push(h("label", { for: "restore" }, t("restore")), restore);
    }
  }
  parts.push(choiceButtons(places, me.place, (place) =>
    send("choose_place", restore && restore.value ? { place, restore: restore.value } : { place })));
  return h("div", {}, ...parts);
}

function countsGrid(v, counts, chosen, onPick) {
  return choiceButtons(v.open_places.map((p) => [p, `${label("place", p)} · ${t("cats_there", { n: counts[p] || 0 })}`]), chosen, onPick);
}

function guardPlace(v, me) {
  return h("div", {}, h("h2", {}, `🛡 ${t("guard_place")}`),
    me.guard_place ? h("p", {}, t("your_choice", { what: t("place_" + me.guard_place) })) :
      countsGrid(v, me.counts || {}, me.guard_place, (place) => send("guard_place", { place })));
}

function witchesTurn(v, me) {
  const title = h("h2", {}, `🌙 ${t("witches_turn")}`);
  if (!me || !me.witch_choices || !v.your_turn) return h("div", {}, title, gatheringScene(v, me), duck(v));
  const own = me.witch_choices[me.name] || {};
  const partners = Object.entries(me.witch_choices).filter(([n]) => n !== me.name)
    .map(([n, c]) => h("p", { class: "muted" }, `${n}: ${c.place ? t("place_" + c.place) : "…"} ${c.spell ? t("spell_" + c.spell) : ""}`));
  if (!own.place) {
    return h("div", {}, title, h("p", {}, t("witch_place")), countsGrid(v, me.counts || {}, null,
      (place) => send("witch_place", { place })), ...partners);
  }
  const spells = ["none", ...v.unlocked_spells.filter((s) => s !== "none")];
  if (!app.draft.spell) {
    return h("div", {}, title, h("p", {}, t("your_choice", { what: t("place_" + own.place) })),
      h("p", {}, t("witch_spell")), choiceButtons(spells.map((s) => [s, label("spell", s)]), null, (spell) => {
        if (spell === "none" || spell === "spoil") send("witch_spell", { spell });
        else { app.draft.spell = spell; render(); }
      }), ...partners);
  }
  const targets = (me.at_my_place || []).map((n) => [n, n]);
  return h("div", {}, title, h("p", {}, `${label("spell", app.draft.spell)} — ${t("witch_target")}`),
    choiceButtons(targets, null, (target) => send("witch_spell", { spell: app.draft.spell, target })),
    h("button", { class: "secondary", onclick: () => { app.draft.spell = null; render(); } }, "←"));
}

// Everyone else's screen during the witches' 15 s: where you gather, and a gauge filling.
function gatheringScene(v, me) {
  return h("div", { class: "panel" }, h("p", {}, h("strong", {}, t("gathering_scene"))),
    me && me.place ? h("p", {}, t("gathering_at", { place: label("place", me.place) })) : null,
    timeGauge(v));
}

// A gauge that fills until the step's deadline. The step's length is measured from when
// this phone first saw the deadline (the view carries only the deadline).
function timeGauge(v) {
  if (!v.deadline) return null;
  const now = Date.now() / 1000;
  if (!app.stepClock || app.stepClock.deadline !== v.deadline) app.stepClock = { deadline: v.deadline, start: now };
  const total = Math.max(1, v.deadline - app.stepClock.start);
  return h("div", { class: "gauge time", "aria-hidden": "true" },
    h("span", { style: `animation-duration:${total}s;animation-delay:${-(now - app.stepClock.start)}s` }));
}

function dayNews(day) {
  if (!day) return [];
  const news = [];
  if (day.new_frogs.length) news.push(h("p", {}, "🐸 ", t("new_frogs", { names: names(day.new_frogs) })));
  if (day.restored.length) news.push(h("p", {}, "🌿 ", t("restored", { names: names(day.restored) })));
  if (day.dropped.length) news.push(h("p", {}, t("dropped", { items: day.dropped.map((i) => t("ingredient_" + i)).join(", ") })));
  return news.length ? news : [h("p", {}, t("nothing_happened"))];
}

function evening(v, me) {
  return h("div", {}, h("h2", {}, `🌆 ${t("evening")}`), h("div", { class: "panel" }, ...dayNews(v.today)),
    specialPowers(v, me), doneButton(v, me, "ok", t("ok")));
}

function discussion(v, me) {
  return h("div", {}, h("h2", {}, `💬 ${t("discussion")}`), h("p", {}, t("talk_now")),
    specialPowers(v, me), doneButton(v, me, "end_talk", t("end_talk")));
}

function specialPowers(v, me) {
  if (!me || me.form !== "human") return null;
  const others = v.players.filter((p) => p.name !== me.name && p.form !== "exiled").map((p) => [p.name, p.name]);
  const parts = [];
  if (me.role === "seer") {
    for (const r of me.seer_results || []) parts.push(h("p", {}, t(r.witch ? "seer_result_witch" : "seer_result_clear", { name: r.target })));
    if (!me.seer_used_today) parts.push(h("p", {}, `🔮 ${t("seer_look")}`), choiceButtons(others, null, (target) => send("seer_look", { target })));
  }
  if (me.role === "pickpocket" && !me.pickpocket_used_today) {
    if (!me.peek) parts.push(h("p", {}, `🧤 ${t("pickpocket_peek")}`), choiceButtons(others, null, (target) => send("pickpocket_peek", { target })));
    else parts.push(h("p", {}, t("pickpocket_take", { name: me.peek.target })),
      choiceButtons([...me.peek.hand.map((c) => [c, label("ingredient", c)]), [null, t("take_nothing")]], undefined,
        (card) => send("pickpocket_take", { card })));
  }
  return parts.length ? h("div", { class: "panel" }, ...parts) : null;
}

function proposal(v, me) {
  const size = v.today.required.length;
  if (!me || !v.your_turn) return h("div", {}, h("h2", {}, `👑 ${t("proposal")}`), h("p", {}, t("chief_choosing", { name: v.chief })));
  app.draft.members = app.draft.members || [];
  const picked = app.draft.members;
  const toggle = (name) => {
    const i = picked.indexOf(name);
    if (i >= 0) picked.splice(i, 1); else if (picked.length < size) picked.push(name);
    render();
  };
  return h("div", {}, h("h2", {}, `👑 ${t("proposal")}`), duck(v), h("p", {}, t("propose_n", { n: size })),
    h("div", { class: "grid" }, ...humans(v).map((n) => h("button", { class: "secondary", "aria-pressed": String(picked.includes(n)), onclick: () => toggle(n) }, n))),
    h("button", { class: "big", disabled: picked.length !== size, onclick: () => send("propose", { members: picked }) }, `${t("propose")} (${picked.length}/${size})`));
}

function approval(v, me) {
  const last = v.today.proposals[v.today.proposals.length - 1];
  const parts = [h("h2", {}, `🗳 ${t("approval")}`), h("p", { class: "panel" }, t("members", { names: names(last.members) }))];
  if (me && (v.your_turn || "approve" in me) && me.form === "human") {
    parts.push(h("div", { class: "row" },
      h("button", { class: "big", "aria-pressed": String(me.approve === true), onclick: () => send("approve", { yes: true }) }, `👍 ${t("yes")}`),
      h("button", { class: "big secondary", "aria-pressed": String(me.approve === false), onclick: () => send("approve", { yes: false }) }, `👎 ${t("no")}`)));
  }
  return h("div", {}, ...parts);
}

function approvalResult(v, me) {
  const last = v.today.proposals[v.today.proposals.length - 1];
  return h("div", {}, h("h2", {}, t("approval_result")),
    h("div", { class: "panel" }, h("p", {}, h("strong", {}, last.passed ? `✅ ${t("passed")}` : `❌ ${t("rejected")}`)),
      h("p", {}, t("members", { names: names(last.members) })),
      h("p", {}, t("yes_votes", { names: names(last.yes) })), h("p", {}, t("no_votes", { names: names(last.no) }))),
    doneButton(v, me, "ok", t("ok")));
}

function ritual(v, me) {
  const parts = [h("h2", {}, `🔥 ${t("ritual")}`), duck(v), h("p", {}, t("members", { names: names(v.today.ritual_members) }))];
  if (me && me.playable && v.your_turn) {
    parts.push(h("p", {}, t("play_card")), choiceButtons(me.playable.map((c) => [c, label("ingredient", c)]), null,
      (card) => send("play_card", { card })));
  } else parts.push(h("p", { class: "muted" }, t("ritual_waiting")));
  return h("div", {}, ...parts);
}

function ritualResult(v, me) {
  return h("div", {}, h("h2", {}, t("ritual_result")),
    h("p", { class: "panel" }, v.today.ritual_result === "success" ? `✨ ${t("success")}` : `💥 ${t("failure")}`),
    doneButton(v, me, "ok", t("ok")));
}

function squabble() {
  return h("div", {}, h("h1", {}, `😾 ${t("squabble")}`));
}

function exileVote(v, me) {
  const parts = [h("h2", {}, `⚖ ${t("vote")}`)];
  if (me && me.form === "human" && (v.your_turn || "vote" in me)) {
    const options = humans(v).filter((n) => n !== me.name).map((n) => [n, n]);
    parts.push(choiceButtons([...options, [null, t("skip")]], "vote" in me ? me.vote : undefined,
      (target) => send("vote", { target })));
  }
  return h("div", {}, ...parts);
}

function voteResult(v, me) {
  const vote = v.today.vote || { votes: {}, exiled: null };
  const byTarget = {};
  for (const [voter, target] of Object.entries(vote.votes)) (byTarget[target ?? t("skip")] ||= []).push(voter);
  return h("div", {}, h("h2", {}, t("vote_result")),
    h("div", { class: "panel" }, h("p", {}, h("strong", {}, vote.exiled ? t("exiled", { name: vote.exiled }) : t("nobody_exiled"))),
      v.today.exiled_role ? h("p", {}, label("role", v.today.exiled_role)) : null,
      ...Object.entries(byTarget).map(([target, voters]) => h("p", {}, t("voters", { target, names: names(voters) })))),
    doneButton(v, me, "ok", t("ok")));
}

function gameOver(v) {
  const outcome = v.outcome;
  const reveal = v.reveal || { roles: {}, timeline: [] };
  const rows = Object.entries(reveal.roles).map(([name, role]) =>
    h("tr", {}, h("td", {}, name), h("td", {}, label("role", role))));
  const days = (reveal.timeline || []).map((day) => h("li", {},
    h("strong", {}, t("day", { n: day.day })), ": ",
    (day.required || []).map((i) => icon("ingredient", i)).join(""), " · ",
    day.ritual_result ? (day.ritual_result === "success" ? "✨" : "💥") : "–", " · ",
    day.new_frogs && day.new_frogs.length ? `🐸 ${day.new_frogs.join(", ")} · ` : "",
    day.exiled ? `⚖ ${day.exiled}` : "",
    // The witches' secret night work, revealed: who cast what on whom, and whether it worked.
    ...(day.spells || []).filter((s) => s.spell !== "none").map((s) => h("div", { class: "muted" },
      `${icon("role", "witch")} ${s.witch}: ${label("spell", s.spell)} → ${s.target || t("place_" + s.place)} `,
      s.worked ? "✔" : "✘"))));
  return h("div", {},
    h("h1", {}, t(`winner_${outcome.winner}`)),
    h("p", {}, t(`reason_${outcome.reason}`)),
    h("p", {}, t("witch_score", { n: reveal.witch_score ?? 0 })),
    h("table", { class: "panel" }, ...rows),
    h("h2", {}, t("timeline")), h("ul", {}, ...days),
    v.host === v.you ? h("button", { class: "big", onclick: () => send("rematch") }, t("rematch")) : null);
}

function hostTools(v) {
  const present = v.players.filter((p) => !p.away && p.form !== "exiled" && p.name !== v.you);
  return h("details", { class: "panel" }, h("summary", {}, t("host_tools")),
    h("p", {}, t("mark_away")),
    h("div", { class: "row" }, ...present.map((p) => h("button", { class: "secondary", onclick: () => send("mark_away", { target: p.name }) }, p.name))),
    v.players.some((p) => p.away) ? h("p", { class: "muted" }, `${t("away")}: ${v.players.filter((p) => p.away).map((p) => p.name).join(", ")}`) : null,
    handOver(v));
}

// §10: host powers go to a connected cat (the server refuses anyone offline).
function handOver(v) {
  const others = (v.seats || v.players).map((p) => p.name)
    .filter((n) => n !== v.you && (v.seats ? v.seats.find((s) => s.name === n).connected : v.connected[n]));
  if (!others.length) return null;
  return h("details", { class: "panel" }, h("summary", {}, t("hand_over")),
    h("p", {}, t("hand_over_hint")),
    h("div", { class: "row" }, ...others.map((n) => h("button", { class: "secondary", onclick: () => send("hand_over", { target: n }) }, n))));
}

main();
