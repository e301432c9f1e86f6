"""The Lambda handlers end to end under moto: DynamoDB, SQS and the management API.

Phones are connection ids; what each was sent is read back from moto's management-API
backend. Bots decide from those messages only. Time is a fake clock; timers are taken
from the moto queue and delivered through the SQS handler when they are due.
"""

import functools
import json

import boto3
import pytest
from botocore.stub import Stubber

from engine.catch_the_witch import bots
from engine.catch_the_witch.tables import MORNING_SECONDS
from engine.rng import Rng
from events.generate import websocket_event
from functions import connect, message, timer
from functions.room_service.adapters import aws_client
from functions.room_service.adapters.ratelimit import CONNECTS_PER_IP_PER_MINUTE
from functions.room_service.domain import room as model
from functions.room_service.entrypoints import lambda_app
from tests.support.moto_cloud import CONTEXT, REGION, TABLE, moto_cloud
from tests.support.service_harness import result_of


@pytest.fixture
def cloud():
    with moto_cloud() as cloud:
        yield cloud


#: The smallest table and a middle one: a 12-cat game through the handlers took 100 s of a
#: CI run. Twelve seats are played through the handlers by the twelve-vote race below, and
#: a whole 12-cat game over the wire by tests/service/test_wire_leak_audit.py.
@pytest.mark.parametrize("count", [4, 8])
def test_complete_games_through_the_handlers(cloud, count):
    names, tokens, code = cloud.table(count, {"discussion_limit": 30})
    final = cloud.play(names, seed=count)
    assert final["phase"] == "game_over"
    for name in names:
        text = json.dumps(cloud.received(name))
        for other in names:  # no other seat's token ever reached this phone
            if other != name:
                assert tokens[other] not in text
        for msg in cloud.received(name):  # every view is this phone's own
            if msg["type"] == "view" and msg["view"].get("me"):
                assert msg["view"]["me"]["name"] == name
    key = {"pk": {"S": f"ROOM#{code}"}, "sk": {"S": "ROOM"}}
    item = boto3.client("dynamodb").get_item(TableName=TABLE, Key=key)["Item"]
    assert int(item["expires_at"]["N"]) > cloud.clock.now
    stored = model.loaded_room_json(item["room"]["B"])
    assert all(token not in stored for token in tokens.values())  # only hashes are stored


def test_reconnect_with_token_and_refusal_of_a_wrong_token(cloud):
    """Every phone's $connect is admitted alike; the seat is named in the first
    frame, and a wrong token is told so over the opened socket, which is then closed."""
    _, tokens, code = cloud.table(4)
    cloud.disconnect("Cat2")
    assert cloud.reconnect("phone-2b", code, tokens["Cat2"]) == {"statusCode": 200}
    view = cloud.last("phone-2b")["view"]  # resume answers with the view, as a ping does
    assert view["you"] == "Cat2" and view["phase"] == "role_check"
    assert cloud.reconnect("thief", code, "guess") == {"statusCode": 200}
    assert cloud.last("thief", "error")["code"] == "seat_lost"
    assert cloud.gone("thief"), "the refused socket is closed"


def test_timer_messages_go_through_sqs_with_their_delay(cloud):
    names, _, _ = cloud.table(4, {"discussion_limit": 45})
    for name in names:
        cloud.send(name, action="ready")
    (morning,) = _deadlines(cloud)
    cloud.clock.now += MORNING_SECONDS  # the morning (§3.2) ends; the place choice has 45 s
    cloud.deliver_timer(morning)
    assert json.loads(_deadlines(cloud)[-1].body)["deadline"] >= cloud.clock.now + 45
    import time

    # moto holds the message back (delayed_until is in real time): SQS did get the delay.
    assert max(m.delayed_until for m in cloud.queued_timers()) >= time.time() + 40


def _deadlines(cloud) -> list:
    """The queued SQS messages of step deadlines, oldest first."""
    return [m for m in cloud.queued_timers() if json.loads(m.body)["kind"] == "deadline"]


def test_a_410_drops_the_connection_and_the_request_succeeds(cloud):
    names, _, code = cloud.table(4)
    for name in names[1:]:
        cloud.send(name, action="ready")
    service = lambda_app.timer_service()
    api = aws_client.client("apigatewaymanagementapi", service.ports.pusher.endpoint_url)
    with Stubber(api) as stub:
        for name in names:
            if name == "Cat3":
                stub.add_client_error("post_to_connection", service_error_code="GoneException",
                                      http_status_code=410)  # fmt: skip
            else:
                stub.add_response("post_to_connection", {})
        for _ in names[1:]:  # then the other three are told Cat3 is offline
            stub.add_response("post_to_connection", {})
        # The last Ready ends the role check: every view changes, and is pushed to all
        # four; the third answers 410.
        service.ports.pusher.push = _sequential(service.ports.pusher.push)
        cloud.send("Cat1", action="ready")
        stub.assert_no_pending_responses()
    assert service.ports.connections.lookup("Cat3") is None
    room = service.current_room(code)
    assert room.seat("Cat3").connection is None and room.state.phase.value == "morning"


def _sequential(push):
    """Stubber answers in order; post one by one so the 410 lands on Cat3."""

    def one_by_one(messages):
        gone = []
        for item in messages:
            gone += push([item])
        return gone

    return one_by_one


class _AtApproval(Exception):
    pass


@functools.cache
def _game_at_approval(seed: int):
    """A 12-cat game at its first yes/no vote (pure; rounds share the 25 seeds' states,
    which are only read: the room is stored as JSON)."""
    from engine.catch_the_witch import GameState, Phase, new_game
    from engine.catch_the_witch.autoplay import bot_names, play

    def stop(action: dict, state: GameState) -> None:
        if state.phase is Phase.APPROVAL:
            raise _AtApproval(state)

    try:
        play(new_game(bot_names(12), {"discussion_limit": None}, seed=seed), bot_seed=seed,
             observer=stop)  # fmt: skip
    except _AtApproval as reached:
        return reached.args[0]
    raise AssertionError("no approval step")


#: 50 rounds in `make test` (each of the 25 dealt approvals twice); `make soak` plays 200,
#: as `make test` did until its 20 minutes ran short (209 s on a loaded CI worker).
ROUNDS = int(__import__("os").environ.get("CONCURRENCY_ROUNDS", "50"))


def _delete_round(code: str, seats) -> None:
    db = boto3.client("dynamodb")
    items = db.query(TableName=TABLE, KeyConditionExpression="pk = :pk",
                     ExpressionAttributeValues={":pk": {"S": f"ROOM#{code}"}})["Items"]  # fmt: skip
    keys = [{"pk": i["pk"], "sk": i["sk"]} for i in items]
    keys += [{"pk": {"S": f"CONN#{s.connection}"}, "sk": {"S": "CONN"}} for s in seats]
    for key in keys:
        db.delete_item(TableName=TABLE, Key=key)


@pytest.fixture
def atomic_moto_requests(monkeypatch):
    """moto's DynamoDB backend is not thread-safe (transact_write_items deep-copies tables
    other threads are writing). Real DynamoDB applies each request atomically; a lock per
    backend operation gives moto the same semantics, requests still interleave freely."""
    import threading

    from moto.core.botocore_stubber import BotocoreStubber
    from moto.dynamodb.models import DynamoDBBackend

    lock = threading.RLock()
    for name in ("get_item", "put_item", "update_item", "delete_item", "query",
                 "transact_write_items"):  # fmt: skip
        original = getattr(DynamoDBBackend, name)

        def locked(self, *args, _original=original, **kwargs):
            with lock:
                return _original(self, *args, **kwargs)

        monkeypatch.setattr(DynamoDBBackend, name, locked)
    # The response too: moto renders a read's items after the backend call returns, and a
    # step's pending moves are one item other seats' updates change meanwhile.
    process_request = BotocoreStubber.process_request

    def request_locked(self, request):
        if "dynamodb" not in request.url:
            return process_request(self, request)
        with lock:
            return process_request(self, request)

    monkeypatch.setattr(BotocoreStubber, "process_request", request_locked)


def test_twelve_simultaneous_votes_round_after_round_none_lost_none_doubled(
    cloud, atomic_moto_requests, monkeypatch
):
    import threading

    # Twelve handler calls run as threads of one process here, sharing Powertools' one
    # metrics set, which is not thread-safe: its automatic flush at 100 values can find
    # the set emptied by another thread ("Must contain at least one metric"). Lambda runs
    # one invocation per process at a time; this test is about DynamoDB: count nothing.
    monkeypatch.setattr(lambda_app.PowertoolsMetrics, "count", lambda self, name, value=1: None)

    from engine.catch_the_witch import seat_step
    from functions.room_service.domain.room import Binding, Room, Seat, hash_token

    service = lambda_app.timer_service()
    store = service.ports.store
    attempts = []
    for round_ in range(ROUNDS):
        game = _game_at_approval(round_ % 25)
        code = f"R{round_:03d}"
        seats = [
            Seat(name=n, token_hash=hash_token(n), connection=f"{code}-{n}") for n in game.names()
        ]
        assert store.create(Room(code=code, host=game.host, seats=seats, state=game, version=1))
        for seat in seats:
            service.ports.connections.bind(seat.connection,
                                           Binding(code, seat.name, seat.token_hash))  # fmt: skip
        voters = [c.name for c in game.humans()]
        writes_before = store.writes
        barrier = threading.Barrier(len(voters))

        def vote(name: str, code=code, barrier=barrier, first=voters[0], game=game) -> None:
            barrier.wait()
            cloud.send(f"{code}-{name}", action="approve", yes=name != first,
                       step=seat_step(game, name))  # fmt: skip

        failures = []

        def run(name: str, vote=vote, failures=failures) -> None:
            try:
                vote(name)
            except Exception as exc:  # a crashed thread must fail the test, not vanish
                failures.append(exc)

        threads = [threading.Thread(target=run, args=(n,)) for n in voters]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not failures, failures
        proposal = service.current_room(code).state.days[-1].proposals[-1]
        assert proposal.yes == voters[1:] and proposal.no == voters[:1], round_
        attempts.append((store.writes - writes_before) / len(voters))
        _delete_round(code, seats)  # moto copies whole tables in transactions: keep it small
    mean = sum(attempts) / len(attempts)
    print(f"\nwrite attempts per submission, 12 simultaneous votes, {ROUNDS} rounds (moto): "
          f"mean {mean:.3f}, worst {max(attempts):.3f}")  # fmt: skip
    assert mean <= 1.2


def test_a_room_too_large_is_refused_with_a_clear_error_long_before_400_kb(cloud, monkeypatch):
    names, _, code = cloud.table(4)
    for name in names[:3]:
        cloud.send(name, action="ready")  # pending submissions: small items
    monkeypatch.setattr(model, "MAX_ROOM_BYTES", 300)  # as if the room had grown past the limit
    cloud.send("Cat4", action="ready")  # completes the step: the room write is refused
    error = cloud.last("Cat4", "error")
    assert error["code"] == "room_too_large" and "limit 300" in error["message"]
    assert lambda_app.timer_service().current_room(code).state.phase.value == "role_check"


def _may_know_roles(view: dict, name: str) -> set[str]:
    """Whose role this seat may see in a mid-game view (RULES §2.3, §8 option)."""
    me = view["me"]
    known = {name}
    if me["role"] in ("witch", "crow"):
        known |= set(me.get("witches", []))
    if view["settings"]["reveal_role_on_exile"]:
        known |= {p["name"] for p in view["players"] if p["form"] == "exiled"}
    return known


def test_every_message_of_a_whole_game_shows_only_roles_the_seat_may_know(cloud):
    names, _, _ = cloud.table(8, {"discussion_limit": 30, "reveal_role_on_exile": True})
    cloud.play(names, seed=8)
    checked = 0
    for name in names:
        for msg in cloud.received(name):
            if msg["type"] != "view" or msg["view"].get("phase") in ("lobby", "game_over"):
                continue
            view = msg["view"]
            shown = {p["name"] for p in view["players"] if "role" in p}
            assert shown <= _may_know_roles(view, name), (name, view["phase"], shown)
            assert "reveal" not in view
            checked += 1
    assert checked > 100


def test_reconnecting_in_every_step_gives_the_same_seat_and_current_view(cloud):
    names, tokens, code = cloud.table(4, {"discussion_limit": 30})
    rng, phases, phone = Rng(5), set(), 0
    while not result_of(cloud.last(names[0])["view"]):
        phase = cloud.last(names[1])["view"]["phase"]
        if phase not in phases:  # first time in this step: Cat2's phone reconnects
            phases.add(phase)
            phone += 1
            assert cloud.reconnect(f"cat2-{phone}", code, tokens["Cat2"]) == {"statusCode": 200}
            fresh = cloud.last(f"cat2-{phone}")["view"]
            assert fresh["you"] == "Cat2" and fresh["phase"] == phase
            names[1] = f"cat2-{phone}"  # play on from the new phone
        for who in names:
            action = bots.decide(cloud.last(who)["view"], rng)
            if action is not None:
                cloud.send(who, action=action.pop("type"), **action)
                cloud.clock.now += 0.5
                break
        else:
            assert cloud.fire_next_timer()
    assert {"role_check", "place_choice", "evening", "discussion", "proposal", "vote"} <= phases


def test_duplicate_early_late_and_lost_timers_through_sqs(cloud):
    names, _, code = cloud.table(4, {"discussion_limit": 30})
    for name in names:
        cloud.send(name, action="ready")
    service = lambda_app.timer_service()
    before = service.current_room(code)
    (queued,) = [m for m in cloud.queued_timers() if json.loads(m.body)["kind"] == "deadline"]
    body = json.loads(queued.body)

    def deliver(message_body: dict) -> None:
        event = {"Records": [{"messageId": "m", "receiptHandle": "r", "attributes": {},
                              "body": json.dumps(message_body), "messageAttributes": {},
                              "md5OfBody": "", "eventSource": "aws:sqs", "awsRegion": REGION,
                              "eventSourceARN": "arn:aws:sqs:eu-west-1:123456789012:timers"}]}  # fmt: skip
        assert timer.handler(event, CONTEXT) == {"batchItemFailures": []}

    deliver(body)  # early: nothing changes; the timer is queued again for the rest
    assert service.current_room(code).version == before.version
    assert len([m for m in cloud.queued_timers() if json.loads(m.body) == body]) == 2
    cloud.clock.now = body["deadline"] + 1
    deliver(body)  # on time: the morning (§3.2) ends
    after = service.current_room(code)
    assert after.state.step > before.state.step and after.state.phase.value == "place_choice"
    deliver(body)  # duplicate: stale, nothing applied twice
    assert service.current_room(code).version == after.version
    cloud.clock.now = after.state.deadline + 1  # the place choice's timer is lost ...
    cloud.send("Cat2", action="ping")  # ... and any message resolves it
    assert service.current_room(code).state.phase.value == "witches"


def test_an_offline_phone_is_marked_away_by_its_timer_through_sqs(cloud):
    """``$disconnect`` in a game queues an ``away_check`` delayed 61 s (SQS allows
    900); delivered through the timer handler it marks the seat Away once, for everyone."""
    _, _, code = cloud.table(4, {"discussion_limit": 30})
    service = lambda_app.timer_service()
    cloud.disconnect("Cat3")
    (queued,) = [m for m in cloud.queued_timers() if json.loads(m.body)["kind"] == "away_check"]
    assert json.loads(queued.body) == {"kind": "away_check", "room": code, "seat": "Cat3"}
    assert round((queued.delayed_until - queued.sent_timestamp) / 1000) == 61  # DelaySeconds
    cloud.clock.now += 61
    cloud.deliver_timer(queued)
    marked = service.current_room(code)
    assert marked.state.cat("Cat3").away
    players = {p["name"]: p["away"] for p in cloud.last("Cat1")["view"]["players"]}
    assert players["Cat3"] is True and cloud.last("Cat1")["view"]["connected"]["Cat3"] is False
    cloud.deliver_timer(queued)  # a duplicate: Away already, nothing written
    assert service.current_room(code).version == marked.version


def test_bad_messages_get_an_error_and_change_nothing_under_moto(cloud):
    _, _, code = cloud.table(4)
    service = lambda_app.timer_service()
    bad = [
        ("Cat2", {"action": "start"}, "Only the host"),
        ("Cat2", {"action": "vote", "target": None}, "not possible now"),
        ("Cat2", {"action": "ready", "player": "Cat3"}, "only act for yourself"),
        ("Cat2", {"action": "dance"}, "Unknown action"),
        ("Cat2", {"action": "ready", "pad": "x" * 5000}, "too large"),
    ]
    for who, body, expected in bad:
        before = service.current_room(code)
        cloud.send(who, **body)
        assert expected in cloud.last(who, "error")["message"]
        assert service.current_room(code) == before
    before = service.current_room(code)
    message.handler(websocket_event("$default", "MESSAGE", "Cat2") | {"body": "{oops"}, CONTEXT)
    assert cloud.last("Cat2", "error")["message"] == "The message is not valid JSON."
    assert service.current_room(code) == before


def test_the_push_pool_fits_in_the_clients_connection_pool():
    """More post threads than pooled connections make posts wait (and warn)."""
    with moto_cloud():
        api = aws_client.client(
            "apigatewaymanagementapi", "https://abc123.execute-api.eu-west-1.amazonaws.com/prod"
        )
        assert api.meta.config.max_pool_connections >= aws_client.PUSH_THREADS


# -- only the site's own origin connects -----------------------------------------------------
SITE = "https://d111111abcdef8.cloudfront.net"


def _connect(connection: str, query: dict | None, headers: dict | None) -> dict:
    event = websocket_event("$connect", "CONNECT", connection, query=query, headers=headers)
    return connect.handler(event, CONTEXT)


def _refusals_counted(output: str) -> int:
    """ConnectRefused in the metrics the handler printed (CloudWatch EMF, one JSON a line)."""
    counted = 0
    for line in output.splitlines():
        if line.startswith("{") and '"_aws"' in line:
            value = json.loads(line).get("ConnectRefused", 0)
            counted += sum(value) if isinstance(value, list) else value
    return counted


def test_a_handshake_from_another_origin_is_refused_and_counted(cloud, monkeypatch, capsys,
                                                                caplog):  # fmt: skip
    """403 before anything is read or written; the site's own origin and a handshake
    without one connect. Every refusal is counted as ConnectRefused (the errors alarm
    subtracts it) and logged. No seat is named at $connect (a query string is
    not read): a seat's token is never in a URL, so never in an access log."""
    monkeypatch.setenv("ALLOWED_ORIGINS", SITE)
    _, tokens, code = cloud.table(4)
    cloud.disconnect("Cat2")
    seat = {"room": code, "token": tokens["Cat2"]}
    capsys.readouterr()
    refused = [_connect("evil-1", seat, {"Origin": "https://evil.example"}),
               _connect("evil-2", None, {"origin": f"{SITE}.evil.com"})]  # fmt: skip
    output = capsys.readouterr().out
    assert [r["statusCode"] for r in refused] == [403, 403]
    assert _refusals_counted(output) == 2
    logged = [vars(r) for r in caplog.records if r.getMessage() == "connect refused"]
    assert [(r["status"], "evil" in r["reason"]) for r in logged] == [(403, True), (403, True)]
    assert tokens["Cat2"] not in repr(logged)
    assert service_connections().lookup("evil-1") is None  # no seat was bound
    # A seat's token in the query string (an old page's way) binds nothing at $connect.
    assert _connect("own", seat, {"Origin": SITE}) == {"statusCode": 200}
    assert service_connections().lookup("own") is None
    assert _connect("no-origin", None, {"Host": "abc123.example"}) == {"statusCode": 200}
    assert _refusals_counted(capsys.readouterr().out) == 0


def service_connections():
    return lambda_app.service_for(websocket_event("$connect", "CONNECT", "x")).ports.connections


def test_a_connect_over_its_addresss_budget_is_counted_as_refused(cloud, capsys):
    """429 (the service's TooManyConnections) is a refused $connect too: counted alike."""
    capsys.readouterr()
    statuses = [
        connect.handler(websocket_event("$connect", "CONNECT", f"flood-{i}",
                                        source_ip="198.51.100.9"), CONTEXT)["statusCode"]
        for i in range(CONNECTS_PER_IP_PER_MINUTE + 1)
    ]  # fmt: skip
    assert statuses == [200] * CONNECTS_PER_IP_PER_MINUTE + [429]
    assert _refusals_counted(capsys.readouterr().out) == 1
