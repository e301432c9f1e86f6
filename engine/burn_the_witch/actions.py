"""Burn the Witch's moves (BTW contract, "Moves") as pydantic models, and their parser.

``parse_action`` turns anything a phone sends into one of these models or raises
``InvalidAction`` with a code and the field at fault.
"""

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    TypeAdapter,
    ValidationError,
)

from ..errors import InvalidAction, readable_error
from ..game import NAME_MAX

Name = Annotated[str, Field(min_length=1, max_length=NAME_MAX)]
#: A villager's deck name or a trait (both short words).
Word = Annotated[str, Field(min_length=1, max_length=20)]
Count = Annotated[StrictInt, Field(ge=0, le=10)]


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    player: Name | None = None


class Bewitch(_Action):
    type: Literal["bewitch"] = "bewitch"
    direction: Literal["left", "right"]


class Accuse(_Action):
    type: Literal["accuse"] = "accuse"
    trait: Word


class Vote(_Action):
    type: Literal["vote"] = "vote"
    burn: Count
    save: Count


class Execute(_Action):
    type: Literal["execute"] = "execute"
    villager: Word


class Point(_Action):
    type: Literal["point"] = "point"
    target: Name
    locked: StrictBool = False


class ChooseVillager(_Action):
    type: Literal["choose_villager"] = "choose_villager"
    villager: Word


class Retribute(_Action):
    type: Literal["retribute"] = "retribute"
    #: A player who pointed at the chooser, or None: decline.
    target: Name | None


class MarkAway(_Action):
    type: Literal["mark_away"] = "mark_away"
    target: Name


class Timeout(_Action):
    type: Literal["timeout"] = "timeout"
    #: The step the timer was set for; a stale timer names an older step.
    step: int | None = None


Action = Annotated[
    Bewitch | Accuse | Vote | Execute | Point | ChooseVillager | Retribute | MarkAway | Timeout,
    Field(discriminator="type"),
]
ACTION_TYPES = ("bewitch", "accuse", "vote", "execute", "point", "choose_villager", "retribute",
                "mark_away", "timeout")  # fmt: skip
_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)


def parse_action(data: Any) -> Action:
    """Validate untrusted input (a dict, or an action model already) into an action model."""
    if isinstance(data, BaseModel):
        return data  # type: ignore[return-value]
    if not isinstance(data, dict):
        raise InvalidAction("A move must be a JSON object with a 'type'.", code="bad_message")
    kind = data.get("type")
    if kind is None:
        raise InvalidAction(
            "A move needs a 'type'.", code="field_missing", params={"field": "type"}
        )
    if kind not in ACTION_TYPES:
        raise InvalidAction(f"Unknown move type {str(kind)[:30]!r}.", code="unknown_action")
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as exc:
        raise readable_error(exc, str(kind)) from exc
