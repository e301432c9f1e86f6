"""The Timers port over SQS: a timer is a delayed message to the timer handler."""

import os

from ..domain.timers import TimerMessage
from . import aws_client
from .ports import Timers


class SqsTimers(Timers):
    """Per-message DelaySeconds (0–900) on a standard queue (ARCHITECTURE: timers)."""

    MAX_DELAY = 900

    def __init__(self, queue_url: str | None = None, time_scale: float = 1.0):
        self.queue_url = queue_url or os.environ["TIMER_QUEUE_URL"]
        #: The local stack's faster game clock (adapters/clock.py): delays are game time.
        self.time_scale = time_scale

    def schedule(self, timer: TimerMessage, delay_seconds: float) -> None:
        real_seconds = delay_seconds / self.time_scale
        delay = min(self.MAX_DELAY, max(0, int(real_seconds + 0.999)))  # never early
        aws_client.client("sqs").send_message(
            QueueUrl=self.queue_url, MessageBody=timer.model_dump_json(), DelaySeconds=delay
        )
