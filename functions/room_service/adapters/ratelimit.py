"""Rate limits (docs/security.md, Floods).

Messages are paced, per connection and per source address, by the generic cell rate
algorithm (GCRA, "virtual scheduling"): a token bucket kept as ONE number per stream, its
``due`` time (when the stream would have caught up at its steady rate). A message at
``now`` is let through while ``due <= now + tolerance``; each one let through moves
``due`` on by one interval from ``max(due, now)``. So a pace of ``burst`` at once and
``per_second`` after lets through at most ``burst + per_second × w`` messages in ANY window
of ``w`` seconds (a sliding window, not a fixed one), in whatever order and on whichever
Lambda container they are judged (each one let through moves ``due`` on by an interval,
and a refused one moves nothing).

The dues live on DynamoDB items every container sees, written with a condition (so two
containers racing cannot both take the last place); a container remembers the dues it
last saw (``KnownDues``): a due only moves on, so one already past the tolerance refuses
the next message with no DynamoDB call at all. Refused frames are thus cheap, which is
what keeps the other rooms fast under a flood (bench/flood.py).

Time is in whole milliseconds, on the time the frame reached API Gateway (a frame that
waited for a container is judged by when it was sent, as it is on AWS, where none waits).
"""

import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

#: A stream's dues by name (milliseconds since the epoch).
Dues = dict[str, int]
#: API Gateway gives up on an integration after 29 seconds: no frame waits longer for its
#: Lambda, so no frame is judged later than this after it was sent.
LONGEST_WAIT_SECONDS = 29.0


@dataclass(frozen=True)
class Pace:
    """At most ``burst`` messages at once, then ``per_second`` a second."""

    per_second: float
    burst: int

    @property
    def interval_ms(self) -> int:
        return round(1000 / self.per_second)

    @property
    def tolerance_ms(self) -> int:
        return (self.burst - 1) * self.interval_ms

    def most_in(self, seconds: float) -> int:
        """The most messages this pace lets through in any window of ``seconds`` (its
        ends included): the first at the window's start finds ``due`` caught up at best,
        and each later one needs ``due`` within the tolerance of its time."""
        return self.burst + math.floor(seconds * 1000 / self.interval_ms)


class Standing(Enum):
    """Where a message finds its stream's ``due``."""

    CAUGHT_UP = "caught up"  # due <= now (or none yet): it becomes now + one interval
    AHEAD = "ahead"  # now < due <= now + tolerance: due moves on by one interval
    OVER = "over"  # due > now + tolerance: refused (or, for QUIET, counted); due stays
    #: due further ahead than any frame judged by this clock could have set it (below): a
    #: clock ahead of this one did (another local stack's faster game clock over the same
    #: store, a host's skew). Taken as caught up, so a clock's jump cannot shut a stream out.
    ANOTHER_CLOCK = "another clock"


def standing(pace: Pace, due: int | None, now_ms: int) -> Standing:
    if due is None or due <= now_ms:
        return Standing.CAUGHT_UP
    if due <= now_ms + pace.tolerance_ms:
        return Standing.AHEAD
    if due <= furthest_due(pace, now_ms):
        return Standing.OVER
    return Standing.ANOTHER_CLOCK


def furthest_due(pace: Pace, now_ms: int) -> int:
    """The furthest ahead of ``now_ms`` that frames judged by this clock can have set the
    due: one let through at the tolerance's edge, sent up to LONGEST_WAIT_SECONDS after a
    frame that waited that long to be judged (frames are judged by when they were sent,
    not always in that order)."""
    return now_ms + pace.tolerance_ms + pace.interval_ms + in_ms(LONGEST_WAIT_SECONDS)


def next_due(pace: Pace, due: int | None, now_ms: int) -> int | None:
    """The stream's due after a message at ``now_ms`` is let through; None if it is over."""
    found = standing(pace, due, now_ms)
    if found is Standing.OVER:
        return None
    return (due if found is Standing.AHEAD else now_ms) + pace.interval_ms


def judge(paces: Mapping[str, Pace], dues: Mapping[str, int], now_ms: int) -> dict[str, Standing]:
    """Each pace's standing for a message at ``now_ms``, given the stream's dues."""
    return {name: standing(pace, dues.get(name), now_ms) for name, pace in paces.items()}


def in_ms(seconds: float) -> int:
    return round(seconds * 1000)


# == per connection: the connection's item (CONN#<id>) ====================================
#: The connection's own limit: 26 at once, then 4 a second, so at most 30 in any second
#: and 266 in any minute (docs/security.md promised 30 and 300). A phone taps a few times
#: a second at most (a move, a cover, a ping on waking); 26 at once covers a reconnect's
#: catch-up and a host's quick settings taps with room to spare.
CONNECTION_PACE = Pace(per_second=4, burst=26)
#: A connection's "quiet" share: its frames within 3 at once and one a second count against
#: nothing else; beyond that ("busy") each one also counts against its source address
#: (ADDRESS_PACE). A phone at a real table stays within it: a step asks a move and perhaps
#: its cover, or a ping when the phone wakes or its player taps "Waiting for".
QUIET_PACE = Pace(per_second=1, burst=3)
#: The connection item's attributes holding each pace's due.
LIMIT, QUIET = "d", "q"
CONNECTION_PACES = {LIMIT: CONNECTION_PACE, QUIET: QUIET_PACE}

# == per source address, across its connections: IP#<address> items ======================
#: Busy frames (past their connection's quiet share) from one address, across all of its
#: connections: 10 at once, then 5 a second; while that is over, its quiet frames are
#: refused too (Admission.refuse_early). A table's phones stay within their quiet shares,
#: so several tables behind one NAT send almost none (a host tapping the settings quickly,
#: a player changing a vote twice); a flooder meets it within a second, however it spreads
#: its frames over its connections. The local stack processes about 50 pings a second on
#: two cores: one address's flood must stay well under that for another room to stay fast
#: there (bench/flood.py); on AWS it bounds what one address costs.
ADDRESS_PACE = Pace(per_second=5, burst=10)
#: The address item's attribute holding that pace's due.
ADDRESS = "d"
ADDRESS_PACES = {ADDRESS: ADDRESS_PACE}
#: Open connections per address: a few tables' worth. A table is up to 12 phones and a TV
#: (a room takes 4 screens at most); a phone whose network vanished keeps its old
#: connection open until API Gateway notices (up to its 10-minute idle timeout), so each
#: phone may briefly count twice: 4 tables × (12 × 2 + 1) = 100.
OPEN_CONNECTIONS_PER_IP = 100
#: An open connection's place is held at most this long: API Gateway closes every
#: connection after 2 hours, so an older place was left by a lost $disconnect.
CONNECTION_LIFETIME_SECONDS = 2 * 3600

#: Per source address, counted in fixed windows (items that expire by TTL). A whole table
#: of 4–12 friends usually shares ONE address (the venue's Wi-Fi behind NAT), and a bar may
#: host two or three tables at once; so each cap is several parties' worth, never reached
#: by a real one: rematches reuse their room, a reloaded phone reconnects with its token
#: (a connect, not a join), a wrong code or a taken name costs one attempt. A prober or a
#: room factory meets them within seconds.
#: Reconnects: 12 phones dropping off the Wi-Fi three times in one minute are 36.
CONNECTS_PER_IP_PER_MINUTE = 60
#: A party creates one room (two if someone starts a second table or creates by mistake).
ROOMS_PER_IP_PER_HOUR = 30
#: Joins, right or wrong: 12 seats, plus leaving and rejoining, plus typos, per table.
JOIN_ATTEMPTS_PER_IP_PER_HOUR = 200

#: Counter items outlive their window by this long, then expire (TTL).
COUNTER_TTL_SECONDS = 3600
#: A connection is told it was refused at most once in this long per container: a refused
#: frame answered each time would cost a post (a billed message, a management API call)
#: per frame of the flood it refuses. A phone shows the first refusal; it is told again
#: once this has passed.
REFUSAL_NOTICE_SECONDS = 5.0
#: Forget what a container knows of streams once it knows this many (bounds its memory).
PRUNE_ABOVE = 5000


def window_of(now: float, seconds: int) -> int:
    """The fixed window (its start, in whole seconds) that ``now`` falls in."""
    return int(now // seconds) * seconds


class KnownDues:
    """A container's memory of the dues it last saw stored, by stream (a connection, an
    address), each answer of the table replacing the last. Every due only moves on, so what
    it remembers is a lower bound of what is stored: a message it already finds over its
    pace is over it in the table too, and is refused without a call. (An unbound
    connection's item is deleted with its dues, and a cover moves a due in memory alone:
    then a container refuses that connection a little sooner than the table would, never
    later.)"""

    def __init__(self, prune_above: int = PRUNE_ABOVE) -> None:
        self.prune_above = prune_above
        self._dues: dict[str, Dues] = {}

    def of(self, stream: str) -> Dues:
        return dict(self._dues.get(stream, {}))

    def note(self, stream: str, dues: Mapping[str, int], now_ms: int) -> None:
        if stream not in self._dues and len(self._dues) >= self.prune_above:
            self._prune(now_ms)
        self._dues.setdefault(stream, {}).update(dues)  # what the table said last is what it holds

    def _prune(self, now_ms: int) -> None:
        """Streams whose every due has passed: remembering them changes no decision."""
        caught_up = [s for s, dues in self._dues.items() if max(dues.values(), default=0) <= now_ms]
        for stream in caught_up:
            del self._dues[stream]
