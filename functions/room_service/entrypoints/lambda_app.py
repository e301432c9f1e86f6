"""Wiring for Lambda: the service built from the environment, logging and metrics.

Nothing here runs at import time beyond creating the Powertools objects (cheap, no
AWS calls), so tests and the local stack can set endpoints first.
"""

import os
import re
from functools import cache
from typing import Any

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit

from engine.games import EXTRA_GAMES_VARIABLE, register_extra_games

from ..adapters import ports
from ..adapters.apigateway import ApiGatewayPusher, management_endpoint
from ..adapters.clock import GameClock, clock_from_environment
from ..adapters.dynamodb import DynamoConnections, DynamoRoomStore
from ..adapters.sqs import SqsTimers
from ..service.room_service import Ports, RoomService

SERVICE = "catch-the-witch"
logger = Logger(service=SERVICE)
metrics = Metrics(namespace=os.environ.get("POWERTOOLS_METRICS_NAMESPACE", "CatchTheWitch"),
                  service=SERVICE)  # fmt: skip


class PowertoolsMetrics(ports.Metrics):
    """The Metrics port: counts to CloudWatch (EMF); room and seat into every log line.
    Tokens and roles are never logged: the service passes neither."""

    def count(self, name: str, value: int = 1) -> None:
        metrics.add_metric(name=name, unit=MetricUnit.Count, value=value)

    def context(self, room: str, seat: str | None) -> None:
        logger.append_keys(room=room, seat=seat)


@cache
def game_clock() -> GameClock:
    """The wall clock; on the local stack, perhaps a faster one (adapters/clock.py). Read
    once per container, at its first invocation: a refused scale fails that invocation."""
    return clock_from_environment()


def now() -> float:
    """The service's clock (tests of the handlers replace it)."""
    return game_clock().now()


@cache
def _service(endpoint: str) -> RoomService:
    # A local stack started by a test may host a game that is not shipped (engine/games.py).
    register_extra_games(os.environ.get(EXTRA_GAMES_VARIABLE, ""))
    ports = Ports(
        store=DynamoRoomStore(), connections=DynamoConnections(),
        pusher=ApiGatewayPusher(endpoint), timers=SqsTimers(time_scale=game_clock().scale),
        metrics=PowertoolsMetrics(),
    )  # fmt: skip
    return RoomService(ports, clock=lambda: now())


def service_for(event: dict[str, Any]) -> RoomService:
    """The service whose pusher posts back through the API this event came from."""
    context = event.get("requestContext", {})
    endpoint = management_endpoint(context.get("domainName", ""), context.get("stage", ""))
    return _service(endpoint)


def source_ip(event: dict[str, Any]) -> str | None:
    """The caller's address as API Gateway saw it (never a header the client sets)."""
    return event.get("requestContext", {}).get("identity", {}).get("sourceIp")


#: The site's own origins, space-separated (template.yaml: the CloudFront domain; the local
#: stack: its own http addresses). A $connect from any other browser origin is refused.
ALLOWED_ORIGINS_VARIABLE = "ALLOWED_ORIGINS"
#: An origin as browsers serialise it (RFC 6454): scheme://host[:port], nothing more.
_ORIGIN = re.compile(r"(https?)://([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?", re.IGNORECASE)
_DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_key(origin: str) -> tuple[str, str, int] | None:
    """An http(s) origin as (scheme, host, port) for an exact comparison: scheme and host
    lower-cased, a default port written out; None for anything else ("null", a path, a
    user, a space, another scheme), which matches no allowed origin."""
    found = _ORIGIN.fullmatch(origin)
    if found is None:
        return None
    scheme, host, port = found.group(1).lower(), found.group(2).lower(), found.group(3)
    return scheme, host, int(port) if port else _DEFAULT_PORTS[scheme]


def allowed_origins() -> frozenset[tuple[str, str, int]] | None:
    """ALLOWED_ORIGINS as origin keys; None when it is unset or blank (not configured)."""
    listed = os.environ.get(ALLOWED_ORIGINS_VARIABLE, "").split()
    if not listed:
        return None
    keys = {origin: origin_key(origin) for origin in listed}
    wrong = [origin for origin, key in keys.items() if key is None]
    if wrong:  # a broken deployment: every $connect fails (500) until it is fixed
        raise ValueError(f"{ALLOWED_ORIGINS_VARIABLE}: {wrong} are not origins "
                         "(scheme://host[:port], space-separated)")  # fmt: skip
    return frozenset(keys.values())


def refused_origin(event: dict[str, Any]) -> str | None:
    """The ``Origin`` of a ``$connect`` that ALLOWED_ORIGINS does not list, else None.

    Browsers always send Origin with a WebSocket handshake, and a page cannot change it:
    refusing other origins stops any web page from turning its visitors' browsers into
    clients of this API (each with a fresh per-address budget). A handshake WITHOUT an
    Origin is let through: only a non-browser client can leave it out, and such a client
    can just as well send the allowed value, so refusing it would protect nothing.

    Header names keep the client's case in the event (API Gateway passes them as sent),
    so they are compared case-insensitively; every value counts (multiValueHeaders).
    ALLOWED_ORIGINS unset means not configured, not "allow none": nothing is refused and
    a warning is logged, so a test harness or a stack built by hand still works, and says
    so; template.yaml always sets it (tests/integration/test_origin.py)."""
    origins = _header_values(event, "origin")
    if not origins:
        return None
    allowed = allowed_origins()
    if allowed is None:
        _warn_origins_not_configured()
        return None
    return next((origin for origin in origins if origin_key(origin) not in allowed), None)


def _header_values(event: dict[str, Any], name: str) -> list[str]:
    values = [value for key, many in (event.get("multiValueHeaders") or {}).items()
              if key.lower() == name for value in many or ()]  # fmt: skip
    values += [value for key, value in (event.get("headers") or {}).items()
               if key.lower() == name and value is not None and value not in values]  # fmt: skip
    return values


@cache
def _warn_origins_not_configured() -> None:
    """Once per container."""
    logger.warning(f"{ALLOWED_ORIGINS_VARIABLE} is not set: a WebSocket handshake from any "
                   "web page's origin is accepted")  # fmt: skip


def timer_service() -> RoomService:
    """Timers arrive from SQS, not through the API: the endpoint comes from the env."""
    return _service(os.environ["WEBSOCKET_ENDPOINT"])
