"""Every client message ($default and the action routes): docs/protocol.md."""

import time

from functions.room_service.adapters.ratelimit import LONGEST_WAIT_SECONDS
from functions.room_service.entrypoints.lambda_app import (
    game_clock,
    logger,
    metrics,
    service_for,
    source_ip,
)


@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def handler(event, context):
    connection_id = event["requestContext"]["connectionId"]
    logger.append_keys(connection=connection_id)
    service_for(event).message(connection_id, event.get("body"), source_ip(event), waited(event))
    return {"statusCode": 200}


def waited(event) -> float:
    """How long the frame waited between API Gateway (``requestTimeEpoch``, when it was
    received) and this call, in game seconds: its pace is judged by when it was sent
    (adapters/ratelimit.py). 0 when the event does not say, or says a wait no frame has
    (negative, or past API Gateway's integration timeout: a clock not to be believed)."""
    received_ms = event["requestContext"].get("requestTimeEpoch")
    if not isinstance(received_ms, int | float):
        return 0.0
    wall_seconds = time.time() - received_ms / 1000
    if not 0 <= wall_seconds <= LONGEST_WAIT_SECONDS:
        return 0.0
    return wall_seconds * game_clock().scale
