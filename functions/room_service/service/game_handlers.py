"""Handlers of the game: start ("Play again" and rematch too), moves, pings and deadlines. Each changes the room
it is given and returns a Change; every call into the game goes through ``room.rules``
(engine/game.py), so no handler knows which game a room plays."""

import os
from collections.abc import Callable

from pydantic import BaseModel

from engine.effects import Effect, GameOver
from engine.errors import GameError, IllegalAction
from engine.game import Game
from engine.rng import KEY_BYTES

from ..adapters.ports import Metrics
from ..domain.lobby import forget_last_result, host_only, lobby_only
from ..domain.room import Room
from ..domain.timers import DeadlineTimer
from . import commands, replies
from .change import Change, PendingMove, Pong, no_change
from .commands import GameMove, Ping, Rematch, Start
from .deadlines import TIMER_MARGIN_SECONDS, away_checks, deadline_timers, time_left

#: A turn of a game: (the game, its state, now) → the new state and its effects.
Turn = Callable[[Game, BaseModel, float], tuple[BaseModel, list[Effect]]]


def new_game_key() -> int:
    """A game's key: 256 bits read from the operating system's CSPRNG (engine/rng.py).
    Tests that need a known deal replace this function, never the CSPRNG."""
    return int.from_bytes(os.urandom(KEY_BYTES), "big")


class StaleMove(GameError):
    """A move made on another step than the seat's current one: harmless, nothing used."""

    code = "stale_move"


class GameHandlers:
    clock: Callable[[], float]
    metrics: Metrics

    def start(self, room: Room, name: str, connection_id: str, msg: Start | Rematch) -> Change:
        """The host starts a game from the lobby: the first, or "Play again" after one
        (a finished game returns the room to the lobby). A new key, and the
        seats, their order and the settings as they are now.

        The key is 256 bits read from the operating system's CSPRNG (``os.urandom``, as
        ``secrets`` does): every draw of the game comes from it (engine/rng.py), so nobody
        can search for the deal from what the table sees; it stays in the stored state and
        the server's journal, and no view, log line or downloaded file holds it."""
        host_only(room, name, "start the game")
        lobby_only(room, "start the game")
        game = room.rules
        problem = game.start_problem(room.settings, len(room.seats))
        if problem:
            raise problem
        names = [seat.name for seat in room.seats]
        state = game.new_game(names, room.settings, seed=new_game_key(), host=room.host)
        forget_last_result(room)
        room.state, effects = game.start(state, self.clock())
        self.metrics.count("GamesStarted")
        now = self.clock()
        return Change(
            timers=deadline_timers(room, effects, now) + away_checks(room, room.seats, now)
        )

    #: The older name of "Play again", kept for older phones: the same as ``start`` (§10's
    #: rematch: same seats and order, new seed, roles dealt again), from the lobby.
    rematch = start

    def ping(self, room: Room, name: str, connection_id: str, msg: Ping) -> Change:
        """Heartbeat. A client behind (or just connected) gets its view again; a passed
        deadline is resolved here too (the backstop for a lost timer)."""
        change = self._backstop(room)
        change.pong = Pong(connection_id, name, msg.rev)
        return change

    def move(self, room: Room, name: str, connection_id: str, msg: GameMove) -> Change:
        game = room.rules
        move = commands.read_move(game, msg.move)  # a move the game cannot read: refused first
        if room.state is None:
            if msg.step <= room.steps_before:  # made in a game that has ended since
                raise StaleMove("That game is over: your move was not used.")
            raise IllegalAction("The game has not started yet.", code="not_started")
        if getattr(move, "player", None) not in (None, name):
            raise IllegalAction("You can only act for yourself.", code="act_for_yourself")
        action = move.model_copy(update={"player": name})
        change = self._backstop(room)
        self.metrics.count("Actions")
        if msg.step != room.room_step(game.seat_step(room.state, name)):
            # Late, replayed, or made on a view the phone had not caught up from: never
            # taken on another step than its own (the phone's view shows the step now).
            stale = StaleMove("That step is over: your move was not used.")
            if not change.write:
                raise stale
            change.direct.append((connection_id, replies.error_message(stale, move.type)))
            return change
        made = action.model_dump(mode="json")
        if not change.write and made in room.pending_moves.get(name, ()):
            # The same move again on its step (a retry whose first send did land): taken once.
            self.metrics.count("RepeatedMoves")
            return Change(
                write=False, push_views=False, pong=Pong(connection_id, name, None, False)
            )
        if not change.write:  # the usual case: try the conflict-free path
            now = self.clock()
            state, effects = game.apply(room.state, action, now)  # a GameError: to the sender
            if game.step(state) == game.step(room.state):
                pending = PendingMove(name, made, now, state, effects)
                return Change(write=False, submission=pending)
            self._played(room, change, state, effects)  # it ends its step: the room is written
            return change
        try:
            self.play(room, change, lambda game, state, now: game.apply(state, action, now))
        except GameError as exc:
            if not change.write:
                raise  # nothing else happened: refuse without writing
            change.direct.append((connection_id, replies.error_message(exc, move.type)))
        return change

    def _backstop(self, room: Room) -> Change:
        """§9 / ARCHITECTURE: any message after a passed deadline also resolves it."""
        if time_left(room, self.clock()) != 0:
            return no_change()
        change = Change()
        self.play(room, change, _time_out)
        self.metrics.count("DeadlinesByBackstop")
        return change

    def fire_deadline(self, room: Room, timer: DeadlineTimer) -> Change:
        left = time_left(room, self.clock())
        if left is None or timer.step != room.room_step(room.rules.step(room.state)):
            return no_change()  # stale or duplicate: that step is over
        if left > 0:  # early: wait for the rest
            return Change(write=False, push_views=False,
                          timers=[(timer, left + TIMER_MARGIN_SECONDS)])  # fmt: skip
        change = Change()
        self.play(room, change, _time_out)
        return change

    def play(self, room: Room, change: Change, turn: Turn) -> None:
        """One turn of the room's game (a move, a time-out, a departure) into ``change``."""
        state, effects = turn(room.rules, room.state, self.clock())
        self._played(room, change, state, effects)

    def _played(self, room: Room, change: Change, state: BaseModel, effects: list[Effect]) -> None:
        """A turn's new state into the room, and what it asks for into ``change``."""
        room.state = state
        change.write = True
        change.push_views = True
        change.timers.extend(deadline_timers(room, effects, self.clock()))
        if any(isinstance(e, GameOver) for e in effects):
            self.metrics.count("GamesFinished")


def _time_out(game: Game, state: BaseModel, now: float) -> tuple[BaseModel, list[Effect]]:
    return game.time_out(state, now)
