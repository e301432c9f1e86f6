// rules.html (a module of its own: the site's Content-Security-Policy runs no inline
// script). One page, one fragment per game and language, in the game's folder (js/games.js
// rulesPage): ?game=… (a game's key; none or an unknown one: the default game) and ?lang=…,
// else the language the game uses on this phone.
import { LANGUAGES, detectLanguage } from "./i18n.js";
import { gameByKey, rulesPage } from "./games.js";
const params = new URLSearchParams(location.search);
const wanted = params.get("lang");
const code = LANGUAGES[wanted] ? wanted : detectLanguage();
const game = gameByKey(params.get("game"));
document.documentElement.lang = code;
const main = document.querySelector("main");
const page = new URL(rulesPage(game, code), location.href);
main.innerHTML = await fetch(page).then((r) => r.text()); // our own files
// Rows every language shares (a game's numbers, one copy) go under each table's own
// header row: <table data-rows="setup.html">, a path relative to the fragment.
for (const table of main.querySelectorAll("table[data-rows]")) {
  table.insertAdjacentHTML("beforeend", await fetch(new URL(table.dataset.rows, page)).then((r) => r.text()));
}
document.title = main.querySelector("h1").textContent;
const nav = document.querySelector("nav");
for (const [other, name] of Object.entries(LANGUAGES)) {
  const href = `?lang=${other}&game=${game.key}`;
  const link = Object.assign(document.createElement("a"), { href, textContent: name, lang: other });
  if (other === code) link.setAttribute("aria-current", "page");
  nav.append(link, " ");
}
