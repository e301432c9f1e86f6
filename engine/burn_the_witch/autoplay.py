"""§6: the engine's own choices, random among legal options, drawn from the state's secret
stream (engine/rng.py: the public one holds only the deal's face-up draws): an Away
player's every choice, and a choice whose time ran out. Each returns the move it
makes, so the turn applies it exactly as a phone's."""

from typing import TYPE_CHECKING

from . import queries
from .actions import Accuse, Bewitch, ChooseVillager, Execute, Point, Retribute, Vote
from .state import Direction

if TYPE_CHECKING:
    from .turn import Turn


def bewitch(turn: "Turn", name: str) -> Bewitch:
    return Bewitch(player=name, direction=turn.secret.choice((Direction.LEFT, Direction.RIGHT)))


def accuse(turn: "Turn", name: str) -> Accuse:
    return Accuse(player=name, trait=turn.secret.choice(queries.shown_traits(turn.s)))


def vote(turn: "Turn", name: str) -> Vote:
    """§6: an Away player votes all save."""
    return Vote(player=name, burn=0, save=len(turn.s.player(name).villagers))


def execute(turn: "Turn", name: str) -> Execute:
    return Execute(player=name, villager=turn.secret.choice(queries.complying(turn.s)))


def point(turn: "Turn", name: str) -> Point:
    assert turn.s.trial is not None
    targets = [target for target in turn.s.trial.targets if target != name]
    return Point(player=name, target=turn.secret.choice(targets), locked=True)


def choose_villager(turn: "Turn", name: str) -> ChooseVillager:
    assert turn.s.pending is not None and turn.s.pending.payer is not None
    payer = turn.s.player(turn.s.pending.payer)
    return ChooseVillager(player=name, villager=turn.secret.choice(payer.villagers).name)


def retribute(turn: "Turn", name: str) -> Retribute:
    """Declining is one of the legal options (§5: the hexed owner *may* lay the penalty)."""
    assert turn.s.pending is not None
    options: list[str | None] = [*turn.s.pending.targets, None]
    return Retribute(player=name, target=turn.secret.choice(options))
