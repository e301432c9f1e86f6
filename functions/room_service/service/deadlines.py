"""Deadlines: the one place that decides whether a room's step has timed out, and the
timer messages (with their delays) the service schedules: a game's StartTimer effects,
and the checks on a phone gone away (the host's grace, a lobby seat, auto-Away)."""

from engine.effects import Effect, StartTimer

from ..domain.room import (
    AUTO_AWAY_SECONDS,
    HOST_GRACE_SECONDS,
    LOBBY_SEAT_GRACE_SECONDS,
    Room,
    Seat,
)
from ..domain.timers import (
    AwayCheckTimer,
    DeadlineTimer,
    HostCheckTimer,
    SeatCheckTimer,
    TimerMessage,
)

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
        (DeadlineTimer(room=room.code, step=room.room_step(e.step), deadline=e.deadline),
         max(0.0, e.deadline - now) + TIMER_MARGIN_SECONDS)
        for e in effects if isinstance(e, StartTimer)
    ]  # fmt: skip


def host_check(room: Room) -> tuple[TimerMessage, float]:
    """§10: look again once the host's phone has been gone HOST_GRACE_SECONDS."""
    return HostCheckTimer(room=room.code), HOST_GRACE_SECONDS + TIMER_MARGIN_SECONDS


def seat_check(room: Room, seat: Seat) -> tuple[TimerMessage, float]:
    """Look again once a lobby seat's phone has been gone its grace: a seat gone that long
    is freed, so nobody squats a lobby."""
    check = SeatCheckTimer(room=room.code, seat=seat.name)
    return check, LOBBY_SEAT_GRACE_SECONDS + TIMER_MARGIN_SECONDS


def away_checks(room: Room, seats: list[Seat], now: float) -> list[tuple[TimerMessage, float]]:
    """With ``auto_away`` on during a game, a check for each of ``seats`` whose
    phone is offline, due AUTO_AWAY_SECONDS after it went (far inside SQS's 900 s)."""
    if room.state is None or not room.auto_away:
        return []
    return [
        (AwayCheckTimer(room=room.code, seat=seat.name),
         max(0.0, seat.disconnected_at + AUTO_AWAY_SECONDS - now) + TIMER_MARGIN_SECONDS)
        for seat in seats if seat.connection is None and seat.disconnected_at is not None
    ]  # fmt: skip
