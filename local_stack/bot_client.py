"""A phone played by the engine's bot, over a real WebSocket, speaking docs/protocol.md.

It decides from the views it is sent (its game's `bot_move`, engine/games.py), keeps its
seat token like a phone's localStorage, reconnects with it, and pings under the idle
limit. `make dev ARGS="--bots 5"` seats such bots in the room a person creates; the
local-stack tests drive whole tables of them.
"""

import asyncio
import contextlib
import json
import random
import secrets
import time
from collections.abc import Callable
from typing import Any

import aiohttp

from engine.games import game_of
from engine.rng import KEY_BITS, Rng
from functions.room_service.service.commands import ROOMLESS_ACTIONS

BOT_NAMES = ["Mochi", "Tofu", "Biscuit", "Pumpkin", "Luna", "Miso", "Pepper", "Nori",
             "Sesame", "Ginger", "Olive", "Clover"]  # fmt: skip
HEARTBEAT_SECONDS = 300  # under API Gateway's 10-minute idle limit, as a phone does
#: Refusals that say "too fast, nothing changed" (docs/protocol.md): the move is made again
#: after PACED_RETRY_SECONDS rather than waiting for a view that may never come.
PACED_REFUSALS = frozenset({"rate_limited", "too_many_moves", "busy"})
PACED_RETRY_SECONDS = 1.0


class BotClient:
    def __init__(self, url: str, name: str, *, seed: int | None = None,
                 think: tuple[float, float] = (0.0, 0.0), heartbeat: float = HEARTBEAT_SECONDS,
                 source: str | None = None, origin: str | None = None):  # fmt: skip
        self.url = url
        #: The local address the socket comes from (e.g. 127.0.0.7: another venue, as the
        #: per-address limits see it); None: the system's choice.
        self.source = source
        #: The handshake's Origin header, as a browser on that site sends it (a deployed
        #: stack refuses other sites' origins at $connect); None: no Origin, as a native app.
        self.origin = origin
        self.name = name
        # A bot's choices are secrets of its seat too: keyed from the CSPRNG (engine/rng.py).
        self.rng = Rng(seed if seed is not None else secrets.randbits(KEY_BITS))
        self.think = think
        self.heartbeat = heartbeat
        self.room: str | None = None
        self.token: str | None = None
        self.view: dict[str, Any] | None = None  # the newest view message's "view"
        self.seq = -1
        self.rev: str | None = None  # the newest view's rev (see ping)
        self.errors: list[dict[str, Any]] = []
        self.received: list[dict[str, Any]] = []
        self.sent: list[dict[str, Any]] = []
        #: (time.monotonic(), "sent" | "view" | "error", message): what came first.
        self.timeline: list[tuple[float, str, dict[str, Any]]] = []
        self.playing = True  # see hold()
        #: While this says so for the current game view, the cat makes no move.
        self.hold_when: Callable[[dict[str, Any]], bool] | None = None
        self._socket: aiohttp.ClientWebSocketResponse | None = None
        self._session: aiohttp.ClientSession | None = None
        self._reader: asyncio.Task | None = None
        self._beat: asyncio.Task | None = None
        self._changed = asyncio.Condition()
        self._acted_on: tuple[int, str] | None = None
        self._last_move: tuple | None = None  # (step, move type) of the last move sent
        self._waking: asyncio.Future | None = None

    # -- connection ------------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        return self._socket is not None and not self._socket.closed

    async def connect(self) -> None:
        """Open the socket and, as a phone does right after it opens, name the seat
        (``resume`` with its token, once the bot has one) or ping: either brings the
        current view."""
        connector = aiohttp.TCPConnector(local_addr=(self.source, 0)) if self.source else None
        self._session = self._session or aiohttp.ClientSession(connector=connector)
        self._socket = await self._session.ws_connect(self.url, autoping=True, origin=self.origin)
        # A move sent as the old socket closed may be lost, and the view may be the same
        # after the reconnect: decide again from it (a repeat that did land is taken once).
        self._last_move = self._acted_on = None
        self._reader = asyncio.create_task(self._read(self._socket))
        self._beat = asyncio.create_task(self._heartbeat(self._socket))
        answered = len(self.received)
        await self.send(self.resume_frame() if self.token else self.ping())
        # Its answer first: that frame is then judged before the next one. Two Lambda workers
        # may take two frames in either order, and a frame is paced by when it was sent; at
        # 10x on a loaded machine a ping judged after a later create_room was refused as too
        # fast, which a bot waiting for its room took as the answer (a CI run's failure).
        with contextlib.suppress(TimeoutError):
            await self.wait_for(lambda bot: len(bot.received) > answered or not bot.connected, 10)

    async def disconnect(self) -> None:
        if self._beat is not None:
            self._beat.cancel()
        if self._socket is not None:
            await self._socket.close()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader

    async def close(self) -> None:
        await self.disconnect()
        if self._session is not None:
            await self._session.close()

    async def send(self, message: dict[str, Any]) -> None:
        message = self._framed(message)
        self.sent.append(message)
        self.timeline.append((time.monotonic(), "sent", message))
        try:
            await self._socket.send_str(json.dumps(message))
        except (aiohttp.ClientError, ConnectionError):
            # The socket dropped under us (a crashed server, a network change): as a
            # phone, the move is lost; live() reconnects and decides again from the view.
            await self._socket.close()

    async def move(self, action: str, **fields: Any) -> None:
        """A game move made on the view this bot shows: it names that view's step."""
        await self.send({"action": action, **fields, "step": self.game()["step"]})

    def _framed(self, message: dict[str, Any]) -> dict[str, Any]:
        """``message`` as a seated phone frames it: naming its room, so the service reads it
        with the connection."""
        if self.room and message["action"] not in ROOMLESS_ACTIONS:
            return {**message, "room": self.room}
        return message

    def resume_frame(self) -> dict[str, Any]:
        """A new socket's first frame for a seat (docs/protocol.md): its token in a frame."""
        message = {"action": "resume", "room": self.room, "token": self.token}
        return {**message, "rev": self.rev} if self.rev else message

    def ping(self) -> dict[str, Any]:
        """A ping naming the view this bot shows (the view comes back only if it changed)."""
        return {"action": "ping", "rev": self.rev} if self.rev else {"action": "ping"}

    async def _heartbeat(self, socket) -> None:
        last = time.monotonic()
        while not socket.closed:
            # Short ticks, so a heartbeat shortened while the bot plays counts at once (a
            # test that stops the timers relies on pings to resolve a passed deadline).
            await asyncio.sleep(min(1.0, self.heartbeat))
            if time.monotonic() - last >= self.heartbeat and not socket.closed:
                last = time.monotonic()
                with contextlib.suppress(aiohttp.ClientError, ConnectionError):
                    await socket.send_str(json.dumps(self._framed(self.ping())))

    async def _read(self, socket) -> None:
        try:
            await self._read_frames(socket)
        finally:
            async with self._changed:
                self._changed.notify_all()  # a waiter learns the socket closed

    async def _read_frames(self, socket) -> None:
        async for frame in socket:
            if frame.type != aiohttp.WSMsgType.TEXT:
                continue
            message = json.loads(frame.data)
            self.received.append(message)
            kind = message.get("type")
            if kind == "joined":
                self.room, self.token = message["room"], message["token"]
            elif kind == "view" and message["seq"] >= self.seq:
                self.seq, self.rev, self.view = message["seq"], message["rev"], message["view"]
                self.timeline.append((time.monotonic(), "view", message["view"]))
            elif kind == "error":
                self.errors.append(message)
                self.timeline.append((time.monotonic(), "error", message))
                self._last_move = None  # refused: nothing changed, think again
                if message.get("code") in PACED_REFUSALS:
                    # Sent too fast (its pace or its address's): like a person tapping again
                    # a moment later, the same view is reconsidered once the pace allows.
                    asyncio.get_running_loop().call_later(PACED_RETRY_SECONDS, self._reconsider)
            async with self._changed:
                self._changed.notify_all()

    def _reconsider(self) -> None:
        self._acted_on = None
        self._waking = asyncio.ensure_future(self._wake())  # kept: a task nobody holds may vanish

    async def _wake(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_for(self, predicate: Callable[["BotClient"], bool], timeout: float) -> None:
        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(lambda: predicate(self)), timeout)

    # -- room ------------------------------------------------------------------------------
    async def create_room(self, settings: dict[str, Any] | None = None,
                          game: str | None = None) -> str:  # fmt: skip
        """A room of ``game`` (None: the server's default game) with ``settings``: its code."""
        message = {"action": "create_room", "name": self.name, "settings": settings or {}}
        await self.send({**message, "game": game} if game else message)
        await self.wait_for(lambda bot: bot.room is not None or bot.errors, 10)
        return self._room_or_raise()

    async def join(self, room: str) -> str:
        await self.send({"action": "join", "room": room, "name": self.name, "bot": True})
        await self.wait_for(lambda bot: bot.room is not None or bot.errors, 10)
        return self._room_or_raise()

    def _room_or_raise(self) -> str:
        if self.room is None:
            raise RuntimeError(f"{self.name}: {self.errors[-1]['message']}")
        return self.room

    # -- playing ---------------------------------------------------------------------------
    def game(self) -> dict[str, Any] | None:
        """The engine view inside the newest view; in the lobby, the result of the game this
        seat played there last (a finished game returns its room to the lobby, which keeps
        the result: ``last_result``), or None."""
        if self.view and self.view.get("phase") == "lobby":
            return self.view.get("last_result")
        return self.view

    async def play(self) -> None:
        """Make this cat's moves until the game ends (or the task is cancelled)."""
        while True:
            await self.wait_for(lambda bot: bot._has_new_view(), timeout=None)
            game = self.game()
            if game is not None and _is_over(game):
                return
            await self._act()

    async def live(self) -> None:
        """A bot at a person's table: plays every game (rematches too), reconnects with its
        token when the socket drops, leaves when kicked or when its room is gone."""
        while True:
            if not self.connected:
                try:
                    await self.connect()
                except aiohttp.WSServerHandshakeError:
                    return  # 403: the room or seat no longer exists
                except aiohttp.ClientError:
                    await asyncio.sleep(2)
                    continue
            await self.wait_for(lambda bot: bot._has_new_view() or not bot.connected
                                or bot._kicked(), timeout=None)  # fmt: skip
            if self._kicked():
                await self.close()
                return
            game = self.game()
            if game is not None and _is_over(game):
                self._acted_on = (self.seq, json.dumps(game, sort_keys=True))  # await a rematch
            elif self.connected:
                await self._act()

    def _kicked(self) -> bool:
        return any(error.get("code") == "kicked" for error in self.errors)

    def hold(self) -> None:
        """Stay connected but make no move (a phone left on the table)."""
        self.playing = False

    async def resume(self) -> None:
        self.playing = True
        self.hold_when = None
        self._acted_on = None
        async with self._changed:
            self._changed.notify_all()

    def _has_new_view(self) -> bool:
        game = self.game()
        return game is not None and (self.seq, json.dumps(game, sort_keys=True)) != self._acted_on

    async def _act(self) -> None:
        game = self.game()
        self._acted_on = (self.seq, json.dumps(game, sort_keys=True))
        if not self.playing or not self.connected or (self.hold_when and self.hold_when(game)):
            return
        rules = game_of(game["game"])
        action = rules.bot_move(game, self.rng)
        if action is None:
            return
        step = game["step"]  # every game's views number their steps (engine/game.py)
        kind = rules.same_choice_moves.get(action["type"], action["type"])
        if self._last_move == (step, kind):
            # The same kind of move again in the same step: this view was built before the
            # server took our last one (another cat's move was pushed first). Like a
            # phone's "sent…" button, wait for a view that has it.
            return
        if self.think[1] > 0:
            await asyncio.sleep(random.uniform(*self.think))
            if self.game() is not game:  # the table moved on while this cat was thinking
                self._acted_on = None
                return
        self._last_move = (step, kind)
        await self.send({"action": action.pop("type"), **action, "step": game["step"]})


def _is_over(game: dict[str, Any]) -> bool:
    return game_of(game["game"]).view_is_over(game)
