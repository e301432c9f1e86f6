"""Backend cost of whole 12-cat games through the real Lambda handlers over moto.

    python bench/backend.py [--games 3]        (part of: make bench)

Every AWS call the handlers make is recorded (tests/support/moto_cloud.py runs the handlers; a
wrapper around functions/room_service/adapters/aws_client.py's clients sees each call). From them:
- DynamoDB reads and writes per player action, with request units computed from the item
  sizes (DynamoDB's rules: a read unit per 4 KB strongly consistent, a write unit per
  1 KB, twice that inside a transaction);
- the largest message posted to one phone, and the room item's size at the end;
- Lambda invocations by route and their duration: the handler's own time (wall time
  minus the time spent inside moto) plus an assumed real latency per AWS call;
- AWS list-price cost of one 12-cat game (prices and assumptions below and in
  docs/performance.md).

Prints figures; asserts nothing. The 12-way write-attempt figure comes from the
concurrency test (`CONCURRENCY_ROUNDS=50 pytest tests/integration/test_handlers_moto.py -k twelve -s`).
"""

import argparse
import contextlib
import functools
import io
import json
import math
import os
import statistics
import sys
import time
import warnings
from collections import Counter, defaultdict
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")  # figures only on stdout
warnings.filterwarnings("ignore", message="No application metrics to publish")

from functions import connect, disconnect, message, timer  # noqa: E402
from functions.room_service.adapters import aws_client  # noqa: E402
from functions.room_service.entrypoints.lambda_app import timer_service as service_of  # noqa: E402
from functions.room_service.service import game_handlers  # noqa: E402
from local_stack.template import Template  # noqa: E402
from tests.support.moto_cloud import moto_cloud  # noqa: E402

#: AWS list prices, us-east-1 / eu-west-1 on-demand, checked November 2026 (USD).
PRICE = {
    "lambda_gb_second_arm": 0.0000133334,
    "lambda_request": 0.20 / 1e6,
    "apigw_message_32kb": 1.00 / 1e6,
    "apigw_connection_minute": 0.25 / 1e6,
    "dynamodb_write_unit": 0.625 / 1e6,
    "dynamodb_read_unit": 0.125 / 1e6,
    "sqs_request": 0.40 / 1e6,
    "data_out_gb": 0.09,
    "log_ingestion_gb": 0.50,
    "alarm_metric_month": 0.10,
    "cloudfront_https_request": 0.01 / 10_000,
    "cloudfront_data_out_gb": 0.085,
}
TEMPLATE = Template.load()
LAMBDA_MEMORY_GB = TEMPLATE.function("MessageFunction").memory_mb / 1024
#: Bytes Lambda itself logs per invocation (START, END and REPORT lines), and API Gateway's
#: access log line per incoming frame (template.yaml's format, filled in).
LAMBDA_PLATFORM_LOG_BYTES = 330
ACCESS_LOG_BYTES = 340
#: A ping reads the connection (0.5 unit, eventually consistent), the room (1, consistent,
#: ~2.4 KB) and its step's submissions (1, consistent): 2.5 read units.
PING_READ_UNITS = 2.5
#: Real round-trip assumed per AWS call inside a Lambda (moto's in-process time is not it).
REAL_CALL_MS = {"dynamodb": 6.0, "apigatewaymanagementapi": 12.0, "sqs": 10.0}
#: A 12-cat game at the table, with a 120 s discussion limit (docs/performance.md).
GAME_MINUTES = 45
HEARTBEAT_MINUTES = 4  # frontend/js/connection.js


def item_size(item: dict) -> int:
    """DynamoDB's item size: attribute names plus values (UTF-8; numbers ~ digits/2 + 1)."""
    total = 0
    for name, value in item.items():
        total += len(name.encode())
        ((kind, data),) = value.items()
        if kind == "S":
            total += len(data.encode())
        elif kind == "N":
            total += len(data.strip("-").replace(".", "")) // 2 + 1
        elif kind == "B":
            total += len(data)
        elif kind == "M":
            total += 3 + item_size(data)
        else:
            total += len(json.dumps(data))
    return total


class Recorder:
    """Wraps aws_client.client: each call's service, operation, parameters, result, time."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, dict, dict | None, float]] = []
        self._real = aws_client.client

    def client(self, service: str, endpoint_url: str | None = None):
        real = self._real(service, endpoint_url)
        recorder = self

        class Recorded:
            def __getattr__(self, name):
                method = getattr(real, name)
                if not callable(method) or name.startswith(("meta", "exceptions")):
                    return method

                def call(**params):
                    started = time.perf_counter()
                    result = None
                    try:
                        result = method(**params)
                        return result
                    finally:
                        recorder.calls.append((service, name, params, result,
                                               time.perf_counter() - started))  # fmt: skip

                return call

            meta = real.meta
            exceptions = real.exceptions

        return Recorded()


def units(calls) -> tuple[float, float, Counter]:
    """(read units, write units, operation counts) of DynamoDB calls."""
    reads = writes = 0.0
    ops: Counter = Counter()
    for kind, op, params, result, _ in calls:
        if kind != "dynamodb":
            continue
        ops[op] += 1
        if op == "get_item":
            found = (result or {}).get("Item") or {}
            factor = 1.0 if params.get("ConsistentRead") else 0.5
            reads += factor * max(1, math.ceil(item_size(found) / 4096))
        elif op == "query":
            size = sum(item_size(i) for i in (result or {}).get("Items", []))
            factor = 1.0 if params.get("ConsistentRead") else 0.5
            reads += factor * max(1, math.ceil(size / 4096))
        elif op == "put_item":
            writes += math.ceil(item_size(params["Item"]) / 1024)
        elif op == "delete_item":
            writes += 1
        elif op == "update_item":  # billed on the larger of the item before and after
            returned = (result or {}).get("Attributes") or {}
            writes += max(1, math.ceil((item_size(returned) + 64) / 1024))  # + what it adds
        elif op == "transact_write_items":
            for entry in params["TransactItems"]:
                size = item_size(entry["Put"]["Item"]) if "Put" in entry else 1
                writes += 2 * math.ceil(size / 1024)  # ConditionCheck counted as a write
    return reads, writes, ops


def play_one_game(seed: int) -> dict:
    recorder = Recorder()
    invocations: Counter = Counter()
    handler_ms: defaultdict[str, list[float]] = defaultdict(list)
    routes = {"connect": connect, "message": message, "disconnect": disconnect, "timer": timer}
    originals = {route: module.handler for route, module in routes.items()}
    same_deal = SimpleNamespace(randbits=lambda bits: 7919 * (seed + 1))  # reproducible games
    with moto_cloud() as cloud, mock.patch.object(aws_client, "client", recorder.client), \
            mock.patch.object(game_handlers, "secrets", same_deal):  # fmt: skip
        for route, module in routes.items():
            original = originals[route]

            def timed(event, context, _original=original, _route=route):
                calls_before = len(recorder.calls)
                started = time.perf_counter()
                try:
                    return _original(event, context)
                finally:
                    wall = time.perf_counter() - started
                    mine = recorder.calls[calls_before:]
                    posts = [c for c in mine if c[1] == "post_to_connection"]
                    others = [c for c in mine if c[1] != "post_to_connection"]
                    lanes = max(
                        1, min(aws_client.PUSH_THREADS, len(posts))
                    )  # posts run in parallel
                    in_aws = sum(c[4] for c in others) + sum(c[4] for c in posts) / lanes
                    real = sum(REAL_CALL_MS[c[0]] for c in others)
                    real += math.ceil(len(posts) / lanes) * REAL_CALL_MS["apigatewaymanagementapi"]
                    invocations[_route] += 1
                    handler_ms[_route].append((wall - in_aws) * 1000 + real)

            module.handler = timed
        try:
            names, _, code = cloud.table(12, {"discussion_limit": 120})
            calls_at_start = len(recorder.calls)
            sent_before = {n: len(cloud.received(n)) for n in names}
            messages_in = invocations["message"]
            cloud.play(names, seed=seed)
            actions = invocations["message"] - messages_in
            game_calls = recorder.calls[calls_at_start:]
            for name in names:
                cloud.disconnect(name)
        finally:
            for route, module in routes.items():
                module.handler = originals[route]
        pushed = [json.dumps(m, separators=(",", ":")) for n in names
                  for m in cloud.received(n)[sent_before[n]:]]  # fmt: skip
        posts = [c for c in recorder.calls if c[1] == "post_to_connection"]
        room_puts = [item_size(p["Item"]) for s, op, p, _, _ in recorder.calls
                     if op == "put_item" and p["Item"]["sk"]["S"] == "ROOM"]  # fmt: skip
        room_puts += [item_size(e["Put"]["Item"]) for s, op, p, _, _ in recorder.calls
                      if op == "transact_write_items" for e in p["TransactItems"] if "Put" in e
                      and e["Put"]["Item"]["sk"]["S"] == "ROOM"]  # fmt: skip
        room_json = len(service_of().current_room(code).model_dump_json())
    reads, writes, ops = units(game_calls)
    all_reads, all_writes, _ = units(recorder.calls)
    return {
        "actions": actions, "reads": reads, "writes": writes, "ops": ops,
        "all_reads": all_reads, "all_writes": all_writes,
        "invocations": invocations, "handler_ms": handler_ms,
        "posts": len(posts), "post_bytes": sum(len(p) for p in pushed),
        "largest_message": max(len(p.encode()) for p in pushed),
        "room_item_end": room_puts[-1], "room_item_max": max(room_puts), "room_json": room_json,
        "sqs_sent": sum(1 for c in recorder.calls if c[1] == "send_message"),
        "timer_invocations": invocations["timer"],
    }  # fmt: skip


def cost(game: dict) -> dict[str, float]:
    heartbeats = 12 * GAME_MINUTES / HEARTBEAT_MINUTES  # pings: one invocation + one pong
    invocations = sum(game["invocations"].values()) + heartbeats
    mean_ms = statistics.fmean(ms for v in game["handler_ms"].values() for ms in v)
    billed_ms = sum(math.ceil(ms) for v in game["handler_ms"].values() for ms in v)
    billed_ms += heartbeats * math.ceil(mean_ms)
    messages_in = game["invocations"]["message"] + heartbeats
    messages_out = game["posts"] + heartbeats
    ping_units = heartbeats * PING_READ_UNITS
    log_bytes = (game["log_bytes"] + invocations * LAMBDA_PLATFORM_LOG_BYTES
                 + (messages_in + 24) * ACCESS_LOG_BYTES)  # frames, and 12 connects/disconnects  # fmt: skip
    return {
        "Lambda requests": invocations * PRICE["lambda_request"],
        "Lambda duration": billed_ms / 1000 * LAMBDA_MEMORY_GB * PRICE["lambda_gb_second_arm"],
        "API Gateway messages": (messages_in + messages_out) * PRICE["apigw_message_32kb"],
        "API Gateway connection minutes": 12 * GAME_MINUTES * PRICE["apigw_connection_minute"],
        "DynamoDB writes": game["all_writes"] * PRICE["dynamodb_write_unit"],
        "DynamoDB reads": (game["all_reads"] + ping_units) * PRICE["dynamodb_read_unit"],
        "SQS requests": game["sqs_sent"] * 3 * PRICE["sqs_request"],  # send, receive, delete
        "Data transfer out": game["post_bytes"] / 1e9 * PRICE["data_out_gb"],
        "CloudWatch Logs ingestion": log_bytes / 1e9 * PRICE["log_ingestion_gb"],
        "CloudFront (client, 12 phones)": 12 * (
            phone_load()[0] * PRICE["cloudfront_https_request"]
            + phone_load()[1] / 1e9 * PRICE["cloudfront_data_out_gb"]),
    }  # fmt: skip


@functools.cache
def phone_load() -> tuple[int, int]:
    """(requests, bytes) of a phone opening the game: the page, config.json, every script
    and style, the English strings; gzip-compressed, as CloudFront sends them."""
    import gzip

    from deploy.frontend import uploads

    loaded = [u for u in uploads("wss://example")
              if u.key in ("index.html", "config.json")
              or u.key.endswith((".js", ".mjs", ".css", "/i18n/en.json"))]  # fmt: skip
    return len(loaded), sum(len(gzip.compress(u.body)) for u in loaded)


def alarm_metrics() -> int:
    """Metrics the template's alarms watch (CloudWatch bills each, monthly)."""
    alarms = TEMPLATE.of_type("AWS::CloudWatch::Alarm").values()
    return sum(sum(1 for m in a.get("Metrics", []) if "MetricStat" in m) or 1 for a in alarms)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    games = []
    for seed in range(args.games):
        printed = io.StringIO()  # what the handlers log: Powertools' metrics (EMF) and logs
        with contextlib.redirect_stdout(printed):
            games.append(play_one_game(seed))
        games[-1]["log_bytes"] = len(printed.getvalue().encode())
    print(f"backend benchmark — {args.games} whole 12-cat games through the handlers on moto")
    actions = sum(g["actions"] for g in games)
    ops: Counter = sum((g["ops"] for g in games), Counter())
    print(f"player actions: {actions}  ({actions / len(games):.0f} per game)")
    print(
        "DynamoDB per action: "
        + ", ".join(f"{op} {n / actions:.2f}" for op, n in ops.most_common())
    )
    print(f"  read units per action {sum(g['reads'] for g in games) / actions:.2f}, "
          f"write units per action {sum(g['writes'] for g in games) / actions:.2f}")  # fmt: skip
    print(f"largest message to one phone: {max(g['largest_message'] for g in games):,} bytes "
          f"(target <= 8 KB)")  # fmt: skip
    print(f"room item: {max(g['room_item_end'] for g in games):,} bytes stored at the end "
          f"(zlib; {max(g['room_json'] for g in games):,} bytes of JSON), "
          f"{max(g['room_item_max'] for g in games):,} at most (target <= 64 KB)")  # fmt: skip
    routes = sum((g["invocations"] for g in games), Counter())
    print("Lambda invocations per game: " + ", ".join(
        f"{route} {n / len(games):.0f}" for route, n in routes.most_common()))  # fmt: skip
    for route in ("message", "timer"):
        samples = [ms for g in games for ms in g["handler_ms"][route]]
        print(f"  {route}: estimated duration p50 {statistics.median(samples):.1f} ms, "
              f"p95 {statistics.quantiles(samples, n=20)[-1]:.1f} ms")  # fmt: skip
    costs = [cost(g) for g in games]
    print(f"AWS list-price cost of one 12-cat game ({GAME_MINUTES} min, {LAMBDA_MEMORY_GB * 1024:.0f}"
          f" MB arm64 Lambda):")  # fmt: skip
    for item in costs[0]:
        print(f"  {item:32s} ${statistics.fmean(c[item] for c in costs):.5f}")
    total = statistics.fmean(sum(c.values()) for c in costs)
    print(f"  {'total':32s} ${total:.5f}  (target <= $0.01)")
    metrics = alarm_metrics()
    fixed = metrics * PRICE["alarm_metric_month"]
    print(
        f"A month (docs/deploy.md): {metrics} alarm metrics ${fixed:.2f} "
        "(the free tier's first 10 not deducted), plus per game:"
    )
    for count in (10, 1_000, 100_000):
        print(f"  {count:>7,} games  ${fixed + count * total:,.2f}")


if __name__ == "__main__":
    main()
