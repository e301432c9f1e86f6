"""What every game's ``apply`` works on: a private copy of the state, the RNG drawn from the
state's seed, and the effects gathered for the room; ``finish`` stores the RNG back."""

from typing import Any, Generic, TypeVar

from .rng import Rng

State = TypeVar("State")


class TurnBase(Generic[State]):
    def __init__(self, state: State, now: float):
        self.s = state
        self.now = float(now)
        self.rng = Rng(state.rng)  # type: ignore[attr-defined]
        self.effects: list[Any] = []

    def finish(self) -> tuple[State, list[Any]]:
        self.s.rng = self.rng.state  # type: ignore[attr-defined]
        return self.s, self.effects
