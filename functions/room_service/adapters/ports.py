"""What the service needs from the outside world, as abstract classes every adapter
subclasses: in memory (memory.py: tests, the simulator) and on AWS (dynamodb.py,
apigateway.py, sqs.py; the metrics live with the Lambda wiring). One contract test
suite (tests/service/test_adapter_contract.py) runs the same checks on both stores."""

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from ..domain.room import Binding, Room, Submission
from ..service.commands import TimerMessage


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
    def arrive(self, connection_id: str, now: float,
               defer: Callable[[Callable[[], None]], None] | None = None,
               ) -> tuple[Binding | None, bool]:  # fmt: skip
        """``lookup`` for a message, counting it in the connection's windows (ratelimit.py:
        CONNECTION_WINDOWS): the binding, and False if the message is over a limit.
        ``defer``: given a write the answer does not depend on (a window's restart), to
        make while the message is answered; without it the write is made at once."""

    @abstractmethod
    def hit(self, address: str, kind: str, window_start: int, expires_at: int) -> int:
        """Count one more ``kind`` of request from ``address`` in the fixed window that
        starts at ``window_start``; the count so far, this one included."""


class Pusher(ABC):
    @abstractmethod
    def push(self, messages: list[tuple[str, dict[str, Any]]]) -> list[str]:
        """Send each (connection id, message); return the ids found gone (HTTP 410)."""


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
