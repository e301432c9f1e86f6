"""The unit of work: load a room (its step's pending moves merged in), let a handler change
a fresh copy, write it under a condition on its version (retrying a conflict with
jittered backoff, a bounded number of times), and return what was committed. It sends
nothing: delivery pushes the Commit afterwards (write first, then push).

A move that leaves its step as it is takes the conflict-free path: it is written as the
seat's own submission item, and the room item is written only by the move that ends the
step (RECHECK_WAIT_SECONDS below).
"""

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.effects import Effect
from engine.errors import GameError, IllegalAction

from ..adapters.ports import RoomStore
from ..domain import lobby
from ..domain.room import ROOM_TTL_SECONDS, Room, Submission
from .change import Change, Commit, PendingMove, Seen
from .deadlines import deadline_timers, seat_check

MAX_WRITE_ATTEMPTS = 8
BACKOFF_SECONDS = 0.02
#: How long a seat that finished a step with others waits before writing it itself.
RECHECK_WAIT_SECONDS = 0.15
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
    #: (time, seat) of the latest pending move merged in.
    last_move: tuple[float, str] | None = None


@dataclass
class _Settling:
    """A move just written as a submission: the same unit of work then settles the step.
    When several seats finish a step together, the seat whose move is the latest writes
    the step at once; the others look again a moment later and write only if it is
    still not written."""

    move: tuple[float, str] | None  # (time, seat) of the move; None once waited for
    seat: str
    #: The step the move was written under (None once checked: see ``_orphaned``).
    written_under: int | None
    #: What the phones had before the move (a view it left as it was is not pushed again).
    seen: Seen


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

    def run(self, code: str, change_room: Callable[[Room], Change]) -> Commit:
        """Load room ``code``, apply ``change_room`` to it and write it (or, for a move that
        leaves its step as it is, write the seat's submission, then settle the step); a
        conflict loads again and retries. Returns what was committed; sends nothing."""
        settling: _Settling | None = None
        attempt = 0
        while attempt < MAX_WRITE_ATTEMPTS:
            attempt += 1
            loaded = self.load(code)
            if settling is not None and settling.written_under is not None:
                if self._orphaned(code, loaded, settling.written_under, settling.seat):
                    settling = None
                    continue  # the step ended as the move was written: play it anew
                settling.written_under = None
            if settling and settling.move and loaded.advanced and loaded.last_move != settling.move:
                settling.move = None
                self.sleep(RECHECK_WAIT_SECONDS * (1 + self.jitter()))
                loaded = self.load(code)
            room, expected = loaded.room, loaded.room.version
            before = Seen.of(room)  # what the phones were last sent
            change = change_room(room) if settling is None else Change(write=False)
            if change.submission is not None and not loaded.advanced:
                if self._submit(room, loaded, change.submission):
                    mine = (change.submission.at, change.submission.player)
                    settling = _Settling(mine, mine[1], loaded.stored_step, before)
                    attempt = 0  # settling the step has write attempts of its own
                    continue
            else:
                if change.submission is not None:  # the step moved on while merging
                    room.state = change.submission.state
                    change.timers.extend(
                        deadline_timers(room, change.submission.effects, self.clock())
                    )
                    change.write = change.push_views = True
                if not change.write and not loaded.advanced:
                    return Commit(room, change, loaded.stamp, settling.seen if settling else before)
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
                if self.store.save(room, expected, loaded.consumed, _unmerged(room, loaded)):
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
        game, state = room.rules, room.state
        if state is None:
            return Loaded(room=room, stored_step=None, stamp=stamp)
        # Submissions are keyed by the room's numbering, so none of one game is ever
        # merged into the next (Room.steps_before).
        loaded = Loaded(room=room, stored_step=room.stored_step, stamp=stamp)
        loaded.consumed = pending
        room.pending_moves = {
            sub.player: [e["action"] for e in sub.actions] for sub in loaded.consumed
        }
        moves = sorted(
            (entry["t"], sub.player, index, entry["action"])
            for sub in loaded.consumed for index, entry in enumerate(sub.actions)
        )  # fmt: skip
        for at, _, _, action in moves:
            try:
                state, effects = game.apply(state, action, at)
            except GameError:
                continue
            loaded.effects.extend(effects)
        room.state = state
        loaded.last_move = (moves[-1][0], moves[-1][1]) if moves else None
        loaded.advanced = room.room_step(game.step(state)) != loaded.stored_step
        return loaded

    def _orphaned(self, code: str, loaded: Loaded, step: int, seat: str) -> bool:
        """A seat's move written just after another seat's write ended that step would
        never be merged (loads read the current step's submissions only). Then take it
        back, and the caller plays the move again on the new step (or refuses it).
        ``loaded`` is the load that follows the write (no extra read)."""
        if loaded.stored_step == step:  # None: the game ended meanwhile (issue 13)
            return False
        mine = [sub for sub in self.store.submissions(code, step) if sub.player == seat]
        return bool(mine) and self.store.delete_submission(code, mine[0])

    def _submit(self, room: Room, loaded: Loaded, move: PendingMove) -> bool:
        """Write one seat's move into its own submission item (no other seat writes it)."""
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
        return self.store.put_submission(room.code, sub, expected_n)


def _unmerged(room: Room, loaded: Loaded) -> list[tuple[int, str]]:
    """When this write ends the loaded step, a seat's move submitted after the load would
    never be merged (loads read only the current step's submissions): the write must fail
    if any such submission exists, and is retried with it merged."""
    step = loaded.stored_step
    if step is None or (
        room.state is not None and room.room_step(room.rules.step(room.state)) == step
    ):
        return []
    merged = {sub.player for sub in loaded.consumed}
    return [(step, seat.name) for seat in room.seats if seat.name not in merged]
