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
        ``change_room`` to it and write it (or, for a move that leaves its step as it is,
        write the seat's submission: the write returns every seat's moves of the step, and
        the seat whose move completes the step writes it); a conflict loads again and
        retries. Returns what was committed; sends nothing."""
        written: Seen | None = None  # once this command's move is stored: what phones had
        attempt = 0
        while attempt < MAX_WRITE_ATTEMPTS:
            attempt += 1
            loaded, first = first or self.load(code), None
            room, expected = loaded.room, loaded.room.version
            before = written or Seen.of(room)  # what the phones were last sent
            change = change_room(room) if written is None else Change(write=False)
            refused = False  # the seat's move was not written: load again
            if change.submission is not None and not loaded.advanced:
                stamp = self.stamp()  # the moves returned are as of the write, after this
                pending = self._submit(room, loaded, change.submission)
                refused = pending is None
                if pending is not None:
                    written, attempt = before, 0  # writing the step has attempts of its own
                    loaded = self._merged(room, loaded.stored_state, pending, stamp)
                    if not loaded.advanced:  # others' moves still awaited: the mover is told
                        acknowledged = Change(write=False, mover=change.submission.player)
                        return Commit(room, acknowledged, stamp, before)
                    change = Change(write=False)  # the latest move of a complete step
            elif change.submission is not None:  # the step moved on while merging
                room.state = change.submission.state
                change.timers.extend(deadline_timers(room, change.submission.effects, self.clock()))
                change.write = change.push_views = True
            if not refused:
                if not change.write and not loaded.advanced:
                    return Commit(room, change, loaded.stamp, before)
                change.timers.extend(deadline_timers(room, loaded.effects, self.clock()))
                if room.state is not None and room.rules.is_over(room.state):
                    # However the game ended (a move, moves merged in, a timer, a departure),
                    # the room is written back in the lobby (issue 13).
                    offline = lobby.back_to_lobby(room, self.clock())
                    change.timers.extend(seat_check(room, seat) for seat in offline)
                    change.push_views = True
                room.version = expected + 1
                if room.seats:  # an empty room keeps its expiry: TTL removes it
                    room.expires_at = int(self.clock()) + ROOM_TTL_SECONDS
                unmerged = _unmerged(room, loaded)
                if self.store.save(
                    room, expected, loaded.consumed, unmerged, _step_written(room, loaded)
                ):
                    change.push_views = change.push_views or loaded.advanced
                    # A write that stores a step other seats' moves ended: nobody has it yet.
                    return Commit(room, change, self.stamp(), None if loaded.advanced else before)
            self.on_conflict()
            self.sleep(BACKOFF_SECONDS * attempt * (0.5 + self.jitter()))
        raise Busy("The room is busy; please try again.")

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
