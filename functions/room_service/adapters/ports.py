"""What the service needs from the outside world, as abstract classes every adapter
subclasses: in memory (memory.py: tests, the simulator) and on AWS (dynamodb.py,
apigateway.py, sqs.py; the metrics live with the Lambda wiring). One contract test
suite (tests/service/test_adapter_contract.py) runs the same checks on both stores."""

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from ..domain.room import Binding, Room, Submission
from ..domain.timers import TimerMessage
from .ratelimit import Dues


@dataclass(frozen=True)
class Paced:
    """A message judged against a stream's stored paces: let through or not, and the dues
    as stored after it (as found, if refused), which the container may remember."""

    allowed: bool
    dues: Dues


@dataclass(frozen=True)
class Arrival(Paced):
    """A message judged on its connection: also its binding, and whether it was past the
    connection's quiet share (ratelimit.QUIET_PACE)."""

    binding: Binding | None = None
    busy: bool = False


class RoomStore(ABC):
    @abstractmethod
    def create(self, room: Room) -> bool:
        """Store a new room; False if the code is taken (conditional create)."""

    @abstractmethod
    def load(self, code: str) -> Room | None: ...

    @abstractmethod
    def read(self, code: str) -> tuple[Room | None, list[Submission]]:
        """The room and the pending submissions of the step it stores (``Room.stored_step``;
        none before a game), read at once (a unit of work's load)."""

    @abstractmethod
    def save(self, room: Room, expected_version: int, consumed: list[Submission] = (),
             absent: list[tuple[int, str]] = (), step: int | None = None) -> bool:  # fmt: skip
        """Write ``room`` if the stored version is still ``expected_version``, remove the
        ``consumed`` submissions if each is unchanged, and check that no submission exists
        for each (step, seat) in ``absent``: all or nothing; False if not. ``step``: the
        step the room was loaded at, whose item records this write's version: a move made
        on the room as it was before is then refused (``put_submission``)."""

    @abstractmethod
    def game_journal(self, code: str, last_step: int) -> list[dict[str, Any]]:
        """The turns written down beside every write saved with a ``step`` up to
        ``last_step`` (journal.py), oldest first (of the items TTL has not removed)."""

    @abstractmethod
    def submissions(self, code: str, step: int) -> list[Submission]:
        """The pending submissions of one step."""

    @abstractmethod
    def put_submission(self, code: str, submission: Submission, expected_n: int,
                       room_version: int) -> list[Submission] | None:  # fmt: skip
        """Write one seat's submission if its stored ``n`` is still ``expected_n`` (0: new)
        and no room write newer than ``room_version`` (the room the move was made on) has
        recorded itself on the step (``save``'s ``step``): every seat's submission of the
        step as of this write (this one included), or None if refused."""


class Connections(ABC):
    """connection id → the seat and token it proved (a Binding). Seat → connection lives
    in the room; the service checks the binding against the room on every message."""

    @abstractmethod
    def bind(self, connection_id: str, binding: Binding) -> None: ...

    @abstractmethod
    def lookup(self, connection_id: str) -> Binding | None: ...

    @abstractmethod
    def unbind(self, connection_id: str) -> None: ...

    @abstractmethod
    def arrive(self, connection_id: str, now: float, known: Dues | None = None) -> Arrival:
        """``lookup`` for a message, judged against the connection's paces where every
        container sees them (ratelimit.py: CONNECTION_PACES, with a condition, so two
        containers cannot both take its last place): its binding, whether it is let
        through, whether it is past the quiet share (``busy``: it then counts against its
        address), and the dues as stored after it (or as found, if refused). ``known``:
        the dues this container last saw (a guess that saves a round trip)."""

    @abstractmethod
    def pace_address(self, address: str, now: float, known: Dues | None = None) -> Paced:
        """One busy message from ``address`` judged against ADDRESS_PACE, across all of its
        connections and containers (as ``arrive``)."""

    @abstractmethod
    def open_connection(self, address: str, connection_id: str, now: float, cap: int) -> bool:
        """Hold a place for an open connection from ``address``; False if it already has
        ``cap`` (places older than ratelimit.CONNECTION_LIFETIME_SECONDS, left by a lost
        $disconnect, are given up first). Holding one already is fine."""

    @abstractmethod
    def close_connection(self, address: str, connection_id: str) -> None:
        """Give the connection's place back (nothing if it holds none)."""

    @abstractmethod
    def hit(self, address: str, kind: str, window_start: int, expires_at: int) -> int:
        """Count one more ``kind`` of request from ``address`` in the fixed window that
        starts at ``window_start``; the count so far, this one included."""


class Pusher(ABC):
    @abstractmethod
    def push(self, messages: list[tuple[str, dict[str, Any]]]) -> list[str]:
        """Send each (connection id, message); return the ids found gone (HTTP 410)."""

    @abstractmethod
    def hang_up(self, connection_id: str) -> None:
        """Close the connection's socket (API Gateway's DeleteConnection); one already
        gone is fine."""


class Timers(ABC):
    @abstractmethod
    def schedule(self, timer: TimerMessage, delay_seconds: float) -> None:
        """Deliver ``timer`` to the timer handler after about ``delay_seconds``."""


class Metrics(ABC):
    @abstractmethod
    def count(self, name: str, value: int = 1) -> None: ...

    @abstractmethod
    def context(self, room: str, seat: str | None) -> None:
        """The room and seat being served, for every later log line."""
