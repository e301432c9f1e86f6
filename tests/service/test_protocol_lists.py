"""One source for the protocol's lists of names: the phone's copies of the server's lists
(frontend/js has no build step to import them from) are the same, and no game's move takes
a name the room service reads as something else (docs/protocol.md)."""

import json
import re
from pathlib import Path

import pytest

from engine.games import GAMES, register, reserve_move_names
from functions.room_service.service.commands import ROOM_ACTIONS, ROOMLESS_ACTIONS
from tests.support.coin_game import CoinGame

CLIENT = Path(__file__).resolve().parents[2] / "frontend" / "js"


def client_set(file: str, name: str) -> list[str]:
    """The names in ``const NAME = new Set([...]);`` of frontend/js/FILE, in their order."""
    found = re.search(rf"const {name} = new Set\((\[.*?\])\);", (CLIENT / file).read_text(), re.S)
    assert found, f"{file} defines no {name} set"
    return json.loads(found.group(1))


@pytest.mark.parametrize(
    ("file", "name", "server"),
    [
        ("app.js", "ROOM_ACTIONS", ROOM_ACTIONS),
        ("connection.js", "ROOMLESS_ACTIONS", ROOMLESS_ACTIONS),
    ],
)
def test_the_phone_copies_the_server_lists_exactly(file, name, server):
    # Whole copies, not only the names each file sends today: a name missing from app.js's
    # set would go out with the view's step, from connection.js's with the seat's room, and
    # the server refuses a field a room action does not have.
    client = client_set(file, name)
    assert len(client) == len(set(client)), f"{file}: {name} names one twice"
    assert set(client) == set(server), (
        f"{file}'s {name} lacks {sorted(set(server) - set(client))}, "
        f"has {sorted(set(client) - set(server))} the server's has not"
    )


class StartingCoin(CoinGame):
    """The coin game with a move named like the host's room action ``start``."""

    key = "starting_coin"
    move_types = CoinGame.move_types | {"start"}


def test_a_game_with_a_move_named_like_a_room_action_cannot_register():
    try:
        with pytest.raises(ValueError, match=r"'starting_coin' names a move 'start' \(a room"):
            register(StartingCoin())
        assert "starting_coin" not in GAMES
    finally:
        GAMES.pop("starting_coin", None)


def test_a_name_reserved_after_a_game_took_it_is_refused_and_not_reserved():
    register(CoinGame())
    try:
        with pytest.raises(ValueError, match=r"'coin' names a move 'call' \(a new action\)"):
            reserve_move_names(["call"], "a new action")
        register(CoinGame())  # "call" was not reserved
    finally:
        GAMES.pop(CoinGame.key, None)
