"""The Lambda handlers over moto (DynamoDB, SQS, the management API), for the tests and
the benchmarks: phones are connection ids, time is a fake clock, timers are taken from
the moto queue and delivered through the SQS handler when they are due."""

import json
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from unittest import mock

import boto3
from moto import mock_aws
from moto.apigatewaymanagementapi.models import (
    ApiGatewayManagementApiBackend,
    apigatewaymanagementapi_backends,
)
from moto.core import DEFAULT_ACCOUNT_ID
from moto.core.botocore_stubber import BotocoreStubber
from moto.sqs.models import sqs_backends

from engine.games import DEFAULT_GAME, game_of
from engine.rng import Rng
from events.generate import websocket_event
from functions import connect, disconnect, message, timer
from functions.room_service.adapters import aws_client
from functions.room_service.entrypoints import lambda_app
from tests.support.service_harness import as_a_phone_sends, result_of

#: AWS serves each request atomically; moto does not: a DynamoDB transaction deep-copies
#: the table while a handler's thread alongside updates an item, and fails with
#: "dictionary changed size during iteration" (seen once under load). So moto's requests
#: are served one at a time, as each is by AWS; requests still interleave as they would.
_ONE_REQUEST_AT_A_TIME = threading.RLock()
_process_request = BotocoreStubber.process_request


def _atomic_request(self, *args, **kwargs):
    with _ONE_REQUEST_AT_A_TIME:
        return _process_request(self, *args, **kwargs)


REGION = "eu-west-1"
TABLE = "catch-the-witch-test"
CONTEXT = SimpleNamespace(function_name="test", memory_limit_in_mb=256, aws_request_id="req",
                          invoked_function_arn="arn:aws:lambda:eu-west-1:123456789012:function:test")  # fmt: skip


@contextmanager
def moto_cloud() -> Iterator["Cloud"]:
    """moto's DynamoDB table and timer queue, the handlers' environment, a fake clock."""
    _CLOSED_CONNECTIONS_DATA.clear()
    env = {"AWS_DEFAULT_REGION": REGION, "AWS_ACCESS_KEY_ID": "testing",
           "AWS_SECRET_ACCESS_KEY": "testing", "TABLE_NAME": TABLE,
           "WEBSOCKET_ENDPOINT": "https://abc123.execute-api.eu-west-1.amazonaws.com/prod"}  # fmt: skip
    with mock.patch.dict(os.environ, env), mock_aws(), \
            mock.patch.object(BotocoreStubber, "process_request", _atomic_request), \
            mock.patch.object(ApiGatewayManagementApiBackend, "delete_connection",
                              _closed_keeps_what_it_was_sent):  # fmt: skip
        aws_client.client.cache_clear()
        lambda_app._service.cache_clear()
        db = boto3.client("dynamodb")
        db.create_table(TableName=TABLE, BillingMode="PAY_PER_REQUEST",
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                              {"AttributeName": "sk", "AttributeType": "S"}],
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                   {"AttributeName": "sk", "KeyType": "RANGE"}])  # fmt: skip
        queue = boto3.client("sqs").create_queue(QueueName="timers")["QueueUrl"]
        clock = SimpleNamespace(now=1_800_000_000.0)
        with mock.patch.dict(os.environ, {"TIMER_QUEUE_URL": queue}), \
                mock.patch.object(lambda_app, "now", lambda: clock.now):  # fmt: skip
            try:
                yield Cloud(clock)
            finally:
                aws_client.client.cache_clear()
                lambda_app._service.cache_clear()


#: What connections the server closed (DeleteConnection: a kicked phone) had been sent,
#: which moto forgets with the connection: a test reads a closed phone's last words.
_CLOSED_CONNECTIONS_DATA: dict[str, bytes] = {}


def _closed_keeps_what_it_was_sent(backend, connection_id: str) -> None:
    if connection_id in backend.connections:
        _CLOSED_CONNECTIONS_DATA[connection_id] = backend.connections.pop(connection_id).data


class Cloud:
    def __init__(self, clock):
        self.clock = clock
        self.read_upto: dict[str, tuple[int, list[dict]]] = {}
        self.rooms: dict[str, str] = {}  # the room a reconnected phone names
        #: The game of the last ``table`` (its bots play it).
        self.game = DEFAULT_GAME

    # -- phones ----------------------------------------------------------------------------
    def connect(self, connection: str, query: dict | None = None) -> dict:
        return connect.handler(
            websocket_event("$connect", "CONNECT", connection, query=query), CONTEXT
        )

    def reconnect(self, connection: str, room: str, token: str) -> dict:
        """A seat's phone on a new socket: ``$connect``, then its first frame names the seat
        (``resume``: the token in a frame, never in the URL). The ``$connect`` answer."""
        answer = self.connect(connection)
        if answer == {"statusCode": 200}:
            self.rooms[connection] = room
            body = json.dumps({"action": "resume", "room": room, "token": token})
            event = websocket_event("$default", "MESSAGE", connection, body)
            assert message.handler(event, CONTEXT) == {"statusCode": 200}
        return answer

    def send(self, connection: str, **body) -> None:
        """As a phone sends it: with the step of the view it shows (a move) and the room it
        was last told it sits in (``joined``) or reconnected to."""
        last = self.last(connection)
        joined = self.last(connection, "joined")
        room = joined["room"] if joined else self.rooms.get(connection)
        body = as_a_phone_sends(body, last and last["view"], room)
        event = websocket_event("$default", "MESSAGE", connection, body)
        assert message.handler(event, CONTEXT) == {"statusCode": 200}

    def disconnect(self, connection: str) -> None:
        disconnect.handler(websocket_event("$disconnect", "DISCONNECT", connection), CONTEXT)

    def received(self, connection: str) -> list[dict]:
        """Every message posted to the connection, each parsed once: moto concatenates
        posts with no delimiter, so only the bytes added since the last call are decoded."""
        backend = apigatewaymanagementapi_backends[DEFAULT_ACCOUNT_ID][REGION]
        if connection in backend.connections:
            raw = backend.connections[connection].data
        else:  # closed by the server, or never sent anything
            raw = _CLOSED_CONNECTIONS_DATA.get(connection, b"")
        done, parsed = self.read_upto.get(connection, (0, []))
        if len(raw) > done:
            text, index, decoder = raw[done:].decode(), 0, json.JSONDecoder()
            while index < len(text):
                item, index = decoder.raw_decode(text, index)
                parsed.append(item)
            self.read_upto[connection] = (len(raw), parsed)
        return list(parsed)

    def gone(self, connection: str) -> bool:
        """The server closed the connection (DeleteConnection)."""
        return connection in _CLOSED_CONNECTIONS_DATA

    def last(self, connection: str, kind: str = "view") -> dict | None:
        return next((m for m in reversed(self.received(connection)) if m["type"] == kind), None)

    # -- timers ----------------------------------------------------------------------------
    def queued_timers(self) -> list:
        queue = sqs_backends[DEFAULT_ACCOUNT_ID][REGION].queues["timers"]
        return list(queue._messages)

    def fire_next_timer(self) -> bool:
        queue = sqs_backends[DEFAULT_ACCOUNT_ID][REGION].queues["timers"]
        deadlines = [m for m in queue._messages if json.loads(m.body)["kind"] == "deadline"]
        if not deadlines:
            return False
        first = min(deadlines, key=lambda m: json.loads(m.body)["deadline"])
        queue._messages.remove(first)
        self.clock.now = max(self.clock.now, json.loads(first.body)["deadline"] + 0.5)
        self.deliver_timer(first)
        return True

    @staticmethod
    def deliver_timer(message) -> None:
        """One queued message through the timer handler, as the SQS event source sends it."""
        records = {"Records": [{"messageId": message.id, "receiptHandle": "r",
                                "body": message.body, "attributes": {}, "messageAttributes": {},
                                "md5OfBody": "", "eventSource": "aws:sqs", "awsRegion": REGION,
                                "eventSourceARN": "arn:aws:sqs:eu-west-1:123456789012:timers"}]}  # fmt: skip
        assert timer.handler(records, CONTEXT) == {"batchItemFailures": []}

    # -- a table of bots -------------------------------------------------------------------
    def table(self, count: int, settings: dict | None = None,
              game: str = DEFAULT_GAME) -> tuple[list[str], dict, str]:  # fmt: skip
        names = [f"Cat{i}" for i in range(1, count + 1)]
        tokens = {}
        for name in names:
            assert self.connect(name) == {"statusCode": 200}
        self.game = game
        # The default game goes unnamed, as phones sent it before there was a game to choose
        # (same bytes).
        named = {} if game == DEFAULT_GAME else {"game": game}
        self.send(names[0], action="create_room", name=names[0], settings=settings or {}, **named)
        code = self.last(names[0], "joined")["room"]
        tokens[names[0]] = self.last(names[0], "joined")["token"]
        for name in names[1:]:
            self.send(name, action="join", room=code, name=name)
            tokens[name] = self.last(name, "joined")["token"]
        self.send(names[0], action="start")
        return names, tokens, code

    def play(self, names: list[str], seed: int) -> dict:
        rng = Rng(seed)
        game = game_of(self.game)
        for _ in range(6000):
            if result_of(self.last(names[0])["view"]):
                return result_of(self.last(names[0])["view"])
            for name in names:
                action = game.bot_move(self.last(name)["view"], rng)
                if action is not None:
                    kind = action.pop("type")
                    before = len(self.received(name))
                    self.send(name, action=kind, **action)
                    assert not [m for m in self.received(name)[before:] if m["type"] == "error"]
                    self.clock.now += 0.5
                    break
            else:
                assert self.fire_next_timer(), "stuck with no timer"
        raise AssertionError("game did not finish")
