// Catch the Witch's settings: on the create form, the host's editor in the lobby, and the
// summary everyone else reads there.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { ICONS } from "./icons.js";
import { label } from "./common.js";
import { sendSettings, settingsShown, withinBounds } from "../../lobby_settings.js";

// The choices offered, within the bounds the lobby view gives (`setting_bounds`).
const LIMITS = [null, 30, 60, 90, 120, 180, 240, 300];
const ROLES = Object.keys(ICONS.role); // display order of the role editor
const BOT_LEVELS = ["sharp", "gentle"]; // gentle bots: a table to learn at

export function defaultSettings() {
  return { discussion_limit: 120, roles: null, reveal_role_on_exile: false, bot_level: "sharp" };
}

// The discussion limit, the bots' level and the reveal option. `onChange` gets the changed
// field alone ({bot_level: "gentle"}): the caller knows what it builds on. `bounds`: the
// lobby view's `setting_bounds` (none on the create form).
function settingsFields(settings, onChange, bounds = {}) {
  const limit = h("select", { id: "limit", onchange: () => onChange({ discussion_limit: limit.value ? Number(limit.value) : null }) },
    ...withinBounds(LIMITS, bounds.discussion_limit).map((n) => h("option", { value: n ?? "", selected: n === settings.discussion_limit }, n ? t("seconds", { n }) : t("limit_off"))));
  const reveal = h("input", { type: "checkbox", id: "reveal", checked: settings.reveal_role_on_exile,
    onchange: () => onChange({ reveal_role_on_exile: reveal.checked }) });
  const level = h("select", { id: "bot-level", onchange: () => onChange({ bot_level: level.value }) },
    ...withinBounds(BOT_LEVELS, bounds.bot_level).map((l) => h("option", { value: l, selected: l === (settings.bot_level || "sharp") }, t(`bot_level_${l}`))));
  return [h("label", { for: "limit" }, t("discussion_limit")), limit,
    h("label", { for: "bot-level" }, t("bot_level")), level,
    h("label", { for: "reveal" }, reveal, " ", t("reveal_role_on_exile"))];
}

// The create form's part: the role set is chosen in the lobby, once the table is known.
export function createFields(settings, onChange) {
  return [...settingsFields(settings, (changed) => onChange({ ...settings, ...changed })),
    h("p", { class: "muted" }, t("roles_in_lobby"))];
}

// The host's lobby settings: every change is sent at once (one at a time: lobby_settings.js), and the
// server's answer (the lobby view's start_problem) validates a custom role set live.
export function lobbySettings(v, ctx) {
  const settings = settingsShown(v); // the ones last tapped, not a view's that predates them
  const roles = settings.roles;
  // A tap lands on what was tapped up to then (taps don't redraw until a view comes back).
  const save = (changed) => sendSettings(ctx, v.game, { ...settingsShown(v), ...changed });
  const counts = Object.fromEntries(ROLES.map((r) => [r, (roles || []).filter((x) => x === r).length]));
  const setCount = (role, by) => {
    counts[role] = Math.max(0, counts[role] + by);
    save({ roles: ROLES.flatMap((r) => Array(counts[r]).fill(r)) });
  };
  const mode = (custom) => h("button", { class: custom === Boolean(roles) ? "" : "secondary", "aria-pressed": String(custom === Boolean(roles)),
    disabled: custom && !v.default_roles && !roles,
    onclick: () => save({ roles: custom ? (roles || v.default_roles) : null }) },
  t(custom ? "roles_custom" : "roles_default"));
  const editor = roles ? h("ul", { class: "roles" }, ...ROLES.map((role) => h("li", {},
    h("span", { class: "name" }, label("role", role)),
    h("button", { class: "secondary", "aria-label": t("remove_role", { role: t("role_" + role) }), disabled: counts[role] === 0,
      onclick: () => setCount(role, -1) }, "−"),
    h("output", { "aria-label": t("role_" + role) }, String(counts[role])),
    h("button", { class: "secondary", "aria-label": t("add_role", { role: t("role_" + role) }), onclick: () => setCount(role, 1) }, "+"))))
    : h("p", { class: "muted" }, (v.default_roles || []).map((r) => label("role", r)).join(" · ") || "—");
  return h("div", { class: "panel" }, h("h2", {}, t("settings")),
    ...settingsFields(settings, save, v.setting_bounds),
    h("h3", {}, t("role_set")), h("div", { class: "row", role: "group", "aria-label": t("role_set") }, mode(false), mode(true)),
    editor,
    roles ? h("p", { class: "muted" }, t("roles_count", { n: roles.length, cats: v.seats.length })) : null);
}

export function settingsSummary(v) {
  const s = v.settings;
  const roles = s.roles || v.default_roles || [];
  return h("div", { class: "panel" }, h("h2", {}, t("settings")),
    h("p", {}, `${t("discussion_limit")}: ${s.discussion_limit ? t("seconds", { n: s.discussion_limit }) : t("limit_off")}`),
    h("p", {}, `${t("bot_level")}: ${t(`bot_level_${s.bot_level || "sharp"}`)}`),
    s.reveal_role_on_exile ? h("p", {}, t("reveal_role_on_exile")) : null,
    h("p", {}, `${t("role_set")} (${t(s.roles ? "roles_custom" : "roles_default")}): `, roles.map((r) => label("role", r)).join(" · ") || "—"));
}
