"""The room service's layers keep their direction (docs/architecture.md): each imports only
the layers below it, delivery reports the phones found gone instead of calling back into
the service, and no platform file names a registered game."""

import ast
import re
from pathlib import Path

import pytest

from engine.games import GAMES
from functions.room_service.adapters.memory import MemoryPusher, MemoryTimers
from functions.room_service.domain.room import Room, Seat, hash_token
from functions.room_service.domain.timers import SeatCheckTimer
from functions.room_service.service.change import Change, Commit
from functions.room_service.service.delivery import Delivery
from tests.support.coin_game import CoinGame

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "functions" / "room_service"

#: The room service's layers a layer may import (each imports its own freely). The domain
#: is pure; the adapters carry the domain's shapes (rooms, timer messages) and nothing the
#: service decides; the service reaches the outside through the ports.
MAY_IMPORT = {
    "domain": set(),
    "adapters": {"domain"},
    "service": {"domain", "adapters"},
    "entrypoints": {"domain", "adapters", "service"},
}


def layers_imported(path: Path) -> set[str]:
    """The room service's layers ``path`` imports, relatively (``..domain``) or by absolute
    name (``functions.room_service.domain``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 2:
            found |= {node.module or alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom | ast.Import):
            within = f"{node.module}." if isinstance(node, ast.ImportFrom) else ""
            for name in (within + alias.name for alias in node.names):
                if name.startswith("functions.room_service."):
                    found.add(name.removeprefix("functions.room_service."))
    return {module.split(".")[0] for module in found}


@pytest.mark.parametrize("layer", MAY_IMPORT)
def test_each_layer_imports_only_the_layers_below_it(layer):
    reaching_up = {
        path.name: sorted(layers_imported(path) - MAY_IMPORT[layer] - {layer})
        for path in sorted((PACKAGE / layer).glob("*.py"))
    }
    assert {name: up for name, up in reaching_up.items() if up} == {}


def test_the_service_uses_the_ports_not_the_aws_adapters():
    aws = {"boto3", "botocore", "dynamodb", "apigateway", "sqs", "aws_client"}
    for path in (PACKAGE / "service").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                parts = {part for name in names for part in name.split(".")}
                assert not parts & aws, (path.name, names)


#: The platform: what hosts every game alike, so adding a game changes none of it. In the
#: client, a game's own folder (frontend/js/games/<game>/) and the client's registry
#: (frontend/js/games.js) are the game's; the rest of frontend/ is the shell.
PLATFORM = ("functions", "local_stack", "events", "deploy", "bench", "Makefile", "frontend")
CLIENT_GAMES, CLIENT_REGISTRY = Path("frontend/js/games"), Path("frontend/js/games.js")


def game_keys() -> set[str]:
    """Every registered game's key, and the coin game's (tests register it)."""
    return {*GAMES, CoinGame.key}


def platform_files() -> list[Path]:
    """The platform's files, less a game's own bench (``bench/<game>/`` or ``bench/<game>*``),
    a game's client folder and the client's registry; and docs (``*.md``) anywhere."""
    files = []
    for top in PLATFORM:
        path = ROOT / top
        for file in [path] if path.is_file() else sorted(path.rglob("*")):
            relative = file.relative_to(ROOT)
            if not file.is_file() or "__pycache__" in relative.parts or file.suffix == ".md":
                continue
            if top == "bench" and relative.parts[1].startswith(tuple(game_keys())):
                continue
            if relative == CLIENT_REGISTRY or relative.is_relative_to(CLIENT_GAMES):
                continue
            files.append(file)
    return files


def test_the_platform_scan_reads_the_shell_and_skips_each_games_own_files():
    files = {str(file.relative_to(ROOT)) for file in platform_files()}
    assert {"frontend/js/app.js", "frontend/index.html", "Makefile"} <= files
    assert "frontend/js/games.js" not in files
    assert not any(name.startswith("frontend/js/games/") for name in files)
    assert "functions/message.py" in files


def test_no_platform_file_names_a_registered_game():
    # A key as a word of its own or joined by "_" ("catch_the_witch", "coin_game"), not
    # inside another word ("coins").
    named = re.compile(
        rb"(?<![A-Za-z0-9])(" + b"|".join(re.escape(k.encode()) for k in game_keys()) + rb")"
        rb"(?![A-Za-z0-9])"
    )
    naming = {
        str(file.relative_to(ROOT)): sorted({m.decode() for m in named.findall(file.read_bytes())})
        for file in platform_files()
    }
    naming = {file: keys for file, keys in naming.items() if keys}
    assert naming == {}, "a platform file names a game: look it up in engine.games.GAMES instead"


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
