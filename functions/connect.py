"""$connect: a new phone, or a seat reconnecting with ?room=CODE&token=TOKEN."""

from functions.room_service.entrypoints.lambda_app import logger, metrics, service_for, source_ip
from functions.room_service.service.room_service import Refused


@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def handler(event, context):
    query = event.get("queryStringParameters") or {}
    connection_id = event["requestContext"]["connectionId"]
    logger.append_keys(connection=connection_id, room=query.get("room"))
    try:
        service_for(event).connect(
            connection_id, query.get("room"), query.get("token"), source_ip(event)
        )
    except Refused as refused:
        logger.info("connect refused", extra={"reason": str(refused)})
        return {"statusCode": refused.status, "body": str(refused)}
    return {"statusCode": 200}
