"""The whole local stack in one process tree: store (moto or given endpoints), Lambda
workers, the WebSocket gateway with the static client, the SQS pollers and, on request,
bots that fill the rooms people create."""

import asyncio
import contextlib
import itertools
import json
import os
import socket
import sys
import time
import traceback
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web

from functions.room_service.adapters.clock import TIME_ORIGIN_VARIABLE, TIME_SCALE_VARIABLE
from functions.room_service.entrypoints.lambda_app import ALLOWED_ORIGINS_VARIABLE

from .bot_client import BOT_NAMES, BotClient
from .cloud import REGION, EmbeddedAws, Provisioned, provision
from .gateway import IDLE_TIMEOUT, MAX_CONNECTION, Gateway
from .lambdas import LocalLambdas
from .poller import QueuePoller
from .template import Template

ROOT = Path(__file__).resolve().parent.parent
POLLER_RESTART_DELAY = 1.0  # seconds: a poller that keeps failing does not spin
#: Where the stack's bots connect from: each bot an address of its own in 127.1.0.0/16, a
#: phone of its own as the per-address limits see it. Bots play on in rooms a person left
#: (a tester dealing again until she is a witch leaves four bots behind each time); from
#: her own address, their bunched moves spent its busy pace and one of her moves was
#: refused. A system that configures 127.0.0.1 alone (macOS) cannot bind these: its bots
#: share the person's address, as before.
BOT_ADDRESS_PREFIX = "127.1"
#: How long stopping waits for the bots' sockets to close (each waits for its $disconnect).
BOTS_CLOSE_SECONDS = 5.0
#: A step of stopping slower than this is reported.
SLOW_STOP_SECONDS = 2.0


@dataclass
class Options:
    host: str = "0.0.0.0"
    port: int = 8080
    bots: int = 0
    think: tuple[float, float] = (0.4, 1.2)  # bots' seconds before each move
    workers: int = 4
    idle_timeout: float = IDLE_TIMEOUT
    max_connection: float = MAX_CONNECTION
    dynamodb_url: str | None = None
    sqs_url: str | None = None
    verbose: bool = False
    #: The handlers' log level (None: INFO with ``verbose``, else WARNING).
    log_level: str | None = None
    frontend: Path = ROOT / "frontend"
    #: Game time runs this many times faster than the wall clock (functions/room_service/
    #: adapters/clock.py): every deadline, timer and countdown N times shorter.
    time_scale: float = 1.0
    #: The wall-clock instant at which game time equals wall time (default: the start). A
    #: stack restarted over the same store mid-game passes its first run's, or game time
    #: would jump back and every stored deadline with it.
    time_origin: float | None = None


def _given_endpoint(service: str) -> str | None:
    return os.environ.get(f"AWS_ENDPOINT_URL_{service}") or os.environ.get("AWS_ENDPOINT_URL")


class LocalStack:
    def __init__(self, options: Options, template: Template | None = None):
        self.options = options
        self.template = template or Template.load()
        self.stage = self.template.parameter_default("Stage")
        self.moto: EmbeddedAws | None = None
        self.provisioned: Provisioned | None = None
        self.pollers: list[QueuePoller] = []
        self.lambdas = LocalLambdas(options.workers)
        self.gateway: Gateway | None = None
        self.port: int | None = None
        self.dynamodb_url: str | None = None
        self.sqs_url: str | None = None
        self._runner: web.AppRunner | None = None
        self._tasks: list[asyncio.Task] = []
        self._poller_tasks: dict[QueuePoller, asyncio.Task] = {}
        self._stopping = False
        self._bots: list[BotClient] = []
        self._rooms_with_bots: set[str] = set()
        self._bot_addresses = bot_addresses(_loopback(options.host))
        self.time_origin = options.time_origin or time.time()

    # -- start / stop ----------------------------------------------------------------------
    async def start(self) -> None:
        dynamodb_url = self.options.dynamodb_url or _given_endpoint("DYNAMODB")
        sqs_url = self.options.sqs_url or _given_endpoint("SQS")
        if not (dynamodb_url and sqs_url):
            self.moto = EmbeddedAws().start()
            dynamodb_url = dynamodb_url or self.moto.url
            sqs_url = sqs_url or self.moto.url
        self.dynamodb_url, self.sqs_url = dynamodb_url, sqs_url
        _credentials_for_local_endpoints()
        self.provisioned = await asyncio.to_thread(provision, self.template, dynamodb_url, sqs_url)

        frontend_headers = self.template.frontend_headers()
        if frontend_headers is None:
            print("[gateway] template.yaml's distribution names no response headers policy: "
                  "the client is served without its security headers", file=sys.stderr,
                  flush=True)  # fmt: skip
        self.gateway = Gateway(
            self.template.routes(), self.template.route_selection_expression(), self.lambdas,
            stage=self.stage, frontend=self.options.frontend,
            idle_timeout=self.options.idle_timeout, max_connection=self.options.max_connection,
            clock=self.clock_config(), frontend_headers=frontend_headers,
        )  # fmt: skip
        app = self.gateway.app()
        app.router.add_get("/local/stats", self.stats)
        app.router.add_post("/local/timers/{state:pause|resume}", self.timers_control)
        app.router.add_post("/local/faults/throttle", self.throttle_control)
        self.gateway.observers.append(self._on_post)
        # shutdown_timeout: requests still running when the stack stops are cancelled after
        # 2 s (aiohttp waits 60 by default), so Ctrl-C stops everything promptly.
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None,
                                     shutdown_timeout=2.0)  # fmt: skip
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.options.host, self.options.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        if not _reaches_loopback(self.options.host):
            # Listening on one LAN address only: the handlers' management calls and the
            # control endpoints, which answer only 127.0.0.1, need a loopback listener too.
            await web.TCPSite(self._runner, "127.0.0.1", self.port).start()

        # The handlers' environment: the template's variables, resolved to local resources
        # (set before the Lambda workers start, which inherit it).
        for name in (TIME_SCALE_VARIABLE, TIME_ORIGIN_VARIABLE):  # an earlier stack's
            os.environ.pop(name, None)
        os.environ.update(self.environment(dynamodb_url, sqs_url))
        await self.lambdas.warm(list(self.template.routes().values())
                                + [s.function for s in self.template.queue_sources()])  # fmt: skip
        for source in self.template.queue_sources():
            poller = QueuePoller(source, self.provisioned.queue_urls[source.queue],
                                 self.provisioned.queue_arns[source.queue], sqs_url, self.lambdas)  # fmt: skip
            self.pollers.append(poller)
            self._run_poller(poller)

    def _run_poller(self, poller: QueuePoller) -> None:
        """Lambda's event source mapping does not die with an error: neither does this. A
        poller task that ends (an exception, a cancel) before stop() is reported on stderr
        and in /local/stats, then started again a second later."""
        if self._stopping:
            return
        task = asyncio.create_task(poller.run(), name=f"poller {poller.source.queue}")
        self._poller_tasks[poller] = task
        task.add_done_callback(lambda task: self._poller_ended(poller, task))

    def _poller_ended(self, poller: QueuePoller, task: asyncio.Task) -> None:
        if self._stopping:
            return
        if task.cancelled():
            reason = "it was cancelled"
        elif task.exception() is not None:
            error = task.exception()
            reason = "".join(traceback.format_exception(error)).rstrip()
        else:
            reason = "it returned"
        poller.restarts += 1
        poller.last_error = reason.splitlines()[-1]
        print(f"[timers] the {poller.source.queue} poller stopped ({reason}); restarting it "
              f"in {POLLER_RESTART_DELAY:g} s (restart {poller.restarts})", file=sys.stderr,
              flush=True)  # fmt: skip
        asyncio.get_running_loop().call_later(POLLER_RESTART_DELAY, self._run_poller, poller)

    async def stop(self) -> None:
        self._stopping = True
        for poller in self.pollers:
            poller.stop()
        for task in [*self._poller_tasks.values(), *self._tasks]:
            # bots first stop playing (and reconnecting), then leave
            task.cancel()
        for task in [*self._poller_tasks.values(), *self._tasks]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        # Side by side: each close waits for its $disconnect, and a long `make dev` (or a
        # test module's stack) has seated dozens of bots. At most BOTS_CLOSE_SECONDS: on a
        # busy machine their $disconnects queue for the workers; the gateway closes the
        # rest below, with its own bound.
        started = time.monotonic()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(bot.close() for bot in self._bots),
                                                  return_exceptions=True), BOTS_CLOSE_SECONDS)  # fmt: skip
        started = _slow_stop_step("the bots' sockets", started)
        if self.gateway is not None:
            await self.gateway.close_all()
            started = _slow_stop_step("the phones' sockets", started)
        if self._runner is not None:
            await self._runner.cleanup()
        await asyncio.to_thread(self.lambdas.close)
        _slow_stop_step("the Lambda workers", started)
        if self.moto is not None:
            self.moto.stop()

    # -- wiring ----------------------------------------------------------------------------
    @property
    def websocket_url(self) -> str:
        return f"ws://{_loopback(self.options.host)}:{self.port}/{self.stage}"

    @property
    def management_endpoint(self) -> str:
        """Always on 127.0.0.1: the management API answers only this computer."""
        return f"http://127.0.0.1:{self.port}/{self.stage}"

    def environment(self, dynamodb_url: str, sqs_url: str) -> dict[str, str]:
        env = {
            "AWS_DEFAULT_REGION": REGION,
            "AWS_ENDPOINT_URL_DYNAMODB": dynamodb_url,
            "AWS_ENDPOINT_URL_SQS": sqs_url,
            "POWERTOOLS_METRICS_DISABLED": "false" if self.options.verbose else "true",
        }
        for name, value in self.template.environment().items():
            if name != ALLOWED_ORIGINS_VARIABLE:  # the CloudFront site's: here, this stack's
                env[name] = self._resolve(value)
        env[ALLOWED_ORIGINS_VARIABLE] = " ".join(self.site_origins())
        env["POWERTOOLS_LOG_LEVEL"] = self.options.log_level or (
            "INFO" if self.options.verbose else "WARNING"
        )
        if self.options.time_scale != 1:
            env[TIME_SCALE_VARIABLE] = repr(self.options.time_scale)
            env[TIME_ORIGIN_VARIABLE] = repr(self.time_origin)
        return env

    def site_origins(self) -> list[str]:
        """The origins phones load the client from, which alone may open a WebSocket here
        ($connect's ALLOWED_ORIGINS): this computer by its loopback names, and the address
        phones use: ``--host`` if it names one, else (every interface) the LAN address the
        banner prints. A phone that reached this computer by another name or address is
        refused (403): open the printed URL."""
        hosts = ["127.0.0.1", "localhost", "[::1]"]
        if self.options.host in WILDCARD_HOSTS:
            lan = lan_address()
            hosts += [lan] if lan else []
        else:
            host = self.options.host
            hosts.append(f"[{host}]" if ":" in host else host)
        return [f"http://{host}:{self.port}" for host in dict.fromkeys(hosts)]

    def clock_config(self) -> dict[str, float]:
        """What the phones need in /config.json to count down on the handlers' clock:
        nothing at 1× (the wall clock, as deployed)."""
        if self.options.time_scale == 1:
            return {}
        return {"time_scale": self.options.time_scale, "time_origin": self.time_origin}

    def _resolve(self, value: Any) -> str:
        if isinstance(value, str):
            return value
        if "Ref" in value:
            name = value["Ref"]
            if name in self.template.parameters:
                return str(self.template.parameter_default(name))
            return self.provisioned.ref(name)
        if "Fn::Sub" in value and "${WebSocketApi}" in value["Fn::Sub"]:
            return self.management_endpoint  # the API's own URL: here, this gateway
        raise ValueError(f"template.yaml: the local stack cannot resolve {value!r}")

    async def timers_control(self, request: web.Request) -> web.Response:
        """Fault tests (and curious operators): stop or restart delivering timers, as if
        the SQS event source were down. Messages wait in the queue meanwhile."""
        pause = request.match_info["state"] == "pause"
        for poller in self.pollers:
            if pause:
                await poller.pause()
            else:
                poller.resume()
        return web.json_response({"timers": request.match_info["state"]})

    async def throttle_control(self, request: web.Request) -> web.Response:
        """Fault tests: ``?frames=N`` (default 1) answers the next N client frames that are
        not pings as API Gateway answers a throttled frame, and drops them (0 cancels)."""
        try:
            frames = int(request.query.get("frames", "1"))
        except ValueError:
            return web.json_response({"error": "frames must be a whole number"}, status=400)
        self.gateway.throttle(frames)
        return web.json_response({"throttle": {"frames": max(0, frames)}})

    async def stats(self, request: web.Request) -> web.Response:
        """What an operator (or a test) wants to know about the local stack."""
        return web.json_response({
            "gateway": vars(self.gateway.stats),
            "open_connections": sum(c.open for c in self.gateway.connections.values()),
            # Per source address: the per-address limits' view (the bots have their own).
            "open_by_address": Counter(c.source_ip for c in self.gateway.connections.values()
                                       if c.open),
            "timers": {"delivered": sum(p.delivered for p in self.pollers),
                       "failed": sum(p.failed for p in self.pollers),
                       "pollers": [self._poller_stats(p) for p in self.pollers]},
            "lambda": self.lambdas.stats(),
            "bots": len(self._bots),
        })  # fmt: skip

    def _poller_stats(self, poller: QueuePoller) -> dict[str, Any]:
        task = self._poller_tasks.get(poller)
        return {"queue": poller.source.queue, "running": bool(task and not task.done()),
                "paused": poller.paused, "restarts": poller.restarts,
                "last_error": poller.last_error}  # fmt: skip

    # -- bots for a person playing alone ---------------------------------------------------
    def _on_post(self, data: bytes) -> None:
        """The first `joined` of a room is its creator's: seat the bots there."""
        if not self.options.bots or b'"joined"' not in data:
            return
        with contextlib.suppress(ValueError):
            message = json.loads(data)
            room = message.get("room")
            if message.get("type") == "joined" and room and room not in self._rooms_with_bots:
                self._rooms_with_bots.add(room)
                self._tasks.append(asyncio.create_task(self._seat_bots(room, message["name"])))

    async def _seat_bots(self, room: str, host: str) -> None:
        names = [name for name in BOT_NAMES if name != host][: min(self.options.bots, 11)]
        bots = [BotClient(self.websocket_url, name, think=self.options.think,
                          source=next(self._bot_addresses)) for name in names]  # fmt: skip
        # Their sockets at once (each waits for its first frame's answer), then the joins
        # one by one, in the bots' order: seats are taken in the order joined.
        await asyncio.gather(*(bot.connect() for bot in bots))
        for bot in bots:
            try:
                await bot.join(room)
            except RuntimeError as refused:  # a name taken, the room full or started
                print(f"[bots] {refused}", flush=True)
                await bot.close()
                continue
            self._bots.append(bot)
            self._tasks.append(asyncio.create_task(bot.live()))


#: --host values that listen on every interface (of IPv4, or of IPv6 for "::").
WILDCARD_HOSTS = ("0.0.0.0", "", "::")


def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


def _slow_stop_step(what: str, started: float) -> float:
    """Says how long a step of stopping took when it was slow (a Ctrl-C that hangs says
    where); the time it ended."""
    now = time.monotonic()
    if now - started > SLOW_STOP_SECONDS:
        print(f"[stop] closing {what} took {now - started:.1f} s", flush=True)
    return now


def bot_addresses(server: str) -> Iterator[str | None]:
    """Each bot's source address in turn: 127.1.0.1, 127.1.0.2, ... (wrapping after 65,024
    bots) where a socket can bind them and reach ``server``; else the system's choice."""
    if not (server.startswith("127.") and _binds(f"{BOT_ADDRESS_PREFIX}.0.1")):
        return itertools.repeat(None)
    return (f"{BOT_ADDRESS_PREFIX}.{high}.{low}"
            for high, low in itertools.cycle(itertools.product(range(256), range(1, 255))))  # fmt: skip


def _binds(address: str) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((address, 0))
        except OSError:
            return False
    return True


def _loopback(host: str) -> str:
    return "127.0.0.1" if host in WILDCARD_HOSTS else host


def _reaches_loopback(host: str | None) -> bool:
    """Whether listening on ``host`` also listens on 127.0.0.1 (another 127.x address
    does not: it is a different address; nor does "::", which asyncio binds IPv6-only)."""
    return host in (None, "", "0.0.0.0", "localhost", "127.0.0.1")


def _credentials_for_local_endpoints() -> None:
    """boto3 signs every request; local endpoints accept any key."""
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "local")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "local")
    os.environ.setdefault("AWS_DEFAULT_REGION", REGION)
