// The replay viewer (replay.html, issue 15): a finished game's replay file (docs/replay.md,
// "A game played in a room") played back step by step in the browser, as the table saw
// it: each step's public table view (the file's `steps`), drawn by the game's own screens
// as a phone that watches sees them. Roles stay hidden until the last step unless
// "Show roles" is on; then each cat's role is shown and the step's moves are listed.
// The file comes from the phone's game tab ("Watch the replay" opens this page in a new
// tab, so the game's tab keeps its seat, and leaves the file in localStorage when it has
// come) or from a file the player opens here.
import { h, clear, replaceIfChanged } from "./dom.js";
import { KEYS } from "./storage.js";
import { loadLanguage, t, hasString } from "./i18n.js";
import { gameByKey } from "./games.js";
import * as strip from "./strip.js";

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
  await loadLanguage();
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
  try {
    const file = JSON.parse(text);
    if (!Array.isArray(file.steps) || !file.steps.length) throw new Error("no steps");
    viewer.file = file;
    viewer.at = 0;
    viewer.problem = null;
  } catch {
    viewer.problem = t("replay_unreadable");
  }
}

function go(at) {
  if (!viewer.file) return;
  viewer.at = Math.max(0, Math.min(viewer.file.steps.length - 1, at));
  render();
}

// A role's name in the player's language (Catch the Witch's roles, Burn the Witch's identities).
function roleName(role) {
  for (const key of [`role_${role}`, `identity_${role}`]) if (hasString(key)) return t(key);
  return role;
}

// Every cat's role, from the last step (the game's end reveals them all).
function roles(file) {
  const last = file.steps[file.steps.length - 1].view;
  return Object.fromEntries((last.players || []).filter((p) => p.role).map((p) => [p.name, p.role]));
}

// The step's view as the game's screens draw it: no player's own ("me" is null), no
// running countdown, and the roles in when they are shown.
function shownView(file, index) {
  const view = file.steps[index].view;
  const known = viewer.showRoles ? roles(file) : {};
  return {
    ...view, deadline: null, you: null, me: null,
    players: (view.players || []).map((p) => (known[p.name] && !p.role ? { ...p, role: known[p.name] } : p)),
  };
}

// The moves made during step `index` (shown with the roles: they hold every secret but
// what the game never shows, `neverShown`: a ritual's cards, a ballot).
function movesOf(file, index, game) {
  const from = file.steps[index].at;
  const to = index + 1 < file.steps.length ? file.steps[index + 1].at : file.actions.length;
  const start = file.started_at || 0;
  const known = roles(file);
  return file.actions.slice(from, to).map((a) => {
    const { type, player, t: at, ...all } = a;
    const hidden = (game.neverShown || {})[type] || [];
    const fields = Object.fromEntries(Object.entries(all).filter(([k]) => !hidden.includes(k)));
    const when = at !== undefined ? `${Math.floor((at - start) / 60)}:${String(Math.floor((at - start) % 60)).padStart(2, "0")}` : "";
    const who = player ? `${player}${known[player] ? ` (${roleName(known[player])})` : ""}` : "—";
    // The move as the file has it (the engine's names), made readable: "witch spell · spell: frog".
    const what = Object.entries(fields).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(", ") : v ?? "–"}`);
    return h("li", {}, h("span", { class: "muted" }, when), " ", h("strong", {}, who), " ",
      [type.replace(/_/g, " "), ...what].join(" · "));
  });
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
  const file = viewer.file;
  const parts = [h("h1", {}, t("replay_title"))];
  if (viewer.problem) parts.push(h("p", { class: "error", role: "alert" }, viewer.problem));
  if (!file) {
    parts.push(h("p", {}, t("replay_intro")), opener());
    replaceIfChanged(screen, parts);
    clear(statusBar);
    return;
  }
  const game = gameByKey(file.game);
  const v = shownView(file, viewer.at);
  parts.push(controls(file));
  const known = roles(file);
  if (viewer.showRoles && Object.keys(known).length) {
    parts.push(h("ul", { class: "replay-roles" },
      ...Object.entries(known).map(([name, role]) => h("li", {}, h("strong", {}, name), ` ${roleName(role)}`))));
  }
  parts.push(...game.render(v, ctx));
  if (viewer.showRoles) {
    const moves = movesOf(file, viewer.at, game);
    if (moves.length) parts.push(h("h2", {}, t("replay_moves")), h("ol", { class: "panel replay-moves" }, ...moves));
  }
  parts.push(opener());
  replaceIfChanged(screen, parts, { force: true });
  screen.dataset.phase = v.phase;
  const own = game.strip ? game.strip(v, ctx) : null;
  const facts = own ? own.facts.filter(Boolean) : [];
  const cats = own ? own.cats : strip.genericCats(v);
  replaceIfChanged(statusBar, [h("div", { class: "facts" }, ...facts),
    h("div", { class: "cats-row" }, h("ul", { class: "cats", "aria-label": t("strip_cats") }, ...cats))]);
}

main();
