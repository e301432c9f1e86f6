"""A seat moving to another phone: a dead battery, a broken phone, or a substitute taking
over a player who has to leave, without anyone reading another player's secrets.

A seat's one-time link carries a key (only its hash is stored, as a token's is) that opens
that seat once, within SEAT_LINK_SECONDS. A seated phone may make its own seat's link at
any time (its "move my seat" QR). The host may make one for a seat whose phone has been
gone at least SEAT_LINK_OFFLINE_SECONDS, and the whole table is told on every screen, so a
host cannot quietly open someone's seat (and read its secrets) while its owner is here.
Every move is told as well. Pure functions of a room and the time, like lobby.py.
"""

import secrets
from typing import NamedTuple

from engine.errors import IllegalAction

from .lobby import host_only, host_returns, seated
from .room import (
    SEAT_NEWS_KEPT,
    SEAT_NEWS_SECONDS,
    Room,
    Seat,
    SeatNews,
    hash_token,
    new_token,
)

#: A seat's link opens it once, within this long (ten minutes): a link left on a screen or
#: in a chat soon opens nothing.
SEAT_LINK_SECONDS = 600
#: The host may make a link for another's seat once its phone has been gone this long: as
#: long as host powers wait before they pass (§10), so a phone that only blinked (a lift,
#: a Wi-Fi handover) is not taken from its owner.
SEAT_LINK_OFFLINE_SECONDS = 30


class SeatStillHere(IllegalAction):
    def __init__(self, name: str) -> None:
        super().__init__(
            f"{name}'s phone is still here (or left less than {SEAT_LINK_OFFLINE_SECONDS} s "
            "ago): only that phone can move its seat now.",
            "§10", code="seat_link_still_here",
            params={"name": name, "seconds": SEAT_LINK_OFFLINE_SECONDS},
        )  # fmt: skip


class SeatLinkUsed(IllegalAction):
    """The one answer for a key that opens no seat: used, out of date, replaced by a newer
    link, or never made (a guess learns nothing)."""

    code = "seat_link_used"

    def __init__(self) -> None:
        super().__init__(
            "This seat link was used already or is out of date. Ask for a new one.", "§10"
        )


class SeatMoved(IllegalAction):
    """Told to the phone a seat moved away from, before its socket is closed."""

    code = "seat_moved"

    def __init__(self) -> None:
        super().__init__("Your seat moved to another phone.", "§10")


class SeatLinkKey(NamedTuple):
    """A seat's one-time key, and until when it opens the seat (what the phone is sent)."""

    key: str
    until: float


def make_link(room: Room, asker: str, seat_name: str, now: float) -> SeatLinkKey:
    """A new one-time key for ``seat_name``'s seat, asked for by ``asker`` (the seat's own
    phone, or the host for a phone gone long enough). A newer link replaces an older one."""
    seat = seated(room, seat_name)
    if seat_name != asker:
        host_only(room, asker, "make a link for another's seat")
        gone_for = now - seat.disconnected_at if seat.disconnected_at is not None else 0.0
        if seat.connection is not None or gone_for < SEAT_LINK_OFFLINE_SECONDS:
            raise SeatStillHere(seat_name)
        tell(room, SeatNews(name=seat_name, what="link", at=now))
    link = SeatLinkKey(new_token(), now + SEAT_LINK_SECONDS)
    seat.link_hash, seat.link_until = hash_token(link.key), link.until
    return link


def take(room: Room, key: str, connection_id: str, now: float) -> tuple[Seat, str, str | None]:
    """The seat ``key`` opens, taken by ``connection_id``: its new token, and the connection
    it was taken from (None if its phone was gone). The key then opens nothing, and every
    socket bound to the old token speaks for nobody (a Binding holds its token's hash)."""
    digest = hash_token(key)
    seat = next(
        (s for s in room.seats
         if s.link_hash and s.link_until and s.link_until > now
         and secrets.compare_digest(s.link_hash, digest)),
        None,
    )  # fmt: skip
    if seat is None:
        raise SeatLinkUsed()
    token = new_token()
    old = seat.connection
    seat.token_hash, seat.link_hash, seat.link_until = hash_token(token), None, None
    seat.connection, seat.disconnected_at = connection_id, None
    host_returns(room, seat)
    tell(room, SeatNews(name=seat.name, what="moved", at=now))
    return seat, token, old


def tell(room: Room, news: SeatNews) -> None:
    """Adds ``news`` to what every screen shows: the newest SEAT_NEWS_KEPT of the last
    SEAT_NEWS_SECONDS."""
    recent = [n for n in room.seat_news if news.at - n.at < SEAT_NEWS_SECONDS]
    room.seat_news = [*recent, news][-SEAT_NEWS_KEPT:]
