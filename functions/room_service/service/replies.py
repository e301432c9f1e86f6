"""Replies: what the service sends a phone (docs/protocol.md), and the views it shows.

``{"type": "view", "seq": n, "rev": R, "view": {...}}`` (the whole current view; ``seq``
orders views, ``rev`` names this one for the next ping), ``{"type": "joined", "room": CODE,
"name": NAME, "token": TOKEN}`` (keep the token to reconnect), ``{"type": "error", "code":
C, "params": {...}, "action": A, "message": ...}`` (the phone words ``error_<C>`` with the
params; ``action`` is the refused message's type or null; ``message`` is English for
logs), ``{"type": "pong"}``.
"""

import base64
import hashlib
import json
import zlib
from typing import Any

from engine.errors import GameError

from ..domain.room import Room

#: Hex digits of a view's ``rev``.
REV_LENGTH = 16


# -- server → client ----------------------------------------------------------------------
def view_message(seq: int, view: dict[str, Any]) -> dict[str, Any]:
    return {"type": "view", "seq": seq, "rev": rev(view), "view": view}


def rev(view: dict[str, Any]) -> str:
    """A short digest of one seat's view: equal revs, equal views. It is a function of that
    view alone, so a phone learns from it nothing its view does not show."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2s(text.encode(), digest_size=REV_LENGTH // 2).hexdigest()


#: A replay file goes in parts of at most this many base64 characters: each message stays
#: under API Gateway's 32 KB WebSocket frame (a post is not split for the sender).
REPLAY_PART_CHARS = 30_000


def replay_messages(file: dict[str, Any]) -> list[dict[str, Any]]:
    """A replay file (docs/replay.md) as the phone gets it: ``{"type": "replay", "part":
    i, "parts": n, "data": D}``; the ``data`` of parts 0…n-1 joined is the file's JSON
    compressed by zlib, in base64 (a 12-cat game's file, about 300 KB of JSON with its
    table views, is one part of 5–12 KB)."""
    text = json.dumps(file, separators=(",", ":"), ensure_ascii=False)
    data = base64.b64encode(zlib.compress(text.encode(), 9)).decode()
    chunks = [data[i : i + REPLAY_PART_CHARS] for i in range(0, len(data), REPLAY_PART_CHARS)]
    return [{"type": "replay", "part": i, "parts": len(chunks), "data": chunk}
            for i, chunk in enumerate(chunks)]  # fmt: skip


def error_message(error: GameError, action: str | None) -> dict[str, Any]:
    """The error frame refusing a message of type ``action`` (None: none could be read)."""
    return {
        "type": "error",
        "code": error.code,
        "params": dict(error.params),
        "action": error.action or action,
        "message": error.message,
    }


def joined_message(room: str, name: str, token: str) -> dict[str, Any]:
    return {"type": "joined", "room": room, "name": name, "token": token}


def seat_link_message(room: str, seat: str, key: str, until: float) -> dict[str, Any]:
    """A seat's one-time link key (domain/seat_moves.py), to the phone that asked alone: the
    phone makes the link (the key in its fragment) and its QR code."""
    return {"type": "seat_link", "room": room, "seat": seat, "key": key, "until": until}


PONG = {"type": "pong"}


def same_but_progress(before: dict[str, Any], after: dict[str, Any],
                      progress_fields: frozenset[str]) -> bool:  # fmt: skip
    """Whether two views of one seat differ at most in the game's ``progress_fields`` (who
    the step still waits for: not pushed on its own, to save frames)."""
    if before == after:
        return True
    if before.keys() != after.keys():
        return False
    return all(before[k] == after[k] for k in before if k not in progress_fields)


# -- views --------------------------------------------------------------------------------
def view_for(room: Room, name: str, game_views: dict[str, dict] | None = None) -> dict[str, Any]:
    """The whole current view for one seat: the lobby, or the game view with room facts
    (``game_views``: the game's views of every seat, when already built)."""
    connected = online(room)
    game = room.rules
    if room.state is None:
        count = len(room.seats)
        seat = room.seat(name)
        return {
            "phase": "lobby",
            "game": room.game,
            "room": room.code,
            "you": name,
            "host": room.host,
            "seats": _seats(room, connected),
            "settings": room.settings.model_dump(mode="json"),
            **game.lobby_rules(),
            **game.lobby_facts(room.settings, count),
            "start_problem": _problem(game.start_problem(room.settings, count)),
            "auto_away": room.auto_away,
            "seat_news": seat_news(room),
            # The table screen's key, the host's alone (domain/table_screens.py).
            "table_key": (room.table_key or None) if name == room.host else None,
            # The phone keeps the result up until its player taps "To the lobby".
            "last_result": room.last_result if seat and seat.played_last_game else None,
        }
    view = dict(game_views[name]) if game_views else game.views(room.state)[name]
    return _with_room_facts(room, view, connected)


def public_view(room: Room) -> dict[str, Any]:
    """What a table screen (``watch``) sees: only what the whole table may see. In the
    lobby the code, the game, the host, the seats and the last game's result (the public
    table view of its end); in a game the game's ``table_view`` (no ``me``, no roles before
    the end) with the room facts every phone has."""
    connected = online(room)
    if room.state is None:
        return {
            "phase": "lobby",
            "watching": True,
            "game": room.game,
            "room": room.code,
            "host": room.host,
            "seats": _seats(room, connected),
            **room.rules.lobby_rules(),
            "seat_news": seat_news(room),
            "last_result": room.last_result,
        }
    view = dict(room.rules.table_view(room.state))
    view["watching"] = True
    return _with_room_facts(room, view, connected)


def seat_news(room: Room) -> list[dict[str, Any]]:
    """Seats moved to new phones lately, or whose link the host made: every screen shows
    them (domain/seat_moves.py), so no seat changes hands unseen."""
    return [news.model_dump(mode="json") for news in room.seat_news]


def online(room: Room) -> dict[str, bool]:
    """Each seat's name, and whether its phone is connected now."""
    return {seat.name: seat.connection is not None for seat in room.seats}


def _seats(room: Room, connected: dict[str, bool]) -> list[dict[str, Any]]:
    """The lobby's seats, in order, as every phone and table screen sees them."""
    return [{"name": s.name, "seat": i, "connected": connected[s.name]}
            for i, s in enumerate(room.seats, 1)]  # fmt: skip


def _with_room_facts(
    room: Room, view: dict[str, Any], connected: dict[str, bool]
) -> dict[str, Any]:
    """A game's view (a seat's or the table's) with what the room adds to it: its code, the
    step as the room numbers it, who is online, and seats moved to new phones."""
    view["room"] = room.code
    view["step"] = room.room_step(view["step"])
    view["connected"] = connected
    view["seat_news"] = seat_news(room)
    return view


def _problem(problem: GameError | None) -> dict[str, Any] | None:
    """Why the game cannot start yet, as the phones word it: the code and params of the
    refusal a start would get (never the English message)."""
    return None if problem is None else {"code": problem.code, "params": problem.params}
