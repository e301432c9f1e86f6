"""The game state: one pydantic model that round-trips through JSON.

Everything the rules need lives here, secrets included; ``views.py`` decides
what each cat may see. Nothing here is sent to a client as it is.
"""

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..rng import RngState
from ..seats import Seats
from .domain import (
    BotLevel,
    Form,
    Ingredient,
    Phase,
    Place,
    Reason,
    RitualResult,
    Role,
    Side,
    Spell,
)
from .tables import DISCUSSION_LIMIT_DEFAULT, DISCUSSION_LIMIT_MAX, DISCUSSION_LIMIT_MIN


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=False)


class Settings(_Model):
    """Room options the host sets in the lobby (§9, §10, §2.1)."""

    #: Seconds per timed discussion step, or None for Off (§9).
    discussion_limit: int | None = Field(
        default=DISCUSSION_LIMIT_DEFAULT, ge=DISCUSSION_LIMIT_MIN, le=DISCUSSION_LIMIT_MAX
    )
    #: Custom role set (§2.1); None = the table for the player count.
    roles: list[Role] | None = None
    #: Show an exiled cat's role on the vote result (§8), default off.
    reveal_role_on_exile: bool = False
    #: [design] How sharply the room's bots deduce: sharp (the default, the
    #: bots of the balance, §11) or gentle (a table to learn at). Only bots read it, from
    #: their own view; the rules never do.
    bot_level: BotLevel = BotLevel.SHARP


class Outcome(_Model):
    winner: Side
    reason: Reason
    day: int


class Record(_Model):
    """A record of something that happened, sent to the phones as ``public()`` gives it."""

    #: Fields left out of ``public`` while they are None (not decided yet, or not this kind).
    optional_fields: ClassVar[frozenset[str]] = frozenset()

    def public(self) -> dict[str, Any]:
        """As the phones get it: the fields in declared order, optional ones left out while
        None. A shallow copy of the fields, not ``model_dump(mode="json")``: every view
        carries every record of the game, and pydantic's serializer made building the views
        15 % slower (bench/engine.py). So, like the rest of a view, it shares the state's
        lists (views are serialised, never changed) and keeps enums as members, which are
        StrEnums: JSON writes them as their values (tests/engine/test_views.py)."""
        data = self.__dict__.copy()
        for name in self.optional_fields:
            if data[name] is None:
                del data[name]
        return data


class Note(Record):
    """A private message for one cat: its spell worked or failed (§5), or its guard
    repelled a witch (§6.3)."""

    optional_fields = frozenset({"spell", "worked"})
    day: int
    kind: Literal["spell", "guard_repelled"]
    spell: Spell | None = None
    worked: bool | None = None


class SeerResult(Record):
    """§6.1: what the Seer learnt of one cat."""

    day: int
    target: str
    witch: bool


class Peek(Record):
    """§6.4: one Pickpocket peek: the hand seen then, and the card taken (None: none, or
    not yet)."""

    day: int
    target: str
    hand: list[Ingredient]
    took: Ingredient | None = None


class SpellCast(Record):
    """§5: one witch's spell as it resolved (revealed at the end)."""

    witch: str
    place: Place
    spell: Spell
    target: str | None
    worked: bool


class Proposal(Record):
    """§3.5–§3.6: a Chief's proposal; the yes/no lists and the verdict once all voted."""

    optional_fields = frozenset({"yes", "no", "passed"})
    chief: str
    members: list[str]
    yes: list[str] | None = None
    no: list[str] | None = None
    passed: bool | None = None


class ExileVote(Record):
    """§8: every vote (None: skipped), in seat order, and who was exiled (None: nobody)."""

    votes: dict[str, str | None]
    exiled: str | None


class Cat(_Model):
    name: str
    role: Role
    form: Form = Form.HUMAN
    away: bool = False
    hand: list[Ingredient] = Field(default_factory=list)
    #: Private messages for this cat only (spell worked/failed, guard repelled…).
    notes: list[Note] = Field(default_factory=list)
    seer_results: list[SeerResult] = Field(default_factory=list)
    #: The Pickpocket's peeks of the whole game (§6.4), kept for her view after a take.
    peeks: list[Peek] = Field(default_factory=list)


class WitchChoice(_Model):
    place: Place | None = None
    spell: Spell | None = None
    target: str | None = None

    @property
    def complete(self) -> bool:
        return self.spell is not None


class Guess(WitchChoice):
    """[design] A cat's guess, in the witches' 15 s, of where a witch gathers, what she
    casts and on whom (docs/engine.md): its own tap in a step where only witches choose,
    so that every phone has the same pop-up to tap (UX.md). Final once tapped, like hers;
    shown back to that cat alone, and never used by the rules."""


class Day(_Model):
    """What happens on one day. Secrets stay here until the game ends."""

    number: int
    required: list[Ingredient] = Field(default_factory=list)
    #: Ingredients dropped because too few cats were in human form (§2.2).
    dropped: list[Ingredient] = Field(default_factory=list)
    places: dict[str, Place] = Field(default_factory=dict)
    #: A witch's tap in the place choice: where she means to gather, her witch place unless
    #: she picks another in her 15 s, which then replaces it (her own ``me.place`` shows
    #: it, docs/engine.md). Not a place: nobody counts it.
    witch_plans: dict[str, Place] = Field(default_factory=dict)
    #: §4 step ③: the card each cat was handed at the end of the day (its view's "gathered").
    handed_out: dict[str, Ingredient] = Field(default_factory=dict)
    restore: str | None = None
    guarding: bool = False  # the Knight chose Guard today
    guard_place: Place | None = None
    witch_choices: dict[str, WitchChoice] = Field(default_factory=dict)
    guesses: dict[str, Guess] = Field(default_factory=dict)
    #: After the day resolves: public evening news.
    new_frogs: list[str] = Field(default_factory=list)
    restored: list[str] = Field(default_factory=list)
    #: Spells as resolved (revealed at the end).
    spells: list[SpellCast] = Field(default_factory=list)
    seer_used: bool = False
    pickpocket_used: bool = False
    pickpocket_target: str | None = None  # peeked, take still pending
    approval_started: bool = False  # the day's first yes/no vote has started (§6.4)
    proposals: list[Proposal] = Field(default_factory=list)
    ritual_members: list[str] = Field(default_factory=list)
    ritual_result: RitualResult | None = None
    vote: ExileVote | None = None


class GameState(Seats, _Model):
    game: str = "catch_the_witch"
    version: int = 1
    players: list[Cat]
    settings: Settings
    host: str
    #: The game's key and how far each stream has drawn (engine/rng.py). Never shown.
    rng: RngState
    #: Pinned duck draws (replay files, tests); index = day - 1. Never shown.
    scripted_required: list[list[Ingredient]] = Field(default_factory=list)

    phase: Phase = Phase.ROLE_CHECK
    #: Increases on every change of step; timers carry it so stale ones are ignored.
    step: int = 0
    #: Guard steps entered so far (§6.3). Only the Knight sees them, so every other cat's
    #: step number (``views.seat_step``) leaves them out: it must not tick unseen.
    guard_steps: int = 0
    #: The place choice's deadline, which everyone but the Knight still sees during his
    #: guard step: a countdown that vanished would tell them he is guarding.
    place_deadline: float | None = None
    deadline: float | None = None
    day: int = 0
    seals: int = 0
    rituals_held: int = 0
    curse: int = 0
    chief: str | None = None
    last_proposer: str | None = None
    #: Who has acted in the current step, and what they chose where the step keeps it.
    done: list[str] = Field(default_factory=list)
    approvals: dict[str, bool] = Field(default_factory=dict)
    exile_votes: dict[str, str | None] = Field(default_factory=dict)
    played: dict[str, str] = Field(default_factory=dict)
    days: list[Day] = Field(default_factory=list)
    outcome: Outcome | None = None

    # -- lookups -----------------------------------------------------------------
    def cat(self, name: str) -> Cat:
        return self.seat(name)

    def has_cat(self, name: str) -> bool:
        return self.has_seat(name)

    @property
    def today(self) -> Day:
        return self.days[-1]

    def names(self) -> list[str]:
        return [cat.name for cat in self.players]

    def humans(self) -> list[Cat]:
        return [cat for cat in self.players if cat.form is Form.HUMAN]

    def human_names(self) -> list[str]:
        return [cat.name for cat in self.players if cat.form is Form.HUMAN]

    def seat_of(self, name: str) -> int:
        return self.names().index(name)

    def clone(self) -> "GameState":
        """An independent copy, made by a dump and validate in pydantic-core (faster than
        Python's deepcopy for this state). Days before today are shared, not copied: no rule
        changes a day once the next has begun (only ``today`` is written), and copying
        every record of every past day made each move 15 % slower (bench/engine.py)."""
        copy = GameState.model_validate(self.model_dump(exclude={"days"}))
        if self.days:
            copy.days = [*self.days[:-1], Day.model_validate(self.days[-1].model_dump())]
        return copy
