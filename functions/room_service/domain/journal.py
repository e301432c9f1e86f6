"""The game's journal: every turn a room's game takes, written down as it is taken, so a
finished game can be played again to the same end (``replay_file``: ``python -m
engine.replay`` plays it) and shown, step by step, as its table saw it (``viewer_file``:
what a phone downloads; docs/replay.md "A game played in a room").

Every call into a room's game goes through ``Room.rules``, which is the game wrapped in a
``JournaledGame``: each turn that changes the state (a new deal and its start, a move, a
time-out, a departure, a new host) is appended to the room's ``journal``, with the time
the game was given. The store writes the journal of each room write beside that write,
on the item of the step the room was loaded at (``RoomStore.save``), so no turn costs a
write of its own and the room item does not grow with the game."""

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from pydantic import BaseModel

from engine.command_lines import SCENARIO_FORMAT, VIEWER_KIND
from engine.effects import Effect
from engine.game import Game
from engine.games import game_of
from engine.replaying import LEAVE, SET_HOST, TIMEOUT, played

#: The entry that opens a game in the journal: the deal (players in seat order, seed,
#: host, settings). The replay file's header is made from it.
NEW_GAME = "new_game"
#: How a stored journal (``stored_journal``) that opens a game reads: a store may stop
#: reading older steps once it has seen it.
NEW_GAME_MARK = f'"type":"{NEW_GAME}"'
#: The game's start (its time is the replay's 0 s).
START = "start"


class JournaledGame:
    """``game``, appending each turn it takes to ``journal``. A turn the game refuses (it
    raises) is not written. Everything else is the game's own (``__getattr__``)."""

    def __init__(self, game: Game, journal: list[dict[str, Any]]) -> None:
        self._game = game
        self._journal = journal

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def new_game(self, players: Sequence[str], settings: BaseModel, seed: int,
                 host: str) -> BaseModel:  # fmt: skip
        state = self._game.new_game(players, settings, seed, host)
        self._journal.append({
            "type": NEW_GAME, "game": self._game.key, "players": list(players), "seed": seed,
            "host": host, "settings": settings.model_dump(mode="json"),
        })  # fmt: skip
        return state

    def start(self, state: BaseModel, now: float) -> tuple[BaseModel, list[Effect]]:
        result = self._game.start(state, now)
        self._journal.append({"type": START, "t": now})
        return result

    def apply(self, state: BaseModel, action: BaseModel | dict[str, Any],
              now: float) -> tuple[BaseModel, list[Effect]]:  # fmt: skip
        result = self._game.apply(state, action, now)
        made = action if isinstance(action, dict) else action.model_dump(mode="json")
        self._journal.append({**made, "t": now})
        return result

    def time_out(self, state: BaseModel, now: float) -> tuple[BaseModel, list[Effect]]:
        result = self._game.time_out(state, now)
        self._journal.append({"type": TIMEOUT, "t": now})
        return result

    def leave(self, state: BaseModel, player: str, now: float) -> tuple[BaseModel, list[Effect]]:
        result = self._game.leave(state, player, now)
        self._journal.append({"type": LEAVE, "player": player, "t": now})
        return result

    def set_host(self, state: BaseModel, player: str) -> BaseModel:
        result = self._game.set_host(state, player)
        self._journal.append({"type": SET_HOST, "player": player})
        return result


def stored_journal(entries: list[dict[str, Any]]) -> str:
    """One room write's turns as stored: compact JSON. Times are kept exactly (a float's
    shortest repr), so a replay gives the game the times it had."""
    return json.dumps(entries, separators=(",", ":"))


def loaded_journal(texts: Iterable[str]) -> list[dict[str, Any]]:
    """The turns of stored journals (``stored_journal``), in the order given."""
    return [entry for text in texts for entry in json.loads(text)]


def last_game(entries: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """The entries of the last game in ``entries`` (oldest first), from its ``new_game``
    on; None if no game opens in them."""
    opening = next((i for i in range(len(entries) - 1, -1, -1)
                    if entries[i].get("type") == NEW_GAME), None)  # fmt: skip
    return None if opening is None else entries[opening:]


#: What a phone downloads (``viewer_file``) says what it is: ``"kind": VIEWER_KIND`` (the
#: engine's, whose command line refuses such a file in words), and its own format
#: (docs/replay.md), apart from the scenario files' ``SCENARIO_FORMAT``.
VIEWER_FORMAT = 1


def replay_file(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The scenario file (docs/replay.md) of one game's journal (``last_game``), which
    ``python -m engine.replay`` plays to the same end: its deal (the game's key
    included), the time it started and every turn with the time the game was given
    (seconds since the epoch, as played: the same times give the same deadlines, so the
    same game), but only the final choice where a player changed one (``final_choices``).
    It holds every secret of the game: the server and its tests use it, no phone gets it
    (``viewer_file``). ReplayError if the journal does not play (a step's items gone with
    their TTL)."""
    deal, rest = entries[0], entries[1:]
    started = next((e["t"] for e in rest if e.get("type") == START), None)
    file = {
        "format": SCENARIO_FORMAT, "game": deal["game"], "players": deal["players"],
        "seed": deal["seed"], "host": deal["host"], "settings": deal["settings"],
        "started_at": started, "actions": [e for e in rest if e.get("type") != START],
    }  # fmt: skip
    file["actions"] = final_choices(game_of(file["game"]), file)
    return file


def viewer_file(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """What a phone downloads of one game's journal: the game as its table saw
    it, which reveals what the game's end screen reveals and nothing more. ``steps``: the
    public table view as each step opened (``table_steps``), the last being the end
    screen's. No move, no key, no ballot, no ritual card: a viewer's file cannot be played
    again (the journal can: ``replay_file``). ReplayError as ``replay_file``."""
    file = replay_file(entries)
    return {
        "kind": VIEWER_KIND, "format": VIEWER_FORMAT, "game": file["game"],
        "players": file["players"], "started_at": file["started_at"],
        "steps": table_steps(game_of(file["game"]), file),
    }  # fmt: skip


def _played(game: Game, file: dict[str, Any]) -> Iterator[tuple[int, Any, Any]]:
    """Each action of ``file`` played: its index, the state before it and after it."""
    first = game.new_game(file["players"], game.parse_settings(file["settings"]), file["seed"],
                          file["host"])  # fmt: skip
    before = game.start(first, file["started_at"] or 0.0)[0]
    yield -1, None, before
    for index, _, after, _ in played(game, before, file["actions"], file["started_at"] or 0.0):
        yield index, before, after
        before = after


def final_choices(game: Game, file: dict[str, Any]) -> list[dict[str, Any]]:
    """The file's actions without a choice its player replaced in the same step (a yes/no
    vote changed before everyone voted, a place chosen again): RULES §3.6, only the final
    vote is kept anywhere, replays too. The journal has the earlier one when a room write
    (another seat's reconnect, a hand-over…) took it in before it was changed; leaving it
    out changes nothing the game decides, since a replacing move only overwrites."""
    actions = file["actions"]
    step_of = {index: game.step(before) for index, before, _ in _played(game, file) if index >= 0}
    latest: dict[tuple, int] = {}
    for index, action in enumerate(actions):
        if action.get("type") in game.replacing_moves:
            latest[(step_of[index], action.get("player"), action["type"])] = index
    return [action for index, action in enumerate(actions)
            if action.get("type") not in game.replacing_moves
            or latest[(step_of[index], action.get("player"), action["type"])] == index]  # fmt: skip


def table_steps(game: Game, file: dict[str, Any]) -> list[dict[str, Any]]:
    """The public table view (``Game.table_view``: what a shared screen shows) as each step
    of the file's game opened, ``{"view": ...}``: the viewer steps through these. The game
    is played again from the file (engine/replaying.py), as the command line does."""
    steps: list[dict[str, Any]] = []
    for _, before, state in _played(game, file):
        if before is not None and game.step(state) == game.step(before):
            continue
        view = game.table_view(state)
        # A step only some players see (the Knight's guard) is no step of the table's.
        if not steps or view["step"] != steps[-1]["view"]["step"]:
            steps.append({"view": view})
    return steps
