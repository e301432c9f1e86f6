"""Phones around a RoomService with in-memory ports, a fake clock and bot brains."""

import json
from collections.abc import Callable
from typing import Any

from engine.rng import Rng
from functions.room_service.adapters.memory import (
    MemoryConnections,
    MemoryMetrics,
    MemoryPusher,
    MemoryRoomStore,
    MemoryTimers,
)
from functions.room_service.domain.room import Binding, hash_token
from functions.room_service.service.commands import GAME_ACTIONS, ROOMLESS_ACTIONS
from functions.room_service.service.room_service import Ports, RoomService


def on_step(message: dict[str, Any], view: dict[str, Any] | None) -> dict[str, Any]:
    """``message`` with the step of ``view`` if it is a game move that names none (a phone
    sends the step of the view it shows; tests of stale steps pass their own)."""
    if message.get("action") in GAME_ACTIONS and "step" not in message and view:
        return {**message, "step": view.get("step")}
    return message


def as_a_phone_sends(message: dict[str, Any], view: dict[str, Any] | None,
                     room: str | None) -> dict[str, Any]:  # fmt: skip
    """``message`` as a seated phone frames it (frontend/js/connection.js): a game move
    names the step of the view it shows (``on_step``), and every frame the room it shows,
    so the service reads it alongside the connection (one round trip fewer)."""
    message = on_step(message, view)
    if room and message.get("action") not in ROOMLESS_ACTIONS and "room" not in message:
        return {**message, "room": room}
    return message


def result_of(view: dict[str, Any]) -> dict[str, Any] | None:
    """The finished game's result a phone shows: once a game ends its room is back in the
    lobby, whose view keeps the result (``last_result``) for the seats that played it."""
    if view.get("phase") == "lobby":
        return view.get("last_result")
    return view if view.get("outcome") else None


def before_the_move_of(harness: "Harness", seat: str, meanwhile: Callable[[Any], None]) -> list:
    """Makes ``meanwhile(submission)`` run once, just before ``seat``'s next move is written
    to its step's item (after its unit of work read the room): a race, played in order.
    Returns a list that holds True once it ran; ``harness.store`` is itself again then."""
    original_put, ran = harness.store.put_submission, []

    def put(code, submission, expected_n, room_version):
        if submission.player == seat and not ran:
            ran.append(True)
            harness.store.put_submission = original_put
            meanwhile(submission)
        return original_put(code, submission, expected_n, room_version)

    harness.store.put_submission = put
    return ran


class Clock:
    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


class Harness:
    def __init__(self, store=None, pusher=None, timers=None, connections=None):
        self.store = store or MemoryRoomStore()
        self.connections = connections or MemoryConnections()
        self.pusher = pusher or MemoryPusher()
        self.timers = timers or MemoryTimers()
        self.metrics = MemoryMetrics()
        self.clock = Clock()
        self.service = RoomService(
            Ports(self.store, self.connections, self.pusher, self.timers, self.metrics),
            clock=self.clock, sleep=lambda seconds: None,
        )  # fmt: skip
        self.tokens: dict[str, str] = {}
        self.code: str | None = None
        self.delivered_timers = 0

    # -- phones ----------------------------------------------------------------------------
    def send(self, connection: str, **message: Any) -> None:
        """As a phone sends it: a game move names the step of the phone's view, and every
        frame the room (the harness's one room)."""
        last = self.pusher.last(connection)
        framed = as_a_phone_sends(message, last and last["view"], self.code)
        self.service.message(connection, json.dumps(framed))

    def resume(self, connection: str, code: str | None, token: str | None,
               source_ip: str | None = None) -> None:  # fmt: skip
        """A seat's phone on a new socket: ``$connect``, then its first frame names its seat
        (``resume``, the token in the frame: docs/protocol.md). A refusal is that phone's
        error frame, and its socket is hung up."""
        self.service.connect(connection, source_ip)
        frame = {"action": "resume", "room": code, "token": token}
        self.service.message(connection, json.dumps(frame), source_ip)

    def spare(self, connection: str, name: str) -> None:
        """A socket bound to ``name``'s seat without holding it: what a ``resume`` leaves
        if it dies between its binding and its taking of the seat (a timeout, a crash)."""
        self.service.connect(connection)
        self.connections.bind(connection, Binding(self.code, name, hash_token(self.tokens[name])))

    def watch(self, connection: str, key: str | None = None, code: str | None = None) -> None:
        """A table screen opens: ``watch`` with the room's table key (the one the host's
        lobby link carries), or with ``key`` ("": a frame with no key)."""
        key = self.room().table_key if key is None else key
        frame = {"action": "watch", "room": code or self.code, **({"key": key} if key else {})}
        self.service.message(connection, json.dumps(frame))

    def view(self, connection: str) -> dict[str, Any]:
        return self.pusher.last(connection)["view"]

    def error(self, connection: str) -> dict[str, Any] | None:
        return self.pusher.last(connection, "error")

    def messages(self, connection: str) -> list[dict[str, Any]]:
        return self.pusher.sent.get(connection, [])

    def room(self):
        """The room with pending submissions merged (what players see)."""
        return self.service.current_room(self.code)

    def table(self, names: list[str], game: str | None = None,
              settings: dict[str, Any] | None = None) -> None:  # fmt: skip
        """The first name creates a room (connection = name), the others join. Without
        ``game``: a Catch the Witch room with a 60-second discussion (or ``settings``)."""
        if game is None:
            self.send(names[0], action="create_room", name=names[0],
                      settings=settings or {"discussion_limit": 60})  # fmt: skip
        else:
            self.send(names[0], action="create_room", name=names[0], game=game,
                      settings=settings or {})  # fmt: skip
        joined = self.pusher.last(names[0], "joined")
        self.code = joined["room"]
        self.tokens[names[0]] = joined["token"]
        for name in names[1:]:
            self.send(name, action="join", room=self.code.lower(), name=name)
            self.tokens[name] = self.pusher.last(name, "joined")["token"]

    # -- time ------------------------------------------------------------------------------
    def deliver_due_timers(self) -> int:
        """Deliver every scheduled timer whose delay has passed (at its due time)."""
        due = []
        for entry in list(self.timers.scheduled):
            message, delay = entry
            at = message.get("_at")
            if at is None:
                message["_at"] = at = self.clock.now + delay
            if at <= self.clock.now:
                self.timers.scheduled.remove(entry)
                due.append(message)
        for message in due:
            self.service.timer({k: v for k, v in message.items() if k != "_at"})
            self.delivered_timers += 1
        return len(due)

    def advance_to_next_timer(self) -> bool:
        for message, delay in self.timers.scheduled:
            message.setdefault("_at", self.clock.now + delay)
        if not self.timers.scheduled:
            return False
        self.clock.now = max(self.clock.now, min(m["_at"] for m, _ in self.timers.scheduled))
        self.deliver_due_timers()
        return True

    # -- bots ------------------------------------------------------------------------------
    def play_with_bots(self, names: list[str], seed: int = 0, max_moves: int = 5000,
                       until: Callable[[dict], bool] | None = None,
                       moves: list[dict] | None = None) -> dict:  # fmt: skip
        """Bots play (timers fire when nobody can act) until the game ends (its result is
        returned: ``result_of``), or until ``until(first seat's view)`` (that view is);
        each move sent is appended to ``moves``."""
        rng = Rng(seed)
        game = self.room().rules  # the room's game's bots play (Game.bot_move)
        for _ in range(max_moves):
            view = self.view(names[0])
            if result_of(view):
                return result_of(view)
            if until and until(view):
                return view
            acted = False
            for name in names:
                action = game.bot_move(self.view(name), rng)
                if action is None:
                    continue
                kind = action.pop("type")
                before = len(self.messages(name))
                self.send(name, action=kind, **action)
                if moves is not None:
                    moves.append({"action": kind, **action})
                errors = [m for m in self.messages(name)[before:] if m["type"] == "error"]
                assert not errors, (name, kind, action, errors)
                self.clock.now += 0.5
                acted = True
                break
            if not acted and not self.advance_to_next_timer():
                raise AssertionError("nobody can act and no timer is pending")
        raise AssertionError("the game did not finish")
