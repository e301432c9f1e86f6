"""$connect: admitted, or refused for its origin or its address's limits. No seat is named
here: a seated phone's first frame is ``resume`` with its token, which no URL
(and so no access log) carries."""

from functions.room_service.entrypoints.lambda_app import (
    PowertoolsMetrics,
    logger,
    metrics,
    refused_origin,
    service_for,
    source_ip,
)
from functions.room_service.service.room_service import Refused

#: Every refused $connect, whatever the reason. API Gateway counts a refused handshake as an
#: IntegrationError; template.yaml's errors alarm subtracts this, so refusals (a foreign
#: origin, too many connects) never page anyone.
CONNECT_REFUSED = "ConnectRefused"
FORBIDDEN = 403


@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def handler(event, context):
    connection_id = event["requestContext"]["connectionId"]
    logger.append_keys(connection=connection_id)
    origin = refused_origin(event)
    if origin is not None:
        return _refuse(FORBIDDEN, f"This site may not connect here (Origin {origin[:100]!r}).")
    try:
        service_for(event).connect(connection_id, source_ip(event))
    except Refused as refused:
        return _refuse(refused.status, str(refused))
    return {"statusCode": 200}


def _refuse(status: int, reason: str) -> dict:
    """Logged (the reason, never the token) and counted, then answered with ``status``."""
    logger.info("connect refused", extra={"status": status, "reason": reason})
    PowertoolsMetrics().count(CONNECT_REFUSED)
    return {"statusCode": status, "body": reason}
