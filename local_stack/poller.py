"""The SQS → Lambda event source mapping, locally: long-poll the queue, hand batches to
the function, delete what succeeded (partial batch responses honoured). Failed messages
come back after the visibility timeout and go to the dead-letter queue after
maxReceiveCount, as the queue's redrive policy says.
"""

import asyncio
import hashlib
import time
from typing import Any

import boto3

from .cloud import REGION
from .lambdas import LocalLambdas
from .template import QueueSource

WAIT_SECONDS = 1  # short, so stopping is quick; SQS long polls are free locally


class QueuePoller:
    def __init__(self, source: QueueSource, queue_url: str, queue_arn: str, sqs_url: str,
                 lambdas: LocalLambdas):  # fmt: skip
        self.source = source
        self.queue_url = queue_url
        self.queue_arn = queue_arn
        self.lambdas = lambdas
        self._sqs = boto3.client("sqs", endpoint_url=sqs_url, region_name=REGION)
        self._running = asyncio.Event()
        self._running.set()
        #: Held while a batch is received and delivered, so a pause can wait for it.
        self._busy = asyncio.Lock()
        self._stopped = False
        self.delivered = 0
        self.failed = 0
        self.restarts = 0  # times the stack found this poller's task ended and restarted it
        self.last_error: str | None = None

    @property
    def paused(self) -> bool:
        return not self._running.is_set()

    async def pause(self) -> None:
        """Stop polling (a fault test: timers pile up in the queue). Returns once no batch
        is in flight: none is delivered after it, so ``delivered`` stands still."""
        self._running.clear()
        async with self._busy:
            pass

    def resume(self) -> None:
        self._running.set()

    def stop(self) -> None:
        self._stopped = True
        self._running.set()

    async def run(self) -> None:
        while not self._stopped:
            await self._running.wait()
            if self._stopped:
                return
            async with self._busy:
                messages = await asyncio.to_thread(self._receive)
                if messages and self.paused:
                    # Paused during the long poll: the batch goes back to the queue as it
                    # was, as a stopped event source would have left it.
                    await asyncio.to_thread(self._release, messages)
                elif messages:
                    await self._deliver(messages)

    def _receive(self) -> list[dict[str, Any]]:
        return self._sqs.receive_message(
            QueueUrl=self.queue_url, MaxNumberOfMessages=min(10, self.source.batch_size),
            WaitTimeSeconds=WAIT_SECONDS, AttributeNames=["All"], MessageAttributeNames=["All"],
        ).get("Messages", [])  # fmt: skip

    def _release(self, messages: list[dict[str, Any]]) -> None:
        self._sqs.change_message_visibility_batch(QueueUrl=self.queue_url, Entries=[
            {"Id": str(i), "ReceiptHandle": m["ReceiptHandle"], "VisibilityTimeout": 0}
            for i, m in enumerate(messages)])  # fmt: skip

    async def _deliver(self, messages: list[dict[str, Any]]) -> None:
        event = {"Records": [self._record(message) for message in messages]}
        invocation = await self.lambdas.invoke(self.source.function, event)
        if invocation.error:
            failed = {message["MessageId"] for message in messages}
        elif self.source.report_batch_item_failures and isinstance(invocation.result, dict):
            failed = {item["itemIdentifier"]
                      for item in invocation.result.get("batchItemFailures", [])}  # fmt: skip
        else:
            failed = set()
        done = [m for m in messages if m["MessageId"] not in failed]
        self.delivered += len(done)
        self.failed += len(failed)
        if done:
            await asyncio.to_thread(self._sqs.delete_message_batch, QueueUrl=self.queue_url,
                                    Entries=[{"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]}
                                             for i, m in enumerate(done)])  # fmt: skip

    def _record(self, message: dict[str, Any]) -> dict[str, Any]:
        attributes = message.get("Attributes", {})
        return {
            "messageId": message["MessageId"], "receiptHandle": message["ReceiptHandle"],
            "body": message["Body"],
            "attributes": {
                "ApproximateReceiveCount": attributes.get("ApproximateReceiveCount", "1"),
                "SentTimestamp": attributes.get("SentTimestamp", str(int(time.time() * 1000))),
                "SenderId": attributes.get("SenderId", "local"),
                "ApproximateFirstReceiveTimestamp": attributes.get(
                    "ApproximateFirstReceiveTimestamp", str(int(time.time() * 1000))),
            },
            "messageAttributes": message.get("MessageAttributes", {}),
            "md5OfBody": message.get("MD5OfBody") or hashlib.md5(message["Body"].encode()).hexdigest(),
            "eventSource": "aws:sqs", "eventSourceARN": self.queue_arn, "awsRegion": REGION,
        }  # fmt: skip
