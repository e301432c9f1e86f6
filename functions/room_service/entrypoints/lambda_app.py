"""Wiring for Lambda: the service built from the environment, logging and metrics.

Nothing here runs at import time beyond creating the Powertools objects (cheap, no
AWS calls), so tests and the local stack can set endpoints first.
"""

import os
from functools import cache
from typing import Any

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit

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


def timer_service() -> RoomService:
    """Timers arrive from SQS, not through the API: the endpoint comes from the env."""
    return _service(os.environ["WEBSOCKET_ENDPOINT"])
