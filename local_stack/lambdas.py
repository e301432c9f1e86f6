"""Lambda, locally: each invocation runs the template's handler in a worker process.

A worker is a warm container: it imports the handler once, keeps module state (boto3
clients, the cached service) between invocations and runs one invocation at a time,
while several workers run side by side like concurrent Lambdas. So handlers get the
same isolation as in AWS (no state shared with the gateway or with each other).

A worker that dies (a crash, os._exit, SIGKILL, out of memory) takes only its own
invocation down, as a Lambda container would: that invocation fails (the gateway answers
"Internal server error", the poller leaves the batch for a retry), a fresh worker takes
its place (its first invocation is a cold start) and the others run on untouched. Each
crash is reported on stderr and counted in ``/local/stats`` (``lambda``).
"""

import asyncio
import contextlib
import importlib
import multiprocessing
import os
import signal
import sys
import time
import traceback
import uuid
import warnings
from concurrent.futures import ThreadPoolExecutor
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


def _exit_at_once() -> None:
    """The worker's end when the stack stops: as a Lambda container's, without tearing its
    interpreter down (modules, boto3's clients): that took most of Ctrl-C's wait, and a
    worker has nothing to save. What it printed is flushed first."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def _serve(requests) -> None:
    """A worker's life: answer ("invoke", function, event) and ("warm", handlers) requests
    one at a time until None (or the gateway's end of the pipe closing)."""
    _start_worker()
    while True:
        try:
            request = requests.recv()
        except (EOFError, OSError):
            return
        if request is None:
            _exit_at_once()
        if request[0] == "warm":
            try:
                _warm(request[1])
                reply: Any = None
            except Exception:
                reply = traceback.format_exc()
        else:
            reply = _invoke(request[1], request[2])
        try:
            requests.send(reply)
        except Exception:  # a result that cannot be pickled fails like a handler error
            requests.send(Invocation(None, traceback.format_exc(), reply.seconds))


class WorkerDied(Exception):
    """The worker process exited while it held an invocation."""


class _Worker:
    def __init__(self, context):
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child,), name="lambda-worker")
        self.process.start()
        child.close()  # so the gateway's end sees EOF when the worker dies
        self.busy: str | None = None  # the function it is running

    @property
    def alive(self) -> bool:
        return self.process.is_alive()

    def call(self, request: tuple) -> Any:
        """Blocking (run in a thread): one request, its reply; WorkerDied if it exits."""
        try:
            self.connection.send(request)
            return self.connection.recv()
        except (EOFError, OSError) as died:
            raise WorkerDied() from died

    def exit_status(self) -> str:
        self.process.join(1)
        code = self.process.exitcode
        if code is None:
            return "did not answer"
        if code < 0:
            return f"was killed by {signal.Signals(-code).name}"
        return f"exited with code {code}"

    def stop(self) -> None:
        if self.alive:
            with contextlib.suppress(OSError):
                self.connection.send(None)
            self.process.join(5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(5)
        self.connection.close()


class LocalLambdas:
    def __init__(self, workers: int):
        self.workers = workers
        self._context = multiprocessing.get_context("spawn")
        self._pool: list[_Worker] = []  # started on first use
        self._idle: asyncio.Queue[_Worker] | None = None
        self._threads = ThreadPoolExecutor(workers, thread_name_prefix="lambda-call")
        self._renewals: set[asyncio.Task] = set()
        self._closed = False
        self.crashes = 0  # invocations whose worker died under them
        self.replaced = 0  # workers started in place of dead ones

    def _start(self) -> asyncio.Queue[_Worker]:
        if self._idle is None:
            self._idle = asyncio.Queue()
            for _ in range(self.workers):
                worker = _Worker(self._context)
                self._pool.append(worker)
                self._idle.put_nowait(worker)
        return self._idle

    def _replace(self, dead: _Worker) -> tuple[str, _Worker]:
        """Blocking: how the dead worker ended, and a fresh worker in its place."""
        status = dead.exit_status()
        dead.stop()
        fresh = _Worker(self._context)
        self._pool[self._pool.index(dead)] = fresh
        self.replaced += 1
        print(f"[lambda] the worker process {dead.process.pid} {status}; a fresh worker (pid "
              f"{fresh.process.pid}) takes its place", file=sys.stderr, flush=True)  # fmt: skip
        return status, fresh

    async def _renew(self, dead: _Worker) -> None:
        if self._closed:
            return
        _, fresh = await asyncio.to_thread(self._replace, dead)
        self._idle.put_nowait(fresh)

    async def _acquire(self) -> _Worker:
        worker = await self._start().get()
        if not worker.alive:  # died while idle: no invocation lost, just a cold start
            _, worker = await asyncio.to_thread(self._replace, worker)
        return worker

    async def _call(self, worker: _Worker, request: tuple) -> Any:
        """The worker's reply (WorkerDied if it died). The worker goes back to the idle ones
        once it has answered, or is replaced, even if the caller was cancelled meanwhile."""
        loop = asyncio.get_running_loop()
        reply = loop.run_in_executor(self._threads, worker.call, request)

        def returned(done: asyncio.Future) -> None:
            if not done.cancelled() and done.exception() is None:
                worker.busy = None
                self._idle.put_nowait(worker)
            else:
                renewal = loop.create_task(self._renew(worker))
                self._renewals.add(renewal)
                renewal.add_done_callback(self._renewals.discard)

        reply.add_done_callback(returned)
        return await asyncio.shield(reply)

    async def warm(self, functions: list[Function]) -> None:
        """Cold starts happen now rather than on the first player's message."""
        handlers = sorted({function.handler for function in functions})
        workers = [await self._acquire() for _ in range(self.workers)]
        errors = await asyncio.gather(*(self._call(worker, ("warm", handlers))
                                        for worker in workers))  # fmt: skip
        for error in filter(None, errors):
            raise RuntimeError(f"a handler in template.yaml failed to import:\n{error}")

    async def invoke(self, function: Function, event: dict[str, Any]) -> Invocation:
        worker = await self._acquire()
        worker.busy = function.logical_id
        started = time.perf_counter()
        try:
            invocation = await self._call(worker, ("invoke", function, event))
        except WorkerDied:
            # Lambda: the invocation fails ("Runtime exited"), the next one gets a new container.
            self.crashes += 1
            invocation = Invocation(
                None, f"Runtime exited: the worker process {worker.process.pid} died during "
                "the invocation", time.perf_counter() - started,
            )  # fmt: skip
            print(f"[lambda] {function.logical_id} failed: {invocation.error}", file=sys.stderr,
                  flush=True)  # fmt: skip
            return invocation
        if invocation.seconds > function.timeout:
            # Lambda would have killed it; say so loudly rather than hide a slow path.
            print(f"[lambda] {function.logical_id} ran {invocation.seconds:.1f} s, over its "
                  f"{function.timeout:.0f} s timeout in template.yaml", flush=True)  # fmt: skip
        if invocation.error:
            print(f"[lambda] {function.logical_id} failed:\n{invocation.error}", flush=True)
        return invocation

    def stats(self) -> dict[str, Any]:
        """For /local/stats: the workers (pid, alive, the function each is running)."""
        return {
            "workers": [{"pid": w.process.pid, "alive": w.alive, "busy": w.busy}
                        for w in self._pool],
            "crashes": self.crashes,
            "replaced": self.replaced,
        }  # fmt: skip

    def close(self) -> None:
        self._closed = True
        for worker in list(self._pool):
            worker.stop()
        self._threads.shutdown(wait=False, cancel_futures=True)
