"""Actions (RULES.md §12) as pydantic models, and a parser for untrusted JSON.

``parse_action`` turns anything a client sends into one of these models or
raises ``InvalidAction`` with a sentence a player can read.
"""

from typing import Annotated, Any, Literal

from pydantic import Field, StrictBool, TypeAdapter

from ..game import NAME_MAX
from ..moves import MarkAway, Move, Timeout, read_move
from .domain import Place, Spell

Name = Annotated[str, Field(min_length=1, max_length=NAME_MAX)]


class Ready(Move):
    type: Literal["ready"] = "ready"


class ChoosePlace(Move):
    type: Literal["choose_place"] = "choose_place"
    place: Place
    restore: Name | None = None


class ChooseGuard(Move):
    type: Literal["choose_guard"] = "choose_guard"


class GuardPlace(Move):
    type: Literal["guard_place"] = "guard_place"
    place: Place


class WitchPlace(Move):
    type: Literal["witch_place"] = "witch_place"
    place: Place


class WitchSpell(Move):
    type: Literal["witch_spell"] = "witch_spell"
    spell: Spell
    target: Name | None = None


class GuessPlace(Move):
    """[design] Where a cat who is not a witch thinks a witch gathers (docs/engine.md)."""

    type: Literal["guess_place"] = "guess_place"
    place: Place


class GuessSpell(Move):
    type: Literal["guess_spell"] = "guess_spell"
    spell: Spell
    target: Name | None = None


class Ok(Move):
    type: Literal["ok"] = "ok"


class EndTalk(Move):
    type: Literal["end_talk"] = "end_talk"


class SeerLook(Move):
    type: Literal["seer_look"] = "seer_look"
    target: Name


class PickpocketPeek(Move):
    type: Literal["pickpocket_peek"] = "pickpocket_peek"
    target: Name


class PickpocketTake(Move):
    type: Literal["pickpocket_take"] = "pickpocket_take"
    #: An ingredient from the peeked hand, or null to take nothing.
    card: Annotated[str, Field(max_length=20)] | None = None


class Propose(Move):
    type: Literal["propose"] = "propose"
    members: Annotated[list[Name], Field(max_length=12)]


class Approve(Move):
    type: Literal["approve"] = "approve"
    yes: StrictBool


class PlayCard(Move):
    type: Literal["play_card"] = "play_card"
    card: Annotated[str, Field(min_length=1, max_length=20)]


class Vote(Move):
    type: Literal["vote"] = "vote"
    #: A cat, or null for Skip.
    target: Name | None


Action = Annotated[
    Ready
    | ChoosePlace
    | ChooseGuard
    | GuardPlace
    | WitchPlace
    | WitchSpell
    | GuessPlace
    | GuessSpell
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
    "ready", "choose_place", "choose_guard", "guard_place", "witch_place", "witch_spell",
    "guess_place", "guess_spell", "ok", "end_talk", "seer_look", "pickpocket_peek",
    "pickpocket_take", "propose", "approve", "play_card", "vote", "mark_away", "timeout",
)  # fmt: skip
_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)


def parse_action(data: Any) -> Action:
    """Validate untrusted input (a dict, or JSON text) into an action model."""
    return read_move(data, _ADAPTER, ACTION_TYPES)
