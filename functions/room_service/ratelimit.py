"""Per-connection message rate limit: a token bucket per connection, in this process.

A phone sends a few messages a second at most (taps, a ping every 4 minutes). A flood from
one connection is refused with a clear error before it is parsed or reaches the store, so
it costs no DynamoDB units and never slows the other seats. The buckets live in the
Lambda container's memory: a flood spread over several warm containers gets each
container's allowance, and API Gateway's stage throttling (template.yaml) bounds the
total. Keeping the count in DynamoDB instead would add a write to every message.
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
