"""Which function handles which command of a seated phone, and which timer: the tables a
reader follows from a command's type (commands.py) or a timer's (domain/timers.py) to its
handler by go-to-definition. The frames of a phone that has no seat to act for yet (create,
join, resume, watch, take a seat, cover) are RoomService's own (``ARRIVALS`` in
room_service.py). Each table names every type once and every handler once
(tests/service/test_handler_tables.py)."""

from collections.abc import Callable
from typing import Any

from ..domain.room import Room
from ..domain.timers import AwayCheckTimer, DeadlineTimer, HostCheckTimer, SeatCheckTimer
from . import game_handlers, lobby_handlers
from .change import Change, Context
from .commands import (
    ChangeSettings,
    GameMove,
    HandOver,
    Kick,
    Leave,
    NewTableKey,
    Ping,
    Rematch,
    Reorder,
    Replay,
    RoomOptions,
    SeatLink,
    Start,
)

#: handler(context, room, the seat's name, its connection, the command) → the change
#: the unit of work writes and delivery sends.
SeatHandler = Callable[[Context, Room, str, str, Any], Change]
#: handler(context, room, the timer) → the change.
TimerHandler = Callable[[Context, Room, Any], Change]

SEAT_HANDLERS: dict[type, SeatHandler] = {
    Leave: lobby_handlers.leave,
    ChangeSettings: lobby_handlers.settings,
    RoomOptions: lobby_handlers.room_options,
    Reorder: lobby_handlers.reorder,
    Kick: lobby_handlers.kick,
    HandOver: lobby_handlers.hand_over,
    SeatLink: lobby_handlers.seat_link,
    NewTableKey: lobby_handlers.new_table_key,
    Start: game_handlers.start,
    Rematch: game_handlers.rematch,
    Ping: game_handlers.ping,
    GameMove: game_handlers.move,
    Replay: game_handlers.replay,
}

TIMER_HANDLERS: dict[type, TimerHandler] = {
    DeadlineTimer: game_handlers.fire_deadline,
    HostCheckTimer: lobby_handlers.check_host,
    SeatCheckTimer: lobby_handlers.free_gone_seats,
    AwayCheckTimer: lobby_handlers.check_away,
}
