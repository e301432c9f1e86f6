"""Every game the rooms can host, by key: the one place outside a game's package that
names it. The room service, the local stack and the command lines look games up here.

Tests may register a game of their own (``register``), e.g. tests/support/coin_game.py.
"""

from .burn_the_witch.game import BurnTheWitch
from .catch_the_witch.game import CatchTheWitch
from .game import Game

#: The game a room plays when its creator names none.
DEFAULT_GAME = CatchTheWitch.key

GAMES: dict[str, Game] = {game.key: game for game in (CatchTheWitch(), BurnTheWitch())}


def game_of(key: str) -> Game:
    """The game registered under ``key`` (KeyError if none)."""
    return GAMES[key]


def register(game: Game) -> None:
    """Add a game to the registry (tests; a shipped game is listed in ``GAMES`` above)."""
    GAMES[game.key] = game
