"""Deadlines: the one place that decides whether a room's step has timed out, and the
timer messages a game's StartTimer effects become."""

from engine.effects import Effect, StartTimer

from ..domain.room import Room
from .commands import DeadlineTimer

#: Timers are sent a little late rather than early: SQS never delivers before the delay.
TIMER_MARGIN_SECONDS = 0.5


def time_left(room: Room, now: float) -> float | None:
    """Seconds until the room's step times out (0: it has), or None when no deadline
    runs (a lobby, an untimed step)."""
    deadline = room.rules.deadline(room.state) if room.state is not None else None
    return None if deadline is None else max(0.0, deadline - now)


def deadline_timers(
    room: Room, effects: list[Effect], now: float
) -> list[tuple[DeadlineTimer, float]]:
    """A timer message, and its delay, for each step the effects start a clock on."""
    return [
        (DeadlineTimer(room=room.code, step=e.step, deadline=e.deadline),
         max(0.0, e.deadline - now) + TIMER_MARGIN_SECONDS)
        for e in effects if isinstance(e, StartTimer)
    ]  # fmt: skip
