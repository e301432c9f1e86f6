"""$connect: a new phone, or a seat reconnecting with ?room=CODE&token=TOKEN."""

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
#: origin, a stale seat token, too many connects) never page anyone.
CONNECT_REFUSED = "ConnectRefused"
FORBIDDEN = 403


@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def handler(event, context):
    query = event.get("queryStringParameters") or {}
    connection_id = event["requestContext"]["connectionId"]
    logger.append_keys(connection=connection_id, room=query.get("room"))
    origin = refused_origin(event)
    if origin is not None:
        return _refuse(FORBIDDEN, f"This site may not connect here (Origin {origin[:100]!r}).")
    try:
        service_for(event).connect(
            connection_id, query.get("room"), query.get("token"), source_ip(event)
        )
    except Refused as refused:
        return _refuse(refused.status, str(refused))
    return {"statusCode": 200}


def _refuse(status: int, reason: str) -> dict:
    """Logged (the reason, never the token) and counted, then answered with ``status``."""
    logger.info("connect refused", extra={"status": status, "reason": reason})
    PowertoolsMetrics().count(CONNECT_REFUSED)
    return {"statusCode": status, "body": reason}
