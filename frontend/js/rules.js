// rules.html (a module of its own: the site's Content-Security-Policy runs no inline
// script). One page, one fragment per game and language: ?game=… (a game's key; none or an
// unknown one: Catch the Witch) and ?lang=…, else the language the game uses on this
// phone. Catch the Witch's fragments stay where they always were (rules/<code>.html).
import { LANGUAGES, detectLanguage } from "./i18n.js";
const RULES_FOLDERS = { catch_the_witch: "rules", burn_the_witch: "rules/burn_the_witch" };
const params = new URLSearchParams(location.search);
const wanted = params.get("lang");
const code = LANGUAGES[wanted] ? wanted : detectLanguage();
const game = Object.hasOwn(RULES_FOLDERS, params.get("game")) ? params.get("game") : "catch_the_witch";
document.documentElement.lang = code;
const main = document.querySelector("main");
main.innerHTML = await fetch(`${RULES_FOLDERS[game]}/${code}.html`).then((r) => r.text()); // our own files
// Rows every language shares (a game's numbers, one copy) go under each table's own
// header row: <table data-rows="rules/…html">, a path like the fragment's.
for (const table of main.querySelectorAll("table[data-rows]")) {
  table.insertAdjacentHTML("beforeend", await fetch(table.dataset.rows).then((r) => r.text()));
}
document.title = main.querySelector("h1").textContent;
const nav = document.querySelector("nav");
for (const [other, name] of Object.entries(LANGUAGES)) {
  const href = `?lang=${other}&game=${game}`;
  const link = Object.assign(document.createElement("a"), { href, textContent: name, lang: other });
  if (other === code) link.setAttribute("aria-current", "page");
  nav.append(link, " ");
}
