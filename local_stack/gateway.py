"""A local stand-in for API Gateway's WebSocket API, on one aiohttp port:

- ``GET /<stage>`` upgrades to a WebSocket. ``$connect`` runs first and the upgrade
  happens only if it answers 2xx (else that status, as API Gateway does); each frame
  becomes a route event (route chosen by the template's RouteSelectionExpression); the
  close becomes ``$disconnect``.
- ``POST|GET|DELETE /<stage>/@connections/<id>``: the management API the handlers'
  boto3 calls reach (410 GoneException for a connection that is closed or still in
  ``$connect``). It and every ``/local/`` path (the stack's control endpoints) answer
  only this computer (a loopback source address), 403 to anyone else: ``make dev``
  listens on every interface for the phones, and the LAN must not push to sockets or
  pause timers.
- Limits that shape real bugs: a frame over 32 KB closes with 1009; 10 minutes without
  a frame from the client, or 2 hours in all, close with 1001.
- ``/`` serves frontend/ and ``/config.json`` tells it where the WebSocket is, every
  response with the browser security headers of the template's CloudFront response
  headers policy (HSTS aside: this is plain http), the Content-Security-Policy naming
  this gateway's WebSocket origin (as the phone reached it) instead of the API's.
- A fault to inject (``throttle``): the next N client frames (pings aside) are dropped and
  answered as API Gateway answers a throttled frame.
"""

import asyncio
import base64
import ipaddress
import json
import mimetypes
import os
import re
import secrets
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from engine.games import EXTRA_GAMES_VARIABLE, GAMES, register_extra_games
from events.generate import websocket_event

from .lambdas import Invocation, LocalLambdas
from .template import FrontendHeaders, Function

FRAME_LIMIT = 32 * 1024  # API Gateway WebSocket frame size
POST_LIMIT = 128 * 1024  # management API message size
IDLE_TIMEOUT = 10 * 60
MAX_CONNECTION = 2 * 3600
GOING_AWAY = 1001
CLOSE_WAIT_SECONDS = 2  # a socket closed by the stack: how long its phone has to answer
API_ID = "local"
#: A Host header that is a host and maybe a port, nothing else: only such a one is written
#: into the Content-Security-Policy (any other would add to the policy what it likes).
HOST_HEADER = re.compile(
    r"(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?"
)
#: Browsers ignore Strict-Transport-Security over plain http (RFC 6797 §8.1), and this
#: server has no https to pin: the one header of the policy it leaves out.
HTTPS_ONLY_HEADERS = {"strict-transport-security"}


@dataclass
class LocalConnection:
    id: str
    source_ip: str
    user_agent: str
    connected_at: float = field(default_factory=time.time)
    last_active_at: float = field(default_factory=time.time)
    socket: web.WebSocketResponse | None = None  # None while $connect runs

    @property
    def open(self) -> bool:
        return self.socket is not None and not self.socket.closed


@dataclass
class GatewayStats:
    connects: int = 0
    refused: int = 0
    messages: int = 0
    posts: int = 0
    gone: int = 0
    lambda_errors: int = 0
    throttled: int = 0
    forbidden: int = 0  # management / control requests refused: not from this computer


#: The site's files worth compressing (the rest, images and the like, are already).
COMPRESSIBLE = frozenset(
    {".html", ".js", ".mjs", ".css", ".json", ".svg", ".md", ".txt", ".webmanifest"}
)


def new_connection_id() -> str:
    """Shaped like API Gateway's (16 characters ending in '='), so URL-encoding bugs
    in the management calls show up locally."""
    return base64.urlsafe_b64encode(secrets.token_bytes(11)).decode()


def is_loopback(remote: str | None) -> bool:
    """True for 127.0.0.0/8, ::1 and ::ffff:127.x (this computer); False for anything
    else, unparseable or missing (a Unix socket) included."""
    try:
        address = ipaddress.ip_address((remote or "").split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    return address.is_loopback


def _iso(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).isoformat().replace("+00:00", "Z")


class Gateway:
    def __init__(self, routes: dict[str, Function], route_selection: str, lambdas: LocalLambdas,
                 *, stage: str, frontend: Path, idle_timeout: float = IDLE_TIMEOUT,
                 max_connection: float = MAX_CONNECTION, frame_limit: int = FRAME_LIMIT,
                 clock: dict[str, float] | None = None,
                 frontend_headers: FrontendHeaders | None = None):  # fmt: skip
        if not route_selection.startswith("$request.body."):
            raise ValueError(f"unsupported RouteSelectionExpression {route_selection!r}")
        # A test's stack may host games that are not shipped: its Lambda workers register
        # them (lambda_app), and so does the gateway, once, for /config.json's list.
        register_extra_games(os.environ.get(EXTRA_GAMES_VARIABLE, ""))
        self.routes = routes
        self.selection_key = route_selection.removeprefix("$request.body.")
        self.lambdas = lambdas
        self.stage = stage
        self.frontend = frontend
        self.idle_timeout = idle_timeout
        self.max_connection = max_connection
        self.frame_limit = frame_limit
        #: A faster game clock's scale and origin for /config.json (empty: the wall clock).
        self.clock = clock or {}
        #: What CloudFront adds to every response of the site (None: no headers).
        self.frontend_headers = frontend_headers
        self.connections: dict[str, LocalConnection] = {}
        self.closing = False  # close_all has begun: no new socket is accepted
        self.stats = GatewayStats()
        #: Called with every message posted to a connection (the bot seating watches them).
        self.observers: list[Callable[[bytes], None]] = []
        self._tasks: set[asyncio.Task] = set()
        self._throttle_frames = 0  # the next frames (pings aside) to answer as throttled

    def throttle(self, frames: int) -> None:
        """Answer the next ``frames`` client frames that are not pings, from any connection,
        with API Gateway's throttle frame instead of invoking the Lambda (0 stops it).
        Real API Gateway throttles pings too; letting them through keeps a test
        deterministic (a phone's ping on connect or wake-up would take the fault instead)."""
        self._throttle_frames = max(0, frames)

    def local_only(self, request: web.Request) -> bool:
        """The management API and /local/: matched by the route's pattern and by the path
        (an unmatched /local/... answers 403 too, rather than 404)."""
        route = request.match_info.route
        patterns = (route.resource.canonical if route.resource else "", request.path)
        management = f"/{self.stage}/@connections/"
        return any(path.startswith((management, "/local/")) or path == "/local"
                   for path in patterns)  # fmt: skip

    def serves_site(self, request: web.Request) -> bool:
        """The client's pages, files and /config.json: what CloudFront serves when deployed
        (not the WebSocket API, its management API, nor /local/)."""
        stage = f"/{self.stage}"
        api = request.path == stage or request.path.startswith(stage + "/")
        return not (api or self.local_only(request))

    async def _site_headers(self, request: web.Request, response: web.StreamResponse) -> None:
        """CloudFront's response headers policy, on every response of the site (errors too)."""
        if self.frontend_headers is None or not self.serves_site(request):
            return
        origin = self.websocket_origin(request) if HOST_HEADER.fullmatch(request.host) else None
        for name, value in self.frontend_headers.for_websocket(origin).items():
            if request.secure or name.lower() not in HTTPS_ONLY_HEADERS:
                response.headers[name] = value

    @web.middleware
    async def _loopback_only(self, request: web.Request, handler) -> web.StreamResponse:
        # request.remote is the TCP peer (no X-Forwarded-For is trusted: no proxy here).
        if self.local_only(request) and not is_loopback(request.remote):
            self.stats.forbidden += 1
            return self._error(403, "ForbiddenException",
                               "Forbidden: only this computer (127.0.0.1) may use this")  # fmt: skip
        return await handler(request)

    def app(self) -> web.Application:
        app = web.Application(client_max_size=POST_LIMIT + 1, middlewares=[self._loopback_only])
        app.router.add_get(f"/{self.stage}", self.websocket)
        manage = f"/{self.stage}/@connections/{{connection_id}}"
        app.router.add_post(manage, self.post_to_connection)
        app.router.add_get(manage, self.get_connection)
        app.router.add_delete(manage, self.delete_connection)
        app.router.add_get("/config.json", self.config)
        app.router.add_get("/", self.index)
        # The table screen; deployed, the object "table" (deploy/frontend.py PAGE_ALIASES).
        app.router.add_get("/table", self.table)
        if self.frontend.is_dir():
            app.router.add_get("/{path:.+}", self.site_file)
        app.on_response_prepare.append(self._site_headers)
        app.on_shutdown.append(lambda app: self.close_all())
        return app

    # -- phones ----------------------------------------------------------------------------
    def _event(self, request: web.Request, route: str, kind: str, connection: LocalConnection,
               **extra: Any) -> dict[str, Any]:  # fmt: skip
        now = time.time()
        return websocket_event(
            route, kind, connection.id, domain=request.host, stage=self.stage, api=API_ID,
            request_id=new_connection_id(), connected_at_ms=int(connection.connected_at * 1000),
            now_ms=int(now * 1000), source_ip=connection.source_ip,
            user_agent=connection.user_agent, **extra,
        )  # fmt: skip

    async def _invoke(self, route: str, event: dict[str, Any]) -> Any:
        """The handler's result, or None if it raised (logged, like a failed invocation)."""
        function = self.routes.get(route)
        if function is None:
            return None
        invocation = await self._call_lambda(function, event)
        if invocation.error:
            self.stats.lambda_errors += 1
            return None
        return invocation.result

    async def _call_lambda(self, function: Function, event: dict[str, Any]) -> Invocation:
        """Whatever goes wrong on the way (a broken worker pool included) is a failed
        invocation, answered as API Gateway answers one, never an unanswered frame."""
        try:
            return await self.lambdas.invoke(function, event)
        except Exception as failure:
            print(f"[gateway] invoking {function.logical_id} failed: {failure!r}",
                  file=sys.stderr, flush=True)  # fmt: skip
            return Invocation(None, repr(failure), 0.0)

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        if not web.WebSocketResponse().can_prepare(request).ok:
            # Not a handshake (a plain GET): no $connect, and no connection left behind.
            return web.Response(status=400, text="Not a WebSocket handshake")
        if self.closing:
            # Stopping: a phone reconnecting at once would open a socket close_all never
            # closes (and stopping would wait for it to the end of its wait).
            return web.Response(status=503, text="The local stack is stopping")
        connection = LocalConnection(new_connection_id(), request.remote or "",
                                     request.headers.get("User-Agent", ""))  # fmt: skip
        self.connections[connection.id] = connection
        query = dict(request.query) or None
        headers = {key: value for key, value in request.headers.items()}
        status = 200
        if "$connect" in self.routes:
            result = await self._invoke("$connect", self._event(
                request, "$connect", "CONNECT", connection, query=query, headers=headers))  # fmt: skip
            status = result.get("statusCode", 200) if isinstance(result, dict) else 500
        if not 200 <= status < 300:
            self.connections.pop(connection.id, None)
            self.stats.refused += 1
            return web.Response(status=status)
        # A close waits at most CLOSE_WAIT_SECONDS for the phone's answer: a frozen or dead
        # page never answers, and Ctrl-C must not wait aiohttp's default 10 s per socket.
        socket = web.WebSocketResponse(max_msg_size=self.frame_limit, autoping=True,
                                       timeout=CLOSE_WAIT_SECONDS)  # fmt: skip
        try:
            await socket.prepare(request)
        except ConnectionResetError:  # the phone gave up while $connect ran
            self.connections.pop(connection.id, None)
            await self._invoke("$disconnect", self._event(request, "$disconnect", "DISCONNECT",
                                                          connection))  # fmt: skip
            return socket
        connection.socket = socket
        self.stats.connects += 1
        watchdog = asyncio.create_task(self._watch(connection))
        try:
            async for frame in socket:
                if frame.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                    connection.last_active_at = time.time()
                    self._spawn(self._on_frame(request, connection, frame.data))
                elif frame.type == WSMsgType.ERROR:
                    break
        finally:
            watchdog.cancel()
            try:  # posts to this connection answer 410 from now on (it is not open)
                await self._invoke("$disconnect", self._event(
                    request, "$disconnect", "DISCONNECT", connection,
                    context={"disconnectStatusCode": socket.close_code or 1006,
                             "disconnectReason": ""}))  # fmt: skip
            finally:
                self.connections.pop(connection.id, None)
        return socket

    def _spawn(self, coroutine) -> None:
        task = asyncio.create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _on_frame(self, request: web.Request, connection: LocalConnection,
                        data: str | bytes) -> None:  # fmt: skip
        self.stats.messages += 1
        if isinstance(data, bytes):
            try:
                data = data.decode()
            except UnicodeDecodeError:
                data = base64.b64encode(data).decode()
        route = self._select_route(data)
        event = self._event(request, route, "MESSAGE", connection, body=data)
        if self._throttle_frames and not self._is_ping(data):
            # API Gateway drops a throttled frame and tells the phone only this (no `type`).
            self._throttle_frames -= 1
            self.stats.throttled += 1
            await self._send(connection, {"message": "Too Many Requests",
                                          "connectionId": connection.id,
                                          "requestId": event["requestContext"]["requestId"]})  # fmt: skip
            return
        if route not in self.routes:
            await self._send(connection, {"message": "Forbidden", "connectionId": connection.id,
                                          "requestId": event["requestContext"]["requestId"]})  # fmt: skip
            return
        invocation = await self._call_lambda(self.routes[route], event)
        if invocation.error:
            # What API Gateway tells the phone when the integration fails.
            self.stats.lambda_errors += 1
            await self._send(connection, {"message": "Internal server error",
                                          "connectionId": connection.id,
                                          "requestId": event["requestContext"]["requestId"]})  # fmt: skip

    @staticmethod
    def _is_ping(body: str) -> bool:
        try:
            return json.loads(body).get("action") == "ping"
        except (ValueError, AttributeError, RecursionError):
            return False

    def _select_route(self, body: str) -> str:
        """The frame's route: its selection key's value if that names a route, else
        ``$default``, where a frame that cannot be read goes too (not JSON, not an
        object, or nested past the parser's depth: about 1,000 brackets exhaust
        Python's), so its handler answers it."""
        try:
            value = json.loads(body).get(self.selection_key)
        except (ValueError, AttributeError, RecursionError):
            return "$default"
        return value if isinstance(value, str) and value in self.routes else "$default"

    async def _send(self, connection: LocalConnection, message: dict[str, Any]) -> None:
        if connection.open:
            await connection.socket.send_str(json.dumps(message))

    async def _watch(self, connection: LocalConnection) -> None:
        """API Gateway's idle (client frames only reset it) and lifetime limits."""
        while connection.open:
            now = time.time()
            idle_end = connection.last_active_at + self.idle_timeout
            life_end = connection.connected_at + self.max_connection
            if now >= min(idle_end, life_end):
                await connection.socket.close(code=GOING_AWAY, message=b"Going away")
                return
            await asyncio.sleep(min(idle_end, life_end) - now + 0.01)

    async def close_all(self, wait: float = 10) -> None:
        """Close every socket (1001) and wait for their $disconnect handlers, which post
        to the others through this gateway, so it must still be listening."""
        self.closing = True
        # All at once: one after another, each waiting for its phone's answer, a table of
        # phones (or a frozen one) kept Ctrl-C waiting past the test harness's 30 s.
        await asyncio.gather(*(
            connection.socket.close(code=GOING_AWAY, message=b"Server shutting down")
            for connection in list(self.connections.values()) if connection.open
        ), return_exceptions=True)  # fmt: skip
        deadline = time.monotonic() + wait
        while self.connections and time.monotonic() < deadline:
            await asyncio.sleep(0.05)

    # -- the management API ----------------------------------------------------------------
    def _target(self, request: web.Request) -> LocalConnection | None:
        connection = self.connections.get(request.match_info["connection_id"])
        return connection if connection and connection.open else None

    @staticmethod
    def _error(status: int, code: str, message: str | None = None) -> web.Response:
        return web.json_response({"message": message}, status=status,
                                 headers={"x-amzn-ErrorType": code})  # fmt: skip

    async def post_to_connection(self, request: web.Request) -> web.Response:
        data = await request.read()
        if len(data) > POST_LIMIT:
            return self._error(413, "PayloadTooLargeException", "Message too long")
        connection = self._target(request)
        if connection is None:
            self.stats.gone += 1
            return self._error(410, "GoneException")
        self.stats.posts += 1
        for observer in self.observers:
            observer(data)
        try:
            await connection.socket.send_str(data.decode())
        except UnicodeDecodeError:
            await connection.socket.send_bytes(data)
        except ConnectionResetError:
            self.stats.gone += 1
            return self._error(410, "GoneException")
        return web.Response(status=200)

    async def get_connection(self, request: web.Request) -> web.Response:
        connection = self._target(request)
        if connection is None:
            return self._error(410, "GoneException")
        return web.json_response({
            "connectedAt": _iso(connection.connected_at),
            "lastActiveAt": _iso(connection.last_active_at),
            "identity": {"sourceIp": connection.source_ip, "userAgent": connection.user_agent},
        })  # fmt: skip

    async def delete_connection(self, request: web.Request) -> web.Response:
        connection = self._target(request)
        if connection is None:
            return self._error(410, "GoneException")
        await connection.socket.close(code=WSCloseCode.OK)
        return web.Response(status=204)

    # -- the phone client ------------------------------------------------------------------
    @staticmethod
    def websocket_origin(request: web.Request) -> str:
        """This gateway's WebSocket origin as the phone reached it (the host it asked for)."""
        return f"{'wss' if request.secure else 'ws'}://{request.host}"

    async def config(self, request: web.Request) -> web.Response:
        url = f"{self.websocket_origin(request)}/{self.stage}"
        # The games this stack hosts, for the create form (with a test's extra games).
        return web.json_response({"websocket_url": url, "games": list(GAMES), **self.clock})

    async def index(self, request: web.Request) -> web.StreamResponse:
        return self._page("index.html")

    async def table(self, request: web.Request) -> web.StreamResponse:
        """The table screen at ``/table``, as the deployed site serves it."""
        return self._page("table.html")

    def _page(self, name: str) -> web.StreamResponse:
        page = self.frontend / name
        if page.is_file():
            return self._file(page)
        return web.Response(text=f"The local stack is running; frontend/{name} is missing.")

    async def site_file(self, request: web.Request) -> web.StreamResponse:
        """A file of frontend/ (none outside it: ``..`` and links out are not found)."""
        root = self.frontend.resolve()
        path = (root / request.match_info["path"]).resolve()
        if not (path.is_relative_to(root) and path.is_file()):
            raise web.HTTPNotFound()
        return self._file(path)

    @staticmethod
    def _file(path: Path) -> web.StreamResponse:
        """A site file, compressed when the phone accepts it (a phone's first view on a slow
        network is quicker; CloudFront compresses the deployed site alike, template.yaml's
        ``Compress``). Text only: images, fonts and videos are compressed already; those are
        served with byte ranges, as S3 serves them, since Safari plays no video from a
        server without them (js/awake.js's on `make dev`)."""
        if path.suffix not in COMPRESSIBLE:
            return web.FileResponse(path)
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        response = web.Response(body=path.read_bytes(), content_type=kind, charset="utf-8")
        response.enable_compression()  # gzip or deflate, as Accept-Encoding allows
        return response
