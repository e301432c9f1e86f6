"""Burn the Witch's moves (BTW contract, "Moves") as pydantic models, and their parser.

``parse_action`` turns anything a phone sends into one of these models or raises
``InvalidAction`` with a code and the field at fault.
"""

from typing import Annotated, Any, Literal

from pydantic import (
    Field,
    StrictBool,
    StrictInt,
    TypeAdapter,
)

from ..game import NAME_MAX
from ..moves import MarkAway, Move, Timeout, read_move

Name = Annotated[str, Field(min_length=1, max_length=NAME_MAX)]
#: A villager's deck name or a trait (both short words).
Word = Annotated[str, Field(min_length=1, max_length=20)]
Count = Annotated[StrictInt, Field(ge=0, le=10)]


class Bewitch(Move):
    type: Literal["bewitch"] = "bewitch"
    direction: Literal["left", "right"]


class Accuse(Move):
    type: Literal["accuse"] = "accuse"
    trait: Word


class Vote(Move):
    type: Literal["vote"] = "vote"
    burn: Count
    save: Count


class Execute(Move):
    type: Literal["execute"] = "execute"
    villager: Word


class Point(Move):
    type: Literal["point"] = "point"
    target: Name
    locked: StrictBool = False


class ChooseVillager(Move):
    type: Literal["choose_villager"] = "choose_villager"
    villager: Word


class Retribute(Move):
    type: Literal["retribute"] = "retribute"
    #: A player who pointed at the chooser, or None: decline.
    target: Name | None


Action = Annotated[
    Bewitch | Accuse | Vote | Execute | Point | ChooseVillager | Retribute | MarkAway | Timeout,
    Field(discriminator="type"),
]
ACTION_TYPES = ("bewitch", "accuse", "vote", "execute", "point", "choose_villager", "retribute",
                "mark_away", "timeout")  # fmt: skip
_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)


def parse_action(data: Any) -> Action:
    """Validate untrusted input (a dict, JSON text, or a move model) into a move model."""
    return read_move(data, _ADAPTER, ACTION_TYPES)
