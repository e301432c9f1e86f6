"""Handlers of the lobby and of seats: leave, settings, room options, reorder, kick, hand
over, a seat's link to a new phone, a new table link, a phone or a table screen gone, and
the timers of the host, lobby seats and auto-Away. The rules are in domain/lobby.py and
seat_moves.py; each handler is a function of what it is given (the Context, the room, the
command) that changes the room and returns a Change; handlers.py says which command each
answers."""

from engine.errors import GameError, InvalidAction
from engine.games import game_of

from ..domain import lobby, seat_moves, table_screens
from ..domain.room import AUTO_AWAY_SECONDS, HOST_GRACE_SECONDS, KICK_BAN_SECONDS, Room
from ..domain.timers import AwayCheckTimer, HostCheckTimer, SeatCheckTimer
from . import commands, replies
from .change import Change, Context, no_change
from .commands import (
    ChangeSettings,
    HandOver,
    Kick,
    Leave,
    NewTableKey,
    Reorder,
    RoomOptions,
    SeatLink,
)
from .deadlines import away_checks, host_check, seat_check
from .game_handlers import play


def leave(ctx: Context, room: Room, name: str, connection_id: str, msg: Leave) -> Change:
    seat = room.seat(name)
    if not room.started:
        lobby.free_seat(room, seat, ctx.clock())
    else:
        seat.connection, seat.disconnected_at = None, ctx.clock()
        room.revoke_token(seat)
        if room.host == name:
            lobby.pass_host(room, anyone=True)
    change = Change(released=[connection_id])
    if room.state is not None:  # the game plays on without them (its own rules say how)
        _play_without(ctx, room, change, name)
    return change


def _play_without(ctx: Context, room: Room, change: Change, name: str) -> None:
    """The game plays ``name``'s turns from now on (its ``leave``: §9 Away)."""
    play(ctx, room, change, lambda game, state, now: game.leave(state, name, now))


def settings(ctx: Context, room: Room, name: str, connection_id: str,
             msg: ChangeSettings) -> Change:  # fmt: skip
    lobby.host_only(room, name, "change the settings")
    lobby.lobby_only(room, "change the settings")
    if msg.game is None:  # the settings of the game the room plays now
        if "settings" not in msg.model_fields_set:
            raise InvalidAction(
                "'settings' needs the field 'settings' (or a 'game').",
                code="field_missing", params={"field": "settings"}, action=msg.action,
            )  # fmt: skip
        room.settings = commands.read_settings(room.rules, msg.settings, msg.action)
    else:
        settings = commands.chosen_settings(game_of(msg.game), msg)
        lobby.choose_game(room, msg.game, settings)
    return Change()


def room_options(ctx: Context, room: Room, name: str, connection_id: str,
                 msg: RoomOptions) -> Change:  # fmt: skip
    lobby.host_only(room, name, "change the room's options")
    lobby.lobby_only(room, "change the room's options")
    room.auto_away = msg.auto_away
    return Change()


def reorder(ctx: Context, room: Room, name: str, connection_id: str, msg: Reorder) -> Change:
    lobby.host_only(room, name, "reorder the seats")
    lobby.lobby_only(room, "reorder the seats")
    lobby.reorder(room, msg.order)
    return Change()


def kick(ctx: Context, room: Room, name: str, connection_id: str, msg: Kick) -> Change:
    lobby.host_only(room, name, "kick a cat")
    lobby.lobby_only(room, "kick a cat")
    seat = lobby.kick(room, name, msg.target, ctx.clock())
    if seat.connection is None:
        return Change()
    kicked = replies.error_message(
        GameError(
            "The host removed you from the room. You can't join it again for "
            f"{KICK_BAN_SECONDS // 60} minutes.",
            code="kicked", params={"minutes": KICK_BAN_SECONDS // 60},
        ),
        None,  # the host's message, not the kicked phone's
    )  # fmt: skip
    return Change(direct=[(seat.connection, kicked)], released=[seat.connection],
                  hung_up=[seat.connection])  # fmt: skip


def hand_over(ctx: Context, room: Room, name: str, connection_id: str, msg: HandOver) -> Change:
    lobby.host_only(room, name, "hand over host")
    lobby.hand_over(room, name, msg.target)
    return Change()


def seat_link(ctx: Context, room: Room, name: str, connection_id: str, msg: SeatLink) -> Change:
    """A one-time link to move a seat to another phone, to the asking phone alone: its
    own seat's, or the host's for a phone gone a while, which every screen is told of."""
    seat_name = msg.seat or name
    link = seat_moves.make_link(room, name, seat_name, ctx.clock())
    message = replies.seat_link_message(room.code, seat_name, link.key, link.until)
    return Change(direct=[(connection_id, message)], push_views=seat_name != name)


def new_table_key(ctx: Context, room: Room, name: str, connection_id: str,
                  msg: NewTableKey) -> Change:  # fmt: skip
    """The host's new table link. The old key opens nothing now; every table
    screen watching is told it was let go (the host opens the new link on the TV)."""
    lobby.host_only(room, name, "make a new table link")
    lobby.lobby_only(room, "make a new table link")
    let_go = table_screens.change_key(room)
    told = replies.error_message(table_screens.TableLetGo(), None)
    return Change(direct=[(screen, told) for screen in let_go], released=let_go)


def phone_gone(ctx: Context, room: Room, name: str, connection_id: str) -> Change:
    """``$disconnect``: the seat's phone went away; its grace periods start."""
    seat = room.seat(name)
    if seat is None or seat.connection != connection_id:
        return no_change()  # already replaced by a newer connection
    seat.connection, seat.disconnected_at = None, ctx.clock()
    change = Change()  # every view shows the seat offline now (the host's above all)
    if room.host == name:
        change.timers.append(host_check(room))
    if not room.started:  # a lobby seat gone a while is freed: no squatting
        change.timers.append(seat_check(room, seat))
    change.timers.extend(away_checks(room, [seat], ctx.clock()))
    return change


def watcher_gone(room: Room, connection_id: str) -> Change:
    """``$disconnect`` of a table screen: it stops watching."""
    if connection_id not in room.watchers:
        return no_change()
    room.watchers.remove(connection_id)
    return Change(push_views=False)


def connections_gone(ctx: Context, room: Room, gone: list[str]) -> Change:
    """Pushes found these connections gone (410): their seats are disconnected, and
    table screens among them stop watching, as by ``$disconnect`` (which may never come)."""
    touched = [seat for seat in room.seats if seat.connection in gone]
    for seat in touched:
        seat.connection, seat.disconnected_at = None, ctx.clock()
    watching = [watcher for watcher in room.watchers if watcher not in gone]
    if not touched and watching == room.watchers:
        return no_change()
    room.watchers = watching  # table screens found gone stop watching
    if not touched:
        return Change(push_views=False)
    # In a game every phone is told (the host marks Away by who is offline); the
    # pushes may find more phones gone, each found once, so this ends.
    return Change(push_views=room.started, timers=away_checks(room, touched, ctx.clock()))


def check_host(ctx: Context, room: Room, timer: HostCheckTimer) -> Change:
    """The ``host_check`` timer: host powers pass on if the host's phone is still gone
    after HOST_GRACE_SECONDS (§10)."""
    seat = room.seat(room.host)
    if seat is None or seat.connection is not None or seat.disconnected_at is None:
        return no_change()
    if ctx.clock() - seat.disconnected_at < HOST_GRACE_SECONDS:
        return no_change()
    away = room.host
    if not lobby.pass_host(room):
        return no_change()
    room.host_away = away  # back to it when its phone returns (lobby.host_returns)
    return Change()


def free_gone_seats(ctx: Context, room: Room, timer: SeatCheckTimer) -> Change:
    """The ``seat_check`` timer: lobby seats whose phones stayed gone are freed (a join
    frees them too, in case this timer was lost)."""
    return Change() if lobby.free_gone_seats(room, ctx.clock()) else no_change()


def check_away(ctx: Context, room: Room, timer: AwayCheckTimer) -> Change:
    """The ``away_check`` timer. With ``auto_away`` on, a seat whose phone has
    stayed offline AUTO_AWAY_SECONDS in a game is marked Away the way a seat that left
    is (the game's ``leave``: §9, ended as usual when that phone acts again). Nothing
    happens if the phone came back (a newer check follows a newer departure), the game
    ended, the option is off, or the seat is Away already."""
    seat = room.seat(timer.seat)
    if room.state is None or not room.auto_away or seat is None or seat.connection:
        return no_change()
    if seat.disconnected_at is None or ctx.clock() - seat.disconnected_at < AUTO_AWAY_SECONDS:
        return no_change()
    before, change = room.state, Change()
    _play_without(ctx, room, change, seat.name)
    if room.state == before:  # Away already: nothing to mark, nothing to push
        return no_change()
    ctx.metrics.count("AutoAway")
    return change
