"""Timer messages: what the service asks to be told later, as the queue carries it (SQS,
delayed; docs/protocol.md). The service schedules them (service/deadlines.py), the
Timers port carries them (adapters/ports.py, sqs.py, memory.py) and the timer handler
reads them back with ``parse_timer``. They live in the domain so that every layer may
import them: an adapter that carries a timer never reaches up into the service."""

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter, ValidationError


class DeadlineTimer(BaseModel):
    """Time out ``step`` of the room's game, due at ``deadline`` (absolute seconds)."""

    kind: Literal["deadline"] = "deadline"
    room: str
    step: int
    deadline: float


class HostCheckTimer(BaseModel):
    """The host's phone went away: pass host powers on if it is still gone (§10)."""

    kind: Literal["host_check"] = "host_check"
    room: str


class SeatCheckTimer(BaseModel):
    """A lobby seat's phone went away: free the seat if it is still gone."""

    kind: Literal["seat_check"] = "seat_check"
    room: str
    seat: str


class AwayCheckTimer(BaseModel):
    """A seat's phone went away during a game: with the room's ``auto_away`` on, mark the
    seat Away (§9) if the phone is still gone."""

    kind: Literal["away_check"] = "away_check"
    room: str
    seat: str


TimerMessage = DeadlineTimer | HostCheckTimer | SeatCheckTimer | AwayCheckTimer
_TIMER_ADAPTER: TypeAdapter[TimerMessage] = TypeAdapter(
    Annotated[TimerMessage, Field(discriminator="kind")]
)


def parse_timer(data: Any) -> TimerMessage | None:
    """A timer message as the queue delivered it; None for one no service sends (nothing
    to do: a poison message is not retried for ever)."""
    try:
        return _TIMER_ADAPTER.validate_python(data)
    except ValidationError:
        return None
