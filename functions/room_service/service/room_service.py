"""RoomService: the entrypoints' one door. It routes each event to its handler and runs
that handler as a unit of work, then delivers what was committed:

    entrypoint → command (commands.py) → handler (found in handlers.py's tables, or
    ``ARRIVALS`` below; written in lobby_handlers.py, game_handlers.py) → unit of work
    (unit_of_work.py: load, change, conditional write) → delivery (delivery.py: push,
    schedule; returns the phones found gone)

Nothing below calls back up: what a gone phone means for its seat is decided here, as a
unit of work of its own. No AWS imports here: the outside world is behind the ports.
"""

import logging
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from engine.errors import GameError, IllegalAction, InvalidAction
from engine.games import game_of

from ..adapters.ports import Connections, Metrics, Pusher, RoomStore, Timers
from ..adapters.ratelimit import (
    CONNECTS_PER_IP_PER_MINUTE,
    JOIN_ATTEMPTS_PER_IP_PER_HOUR,
    ROOMS_PER_IP_PER_HOUR,
)
from ..domain import lobby, seat_moves, table_screens
from ..domain.lobby import CannotJoin
from ..domain.room import (
    ROOM_TTL_SECONDS,
    Binding,
    Room,
    Seat,
    address_key,
    could_be_code,
    hash_token,
    new_code,
    new_token,
    normalise_code,
    watcher_binding,
)
from ..domain.timers import parse_timer
from . import commands, replies
from .admission import (
    Admission,
    RateLimited,
    Refused,
    TooManyConnections,
    TooManyJoins,
    TooManyRooms,
)
from .change import Change, Commit, Context, Pong
from .commands import Cover, CreateRoom, Join, Ping, Resume, TakeSeat, Watch
from .delivery import Delivery
from .handlers import SEAT_HANDLERS, TIMER_HANDLERS
from .lobby_handlers import connections_gone, phone_gone, watcher_gone
from .unit_of_work import Busy, Loaded, NoSuchRoom, UnitOfWork

MAX_CODE_ATTEMPTS = 20
#: The attribute a seat's refused command carries: the room it was refused in.
REFUSED_IN = "refused_in"
logger = logging.getLogger(__name__)


@dataclass
class Ports:
    store: RoomStore
    connections: Connections
    pusher: Pusher
    timers: Timers
    metrics: Metrics


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
        self.metrics = ports.metrics
        self.admission = Admission(ports.connections, ports.metrics, clock)
        self.unit_of_work = UnitOfWork(
            ports.store, clock, sleep, jitter,
            on_conflict=lambda: self.metrics.count("WriteConflicts"),
        )  # fmt: skip
        self.delivery = Delivery(ports.pusher, ports.timers)
        #: What every handler is given besides the room and the command (change.py).
        self.context = Context(clock, ports.metrics, ports.store)

    # == entrypoints =======================================================================
    def connect(self, connection_id: str, source_ip: str | None = None) -> None:
        """``$connect``: admitted, or refused for its address's limits alone. A seat is
        not checked here: a browser cannot read why a handshake failed, so a
        refused seat would look like a bad network, and a bad network like a refused seat.
        A seated phone names its seat in its first frame (``resume``), where a refusal can
        be told. ``source_ip``: the caller's address as API Gateway saw it (the request
        context), for per-address limits."""
        if self.admission.over(source_ip, "CONNECT", 60, CONNECTS_PER_IP_PER_MINUTE):
            raise TooManyConnections(
                f"Too many new connections from your network: at most "
                f"{CONNECTS_PER_IP_PER_MINUTE} a minute. Try again in a minute."
            )
        self.admission.open_connection(source_ip, connection_id)

    def disconnect(self, connection_id: str, source_ip: str | None = None) -> None:
        """``$disconnect`` (best effort): free the seat's connection and its place among its
        address's open connections; start the host's grace."""
        self.admission.close_connection(source_ip, connection_id)
        where = self.ports.connections.lookup(connection_id)
        self.ports.connections.unbind(connection_id)
        if where is not None and where.watching:
            self._server_event(where.room, lambda room: watcher_gone(room, connection_id))
        elif where is not None:
            self._server_event(
                where.room,
                lambda room: phone_gone(self.context, room, where.seat, connection_id),
            )

    def message(self, connection_id: str, body: str | bytes | None,
                source_ip: str | None = None, waited: float = 0.0) -> None:  # fmt: skip
        """A frame from a phone. Errors go back to the sender only; nothing else changes.
        ``source_ip``: the caller's address from the request context (see ``connect``).
        ``waited``: how long (game seconds) the frame waited between API Gateway and this
        call: its pace is judged by when it was sent (ratelimit.py)."""
        arrived = self.clock() - max(0.0, waited)
        command = None
        try:
            self.admission.refuse_early(connection_id, source_ip, arrived)
            command = commands.parse_client_message(body)
            arrival = ARRIVALS.get(type(command))
            if arrival is not None:
                arrival(self, connection_id, command, source_ip, arrived)
            else:  # a seat's command: its handler is in handlers.SEAT_HANDLERS
                self._as_seat(connection_id, command, source_ip, arrived)
        except GameError as exc:
            self.metrics.count("RejectedMessages")
            if isinstance(exc, RateLimited) and not exc.answered:
                return  # told within REFUSAL_NOTICE_SECONDS: a flood's frames get no post each
            refusal = replies.error_message(exc, commands.action_of(command))
            self._send(connection_id, refusal, getattr(exc, REFUSED_IN, None))
            if isinstance(exc, SeatRefused):
                self.ports.pusher.hang_up(connection_id)  # told why, then closed

    def timer(self, message: dict[str, Any]) -> None:
        """A delayed SQS message: a step's deadline, the host's grace period, the wait
        before a gone phone's lobby seat is freed, or before its game seat is marked Away."""
        timer = parse_timer(message)
        if timer is None:
            return  # one no service sends: nothing to do
        handler = TIMER_HANDLERS[type(timer)]
        self._server_event(timer.room, lambda room: handler(self.context, room, timer))

    def current_room(self, code: str) -> Room:
        """The room as players see it: stored state plus the pending moves of its step."""
        return self.unit_of_work.load(normalise_code(code)).room

    # == commands of a seat ==================================================================
    def _as_seat(self, connection_id: str, command: Any, source_ip: str | None,
                 arrived: float) -> None:  # fmt: skip
        """A command from a seated phone: its handler runs on the seat its binding holds.
        The message is paced on the connection's item while the room it names is read
        (the phone waits for one round trip before its move's write, not two)."""
        with ThreadPoolExecutor(1) as alongside:
            binding, loaded = self._arrive_reading(connection_id, command.room, alongside,
                                                   source_ip, arrived)  # fmt: skip
        self._act_as_seat(connection_id, command, binding, loaded)

    def _act_as_seat(self, connection_id: str, command: Any, binding: Binding | None,
                     loaded: Loaded | None) -> None:  # fmt: skip
        if binding is None:
            if isinstance(command, Ping):
                self._send(connection_id, replies.PONG)
                return
            raise IllegalAction("Create or join a room first.", code="no_room")
        self.metrics.context(binding.room, binding.seat)
        if binding.watching:
            self._as_watcher(connection_id, command, binding, loaded)
            return
        handler = SEAT_HANDLERS[type(command)]

        def act(room: Room, may_take_seat: bool) -> Change:
            seat = room.seat(binding.seat)
            if not binding.holds(seat):
                raise Unseated()
            if may_take_seat and seat.connection != connection_id:
                # A reconnected phone's first message: it takes its seat (the older
                # connection is let go), then its command runs on the seat it now has.
                released = [seat.connection] if seat.connection else []
                seat.connection, seat.disconnected_at = connection_id, None
                lobby.host_returns(room, seat)
                return Change(released=released, then_act=True)
            try:
                return handler(self.context, room, binding.seat, connection_id, command)
            except GameError as exc:
                # The refusal is padded like the room's other frames (frames.py): an error
                # to a mover is as long as an acknowledgement would have been.
                setattr(exc, REFUSED_IN, room)
                raise

        try:
            seated = self._committed(binding.room, lambda room: act(room, True), loaded)
            if seated.change.then_act:
                shown = seated.pushed.get(binding.seat)  # the view the seating pushed it
                self._run(binding.room, lambda room: _answered(act(room, False), shown))
        except Unseated:
            # A socket left over from a seat that was let go: it speaks for nobody now, and
            # without its binding it may create or join like a new phone.
            self.ports.connections.unbind(connection_id)
            raise

    def _arrive_reading(self, connection_id: str, named: str | None,
                        alongside: ThreadPoolExecutor, source_ip: str | None, arrived: float,
                        ) -> tuple[Binding | None, Loaded | None]:  # fmt: skip
        """The connection's binding (its message paced where every container sees it)
        and, read at the same time, the room the phone named: one round trip for both.
        The read counts only if it is the binding's room; the binding alone says which
        seat speaks, so naming another room reads it for nothing."""
        code = normalise_code(named or "")
        if not could_be_code(code):  # no room named, or none the server made: no read
            return self.admission.arrive(connection_id, source_ip, arrived), None
        arriving = alongside.submit(self.admission.arrive, connection_id, source_ip, arrived)
        loaded = None
        try:
            loaded = self.unit_of_work.load(code)
        except NoSuchRoom:
            pass  # the binding's room, if it is this one, is read again and refused there
        except Exception:
            # Only a hint: whatever its read met, the binding's room is read again (and a
            # fault of that room is met there); the count's answer is still awaited.
            self.metrics.count("RoomHintReadsFailed")
            logger.exception("reading the room a frame named failed")
        binding = arriving.result()  # RateLimited is raised here, before any write
        if binding is None or binding.room != code:
            return binding, None
        return binding, loaded

    # == the frames of a phone with no seat to act for (ARRIVALS) ===========================
    def _cover(self, connection_id: str, msg: Cover, source_ip: str | None,
               arrived: float) -> None:  # fmt: skip
        """It asks nothing, so nothing answers, and it reaches no table: it is paced in
        this container's memory alone."""
        self.admission.pace_locally(connection_id, arrived)

    def _create_room(self, connection_id: str, msg: CreateRoom, source_ip: str | None,
                     arrived: float) -> None:  # fmt: skip
        game = game_of(msg.game)
        settings = commands.chosen_settings(game, msg)
        if self.admission.arrive(connection_id, source_ip, arrived):
            raise IllegalAction("This connection is already in a room.", code="already_in_room")
        if self.admission.over(source_ip, "ROOMS", 3600, ROOMS_PER_IP_PER_HOUR):
            raise TooManyRooms(
                f"Too many rooms created from your network: at most {ROOMS_PER_IP_PER_HOUR} "
                "an hour. Join a room that is already open, or try again later.",
                params={"n": ROOMS_PER_IP_PER_HOUR},
            )
        token = new_token()
        token_hash = hash_token(token)
        for _ in range(MAX_CODE_ATTEMPTS):
            room = Room(
                code=new_code(), host=msg.name, game=msg.game, settings=settings, version=1,
                seats=[Seat(name=msg.name, token_hash=token_hash, connection=connection_id,
                            address=address_key(source_ip))],
                expires_at=int(self.clock()) + ROOM_TTL_SECONDS,
                table_key=table_screens.new_table_key(),
            )  # fmt: skip
            if self.ports.store.create(room):
                break
        else:
            raise Busy("Could not find a free room code; try again.")
        self.ports.connections.bind(connection_id, Binding(room.code, msg.name, token_hash))
        self.metrics.count("RoomsCreated")
        joined = replies.joined_message(room.code, msg.name, token)
        created = Change(direct=[(connection_id, joined)])
        self._deliver(Commit(room, created, self.unit_of_work.stamp()))

    def _arrive_new(self, connection_id: str, source_ip: str | None, arrived: float) -> None:
        """A join or a watch: paced on the connection (it must not be in a room yet) and
        counted against its address's join attempts (both tell a stranger whether a code is
        a room)."""
        if self.admission.arrive(connection_id, source_ip, arrived):
            raise IllegalAction("This connection is already in a room.", code="already_in_room")
        if self.admission.over(source_ip, "JOINS", 3600, JOIN_ATTEMPTS_PER_IP_PER_HOUR):
            raise TooManyJoins(
                f"Too many attempts to join from your network: at most "
                f"{JOIN_ATTEMPTS_PER_IP_PER_HOUR} an hour. Try again later.",
                params={"n": JOIN_ATTEMPTS_PER_IP_PER_HOUR},
            )

    def _join(self, connection_id: str, msg: Join, source_ip: str | None, arrived: float) -> None:
        self._arrive_new(connection_id, source_ip, arrived)
        token = new_token()
        token_hash = hash_token(token)
        code = normalise_code(msg.room)
        address = address_key(source_ip)

        def join(room: Room) -> Change:
            lobby.free_gone_seats(room, self.clock())  # seats gone too long make room first
            lobby.join_problem(room, msg.name, address, self.clock())
            seat = Seat(name=msg.name, token_hash=token_hash, connection=connection_id,
                        address=address, bot=msg.bot)  # fmt: skip
            room.seats.append(seat)
            joined = replies.joined_message(room.code, msg.name, token)
            return Change(direct=[(connection_id, joined)],
                          binding=Binding(room.code, seat.name, token_hash))  # fmt: skip

        # Every refusal a stranger could meet is decided on one read of the room item, the
        # same read for a code with no room as for a game under way: one answer, so a probe of
        # codes learns nothing.
        stored = self.ports.store.load(code)
        if stored is None:
            raise CannotJoin()
        gone = lobby.gone_seats(stored, self.clock())
        lobby.join_problem(stored, msg.name, address, self.clock(), gone)
        self._arrive_in(connection_id, code, join, CannotJoin)  # or the room vanished since

    def _resume(self, connection_id: str, msg: Resume, source_ip: str | None,
                arrived: float) -> None:  # fmt: skip
        """A seated phone's first frame on a new socket: the token names its
        seat, which the connection takes (the older connection, if any, is let go); then
        it is answered as a ping. A token no seat of the room holds (the seat was let go,
        the room closed) is refused in words and the socket closed: only then may the phone
        forget its seat. Each try costs a ``$connect``, which its address's limits pace."""
        if self.admission.arrive(connection_id, source_ip, arrived):
            raise IllegalAction("This connection is already in a room.", code="already_in_room")
        code = normalise_code(msg.room)
        try:
            loaded = self.unit_of_work.load(code)
        except NoSuchRoom:
            raise SeatRefused() from None
        seat = loaded.room.seat_by_token(msg.token)
        if seat is None:
            raise SeatRefused()
        binding = Binding(code, seat.name, seat.token_hash)
        self.ports.connections.bind(connection_id, binding)
        self._act_as_seat(connection_id, Ping(action="ping", rev=msg.rev), binding, loaded)

    def _take_seat(self, connection_id: str, msg: TakeSeat, source_ip: str | None,
                   arrived: float) -> None:  # fmt: skip
        """A new phone opening a seat's one-time link (domain/seat_moves.py): it takes the
        seat with a new token, answered as a join is; the phone it moved from is told why,
        then closed. Counted as a join attempt: a link's key is a secret a stranger might
        guess at, like a room's code."""
        self._arrive_new(connection_id, source_ip, arrived)

        def take(room: Room) -> Change:
            seat, token, old = seat_moves.take(room, msg.key, connection_id, self.clock())
            joined = replies.joined_message(room.code, seat.name, token)
            change = Change(direct=[(connection_id, joined)],
                            binding=Binding(room.code, seat.name, seat.token_hash))  # fmt: skip
            if old:
                moved = replies.error_message(seat_moves.SeatMoved(), None)
                change.direct.append((old, moved))
                change.released.append(old)
                change.hung_up.append(old)
            return change

        # No room: the one answer for every key that opens nothing.
        self._arrive_in(connection_id, normalise_code(msg.room), take, seat_moves.SeatLinkUsed)

    # == table screens =====================================================================
    def _watch(self, connection_id: str, msg: Watch, source_ip: str | None,
               arrived: float) -> None:  # fmt: skip
        """A table screen: the connection watches the room with no seat and no token; it is
        sent the public view now and whenever that changes (delivery._push_watchers). It
        must carry the room's table key (only the host's lobby shows it); without
        it, or with another, it is refused and no screen is let go (table_screens.py)."""
        self._arrive_new(connection_id, source_ip, arrived)
        if not msg.key:
            raise table_screens.TableKeyMissing()
        code = normalise_code(msg.room)

        def watch(room: Room) -> Change:
            # A full room lets its oldest screen go (a lost $disconnect, the TV moved to a
            # new device): it is told at once and its binding dropped.
            let_go = table_screens.admit(room, connection_id, msg.key)
            told = replies.error_message(table_screens.TableLetGo(), None)
            return Change(push_views=False, watcher=connection_id, released=let_go,
                          direct=[(screen, told) for screen in let_go],
                          binding=watcher_binding(room.code))  # fmt: skip

        # No room: the same answer as a closed room or another key.
        self._arrive_in(connection_id, code, watch, table_screens.TableKeyWrong)

    def _arrive_in(self, connection_id: str, code: str, change_room: Callable[[Room], Change],
                   no_room: Callable[[], GameError]) -> None:  # fmt: skip
        """A new phone into room ``code`` (a join, a seat link opened, a table screen):
        ``change_room`` run as a unit of work and delivered, then the connection bound as
        its change says. ``no_room``: the refusal if there is no such room, the same a
        room that is there gives, so a probe of codes or keys learns nothing."""
        try:
            change = self._run(code, change_room)
        except NoSuchRoom:
            raise no_room() from None
        assert change.binding is not None, "an arrival's change names its binding"
        self.ports.connections.bind(connection_id, change.binding)

    def _as_watcher(self, connection_id: str, command: Any, binding: Binding,
                    loaded: Loaded | None) -> None:  # fmt: skip
        """A table screen's frame: a ping is answered (with the public view if the screen
        shows another); anything else is refused: a table screen only watches."""
        if not isinstance(command, Ping):
            raise IllegalAction("A table screen only watches: it cannot act.", code="watch_only")
        loaded = loaded or self.unit_of_work.load(binding.room)
        if connection_id not in loaded.room.watchers:  # let go, or its pushes found it gone
            self.ports.connections.unbind(connection_id)
            raise table_screens.TableLetGo()
        view = replies.view_message(loaded.stamp, replies.public_view(loaded.room))
        self._send(connection_id, view if view["rev"] != command.rev else replies.PONG, loaded.room)

    # == running and delivering ==============================================================
    def _run(self, code: str, change_room: Callable[[Room], Change],
             loaded: Loaded | None = None) -> Change:  # fmt: skip
        """One unit of work on room ``code`` (``loaded``: the room as just read, if it was),
        then the delivery of what it committed."""
        return self._committed(code, change_room, loaded).change

    def _committed(self, code: str, change_room: Callable[[Room], Change],
                   loaded: Loaded | None = None) -> Commit:  # fmt: skip
        """``_run``, returning the commit as delivered (with the views it pushed)."""
        commit = self.unit_of_work.run(code, change_room, loaded)
        self._deliver(commit)
        return commit

    def _server_event(self, code: str, change_room: Callable[[Room], Change]) -> None:
        """For the server's own events (timers, disconnects, gone phones): a room that has
        vanished meanwhile is fine; any other error is a bug and is raised."""
        try:
            self._run(code, change_room)
        except NoSuchRoom:
            return

    def _deliver(self, commit: Commit) -> None:
        gone = self.delivery.deliver(commit)
        for connection_id in commit.change.released:
            self.ports.connections.unbind(connection_id)
        for connection_id in commit.change.hung_up:
            self.ports.pusher.hang_up(connection_id)
        if gone:
            self._forget(commit.room.code, gone)

    def _send(self, connection_id: str, message: dict[str, Any], room: Room | None = None,
              ) -> None:  # fmt: skip
        for gone in self.delivery.send(connection_id, message, room):
            where = self.ports.connections.lookup(gone)
            if where:
                self._forget(where.room, [gone])  # which unbinds it too
            else:
                self.ports.connections.unbind(gone)  # its item may hold its paces' dues

    def _forget(self, code: str, gone: list[str]) -> None:
        """410 on a push: those connections are gone; their seats are freed (a unit of work
        of its own, which in a game tells the other phones) and the request that found them
        never fails."""
        self.metrics.count("PushesFailed", len(gone))
        for connection_id in gone:
            self.ports.connections.unbind(connection_id)
        self._server_event(code, lambda room: connections_gone(self.context, room, gone))


#: The frames of a phone with no seat to act for yet (or none needed: a cover), each
#: answered by its method above; every other command is a seat's (handlers.SEAT_HANDLERS).
ARRIVALS: dict[type, Callable[[RoomService, str, Any, str | None, float], None]] = {
    CreateRoom: RoomService._create_room,
    Join: RoomService._join,
    Resume: RoomService._resume,
    Watch: RoomService._watch,
    TakeSeat: RoomService._take_seat,
    Cover: RoomService._cover,
}


def _answered(change: Change, shown: str | None) -> Change:
    """A reconnected phone's first command, run right after the write that seated it, whose
    delivery pushed the seat its view (``shown``: that view's rev): a ping is then answered
    only by a view that differs from it. The push already was the ping's answer (a view
    answers a ping: docs/protocol.md), so the same view is not sent again, nor a pong beside
    it (one frame fewer each time a phone comes back). Every reconnecting
    phone is treated alike, whatever its role."""
    pong = change.pong
    if shown is not None and pong is not None and pong.answer:
        change.pong = Pong(pong.connection_id, pong.name, shown, answer=False)
    return change


class Unseated(IllegalAction):
    """The connection's seat was let go (left, kicked, or another cat has its name)."""

    def __init__(self) -> None:
        super().__init__("You no longer have a seat in this room.", "§10", code="seat_lost")


class SeatRefused(Unseated):
    """A ``resume`` whose token no seat of that room holds (or no such room now): the
    phone's seat is gone, and the phone may forget it (the one answer for both, so a
    guess learns nothing of which rooms exist)."""


__all__ = ["Busy", "InvalidAction", "Ports", "Refused", "RoomService"]
