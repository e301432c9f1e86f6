"""The room service's layers keep their direction (functions/room_service/__init__.py):
domain knows nothing above it, adapters implement the ports, delivery reports the phones
found gone instead of calling back into the service, and no module names a game."""

import ast
from pathlib import Path

from functions.room_service.adapters.memory import MemoryPusher, MemoryTimers
from functions.room_service.domain.room import Room, Seat, hash_token
from functions.room_service.service.change import Change, Commit
from functions.room_service.service.commands import SeatCheckTimer
from functions.room_service.service.delivery import Delivery

PACKAGE = Path(__file__).resolve().parents[2] / "functions" / "room_service"


def imports_of(layer: str) -> set[str]:
    """The room_service layers the modules of ``layer`` import (relative imports)."""
    found = set()
    for path in (PACKAGE / layer).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 2 and node.module:
                found.add(node.module.split(".")[0])
            if (
                isinstance(node, ast.ImportFrom)
                and node.module
                and "catch_the_witch" in node.module
            ):
                found.add(node.module)
    return found


def test_domain_imports_no_layer_above_it():
    assert imports_of("domain") == set()


def test_adapters_know_the_domain_and_the_commands_they_carry_only():
    assert imports_of("adapters") <= {"domain", "service"}
    for path in (PACKAGE / "adapters").glob("*.py"):
        text = path.read_text()
        assert "service.room_service" not in text and "handlers" not in text, path.name


def test_the_service_uses_the_ports_not_the_aws_adapters():
    aws = {"boto3", "botocore", "dynamodb", "apigateway", "sqs", "aws_client"}
    for path in (PACKAGE / "service").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                parts = {part for name in names for part in name.split(".")}
                assert not parts & aws, (path.name, names)
                assert "catch_the_witch" not in parts, (path.name, names)


def test_delivery_returns_the_phones_found_gone_and_changes_nothing():
    pusher, timers = MemoryPusher(), MemoryTimers()
    pusher.gone.add("c-bo")
    seats = [
        Seat(name=n, token_hash=hash_token(n), connection=f"c-{n.lower()}") for n in ("Ann", "Bo")
    ]
    room = Room(code="ABCDEFGH", host="Ann", seats=seats, version=3)
    check = SeatCheckTimer(room=room.code, seat="Bo")
    change = Change(direct=[("c-bo", {"type": "pong"})], timers=[(check, 5.0)])
    gone = Delivery(pusher, timers).deliver(Commit(room, change, seq=1))
    assert sorted(gone) == ["c-bo", "c-bo"], "its direct message and its view"
    assert [m["type"] for m in pusher.sent["c-ann"]] == ["view"]
    assert timers.scheduled == [(check.model_dump(mode="json"), 5.0)]
    assert room.seat("Bo").connection == "c-bo" and room.version == 3, "the caller decides"
