"""Backend cost of whole games at a game's largest table through the real Lambda handlers
over moto.

    python bench/backend.py [--game KEY] [--games 3] [--json]        (part of: make bench)

Plays whole games (seeded deals, the game's bots' moves) through the handlers (tests/support/
moto_cloud.py) and records every AWS call per invocation (bench/recording.py): the
request units DynamoDB bills for it (bench/billing.py: from the item sizes), the
messages API Gateway bills, the bytes each invocation logs, the time it sleeps and its
own CPU time. Seats finishing a step together send their moves at once (threads), so
the conflict paths (a move refused on a step just ended, a room write retried) run as
they would. Each phone's heartbeat is
sampled during the game and scaled to a game at the table (GAME_MINUTES).

Prints figures (or, with --json, one JSON object); asserts nothing. The model and its
sources are in docs/performance.md ("How the bench prices a game").
"""

import argparse
import functools
import gzip
import json
import math
import os
import posixpath
import re
import statistics
import sys
import threading
import warnings
from collections import Counter
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ["POWERTOOLS_METRICS_DISABLED"] = "false"  # the EMF lines are logs CloudWatch bills
warnings.filterwarnings("ignore", message="No application metrics to publish")

from aws_lambda_powertools.metrics.provider.cloudwatch_emf.cloudwatch import (  # noqa: E402
    AmazonCloudWatchEMFProvider,
)

from bench.billing import (  # noqa: E402
    PRICE,
    SQS_CHUNK_BYTES,
    access_log_line_bytes,
    apigw_messages,
    heartbeat_minutes,
    heartbeat_when_idle,
    idle_heartbeats,
)
from bench.recording import (  # noqa: E402
    AWS_LOCK,
    LogCapture,
    Recorder,
    attributed_submit,
    joined_result,
)
from engine.game import Game  # noqa: E402
from engine.games import DEFAULT_GAME, GAMES, game_of  # noqa: E402
from engine.rng import Rng  # noqa: E402
from functions import connect, disconnect, message, timer  # noqa: E402
from functions.room_service.adapters import aws_client  # noqa: E402
from functions.room_service.entrypoints import lambda_app  # noqa: E402
from functions.room_service.service import game_handlers  # noqa: E402
from functions.room_service.service.commands import GAME_ACTIONS  # noqa: E402
from local_stack.template import Template  # noqa: E402
from tests.support.moto_cloud import moto_cloud  # noqa: E402
from tests.support.service_harness import result_of  # noqa: E402

TEMPLATE = Template.load()
ROUTES = {"connect": connect, "message": message, "disconnect": disconnect, "timer": timer}
FUNCTION_OF_ROUTE = {"connect": "ConnectFunction", "message": "MessageFunction",
                     "disconnect": "DisconnectFunction", "timer": "TimerFunction"}  # fmt: skip
#: A game at the table at its largest, with its default settings: bots play it in seconds.
GAME_MINUTES = 45
#: Real round trip assumed per AWS call inside a Lambda (moto's in-process time is not it);
#: posts run in parallel, PUSH_THREADS at a time.
REAL_CALL_MS = {"dynamodb": 6.0, "apigatewaymanagementapi": 12.0, "sqs": 10.0}
#: Lambda's own START, END and REPORT lines per invocation.
LAMBDA_PLATFORM_LOG_BYTES = 330
#: When this many seats or fewer have a move to make, they make it at once (threads): the
#: last voters of a vote, the two witches, the last cats to choose a place.
TOGETHER_AT_MOST = 3
#: Heartbeats are sampled every so many rounds of play: each phone pings once (with its
#: view's rev), and the mean ping is scaled to a game's heartbeats.
HEARTBEAT_SAMPLE_EVERY = 150
#: The unit of work's backoff after a conflict is billed in full but slept for this fraction.
REAL_SLEEP_FRACTION = 0.25
#: The middle seat's phone drops out for a while mid-game (its screen locked), then
#: comes back.
DROP_AT_MOVE, DROP_ROUNDS = 200, 30


@dataclass
class PlayedGame:
    seed: int
    recorder: Recorder
    #: The game played (engine/games.py) and its seats' names.
    rules: Game
    seats: list[str] = field(default_factory=list)
    moves: int = 0
    refused: int = 0
    together: int = 0  # moves sent at once with others
    room_json: int = 0
    #: The fake clock when the game started and ended, and when each phone sent a frame
    #: (its moves and the ping of its reconnection; not the sampled heartbeats).
    started: float = 0.0
    ended: float = 0.0
    sent: dict[str, list[float]] = field(default_factory=dict)
    extra: dict = field(default_factory=dict)


def play_one_game(seed: int, key: str = DEFAULT_GAME) -> PlayedGame:
    recorder = Recorder(aws_client.client)
    game = PlayedGame(seed, recorder, game_of(key))
    _shown.clear()
    same_deal = lambda: 7919 * (seed + 1)  # noqa: E731 (reproducible deals)
    logs = LogCapture()
    with ExitStack() as stack:
        cloud = stack.enter_context(moto_cloud())
        stack.enter_context(mock.patch.object(aws_client, "client", recorder.client))
        stack.enter_context(mock.patch.object(game_handlers, "new_game_key", same_deal))
        stack.enter_context(mock.patch.object(
            ThreadPoolExecutor, "submit", attributed_submit(ThreadPoolExecutor.submit)))  # fmt: skip
        stack.enter_context(mock.patch.object(Future, "result", joined_result(Future.result)))
        for name in ("add_metric", "flush_metrics"):  # one metric set, shared by threads
            stack.enter_context(_locked(AmazonCloudWatchEMFProvider, name))
        for route, module in ROUTES.items():
            stack.enter_context(mock.patch.object(module, "handler", _recorded(
                recorder, route, module.handler)))  # fmt: skip
        stack.enter_context(redirect_stdout(logs))
        handler = lambda_app.logger.logger_handler
        stream = handler.setStream(logs)
        stack.callback(handler.setStream, stream)
        stack.enter_context(mock.patch.object(lambda_app, "now", _ticking(cloud.clock)))
        names, tokens, code = cloud.table(game.rules.max_players, game=key)
        game.seats = names
        service = lambda_app.timer_service()
        # the unit of work's waits: billed in full, and their jitter seeded
        service.unit_of_work.sleep = functools.partial(
            recorder.sleep, real_fraction=REAL_SLEEP_FRACTION
        )
        service.unit_of_work.jitter = Random(seed).random
        game.started = cloud.clock.now
        _play(cloud, game, names, tokens, code, seed)
        game.ended = cloud.clock.now
        for name in names:
            cloud.disconnect(name)
        _deliver_every_timer(cloud)  # the host's and the seats' checks after they left
        with AWS_LOCK:
            game.room_json = len(service.current_room(code).model_dump_json())
    game.extra["unattributed_log_bytes"] = logs.outside
    return game


def _ticking(clock):
    """The fake clock, a microsecond later at each reading: views pushed at once are then
    ordered by their seq, as real clocks order them."""
    last = [0.0]

    def now() -> float:
        with AWS_LOCK:
            last[0] = max(clock.now, last[0] + 1e-6)
            return last[0]

    return now


def _locked(owner, name):
    original = getattr(owner, name)

    def locked(*args, **kwargs):
        with AWS_LOCK:
            return original(*args, **kwargs)

    return mock.patch.object(owner, name, locked)


def _recorded(recorder: Recorder, route: str, handler):
    def recorded(event, context):
        frame = event.get("body") or ""
        action = None
        if route == "message":
            try:
                action = json.loads(frame).get("action")
            except (ValueError, AttributeError):
                action = None
        return recorder.run(route, action, len(frame.encode()), lambda: handler(event, context))

    return recorded


def _play(cloud, game: PlayedGame, names: list[str], tokens: dict, code: str, seed: int) -> None:
    """Bots play until the game ends. One seat moves at a time, except when at most
    TOGETHER_AT_MOST seats have a move to make: those move at once, as the last players of
    a step do at a table. One phone drops out for a while mid-game."""
    rng = Rng(seed)
    dropped = names[len(names) // 2]
    away_since: int | None = None
    rounds = 0
    for rounds in range(20_000):
        if any(result_of(shown(cloud, name)["view"]) for name in names):
            return
        if rounds and rounds % HEARTBEAT_SAMPLE_EVERY == 0:
            _heartbeats(cloud, game, [n for n in names if n != dropped or away_since is None])
        if game.moves >= DROP_AT_MOVE and away_since is None and "dropped" not in game.extra:
            cloud.disconnect(dropped)
            game.extra["dropped"] = rounds
            away_since = rounds
        present = [n for n in names if n != dropped or away_since is None]
        ready = [
            (n, a) for n in present if (a := game.rules.bot_move(shown(cloud, n)["view"], rng))
        ]
        if away_since is not None and (rounds - away_since >= DROP_ROUNDS or not ready):
            cloud.reconnect(dropped, code, tokens[dropped])  # its seat and view back
            game.sent.setdefault(dropped, []).append(cloud.clock.now)
            away_since = None
            continue
        if not ready:
            if not cloud.fire_next_timer():
                raise AssertionError("stuck with no timer")
            continue
        group = ready if len(ready) <= TOGETHER_AT_MOST else ready[:1]
        _send_moves(cloud, game, group)
        cloud.clock.now += 0.5
    raise AssertionError(f"game {seed} did not finish in {rounds} rounds")


def shown(cloud, name: str) -> dict:
    """The view a phone shows: views pushed at once may arrive out of order, and the phone
    drops one older (by seq) than the one it shows (frontend/js/connection.js)."""
    messages = cloud.received(name)
    read, latest = _shown.get((id(cloud), name), (0, None))
    for pushed in messages[read:]:
        if pushed["type"] == "view" and (latest is None or pushed["seq"] >= latest["seq"]):
            latest = pushed
    _shown[(id(cloud), name)] = (len(messages), latest)
    return latest


_shown: dict[tuple[int, str], tuple[int, dict | None]] = {}


def _send_moves(cloud, game: PlayedGame, group: list[tuple[str, dict]]) -> None:
    before = {name: len(cloud.received(name)) for name, _ in group}
    barrier = threading.Barrier(len(group))
    failures: list[BaseException] = []

    def send(name: str, action: dict) -> None:
        action = dict(action)
        kind = action.pop("type")
        action.setdefault("step", shown(cloud, name)["view"].get("step"))  # the step it shows
        try:
            barrier.wait()
            cloud.send(name, action=kind, **action)
            if kind in game.rules.covered_moves:  # a cover follows it, as a real phone's does
                cloud.send(name, action="cover", step=action["step"])
        except BaseException as exc:  # a crashed thread must stop the bench, not vanish
            failures.append(exc)

    if len(group) == 1:
        send(*group[0])
    else:
        threads = [threading.Thread(target=send, args=item) for item in group]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        game.together += len(group)
    if failures:
        raise failures[0]
    game.moves += len(group)
    for name, _ in group:
        game.sent.setdefault(name, []).append(cloud.clock.now)
    for name, _ in group:
        # A move can come too late: another seat's move, or a deadline the move itself
        # resolved first (the backstop), ended its step. The phone shows the new step.
        game.refused += sum(m["type"] == "error" for m in cloud.received(name)[before[name] :])


def _heartbeats(cloud, game: PlayedGame, names: list[str]) -> None:
    """Each phone pings once, as its heartbeat does (with the rev of the view it shows)."""
    for name in names:
        count = len(game.recorder.invocations)
        rev = shown(cloud, name).get("rev")
        cloud.send(name, action="ping", **({"rev": rev} if rev else {}))
        for invocation in game.recorder.invocations[count:]:
            invocation.tags.add("heartbeat")


def _deliver_every_timer(cloud) -> None:
    cloud.clock.now += 901  # every delay SQS allows has passed
    for queued in sorted(cloud.queued_timers(), key=lambda m: m.delayed_until):
        cloud.deliver_timer(queued)


# == figures ================================================================================
def duration_ms(invocation) -> float:
    """What Lambda bills: the handler's own CPU time, the time it sleeps, and an assumed real
    round trip per AWS call: one after another in the handler's thread; alongside it in
    other threads (the longest thread counts); posts in waves of PUSH_THREADS."""
    mine = [c for c in invocation.calls if c.op != "post_to_connection" and c.in_handler_thread]
    alongside: Counter = Counter()
    for call in invocation.calls:
        if call.op != "post_to_connection" and not call.in_handler_thread:
            alongside[call.thread_id] += REAL_CALL_MS[call.service]
    waves = math.ceil(len(invocation.posts()) / aws_client.PUSH_THREADS)
    return (invocation.own_cpu_seconds * 1000 + invocation.slept_seconds * 1000
            + sum(REAL_CALL_MS[c.service] for c in mine) + max(alongside.values(), default=0)
            + waves * REAL_CALL_MS["apigatewaymanagementapi"])  # fmt: skip


@functools.cache
def memory_gb(route: str) -> float:
    return TEMPLATE.function(FUNCTION_OF_ROUTE[route]).memory_mb / 1024


@functools.cache
def traced(route: str) -> bool:
    """Whether Lambda records X-Ray traces (Tracing: Active). PassThrough records only
    requests that arrive sampled, and API Gateway WebSocket APIs send no trace header."""
    logical_id = FUNCTION_OF_ROUTE[route]
    props = {**TEMPLATE.globals_function, **TEMPLATE.resources[logical_id]["Properties"]}
    return props.get("Tracing") == "Active"


@functools.cache
def access_log_bytes() -> int:
    (stage,) = TEMPLATE.of_type("AWS::ApiGatewayV2::Stage").values()
    settings = stage["AccessLogSettings"]
    # Access logs are on where the account names API Gateway's CloudWatch role (the
    # template's Fn::If; make deploy's preflight sets one up): priced as on.
    settings = settings["Fn::If"][1] if "Fn::If" in settings else settings
    return access_log_line_bytes(settings["Format"])


def timer_bodies(invocation) -> list[list[str]]:
    """The bodies of each SQS send request (one, or a batch of up to 10) it makes."""
    sends = []
    for call in invocation.calls:
        if call.op == "send_message":
            sends.append([call.params["MessageBody"]])
        elif call.op == "send_message_batch":
            sends.append([entry["MessageBody"] for entry in call.params["Entries"]])
        elif call.service == "sqs":
            raise ValueError(f"bench/backend.py does not know how to price SQS {call.op}")
    return sends


def invocation_costs(invocation) -> dict[str, float]:
    """Every billed item of one invocation, in dollars, by service."""
    posts = invocation.posts()
    frames_in = 1 if invocation.route == "message" else 0
    messages = frames_in * apigw_messages(invocation.frame_bytes) + sum(
        apigw_messages(len(c.params["Data"])) for c in posts
    )
    sqs = sum(math.ceil(sum(len(b.encode()) for b in bodies) / SQS_CHUNK_BYTES) + 2 * len(bodies)
              for bodies in timer_bodies(invocation))  # a send; a receive and a delete each  # fmt: skip
    frames = 1 if invocation.route in ("connect", "message", "disconnect") else 0
    logs = invocation.log_bytes + LAMBDA_PLATFORM_LOG_BYTES + frames * access_log_bytes()
    billed_ms = math.ceil(duration_ms(invocation))
    return {
        "Lambda requests": PRICE["lambda_request"],
        "Lambda duration": billed_ms / 1000 * memory_gb(invocation.route)
        * PRICE["lambda_gb_second_arm"],
        "API Gateway messages": messages * PRICE["apigw_message_32kb"],
        "DynamoDB writes": sum(c.write_units for c in invocation.calls)
        * PRICE["dynamodb_write_unit"],
        "DynamoDB reads": sum(c.read_units for c in invocation.calls)
        * PRICE["dynamodb_read_unit"],
        "SQS requests": sqs * PRICE["sqs_request"],
        "CloudWatch Logs ingestion": logs / 1e9 * PRICE["log_ingestion_gb"],
        "X-Ray traces": PRICE["xray_trace_recorded"] if traced(invocation.route) else 0.0,
    }  # fmt: skip


def heartbeats_per_game(game: PlayedGame) -> float:
    """The pings of a game at the table (GAME_MINUTES). A phone that pings every interval:
    seats × GAME_MINUTES ÷ interval. A phone that pings only after an interval in which it
    sent nothing: the game's frames, its fake clock stretched to GAME_MINUTES, and the
    idle gaps of each phone counted."""
    interval = heartbeat_minutes() * 60
    if not heartbeat_when_idle():
        return len(game.seats) * GAME_MINUTES * 60 / interval
    stretch = GAME_MINUTES * 60 / (game.ended - game.started)
    return sum(
        idle_heartbeats([t * stretch for t in game.sent.get(name, [])],
                        game.started * stretch, game.ended * stretch, interval)
        for name in game.seats
    )  # fmt: skip


def summarise(game: PlayedGame) -> dict:
    invocations = game.recorder.invocations
    beats = [i for i in invocations if "heartbeat" in i.tags]
    played = [i for i in invocations if "heartbeat" not in i.tags]
    moves = [i for i in played if i.route == "message" and i.action in GAME_ACTIONS]
    heartbeats = heartbeats_per_game(game)
    costs: Counter = Counter()
    for invocation in played:
        costs.update(invocation_costs(invocation))
    per_beat: Counter = Counter()
    for invocation in beats:
        per_beat.update(invocation_costs(invocation))
    for item, dollars in per_beat.items():
        costs[item] += dollars / len(beats) * heartbeats
    seats = len(game.seats)
    costs["API Gateway connection minutes"] = (
        seats * GAME_MINUTES * PRICE["apigw_connection_minute"]
    )
    requests, client_bytes = phone_load()
    costs[f"CloudFront (client, {seats} phones)"] = seats * (
        requests * PRICE["cloudfront_https_request"]
        + client_bytes / 1e9 * PRICE["cloudfront_data_out_gb"]
    )
    posts = [c for i in played for c in i.posts()]
    beat_posts = [c for i in beats for c in i.posts()]
    out_bytes = sum(len(c.params["Data"]) for c in posts) + heartbeats * sum(
        len(c.params["Data"]) for c in beat_posts
    ) / max(1, len(beats))
    messages = sum(
        (1 if i.route == "message" else 0) + len(i.posts()) for i in played
    ) + heartbeats * (len(beats) + len(beat_posts)) / max(1, len(beats))
    store_calls = [i.store_calls_before_first_post() for i in moves]
    ending = [i.store_calls_before_first_post() for i in moves if i.writes_room()]
    within = [i.store_calls_before_first_post() for i in moves if not i.writes_room()]
    game_calls = [c for i in played for c in i.dynamodb()]
    ops = Counter(c.op for i in moves for c in i.dynamodb())
    return {
        "seed": game.seed,
        "moves": len(moves),
        "moves_together": game.together,
        "moves_refused": game.refused,
        "invocations": dict(Counter(i.route for i in played)),
        "heartbeats_modeled": heartbeats,
        "fake_game_seconds": game.ended - game.started,
        "messages": messages,
        "data_out_bytes": out_bytes,
        "largest_message": max(len(c.params["Data"]) for c in posts),
        "store_calls_per_move": store_calls,
        "store_calls_ending": ending,
        "store_calls_within": within,
        "write_units": sum(c.write_units for c in game_calls),
        "read_units": sum(c.read_units for c in game_calls),
        "dynamodb_ops_per_move": {op: n / len(moves) for op, n in ops.most_common()},
        "failed_writes": sum(c.failed for c in game_calls),
        # the concurrent paths: a move that waited (a backoff after a conflict:
        # failed_writes, such as a move refused on a step another seat just ended)
        "waited": sum(i.slept_seconds > 0 for i in moves),
        "timers_sent": dict(
            Counter(
                json.loads(body)["kind"]
                for i in played
                for bodies in timer_bodies(i)
                for body in bodies
            )
        ),
        "slept_ms": sum(i.slept_seconds for i in played) * 1000,
        "duration_ms": [duration_ms(i) for i in played],
        "move_duration_ms": [duration_ms(i) for i in moves],
        "log_bytes": sum(i.log_bytes for i in played),
        "room_json": game.room_json,
        "room_item": [size for i in invocations for size in i.room_item_sizes()],
        "costs": dict(costs),
        "data_out_if_billed": out_bytes / 1e9 * PRICE["data_out_gb"],
        "cost": sum(costs.values()),
    }


#: What a page or a module makes the browser fetch before it runs: the page's scripts and
#: styles, a module's static imports (``import … from "x"``, ``import "x"``). A dynamic
#: ``import("x")`` (js/replay.js: only a phone that asks for a replay) is not one.
_PAGE_LINKS = re.compile(r'(?:src|href)="([^"#:]+\.(?:js|mjs|css))"')
_STATIC_IMPORTS = re.compile(r"""^\s*(?:import|export)\b[^;()]*?["']([^"']+\.m?js)["']""", re.M)


@functools.cache
def phone_load() -> tuple[int, int]:
    """(requests, bytes) of a phone opening the game (``phone_files``), gzip-compressed, as
    CloudFront sends them."""
    files = phone_files()
    return len(files), sum(len(gzip.compress(body)) for body in files.values())


def phone_files() -> dict[str, bytes]:
    """What a phone opening the game fetches, by key: the page, config.json, the English
    strings, and the scripts and styles it loads before it runs (the page's, and every
    module's static imports, followed). Pages a phone in a game does not open (rules, the
    replay viewer) and modules loaded only on demand are not in it."""
    from deploy.frontend import uploads

    files = {u.key: u.body for u in uploads("wss://example")}
    strings = next(key for key in files if key.endswith("/i18n/en.json"))
    loaded, todo = {"index.html", "config.json", strings}, ["index.html"]
    while todo:
        key = todo.pop()
        if key.endswith(".css"):
            continue
        text = files[key].decode("utf-8", "replace")
        pattern = _PAGE_LINKS if key.endswith(".html") else _STATIC_IMPORTS
        for link in pattern.findall(text):
            found = posixpath.normpath(posixpath.join(posixpath.dirname(key), link))
            if found in files and found not in loaded:
                loaded.add(found)
                todo.append(found)
    return {key: files[key] for key in sorted(loaded)}


def mean_max(values: list[float]) -> dict[str, float]:
    return {"mean": round(statistics.fmean(values), 3), "max": max(values)} if values else {}


def report(games: list[dict]) -> dict:
    moves = sum(g["moves"] for g in games)
    every = lambda key: [v for g in games for v in g[key]]  # noqa: E731
    items = list(games[0]["costs"])
    return {
        "games": len(games),
        "cost_per_game_mean": round(statistics.fmean(g["cost"] for g in games), 5),
        "cost_per_game_max": round(max(g["cost"] for g in games), 5),
        "messages_per_game": round(statistics.fmean(g["messages"] for g in games)),
        "store_calls_per_move": mean_max(every("store_calls_per_move")),
        "store_calls_per_move_ending_step": mean_max(every("store_calls_ending")),
        "store_calls_per_move_within_step": mean_max(every("store_calls_within")),
        "write_units_per_move": round(sum(g["write_units"] for g in games) / moves, 3),
        "read_units_per_move": round(sum(g["read_units"] for g in games) / moves, 3),
        "moves_per_game": [g["moves"] for g in games],
        "moves_together_per_game": [g["moves_together"] for g in games],
        "moves_refused_per_game": [g["moves_refused"] for g in games],
        "failed_conditional_writes_per_game": [g["failed_writes"] for g in games],
        "moves_that_waited_per_game": [g["waited"] for g in games],
        "timers_sent_per_game": [g["timers_sent"] for g in games],
        "dynamodb_calls_per_move": {
            op: round(statistics.fmean(g["dynamodb_ops_per_move"].get(op, 0) for g in games), 3)
            for op in sorted({op for g in games for op in g["dynamodb_ops_per_move"]})
        },
        "largest_message_bytes": max(g["largest_message"] for g in games),
        "room_json_bytes": max(g["room_json"] for g in games),
        "room_item_bytes": {
            "end": max(g["room_item"][-1] for g in games),
            "max": max(max(g["room_item"]) for g in games),
        },
        "move_duration_ms": {
            "p50": round(statistics.median(every("move_duration_ms")), 1),
            "p95": round(statistics.quantiles(every("move_duration_ms"), n=20)[-1], 1),
        },
        "breakdown_per_game": {
            item: round(statistics.fmean(g["costs"][item] for g in games), 6) for item in items
        },
        "data_out_per_game_bytes": round(statistics.fmean(g["data_out_bytes"] for g in games)),
        "data_out_per_game_if_billed": round(
            statistics.fmean(g["data_out_if_billed"] for g in games), 6
        ),
        "assumptions": {
            "game_minutes": GAME_MINUTES,
            "heartbeat_minutes": heartbeat_minutes(),
            "heartbeat_when_idle": heartbeat_when_idle(),
            "heartbeats_per_game": [round(g["heartbeats_modeled"], 1) for g in games],
            "bots_game_seconds": [round(g["fake_game_seconds"]) for g in games],
            "lambda_memory_mb": {r: round(memory_gb(r) * 1024) for r in ROUTES},
            "xray_traced": {r: traced(r) for r in ROUTES},
            "real_call_ms": REAL_CALL_MS,
            "together_at_most": TOGETHER_AT_MOST,
        },
    }


def print_text(figures: dict, key: str) -> None:
    print(f"backend benchmark — {figures['games']} whole games of {key} at "
          f"{game_of(key).max_players} seats through the handlers "
          f"on moto (moves: {figures['moves_per_game']}, of which sent together: "
          f"{figures['moves_together_per_game']})")  # fmt: skip
    print(f"cost of one game: mean ${figures['cost_per_game_mean']:.5f}, "
          f"max ${figures['cost_per_game_max']:.5f}")  # fmt: skip
    for item, dollars in figures["breakdown_per_game"].items():
        print(f"  {item:32s} ${dollars:.5f}")
    print(f"  (data out, not billed for WebSocket APIs: {figures['data_out_per_game_bytes']:,}"
          f" bytes, ${figures['data_out_per_game_if_billed']:.5f} if it were)")  # fmt: skip
    print(f"API Gateway messages per game: {figures['messages_per_game']:,}")
    for key in ("store_calls_per_move", "store_calls_per_move_ending_step",
                "store_calls_per_move_within_step"):  # fmt: skip
        print(f"{key}: {figures[key]}")
    print(f"DynamoDB per move: write units {figures['write_units_per_move']}, read units "
          f"{figures['read_units_per_move']}; calls {figures['dynamodb_calls_per_move']}")  # fmt: skip
    print(f"refused moves {figures['moves_refused_per_game']}, failed conditional writes "
          f"{figures['failed_conditional_writes_per_game']}, moves that waited "
          f"{figures['moves_that_waited_per_game']}, timers sent "
          f"{figures['timers_sent_per_game']}")  # fmt: skip
    print(f"largest message {figures['largest_message_bytes']:,} bytes; room item "
          f"{figures['room_item_bytes']} bytes stored ({figures['room_json_bytes']:,} bytes of "
          f"JSON); move duration {figures['move_duration_ms']}")  # fmt: skip
    print(f"assumptions: {figures['assumptions']}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default=DEFAULT_GAME, choices=sorted(GAMES),
                        help="the game played (default: %(default)s)")  # fmt: skip
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    games = [summarise(play_one_game(seed, args.game)) for seed in range(args.games)]
    figures = report(games)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print_text(figures, args.game)


if __name__ == "__main__":
    main()
