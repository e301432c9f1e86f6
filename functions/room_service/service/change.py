"""What a handler is given and what it returns: the Context every handler is passed, the
Change it returns (what a command asks of a room once it is written), and the Commit a unit
of work hands to delivery (the room as written, and what to send)."""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from engine.effects import Effect

from ..adapters.ports import Metrics, RoomStore
from ..domain.room import Binding, Room
from ..domain.timers import TimerMessage
from . import replies


@dataclass(frozen=True)
class Context:
    """What a handler needs besides the room and the command: passed in, so a handler
    reads as a function of what it is given (handlers.py lists them all)."""

    #: The service's clock (game seconds; tests pass a fake one).
    clock: Callable[[], float]
    metrics: Metrics
    #: Read only (a finished game's journal): a handler's writes go through the unit of
    #: work, which writes the room the handler changed.
    store: RoomStore


@dataclass
class Pong:
    connection_id: str
    name: str
    #: The ``rev`` of the view the phone shows (None: it has none).
    client_rev: str | None
    #: Answer with a pong frame (a ping), or only with the view if it differs (a move).
    answer: bool = True


@dataclass
class PendingMove:
    """A move that leaves the step as it is: written as the seat's own submission only."""

    player: str
    action: dict[str, Any]
    at: float
    state: BaseModel
    effects: list[Effect]


@dataclass
class Change:
    """What a change of a room asks for once it is written."""

    direct: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    timers: list[tuple[TimerMessage, float]] = field(default_factory=list)
    write: bool = True
    push_views: bool = True
    #: Connections the change let go (a leave, a kick): unbound once it is written.
    released: list[str] = field(default_factory=list)
    #: Connections whose sockets are closed once the change is delivered (a kicked phone,
    #: told why first: left open, its socket would be billed by the minute until it idled
    #: out, 10 minutes later).
    hung_up: list[str] = field(default_factory=list)
    submission: PendingMove | None = None
    #: The change only seated a reconnected phone: its command runs next, on its seat.
    then_act: bool = False
    #: Answer a ping (or a repeated move) after the write: with the seat's view if the
    #: phone's is another.
    pong: Pong | None = None
    #: A table screen that began watching: sent the public view whether it changed or not.
    watcher: str | None = None
    #: What the phone that arrived (a join, a seat link opened, a table screen) is bound
    #: to once the change is written and delivered: the seat it speaks for, or the room
    #: it watches.
    binding: Binding | None = None
    #: The seat whose move this is, when its move left the step as it was: if only its
    #: view changed, only it is sent one (delivery.py: the acknowledgement).
    mover: str | None = None


def no_change() -> Change:
    return Change(write=False, push_views=False)


@dataclass
class Seen:
    """What a room's phones were last sent: its game and who was connected, before a
    change (a game never changes a state in place: ``apply`` returns a new one)."""

    state: BaseModel | None
    connected: dict[str, bool]
    host: str
    #: The public view the room's table screens had (None: the room had none watching).
    public: dict[str, Any] | None = None
    #: What every screen was told of seats moving (seat_moves.py): a room fact of every view.
    seat_news: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def of(cls, room: Room) -> "Seen":
        connected = replies.online(room)
        public = replies.public_view(room) if room.watchers else None
        return cls(room.state, connected, room.host, public, replies.seat_news(room))

    def game_views(self, room: Room, views: dict[str, dict] | None) -> dict[str, dict] | None:
        """The game views the phones had, to compare with ``views`` (``room``'s); None when
        every view changed anyway: the lobby, a start, a seat (dis)connected, a new host,
        a seat moved to a new phone."""
        now = Seen.of(room)
        if (
            self.state is None
            or views is None
            or (self.connected, self.host, self.seat_news)
            != (now.connected, now.host, now.seat_news)
        ):
            return None
        return views if self.state is room.state else room.rules.views(self.state)


@dataclass
class Commit:
    """A unit of work's outcome: ``room`` as written (or as read, when nothing needed
    writing), the ``change`` to deliver, the views' ``seq``, and what the phones had."""

    room: Room
    change: Change
    seq: int
    seen: Seen | None = None
    #: Filled by delivery: the ``rev`` of the view each seat was pushed (so a
    #: reconnected phone's ping, run right after the push that seated it, is not answered
    #: with that same view a second time).
    pushed: dict[str, str] = field(default_factory=dict)
