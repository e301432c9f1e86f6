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
from ..service.commands import TimerMessage
from .ports import Connections, Metrics, Pusher, RoomStore, Timers
from .ratelimit import CONNECTION_WINDOWS, count_message, window_of
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
    """Bindings and the rate counters of dynamodb.DynamoConnections, in one process; share one
    between several services to play several Lambda containers."""

    def __init__(self) -> None:
        self.bound: dict[str, Binding] = {}
        #: connection id → (n, bases, lasts) (see ratelimit.count_message)
        self.counters: dict[str, list] = {}
        #: (address, kind, window start) → count
        self.hits: dict[tuple[str, str, int], int] = {}
        self._lock = threading.Lock()

    def bind(self, connection_id: str, binding: Binding) -> None:
        self.bound[connection_id] = binding

    def lookup(self, connection_id: str) -> Binding | None:
        return self.bound.get(connection_id)

    def unbind(self, connection_id: str) -> None:
        self.bound.pop(connection_id, None)
        self.counters.pop(connection_id, None)  # DynamoDB deletes the item: counter and all

    def arrive(self, connection_id: str, now: float,
               defer=None) -> tuple[Binding | None, bool]:  # fmt: skip
        with self._lock:
            size = len(CONNECTION_WINDOWS)
            n, bases, lasts = self.counters.get(connection_id, (0, [0] * size, [None] * size))
            allowed, restarts = count_message(n + 1, bases, lasts, now)
            bases = [restarts.get(i, base) for i, base in enumerate(bases)]
            lasts = [window_of(now, seconds) for seconds, _ in CONNECTION_WINDOWS]
            self.counters[connection_id] = (n + 1, bases, lasts)
        return self.bound.get(connection_id), allowed

    def hit(self, address: str, kind: str, window_start: int, expires_at: int) -> int:
        with self._lock:
            key = (address, kind, window_start)
            self.hits[key] = self.hits.get(key, 0) + 1
            return self.hits[key]


class MemoryPusher(Pusher):
    """Records every message per connection as the phone reads it (``sent``: without the
    padding a phone ignores, service/frames.py) and every push as it goes on the wire
    (``pushes``: each post's connection and frame length, per ``push`` call); ``gone``
    connections answer 410."""

    def __init__(self) -> None:
        self.sent: dict[str, list[dict[str, Any]]] = {}
        self.pushes: list[list[tuple[str, int]]] = []
        self.gone: set[str] = set()

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
