// Catch the Witch's chips on the table strip (js/strip.js builds them): a cat's form, the
// Chief's crown, Away and offline, and the cats counted by form when the chips fold away.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { chip } from "../../strip.js";

// A cat's forms, each with its icon (its word: `form_<form>`), and the marks a chip shows,
// in order: [icon, the word that names it (null: the form's, already in the chip's name),
// shown(cat)]. `lead` (the Chief) is marked only on a cat in human form.
export const FORM_ICONS = { human: "🐈", frog: "🐸", exiled: "🚪" };
const CAT_MARKS = [
  ["👑", "strip_chief", (cat) => cat.lead && cat.state === "human"],
  [FORM_ICONS.frog, null, (cat) => cat.state === "frog"],
  [FORM_ICONS.exiled, null, (cat) => cat.state === "exiled"],
  ["💤", "away", (cat) => cat.away],
  ["📵", "offline", (cat) => cat.offline],
];

// One chip per cat: {name, state: "human" | "frog" | "exiled", away, offline, lead, you}.
export function catChips(cats) {
  return cats.map((cat) => chip({ name: cat.name, state: cat.state, offline: cat.offline, you: cat.you,
    words: [t("form_" + cat.state)],
    marks: CAT_MARKS.map(([icon, word, shown]) => [shown(cat), icon, word && t(word)]) }));
}

// How many cats are in each form, under "The cats": "🐈6 🐸3 🚪3" (a form no cat is in is
// left out). What the chips say, in one short item of the row, when they are folded away.
export function formsItem(cats) {
  const counts = Object.entries(FORM_ICONS).map(([form, icon]) => [form, icon, cats.filter((cat) => cat.state === form).length])
    .filter(([form, , n]) => form === "human" || n);
  return h("span", { class: "fact stacked forms", role: "img",
    "aria-label": `${t("strip_cats")}: ${counts.map(([form, , n]) => `${t("form_" + form)} ${n}`).join(", ")}` },
  h("span", { class: "label", "aria-hidden": "true" }, t("strip_cats")),
  h("span", { class: "value", "aria-hidden": "true" }, counts.map(([, icon, n]) => `${icon}${n}`).join(" ")));
}

// The chips' marks with their words, for the strip's key.
export function catMarkWords() {
  return [...Object.entries(FORM_ICONS).map(([form, icon]) => [icon, t("form_" + form)]),
    ...CAT_MARKS.filter(([, word]) => word).map(([icon, word]) => [icon, t(word)])];
}
