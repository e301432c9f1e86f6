"""What the command lines (simulate, replay, demo) share: the ``--game`` option.

A game offers them its helpers through one attribute, ``command_line``: the name of a
module in its package (Catch the Witch: engine/catch_the_witch/command_line.py). It is
imported only here, so the room service never loads a game's bots and narrators.

What such a module provides (the command lines use nothing else):

- ``SIDES``, ``REASONS``: the simulator's columns, who won and why;
- ``AVERAGES``: ``{outcome field: label}``, the outcome's numbers the simulator averages
  (reported as ``avg_<label>``, e.g. Catch the Witch's ``{"day": "days"}``);
- ``TALLIES`` and ``tallies_of(state)`` (optional): ``{count: what it counts}`` and a
  finished game's counts, summed over the games and reported as top-level fields (Catch
  the Witch: ``exiles``, ``exiles_of_witches``, ``single_vote_exiles``…);
- ``RATES`` (optional): ``{name: (part, whole)}``, shares of two tallies reported beside
  them and as columns of the table (``ritual_success_rate``…);
- ``PLAYERS_COLUMN``: the table's first column (the players' word, "cats");
- ``DEMO_TITLE``, ``Narrator`` (called as ``observer(action, state)``), for the demo;
- ``settings_for(limit)``: the settings a ``--limit`` of seconds (or None) stands for;
- ``play_new(count, seed, settings, observer=None)``: a bot game, returning a run with
  ``state``, ``actions``, ``illegal_actions``, ``timeouts`` and ``errors``;
- ``new_state(count, seed, settings=None)``: the new game ``play_new`` starts from (the
  engine bench replays a bot game's moves from it through the ``Game`` interface);
- ``SAMPLE_MOVES``: ``{move: its fields}``, a move of each type as a phone sends it, and
  ``SAMPLE_SETTINGS``, a host's change of settings: the sample events (events/generate.py);
- ``outcome_of(state)``: the JSON-ready outcome (``winner``, ``reason`` and the
  ``AVERAGES`` fields), or None before the end;
- ``Scenario``, ``load(path)``, ``run(scenario, out)``, ``ReplayError``: the replay.
"""

import importlib
from pathlib import Path
from types import ModuleType
from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

from .errors import GameError
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


#: The version of the scenario and replay file format (docs/replay.md). 2: games are keyed
#: with 256 bits and draw from two streams (engine/rng.py), so ``seed`` deals another game
#: than it did in format 1 (a 32-bit seed and one 64-bit generator).
SCENARIO_FORMAT = 2
#: The ``kind`` of the file a phone downloads from a room (functions/.../journal.py
#: ``viewer_file``): the table's steps, no moves; it cannot be played.
VIEWER_KIND = "viewer"


class ScenarioFile(BaseModel):
    """The fields every game's replay file has (docs/replay.md); a game's ``Scenario``
    adds its settings and pinned draws."""

    model_config = ConfigDict(extra="forbid")
    #: The file's format (``SCENARIO_FORMAT``); absent: format 1, which cannot be played.
    format: int = 1
    players: list[str]
    #: The game's key (engine/rng.py: a number below 2^256): the deal and every random draw.
    seed: int = 0
    #: The game the file is of (engine/games.py); ``--game`` says it for files without.
    game: str | None = None
    #: Who held the host's powers at the start (absent: the first player).
    host: str | None = None
    #: When the game started (seconds; absent: 0). A file downloaded from a room gives it,
    #: and every action its ``t``: the times the game was given, so the same deadlines.
    started_at: float | None = None
    actions: list[dict[str, Any]]
    #: The table's view as each step opened, which files downloaded from a room had before
    #: the viewer's file: kept so that such a file is refused for its format alone, in words.
    steps: list[dict[str, Any]] | None = None
    #: Free text for people reading the file.
    description: str | None = None
    #: The outcome the file is meant to reach (tests check it; the replay ignores it).
    expect: dict[str, Any] | None = None

    @model_validator(mode="before")
    @classmethod
    def _not_a_viewers_file(cls, data: Any) -> Any:
        # What a phone downloads from a room (docs/replay.md) shows the table's steps and
        # holds no move: said in words, not as the fields it lacks.
        if isinstance(data, dict) and data.get("kind") == VIEWER_KIND:
            raise ValueError(
                "this is a viewer's file, downloaded from a room: it shows the table's steps "
                "(open it in replay.html) and holds no moves, so it cannot be played again "
                "(docs/replay.md)"
            )
        return data

    @field_validator("format")
    @classmethod
    def _playable_format(cls, version: int) -> int:
        if version < SCENARIO_FORMAT:
            raise ValueError(
                f"this file is format {version}, written before games were keyed with 256 bits: "
                f"its seed deals another game now, so it cannot be played again (format "
                f"{SCENARIO_FORMAT} files can; docs/replay.md)"
            )
        if version > SCENARIO_FORMAT:
            raise ValueError(
                f"this file is format {version}, newer than this code reads "
                f"({SCENARIO_FORMAT}): update the code to play it"
            )
        return version

    @classmethod
    def load(cls, path: str | Path):
        return cls.model_validate_json(Path(path).read_text(encoding="utf-8"))


class ReplayError(Exception):
    """A replay's action was refused: names the action's index and type, and the rule."""

    def __init__(self, index: int, action: dict, error: GameError):
        kind = action.get("type", "?") if isinstance(action, dict) else "?"
        super().__init__(f"action {index} ({kind}): {error}")
        self.index = index
