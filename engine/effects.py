"""Effects: what a game's ``apply`` asks the room to do. Data only, the same for every game.

A game may subclass one to type its fields more narrowly (Catch the Witch's ``StepChanged``
names its ``Phase``); the room reads only the fields declared here.
"""

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict


class _Effect(BaseModel):
    model_config = ConfigDict(frozen=True)


class StepChanged(_Effect):
    """The game moved to a new step: the room pushes every seat its view."""

    type: Literal["step_changed"] = "step_changed"
    step: int
    phase: str


class StartTimer(_Effect):
    """Time out ``step`` at ``deadline`` (absolute seconds): the room schedules a timer
    message, and on it (or on any message after the deadline) calls ``Game.time_out``."""

    type: Literal["start_timer"] = "start_timer"
    step: int
    deadline: float


class GameOver(_Effect):
    """The game is decided; ``outcome`` is the game's own record of how."""

    type: Literal["game_over"] = "game_over"
    outcome: Any


Effect = StepChanged | StartTimer | GameOver
