// Strings live in one JSON file per language: the shell's (frontend/i18n/<code>.json) and
// each game's own (its folder's i18n/<code>.json, added by the registry, js/games.js), read
// together as one table (every language has the same keys: tests/e2e/test_frontend_strings.py).
import { KEYS } from "./storage.js";

export const LANGUAGES = { en: "English", "zh-Hant": "繁體中文", uk: "Українська", th: "ไทย" };
const STORAGE = KEYS.lang;
let strings = {};
let fallback = {};
let language = "en";

export function detectLanguage() {
  const stored = localStorage.getItem(STORAGE);
  if (stored && LANGUAGES[stored]) return stored;
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const lower = wanted.toLowerCase();
    if (lower.startsWith("zh")) return "zh-Hant";
    if (lower.startsWith("uk")) return "uk";
    if (lower.startsWith("th")) return "th";
    if (lower.startsWith("en")) return "en";
  }
  return "en";
}

// Where a language's strings are: code → the address of one JSON file, the shell's first.
// Relative to this module, not the page: deployed, the assets live under v/<version>/.
const sources = [(code) => new URL(`../i18n/${code}.json`, import.meta.url)];

// More strings for every language, read with the shell's (a game's own: js/games.js) from
// the next loadLanguage on.
export function addStrings(source) {
  sources.push(source);
  fallback = {}; // English again too, with them
}

// Every source's file of the language at once (on a slow network each round trip is the
// first view later), merged.
async function fetchStrings(code) {
  const parts = await Promise.all(sources.map(async (source) => {
    const response = await fetch(source(code));
    if (!response.ok) throw new Error(`no strings for ${code}`);
    return response.json();
  }));
  return Object.assign({}, ...parts);
}

export async function loadLanguage(code = detectLanguage()) {
  // English (the fallback of a missing string) and the language, fetched together.
  const english = Object.keys(fallback).length ? null : fetchStrings("en");
  const wanted = code === "en" ? null : fetchStrings(code);
  if (wanted) wanted.catch(() => {}); // its failure is met below (not unhandled meanwhile)
  if (english) fallback = await english;
  try {
    strings = wanted ? await wanted : fallback;
    language = code;
    localStorage.setItem(STORAGE, language);
  } catch {
    // English for now, but not remembered: a reload right after choosing aborts the fetch,
    // and that must not overwrite the player's choice.
    strings = fallback;
    language = "en";
  }
  document.documentElement.lang = language;
}

// The player's own choice: remembered at once (a reload right after still honours it).
export async function chooseLanguage(code) {
  localStorage.setItem(STORAGE, code);
  await loadLanguage(code);
}

export function currentLanguage() {
  return language;
}

// Whether a key has a string (in this language or English): error codes without one fall
// back to a general sentence (app.js errorText).
export function hasString(key) {
  return key in strings || key in fallback;
}

export function t(key, params = {}) {
  const text = strings[key] ?? fallback[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? params[name] : `{${name}}`));
}
