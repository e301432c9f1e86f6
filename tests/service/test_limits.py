"""Limits that hold across containers.

Each test reproduces one finding made against the local stack, with the old code's
result in its docstring: the per-connection bucket lived in each container's memory,
nothing counted per source address. Two RoomService instances over one store play two
warm Lambda containers. The clock is injected; nothing sleeps. Run with ``-s`` to see
the figures (docs/security.md quotes them).
"""

import bisect
import json
import random
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from unittest import mock

import pytest

from events.generate import websocket_event
from functions import connect, disconnect, message
from functions.room_service.adapters import aws_client
from functions.room_service.adapters.apigateway import ApiGatewayPusher
from functions.room_service.adapters.dynamodb import DynamoConnections, DynamoRoomStore
from functions.room_service.adapters.memory import MemoryMetrics
from functions.room_service.adapters.ratelimit import (
    ADDRESS_PACE,
    CONNECTION_LIFETIME_SECONDS,
    CONNECTION_PACE,
    CONNECTS_PER_IP_PER_MINUTE,
    JOIN_ATTEMPTS_PER_IP_PER_HOUR,
    OPEN_CONNECTIONS_PER_IP,
    QUIET_PACE,
    ROOMS_PER_IP_PER_HOUR,
)
from functions.room_service.adapters.sqs import SqsTimers
from functions.room_service.service.room_service import Ports, Refused, RoomService
from tests.support.moto_cloud import CONTEXT, moto_cloud
from tests.support.service_harness import Harness, as_a_phone_sends

VENUE = "198.51.100.7"  # one table's phones behind the venue's NAT
ELSEWHERE = "203.0.113.99"
PING = json.dumps({"action": "ping"})


def second_container(h: Harness) -> RoomService:
    """Another warm container: its own memory, the same table."""
    return RoomService(h.service.ports, clock=h.clock, sleep=lambda seconds: None)


def error_codes(h: Harness, connection: str) -> list[str]:
    return [m["code"] for m in h.messages(connection) if m["type"] == "error"]


def answered(message: dict) -> bool:
    """A ping processed: answered by a pong, or by the phone's view (a ping without a
    ``rev`` always gets it), which stands for the pong (one message, not two)."""
    return message["type"] in ("pong", "view")


def burst(containers: list[RoomService], connection: str, frames: int, body: str) -> None:
    for i in range(frames):
        containers[i % len(containers)].message(connection, body)


def ping_at(containers: list[RoomService], h: Harness, connection: str, times: list[float],
            source_ip: str | None = None, waited: float = 0.0) -> list[float]:  # fmt: skip
    """One ping from ``connection`` at each of ``times`` (in order), round robin over the
    containers, each run ``waited`` after it was sent: the times of those processed (answered
    by a pong or a view; a refused one gets an error or, within a second of the last
    one told, nothing)."""
    processed = []
    for i, at in enumerate(times):
        h.clock.now = at + waited
        before = sum(map(answered, h.messages(connection)))
        containers[i % len(containers)].message(connection, PING, source_ip, waited)
        if sum(map(answered, h.messages(connection))) > before:
            processed.append(at)
    return processed


def most_in_any(times: list[float], seconds: float) -> int:
    """The most of ``times`` in any window of ``seconds``, its ends included."""
    ordered = sorted(times)
    return max((bisect.bisect_right(ordered, t + seconds) - i for i, t in enumerate(ordered)),
               default=0)  # fmt: skip


def test_a_burst_spread_over_two_containers_gets_one_connection_pace():
    """Old code: each container allowed its own burst of 30 (60 of 200 here; 140 of 200
    on the local stack, spread over time and containers)."""
    h = Harness()
    h.table(["Ann", "Bo", "Cy", "Di"])
    h.clock.now += 10  # Cy's join is long caught up
    before = len(h.messages("Cy"))
    burst([h.service, second_container(h)], "Cy", 200, PING)
    answers = h.messages("Cy")[before:]
    limited = [m for m in answers if m.get("code") == "rate_limited"]
    processed = sum(map(answered, answers))
    print(f"\n200-frame burst over 2 containers: {processed} processed, "
          f"{h.metrics.counts['RateLimited']} refused ({len(limited)} told)")  # fmt: skip
    assert processed == CONNECTION_PACE.burst == 26
    assert h.metrics.counts["RateLimited"] == 200 - 26
    assert len(limited) == 2, "told once in the second by each container, not 174 times"
    h.send("Ann", action="ping")  # the others are not slowed
    assert error_codes(h, "Ann") == []
    h.clock.now += 1  # a second later: 4 more
    assert len(ping_at([h.service], h, "Cy", [h.clock.now] * 10)) == CONNECTION_PACE.per_second


def test_no_second_and_no_minute_holds_more_than_the_pace_however_frames_spread():
    """A burst of 200 pings on the local stack had up to 64 processed within one
    second (fixed windows: 30 at the end of one second and 30 at the start of the next,
    restarted late by racing containers). Now at most 30 in ANY second and 300 in any
    minute, over three containers. Old code: 60 in the second that straddles a boundary."""
    h = Harness()
    h.table(["Ann", "Bo", "Cy", "Di"])
    containers = [h.service, second_container(h), second_container(h)]
    start = int(h.clock.now) + 10.5  # half a second before a whole second
    hundred_a_second = [start + i / 100 for i in range(300)]
    processed = ping_at(containers, h, "Cy", hundred_a_second)
    print(f"\n100 pings a second for 3 s over 3 containers: {len(processed)} processed, "
          f"at most {most_in_any(processed, 1)} in any second")  # fmt: skip
    assert most_in_any(processed, 1) <= CONNECTION_PACE.most_in(1) == 30
    assert most_in_any(processed, 1) == 30, "the pace itself is let through"
    start = processed[-1] + 60
    twenty_a_second = [start + i / 20 for i in range(20 * 120)]
    processed = ping_at(containers, h, "Cy", twenty_a_second)
    print(f"20 pings a second for 2 minutes: at most {most_in_any(processed, 60)} in any minute")
    assert most_in_any(processed, 60) <= CONNECTION_PACE.most_in(60) == 266 < 300


def test_frames_that_waited_for_a_container_are_judged_by_when_they_were_sent():
    """On the local stack a flood queued for the Lambda workers and reached the handler
    spread out, under the limit (1,440 pings, 25 refused): judged by when each was run, a
    queue let a flood through. Now by when API Gateway received it (``waited``), in any
    order and on any container: at most 30 of any second of sending still pass."""
    h = Harness()
    h.table(["Ann", "Bo", "Cy", "Di"])
    containers = [h.service, second_container(h), second_container(h)]
    start = h.clock.now + 10
    sent = [start + i / 60 for i in range(240)]  # 60 a second for 4 s
    rng = random.Random(37)
    shuffled = rng.sample(sent, len(sent))  # run out of order, each up to 3 s late
    processed = []
    for i, at in enumerate(shuffled):
        late = rng.uniform(0, 3)
        processed += ping_at([containers[i % 3]], h, "Cy", [at], waited=late)
    print(f"\n240 pings sent in 4 s, run out of order up to 3 s late: {len(processed)} "
          f"processed, at most {most_in_any(processed, 1)} sent in any second")  # fmt: skip
    assert most_in_any(processed, 1) <= 30
    assert len(processed) <= CONNECTION_PACE.most_in(4)


def test_a_flood_of_covers_meets_the_pace_in_its_container_and_asks_no_table():
    """A cover asks nothing and reaches no table: it is paced in its container's
    memory alone, so a flood of covers is refused there, with no DynamoDB call, and a ping
    after it is refused too."""
    h = Harness()
    h.table(["Ann", "Bo", "Cy", "Di"])
    h.clock.now += 10
    calls = h.connections.calls
    for _ in range(40):
        h.send("Cy", action="cover", step=1)
    assert h.connections.calls == calls, "no cover asked the table"
    assert h.metrics.counts["RateLimited"] == 40 - CONNECTION_PACE.burst
    assert error_codes(h, "Cy")[-1:] == ["rate_limited"], "told once"
    before = len(h.messages("Cy"))
    h.send("Cy", action="ping")
    assert h.messages("Cy")[before:] == [], "refused, and not told again so soon"
    assert h.connections.calls == calls


def flood(h: Harness, containers: list[RoomService], flooders: dict[str, str], seconds: float,
          per_second: int, other: str) -> dict[str, int]:  # fmt: skip
    """Each flooder (connection → source address) pings ``per_second`` for ``seconds``,
    evenly, over the containers; ``other``, a phone in another room at another address,
    pings every quarter of a second meanwhile. What was processed, refused, asked of the
    table."""
    start = h.clock.now
    frames = sorted((start + i / per_second + j / (per_second * len(flooders)), connection)
                    for i in range(int(seconds * per_second))
                    for j, connection in enumerate(flooders))  # fmt: skip
    frames += [(start + i / 4, other) for i in range(int(seconds * 4))]
    counts = {"processed": 0, "other_processed": 0, "other_sent": 0}
    for i, (at, connection) in enumerate(sorted(frames)):
        h.clock.now = at
        before = sum(map(answered, h.messages(connection)))
        containers[i % len(containers)].message(
            connection, PING, flooders.get(connection, ELSEWHERE)
        )
        done = sum(map(answered, h.messages(connection))) > before
        if connection == other:
            counts["other_sent"] += 1
            counts["other_processed"] += done
        else:
            counts["processed"] += done
    return counts


def seated_flood(addresses: list[str]) -> tuple[Harness, list[RoomService], dict[str, str]]:
    """12 seated phones (their own room) flooding from ``addresses`` (round robin), Ann in
    another room, four warm containers."""
    h = Harness()
    names = [f"F{i}" for i in range(12)]
    h.table(names)
    flooders = {name: addresses[i % len(addresses)] for i, name in enumerate(names)}
    other = Harness(store=h.store, connections=h.connections, pusher=h.pusher)
    other.clock = h.clock
    other.service = RoomService(h.service.ports, clock=h.clock, sleep=lambda seconds: None)
    other.table(["Ann", "Bo", "Cy", "Di"])
    h.clock.now += 10
    containers = [h.service] + [second_container(h) for _ in range(3)]
    return h, containers, flooders


def test_twelve_connections_from_one_address_are_held_to_the_address_pace():
    """12 connections at 30 pings a second for 4 s (1,440 pings, every limit then
    respected) took a phone in another room from 20 ms to 1,525 ms on the local stack.
    From ONE address, now: past each connection's quiet share, its frames count against the
    address (100 a second, 100 at once); the other room's every ping is answered.
    (bench/flood.py measures the latency itself on the local stack.)"""
    h, containers, flooders = seated_flood([VENUE])
    counts = flood(h, containers, flooders, seconds=4, per_second=30, other="Ann")
    quiet = 12 * QUIET_PACE.most_in(4)
    print(f"\n12 connections x 30 pings/s x 4 s from one address: {counts['processed']} of "
          f"1440 processed (quiet share {quiet} + address pace {ADDRESS_PACE.most_in(4)}); "
          f"the other room: {counts['other_processed']}/{counts['other_sent']}; "
          f"refused: {h.metrics.counts.get('RateLimited', 0)} by their connections, "
          f"{h.metrics.counts.get('MessagesPerAddressLimited', 0)} by their address")  # fmt: skip
    assert counts["other_processed"] == counts["other_sent"] == 16
    assert counts["processed"] <= quiet + ADDRESS_PACE.most_in(4)
    assert h.metrics.counts["MessagesPerAddressLimited"] > 1300


def test_twelve_addresses_are_held_to_their_connections_and_addresses_paces():
    """The issue's 12-address variant: each address has one connection, held by its own
    pace and, past its quiet share, by its address's (13 at once); the other room's every
    ping is answered."""
    h, containers, flooders = seated_flood([f"198.51.100.{i}" for i in range(12)])
    counts = flood(h, containers, flooders, seconds=4, per_second=30, other="Ann")
    one = min(CONNECTION_PACE.most_in(4), QUIET_PACE.most_in(4) + ADDRESS_PACE.most_in(4))
    print(f"\n12 connections x 30 pings/s x 4 s from 12 addresses: {counts['processed']} of "
          f"1440 processed (at most {one} each); the other room: "
          f"{counts['other_processed']}/{counts['other_sent']}")  # fmt: skip
    assert counts["other_processed"] == counts["other_sent"]
    assert counts["processed"] <= 12 * one


def test_a_refused_frame_costs_far_less_than_a_processed_one():
    """A refused frame is refused from the container's memory (its dues only move on, so
    what it saw last already puts the frame over): no table call, no post. Counted: the
    table calls (what DynamoDB would be asked) and the posts of the one-address flood."""
    h, containers, flooders = seated_flood([VENUE])
    calls, posts = h.connections.calls, len(h.pusher.pushes)
    counts = flood(h, containers, flooders, seconds=4, per_second=30, other="Ann")
    refused = 1440 - counts["processed"]
    table_calls = h.connections.calls - calls
    pushes = len(h.pusher.pushes) - posts
    processed = counts["processed"] + counts["other_processed"]
    refused_calls = table_calls - processed  # every processed frame makes one or two
    print(f"\none-address flood: {refused} refused with {max(0, refused_calls)} table calls "
          f"and {pushes - processed} posts among them; {processed} processed with "
          f"{table_calls} table calls in all")  # fmt: skip
    assert refused > 900
    # Four containers: one that did not see a frame let through elsewhere asks the table
    # once, then knows (about one refused frame in seven here).
    assert table_calls <= 2 * processed + 0.2 * refused, "a refused frame seldom asks the table"
    told = pushes - processed
    assert told <= 12 * len(containers) * 4, "each connection told at most once a second in each"


def test_open_connections_per_address_are_capped_and_given_back():
    """Each connection brings budgets of its own: an address holds at most 100 open ones
    (a few tables' worth); 429 after, a closed one gives its place back, another address
    is not affected. (The connect window, 60 a minute, is met first within a minute.)"""
    h = Harness()
    opened = []
    for i in range(OPEN_CONNECTIONS_PER_IP + 5):
        h.clock.now += 1.1  # 55 a minute: under the connect window
        try:
            h.service.connect(f"open-{i}", VENUE)
            opened.append(f"open-{i}")
        except Refused as refused:
            assert refused.status == 429 and "open connections" in str(refused)
    assert len(opened) == OPEN_CONNECTIONS_PER_IP == 100
    assert h.metrics.counts["ConnectionsPerAddressLimited"] == 5
    h.service.connect("neighbour", ELSEWHERE)
    h.service.disconnect("open-7", VENUE)
    h.service.connect("in-its-place", VENUE)
    with pytest.raises(Refused):
        h.service.connect("one-more", VENUE)


def test_places_a_lost_disconnect_left_are_given_up_after_a_connections_lifetime():
    """$disconnect is best effort: a place it never gave back is given up once older than
    any connection lives (API Gateway closes them at 2 hours)."""
    h = Harness()
    for i in range(OPEN_CONNECTIONS_PER_IP):
        h.service.connect(f"lost-{i}", VENUE)
        h.clock.now += 1.1
    with pytest.raises(Refused):
        h.service.connect("too-soon", VENUE)
    h.clock.now += CONNECTION_LIFETIME_SECONDS - 60
    h.service.connect("later", VENUE)  # the oldest places are given up


def test_fresh_connections_from_one_address_are_refused_past_the_connect_budget():
    """Old code: 20 fresh connections × 30 frames, never refused (every new connection
    brought a new bucket). Now the address gets 60 connections a minute (HTTP 429 after),
    so at most 60 fresh budgets; another address is not affected."""
    h = Harness()
    statuses = []
    for i in range(100):
        try:
            h.service.connect(f"fresh-{i}", VENUE)
            statuses.append(200)
        except Refused as refused:
            statuses.append(refused.status)
    print(f"\n100 connects from one address in a minute: {statuses.count(200)} accepted, "
          f"{statuses.count(429)} refused (429)")  # fmt: skip
    assert statuses == [200] * CONNECTS_PER_IP_PER_MINUTE + [429] * 40
    h.service.connect("neighbour", ELSEWHERE)  # no error
    h.clock.now += 60
    h.service.connect("next-minute", VENUE)


def test_room_creation_from_one_address_stops_at_the_hourly_cap():
    """Old code: one connection created 150 rooms in 17.5 s."""
    h = Harness()
    h.table(["Ann", "Bo", "Cy", "Di"])  # a game elsewhere (no address: not counted)
    codes = []
    for i in range(150):
        h.clock.now += 0.12
        h.service.message(f"maker-{i}", json.dumps({"action": "create_room", "name": "Zed"}),
                          VENUE)  # fmt: skip
        joined = h.pusher.last(f"maker-{i}", "joined")
        codes.append(joined["room"] if joined else error_codes(h, f"maker-{i}")[-1])
    created = [c for c in codes if c != "too_many_rooms"]
    print(f"\n150 room creations from one address: {len(created)} created, "
          f"{len(codes) - len(created)} refused (too_many_rooms)")  # fmt: skip
    assert len(created) == ROOMS_PER_IP_PER_HOUR == len(set(created))
    assert codes[ROOMS_PER_IP_PER_HOUR:] == ["too_many_rooms"] * (150 - ROOMS_PER_IP_PER_HOUR)
    refusal = h.pusher.last("maker-149", "error")["message"]
    assert refusal.startswith(
        f"Too many rooms created from your network: at most {ROOMS_PER_IP_PER_HOUR}"
    )
    h.service.message("other-net", json.dumps({"action": "create_room", "name": "Yu"}), ELSEWHERE)
    assert h.pusher.last("other-net", "joined")
    h.send("Ann", action="start")  # the game elsewhere goes on
    assert error_codes(h, "Ann") == []
    h.clock.now += 3600  # the next hour
    h.service.message("maker-next", json.dumps({"action": "create_room", "name": "Zed"}), VENUE)
    assert h.pusher.last("maker-next", "joined")


def probe(h: Harness, attempts: int, seconds: float, connections: int) -> list[str]:
    """``attempts`` joins with wrong codes from one address, evenly over ``seconds``, round
    robin over ``connections``: what each was told ("not told": a refusal within seconds
    of the last one told)."""
    answers = []
    for i in range(attempts):
        h.clock.now += seconds / attempts
        prober = f"probe-{i % connections}"
        told = len(h.messages(prober))
        h.service.message(prober, json.dumps({"action": "join", "room": f"{i:04d}", "name": "Zed"}),
                          VENUE)  # fmt: skip
        new = error_codes(h, prober)[told:] if len(h.messages(prober)) > told else []
        answers.append(new[0] if new else "not told")
    return answers


def test_join_attempts_from_one_address_stop_at_the_hourly_cap():
    """Old code: 20 connections probed 603 room codes in 3.9 s (200 tried). Now
    that pace is over the address's pace (155 frames a second): fewer are tried. A prober
    within its connections' quiet shares (15 a second) meets the join cap: 200 tried, then
    too_many_joins."""
    h = Harness()
    h.table(["Ann", "Bo", "Cy", "Di"])
    answers = probe(h, 603, 3.9, 20)
    tried = answers.count("cannot_join")
    print(f"\n603 join attempts from one address in 3.9 s: {tried} tried, the rest refused by "
          f"the address's pace")  # fmt: skip
    assert tried <= 20 * QUIET_PACE.most_in(3.9) + ADDRESS_PACE.most_in(3.9)
    assert set(answers) == {"cannot_join", "rate_limited", "not told"}
    h = Harness()
    h.table(["Ann", "Bo", "Cy", "Di"])
    answers = probe(h, 603, 40, 20)
    tried, capped = answers.count("cannot_join"), answers.count("too_many_joins")
    print(f"603 in 40 s: {tried} tried, {capped} refused (too_many_joins)")
    assert tried == JOIN_ATTEMPTS_PER_IP_PER_HOUR
    assert answers == ["cannot_join"] * tried + ["too_many_joins"] * (603 - tried)
    h.service.message("friend", json.dumps({"action": "join", "room": h.code, "name": "Eve"}),
                      ELSEWHERE)  # fmt: skip
    assert h.pusher.last("friend", "joined")


def test_a_real_party_behind_one_address_never_meets_a_limit():
    """Two tables of 12 behind one NAT, every phone reconnecting twice, a typo in the
    code before every join, a third room: no limit met. (Rematches reuse their room and
    are messages: no per-address count.)"""
    h = Harness()
    refusals = {"rate_limited", "too_many_rooms", "too_many_joins"}
    for table in range(2):
        names = [f"T{table}P{i}" for i in range(12)]
        for name in names:
            h.service.connect(name, VENUE)
        h.service.message(names[0], json.dumps({"action": "create_room", "name": names[0]}),
                          VENUE)  # fmt: skip
        code = h.pusher.last(names[0], "joined")["room"]
        for name in names[1:]:
            h.clock.now += 2  # a typo in the code first
            h.service.message(name, json.dumps({"action": "join", "room": "ZZZZ", "name": name}),
                              VENUE)  # fmt: skip
            h.service.message(name, json.dumps({"action": "join", "room": code, "name": name}),
                              VENUE)  # fmt: skip
        token = {n: h.pusher.last(n, "joined")["token"] for n in names}
        for again in range(2):  # the Wi-Fi drops everyone, twice
            h.clock.now += 20
            for name in names:
                h.resume(f"{name}-{again}", code, token[name], VENUE)
                h.service.message(f"{name}-{again}", json.dumps({"action": "ping"}), VENUE)
        assert all(not refusals & set(error_codes(h, c)) for c in h.pusher.sent), table
    h.service.connect("late", VENUE)
    h.service.message("late", json.dumps({"action": "create_room", "name": "Late"}), VENUE)
    assert h.pusher.last("late", "joined")
    assert all(not refusals & set(error_codes(h, c)) for c in h.pusher.sent)


class VenueHarness(Harness):
    """Every phone behind the venue's one address."""

    def send(self, connection: str, **message) -> None:
        last = self.pusher.last(connection)
        framed = as_a_phone_sends(message, last and last["view"], self.code)
        self.service.message(connection, json.dumps(framed), VENUE)


def test_a_whole_game_of_twelve_behind_one_address_meets_no_limit():
    """A table plays at a table's pace (a move every half second, some seat's): every frame
    of every phone stays within its quiet share; nothing counts against the address."""
    h = VenueHarness()
    names = [f"P{i}" for i in range(12)]
    h.table(names)
    h.send(names[0], action="start")
    assert h.play_with_bots(names, seed=3)  # asserts that no move is refused
    limited = {"RateLimited", "MessagesPerAddressLimited", "AddressLimited"}
    assert not limited & set(h.metrics.counts), h.metrics.counts


# == the same through the handlers and DynamoDB (moto): the expressions really run ==========
def aws_container() -> RoomService:
    from functions.room_service.entrypoints import lambda_app

    ports = Ports(store=DynamoRoomStore(), connections=DynamoConnections(),
                  pusher=ApiGatewayPusher("https://abc123.execute-api.eu-west-1.amazonaws.com/prod"),
                  timers=SqsTimers(), metrics=MemoryMetrics())  # fmt: skip
    return RoomService(ports, clock=lambda: lambda_app.now(), sleep=lambda seconds: None)


@pytest.fixture
def cloud():
    with moto_cloud() as cloud:
        yield cloud


@contextmanager
def dynamodb_calls() -> Iterator[Counter]:
    """The DynamoDB calls made meanwhile, by operation (botocore's event hook)."""
    calls: Counter = Counter()
    events = aws_client.client("dynamodb").meta.events

    def count(model, **_):
        calls[model.name] += 1

    events.register("before-call.dynamodb", count)
    try:
        yield calls
    finally:
        events.unregister("before-call.dynamodb", count)


def test_dynamodb_a_burst_over_two_containers_gets_one_pace(cloud):
    cloud.table(4)
    cloud.clock.now += 10
    before = len(cloud.received("Cat3"))
    containers = [aws_container(), aws_container()]
    with dynamodb_calls() as calls:
        burst(containers, "Cat3", 200, PING)
    answers = cloud.received("Cat3")[before:]
    limited = sum(m.get("code") == "rate_limited" for m in answers)
    processed = sum(answered(m) for m in answers)
    print(f"\nDynamoDB: 200-frame burst over 2 containers: {processed} processed, "
          f"{200 - processed} refused ({limited} told); {dict(calls)}")  # fmt: skip
    assert (processed, limited) == (26, 2)
    # each processed ping: its connection's write and its room's read; the second
    # container's first write guessed the connection caught up and was retried (its
    # failure returns the item); the first refusal in each container asks the table (a
    # failed conditional write), the others nothing
    assert calls == {"UpdateItem": 26 + 1 + 2, "Query": 26}
    pongs = sum(answered(m) for m in cloud.received("Cat1"))
    cloud.send("Cat1", action="ping")  # through the handler, a third container
    assert sum(answered(m) for m in cloud.received("Cat1")) == pongs + 1
    cloud.clock.now += 1  # a second later: 4 more, whichever container judges them
    before = len(cloud.received("Cat3"))
    burst(containers, "Cat3", 40, PING)
    assert sum(answered(m) for m in cloud.received("Cat3")[before:]) == 4


def test_dynamodb_containers_racing_take_no_more_than_the_pace(cloud):
    """The pace's conditional write: eight containers (threads, each with its own memory)
    judging one connection's frames at the same instant let exactly its burst through."""
    cloud.table(4)
    cloud.clock.now += 10
    before = len(cloud.received("Cat3"))
    containers = [aws_container() for _ in range(8)]
    go = threading.Barrier(len(containers))

    def flood(container: RoomService) -> None:
        go.wait()
        for _ in range(20):
            container.message("Cat3", PING)

    threads = [threading.Thread(target=flood, args=(c,)) for c in containers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    processed = sum(answered(m) for m in cloud.received("Cat3")[before:])
    print(f"\nDynamoDB: 8 containers x 20 frames at once: {processed} processed")
    assert processed == CONNECTION_PACE.burst


def test_dynamodb_open_connections_and_the_address_pace(cloud):
    """Through the handlers: the 101st open connection from one address is refused (429)
    and a $disconnect gives its place back; busy frames from the address's connections meet
    its pace."""

    def connect_from(connection: str, address: str) -> int:
        cloud.clock.now += 1.1  # under the connect window (60 a minute)
        event = websocket_event("$connect", "CONNECT", connection, source_ip=address)
        return connect.handler(event, CONTEXT)["statusCode"]

    statuses = [connect_from(f"open-{i}", VENUE) for i in range(OPEN_CONNECTIONS_PER_IP + 1)]
    assert statuses == [200] * OPEN_CONNECTIONS_PER_IP + [429]
    event = websocket_event("$disconnect", "DISCONNECT", "open-3", source_ip=VENUE)
    disconnect.handler(event, CONTEXT)
    assert connect_from("in-its-place", VENUE) == 200
    assert connect_from("one-more", VENUE) == 429
    cloud.clock.now += CONNECTION_LIFETIME_SECONDS  # every place is now older than that
    assert connect_from("much-later", VENUE) == 200  # places a lost $disconnect left go
    service = aws_container()
    before = {f"open-{i}": len(cloud.received(f"open-{i}")) for i in range(10, 22)}
    for connection in before:  # 12 connections x 30 frames at once from one address
        for _ in range(30):
            service.message(connection, PING, VENUE)
    processed = sum(sum(map(answered, cloud.received(c)[n:])) for c, n in before.items())
    limited = service.metrics.counts["MessagesPerAddressLimited"]
    print(f"\nDynamoDB: 12 connections x 30 frames at once from one address: {processed} "
          f"processed, {limited} refused by the address")  # fmt: skip
    # the first connection's quiet share, then the address's burst: then every frame of
    # the address is refused, quiet ones too
    assert processed == QUIET_PACE.burst + ADDRESS_PACE.burst
    assert limited == 12 * 30 - processed


def test_the_handler_judges_a_frame_by_when_api_gateway_received_it(cloud):
    """A burst that queued for a container (sent at once, run over 3 s) is one burst: its
    wait comes from the event's ``requestTimeEpoch``. 13 pass (the connection's quiet share
    and its address's burst: it is its address's only connection); judged when run, the
    paces would have let 18 more through in the 3 s."""
    cloud.table(4)
    cloud.clock.now += 10
    start, sent = cloud.clock.now, time.time()
    before = len(cloud.received("Cat3"))
    for i in range(60):
        ran = i * 0.05
        cloud.clock.now = start + ran
        event = websocket_event("$default", "MESSAGE", "Cat3",
                                {"action": "ping", "room": cloud.rooms.get("Cat3") or
                                 cloud.last("Cat3", "joined")["room"]},
                                now_ms=round(sent * 1000))  # fmt: skip
        with mock.patch.object(message, "time", SimpleNamespace(time=lambda ran=ran: sent + ran)):
            message.handler(event, CONTEXT)
    processed = sum(map(answered, cloud.received("Cat3")[before:]))
    assert processed == QUIET_PACE.burst + ADDRESS_PACE.burst


def test_a_wait_the_event_cannot_have_is_not_believed():
    now = time.time()

    def event(received_ms):
        return websocket_event("$default", "MESSAGE", "c", PING, now_ms=received_ms)

    assert message.waited(event(round((now - 2) * 1000))) == pytest.approx(2, abs=0.5)
    assert message.waited(event(round((now + 60) * 1000))) == 0, "from the future"
    assert message.waited(event(round((now - 600) * 1000))) == 0, "past the integration timeout"
    assert message.waited({"requestContext": {}}) == 0


def test_dynamodb_connects_rooms_and_joins_per_address(cloud):
    def connect_from(connection: str, address: str) -> int:
        event = websocket_event("$connect", "CONNECT", connection, source_ip=address)
        return connect.handler(event, CONTEXT)["statusCode"]

    statuses = [connect_from(f"fresh-{i}", VENUE) for i in range(CONNECTS_PER_IP_PER_MINUTE + 5)]
    assert statuses == [200] * CONNECTS_PER_IP_PER_MINUTE + [429] * 5
    assert connect_from("neighbour", ELSEWHERE) == 200
    service = aws_container()
    for i in range(ROOMS_PER_IP_PER_HOUR + 2):
        service.message(f"fresh-{i}", json.dumps({"action": "create_room", "name": "Zed"}), VENUE)
    last = f"fresh-{ROOMS_PER_IP_PER_HOUR + 1}"
    refused = [m for m in cloud.received(last) if m["type"] == "error"]
    assert [m["code"] for m in refused] == ["too_many_rooms"]
    assert cloud.last(f"fresh-{ROOMS_PER_IP_PER_HOUR - 1}", "joined")
    code = cloud.last("fresh-0", "joined")["room"]
    cloud.clock.now += 60
    for _ in range(JOIN_ATTEMPTS_PER_IP_PER_HOUR + 1):
        service.message("neighbour", json.dumps({"action": "join", "room": "QQQQ", "name": "Yu"}),
                        VENUE)  # fmt: skip
        cloud.clock.now += 1
    codes = [m["code"] for m in cloud.received("neighbour") if m["type"] == "error"]
    assert codes[-1] == "too_many_joins" and "too_many_joins" not in codes[:-1]
    service.message("friend", json.dumps({"action": "join", "room": code, "name": "Eve"}),
                    ELSEWHERE)  # fmt: skip
    assert cloud.last("friend", "joined")
