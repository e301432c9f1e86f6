"""Handlers of the game: start ("Play again" and rematch too), moves, pings, a finished
game's replay, and deadlines. Each is a function of what it is given (the Context, the room,
the command) that changes the room and returns a Change; handlers.py says which command
each answers. Every call into the game goes through ``room.rules`` (engine/game.py), so no
handler knows which game a room plays."""

import logging
import os
from collections.abc import Callable

from pydantic import BaseModel

from engine.command_lines import ReplayError
from engine.effects import Effect, GameOver
from engine.errors import GameError, IllegalAction
from engine.game import Game
from engine.rng import KEY_BYTES

from ..domain import journal
from ..domain.lobby import forget_last_result, host_only, lobby_only
from ..domain.room import Room
from ..domain.timers import DeadlineTimer
from . import commands, replies
from .change import Change, Context, PendingMove, Pong, no_change
from .commands import GameMove, Ping, Rematch, Replay, Start
from .deadlines import TIMER_MARGIN_SECONDS, away_checks, deadline_timers, time_left

#: A turn of a game: (the game, its state, now) → the new state and its effects.
Turn = Callable[[Game, BaseModel, float], tuple[BaseModel, list[Effect]]]
logger = logging.getLogger(__name__)


def new_game_key() -> int:
    """A game's key: 256 bits read from the operating system's CSPRNG (engine/rng.py).
    Tests that need a known deal replace this function, never the CSPRNG."""
    return int.from_bytes(os.urandom(KEY_BYTES), "big")


class StaleMove(GameError):
    """A move made on another step than the seat's current one: harmless, nothing used."""

    code = "stale_move"


def start(ctx: Context, room: Room, name: str, connection_id: str, msg: Start) -> Change:
    """The host starts a game from the lobby: the first, or "Play again" after one
    (a finished game returns the room to the lobby)."""
    return _deal(ctx, room, name)


def rematch(ctx: Context, room: Room, name: str, connection_id: str, msg: Rematch) -> Change:
    """The older name of "Play again", kept for older phones: the same as ``start`` (§10's
    rematch: same seats and order, new seed, roles dealt again), from the lobby."""
    return _deal(ctx, room, name)


def _deal(ctx: Context, room: Room, name: str) -> Change:
    """A new game dealt by the host ``name``: a new key, and the seats, their order and the
    settings as they are now.

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
    room.state, effects = game.start(state, ctx.clock())
    ctx.metrics.count("GamesStarted")
    now = ctx.clock()
    return Change(timers=deadline_timers(room, effects, now) + away_checks(room, room.seats, now))


def ping(ctx: Context, room: Room, name: str, connection_id: str, msg: Ping) -> Change:
    """Heartbeat. A client behind (or just connected) gets its view again; a passed
    deadline is resolved here too (the backstop for a lost timer)."""
    change = _backstop(ctx, room)
    change.pong = Pong(connection_id, name, msg.rev)
    return change


def move(ctx: Context, room: Room, name: str, connection_id: str, msg: GameMove) -> Change:
    game = room.rules
    move = commands.read_move(game, msg.move)  # a move the game cannot read: refused first
    if room.state is None:
        if msg.step <= room.steps_before:  # made in a game that has ended since
            raise StaleMove("That game is over: your move was not used.")
        raise IllegalAction("The game has not started yet.", code="not_started")
    if getattr(move, "player", None) not in (None, name):
        raise IllegalAction("You can only act for yourself.", code="act_for_yourself")
    action = move.model_copy(update={"player": name})
    change = _backstop(ctx, room)
    ctx.metrics.count("Actions")
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
        ctx.metrics.count("RepeatedMoves")
        return Change(write=False, push_views=False, pong=Pong(connection_id, name, None, False))
    if not change.write:  # the usual case: try the conflict-free path
        now = ctx.clock()
        state, effects = game.apply(room.state, action, now)  # a GameError: to the sender
        if game.step(state) == game.step(room.state):
            pending = PendingMove(name, made, now, state, effects)
            return Change(write=False, submission=pending)
        _played(ctx, room, change, state, effects)  # it ends its step: the room is written
        return change
    try:
        play(ctx, room, change, lambda game, state, now: game.apply(state, action, now))
    except GameError as exc:
        if not change.write:
            raise  # nothing else happened: refuse without writing
        change.direct.append((connection_id, replies.error_message(exc, move.type)))
    return change


def replay(ctx: Context, room: Room, name: str, connection_id: str, msg: Replay) -> Change:
    """The replay file of the game the lobby shows the result of, for a seat that
    played it: the viewer's file of its journal read from the step items
    (journal.py: the table's steps, nothing its end screen does not show), sent to
    this phone alone in parts of at most ``REPLAY_PART_CHARS`` (zlib, base64), so no
    frame passes API Gateway's 32 KB. Nothing is written."""
    seat = room.seat(name)
    if room.started or room.last_result is None or not (seat and seat.played_last_game):
        raise IllegalAction("There is no finished game of yours to replay here.",
                            code="no_replay")  # fmt: skip
    not_kept = IllegalAction("That game was not kept.", code="replay_not_kept")
    entries = journal.last_game(ctx.store.game_journal(room.code, room.steps_before))
    if entries is None:  # played before journals were kept, or past the items' TTL
        raise not_kept
    try:
        file = journal.viewer_file(entries)
    except (ReplayError, GameError, KeyError, TypeError, ValueError) as exc:
        # Some of its items are gone (TTL removes them late and in no order) or were
        # written by another version: what is left does not play.
        logger.warning("a game's journal does not replay: %s", exc)
        raise not_kept from exc
    ctx.metrics.count("ReplaysSent")
    parts = replies.replay_messages(file)
    return Change(write=False, push_views=False, direct=[(connection_id, m) for m in parts])


def fire_deadline(ctx: Context, room: Room, timer: DeadlineTimer) -> Change:
    """The ``deadline`` timer: the step's timeout, played if the step is still the one the
    timer was set for and its deadline has passed."""
    left = time_left(room, ctx.clock())
    if left is None or timer.step != room.room_step(room.rules.step(room.state)):
        return no_change()  # stale or duplicate: that step is over
    if left > 0:  # early: wait for the rest
        return Change(write=False, push_views=False,
                      timers=[(timer, left + TIMER_MARGIN_SECONDS)])  # fmt: skip
    change = Change()
    play(ctx, room, change, _time_out)
    return change


def play(ctx: Context, room: Room, change: Change, turn: Turn) -> None:
    """One turn of the room's game (a move, a time-out, a departure) into ``change``."""
    state, effects = turn(room.rules, room.state, ctx.clock())
    _played(ctx, room, change, state, effects)


def _backstop(ctx: Context, room: Room) -> Change:
    """§9 / ARCHITECTURE: any message after a passed deadline also resolves it."""
    if time_left(room, ctx.clock()) != 0:
        return no_change()
    change = Change()
    play(ctx, room, change, _time_out)
    ctx.metrics.count("DeadlinesByBackstop")
    return change


def _played(ctx: Context, room: Room, change: Change, state: BaseModel,
            effects: list[Effect]) -> None:  # fmt: skip
    """A turn's new state into the room, and what it asks for into ``change``."""
    room.state = state
    change.write = True
    change.push_views = True
    change.timers.extend(deadline_timers(room, effects, ctx.clock()))
    if any(isinstance(e, GameOver) for e in effects):
        ctx.metrics.count("GamesFinished")


def _time_out(game: Game, state: BaseModel, now: float) -> tuple[BaseModel, list[Effect]]:
    return game.time_out(state, now)
