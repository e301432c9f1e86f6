"""$disconnect (best effort: a 410 on a later push also frees the seat)."""

from functions.room_service.entrypoints.lambda_app import logger, metrics, service_for, source_ip


@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def handler(event, context):
    connection_id = event["requestContext"]["connectionId"]
    logger.append_keys(connection=connection_id)
    service_for(event).disconnect(connection_id, source_ip(event))
    return {"statusCode": 200}
