"""Writes the sample API Gateway / SQS events in this folder (`python -m events.generate`).

Used by tests/integration/test_handlers_moto.py and by `sam local invoke -e events/<file>.json`
where Docker exists. Room code ABCD and the token are placeholders.
"""

import json
from pathlib import Path

from engine.command_lines import helpers_of
from engine.games import DEFAULT_GAME, GAMES

HERE = Path(__file__).parent
DOMAIN, STAGE, API = "abc123.execute-api.eu-west-1.amazonaws.com", "prod", "abc123"


def websocket_event(route: str, event_type: str, connection: str, body: dict | str | None = None,
                    query: dict | None = None, *, domain: str = DOMAIN, stage: str = STAGE,
                    api: str = API, request_id: str = "Lb9UmF3dDoEFZbA=",
                    connected_at_ms: int = 1_800_000_000_000, now_ms: int = 1_800_000_001_000,
                    source_ip: str = "203.0.113.7",
                    user_agent: str = "Mozilla/5.0 (Linux; Android 14)",
                    headers: dict | None = None, context: dict | None = None) -> dict:  # fmt: skip
    """An API Gateway WebSocket proxy event; the local gateway builds its events here too.
    ``body`` is the frame: a dict is sent as JSON, a string as it is."""
    event = {
        "requestContext": {
            "routeKey": route, "eventType": event_type, "connectionId": connection,
            "domainName": domain, "stage": stage, "apiId": api,
            "requestId": request_id, "messageId": "Lb9UmcnjDoECJXw=",
            "connectedAt": connected_at_ms, "requestTimeEpoch": now_ms,
            "identity": {"sourceIp": source_ip, "userAgent": user_agent},
            "extendedRequestId": request_id, "messageDirection": "IN",
            **(context or {}),
        },
        "isBase64Encoded": False,
    }  # fmt: skip
    if body is not None:
        event["body"] = body if isinstance(body, str) else json.dumps(body)
    if query is not None:
        event["queryStringParameters"] = query
        event["multiValueQueryStringParameters"] = {key: [value] for key, value in query.items()}
    if headers is not None:
        event["headers"] = headers
        event["multiValueHeaders"] = {key: [value] for key, value in headers.items()}
    return event


#: The room's own actions (docs/protocol.md), but for the two that carry a game's settings.
ROOM_MESSAGES = {
    "join": {"action": "join", "room": "ABCD", "name": "Bo"},
    "resume": {"action": "resume", "room": "ABCD", "token": "REPLACE-WITH-SEAT-TOKEN"},
    "watch": {"action": "watch", "room": "ABCD", "key": "REPLACE-WITH-THE-TABLE-KEY"},
    "leave": {"action": "leave"},
    "reorder": {"action": "reorder", "order": ["Bo", "Ann", "Cy", "Di"]},
    "kick": {"action": "kick", "target": "Di"},
    "hand_over": {"action": "hand_over", "target": "Bo"},
    "start": {"action": "start"},
    "rematch": {"action": "rematch"},
    "room_options": {"action": "room_options", "auto_away": False},
    "ping": {"action": "ping", "rev": "5e2c8f0a41d9b3c7"},
    "cover": {"action": "cover", "step": 7},
    "replay": {"action": "replay"},
    "new_table_key": {"action": "new_table_key"},
    "seat_link": {"action": "seat_link", "seat": "Di"},
    "take_seat": {"action": "take_seat", "room": "ABCD", "key": "REPLACE-WITH-THE-LINK-KEY"},
}  # fmt: skip
#: A game move names the step of the view it was made on (docs/protocol.md).
MOVE_STEP = 7


def messages() -> dict[str, dict]:
    """A frame of each room action and of each move of every game with command-line
    helpers (their ``SAMPLE_MOVES``, engine/command_lines.py): a move two games share is
    the first game's."""
    # A host's settings are the default game's: a room made with those its command lines
    # play by default, then its sample change.
    default = helpers_of(DEFAULT_GAME)
    settings = {
        "create_room": {"action": "create_room", "name": "Ann",
                        "settings": default.settings_for(None)},
        "settings": {"action": "settings", "settings": default.SAMPLE_SETTINGS},
    }  # fmt: skip
    found = {**settings, **ROOM_MESSAGES}
    for key, game in GAMES.items():
        if game.command_line is not None:
            for name, fields in helpers_of(key).SAMPLE_MOVES.items():
                found.setdefault(name, {"action": name, **fields, "step": MOVE_STEP})
    return found


def main() -> None:
    events = {
        # Every phone connects alike: a seat is named in the first frame (message_resume).
        "connect": websocket_event("$connect", "CONNECT", "Lb9UmdxeDoECIeg="),
        "disconnect": websocket_event("$disconnect", "DISCONNECT", "Lb9UmdxeDoECIeg="),
        "timer_batch": {
            "Records": [
                {
                    "messageId": "059f36b4-87a3-44ab-83d2-661975830a7d",
                    "receiptHandle": "AQEBwJnKyrHigUMZj6rYigCgxlaS3SLy0a",
                    "body": json.dumps(
                        {"kind": "deadline", "room": "ABCD", "step": 7, "deadline": 1800000120.5}
                    ),
                    "attributes": {
                        "ApproximateReceiveCount": "1",
                        "SentTimestamp": "1800000000000",
                        "SenderId": "AIDAIENQZJOLO23YVJ4VO",
                        "ApproximateFirstReceiveTimestamp": "1800000120600",
                    },
                    "messageAttributes": {},
                    "md5OfBody": "e4e68fb7bd0e697a0ae8f1bb342846b3",
                    "eventSource": "aws:sqs",
                    "eventSourceARN": "arn:aws:sqs:eu-west-1:123456789012:catch-the-witch-timers",
                    "awsRegion": "eu-west-1",
                }
            ]
        },
    }
    for kind, body in messages().items():
        route = "$default"
        events[f"message_{kind}"] = websocket_event(route, "MESSAGE", "Lb9UmdxeDoECIeg=", body)
    for name, event in events.items():
        (HERE / f"{name}.json").write_text(json.dumps(event, indent=1) + "\n")
    print(f"wrote {len(events)} events")


if __name__ == "__main__":
    main()
