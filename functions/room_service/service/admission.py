"""Admission: the limits a message or a connection meets before any room is read
(docs/security.md, Floods): a connection's pace and its address's, paced where every
container sees them (ratelimit.py), each source address's open connections, connects,
rooms and joins."""

from collections.abc import Callable

from engine.errors import GameError

from ..adapters.ports import Connections, Metrics
from ..adapters.ratelimit import (
    ADDRESS,
    ADDRESS_PACE,
    CONNECTION_PACE,
    COUNTER_TTL_SECONDS,
    LIMIT,
    OPEN_CONNECTIONS_PER_IP,
    REFUSAL_NOTICE_SECONDS,
    KnownDues,
    Standing,
    in_ms,
    next_due,
    standing,
    window_of,
)
from ..domain.room import Binding

#: The metrics a refusal counts, one name per limit, so an alarm on errors never counts
#: throttling (the template's alarms, docs/security.md).
PER_CONNECTION_LIMITED = "RateLimited"
PER_ADDRESS_LIMITED = "MessagesPerAddressLimited"
CONNECTIONS_LIMITED = "ConnectionsPerAddressLimited"
ADDRESS_WINDOW_LIMITED = "AddressLimited"


class Refused(Exception):
    """A ``$connect`` that must be refused (a foreign origin, too many connections from its
    address): HTTP ``status``. A seat is never refused here (``RoomService.connect``)."""

    status = 403


class TooManyConnections(Refused):
    """A ``$connect`` over its address's budget (HTTP 429 Too Many Requests)."""

    status = 429


class RateLimited(GameError):
    """A message over its connection's or its address's pace. ``answered``: False when
    this connection was told so less than REFUSAL_NOTICE_SECONDS ago (nothing is sent)."""

    code = "rate_limited"

    def __init__(self, message: str, answered: bool) -> None:
        super().__init__(message)
        self.answered = answered


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
        #: The dues this container last saw stored, per connection and per address.
        self.known = KnownDues()
        #: Per connection: when it may next be told that a frame was refused.
        self.notices = KnownDues()

    # == messages =========================================================================
    def refuse_early(self, connection_id: str, source_ip: str | None, arrived: float) -> None:
        """Before the frame is read: refused (RateLimited), with no DynamoDB call, if what
        this container already knows puts it over its connection's pace, or its address
        over the address's. The dues it knows are lower bounds of the stored ones
        (KnownDues), so the table finds them over too. An address over its pace has every
        frame refused here, quiet ones too: they are not counted against it, but while its
        busy frames already take all it may send, a flood's quiet shares would let it send
        more (12 connections' shares are more than the address's own pace)."""
        now_ms = in_ms(arrived)
        dues = self.known.of(_connection(connection_id))
        if standing(CONNECTION_PACE, dues.get(LIMIT), now_ms) is Standing.OVER:
            self._refuse(connection_id, arrived, PER_CONNECTION_LIMITED)
        if source_ip is not None:
            address_due = self.known.of(_address(source_ip)).get(ADDRESS)
            if standing(ADDRESS_PACE, address_due, now_ms) is Standing.OVER:
                self._refuse(connection_id, arrived, PER_ADDRESS_LIMITED)

    def pace_locally(self, connection_id: str, arrived: float) -> None:
        """A frame that reaches no table (a ``cover``): it moves on the connection's pace in
        this container's memory alone, so a flood of covers meets the pace here (after
        ``refuse_early``); its due may then run ahead of the stored one, which makes this
        container refuse that connection sooner than the table would, never later."""
        stream, now_ms = _connection(connection_id), in_ms(arrived)
        due = next_due(CONNECTION_PACE, self.known.of(stream).get(LIMIT), now_ms)
        if due is not None:  # refuse_early refused it otherwise
            self.known.note(stream, {LIMIT: due}, now_ms)

    def arrive(self, connection_id: str, source_ip: str | None, arrived: float) -> Binding | None:
        """The connection's binding, its message judged where every container sees it: on
        the connection's item (one conditional write, the lookup every message makes
        anyway), and, if the connection is past its quiet share, against its address's
        pace too (a second write, which a phone at a table never makes)."""
        stream = _connection(connection_id)
        arrival = self.connections.arrive(connection_id, arrived, self.known.of(stream))
        self.known.note(stream, arrival.dues, in_ms(arrived))
        if not arrival.allowed:
            self._refuse(connection_id, arrived, PER_CONNECTION_LIMITED)
        if arrival.busy and source_ip is not None:
            stream = _address(source_ip)
            paced = self.connections.pace_address(source_ip, arrived, self.known.of(stream))
            self.known.note(stream, paced.dues, in_ms(arrived))
            if not paced.allowed:
                self._refuse(connection_id, arrived, PER_ADDRESS_LIMITED)
        return arrival.binding

    def _refuse(self, connection_id: str, arrived: float, metric: str) -> None:
        self.metrics.count(metric)
        notice = _connection(connection_id)
        answered = self.notices.of(notice).get("next", 0) <= in_ms(arrived)
        if answered:
            self.notices.note(notice, {"next": in_ms(arrived + REFUSAL_NOTICE_SECONDS)},
                              in_ms(arrived))  # fmt: skip
        if metric == PER_ADDRESS_LIMITED:
            text = (f"Too many messages from your network: at most "
                    f"{ADDRESS_PACE.per_second:g} a second from its busy connections.")  # fmt: skip
        else:
            text = (f"Too many messages: at most {CONNECTION_PACE.burst} at once, then "
                    f"{CONNECTION_PACE.per_second:g} a second.")  # fmt: skip
        raise RateLimited(f"{text} Wait a moment; nothing was changed.", answered)

    # == connections and per-address windows ==============================================
    def open_connection(self, source_ip: str | None, connection_id: str) -> None:
        """Hold a place among the address's open connections (TooManyConnections when it
        has OPEN_CONNECTIONS_PER_IP): each connection brings fresh budgets of its own."""
        if source_ip is None:
            return
        if not self.connections.open_connection(source_ip, connection_id, self.clock(),
                                                OPEN_CONNECTIONS_PER_IP):  # fmt: skip
            self.metrics.count(CONNECTIONS_LIMITED)
            raise TooManyConnections(
                f"Too many open connections from your network: at most "
                f"{OPEN_CONNECTIONS_PER_IP}. Close another tab or try again later."
            )

    def close_connection(self, source_ip: str | None, connection_id: str) -> None:
        if source_ip is not None:
            self.connections.close_connection(source_ip, connection_id)

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
        self.metrics.count(ADDRESS_WINDOW_LIMITED)
        return True


def _connection(connection_id: str) -> str:
    return f"CONN#{connection_id}"


def _address(source_ip: str) -> str:
    return f"IP#{source_ip}"
