// Strings live in one JSON file per language (frontend/i18n/<code>.json, same keys).
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

async function fetchStrings(code) {
  // Relative to this module, not the page: deployed, the assets live under v/<version>/.
  const response = await fetch(new URL(`../i18n/${code}.json`, import.meta.url));
  if (!response.ok) throw new Error(`no strings for ${code}`);
  return response.json();
}

export async function loadLanguage(code = detectLanguage()) {
  if (!Object.keys(fallback).length) fallback = await fetchStrings("en");
  try {
    strings = code === "en" ? fallback : await fetchStrings(code);
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
