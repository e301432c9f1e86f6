"""Lambda, locally: each invocation runs the template's handler in a worker process.

A worker is a warm container: it imports the handler once, keeps module state (boto3
clients, the cached service) between invocations and runs one invocation at a time,
while several workers run side by side like concurrent Lambdas. So handlers get the
same isolation as in AWS (no state shared with the gateway or with each other).
"""

import asyncio
import importlib
import multiprocessing
import signal
import time
import traceback
import uuid
import warnings
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from .template import Function

REGION_ACCOUNT = "eu-west-1:000000000000"


@dataclass(frozen=True)
class Invocation:
    result: Any
    error: str | None  # the traceback, when the handler raised
    seconds: float


def _start_worker() -> None:
    # Ctrl-C reaches the whole process group; the gateway shuts the workers down itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A handler that only reads publishes no metric; Powertools warns about it each time.
    warnings.filterwarnings("ignore", "No application metrics to publish", UserWarning)


def _handler(path: str):
    module, name = path.rsplit(".", 1)
    return getattr(importlib.import_module(module), name)


def _invoke(function: Function, event: dict[str, Any]) -> Invocation:
    started = time.perf_counter()
    context = SimpleNamespace(
        function_name=function.logical_id, function_version="$LATEST",
        memory_limit_in_mb=function.memory_mb, aws_request_id=str(uuid.uuid4()),
        invoked_function_arn=f"arn:aws:lambda:{REGION_ACCOUNT}:function:{function.logical_id}",
        log_group_name=f"/aws/lambda/{function.logical_id}", log_stream_name="local",
        get_remaining_time_in_millis=lambda: max(
            0, int((function.timeout - (time.perf_counter() - started)) * 1000)
        ),
    )  # fmt: skip
    try:
        result = _handler(function.handler)(event, context)
    except Exception:
        return Invocation(None, traceback.format_exc(), time.perf_counter() - started)
    return Invocation(result, None, time.perf_counter() - started)


def _warm(handlers: list[str]) -> None:
    for path in handlers:
        _handler(path)
    time.sleep(0.2)  # hold this worker so the next warm-up lands on another


class LocalLambdas:
    def __init__(self, workers: int):
        self.workers = workers
        self._pool = ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context("spawn"), initializer=_start_worker
        )

    async def warm(self, functions: list[Function]) -> None:
        """Cold starts happen now rather than on the first player's message."""
        loop = asyncio.get_running_loop()
        handlers = sorted({function.handler for function in functions})
        await asyncio.gather(*(loop.run_in_executor(self._pool, _warm, handlers)
                               for _ in range(self.workers)))  # fmt: skip

    async def invoke(self, function: Function, event: dict[str, Any]) -> Invocation:
        invocation = await asyncio.get_running_loop().run_in_executor(
            self._pool, _invoke, function, event
        )
        if invocation.seconds > function.timeout:
            # Lambda would have killed it; say so loudly rather than hide a slow path.
            print(f"[lambda] {function.logical_id} ran {invocation.seconds:.1f} s, over its "
                  f"{function.timeout:.0f} s timeout in template.yaml", flush=True)  # fmt: skip
        if invocation.error:
            print(f"[lambda] {function.logical_id} failed:\n{invocation.error}", flush=True)
        return invocation

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
