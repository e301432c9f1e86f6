"""Admission: the limits a message or a connection meets before any room is read (issue
18): a connection's message rate (in this container and across all of them) and each
source address's connects, rooms and joins."""

from collections.abc import Callable

from engine.errors import GameError

from ..adapters.ports import Connections, Metrics
from ..adapters.ratelimit import (
    BURST,
    CONNECTION_WINDOWS,
    COUNTER_TTL_SECONDS,
    RATE_PER_SECOND,
    RateLimiter,
    window_of,
)
from ..domain.room import Binding


class Refused(Exception):
    """A ``$connect`` that must be refused (wrong room or token): HTTP ``status``."""

    status = 403


class TooManyConnections(Refused):
    """A ``$connect`` over its address's budget (HTTP 429 Too Many Requests)."""

    status = 429


class RateLimited(GameError):
    code = "rate_limited"


class TooManyRooms(GameError):
    code = "too_many_rooms"


class TooManyJoins(GameError):
    code = "too_many_joins"


class Admission:
    def __init__(self, connections: Connections, metrics: Metrics,
                 clock: Callable[[], float]) -> None:  # fmt: skip
        self.connections = connections
        self.metrics = metrics
        self.clock = clock
        self.rate_limiter = RateLimiter()

    def allow(self, connection_id: str) -> None:
        """This container's bucket for the connection (RateLimited when it is empty)."""
        if not self.rate_limiter.allow(connection_id, self.clock()):
            self.rate_limited()

    def rate_limited(self) -> None:
        self.metrics.count("RateLimited")
        raise RateLimited(
            f"Too many messages: at most {RATE_PER_SECOND:g} a second "
            f"({BURST:g} at once), {CONNECTION_WINDOWS[-1][1]} a minute. "
            "Wait a moment; nothing was changed."
        )

    def arrive(self, connection_id: str,
               defer: Callable[[Callable[[], None]], None] | None = None) -> Binding | None:  # fmt: skip
        """The connection's binding, counting this message where every container sees it
        (the in-process bucket alone lets a flood spread over containers through).
        ``defer``: where a write that may wait until the message is answered goes."""
        binding, allowed = self.connections.arrive(connection_id, self.clock(), defer)
        if not allowed:
            self.rate_limited()
        return binding

    def over(self, source_ip: str | None, kind: str, seconds: int, limit: int) -> bool:
        """Count one ``kind`` of request from ``source_ip`` in its fixed window of
        ``seconds``; True if that is over ``limit``. No address (a test, a tool calling the
        service directly): nothing to count against."""
        if source_ip is None:
            return False
        start = window_of(self.clock(), seconds)
        expires_at = start + seconds + COUNTER_TTL_SECONDS
        if self.connections.hit(source_ip, kind, start, expires_at) <= limit:
            return False
        self.metrics.count("AddressLimited")
        return True
