"""SQS timer batch: each message is a step's deadline, the host's grace period or a lobby
seat's, or a gone phone's game seat (domain/timers.py: DeadlineTimer, HostCheckTimer,
SeatCheckTimer, AwayCheckTimer).

Partial batch responses: one bad message is retried (then dead-lettered) alone.
"""

import json

from aws_lambda_powertools.utilities.batch import (
    BatchProcessor,
    EventType,
    process_partial_response,
)

from functions.room_service.entrypoints.lambda_app import logger, metrics, timer_service

processor = BatchProcessor(event_type=EventType.SQS)


def fire(record) -> None:
    message = json.loads(record.body)
    logger.append_keys(room=message.get("room"), timer=message.get("kind"))
    timer_service().timer(message)


@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def handler(event, context):
    return process_partial_response(event=event, record_handler=fire, processor=processor,
                                    context=context)  # fmt: skip
