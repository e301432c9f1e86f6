"""A replay file's actions played through a game's interface (engine/game.py): the one
loop of ``python -m engine.replay`` (each game's command_line.run) and of the room's
replay download, which sends the table views of the game it replays. It
imports no game: the room service, which loads no bots or narrators, uses it too.

docs/replay.md has the format: a move of a player's, ``{"type": "timeout"}`` (the step's
deadline passes), ``{"type": "leave", "player": P}`` (P left the room mid-game, RULES §9)
and ``{"type": "set_host", "player": P}`` (the host's powers passed, §10); each with an
optional ``t``, the time the game was given it."""

from collections.abc import Iterable, Iterator
from typing import Any

from .command_lines import ReplayError
from .effects import Effect
from .errors import GameError
from .game import Game

#: Simulated seconds between two actions of a hand-written file (well inside every timer).
SECONDS_PER_ACTION = 1.0
TIMEOUT, LEAVE, SET_HOST = "timeout", "leave", "set_host"


def played(game: Game, state: Any, actions: Iterable[dict[str, Any]],
           now: float) -> Iterator[tuple[int, dict[str, Any], Any, list[Effect]]]:  # fmt: skip
    """Each action of a replay file played on ``state`` (started at ``now``): its index,
    the action, the state after it and its effects. ReplayError names a refused one."""
    for index, action in enumerate(actions):
        now = action_time(action, now, game.deadline(state))
        turn = {key: value for key, value in action.items() if key != "t"}
        try:
            state, effects = _play(game, state, turn, now)
        except GameError as exc:
            raise ReplayError(index, action, exc) from exc
        yield index, action, state, effects


def _play(game: Game, state: Any, turn: dict[str, Any], now: float) -> tuple[Any, list[Effect]]:
    kind = turn.get("type")
    if kind == TIMEOUT:
        return game.time_out(state, now)
    if kind == LEAVE:
        return game.leave(state, turn["player"], now)
    if kind == SET_HOST:
        return game.set_host(state, turn["player"]), []
    return game.apply(state, game.parse_move(turn), now)


def action_time(action: dict[str, Any], now: float, deadline: float | None) -> float:
    """When an action is played: at its own ``t`` if it has one (a downloaded game); else
    a ``timeout`` at its step's deadline (if later), and any other action
    ``SECONDS_PER_ACTION`` after the last (a hand-written file)."""
    if "t" in action:
        return float(action["t"])
    if action.get("type") == TIMEOUT and deadline is not None:
        return max(now, deadline)
    return now + SECONDS_PER_ACTION
