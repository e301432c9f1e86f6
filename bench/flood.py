"""One flooder against everyone else, on the local stack: does another room stay fast?

    python bench/flood.py [--seconds 4] [--rate 30] [--connections 12] [--workers 4] [--repeat 3]

Starts `python -m local_stack`, seats a table of 5 bots in a room of their own (from
127.0.0.2, one venue) playing a game, one of them also pinging every half second, then,
each for ``--seconds``:

1. baseline: nobody floods;
2. one address: ``--connections`` seated phones from ONE address (127.0.0.3, their own
   room) each ping ``--rate`` times a second (valid pings: every one of them is a frame a
   phone may send); ``--repeat`` times, 5 s apart, and once more over every run's pings
   (a run's median is of 8 pings, and its first half second, the address's burst, holds
   one or two of them: one run's median swings between about 20 and 200 ms);
3. many addresses: the same from one address each (127.0.0.4 …).

For each phase it prints the other room's ping latency (ping sent → its answer) and move
latency (a bot's move → the first view after it): median and max; and how many of the
flood's frames were answered, refused with a word (``rate_limited``), or refused without
one (a connection is told at most once a second per container). Figures only, no
pass/fail: the target is that the one-address flood leaves the other room's
median under 100 ms on the local stack. The machine's 1-minute load is printed too: the
cores are shared, compare runs at a similar load.
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

VICTIM_ADDRESS = "127.0.0.2"
FLOOD_ADDRESS = "127.0.0.3"
PING_EVERY = 0.5  # the other room's pinger: within its own quiet share and pace


async def seat(url: str, origin: str, names: list[str], addresses: list[str],
               think: tuple[float, float] = (0.0, 0.0)) -> list[BotClient]:  # fmt: skip
    """A room: the first bot creates it, the others join; bot i comes from addresses[i]."""
    bots = [BotClient(url, name, seed=i, think=think, source=addresses[i % len(addresses)],
                      origin=origin) for i, name in enumerate(names)]  # fmt: skip
    for bot in bots:
        await bot.connect()
    code = await bots[0].create_room({"discussion_limit": 60})
    for bot in bots[1:]:
        await bot.join(code)
    return bots


async def pinger(bot: BotClient, until: float, latencies: list[float]) -> None:
    """Ping, wait for the answer (a pong, or the view if it changed), every PING_EVERY."""
    while time.monotonic() < until:
        answered = len(bot.received)
        sent = time.monotonic()
        await bot.send(bot.ping())
        try:
            await bot.wait_for(lambda b, before=answered: len(b.received) > before, timeout=30)
        except TimeoutError:
            latencies.append(30.0)
            continue
        latencies.append(time.monotonic() - sent)
        await asyncio.sleep(max(0.0, sent + PING_EVERY - time.monotonic()))


async def flooder(bot: BotClient, start: float, seconds: float, rate: int) -> None:
    for i in range(int(seconds * rate)):
        await asyncio.sleep(max(0.0, start + i / rate - time.monotonic()))
        await bot.send(bot.ping())


def move_latencies(bots: list[BotClient], start: float, end: float) -> list[float]:
    """Each move a bot sent in [start, end): the time to the first view after it."""
    found = []
    for bot in bots:
        line = bot.timeline
        for i, (at, kind, message) in enumerate(line):
            if kind != "sent" or message.get("action") == "ping" or not start <= at < end:
                continue
            shown = next((t for t, k, _ in line[i + 1 :] if k == "view"), None)
            if shown is not None:
                found.append(shown - at)
    return found


async def phase(name: str, victims: list[BotClient], flood: list[BotClient], seconds: float,
                rate: int) -> dict:  # fmt: skip
    before = [len(bot.received) for bot in flood]
    start = time.monotonic()
    until = start + seconds
    pings: list[float] = []
    tasks = [asyncio.create_task(pinger(victims[-1], until, pings))]
    tasks += [asyncio.create_task(flooder(bot, start, seconds, rate)) for bot in flood]
    await asyncio.gather(*tasks)
    await asyncio.sleep(2)  # the flood's last answers
    answers = [m for bot, n in zip(flood, before, strict=True) for m in bot.received[n:]]
    sent = len(flood) * int(seconds * rate)
    answered = sum(m.get("type") in ("pong", "view") for m in answers)
    told = sum(m.get("code") == "rate_limited" for m in answers)
    moves = move_latencies(victims, start, until)
    return {"phase": name, "pings": pings, "moves": moves, "sent": sent, "answered": answered,
            "told": told, "load": os.getloadavg()[0]}  # fmt: skip


def pooled(name: str, runs: list[dict]) -> dict:
    """Every run's pings and moves as one phase's; the flood's counts summed."""
    return {"phase": name, "pings": [p for r in runs for p in r["pings"]],
            "moves": [m for r in runs for m in r["moves"]],
            "sent": sum(r["sent"] for r in runs), "answered": sum(r["answered"] for r in runs),
            "told": sum(r["told"] for r in runs), "load": runs[-1]["load"]}  # fmt: skip


def summary(values: list[float]) -> str:
    if not values:
        return "   –   |    –   "
    return f"{statistics.median(values) * 1000:6.0f} | {max(values) * 1000:6.0f}"


async def run(stack: LocalStackProcess, seconds: float, rate: int, connections: int,
              repeat: int) -> list[dict]:  # fmt: skip
    url, origin = stack.websocket_url, stack.http_url
    victims = await seat(url, origin, BOT_NAMES[:5], [VICTIM_ADDRESS], think=(0.5, 1.5))
    one_address = await seat(url, origin, [f"Flood{i}" for i in range(connections)],
                             [FLOOD_ADDRESS])  # fmt: skip
    many = [f"127.0.0.{4 + i}" for i in range(connections)]
    many_addresses = await seat(url, origin, [f"Many{i}" for i in range(connections)], many)
    await victims[0].send({"action": "start"})
    players = [asyncio.create_task(bot.play()) for bot in victims]
    await asyncio.sleep(3)  # the game under way
    results = []
    try:
        results.append(await phase("baseline", victims, [], seconds, rate))
        runs = []
        for _ in range(repeat):
            runs.append(await phase("one address", victims, one_address, seconds, rate))
            await asyncio.sleep(5)
        results += runs
        if repeat > 1:
            results.append(pooled(f"one address ×{repeat}", runs))
        results.append(await phase("many addresses", victims, many_addresses, seconds, rate))
    finally:
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        for bot in victims + one_address + many_addresses:
            await bot.close()
    return results


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=4)
    parser.add_argument("--rate", type=int, default=30, help="pings a second per connection")
    parser.add_argument("--connections", type=int, default=12)
    parser.add_argument("--workers", default="4")
    parser.add_argument("--repeat", type=int, default=3, help="runs of the one-address flood")
    args = parser.parse_args()
    stack = LocalStackProcess("--workers", args.workers)
    print(f"flood — {args.connections} connections x {args.rate} pings/s x {args.seconds:g} s, "
          f"{args.workers} Lambda workers; the other room: 5 bots playing, one pinging every "
          f"{PING_EVERY:g} s")  # fmt: skip
    print(
        "phase          | other room ping ms p50 | max | move ms p50 | max | flood sent | "
        "answered | told refused | load"
    )
    try:
        for row in asyncio.run(run(stack, args.seconds, args.rate, args.connections, args.repeat)):
            print(f"{row['phase']:14} | {summary(row['pings'])} | {summary(row['moves'])} | "
                  f"{row['sent']:10d} | {row['answered']:8d} | {row['told']:12d} | "
                  f"{row['load']:.1f}")  # fmt: skip
        print("target: one address, the other room's median under 100 ms (all runs' pings)")
    finally:
        try:
            stack.interrupt(timeout=120)
        except StackDidNotStop as stuck:
            print(f"({stuck})")


if __name__ == "__main__":
    main()
