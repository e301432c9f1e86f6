"""Everything the handlers do, recorded per Lambda invocation: each AWS call (with the
request units DynamoDB bills for it), the bytes the invocation logs, the time it sleeps,
and its own CPU time. Invocations may run concurrently (threads, one per phone).

Each AWS request runs under one lock: real DynamoDB applies each request atomically, and
moto is not thread-safe. The lock also lets the recorder read the items a write touches
just before and after it (their sizes decide the write units) with nothing in between.
"""

import io
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from botocore.exceptions import ClientError

from functions.room_service.adapters.dynamodb import KEY, SORT

from .billing import dynamodb_units, item_size, transaction_keys

AWS_LOCK = threading.RLock()
_current = threading.local()
WRITES = ("put_item", "update_item", "delete_item", "transact_write_items", "batch_write_item")
#: What narrows a read's answer, but not what DynamoDB bills for it.
NARROWING = ("ProjectionExpression", "AttributesToGet", "Select", "FilterExpression")


@dataclass
class Call:
    service: str
    op: str
    params: dict
    result: dict | None
    failed: bool
    #: CPU seconds this thread spent inside moto (and the recorder's own reads) for it.
    cpu_seconds: float
    in_handler_thread: bool
    thread_id: int = 0
    #: DynamoDB calls that had to finish before this one began: those before it in its
    #: thread, and those its thread waited for (``Invocation.chains``).
    after_store_calls: int = 0
    read_units: float = 0.0
    write_units: float = 0.0
    #: A successful write's items, each as (its key's sort key, its size after the write).
    written: list[tuple[str, int]] = field(default_factory=list)


@dataclass
class Invocation:
    route: str  # connect, message, disconnect, timer
    action: str | None  # a message's "action"
    thread_id: int
    frame_bytes: int = 0  # the frame a message came in (API Gateway bills it)
    calls: list[Call] = field(default_factory=list)
    log_bytes: int = 0
    slept_seconds: float = 0.0
    own_cpu_seconds: float = 0.0
    #: Set by the bench: a sampled heartbeat, a move, a move ending its step.
    tags: set[str] = field(default_factory=set)
    #: Per thread: the DynamoDB calls on its chain so far, one after another. A worker's
    #: chain starts from its submitter's, and a thread that waits for a worker's result
    #: takes the longer of the two chains (``attributed_submit``, ``joined_result``).
    chains: dict[int, int] = field(default_factory=dict)

    def dynamodb(self) -> list[Call]:
        return [c for c in self.calls if c.service == "dynamodb"]

    def posts(self) -> list[Call]:
        return [c for c in self.calls if c.op == "post_to_connection"]

    def store_calls_before_first_post(self) -> int:
        """Sequential DynamoDB calls the phone waits for: the longest chain of calls, one
        waiting for the other, before the first post. Calls run alongside each other (a
        worker thread's, and its submitter's until it waits for the worker) count once."""
        first_post = next((c for c in self.calls if c.op == "post_to_connection"), None)
        if first_post is not None:
            return first_post.after_store_calls
        return max((c.after_store_calls + 1 for c in self.dynamodb()), default=0)

    def room_item_sizes(self) -> list[int]:
        """The room item's size after each write of it."""
        return [size for call in self.dynamodb() for sk, size in call.written if sk == "ROOM"]

    def writes_room(self) -> bool:
        """Whether it wrote a room item (a step ended, or the room changed otherwise)."""
        return bool(self.room_item_sizes())


def current() -> Invocation | None:
    return getattr(_current, "invocation", None)


class Recorder:
    """Wraps ``aws_client.client`` (every adapter's one door to boto3)."""

    def __init__(self, real_client: Callable[..., Any]) -> None:
        self._real = real_client
        self.invocations: list[Invocation] = []
        self.outside: list[Call] = []  # calls made outside any handler (none expected)

    # -- invocations -----------------------------------------------------------------------
    def run(self, route: str, action: str | None, frame_bytes: int,
            handler: Callable[[], Any]) -> Any:  # fmt: skip
        invocation = Invocation(route, action, threading.get_ident(), frame_bytes)
        with AWS_LOCK:
            self.invocations.append(invocation)
        _current.invocation = invocation
        started = time.thread_time()
        try:
            return handler()
        finally:
            cpu = time.thread_time() - started
            in_aws = sum(c.cpu_seconds for c in invocation.calls if c.in_handler_thread)
            invocation.own_cpu_seconds = max(0.0, cpu - in_aws)
            _current.invocation = None

    @staticmethod
    def sleep(seconds: float, real_fraction: float) -> None:
        """The unit of work's wait: billed in full, slept for a fraction (the other threads
        need only a few milliseconds of moto to write meanwhile)."""
        invocation = current()
        if invocation is not None:
            invocation.slept_seconds += seconds
        time.sleep(seconds * real_fraction)

    # -- calls -----------------------------------------------------------------------------
    def client(self, service: str, endpoint_url: str | None = None):
        real = self._real(service, endpoint_url)
        recorder = self

        class Recorded:
            meta = real.meta
            exceptions = real.exceptions

            def __getattr__(self, name):
                method = getattr(real, name)
                if not callable(method):
                    return method
                return lambda **params: recorder._call(service, name, method, params)

        return Recorded()

    def _call(self, service: str, op: str, method, params: dict):
        invocation = current()
        with AWS_LOCK:
            started = time.thread_time()
            before = self._sizes(op, params) if service == "dynamodb" and op in WRITES else []
            result, failed, error = None, False, None
            try:
                result = method(**params)
            except ClientError as exc:
                failed, error = True, exc
            after = self._sizes(op, params) if before and not failed else []
            thread = threading.get_ident()
            call = Call(service, op, params, result, failed, time.thread_time() - started,
                        invocation is not None and thread == invocation.thread_id, thread)  # fmt: skip
            if invocation is not None:
                call.after_store_calls = invocation.chains.get(thread, 0)
                if service == "dynamodb":
                    invocation.chains[thread] = call.after_store_calls + 1
            if service == "dynamodb":
                billed = self._whole_read(op, params) if _narrowed(op, params) else result
                call.read_units, call.write_units = dynamodb_units(
                    op, params, billed, failed, before, after
                )
            if after:  # a write that succeeded
                keys = _write_keys(op, params)
                call.written = [(k[SORT]["S"], size) for k, size in zip(keys, after, strict=True)]
            (invocation.calls if invocation else self.outside).append(call)
        if error is not None:
            raise error
        return result

    def _sizes(self, op: str, params: dict) -> list[int]:
        """The size of each item the write touches, as it is now (0: no such item)."""
        return [self._size(table, key) for table, key in zip(
            _write_tables(op, params), _write_keys(op, params), strict=True)]  # fmt: skip

    def _whole_read(self, op: str, params: dict) -> dict:
        """The read again, without what narrows its answer: the items DynamoDB bills."""
        whole = {k: v for k, v in params.items() if k not in NARROWING}
        used = set(re.findall(r"[:#][A-Za-z0-9_]+", whole.get("KeyConditionExpression", "")))
        for placeholders in ("ExpressionAttributeNames", "ExpressionAttributeValues"):
            kept = {p: v for p, v in whole.get(placeholders, {}).items() if p in used}
            whole.pop(placeholders, None)
            if kept:
                whole[placeholders] = kept
        return getattr(self._real("dynamodb"), op)(**whole)

    def _size(self, table: str, key: dict) -> int:
        found = self._real("dynamodb").get_item(TableName=table, Key=key, ConsistentRead=True)
        return item_size(found.get("Item"))


def _narrowed(op: str, params: dict) -> bool:
    return op in ("get_item", "query") and any(k in params for k in NARROWING)


def _batch_requests(params: dict) -> list[tuple[str, dict]]:
    """(table, key) of each request of a BatchWriteItem, in order."""
    return [(table, request.get("DeleteRequest", {}).get("Key")
             or _key_of(request["PutRequest"]["Item"]))
            for table, requests in params["RequestItems"].items()
            for request in requests]  # fmt: skip


def _write_keys(op: str, params: dict) -> list[dict]:
    """The key of each item a write touches, in order."""
    if op == "batch_write_item":
        return [key for _, key in _batch_requests(params)]
    if op == "transact_write_items":
        items = [next(iter(e.values())).get("Item") for e in params["TransactItems"]]
        return [k or _key_of(i) for k, i in zip(transaction_keys(params), items, strict=True)]
    return [params.get("Key") or _key_of(params["Item"])]


def _write_tables(op: str, params: dict) -> list[str]:
    if op == "batch_write_item":
        return [table for table, _ in _batch_requests(params)]
    if op == "transact_write_items":
        return [next(iter(e.values()))["TableName"] for e in params["TransactItems"]]
    return [params["TableName"]]


def _key_of(item: dict) -> dict:
    return {KEY: item[KEY], SORT: item[SORT]}


class LogCapture(io.TextIOBase):
    """Stands for stdout (Powertools' EMF metrics) and the logger's stream: each invocation's
    bytes counted to it, as CloudWatch Logs would ingest them."""

    def __init__(self) -> None:
        self.outside = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        size = len(text.encode())
        invocation = current()
        if invocation is not None:
            invocation.log_bytes += size
        else:
            self.outside += size
        return len(text)


def attributed_submit(submit):
    """ThreadPoolExecutor.submit, with the worker's calls counted to the invocation that
    submitted the work (the pusher's posts run in a pool, the connection's counter beside
    the room's read); its chain of calls starts from the submitter's."""

    def submit_attributed(self, fn, /, *args, **kwargs):
        invocation = current()
        if invocation is None:
            return submit(self, fn, *args, **kwargs)
        with AWS_LOCK:
            start = invocation.chains.get(threading.get_ident(), 0)
        ended = [start]  # the worker's chain when its work is done (set before its result)

        def run(*args, **kwargs):
            _current.invocation = invocation
            worker = threading.get_ident()
            with AWS_LOCK:
                invocation.chains[worker] = start
            try:
                return fn(*args, **kwargs)
            finally:
                with AWS_LOCK:
                    ended[0] = invocation.chains[worker]
                _current.invocation = None

        future = submit(self, run, *args, **kwargs)
        future.bench_chain_ended = ended
        return future

    return submit_attributed


def joined_result(result):
    """Future.result: the thread that waits for a worker's work continues its chain from
    the longer of the two (what it waited for had to finish first)."""

    def result_joined(self, *args, **kwargs):
        value = result(self, *args, **kwargs)
        invocation = current()
        if invocation is not None:
            ended = getattr(self, "bench_chain_ended", None)
            if ended is not None:
                me = threading.get_ident()
                with AWS_LOCK:
                    invocation.chains[me] = max(invocation.chains.get(me, 0), ended[0])
        return value

    return result_joined
