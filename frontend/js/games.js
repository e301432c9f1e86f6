// The games this client plays: one table, in the order the create form offers them, and the
// one file of the shell that names them. A game is a folder frontend/js/games/<key>/: its
// index.js exports the interface in docs/client.md ("Adding a game to the client"), and
// beside it are its stylesheet (style.css), its strings (i18n/<lang>.json) and its rules
// (rules/<lang>.html). Adding one is its import here (and its other modules' below).
import * as catchTheWitch from "./games/catch_the_witch/index.js";
import * as burnTheWitch from "./games/burn_the_witch/index.js";
import { addStrings, loadLanguage, currentLanguage } from "./i18n.js";
// Every other module of each game, named here too so that a page asks for them all as soon
// as it reads this file (the home page preloads it), not one import level after another, a
// round trip each on a slow network (bench/first_view.py). Kept equal to each game's imports
// by tests/e2e/test_frontend_modules.py.
import "./games/catch_the_witch/chips.js";
import "./games/catch_the_witch/common.js";
import "./games/catch_the_witch/cover.js";
import "./games/catch_the_witch/day.js";
import "./games/catch_the_witch/end.js";
import "./games/catch_the_witch/icons.js";
import "./games/catch_the_witch/morning.js";
import "./games/catch_the_witch/secrets.js";
import "./games/catch_the_witch/settings.js";
import "./games/catch_the_witch/table_screens.js";
import "./games/burn_the_witch/common.js";
import "./games/burn_the_witch/house.js";
import "./games/burn_the_witch/icons.js";
import "./games/burn_the_witch/screens.js";
import "./games/burn_the_witch/settings.js";
import "./games/burn_the_witch/table_screen.js";

export const GAMES = [catchTheWitch, burnTheWitch];
export const DEFAULT_GAME = "catch_the_witch"; // the server's default too (create_room)

// A game's folder, relative to this module (deployed, the assets live under v/<version>/).
const folderOf = (game) => new URL(`./games/${game.key}/`, import.meta.url);

// A game's strings are read with the shell's (the home screen names every game) and its
// stylesheet is linked on every page that draws games (a sheet per game: the CSP allows only
// the site's own files, no style written in the page).
function plugIn(game) {
  addStrings((language) => new URL(`i18n/${language}.json`, folderOf(game)));
  document.head.append(Object.assign(document.createElement("link"), { rel: "stylesheet", href: new URL("style.css", folderOf(game)).href }));
}
GAMES.forEach(plugIn);

// The games a server hosts beyond those above (config.json's `games`: a test's stack may
// host one that is never shipped), each loaded from its folder by its key and plugged in
// as the others are, its strings read in the page's language.
export async function addHostedGames(keys = []) {
  const more = keys.filter((key) => /^[a-z_]+$/.test(key) && !GAMES.some((game) => game.key === key));
  if (!more.length) return;
  const added = await Promise.all(more.map((key) => import(`./games/${key}/index.js`)));
  added.forEach(plugIn);
  GAMES.push(...added);
  await loadLanguage(currentLanguage());
}

// The game module a view is of. A lobby view from a server older than its `game` field is
// the default game's; null: a game this page does not know (a newer server: reload).
export function gameOf(view) {
  const key = (view && view.game) || DEFAULT_GAME;
  return GAMES.find((game) => game.key === key) || null;
}

// The game of `key`; none or an unknown one: the default game.
export function gameByKey(key) {
  return GAMES.find((game) => game.key === key) || GAMES.find((game) => game.key === DEFAULT_GAME);
}

// The page of a game's rules in a language, relative to the page (rules.html): the rules
// are pages, published at their own address (not under v/<version>/: deploy/frontend.py).
export function rulesPage(game, language) {
  return `js/games/${game.key}/rules/${language}.html`;
}
