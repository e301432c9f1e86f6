"""Fault tests on the local stack: the game finishes correctly every time.

1. The gateway and its Lambdas crash (SIGKILL) mid-game and start again on the same port,
   over the same store (moto run apart from the stack, as DynamoDB and SQS outlive API
   Gateway and Lambda). Every phone reconnects with its seat token, sees the same role,
   and the game plays to its result.
2. The SQS event source stops delivering timers for a while (``FAULT_TIMER_PAUSE``
   seconds of game time, default 30; 60 for the full run; the stack's clock runs
   BOT_TIME_SCALE times the wall's): timed steps are still resolved by the
   phones' next messages (the deadline backstop) and the late timers, delivered when the
   poller comes back, change nothing.
(Timers delivered twice or late: tests/integration/test_fault_timers.py.)
"""

import asyncio
import os
import socket
import time

import pytest

from local_stack.bot_client import BOT_NAMES, PACED_REFUSALS, BotClient
from local_stack.cloud import EmbeddedAws
from tests.support.local_stack_process import BOT_TIME_SCALE, LocalStackProcess, describe, until

TIMER_PAUSE = float(os.environ.get("FAULT_TIMER_PAUSE", "30"))
CRASH_TIME_SCALE = 3.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def _table(url: str, settings: dict, count: int = 6) -> list[BotClient]:
    bots = [
        BotClient(url, name, seed=i, think=(0.02, 0.1)) for i, name in enumerate(BOT_NAMES[:count])
    ]
    for bot in bots:
        await bot.connect()
    code = await bots[0].create_room(settings)
    for bot in bots[1:]:
        await bot.join(code)
    await bots[0].send({"action": "start"})
    return bots


async def _leave(players: list[asyncio.Task], bots: list[BotClient]) -> None:
    for task in players:
        task.cancel()
    await asyncio.gather(*players, return_exceptions=True)
    for bot in bots:
        await bot.close()


def _over(bots: list[BotClient]) -> bool:
    return all((bot.game() or {}).get("outcome") for bot in bots)


@pytest.fixture
def store():
    aws = EmbeddedAws().start()  # outlives the stack, as DynamoDB and SQS do
    yield aws
    aws.stop()


def test_the_stack_crashes_mid_game_and_the_game_finishes_after_a_restart(store):
    port = str(_free_port())
    # The restart keeps the first run's game clock (--time-origin), as the store keeps its
    # deadlines.
    args = ("--dynamodb-url", store.url, "--sqs-url", store.url, "--port", port,
            "--time-origin", repr(time.time()))  # fmt: skip
    # 3×, not BOT_TIME_SCALE: the few wall seconds of the crash stay inside the 30 s
    # discussion, so timers are still pending when the stack comes back, as at a table.
    stacks = [LocalStackProcess(*args, time_scale=CRASH_TIME_SCALE)]

    async def scenario() -> None:
        bots = await _table(stacks[0].websocket_url, {"discussion_limit": 30})
        players = [asyncio.create_task(bot.live()) for bot in bots]
        await until(lambda: (bots[0].game() or {}).get("phase") in ("evening", "discussion"),
                    90, "the first evening", bots)  # fmt: skip
        roles = {bot.name: bot.game()["me"]["role"] for bot in bots}
        day = bots[0].game()["day"]
        stacks[0].kill()  # no $disconnect, no goodbye: every socket just drops
        await until(lambda: not any(bot.connected for bot in bots), 10, "the drop", bots)
        stacks.append(LocalStackProcess(*args, time_scale=CRASH_TIME_SCALE))  # same port, store
        await until(lambda: all(bot.connected for bot in bots), 30, "the reconnects", bots)
        await until(lambda: _over(bots), 400, "the result", bots)
        for bot in bots:
            # The result (the lobby's last_result) reveals every role: each seat's is the
            # one it was dealt before the crash.
            assert bot.game()["reveal"]["roles"][bot.name] == roles[bot.name], "the same role"
            assert bot.game()["day"] >= day
        assert stacks[1].stats()["gateway"]["connects"] >= len(bots)
        await _leave(players, bots)

    try:
        asyncio.run(scenario())
    finally:
        for stack in stacks:
            if stack.process.poll() is None:
                stack.interrupt()


def test_timers_stopped_for_a_while_never_stop_the_game(store):
    stack = LocalStackProcess("--dynamodb-url", store.url, "--sqs-url", store.url,
                              time_scale=BOT_TIME_SCALE)  # fmt: skip

    async def scenario() -> None:
        bots = await _table(stack.websocket_url, {"discussion_limit": 30})
        players = [asyncio.create_task(bot.live()) for bot in bots]
        await until(lambda: (bots[0].game() or {}).get("phase") == "place_choice", 30,
                    "the first morning", bots)  # fmt: skip
        stack.post("/local/timers/pause")
        delivered = stack.stats()["timers"]["delivered"]
        loop = asyncio.get_running_loop()
        resume_at = loop.time() + TIMER_PAUSE / BOT_TIME_SCALE
        # The witches' 15 s run out with the poller down: the next message any phone sends
        # (its bot moves, or a heartbeat) resolves the passed deadline.
        # A ping every 1.5 s of wall time stays within a connection's quiet pace (one a
        # second), so six bots on one address never meet the address's pace.
        for bot in bots:
            bot.heartbeat = 1.5
        await until(lambda: (bots[0].game() or {}).get("phase") not in ("place_choice", "witches"),
                    TIMER_PAUSE + 60, "the day to end without timers", bots)  # fmt: skip
        assert stack.stats()["timers"]["delivered"] == delivered, "no timer while paused"
        await asyncio.sleep(max(0.0, resume_at - loop.time()))
        stack.post("/local/timers/resume")
        await until(lambda: _over(bots), 400, "the result", bots)
        await until(lambda: stack.stats()["timers"]["delivered"] > delivered, 30,
                    "the late timers", bots)  # fmt: skip
        # Refused as sent too fast is allowed too: at 10× on a loaded machine, frames a stalled
        # gateway reads at once arrive ten times as close in game time (the bots then send
        # again: bot_client.PACED_REFUSALS).
        errors = [e for bot in bots for e in bot.errors]
        assert all("not possible now" in e["message"] or "nothing to confirm" in e["message"]
                   or "over" in e["message"] or e["code"] in PACED_REFUSALS
                   for e in errors), (errors, describe(bots))  # fmt: skip
        await _leave(players, bots)

    try:
        asyncio.run(scenario())
    finally:
        stack.interrupt()
