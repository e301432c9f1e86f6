"""Rate limits: a token bucket per connection in this process, then counters in the
table that every Lambda container sees (issue 18; docs/security.md, Floods).

A phone sends a few messages a second at most (taps, a ping every 4 minutes). A flood from
one connection is first refused by this container's bucket, before it is parsed or reaches
the store, so it costs no DynamoDB units and never slows the other seats. A flood spread
over several warm containers gets each container's bucket, so every parsed message is
also counted on the connection's item (CONNECTION_WINDOWS), by the UpdateItem that looks
its binding up anyway. Per source address, connects, room creations and join attempts are
counted in fixed windows (items that expire by TTL).
"""

from dataclasses import dataclass

#: Sustained messages per second a connection may send, and the burst it may save up.
RATE_PER_SECOND = 10.0
BURST = 30.0
#: Buckets idle this long are forgotten (a full bucket is the same as no bucket).
IDLE_SECONDS = BURST / RATE_PER_SECOND
#: Forget idle buckets once there are this many (bounds the memory a container uses).
PRUNE_ABOVE = 5000


@dataclass
class _Bucket:
    tokens: float
    at: float


class RateLimiter:
    def __init__(self, rate: float = RATE_PER_SECOND, burst: float = BURST) -> None:
        self.rate, self.burst = rate, burst
        self._buckets: dict[str, _Bucket] = {}

    def allow(self, connection_id: str, now: float) -> bool:
        """Take one token for this connection's message; False when it has none left."""
        bucket = self._buckets.get(connection_id)
        if bucket is None:
            if len(self._buckets) >= PRUNE_ABOVE:
                self._prune(now)
            bucket = self._buckets[connection_id] = _Bucket(self.burst, now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.rate)
        bucket.at = now
        if bucket.tokens < 1:
            return False
        bucket.tokens -= 1
        return True

    def _prune(self, now: float) -> None:
        idle = [c for c, b in self._buckets.items() if now - b.at >= IDLE_SECONDS]
        for connection_id in idle:
            del self._buckets[connection_id]


# == limits every container sees (counters in the table, issue 18) =========================
#: Per connection, across all containers: at most this many messages in each window. The
#: count rides on the connection lookup every message makes anyway (one UpdateItem instead
#: of one GetItem), so it adds no request. (seconds, messages): the burst the bucket above
#: allows, and its sustained rate's order (a phone's taps stay far below both).
CONNECTION_WINDOWS: tuple[tuple[int, int], ...] = ((1, 30), (60, 300))

#: Per source address. A whole table of 4–12 friends usually shares ONE address (the
#: venue's Wi-Fi behind NAT), and a bar may host two or three tables at once; so each cap
#: is several parties' worth, never reached by a real one: rematches reuse their room,
#: a reloaded phone reconnects with its token (a connect, not a join), a wrong code or a
#: taken name costs one attempt. A prober or a room factory meets them within seconds.
#: Reconnects: 12 phones dropping off the Wi-Fi three times in one minute are 36.
CONNECTS_PER_IP_PER_MINUTE = 60
#: A party creates one room (two if someone starts a second table or creates by mistake).
ROOMS_PER_IP_PER_HOUR = 30
#: Joins, right or wrong: 12 seats, plus leaving and rejoining, plus typos, per table.
JOIN_ATTEMPTS_PER_IP_PER_HOUR = 200

#: Counter items outlive their window by this long, then expire (TTL).
COUNTER_TTL_SECONDS = 3600


def window_of(now: float, seconds: int) -> int:
    """The fixed window (its start, in whole seconds) that ``now`` falls in."""
    return int(now // seconds) * seconds


def count_message(n: int, bases: list[int], lasts: list[int | None], now: float,
                  windows=CONNECTION_WINDOWS) -> tuple[bool, dict[int, int]]:  # fmt: skip
    """Decide the ``n``-th message of a connection from its stored counter: whether it is
    allowed, and the windows that restart at it (index → new base).

    A window keeps ``bases[i]``, the message count when it last restarted, and
    ``lasts[i]``, the window of the connection's previous message (None: none yet). A
    message is allowed while, in every window, the messages since its restart are at most
    its limit. A window restarts only at the first message of a new window, and only if
    more than a third of its limit was used since its last restart: a phone that sends
    little never pays that write, and each window still gets between two thirds of its
    limit and its limit."""
    allowed, restarts = True, {}
    for i, ((seconds, limit), base, last) in enumerate(zip(windows, bases, lasts, strict=True)):
        if last != window_of(now, seconds) and n - 1 - base > limit // 3:
            restarts[i] = base = n - 1
        allowed = allowed and n - base <= limit
    return allowed, restarts
