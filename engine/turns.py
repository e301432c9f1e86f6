"""What every game's ``apply`` works on: a private copy of the state, the streams drawn from
the state's key (engine/rng.py: ``public`` for draws the table sees at once, ``secret`` for
the others), and the effects gathered for the room; ``finish`` stores how far each stream
has drawn."""

from typing import Any, Generic, TypeVar

from .rng import Streams

State = TypeVar("State")


class TurnBase(Generic[State]):
    def __init__(self, state: State, now: float):
        self.s = state
        self.now = float(now)
        streams = Streams(state.rng)  # type: ignore[attr-defined]
        self._streams = streams
        self.public = streams.public
        self.secret = streams.secret
        self.effects: list[Any] = []

    def finish(self) -> tuple[State, list[Any]]:
        self.s.rng = self._streams.state()  # type: ignore[attr-defined]
        return self.s, self.effects
