// Burn the Witch's settings (engine/burn_the_witch/state.py Settings): timers on the accuse,
// vote and execute steps and their length (§6), and the first accuser: a seated player or
// drawn at random (§2). On the create form, the host's editor in the lobby, everyone
// else's summary.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { sendSettings, settingsShown, withinBounds } from "../../lobby_settings.js";

// The lengths offered, within the bounds the lobby view gives (`setting_bounds.timer_seconds`).
const TIMER_CHOICES = [30, 60, 90, 120, 180, 240, 300, 600];

export function defaultSettings() {
  return { timers: false, timer_seconds: 120, first_accuser: null };
}

// `onChange` gets the changed field alone: the caller knows what it builds on. `bounds`: the
// lobby view's `setting_bounds` (none on the create form).
function timerFields(settings, onChange, bounds = {}) {
  const on = h("input", { type: "checkbox", id: "btw-timers", checked: settings.timers,
    onchange: () => onChange({ timers: on.checked }) });
  const length = h("select", { id: "btw-timer-seconds", disabled: !settings.timers,
    onchange: () => onChange({ timer_seconds: Number(length.value) }) },
  ...withinBounds(TIMER_CHOICES, bounds.timer_seconds).map((n) => h("option", { value: n, selected: n === settings.timer_seconds }, t("seconds", { n }))));
  return [h("label", { for: "btw-timers", class: "check" }, on, " ", t("btw_timers")),
    h("label", { for: "btw-timer-seconds" }, t("btw_timer_seconds")), length];
}

// The first accuser is picked in the lobby, once the table is known.
export function createFields(settings, onChange) {
  return [...timerFields(settings, (changed) => onChange({ ...settings, ...changed })),
    h("p", { class: "muted" }, t("btw_first_accuser_in_lobby"))];
}

// The host's editor: each change sent at once, one at a time (lobby_settings.js).
export function lobbySettings(v, ctx) {
  const settings = { ...defaultSettings(), ...settingsShown(v) };
  // A tap lands on what was tapped up to then (taps don't redraw until a view comes back).
  const save = (changed) => sendSettings(ctx, v.game, { ...defaultSettings(), ...settingsShown(v), ...changed });
  const first = h("select", { id: "btw-first-accuser",
    onchange: () => save({ first_accuser: first.value || null }) },
  h("option", { value: "", selected: !settings.first_accuser }, `🎲 ${t("btw_first_accuser_random")}`),
  ...v.seats.map((s) => h("option", { value: s.name, selected: s.name === settings.first_accuser }, s.name)));
  return h("div", { class: "panel" }, h("h2", {}, t("settings")),
    ...timerFields(settings, save, v.setting_bounds),
    h("label", { for: "btw-first-accuser" }, t("btw_first_accuser")), first,
    setupLine(v));
}

export function settingsSummary(v) {
  const s = { ...defaultSettings(), ...v.settings };
  return h("div", { class: "panel" }, h("h2", {}, t("settings")),
    h("p", {}, `⏱ ${t("btw_timers")}: ${s.timers ? t("seconds", { n: s.timer_seconds }) : t("limit_off")}`),
    h("p", {}, `${t("btw_first_accuser")}: ${s.first_accuser || `🎲 ${t("btw_first_accuser_random")}`}`),
    setupLine(v));
}

// What the table deals for the players seated (the lobby view's `setup`, §2).
function setupLine(v) {
  const row = v.setup;
  if (!row) return null;
  return h("p", { class: "muted" }, t("btw_setup_line", { per_house: row.per_house, innocents: row.innocents,
    devout: row.devout, witches: row.witches, wrongly_condemned: row.wrongly_condemned }));
}
