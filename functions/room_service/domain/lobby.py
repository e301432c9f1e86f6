"""Lobby rules (RULES §10): who may join, seats let go, host hand-over, bans.

Pure functions of a room and the time: they change the room passed in and never read or
write anything else. The service's handlers call them inside a unit of work.
"""

from pydantic import BaseModel

from engine.errors import IllegalAction

from .names import NameTaken, names_clash
from .room import (
    KICK_BAN_SECONDS,
    LOBBY_SEAT_GRACE_SECONDS,
    MAX_BANS,
    REVOKED_TOKEN_HASH,
    Ban,
    Room,
    Seat,
)


class CannotJoin(IllegalAction):
    """The one answer to a join of a room that is not an open lobby with a free seat: no
    such room, a closed one, a game under way, a full room. A phone probing
    codes learns nothing from it; the phone words it in the player's language."""

    code = "cannot_join"

    def __init__(self) -> None:
        super().__init__(
            "You can't join that room now: check the code, or ask the host for the link. If "
            "your game has already started, ask the host for your seat's link (a full or "
            "closed room can't be joined either).",
            "§10",
        )


class KeptOut(IllegalAction):
    """A kicked cat trying to come back before the ban ends."""

    code = "kept_out"

    def __init__(self) -> None:
        super().__init__(
            f"The host removed you from this room: you can't join it again until "
            f"{KICK_BAN_SECONDS // 60} minutes have passed.",
            "§10",
            params={"minutes": KICK_BAN_SECONDS // 60},
        )


def join_problem(room: Room, name: str, address: str | None, now: float,
                 gone: list[Seat] = ()) -> None:  # fmt: skip
    """Refuse a join: CannotJoin unless the room is an open lobby with a free seat
    (``gone`` seats will be freed first); then KeptOut for a kicked cat, NameTaken for
    a name too like a seated one. Those two reveal only a lobby the phone could have
    joined under another name."""
    seats = [seat for seat in room.seats if seat not in gone]
    if room.closed or room.started or not seats or len(seats) >= room.rules.max_players:
        raise CannotJoin()
    for ban in room.bans:
        if ban.until > now and (
            names_clash(ban.name, name) or (address and ban.address == address)
        ):
            raise KeptOut()
    if any(names_clash(seat.name, name) for seat in seats):
        raise NameTaken()


def host_only(room: Room, name: str, what: str) -> None:
    if room.host != name:
        raise IllegalAction(f"Only the host can {what}.", "§10", code="host_only")


def lobby_only(room: Room, what: str) -> None:
    if room.started:
        raise IllegalAction(f"You can {what} only in the lobby.", "§10", code="lobby_only")


def seated(room: Room, name: str) -> Seat:
    seat = room.seat(name)
    if seat is None:
        raise IllegalAction(
            f"There is no cat named {name!r} here.",
            "§10",
            code="no_such_cat",
            params={"name": name},
        )
    return seat


def reorder(room: Room, order: list[str]) -> None:
    if sorted(order) != sorted(seat.name for seat in room.seats):
        raise IllegalAction(
            "The new order must name every seated cat once.", "§10", code="reorder_every_cat"
        )
    by_name = {seat.name: seat for seat in room.seats}
    room.seats = [by_name[name] for name in order]


def kick(room: Room, host: str, target: str, now: float) -> Seat:
    """The host removes ``target`` from the lobby and keeps them out a while: the seat."""
    seat = seated(room, target)
    if seat.name == host:
        raise IllegalAction(
            "The host cannot kick themselves; use leave.", "§10", code="kick_yourself"
        )
    room.seats.remove(seat)
    ban(room, seat, now)
    return seat


def ban(room: Room, seat: Seat, now: float) -> None:
    """Keep a kicked cat out for KICK_BAN_SECONDS: by name (its skeleton, so a
    look-alike is kept out too), and by the address it joined from unless that is the
    host's (friends at one table are often all behind the venue's one address: banning
    it would shut the table out). Other seats sharing it do not spare it: squatters
    running several phones from one address are kept out by the first kick."""
    host = room.seat(room.host)
    address = None if host is not None and host.address == seat.address else seat.address
    bans = [ban for ban in room.bans if ban.until > now]
    bans.append(Ban(name=seat.name, address=address, until=now + KICK_BAN_SECONDS))
    room.bans = bans[-MAX_BANS:]


def hand_over(room: Room, host: str, target: str) -> None:
    """§10: the host gives host powers to another cat, in the lobby or mid-game."""
    seat = seated(room, target)
    if seat.name == host:
        raise IllegalAction("You are already the host.", "§10", code="already_host")
    if seat.connection is None:
        raise IllegalAction(
            f"{seat.name} is offline; hand over to a connected cat.", "§10",
            code="hand_over_offline", params={"name": seat.name},
        )  # fmt: skip
    make_host(room, seat.name)


def make_host(room: Room, name: str) -> None:
    room.host = name
    if room.host_away == name:
        room.host_away = None
    if room.state is not None:
        room.state = room.rules.set_host(room.state, name)


def pass_host(room: Room, after: int | None = None, anyone: bool = False) -> bool:
    """Host powers pass to the next connected human cat in seat order (never to a bot,
    which never starts a game: §10 as amended, docs/protocol.md), searching from the seat
    after index ``after`` (default: the host's seat; once that seat is
    removed, the caller passes the index just before the place it had).
    ``anyone``: the host's seat is gone or no token opens it any more, so with nobody
    connected they pass to the next seat all the same: the host is never a name no
    phone holds, which a new join could take with its powers."""
    names = [seat.name for seat in room.seats]
    if after is None:
        after = names.index(room.host) if room.host in names else len(names) - 1
    others = [room.seats[(after + 1 + offset) % len(names)] for offset in range(len(names))]
    others = [seat for seat in others if seat.name != room.host]
    humans = [seat for seat in others if not seat.bot]  # a bot host would never start
    connected = [seat for seat in humans if seat.connection]
    chosen = connected or ((humans or others) if anyone else [])
    if not chosen:
        return False
    make_host(room, chosen[0].name)
    return True


def host_returns(room: Room, seat: Seat) -> None:
    """A reconnecting phone whose host powers passed while it was away takes them back
    (§10 as amended, docs/protocol.md): the cat who made the room is its host again."""
    if room.host_away == seat.name and room.host != seat.name:
        make_host(room, seat.name)


def free_seat(room: Room, seat: Seat, now: float) -> None:
    """A lobby seat let go (left, or its phone gone too long): the host passes on, and
    the last seat closes the room (never joinable again; TTL takes it)."""
    index = room.seats.index(seat)
    room.seats.remove(seat)
    if room.host_away == seat.name:
        room.host_away = None
    if room.host == seat.name and room.seats:
        pass_host(room, after=index - 1, anyone=True)
    if not room.seats:
        room.expires_at = int(now)  # closed: let TTL take it


def gone_seats(room: Room, now: float) -> list[Seat]:
    """Lobby seats whose phone has been gone LOBBY_SEAT_GRACE_SECONDS or more."""
    if room.started:
        return []
    return [
        seat for seat in room.seats
        if seat.connection is None and seat.disconnected_at is not None
        and now - seat.disconnected_at >= LOBBY_SEAT_GRACE_SECONDS
    ]  # fmt: skip


def free_gone_seats(room: Room, now: float) -> bool:
    """Free every lobby seat gone too long; True if any was."""
    gone = gone_seats(room, now)
    for seat in gone:
        free_seat(room, seat, now)
    return bool(gone)


def back_to_lobby(room: Room, now: float) -> list[Seat]:
    """A game that has ended returns its room to the lobby at once, so latecomers
    may join and the host may change settings, reorder and kick before playing again. The
    lobby keeps the game's public result (``last_result``) for the seats that played it.

    A seat left mid-game (no token opens it any more) is freed. A seat whose phone is
    offline starts its lobby grace now (a phone that reconnects within it lands in the
    lobby with the result; later it is freed like any lobby seat): those seats are returned
    so their seat checks can be scheduled."""
    game, finished = room.rules, room.state
    last_step = room.room_step(game.step(finished))
    room.last_result = {**game.table_view(finished), "step": last_step}
    room.steps_before = last_step
    room.state = None
    for seat in [seat for seat in room.seats if seat.token_hash == REVOKED_TOKEN_HASH]:
        free_seat(room, seat, now)
    offline = []
    for seat in room.seats:
        seat.played_last_game = True
        if seat.connection is None:
            seat.disconnected_at = now
            offline.append(seat)
    return offline


def forget_last_result(room: Room) -> None:
    """A new game starts: the last result is no longer the lobby's."""
    room.last_result = None
    for seat in room.seats:
        seat.played_last_game = False


def choose_game(room: Room, game: str, settings: BaseModel) -> None:
    """The host picks the game the room plays next, with ``settings`` read by
    that game. Another game's last result is forgotten: its table is not this game's."""
    if game != room.game:
        forget_last_result(room)
    room.game, room.settings = game, settings
