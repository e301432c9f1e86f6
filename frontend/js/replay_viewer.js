// The replay viewer (replay.html): a finished game's viewer's file
// (docs/replay.md, "A game played in a room") played back step by step in the browser, as
// the table saw it: each step's public table view (the file's `steps`), drawn as the table
// screen draws it (js/table.js: the game's `tableScreen`, else the step's spectator screen;
// the end is the game's own end screen, with its whole story), with nothing that needs a
// seat: no countdown, no "waiting for… ↻", no hold bar. Under the step's position, what
// happened since the step before, a sentence per public fact in the viewer's language
// (each game's `newsSince`). The file holds what the game's end screen reveals, nothing
// more (no move, ballot or ritual card). Roles stay hidden until the last step unless
// "Show roles" is on; then they are shown on every step from the first, as the game words
// them from the end's view (its `revealedRoles`).
// The file comes from the phone's game tab ("Watch the replay" opens this page in a new
// tab, so the game's tab keeps its seat, and leaves the file in localStorage when it has
// come) or from a file the player opens here. A file this page cannot read is said so in
// words, forgotten (a reload does not meet it again) and the file picker offered again.
import { h, clear } from "./dom.js";
import { replaceIfChanged } from "./redraw.js";
import { KEYS } from "./storage.js";
import { loadLanguage, t } from "./i18n.js";
import { GAMES, addHostedGames } from "./games.js";
import * as strip from "./strip.js";

// What a phone downloads says what it is (functions/room_service/domain/journal.py).
const VIEWER_KIND = "viewer";
const VIEWER_FORMAT = 1;

const screen = document.getElementById("screen");
const statusBar = document.getElementById("status");
const viewer = { file: null, at: 0, showRoles: false, problem: null };

const ctx = {
  send: () => {}, // nothing is played here
  render: () => render(),
  refresh: () => {},
  renderStatus: () => {},
  countdown: strip.countdownItem,
  showError: () => {},
  strip,
  leave: () => {},
  draft: {},
};

async function main() {
  const configLoaded = fetch("config.json").then((r) => r.json()).catch(() => ({}));
  await loadLanguage();
  // A game the server hosts that this page does not ship (a test's stack): its module too.
  await addHostedGames((await configLoaded).games);
  document.title = t("replay_title");
  const kept = localStorage.getItem(KEYS.watchReplay);
  if (kept) open(kept);
  window.addEventListener("storage", (e) => {
    if (e.key === KEYS.watchReplay && e.newValue) { open(e.newValue); render(); }
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") go(viewer.at + 1);
    if (e.key === "ArrowLeft") go(viewer.at - 1);
  });
  render();
}

function open(text) {
  let file = null;
  try {
    file = JSON.parse(text);
  } catch { /* not JSON: refused below */ }
  const problem = problemOf(file);
  if (problem) {
    refuse(problem);
    return;
  }
  viewer.file = file;
  viewer.at = 0;
  viewer.problem = null;
}

// A file the page cannot show: said in words, forgotten (the viewer's tab would open it
// again on a reload) and the picker offered again.
function refuse(problem) {
  viewer.file = null;
  viewer.at = 0;
  viewer.problem = t(problem);
  try {
    localStorage.removeItem(KEYS.watchReplay);
  } catch { /* storage blocked: nothing was kept */ }
}

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

// Why a file cannot be shown (a string's key), or null: checked before any of it is
// drawn, so a malformed file never reaches the game's screens. A viewer's file
// ({"kind": "viewer", "format": 1}) and a file of the older kind (`actions`
// and `steps`; its steps are shown, its moves not) are read.
function problemOf(file) {
  if (!isObject(file) || !Array.isArray(file.steps)) return "replay_unreadable";
  if (file.kind !== undefined && file.kind !== VIEWER_KIND) return "replay_unreadable";
  if (file.kind === VIEWER_KIND && file.format !== VIEWER_FORMAT) {
    return Number.isInteger(file.format) && file.format > VIEWER_FORMAT ? "replay_too_new" : "replay_damaged";
  }
  if (!file.steps.length || !GAMES.some((game) => game.key === file.game)) return "replay_damaged";
  if (file.players !== undefined && !Array.isArray(file.players)) return "replay_damaged";
  const cat = (p) => isObject(p) && typeof p.name === "string";
  const step = (s) => isObject(s) && isObject(s.view) && typeof s.view.phase === "string"
    && Array.isArray(s.view.players) && s.view.players.every(cat);
  return file.steps.every(step) ? null : "replay_damaged";
}

function go(at) {
  if (!viewer.file) return;
  viewer.at = Math.max(0, Math.min(viewer.file.steps.length - 1, at));
  render();
}

// The step's view as the table screen has it: no player's own ("me" is null), no running
// countdown, and no list of whom the step waits for (a phone's, with its ↻ to bring it up
// to date: here every step is as it opened).
function shownView(file, index) {
  return { ...file.steps[index].view, deadline: null, you: null, me: null, waiting: null };
}

// Every role the end reveals, told on step `v` (the game's end, the last step, reveals them).
function revealed(file, v) {
  return gameOf(file).revealedRoles(file.steps[file.steps.length - 1].view, v);
}

// What happened since the step before: a sentence per public fact, or that nothing did.
function news(file, v) {
  const previous = viewer.at ? file.steps[viewer.at - 1].view : null;
  const lines = gameOf(file).newsSince(previous, v);
  return h("section", { class: "replay-news", "aria-label": t("replay_news") },
    h("h2", {}, t("replay_news")),
    lines.length ? h("ul", {}, ...lines.map((line) => h("li", {}, line))) : h("p", { class: "muted" }, t("replay_news_none")));
}

function controls(file) {
  const last = file.steps.length - 1;
  return h("nav", { class: "replay-controls", "aria-label": t("replay_controls") },
    h("div", { class: "buttons" },
    h("button", { id: "replay-first", onclick: () => go(0), disabled: viewer.at === 0, "aria-label": t("replay_first") }, "⏮"),
    h("button", { id: "replay-back", onclick: () => go(viewer.at - 1), disabled: viewer.at === 0, "aria-label": t("replay_back") }, "◀"),
    h("span", { id: "replay-position", class: "position" }, t("replay_step", { n: viewer.at + 1, of: last + 1 })),
    h("button", { id: "replay-next", onclick: () => go(viewer.at + 1), disabled: viewer.at === last, "aria-label": t("replay_next") }, "▶"),
    h("button", { id: "replay-last", onclick: () => go(last), disabled: viewer.at === last, "aria-label": t("replay_last") }, "⏭")),
    h("input", { type: "range", min: 0, max: last, value: viewer.at, "aria-label": t("replay_position"),
      oninput: (e) => go(Number(e.target.value)) }),
    h("label", { class: "toggle" }, h("input", { type: "checkbox", id: "replay-roles", checked: viewer.showRoles,
      onchange: (e) => { viewer.showRoles = e.target.checked; render(); } }), " ", t("replay_show_roles")));
}

function opener() {
  return h("label", { class: "replay-open" }, t("replay_open"), " ",
    h("input", { type: "file", id: "replay-file", accept: "application/json,.json", onchange: async (e) => {
      const chosen = e.target.files && e.target.files[0];
      if (!chosen) return;
      open(await chosen.text());
      render();
    } }));
}

function render() {
  if (viewer.file) {
    try {
      showStep(viewer.file);
      return;
    } catch (failure) {
      // A view the shape check let through that the game's screens cannot draw: the file
      // is refused like any other unreadable one, never a blank page.
      console.warn("replay: a step could not be drawn", failure);
      refuse("replay_damaged");
    }
  }
  const parts = [h("h1", {}, t("replay_title"))];
  if (viewer.problem) parts.push(h("p", { class: "error", role: "alert" }, viewer.problem));
  parts.push(h("p", {}, t("replay_intro")), opener());
  replaceIfChanged(screen, parts, { force: true });
  delete screen.dataset.phase;
  clear(statusBar);
}

// The file's game (problemOf checked it is one of GAMES).
const gameOf = (file) => GAMES.find((g) => g.key === file.game);

function showStep(file) {
  const game = gameOf(file);
  const v = shownView(file, viewer.at);
  const parts = [h("h1", {}, t("replay_title")), controls(file), news(file, v)];
  const known = viewer.showRoles ? revealed(file, v) : [];
  if (known.length) {
    parts.push(h("ul", { class: "replay-roles" }, ...known.map(([name, words]) => h("li", {}, h("strong", {}, name), ` ${words}`))));
  }
  // As the table screen draws the step (js/table.js); the end as the game's end screen,
  // whose story a replay is watched for.
  const table = !game.isOver(v) && game.tableScreen ? game.tableScreen(v, ctx) : null;
  parts.push(...(table || game.render(v, ctx)));
  const own = game.strip ? game.strip(v, ctx) : null;
  const facts = own ? own.facts.filter(Boolean) : [];
  const cats = own ? own.cats : strip.genericCats(v);
  parts.push(opener());
  replaceIfChanged(screen, parts, { force: true });
  screen.dataset.phase = v.phase;
  replaceIfChanged(statusBar, [h("div", { class: "facts" }, ...facts),
    h("div", { class: "cats-row" }, h("ul", { class: "cats", "aria-label": t("strip_cats") }, ...cats))]);
}

main();
