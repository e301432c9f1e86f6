"""What every game's moves share: the reading of untrusted input into a game's move models,
and the check that a timer's firing is due. Each game lists its own moves (its
``actions.py``); the rules here are the same for all.
"""

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from .errors import IllegalAction, InvalidAction, readable_error
from .game import NAME_MAX


class Move(BaseModel):
    """A move's common part: ``player`` is set by the room, never read from the phone."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    player: Annotated[str, Field(min_length=1, max_length=NAME_MAX)] | None = None


class MarkAway(Move):
    """The host marks a player Away: their choices are made for them from now on."""

    type: Literal["mark_away"] = "mark_away"
    target: Annotated[str, Field(min_length=1, max_length=NAME_MAX)]


class Timeout(Move):
    """The server's own move: the current step's time has run out."""

    type: Literal["timeout"] = "timeout"
    #: The step the timer was set for; a stale timer names an older step.
    step: int | None = None


def read_move(data: Any, adapter: TypeAdapter[Any], types: tuple[str, ...]) -> Any:
    """Validate untrusted input (a dict, JSON text, or a move model already) into one of a
    game's move models (``adapter``: their discriminated union on ``type``); raises
    ``InvalidAction`` with a code and the field at fault."""
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except (ValueError, UnicodeDecodeError) as exc:
            raise InvalidAction("The message is not valid JSON.", code="not_json") from exc
    if isinstance(data, BaseModel):
        return data
    if not isinstance(data, dict):
        raise InvalidAction("An action must be a JSON object with a 'type'.", code="bad_message")
    kind = data.get("type")
    if kind is None:
        raise InvalidAction(
            "An action needs a 'type'.", code="field_missing", params={"field": "type"}
        )
    if kind not in types:
        raise InvalidAction(f"Unknown action type {str(kind)[:30]!r}.", code="unknown_action")
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        raise readable_error(exc, str(kind)) from exc


def check_timer_due(
    timer_step: int | None, step: int, deadline: float | None, now: float, rule: str
) -> None:
    """A timer's firing counts only for the current step (``timer_step``: the step it was
    set for; None: the current one), once its deadline has passed."""
    if timer_step is not None and timer_step != step:
        raise IllegalAction("That timer belongs to an earlier step.", rule, code="timer_stale")
    if deadline is None:
        raise IllegalAction("This step has no timer.", rule, code="timer_none")
    if now < deadline:
        raise IllegalAction("The time has not run out yet.", rule, code="timer_not_due")
