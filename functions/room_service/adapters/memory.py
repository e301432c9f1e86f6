"""In-memory fakes of every port, for fast tests and the simulator of many rooms."""

import threading
from typing import Any

from ..domain.journal import loaded_journal, stored_journal
from ..domain.room import (
    Binding,
    Room,
    Submission,
    loaded_submission,
    stored_room,
    stored_submission,
)
from ..domain.timers import TimerMessage
from .ports import Arrival, Connections, Metrics, Paced, Pusher, RoomStore, Timers
from .ratelimit import (
    ADDRESS,
    ADDRESS_PACES,
    CONNECTION_LIFETIME_SECONDS,
    CONNECTION_PACES,
    LIMIT,
    QUIET,
    Dues,
    Standing,
    in_ms,
    judge,
    next_due,
)
from .wire import PAD, frame_bytes


class MemoryRoomStore(RoomStore):
    def __init__(self) -> None:
        self._rooms: dict[str, str] = {}
        #: (code, step, seat) → (its moves as DynamoDB stores them, its count of writes)
        self._subs: dict[tuple[str, int, str], tuple[str, int]] = {}
        #: (code, step) → the version of the latest room write loaded at that step.
        self._written_at: dict[tuple[str, int], int] = {}
        #: (code, step) → the journal of each room write loaded at that step, as stored.
        self._journals: dict[tuple[str, int], list[str]] = {}
        self._lock = threading.Lock()
        self.writes = 0
        self.conflicts = 0

    def create(self, room: Room) -> bool:
        with self._lock:
            if room.code in self._rooms:
                return False
            stored_room(room)  # the size check every store makes
            self._rooms[room.code] = room.model_dump_json()
            self.writes += 1
            return True

    def load(self, code: str) -> Room | None:
        with self._lock:
            data = self._rooms.get(code)
        return Room.model_validate_json(data) if data else None

    def read(self, code: str) -> tuple[Room | None, list[Submission]]:
        with self._lock:  # one read, as DynamoDB's one Query
            data = self._rooms.get(code)
            room = Room.model_validate_json(data) if data else None
            if room is None or room.stored_step is None:
                return room, []
            return room, self._step(code, room.stored_step)

    def save(self, room: Room, expected_version: int, consumed: list[Submission] = (),
             absent: list[tuple[int, str]] = (), step: int | None = None) -> bool:  # fmt: skip
        with self._lock:
            data = self._rooms.get(room.code)
            self.writes += 1
            stale = [s for s in consumed if self._n(room.code, s) != s.n]
            stale += [key for key in absent if (room.code, *key) in self._subs]
            if data is None or Room.model_validate_json(data).version != expected_version or stale:
                self.conflicts += 1
                return False
            stored_room(room)  # the size check every store makes
            self._rooms[room.code] = room.model_dump_json()
            for sub in consumed:
                del self._subs[(room.code, sub.step, sub.player)]
            if step is not None:
                self._written_at[(room.code, step)] = room.version
                if room.journal:
                    self._journals.setdefault((room.code, step), []).append(
                        stored_journal(room.journal)
                    )
            return True

    def game_journal(self, code: str, last_step: int) -> list[dict[str, Any]]:
        with self._lock:
            steps = sorted(s for c, s in self._journals if c == code and s <= last_step)
            return loaded_journal(text for s in steps for text in self._journals[(code, s)])

    def _n(self, code: str, sub: Submission) -> int:
        stored = self._subs.get((code, sub.step, sub.player))
        return stored[1] if stored else 0

    def submissions(self, code: str, step: int) -> list[Submission]:
        with self._lock:
            return self._step(code, step)

    def _step(self, code: str, step: int) -> list[Submission]:
        found = sorted((p, v) for (c, s, p), v in self._subs.items() if c == code and s == step)
        return [loaded_submission(body, seat, step, n) for seat, (body, n) in found]

    def put_submission(self, code: str, submission: Submission, expected_n: int,
                       room_version: int) -> list[Submission] | None:  # fmt: skip
        with self._lock:
            self.writes += 1
            newer = self._written_at.get((code, submission.step), 0) > room_version
            if newer or self._n(code, submission) != expected_n:
                self.conflicts += 1
                return None
            key = (code, submission.step, submission.player)
            self._subs[key] = (stored_submission(submission), submission.n)
            return self._step(code, submission.step)


class MemoryConnections(Connections):
    """Bindings, paces and per-address counters of dynamodb.DynamoConnections, in one
    process; share one between several services to play several Lambda containers."""

    def __init__(self) -> None:
        self.bound: dict[str, Binding] = {}
        #: connection id → its paces' dues (ratelimit.CONNECTION_PACES)
        self.dues: dict[str, Dues] = {}
        #: address → its busy messages' due (ratelimit.ADDRESS_PACES)
        self.address_dues: dict[str, Dues] = {}
        #: address → {connection id: when it opened}
        self.open: dict[str, dict[str, float]] = {}
        #: (address, kind, window start) → count
        self.hits: dict[tuple[str, str, int], int] = {}
        #: every arrive and pace_address: what a DynamoDB table would be asked
        self.calls = 0
        self._lock = threading.Lock()

    def bind(self, connection_id: str, binding: Binding) -> None:
        self.bound[connection_id] = binding

    def lookup(self, connection_id: str) -> Binding | None:
        return self.bound.get(connection_id)

    def unbind(self, connection_id: str) -> None:
        self.bound.pop(connection_id, None)
        self.dues.pop(connection_id, None)  # DynamoDB deletes the item: dues and all

    def arrive(self, connection_id: str, now: float, known: Dues | None = None) -> Arrival:
        with self._lock:
            self.calls += 1
            allowed, dues, standings = _paced(self.dues, connection_id, CONNECTION_PACES,
                                              LIMIT, now)  # fmt: skip
        busy = allowed and standings[QUIET] is Standing.OVER
        return Arrival(allowed, dues, self.bound.get(connection_id), busy)

    def pace_address(self, address: str, now: float, known: Dues | None = None) -> Paced:
        with self._lock:
            self.calls += 1
            allowed, dues, _ = _paced(self.address_dues, address, ADDRESS_PACES, ADDRESS, now)
        return Paced(allowed, dues)

    def open_connection(self, address: str, connection_id: str, now: float, cap: int) -> bool:
        with self._lock:
            places = self.open.setdefault(address, {})
            if connection_id not in places and len(places) >= cap:
                oldest = now - CONNECTION_LIFETIME_SECONDS
                for left in [c for c, opened in places.items() if opened < oldest]:
                    del places[left]
            if connection_id not in places and len(places) >= cap:
                return False
            places.setdefault(connection_id, now)
            return True

    def close_connection(self, address: str, connection_id: str) -> None:
        with self._lock:
            self.open.get(address, {}).pop(connection_id, None)

    def hit(self, address: str, kind: str, window_start: int, expires_at: int) -> int:
        with self._lock:
            key = (address, kind, window_start)
            self.hits[key] = self.hits.get(key, 0) + 1
            return self.hits[key]


def _paced(stored: dict[str, Dues], stream: str, paces: dict, refusing: str,
           now: float) -> tuple[bool, Dues, dict[str, Standing]]:  # fmt: skip
    """Judge a message on ``stream``'s stored dues (as DynamoDB's conditional write does):
    refused if the ``refusing`` pace is over; else every pace not over moves on."""
    now_ms = in_ms(now)
    dues = stored.get(stream, {})
    standings = judge(paces, dues, now_ms)
    if standings[refusing] is Standing.OVER:
        return False, dict(dues), standings
    moved = {name: next_due(pace, dues.get(name), now_ms) for name, pace in paces.items()}
    stored[stream] = dues = {**dues, **{n: due for n, due in moved.items() if due is not None}}
    return True, dict(dues), standings


class MemoryPusher(Pusher):
    """Records every message per connection as the phone reads it (``sent``: without the
    padding a phone ignores, service/frames.py) and every push as it goes on the wire
    (``pushes``: each post's connection and frame length, per ``push`` call); ``gone``
    connections answer 410."""

    def __init__(self) -> None:
        self.sent: dict[str, list[dict[str, Any]]] = {}
        self.pushes: list[list[tuple[str, int]]] = []
        self.gone: set[str] = set()
        #: Connections whose sockets the server closed, in order.
        self.hung_up: list[str] = []

    def hang_up(self, connection_id: str) -> None:
        self.hung_up.append(connection_id)

    def push(self, messages: list[tuple[str, dict[str, Any]]]) -> list[str]:
        dropped = []
        self.pushes.append([(c, len(frame_bytes(message))) for c, message in messages])
        for connection_id, message in messages:
            if connection_id in self.gone:
                dropped.append(connection_id)
            else:
                read = {key: value for key, value in message.items() if key != PAD}
                self.sent.setdefault(connection_id, []).append(read)
        return dropped

    def last(self, connection_id: str, kind: str = "view") -> dict[str, Any] | None:
        return next((m for m in reversed(self.sent.get(connection_id, [])) if m["type"] == kind),
                    None)  # fmt: skip


class MemoryTimers(Timers):
    def __init__(self) -> None:
        #: (the message as the timer handler will receive it, the delay)
        self.scheduled: list[tuple[dict[str, Any], float]] = []

    def schedule(self, timer: TimerMessage, delay_seconds: float) -> None:
        self.scheduled.append((timer.model_dump(mode="json"), delay_seconds))


class MemoryMetrics(Metrics):
    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.contexts: list[tuple[str, str | None]] = []

    def context(self, room: str, seat: str | None) -> None:
        self.contexts.append((room, seat))

    def count(self, name: str, value: int = 1) -> None:
        self.counts[name] = self.counts.get(name, 0) + value
