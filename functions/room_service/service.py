"""RoomService: rooms, seats and games over the ports. No AWS imports here.

Every change goes through ``_update``: load the room, change a fresh copy, write it
with a condition on its version (retrying a conflict with jittered backoff, a
bounded number of times), and only after the write succeeds send messages and
schedule timers (write first, then push — never the other way round).
"""

import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from engine.effects import Effect, GameOver, StartTimer
from engine.errors import GameError, IllegalAction, InvalidAction
from engine.game import Game
from engine.games import game_of

from . import protocol
from .model import (
    HOST_GRACE_SECONDS,
    KICK_BAN_SECONDS,
    LOBBY_SEAT_GRACE_SECONDS,
    MAX_BANS,
    ROOM_TTL_SECONDS,
    Ban,
    Binding,
    Room,
    Seat,
    Submission,
    address_key,
    hash_token,
    new_code,
    new_token,
    normalise_code,
)
from .names import NameTaken, names_clash
from .ports import Connections, Metrics, Pusher, RoomStore, Timers
from .protocol import (
    ChangeSettings,
    CreateRoom,
    GameMove,
    HandOver,
    Join,
    Kick,
    Leave,
    Ping,
    Rematch,
    Reorder,
    Start,
)
from .ratelimit import (
    BURST,
    CONNECTION_WINDOWS,
    CONNECTS_PER_IP_PER_MINUTE,
    COUNTER_TTL_SECONDS,
    JOIN_ATTEMPTS_PER_IP_PER_HOUR,
    RATE_PER_SECOND,
    ROOMS_PER_IP_PER_HOUR,
    RateLimiter,
    window_of,
)

MAX_WRITE_ATTEMPTS = 8
BACKOFF_SECONDS = 0.02
#: How long a seat that finished a step with others waits before writing it itself.
RECHECK_WAIT_SECONDS = 0.15
MAX_CODE_ATTEMPTS = 20
#: Timers are sent a little late rather than early: SQS never delivers before the delay.
TIMER_MARGIN_SECONDS = 0.5


class Refused(Exception):
    """A ``$connect`` that must be refused (wrong room or token): HTTP ``status``."""

    status = 403


class TooManyConnections(Refused):
    """A ``$connect`` over its address's budget (HTTP 429 Too Many Requests)."""

    status = 429


class Busy(GameError):
    code = "busy"


class RateLimited(GameError):
    code = "rate_limited"


class CannotJoin(IllegalAction):
    """The one answer to a join of a room that is not an open lobby with a free seat: no
    such room, a closed one, a game under way, a full room (issue 18). A phone probing
    codes learns nothing from it; the phone words it in the player's language."""

    code = "cannot_join"

    def __init__(self) -> None:
        super().__init__(
            "You can't join that room: no open room has that code (a game under way, a full "
            "room or a closed one can't be joined). Check the code, or ask the host for the "
            "link.",
            "§10",
        )


class KeptOut(IllegalAction):
    """A kicked cat trying to come back before the ban ends (issue 18)."""

    code = "kept_out"

    def __init__(self) -> None:
        super().__init__(
            f"The host removed you from this room: you can't join it again until "
            f"{KICK_BAN_SECONDS // 60} minutes have passed.",
            "§10",
        )


class TooManyRooms(GameError):
    code = "too_many_rooms"


class TooManyJoins(GameError):
    code = "too_many_joins"


@dataclass
class Ports:
    store: RoomStore
    connections: Connections
    pusher: Pusher
    timers: Timers
    metrics: Metrics


@dataclass
class Change:
    """What a change of a room asks for once it is written."""

    direct: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    timers: list[tuple[dict[str, Any], float]] = field(default_factory=list)
    write: bool = True
    push_views: bool = True
    result: Any = None
    #: A move that leaves the step as it is: written as the seat's own submission only.
    submission: "PendingMove | None" = None
    #: Answer a ping (or a repeated move) after the write: with the seat's view if the
    #: phone's is another.
    pong: "Pong | None" = None


@dataclass
class Pong:
    connection_id: str
    name: str
    #: The ``rev`` of the view the phone shows (None: it has none).
    client_rev: str | None
    #: Answer with a pong frame (a ping), or only with the view if it differs (a move).
    answer: bool = True


@dataclass
class PendingMove:
    player: str
    action: dict[str, Any]
    at: float
    state: BaseModel
    effects: list[Effect]


def no_change() -> Change:
    return Change(write=False, push_views=False)


class RoomService:
    def __init__(
        self,
        ports: Ports,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
        jitter: Callable[[], float] = random.random,
    ):
        self.ports = ports
        self.clock = clock
        self.sleep = sleep
        self.jitter = jitter
        #: Write attempts of the last ``_update`` (benchmarks and tests read it).
        self.last_attempts = 0
        self.rate_limiter = RateLimiter()

    # == routes ============================================================================
    def connect(self, connection_id: str, room_code: str | None, token: str | None,
                source_ip: str | None = None) -> None:  # fmt: skip
        """``$connect``: a phone with no token may connect (it will create or join);
        one with a token is bound to its seat, or refused. ``source_ip``: the caller's
        address as API Gateway saw it (the request context), for per-address limits."""
        if self._over(source_ip, "CONNECT", 60, CONNECTS_PER_IP_PER_MINUTE):
            raise TooManyConnections(
                f"Too many new connections from your network: at most "
                f"{CONNECTS_PER_IP_PER_MINUTE} a minute. Try again in a minute."
            )
        if not room_code and not token:
            return
        if not (room_code and token):
            raise Refused("Reconnecting needs both the room code and the seat token.")
        code = normalise_code(room_code)
        room = self.ports.store.load(code)
        seat = room.seat_by_token(token) if room else None
        if seat is None:
            raise Refused("That seat token is not valid for this room.")
        # The seat is not taken over here: API Gateway answers 410 to posts while $connect
        # runs, and a push from another cat's move would then free the seat again. The
        # connection takes its seat with its first message (the phone pings at once).
        self.ports.connections.bind(connection_id, Binding(code, seat.name, seat.token_hash))

    def disconnect(self, connection_id: str) -> None:
        """``$disconnect`` (best effort): free the seat's connection; start the host's grace."""
        where = self.ports.connections.lookup(connection_id)
        self.ports.connections.unbind(connection_id)
        if where is None:
            return
        code, name, _ = where

        def drop(room: Room) -> Change:
            seat = room.seat(name)
            if seat is None or seat.connection != connection_id:
                return no_change()  # already replaced by a newer connection
            seat.connection, seat.disconnected_at = None, self.clock()
            change = Change()
            if room.host == name:
                check = {"kind": "host_check", "room": room.code}
                change.timers.append((check, HOST_GRACE_SECONDS + TIMER_MARGIN_SECONDS))
            if not room.started:  # a lobby seat gone a while is freed (issue 18)
                check = {"kind": "seat_check", "room": room.code, "seat": name}
                change.timers.append((check, LOBBY_SEAT_GRACE_SECONDS + TIMER_MARGIN_SECONDS))
            return change

        self._try_update(code, drop)

    def message(self, connection_id: str, body: str | bytes | None,
                source_ip: str | None = None) -> None:  # fmt: skip
        """A frame from a phone. Errors go back to the sender only; nothing else changes.
        ``source_ip``: the caller's address from the request context (see ``connect``)."""
        try:
            if not self.rate_limiter.allow(connection_id, self.clock()):
                self._rate_limited()
            parsed = protocol.parse_client_message(body)
            self._dispatch(connection_id, parsed, source_ip)
        except GameError as exc:
            self.ports.metrics.count("RejectedMessages")
            self._send(connection_id, protocol.error_message(exc.code, exc.message))

    def _rate_limited(self) -> None:
        self.ports.metrics.count("RateLimited")
        raise RateLimited(
            f"Too many messages: at most {RATE_PER_SECOND:g} a second "
            f"({BURST:g} at once), {CONNECTION_WINDOWS[-1][1]} a minute. "
            "Wait a moment; nothing was changed."
        )

    def _arrive(self, connection_id: str) -> Binding | None:
        """The connection's binding, counting this message where every container sees it
        (the in-process bucket alone lets a flood spread over containers through)."""
        binding, allowed = self.ports.connections.arrive(connection_id, self.clock())
        if not allowed:
            self._rate_limited()
        return binding

    def _over(self, source_ip: str | None, kind: str, seconds: int, limit: int) -> bool:
        """Count one ``kind`` of request from ``source_ip`` in its fixed window of
        ``seconds``; True if that is over ``limit``. No address (a test, a tool calling the
        service directly): nothing to count against."""
        if source_ip is None:
            return False
        start = window_of(self.clock(), seconds)
        expires_at = start + seconds + COUNTER_TTL_SECONDS
        if self.ports.connections.hit(source_ip, kind, start, expires_at) <= limit:
            return False
        self.ports.metrics.count("AddressLimited")
        return True

    def timer(self, message: dict[str, Any]) -> None:
        """A delayed SQS message: a step's deadline, the host's grace period, or the wait
        before a gone phone's lobby seat is freed."""
        code = message.get("room")
        if not isinstance(code, str):
            return
        if message.get("kind") == "deadline":
            self._try_update(code, lambda room: self._fire_deadline(room, message))
        elif message.get("kind") == "host_check":
            self._try_update(code, self._check_host)
        elif message.get("kind") == "seat_check":
            self._try_update(code, self._free_gone_seats)

    def current_room(self, code: str) -> Room:
        """The room as players see it: stored state plus the pending moves of its step."""
        return self._load(normalise_code(code)).room

    # == dispatch ==========================================================================
    def _dispatch(self, connection_id: str, parsed: Any, source_ip: str | None = None) -> None:
        if isinstance(parsed, CreateRoom):
            self._create_room(connection_id, parsed, source_ip)
            return
        if isinstance(parsed, Join):
            self._join(connection_id, parsed, source_ip)
            return
        binding = self._arrive(connection_id)
        if binding is None:
            if isinstance(parsed, Ping):
                self._send(connection_id, protocol.PONG)
                return
            raise IllegalAction("Create or join a room first.")
        code, name, _ = binding
        self.ports.metrics.context(code, name)
        handlers: dict[type, Callable[[Room, str, str, Any], Change]] = {
            Leave: self._leave, ChangeSettings: self._settings, Reorder: self._reorder,
            Kick: self._kick, HandOver: self._hand_over, Start: self._start,
            Rematch: self._rematch, Ping: self._ping, GameMove: self._move,
        }  # fmt: skip
        handler = handlers[type(parsed)]

        def as_seat(room: Room, seated: bool = True) -> Change:
            seat = self._bound_seat(room, binding)
            if seated and seat.connection != connection_id:
                raise _NotSeated
            return handler(room, name, connection_id, parsed)

        try:
            try:
                change = self._update(code, as_seat)
            except _NotSeated:  # a reconnected phone's first message: take the seat, then act
                self._take_seat(binding, connection_id)
                change = self._update(code, lambda room: as_seat(room, seated=False))
        except _Unseated:
            # A socket left over from a seat that was let go: it speaks for nobody now, and
            # without its binding it may create or join like a new phone.
            self.ports.connections.unbind(connection_id)
            raise IllegalAction("You no longer have a seat in this room.", "§10") from None
        if isinstance(parsed, Leave | Kick):
            for gone in change.result or []:
                self.ports.connections.unbind(gone)

    @staticmethod
    def _bound_seat(room: Room, binding: Binding) -> Seat:
        """The seat ``binding`` speaks for, if that seat still has the token it proved."""
        seat = room.seat(binding.seat)
        if not binding.holds(seat):
            raise _Unseated
        return seat

    def _take_seat(self, binding: Binding, connection_id: str) -> None:
        """Bind the seat to this (reconnected) connection; the older one is let go."""

        def take(room: Room) -> Change:
            seat = self._bound_seat(room, binding)
            replaced = seat.connection
            seat.connection, seat.disconnected_at = connection_id, None
            return Change(result=replaced)

        replaced = self._update(binding.room, take).result
        if replaced and replaced != connection_id:
            self.ports.connections.unbind(replaced)

    # == lobby =============================================================================
    def _create_room(self, connection_id: str, msg: CreateRoom, source_ip: str | None) -> None:
        if self._arrive(connection_id):
            raise IllegalAction("This connection is already in a room.")
        if self._over(source_ip, "ROOMS", 3600, ROOMS_PER_IP_PER_HOUR):
            raise TooManyRooms(
                f"Too many rooms created from your network: at most {ROOMS_PER_IP_PER_HOUR} "
                "an hour. Join a room that is already open, or try again later."
            )
        settings = protocol.read_settings(game_of(msg.game), msg.settings, msg.action)
        token = new_token()
        token_hash = hash_token(token)
        for _ in range(MAX_CODE_ATTEMPTS):
            room = Room(
                code=new_code(), host=msg.name, game=msg.game, settings=settings, version=1,
                seats=[Seat(name=msg.name, token_hash=token_hash, connection=connection_id,
                            address=address_key(source_ip))],
                expires_at=int(self.clock()) + ROOM_TTL_SECONDS,
            )  # fmt: skip
            if self.ports.store.create(room):
                break
        else:
            raise Busy("Could not find a free room code; try again.")
        self.ports.connections.bind(connection_id, Binding(room.code, msg.name, token_hash))
        self.ports.metrics.count("RoomsCreated")
        self._send(connection_id, protocol.joined_message(room.code, msg.name, token))
        self._push_views(room, self._stamp())

    def _join(self, connection_id: str, msg: Join, source_ip: str | None) -> None:
        if self._arrive(connection_id):
            raise IllegalAction("This connection is already in a room.")
        if self._over(source_ip, "JOINS", 3600, JOIN_ATTEMPTS_PER_IP_PER_HOUR):
            raise TooManyJoins(
                f"Too many attempts to join from your network: at most "
                f"{JOIN_ATTEMPTS_PER_IP_PER_HOUR} an hour. Try again later."
            )
        token = new_token()
        token_hash = hash_token(token)
        code = normalise_code(msg.room)
        address = address_key(source_ip)

        def join(room: Room) -> Change:
            self._free_gone_seats(room)  # seats gone too long make room first
            self._join_problem(room, msg.name, address)
            seat = Seat(name=msg.name, token_hash=token_hash, connection=connection_id,
                        address=address)  # fmt: skip
            room.seats.append(seat)
            joined = protocol.joined_message(room.code, msg.name, token)
            return Change(direct=[(connection_id, joined)])

        # Every refusal a stranger could meet is decided on one read of the room item, the
        # same read for a code with no room as for a game under way (issue 18: one answer).
        stored = self.ports.store.load(code)
        if stored is None:
            raise CannotJoin()
        self._join_problem(stored, msg.name, address, gone_seats=self._gone_seats(stored))
        try:
            self._update(code, join)
        except (CannotJoin, KeptOut, NameTaken):
            raise
        except IllegalAction:  # the room vanished since that read (_load's refusal)
            raise CannotJoin() from None
        self.ports.connections.bind(connection_id, Binding(code, msg.name, token_hash))

    def _join_problem(self, room: Room, name: str, address: str | None,
                      gone_seats: list[Seat] = ()) -> None:  # fmt: skip
        """Refuse a join: CannotJoin unless the room is an open lobby with a free seat
        (``gone_seats`` will be freed first); then KeptOut for a kicked cat, NameTaken for
        a name too like a seated one. Those two reveal only a lobby the phone could have
        joined under another name."""
        seats = [seat for seat in room.seats if seat not in gone_seats]
        if room.closed or room.started or not seats or len(seats) >= room.rules.max_players:
            raise CannotJoin()
        now = self.clock()
        for ban in room.bans:
            if ban.until > now and (
                names_clash(ban.name, name) or (address and ban.address == address)
            ):
                raise KeptOut()
        if any(names_clash(seat.name, name) for seat in seats):
            raise NameTaken()

    def _host_only(self, room: Room, name: str, what: str) -> None:
        if room.host != name:
            raise IllegalAction(f"Only the host can {what}.", "§10")

    def _lobby_only(self, room: Room, what: str) -> None:
        if room.started:
            raise IllegalAction(f"You can {what} only in the lobby.", "§10")

    def _leave(self, room: Room, name: str, connection_id: str, msg: Leave) -> Change:
        seat = room.seat(name)
        if not room.started:
            self._free_seat(room, seat)
        else:
            seat.connection, seat.disconnected_at = None, self.clock()
            room.revoke_token(seat)
            if room.host == name:
                self._pass_host(room, anyone=True)
        change = Change(result=[connection_id])
        if room.state is not None:  # the game plays on without them (its own rules say how)
            self._play(room, change, lambda game, state, now: game.leave(state, name, now))
        return change

    def _settings(self, room: Room, name: str, connection_id: str, msg: ChangeSettings) -> Change:
        self._host_only(room, name, "change the settings")
        self._lobby_only(room, "change the settings")
        room.settings = protocol.read_settings(room.rules, msg.settings, msg.action)
        return Change()

    def _reorder(self, room: Room, name: str, connection_id: str, msg: Reorder) -> Change:
        self._host_only(room, name, "reorder the seats")
        self._lobby_only(room, "reorder the seats")
        if sorted(msg.order) != sorted(seat.name for seat in room.seats):
            raise IllegalAction("The new order must name every seated cat once.", "§10")
        by_name = {seat.name: seat for seat in room.seats}
        room.seats = [by_name[n] for n in msg.order]
        return Change()

    def _kick(self, room: Room, name: str, connection_id: str, msg: Kick) -> Change:
        self._host_only(room, name, "kick a cat")
        self._lobby_only(room, "kick a cat")
        seat = room.seat(msg.target)
        if seat is None:
            raise IllegalAction(f"There is no cat named {msg.target!r} here.", "§10")
        if seat.name == name:
            raise IllegalAction("The host cannot kick themselves; use leave.", "§10")
        room.seats.remove(seat)
        self._ban(room, seat)
        change = Change(result=[seat.connection] if seat.connection else [])
        if seat.connection:
            change.direct.append(
                (
                    seat.connection,
                    protocol.error_message(
                        "kicked",
                        "The host removed you from the room. You can't join it again for "
                        f"{KICK_BAN_SECONDS // 60} minutes.",
                    ),
                )
            )
        return change

    def _hand_over(self, room: Room, name: str, connection_id: str, msg: HandOver) -> Change:
        """§10: the host gives host powers to another cat, in the lobby or mid-game."""
        self._host_only(room, name, "hand over host")
        seat = room.seat(msg.target)
        if seat is None:
            raise IllegalAction(f"There is no cat named {msg.target!r} here.", "§10")
        if seat.name == name:
            raise IllegalAction("You are already the host.", "§10")
        if seat.connection is None:
            raise IllegalAction(f"{seat.name} is offline; hand over to a connected cat.", "§10")
        self._make_host(room, seat.name)
        return Change()

    def _start(self, room: Room, name: str, connection_id: str, msg: Start) -> Change:
        self._host_only(room, name, "start the game")
        self._lobby_only(room, "start the game")
        game = room.rules
        problem = game.start_problem(room.settings, len(room.seats))
        if problem:
            raise IllegalAction(problem, "§10")
        names = [seat.name for seat in room.seats]
        state = game.new_game(names, room.settings, seed=secrets.randbits(32), host=room.host)
        room.state, effects = game.start(state, self.clock())
        self.ports.metrics.count("GamesStarted")
        return Change(timers=self._timers(room, effects))

    def _rematch(self, room: Room, name: str, connection_id: str, msg: Rematch) -> Change:
        self._host_only(room, name, "start a rematch")
        game = room.rules
        if room.state is None or not game.is_over(room.state):
            raise IllegalAction("A rematch can start only after the result screen.", "§10")
        state = game.rematch(room.state, seed=secrets.randbits(32))
        room.state, effects = game.start(state, self.clock())
        self.ports.metrics.count("GamesStarted")
        return Change(timers=self._timers(room, effects))

    def _ping(self, room: Room, name: str, connection_id: str, msg: Ping) -> Change:
        """Heartbeat. A client behind (or just connected) gets its view again; a passed
        deadline is resolved here too (the backstop for a lost timer)."""
        change = self._backstop(room) if room.state else no_change()
        change.pong = Pong(connection_id, name, msg.rev)
        return change

    # == game ==============================================================================
    def _move(self, room: Room, name: str, connection_id: str, msg: GameMove) -> Change:
        if room.state is None:
            raise IllegalAction("The game has not started yet.")
        game = room.rules
        action = protocol.read_move(game, msg.move, name)
        change = self._backstop(room)
        self.ports.metrics.count("Actions")
        if msg.step != game.seat_step(room.state, name):
            # Late, replayed, or made on a view the phone had not caught up from: never
            # taken on another step than its own (the phone's view shows the step now).
            stale = StaleMove("That step is over: your move was not used.")
            if not change.write:
                raise stale
            change.direct.append((connection_id, protocol.error_message(stale.code, stale.message)))
            return change
        if not change.write and action.model_dump(mode="json") in room.pending_moves.get(name, ()):
            # The same move again on its step (a retry whose first send did land): taken once.
            self.ports.metrics.count("RepeatedMoves")
            return Change(
                write=False, push_views=False, pong=Pong(connection_id, name, None, False)
            )
        if not change.write:  # the usual case: try the conflict-free path
            now = self.clock()
            state, effects = game.apply(room.state, action, now)  # a GameError: to the sender
            if game.step(state) == game.step(room.state):
                pending = PendingMove(name, action.model_dump(mode="json"), now, state, effects)
                return Change(write=False, submission=pending)
        try:
            self._play(room, change, lambda game, state, now: game.apply(state, action, now))
        except GameError as exc:
            if not change.write:
                raise  # nothing else happened: refuse without writing
            change.direct.append((connection_id, protocol.error_message(exc.code, exc.message)))
        return change

    def _backstop(self, room: Room) -> Change:
        """§9 / ARCHITECTURE: any message after a passed deadline also resolves it."""
        if time_left(room, self.clock()) != 0:
            return no_change()
        change = Change()
        self._play(room, change, lambda game, state, now: game.time_out(state, now))
        self.ports.metrics.count("DeadlinesByBackstop")
        return change

    def _fire_deadline(self, room: Room, message: dict[str, Any]) -> Change:
        left = time_left(room, self.clock())
        if left is None or message.get("step") != room.rules.step(room.state):
            return no_change()  # stale or duplicate: that step is over
        if left > 0:  # early: wait for the rest
            return Change(write=False, push_views=False,
                          timers=[(message, left + TIMER_MARGIN_SECONDS)])  # fmt: skip
        change = Change()
        self._play(room, change, lambda game, state, now: game.time_out(state, now))
        return change

    def _play(self, room: Room, change: Change,
              turn: Callable[[Game, BaseModel, float], tuple[BaseModel, list[Effect]]]) -> None:  # fmt: skip
        """One turn of the room's game (a move, a time-out, a departure) into ``change``."""
        room.state, effects = turn(room.rules, room.state, self.clock())
        change.write = True
        change.push_views = True
        change.timers.extend(self._timers(room, effects))
        if any(isinstance(e, GameOver) for e in effects):
            self.ports.metrics.count("GamesFinished")

    def _timers(self, room: Room, effects: list[Effect]) -> list[tuple[dict[str, Any], float]]:
        now = self.clock()
        return [
            ({"kind": "deadline", "room": room.code, "step": e.step, "deadline": e.deadline},
             max(0.0, e.deadline - now) + TIMER_MARGIN_SECONDS)
            for e in effects if isinstance(e, StartTimer)
        ]  # fmt: skip

    # == host (§10) =========================================================================
    def _check_host(self, room: Room) -> Change:
        seat = room.seat(room.host)
        if seat is None or seat.connection is not None or seat.disconnected_at is None:
            return no_change()
        if self.clock() - seat.disconnected_at < HOST_GRACE_SECONDS:
            return no_change()
        return Change() if self._pass_host(room) else no_change()

    def _pass_host(self, room: Room, after: int | None = None, anyone: bool = False) -> bool:
        """Host powers pass to the next connected cat in seat order (§10), searching from
        the seat after index ``after`` (default: the host's seat; once that seat is
        removed, the caller passes the index just before the place it had).
        ``anyone``: the host's seat is gone or no token opens it any more, so with nobody
        connected they pass to the next seat all the same: the host is never a name no
        phone holds, which a new join could take with its powers (issue 18)."""
        names = [seat.name for seat in room.seats]
        if after is None:
            after = names.index(room.host) if room.host in names else len(names) - 1
        others = [room.seats[(after + 1 + offset) % len(names)] for offset in range(len(names))]
        others = [seat for seat in others if seat.name != room.host]
        connected = [seat for seat in others if seat.connection]
        chosen = connected or (others if anyone else [])
        if not chosen:
            return False
        self._make_host(room, chosen[0].name)
        return True

    # == lobby seats (issue 18) =============================================================
    def _free_seat(self, room: Room, seat: Seat) -> None:
        """A lobby seat let go (left, or its phone gone too long): the host passes on, and
        the last seat closes the room (never joinable again; TTL takes it)."""
        index = room.seats.index(seat)
        room.seats.remove(seat)
        if room.host == seat.name and room.seats:
            self._pass_host(room, after=index - 1, anyone=True)
        if not room.seats:
            room.expires_at = int(self.clock())  # closed: let TTL take it

    def _gone_seats(self, room: Room) -> list[Seat]:
        """Lobby seats whose phone has been gone LOBBY_SEAT_GRACE_SECONDS or more."""
        if room.started:
            return []
        now = self.clock()
        return [
            seat for seat in room.seats
            if seat.connection is None and seat.disconnected_at is not None
            and now - seat.disconnected_at >= LOBBY_SEAT_GRACE_SECONDS
        ]  # fmt: skip

    def _free_gone_seats(self, room: Room) -> Change:
        """The ``seat_check`` timer, and every join (in case that timer was lost)."""
        gone = self._gone_seats(room)
        for seat in gone:
            self._free_seat(room, seat)
        return Change() if gone else no_change()

    def _ban(self, room: Room, seat: Seat) -> None:
        """Keep a kicked cat out for KICK_BAN_SECONDS: by name (its skeleton, so a
        look-alike is kept out too), and by the address it joined from unless that is the
        host's (friends at one table are often all behind the venue's one address: banning
        it would shut the table out). Other seats sharing it do not spare it: squatters
        running several phones from one address are kept out by the first kick."""
        now = self.clock()
        host = room.seat(room.host)
        address = None if host is not None and host.address == seat.address else seat.address
        bans = [ban for ban in room.bans if ban.until > now]
        bans.append(Ban(name=seat.name, address=address, until=now + KICK_BAN_SECONDS))
        room.bans = bans[-MAX_BANS:]

    @staticmethod
    def _make_host(room: Room, name: str) -> None:
        room.host = name
        if room.state is not None:
            room.state = room.rules.set_host(room.state, name)

    # == writing and pushing ================================================================
    def _update(
        self,
        code: str,
        change_room: Callable[[Room], Change],
        exclude: set[str] | None = None,
        recheck_for: tuple[float, str] | None = None,
        seen: "_Seen | None" = None,
        written_under: int | None = None,
    ) -> Change:
        """``recheck_for`` (the move just submitted, as (time, seat)): when several seats
        finish a step together, the seat whose move is the latest writes the step at once;
        the others look again a moment later and write only if it is still not written.
        ``seen``: what the phones had before that move (a view it left as it was is not
        pushed again).
        ``written_under``: the step the move was written under (the recheck's first load
        also tells whether that step ended meanwhile: see ``_orphaned``)."""
        store = self.ports.store
        for attempt in range(1, MAX_WRITE_ATTEMPTS + 1):
            self.last_attempts = attempt
            loaded = self._load(code)
            if written_under is not None and recheck_for is not None:
                if self._orphaned(code, loaded, written_under, recheck_for[1]):
                    raise _Orphaned
                written_under = None
            if recheck_for and loaded.advanced and loaded.last_move != recheck_for:
                recheck_for = None
                self.sleep(RECHECK_WAIT_SECONDS * (1 + self.jitter()))
                loaded = self._load(code)
            room, expected = loaded.room, loaded.room.version
            before = _Seen.of(room)  # what the phones were last sent
            change = change_room(room)
            if change.submission is not None and not loaded.advanced:
                if self._submit(room, loaded, change.submission):
                    mine = (change.submission.at, change.submission.player)
                    try:
                        self._update(code, lambda _: Change(write=False), exclude,
                                     recheck_for=mine, seen=before,
                                     written_under=loaded.stored_step)  # fmt: skip
                    except _Orphaned:
                        continue  # the step ended as the move was written: try it anew
                    return change
            else:
                if change.submission is not None:  # the step moved on while merging
                    room.state = change.submission.state
                    change.timers.extend(self._timers(room, change.submission.effects))
                    change.write = change.push_views = True
                if not change.write and not loaded.advanced:
                    self._deliver(room, change, exclude, loaded.stamp, seen or before)
                    return change
                change.timers.extend(self._timers(room, loaded.effects))
                room.version = expected + 1
                if room.seats:  # an empty room keeps its expiry: TTL removes it
                    room.expires_at = int(self.clock()) + ROOM_TTL_SECONDS
                if store.save(room, expected, loaded.consumed, _unmerged(room, loaded)):
                    change.push_views = change.push_views or loaded.advanced
                    # A write that stores a step other seats' moves ended: nobody has it yet.
                    seen_before = None if loaded.advanced else before
                    self._deliver(room, change, exclude, self._stamp(), seen_before)
                    return change
            self.ports.metrics.count("WriteConflicts")
            self.sleep(BACKOFF_SECONDS * attempt * (0.5 + self.jitter()))
        raise Busy("The room is busy; please try again.")

    def _orphaned(self, code: str, loaded: "Loaded", step: int, seat: str) -> bool:
        """A seat's move written just after another seat's write ended that step would
        never be merged (loads read the current step's submissions only). Then take it
        back, and the caller plays the move again on the new step (or refuses it).
        ``loaded`` is the load that follows the write (the recheck's, no extra read)."""
        if loaded.stored_step is None or loaded.stored_step == step:
            return False
        mine = [sub for sub in self.ports.store.submissions(code, step) if sub.player == seat]
        return bool(mine) and self.ports.store.delete_submission(code, mine[0])

    def _load(self, code: str) -> "Loaded":
        """The room with the pending submissions of its current step merged in, in the
        order they were made; a move no longer legal (the step moved on) is dropped."""
        stamp = self._stamp()
        room = self.ports.store.load(code)
        if room is None:
            raise IllegalAction("There is no room with that code.")
        game, state = room.rules, room.state
        if state is None:
            return Loaded(room=room, stored_step=None, stamp=stamp)
        loaded = Loaded(room=room, stored_step=game.step(state), stamp=stamp)
        loaded.consumed = self.ports.store.submissions(code, loaded.stored_step)
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
        loaded.advanced = game.step(state) != loaded.stored_step
        return loaded

    def _submit(self, room: Room, loaded: "Loaded", move: PendingMove) -> bool:
        """Write one seat's move into its own submission item (no other seat writes it)."""
        mine = next((s for s in loaded.consumed if s.player == move.player), None)
        actions = list(mine.actions) if mine else []
        if move.action["type"] in room.rules.replacing_moves:  # only the final vote is kept (§3.6)
            actions = [a for a in actions if a["action"]["type"] != move.action["type"]]
        actions.append({"t": move.at, "action": move.action})
        if len(actions) > MAX_MOVES_PER_STEP:
            raise TooManyMoves(
                f"Too many moves in this step (at most {MAX_MOVES_PER_STEP}): this one was "
                "not taken. Your earlier moves stand."
            )
        expected_n = mine.n if mine else 0
        sub = Submission(player=move.player, step=loaded.stored_step, actions=actions,
                         n=expected_n + 1)  # fmt: skip
        return self.ports.store.put_submission(room.code, sub, expected_n)

    def _try_update(self, code: str, change_room: Callable[[Room], Change]) -> None:
        """For the server's own events (timers, disconnects): a vanished room is fine."""
        try:
            self._update(code, change_room)
        except IllegalAction:
            return

    def _deliver(self, room: Room, change: Change, exclude: set[str] | None, seq: int,
                 seen: "_Seen | None" = None) -> None:  # fmt: skip
        """``seq``: when the room was read as it is here (or written), in microseconds."""
        for message, delay in change.timers:
            self.ports.timers.schedule(message, delay)
        for connection_id, message in change.direct:
            self._send(connection_id, message)
        pushed = self._push_views(room, seq, exclude, seen) if change.push_views else set()
        if change.pong:
            pong = change.pong
            if pong.answer:
                self._send(pong.connection_id, protocol.PONG)
            # Nothing in the answer depends on anything but the seat's own view: neither
            # other seats' pending moves nor steps the seat does not see (issue 18).
            if pong.name not in pushed:
                view = protocol.view_message(seq, view_for(room, pong.name))
                if view["rev"] != pong.client_rev:
                    self._send(pong.connection_id, view)

    def _stamp(self) -> int:
        """A view's ``seq``: the time (µs) of the read or write that gave the room as sent.
        A read that began later returns that write or a newer room, so a later seq is never
        an older room (across containers too, within their clocks' skew). Unlike a count of
        writes and pending moves it says nothing of moves and steps the seat cannot see."""
        return int(self.clock() * 1_000_000)

    def _push_views(self, room: Room, seq: int, exclude: set[str] | None = None,
                    seen: "_Seen | None" = None) -> set[str]:  # fmt: skip
        """Each connected seat's new view, except to seats that already have it (a place, a
        witch's choice, a Seer's look change only the mover's own view). The seats pushed."""
        game_views = room.rules.views(room.state) if room.state else None
        had = seen.game_views(room, game_views) if seen else None
        seats = [
            s for s in room.seats
            if s.connection and s.connection not in (exclude or ())
            and not (had and had.get(s.name) == game_views[s.name])
        ]  # fmt: skip
        if not seats:
            return set()
        messages = [
            (seat.connection, protocol.view_message(seq, view_for(room, seat.name, game_views)))
            for seat in seats
        ]
        gone = self.ports.pusher.push(messages)
        if gone:
            self._forget(room.code, gone)
        return {seat.name for seat in seats}

    def _send(self, connection_id: str, message: dict[str, Any]) -> None:
        gone = self.ports.pusher.push([(connection_id, message)])
        for connection in gone:
            where = self.ports.connections.lookup(connection)
            self.ports.connections.unbind(connection)
            if where:
                self._forget(where.room, [connection])

    def _forget(self, code: str, gone: list[str]) -> None:
        """410 on a push: that connection is gone; free its seat and never fail the request."""
        self.ports.metrics.count("PushesFailed", len(gone))
        for connection_id in gone:
            self.ports.connections.unbind(connection_id)

        def clear(room: Room) -> Change:
            now = self.clock()
            touched = False
            for seat in room.seats:
                if seat.connection in gone:
                    seat.connection, seat.disconnected_at, touched = None, now, True
            return Change(push_views=False) if touched else no_change()

        self._try_update(code, clear)


@dataclass
class _Seen:
    """What a room's phones were last sent: its game and who was connected, before a
    change (the engine never changes a state in place: ``apply`` returns a new one)."""

    state: BaseModel | None
    connected: dict[str, bool]
    host: str

    @classmethod
    def of(cls, room: Room) -> "_Seen":
        connected = {seat.name: seat.connection is not None for seat in room.seats}
        return cls(room.state, connected, room.host)

    def game_views(self, room: Room, views: dict[str, dict] | None) -> dict[str, dict] | None:
        """The game views the phones had, to compare with ``views`` (``room``'s); None when
        every view changed anyway: the lobby, a start, a seat (dis)connected, a new host."""
        now = _Seen.of(room)
        if (
            self.state is None
            or views is None
            or (self.connected, self.host) != (now.connected, now.host)
        ):
            return None
        return views if self.state is room.state else room.rules.views(self.state)


def _unmerged(room: Room, loaded: "Loaded") -> list[tuple[int, str]]:
    """When this write ends the loaded step, a seat's move submitted after the load would
    never be merged (loads read only the current step's submissions): the write must fail
    if any such submission exists, and is retried with it merged."""
    step = loaded.stored_step
    if step is None or (room.state is not None and room.rules.step(room.state) == step):
        return []
    merged = {sub.player for sub in loaded.consumed}
    return [(step, seat.name) for seat in room.seats if seat.name not in merged]


class _Orphaned(Exception):
    """The move was written under a step that had just ended: play it again."""


class _NotSeated(Exception):
    """The seat is bound to another connection than the one speaking (see connect)."""


class _Unseated(Exception):
    """The connection's seat was let go (left, kicked, or another cat has its name)."""


@dataclass
class Loaded:
    room: Room
    stored_step: int | None
    #: When the read began (µs): the seq of views sent from it (see ``_stamp``).
    stamp: int = 0
    consumed: list[Submission] = field(default_factory=list)
    effects: list[Effect] = field(default_factory=list)
    advanced: bool = False
    #: (time, seat) of the latest pending move merged in.
    last_move: tuple[float, str] | None = None


#: A seat's pending moves in one step: a real step takes a handful (a place, a spell and
#: its target, a guard…). The bound keeps the submission item small (every load of the
#: room replays it) and far below DynamoDB's 400 KB item limit (about 0.2 KB a move).
MAX_MOVES_PER_STEP = 40


class TooManyMoves(GameError):
    code = "too_many_moves"


class StaleMove(GameError):
    """A move made on another step than the seat's current one: harmless, nothing used."""

    code = "stale_move"


# == views =================================================================================
def time_left(room: Room, now: float) -> float | None:
    """The one place that decides whether the room's step has timed out: the seconds left
    (0: passed), or None when no deadline runs (a lobby, an untimed step)."""
    deadline = room.rules.deadline(room.state) if room.state is not None else None
    return None if deadline is None else max(0.0, deadline - now)


def view_for(room: Room, name: str, game_views: dict[str, dict] | None = None) -> dict[str, Any]:
    """The whole current view for one seat: the lobby, or the game view with room facts."""
    connected = {seat.name: seat.connection is not None for seat in room.seats}
    game = room.rules
    if room.state is None:
        count = len(room.seats)
        return {
            "phase": "lobby",
            "game": room.game,
            "room": room.code,
            "you": name,
            "host": room.host,
            "seats": [
                {"name": s.name, "seat": i, "connected": connected[s.name]}
                for i, s in enumerate(room.seats, 1)
            ],
            "settings": room.settings.model_dump(mode="json"),
            **game.lobby_facts(room.settings, count),
            "start_problem": game.start_problem(room.settings, count),
        }
    view = dict(game_views[name]) if game_views else game.views(room.state)[name]
    view["room"] = room.code
    view["connected"] = connected
    return view


__all__ = ["Busy", "InvalidAction", "Ports", "Refused", "RoomService", "view_for"]
