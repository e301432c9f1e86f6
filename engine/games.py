"""Every game the rooms can host, by key: the one place outside a game's package that
names it. The room service, the local stack and the command lines look games up here.

Tests may register a game of their own (``register``), e.g. tests/support/coin_game.py.
"""

import importlib
from collections.abc import Iterable

from .burn_the_witch.game import BurnTheWitch
from .catch_the_witch.game import CatchTheWitch
from .game import Game

#: The game a room plays when its creator names none.
DEFAULT_GAME = CatchTheWitch.key

GAMES: dict[str, Game] = {game.key: game for game in (CatchTheWitch(), BurnTheWitch())}


def game_of(key: str) -> Game:
    """The game registered under ``key`` (KeyError if none)."""
    return GAMES[key]


#: Names no game's move may take, each with whose it is. The room service reserves its own
#: actions here (``reserve_move_names``), since it reads a frame's name as a room action
#: before it looks for a move of that name: a move named ``start`` would never reach its
#: game. The engine may not import the service, so the service tells it.
_RESERVED_MOVE_NAMES: dict[str, str] = {}


def _check_move_names(game: Game, reserved: dict[str, str]) -> None:
    """ValueError if one of ``game``'s moves takes a name of ``reserved``."""
    taken = sorted(game.move_types & reserved.keys())
    if taken:
        names = ", ".join(f"{name!r} ({reserved[name]})" for name in taken)
        raise ValueError(f"The game {game.key!r} names a move {names}: rename the move.")


def reserve_move_names(names: Iterable[str], whose: str) -> None:
    """Keep ``names`` from ever naming a game's move (``whose``: what they name instead,
    for the error); ValueError if a game registered already has a move of one."""
    reserved = {**_RESERVED_MOVE_NAMES, **dict.fromkeys(names, whose)}
    for game in GAMES.values():
        _check_move_names(game, reserved)
    _RESERVED_MOVE_NAMES.update(reserved)


def register(game: Game) -> None:
    """Add a game to the registry (tests; a shipped game is listed in ``GAMES`` above).
    ValueError if one of its moves takes a reserved name (``reserve_move_names``)."""
    _check_move_names(game, _RESERVED_MOVE_NAMES)
    GAMES[game.key] = game


#: Games a process hosts besides the shipped ones, as ``module:Class`` pairs separated by
#: commas (e.g. ``tests.support.coin_game:CoinGame``): how a local stack started by a test
#: plays a game that is not shipped. An environment variable, which the Lambda entrypoint
#: and the local stack's gateway read (``register_extra_games``), because every process that
#: hosts rooms must see it, the local stack's Lambda workers included; a deployment never
#: sets it. (The engine reads no environment itself: it stays pure.)
EXTRA_GAMES_VARIABLE = "EXTRA_GAMES"


def register_extra_games(spec: str) -> None:
    """Register the games ``spec`` names (``EXTRA_GAMES_VARIABLE``'s format), once each."""
    for pair in filter(None, (part.strip() for part in spec.split(","))):
        module, _, name = pair.partition(":")
        game_class = getattr(importlib.import_module(module), name)
        if game_class.key not in GAMES:
            register(game_class())
