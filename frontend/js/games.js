// The games this client plays: one table, in the order the create form offers them.
// A game is a folder frontend/js/games/<key>/ whose index.js exports the interface in
// docs/client.md ("Adding a game to the client"); adding one is a line here.
import * as catchTheWitch from "./games/catch_the_witch/index.js";
import * as burnTheWitch from "./games/burn_the_witch/index.js";

export const GAMES = [catchTheWitch, burnTheWitch];
export const DEFAULT_GAME = "catch_the_witch"; // the server's default too (create_room)

// The game module a view is of. A lobby view from a server older than its `game` field is
// Catch the Witch's; null: a game this page does not know (a newer server: reload).
export function gameOf(view) {
  const key = (view && view.game) || DEFAULT_GAME;
  return GAMES.find((game) => game.key === key) || null;
}

export function gameByKey(key) {
  return GAMES.find((game) => game.key === key) || GAMES[0];
}
