"""What the service needs from the outside world. Fakes: memory.py; AWS: aws.py."""

from typing import Any, Protocol

from .model import Binding, Room, Submission


class RoomStore(Protocol):
    def create(self, room: Room) -> bool:
        """Store a new room; False if the code is taken (conditional create)."""

    def load(self, code: str) -> Room | None: ...

    def save(self, room: Room, expected_version: int, consumed: list[Submission] = (),
             absent: list[tuple[int, str]] = ()) -> bool:  # fmt: skip
        """Write ``room`` if the stored version is still ``expected_version``, delete the
        ``consumed`` submissions if each is unchanged, and check that no submission exists
        for each (step, seat) in ``absent``: all or nothing; False if not."""

    def submissions(self, code: str, step: int) -> list[Submission]:
        """The pending submissions of one step."""

    def put_submission(self, code: str, submission: Submission, expected_n: int) -> bool:
        """Write one seat's submission if its stored ``n`` is still ``expected_n`` (0: new)."""

    def delete_submission(self, code: str, submission: Submission) -> bool:
        """Delete one seat's submission if its stored ``n`` is still ``submission.n``."""


class Connections(Protocol):
    """connection id → the seat and token it proved (a Binding). Seat → connection lives
    in the room; the service checks the binding against the room on every message."""

    def bind(self, connection_id: str, binding: Binding) -> None: ...

    def lookup(self, connection_id: str) -> Binding | None: ...

    def unbind(self, connection_id: str) -> None: ...

    def arrive(self, connection_id: str, now: float) -> tuple[Binding | None, bool]:
        """``lookup`` for a message, counting it in the connection's windows (ratelimit.py:
        CONNECTION_WINDOWS): the binding, and False if the message is over a limit."""

    def hit(self, address: str, kind: str, window_start: int, expires_at: int) -> int:
        """Count one more ``kind`` of request from ``address`` in the fixed window that
        starts at ``window_start``; the count so far, this one included."""


class Pusher(Protocol):
    def push(self, messages: list[tuple[str, dict[str, Any]]]) -> list[str]:
        """Send each (connection id, message); return the ids found gone (HTTP 410)."""


class Timers(Protocol):
    def schedule(self, message: dict[str, Any], delay_seconds: float) -> None:
        """Deliver ``message`` to the timer handler after about ``delay_seconds``."""


class Metrics(Protocol):
    def count(self, name: str, value: int = 1) -> None: ...

    def context(self, room: str, seat: str | None) -> None:
        """The room and seat being served, for every later log line."""
