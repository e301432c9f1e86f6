"""Actions (RULES.md §12) as pydantic models, and a parser for untrusted JSON.

``parse_action`` turns anything a client sends into one of these models or
raises ``InvalidAction`` with a sentence a player can read.
"""

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, TypeAdapter, ValidationError

from ..errors import InvalidAction, readable_error
from ..game import NAME_MAX
from .domain import Place, Spell


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    player: Annotated[str, Field(min_length=1, max_length=NAME_MAX)] | None = None


Name = Annotated[str, Field(min_length=1, max_length=NAME_MAX)]


class Ready(_Action):
    type: Literal["ready"] = "ready"


class ChoosePlace(_Action):
    type: Literal["choose_place"] = "choose_place"
    place: Place
    restore: Name | None = None


class ChooseGuard(_Action):
    type: Literal["choose_guard"] = "choose_guard"


class GuardPlace(_Action):
    type: Literal["guard_place"] = "guard_place"
    place: Place


class WitchPlace(_Action):
    type: Literal["witch_place"] = "witch_place"
    place: Place


class WitchSpell(_Action):
    type: Literal["witch_spell"] = "witch_spell"
    spell: Spell
    target: Name | None = None


class Ok(_Action):
    type: Literal["ok"] = "ok"


class EndTalk(_Action):
    type: Literal["end_talk"] = "end_talk"


class SeerLook(_Action):
    type: Literal["seer_look"] = "seer_look"
    target: Name


class PickpocketPeek(_Action):
    type: Literal["pickpocket_peek"] = "pickpocket_peek"
    target: Name


class PickpocketTake(_Action):
    type: Literal["pickpocket_take"] = "pickpocket_take"
    #: An ingredient from the peeked hand, or null to take nothing.
    card: Annotated[str, Field(max_length=20)] | None = None


class Propose(_Action):
    type: Literal["propose"] = "propose"
    members: Annotated[list[Name], Field(max_length=12)]


class Approve(_Action):
    type: Literal["approve"] = "approve"
    yes: StrictBool


class PlayCard(_Action):
    type: Literal["play_card"] = "play_card"
    card: Annotated[str, Field(min_length=1, max_length=20)]


class Vote(_Action):
    type: Literal["vote"] = "vote"
    #: A cat, or null for Skip.
    target: Name | None


class MarkAway(_Action):
    type: Literal["mark_away"] = "mark_away"
    target: Name


class Timeout(_Action):
    type: Literal["timeout"] = "timeout"
    #: The step the timer was set for; a stale timer names an older step.
    step: int | None = None


Action = Annotated[
    Ready
    | ChoosePlace
    | ChooseGuard
    | GuardPlace
    | WitchPlace
    | WitchSpell
    | Ok
    | EndTalk
    | SeerLook
    | PickpocketPeek
    | PickpocketTake
    | Propose
    | Approve
    | PlayCard
    | Vote
    | MarkAway
    | Timeout,
    Field(discriminator="type"),
]
ACTION_TYPES = (
    "ready", "choose_place", "choose_guard", "guard_place", "witch_place", "witch_spell", "ok",
    "end_talk", "seer_look", "pickpocket_peek", "pickpocket_take", "propose", "approve",
    "play_card", "vote", "mark_away", "timeout",
)  # fmt: skip
_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)


def parse_action(data: Any) -> Action:
    """Validate untrusted input (a dict, or JSON text) into an action model."""
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except (ValueError, UnicodeDecodeError) as exc:
            raise InvalidAction("The message is not valid JSON.", code="not_json") from exc
    if isinstance(data, BaseModel):
        return data  # type: ignore[return-value]
    if not isinstance(data, dict):
        raise InvalidAction("An action must be a JSON object with a 'type'.", code="bad_message")
    kind = data.get("type")
    if kind is None:
        raise InvalidAction(
            "An action needs a 'type'.", code="field_missing", params={"field": "type"}
        )
    if kind not in ACTION_TYPES:
        raise InvalidAction(f"Unknown action type {str(kind)[:30]!r}.", code="unknown_action")
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as exc:
        raise readable_error(exc, str(kind)) from exc
