"""What the command lines (simulate, replay, demo) share: the ``--game`` option.

A game offers them its helpers through one attribute, ``command_line``: the name of a
module in its package (Catch the Witch: engine/catch_the_witch/command_line.py). It is
imported only here, so the room service never loads a game's bots and narrators.
"""

import importlib
from types import ModuleType

from .games import DEFAULT_GAME, GAMES


class UnknownGame(Exception):
    """The named game is not registered, or has no command-line helpers."""


def helpers_of(key: str = DEFAULT_GAME) -> ModuleType:
    """The command-line helpers of the game registered as ``key`` (engine/games.py)."""
    if key not in GAMES:
        raise UnknownGame(f"There is no game {key!r}; the games are: {', '.join(sorted(GAMES))}.")
    module = GAMES[key].command_line
    if module is None:
        raise UnknownGame(
            f"The game {key!r} has no simulator support (simulate, replay and demo need it)."
        )
    return importlib.import_module(module)
