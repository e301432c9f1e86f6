"""Burn the Witch's whole state: one pydantic model that round-trips through JSON.

Secrets live here (each villager's identity, each ballot, the coven's choice); views.py
decides what each player may see. Nothing here is sent to a phone as it is.
"""

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..game import NAME_MAX
from ..rng import RngState
from ..seats import Seats
from . import tables


# The game's words, as Catch the Witch's (its domain.py): each a str, so the wire and the
# stored state carry the value itself.
class Identity(StrEnum):
    INNOCENT = "innocent"
    DEVOUT = "devout"
    WITCH = "witch"


class Faction(StrEnum):
    ZEALOT = "zealot"
    SYMPATHIZER = "sympathizer"


class Direction(StrEnum):
    LEFT = "left"
    RIGHT = "right"


class Phase(StrEnum):
    WITCHING_HOUR = "witching_hour"
    ACCUSE = "accuse"
    VOTE = "vote"
    EXECUTE = "execute"
    TRIAL = "trial"
    CHOOSE_VILLAGER = "choose_villager"
    RETRIBUTION = "retribution"
    OVER = "over"


class EffectKind(StrEnum):
    """An entry of §3's effect queue; the first four are also what the game may wait for a
    player to choose (``ChoiceKind``)."""

    TRIAL = "trial"
    HEX = "hex"
    PENALTY = "penalty"
    RETRIBUTION = "retribution"
    EXECUTION = "execution"


#: Why a villager is to be lost by choice (the pending choice's ``kind``): a Trial by Fire's
#: chosen player (§4), a hex penalty (§5), a timer penalty (§6); or whom a hexed owner lays
#: the penalty on (§5, ``retribution``).
ChoiceKind = EffectKind


class VoteOutcome(StrEnum):
    BURN = "burn"
    SAVE = "save"
    TIE = "tie"


class Winner(StrEnum):
    ZEALOTS = "zealots"
    SYMPATHIZERS = "sympathizers"


class Reason(StrEnum):
    ALL_WITCHES_BURNED = "all_witches_burned"
    THRESHOLD_REACHED = "threshold_reached"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Settings(_Model):
    """The host's lobby options (§2 first accuser, §6 timers)."""

    timers: bool = False
    timer_seconds: int = Field(
        default=tables.TIMER_SECONDS_DEFAULT,
        ge=tables.TIMER_SECONDS_MIN,
        le=tables.TIMER_SECONDS_MAX,
    )
    #: A seated player's name, or None: drawn at random (§2).
    first_accuser: str | None = Field(default=None, min_length=1, max_length=NAME_MAX)


class Villager(_Model):
    name: str
    traits: list[str]
    identity: Identity


class Dealt(_Model):
    """What a player was dealt, as counts (§2: never which villager hides which).
    ``innocents`` counts the devout too, like the setup table."""

    innocents: int
    devout: int
    witches: int


class Player(_Model):
    name: str
    away: bool = False
    #: The house's living villagers, in the order they were dealt face up.
    villagers: list[Villager]
    #: Burned villagers of this house, in burning order (identity public once burned).
    burned: list[Villager] = Field(default_factory=list)
    dealt: Dealt
    hexed: bool = False
    #: §2: the side the coven's tap came from, if this player was bewitched.
    bewitched_from: Direction | None = None

    @property
    def has_villagers(self) -> bool:
        return bool(self.villagers)

    @property
    def faction(self) -> Faction:
        if self.dealt.witches or self.bewitched_from:
            return Faction.SYMPATHIZER
        return Faction.ZEALOT


class Ballot(_Model):
    burn: int
    save: int


class Trial(_Model):
    """§4: one Trial by Fire."""

    targets: list[str]
    #: Who may point: every player with a target other than themself.
    pointers: list[str]
    points: dict[str, str] = Field(default_factory=dict)
    locked: list[str] = Field(default_factory=list)
    #: Set when the points are revealed.
    revealed: bool = False
    chosen: str | None = None


class QueuedEffect(_Model):
    """One entry of §3's effect queue (first in, first out)."""

    kind: EffectKind
    #: hex: the player who uncovered the innocent and owes a villager; penalty: the one
    #: paying; retribution: unused.
    payer: str | None = None
    #: hex / retribution: the hexed house's owner.
    chooser: str | None = None
    #: retribution: the players who pointed at the chooser in the trial.
    pointers: list[str] = Field(default_factory=list)


class Pending(_Model):
    """The choice the game waits for in ``choose_villager`` or ``retribution``."""

    kind: ChoiceKind
    chooser: str
    #: Whose villager is lost (None for the retribution).
    payer: str | None = None
    #: retribution: the pointers the penalty may be laid on.
    targets: list[str] = Field(default_factory=list)


class Outcome(_Model):
    winner: Winner
    reason: Reason
    round: int


class GameState(Seats, _Model):
    game: Literal["burn_the_witch"] = "burn_the_witch"
    players: list[Player]
    settings: Settings
    host: str
    #: The game's key and how far each stream has drawn (engine/rng.py). Never shown.
    rng: RngState
    wrongly_condemned: int
    #: The coven holder (§2), if any, and whether the coven has tapped.
    coven: str | None = None
    bewitched: str | None = None

    phase: Phase = Phase.WITCHING_HOUR
    step: int = 1
    deadline: float | None = None
    round: int = 0
    accuser: str | None = None
    executioner: str | None = None
    accused_trait: str | None = None
    #: The round's secret ballots (never sent to anyone but their caster).
    votes: dict[str, Ballot] = Field(default_factory=dict)
    last_vote: Ballot | None = None
    outcome_of_vote: VoteOutcome | None = None
    #: Where the search for the next accuser starts (inclusive), going right (§3.5, §6).
    next_accuser_from: str | None = None
    queue: list[QueuedEffect] = Field(default_factory=list)
    trial: Trial | None = None
    pending: Pending | None = None
    #: Public events, each a JSON-ready dict never changed once appended (views share them).
    history: list[dict[str, Any]] = Field(default_factory=list)
    outcome: Outcome | None = None

    # -- lookups -------------------------------------------------------------------------
    def player(self, name: str) -> Player:
        return self.seat(name)

    def has_player(self, name: str) -> bool:
        return self.has_seat(name)

    def seat_of(self, name: str) -> int:
        for seat, player in enumerate(self.players):
            if player.name == name:
                return seat
        raise KeyError(name)

    def clone(self) -> "GameState":
        """An independent copy. The history's entries are never changed once appended, so
        the copy shares them (copying every past event made each move slower)."""
        copy = GameState.model_validate(self.model_dump(exclude={"history"}))
        copy.history = list(self.history)
        return copy
