"""Load on the local stack: N rooms x 12 bot phones over WebSockets on 127.0.0.1.

    python bench/local_stack.py [--rooms 1,5,20] [--seconds 40] [--think 0.5-1.5]
    (part of: make bench)

Starts `python -m local_stack` (moto, the gateway, Lambda workers, the SQS poller), then
for each N: N rooms of 12 bots (local_stack/bot_client.py) create, join, start and play
for the given time. Each bot thinks a random time before a move, like a person.
Latency is action -> push: from a bot sending a move to the first view it receives after
it (its own move shown back). Prints p50/p95/p99, actions per second, errors and the
machine's 1-minute load average at the row's end (the cores are shared: compare runs at
a similar load); `--rooms 1` is the one-party figure. Asserts nothing. The figures
measure the local stack, whose DynamoDB (moto) is far slower than the real one
(docs/performance.md).
"""

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from local_stack.bot_client import BOT_NAMES, BotClient
from tests.support.local_stack_process import LocalStackProcess, StackDidNotStop

ROOM_ACTIONS = {"ping", "create_room", "join", "start", "leave"}


async def one_round(url: str, rooms: int, seconds: float, think: tuple[float, float]) -> dict:
    tables: list[list[BotClient]] = []
    for r in range(rooms):
        # each room from its own loopback address, as tables at different venues: the
        # per-address limits (ratelimit.py) would take 240 phones from one for a flood
        bots = [BotClient(url, f"{name}{r}", seed=r * 100 + i, think=think,
                          source=f"127.0.0.{2 + r}")
                for i, name in enumerate(BOT_NAMES)]  # fmt: skip
        for bot in bots:
            await bot.connect()
        code = await bots[0].create_room({"discussion_limit": 60})
        for bot in bots[1:]:
            await bot.join(code)
        tables.append(bots)
    everyone = [bot for bots in tables for bot in bots]
    started = time.monotonic()
    for bots in tables:
        await bots[0].send({"action": "start"})
    players = [asyncio.create_task(bot.play()) for bot in everyone]
    await asyncio.sleep(seconds)
    ended = time.monotonic()
    for task in players:
        task.cancel()
    await asyncio.gather(*players, return_exceptions=True)
    latencies, actions, errors = [], 0, 0
    for bot in everyone:
        line = [entry for entry in bot.timeline if entry[0] >= started]
        for i, (at, kind, message) in enumerate(line):
            if kind == "error":
                errors += 1
            if kind != "sent" or message.get("action") in ROOM_ACTIONS or at > ended:
                continue
            actions += 1
            shown = next((t for t, k, _ in line[i + 1 :] if k == "view"), None)
            if shown is not None:
                latencies.append((shown - at) * 1000)
    for bot in everyone:
        await bot.close()
    return {"latencies": latencies, "actions": actions, "errors": errors,
            "seconds": ended - started}  # fmt: skip


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rooms", default="1,5,20")
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--think", default="0.5-1.5")
    parser.add_argument("--workers", default="4")
    args = parser.parse_args()
    think = tuple(float(x) for x in args.think.split("-"))
    stack = LocalStackProcess("--workers", args.workers)
    print(f"local stack load — 12 bot phones per room, think {args.think} s, "
          f"{args.seconds:.0f} s per row, {args.workers} Lambda workers")  # fmt: skip
    print("rooms | actions | actions/s | push latency ms p50 | p95 | p99 | errors | load")
    try:
        for rooms in (int(n) for n in args.rooms.split(",")):
            result = asyncio.run(one_round(stack.websocket_url, rooms, args.seconds, think))
            lat = result["latencies"] or [float("nan")]
            print(f"{rooms:5d} | {result['actions']:7d} | {result['actions'] / result['seconds']:9.1f}"
                  f" | {statistics.median(lat):19.1f} | {percentile(lat, 95):5.1f} |"
                  f" {percentile(lat, 99):6.1f} | {result['errors']} | {os.getloadavg()[0]:.1f}")  # fmt: skip
        print("target: p99 <= 50 ms at 20 rooms")
    finally:
        try:  # a stack with a backlog of queued invocations may take a while to stop
            stack.interrupt(timeout=120)
        except StackDidNotStop as stuck:
            print(f"({stuck})")


if __name__ == "__main__":
    main()
