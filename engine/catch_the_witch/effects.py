"""Effects: what ``apply`` asks the outside world to do. Data only."""

from typing import Literal

from pydantic import BaseModel, ConfigDict

from .domain import Phase
from .state import Outcome


class _Effect(BaseModel):
    model_config = ConfigDict(frozen=True)


class StepChanged(_Effect):
    """The game moved to a new step: push every cat its view."""

    type: Literal["step_changed"] = "step_changed"
    step: int
    phase: Phase


class StartTimer(_Effect):
    """Fire ``timeout`` for ``step`` at ``deadline`` (absolute seconds)."""

    type: Literal["start_timer"] = "start_timer"
    step: int
    deadline: float


class GameOver(_Effect):
    type: Literal["game_over"] = "game_over"
    outcome: Outcome


Effect = StepChanged | StartTimer | GameOver
