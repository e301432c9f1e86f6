"""The unit of work: load a room (its step's pending moves merged in), let a handler change
a fresh copy, write it under a condition on its version (retrying a conflict with
jittered backoff, a bounded number of times), and return what was committed. It sends
nothing: delivery pushes the Commit afterwards (write first, then push).

A move that leaves its step as it is takes the conflict-free path: it is written into the
seat's own attributes of its step's item, a write that returns every seat's moves of the
step; the room item is written only by the move that completes the step (or another
change), and that write records its version on the step's item, so a move made on the
room as it was before is refused and made again on the room as written.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from pydantic import BaseModel

from engine.effects import Effect
from engine.errors import GameError, IllegalAction

from ..adapters.ports import RoomStore
from ..domain import lobby
from ..domain.room import ROOM_TTL_SECONDS, Room, Submission
from .change import Change, Commit, PendingMove, Seen
from .deadlines import deadline_timers, seat_check

MAX_WRITE_ATTEMPTS = 8
BACKOFF_SECONDS = 0.02
#: A seat's pending moves in one step: a real step takes a handful (a place, a spell and
#: its target, a guard…). The bound keeps the submission item small (every load of the
#: room replays it) and far below DynamoDB's 400 KB item limit (about 0.2 KB a move).
MAX_MOVES_PER_STEP = 40


class NoSuchRoom(IllegalAction):
    """The room is not there (never was, or TTL took it): the service's own error, so the
    server's own events can tell it from a rule of the game."""

    def __init__(self) -> None:
        super().__init__("There is no room with that code.", code="no_such_room")


class Busy(GameError):
    code = "busy"


class TooManyMoves(GameError):
    code = "too_many_moves"


@dataclass
class Loaded:
    room: Room
    stored_step: int | None
    #: When the read began (µs): the seq of views sent from it (see ``stamp``).
    stamp: int = 0
    consumed: list[Submission] = field(default_factory=list)
    effects: list[Effect] = field(default_factory=list)
    advanced: bool = False
    #: The game as stored, before the pending moves were merged in.
    stored_state: BaseModel | None = None


class UnitOfWork:
    def __init__(self, store: RoomStore, clock: Callable[[], float] = time.time,
                 sleep: Callable[[float], None] = time.sleep,
                 jitter: Callable[[], float] = lambda: 0.5,
                 on_conflict: Callable[[], None] = lambda: None) -> None:  # fmt: skip
        self.store = store
        self.clock = clock
        self.sleep = sleep
        self.jitter = jitter
        self.on_conflict = on_conflict

    def stamp(self) -> int:
        """A view's ``seq``: the time (µs) of the read or write that gave the room as sent.
        A read that began later returns that write or a newer room, so a later seq is never
        an older room (across containers too, within their clocks' skew). Unlike a count of
        writes and pending moves it says nothing of moves and steps the seat cannot see."""
        return int(self.clock() * 1_000_000)

    def run(self, code: str, change_room: Callable[[Room], Change],
            first: Loaded | None = None) -> Commit:  # fmt: skip
        """Load room ``code`` (the first time, ``first`` if it was just read), apply
        ``change_room`` to it and commit what it changed; a conflict loads again and
        retries. Returns what was committed; sends nothing."""
        return self._retried(
            code, first, range(1, MAX_WRITE_ATTEMPTS + 1),
            lambda loaded: self._change_and_commit(code, loaded, change_room),
        )  # fmt: skip

    def _retried(self, code: str, loaded: Loaded | None, attempts: range,
                 attempt: Callable[[Loaded], Commit | None]) -> Commit:  # fmt: skip
        """``attempt`` on ``loaded`` (None: the room read now), then on the room read again
        after each conflict, until it commits; ``Busy`` once ``attempts`` are spent. The wait
        after a conflict grows with the attempt's number and is jittered, so writers that
        collided spread out instead of colliding again."""
        for number in attempts:
            commit = attempt(loaded if loaded is not None else self.load(code))
            if commit is not None:
                return commit
            loaded = None  # the room changed since it was read: read it again
            self.on_conflict()
            self.sleep(BACKOFF_SECONDS * number * (0.5 + self.jitter()))
        raise Busy("The room is busy; please try again.")

    def _change_and_commit(self, code: str, loaded: Loaded,
                           change_room: Callable[[Room], Change]) -> Commit | None:  # fmt: skip
        """One attempt at a command: ``change_room`` on the room as loaded, then its move
        filed as the seat's submission, or its change committed. None: a conflict."""
        room = loaded.room
        before = Seen.of(room)  # what the phones were last sent
        change = change_room(room)
        move = change.submission
        if move is None:
            return self._commit(loaded, change, before)
        if loaded.advanced:
            # The moves merged in at load ended the step as stored, so this move belongs to
            # a step no stored item holds yet: it goes into the room's write, due anyway.
            room.state = move.state
            change.timers.extend(deadline_timers(room, move.effects, self.clock()))
            change.write = change.push_views = True
            return self._write(loaded, change, before)
        return self._submit_move(code, loaded, move, before)

    def _submit_move(self, code: str, loaded: Loaded, move: PendingMove,
                     before: Seen) -> Commit | None:  # fmt: skip
        """The conflict-free path: ``move`` written as its seat's submission, which returns
        every seat's moves of the step. While others' moves are awaited only the mover is
        told; the move that completes the step writes the room. None: the submission was
        refused (the seat wrote meanwhile, or the room was written since it was read)."""
        stamp = self.stamp()  # the moves returned are as of the write, after this
        pending = self._submit(loaded.room, loaded, move)
        if pending is None:
            return None
        merged = self._merged(loaded.room, loaded.stored_state, pending, stamp)
        if not merged.advanced:
            acknowledged = Change(write=False, mover=move.player)
            return Commit(merged.room, acknowledged, stamp, before)
        return self._write_completed_step(code, merged, before)

    def _write_completed_step(self, code: str, merged: Loaded, before: Seen) -> Commit:
        """The room written now that this seat's move has completed its step. The move is
        stored already, so a conflict never plays it again: each attempt writes what the
        room, read again, still needs (nothing, if another write ended the step meanwhile),
        measured against what the phones had before the move. Its attempts are its own
        (those spent getting the move stored do not count against it); the first is retried
        at once."""
        return self._retried(
            code, merged, range(MAX_WRITE_ATTEMPTS + 1),
            lambda loaded: self._commit(loaded, Change(write=False), before),
        )  # fmt: skip

    def _commit(self, loaded: Loaded, change: Change, before: Seen) -> Commit | None:
        """``change`` committed: the room as read if nothing needs writing (the change
        writes nothing, and the moves merged in at load did not end the step), else the
        room written. None: a conflict."""
        if not change.write and not loaded.advanced:
            return Commit(loaded.room, change, loaded.stamp, before)
        return self._write(loaded, change, before)

    def _write(self, loaded: Loaded, change: Change, before: Seen) -> Commit | None:
        """The room written if it is still at the version it was loaded at and no seat whose
        moves the load did not merge has written one since; None otherwise (a conflict)."""
        room, expected = loaded.room, loaded.room.version
        change.timers.extend(deadline_timers(room, loaded.effects, self.clock()))
        self._back_to_lobby_if_over(room, change)
        room.version = expected + 1
        if room.seats:  # an empty room keeps its expiry: TTL removes it
            room.expires_at = int(self.clock()) + ROOM_TTL_SECONDS
        unmerged = _unmerged(room, loaded)
        if not self.store.save(
            room, expected, loaded.consumed, unmerged, _step_written(room, loaded)
        ):
            return None
        # When moves merged in at load ended the step, no phone has the room as written:
        # every view is pushed, none compared with what was sent before.
        change.push_views = change.push_views or loaded.advanced
        return Commit(room, change, self.stamp(), None if loaded.advanced else before)

    def _back_to_lobby_if_over(self, room: Room, change: Change) -> None:
        """However the game ended (a move, moves merged in, a timer, a departure), the room
        is written back in the lobby, where latecomers can join, the host can change the
        settings and "Play again" deals the next game. Its offline seats start their lobby
        grace."""
        if room.state is not None and room.rules.is_over(room.state):
            offline = lobby.back_to_lobby(room, self.clock())
            change.timers.extend(seat_check(room, seat) for seat in offline)
            change.push_views = True

    def load(self, code: str) -> Loaded:
        """The room with the pending submissions of its current step merged in, in the
        order they were made; a move no longer legal (the step moved on) is dropped."""
        stamp = self.stamp()
        room, pending = self.store.read(code)
        if room is None:
            raise NoSuchRoom()
        return self._merged(room, room.state, pending, stamp)

    def _merged(self, room: Room, stored_state: BaseModel | None, pending: list[Submission],
                stamp: int) -> Loaded:  # fmt: skip
        """``room`` at ``stored_state`` (as stored) with ``pending`` merged in."""
        room.state = stored_state
        room.journal.clear()  # the turns from the stored state on are taken again below
        if stored_state is None:
            return Loaded(room=room, stored_step=None, stamp=stamp)
        # Submissions are keyed by the room's numbering, so none of one game is ever
        # merged into the next (Room.steps_before).
        loaded = Loaded(room=room, stored_step=room.stored_step, stamp=stamp,
                        consumed=pending, stored_state=stored_state)  # fmt: skip
        game, state = room.rules, stored_state
        room.pending_moves = {sub.player: [e["action"] for e in sub.actions] for sub in pending}
        moves = sorted(
            (entry["t"], sub.player, index, entry["action"])
            for sub in pending for index, entry in enumerate(sub.actions)
        )  # fmt: skip
        for at, _, _, action in moves:
            try:
                state, effects = game.apply(state, action, at)
            except GameError:
                continue
            loaded.effects.extend(effects)
        room.state = state
        loaded.advanced = room.stored_step != loaded.stored_step
        return loaded

    def _submit(self, room: Room, loaded: Loaded, move: PendingMove) -> list[Submission] | None:
        """Write one seat's move into its own attributes of the step's item (no other seat
        writes them): every seat's moves of the step as of that write, or None if refused
        (the seat wrote meanwhile, or the room was written since it was read: load again)."""
        mine = next((s for s in loaded.consumed if s.player == move.player), None)
        actions = list(mine.actions) if mine else []
        if move.action["type"] in room.rules.replacing_moves:  # only the final choice counts
            actions = [a for a in actions if a["action"]["type"] != move.action["type"]]
        actions.append({"t": move.at, "action": move.action})
        if len(actions) > MAX_MOVES_PER_STEP:
            raise TooManyMoves(
                f"Too many moves in this step (at most {MAX_MOVES_PER_STEP}): this one was "
                "not taken. Your earlier moves stand.",
                params={"max": MAX_MOVES_PER_STEP},
            )
        expected_n = mine.n if mine else 0
        sub = Submission(player=move.player, step=loaded.stored_step, actions=actions,
                         n=expected_n + 1)  # fmt: skip
        return self.store.put_submission(room.code, sub, expected_n, room.version)


def _step_written(room: Room, loaded: Loaded) -> int | None:
    """The step whose item records this write (its version, and its turns: journal.py):
    the step the room was loaded at, or, for the write that starts a game from the lobby,
    the new game's first step, where its deal is written down."""
    if loaded.stored_step is None and room.journal:
        return room.stored_step
    return loaded.stored_step


def _unmerged(room: Room, loaded: Loaded) -> list[tuple[int, str]]:
    """Every seat whose move the load did not merge: the write fails if any such seat has
    written a move since, and is retried with it merged. Else a move could be left
    unplayed: under a step the write ended (no load reads it again), or in a step whose
    end this write and that move each made possible, neither seeing the other (an Away
    mark written as the last awaited move is)."""
    if loaded.stored_step is None:
        return []
    merged = {sub.player for sub in loaded.consumed}
    return [(loaded.stored_step, seat.name) for seat in room.seats if seat.name not in merged]
